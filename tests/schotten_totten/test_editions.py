"""Each edition's own rules: the 1999 edition's claims, variants and matches."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.errors import IllegalMoveError
from referee.game import Outcome
from referee.records import Match, Record, RecordError, validate
from referee.schotten_totten import Claim, Phase, Rules
from referee.schotten_totten.record import FORMAT

from .helpers import position

OLD = Rules(edition="1999")


def test_1999_claims_come_any_time_before_the_draw() -> None:
    # "noch bevor er eine Karte zieht": also at the start of the turn, before playing
    start = position({1: ("R7 R8 R9", "O1")}, hands=("Y1", ""), phase=Phase.PLAY, rules=OLD)
    assert Claim(1) in start.legal_moves()
    claimed = start.play("claim 1")
    assert claimed.stone(1).owner == 0 and claimed.phase is Phase.PLAY
    played = claimed.play("Y1@2")
    assert played.phase is Phase.AFTER_PLAY
    # and after playing, as in 2024
    assert start.play("Y1@2").play("claim 1").stone(1).owner == 0
    # the 2024 edition still claims only after playing
    new = position({1: ("R7 R8 R9", "O1")}, hands=("Y1", ""), phase=Phase.PLAY)
    with pytest.raises(IllegalMoveError) as error:
        new.play("claim 1")
    assert error.value.reason == "claim_not_now"
    assert Claim(1) not in new.legal_moves()


def test_1999_edition_has_no_variants() -> None:
    with pytest.raises(ValueError, match="1999 edition has no variants"):
        Rules(edition="1999", early_bird=True)
    with pytest.raises(ValueError, match="1999 edition has no variants"):
        Rules(edition="1999", tactics=True)
    for variant in ("early-bird", "tactics", "clanfehde"):
        with pytest.raises(RecordError, match="1999 edition has no variants"):
            FORMAT.rules_of({"edition": "1999", "variants": [variant]})
    record = Record("schotten-totten", (), {"edition": "1999", "variants": ["early-bird"]})
    assert "no variants" in (validate(record).input_error or "")


def _finished(winner: int | None):
    state = position({}, owners={1: 0, 2: 0, 3: 0} if winner == 0 else {4: 1, 5: 1, 6: 1})
    if winner is None:
        return replace(position({}, owners={1: 0, 9: 1}), outcome=Outcome("blocked", None))
    return replace(state, outcome=Outcome("three_adjacent", winner))


def _match(firsts: list[int], rules: dict) -> Match:
    games = tuple(Record("schotten-totten", (), rules, first=f) for f in firsts)
    return Match("schotten-totten", games, rules)


def test_1999_match_the_winner_of_the_previous_game_starts_the_next() -> None:
    rules = {"edition": "1999", "rounds": 3}
    finals = [_finished(1), _finished(1), _finished(0)]
    result, problem = FORMAT.match_result(_match([0, 1, 1], rules), finals)
    assert problem is None
    assert result == {"scores": [0 + 0 + 5, 5 + 5 + 0], "winner": 1, "reason": "points"}
    # the 2024 alternation is wrong for a 1999 match
    _, problem = FORMAT.match_result(_match([0, 1, 0], rules), finals)
    assert problem is not None and "game 3 must be started by player 2" in problem
    assert "winner of the previous game" in problem
    # after a game without a winner, the player who did not start it starts
    blocked = [_finished(None), _finished(0)]
    two = {"edition": "1999", "rounds": 2}
    assert FORMAT.match_result(_match([0, 1], two), blocked)[1] is None
    assert FORMAT.match_result(_match([0, 0], two), blocked)[1] is not None


@pytest.mark.parametrize("seed", [1, 5])
def test_random_1999_matches_validate(seed: int) -> None:
    match = FORMAT.random_match(seed, {"edition": "1999", "rounds": 3})
    report = validate(match)
    assert report.legal, report.summary()
    assert match.rules == {"edition": "1999", "rounds": 3}
    for before, after in zip(match.games, match.games[1:], strict=False):
        final = FORMAT._final(before)
        winner = final.outcome.winner
        assert after.first == (winner if winner is not None else 1 - before.first)
