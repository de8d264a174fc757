"""Clanfehde: a match of N rounds, scored 5 for the winner and one per stone for the other."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.game import Outcome
from referee.records import Match, Record, parse_document, parse_match, validate
from referee.schotten_totten import Rules
from referee.schotten_totten.record import FORMAT

from .helpers import position

CLANFEHDE = {"variants": ["clanfehde"], "rounds": 3}


def finished(winner: int, loser_stones: int):
    owners = {n: winner for n in (1, 2, 3)} | {n: 1 - winner for n in range(5, 5 + loser_stones)}
    state = position({}, owners=owners)
    return replace(state, outcome=Outcome("three_adjacent", winner))


def match_of(firsts: list[int], rounds: int = 3, variants=("clanfehde",)) -> Match:
    rules = {"variants": list(variants), "rounds": rounds}
    games = tuple(Record("schotten-totten", (), rules, first=f) for f in firsts)
    return Match("schotten-totten", games, rules)


def test_scoring_five_for_the_winner_and_stones_for_the_other() -> None:
    result, problem = FORMAT.match_result(
        match_of([0, 1, 0]), [finished(0, 2), finished(1, 4), finished(0, 0)]
    )
    assert problem is None
    assert result == {"scores": [5 + 4 + 5, 2 + 5 + 0], "winner": 0, "reason": "points"}


def test_equal_totals_draw() -> None:
    result, _ = FORMAT.match_result(match_of([0, 1], rounds=2), [finished(0, 2), finished(1, 2)])
    assert result == {"scores": [7, 7], "winner": None, "reason": "draw"}


def test_starting_player_alternates() -> None:
    _, problem = FORMAT.match_result(match_of([1, 1, 0]), [finished(0, 0)] * 3)
    assert problem is not None and "game 2 must be started by player 1" in problem


def test_rounds_and_variant_are_checked() -> None:
    assert FORMAT.match_result(match_of([0, 1, 0, 1]), [finished(0, 0)] * 4)[1] is not None
    assert "clanfehde" in FORMAT.match_result(match_of([0], 1, ()), [finished(0, 0)])[1]
    unfinished = replace(finished(0, 0), outcome=None)
    assert FORMAT.match_result(match_of([0, 1]), [finished(0, 0), unfinished]) == (None, None)
    assert "unfinished" in FORMAT.match_result(match_of([0, 1]), [unfinished, finished(0, 0)])[1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_matches_validate_and_round_trip(seed: int) -> None:
    match = FORMAT.random_match(seed, CLANFEHDE)
    report = validate(match)
    assert report.legal, report.summary()
    assert report.games == 3 and report.match_result == match.result
    again = parse_document(match.to_json())
    assert again == match
    # scores recomputed independently from the replayed games
    scores = [0, 0]
    for record in match.games:
        state = FORMAT.start(record)
        for move in record.moves:
            state = state.play(move)
        winner = state.outcome.winner
        scores[winner] += 5
        scores[1 - winner] += sum(s.owner == 1 - winner for s in state.stones)
    assert match.result["scores"] == scores


def test_wrong_recorded_match_result_and_illegal_game_are_reported() -> None:
    match = FORMAT.random_match(4, CLANFEHDE)
    wrong = replace(match, result={**match.result, "scores": [0, 0]})
    assert "scores" in validate(wrong).result_mismatch
    games = list(match.games)
    games[1] = replace(games[1], moves=("pass", *games[1].moves[1:]))
    report = validate(replace(match, games=tuple(games)))
    assert report.error is not None and report.error.round == 2 and report.error.ply == 1
    assert "game 2, ply 1" in report.summary()


def test_match_fields_are_checked() -> None:
    with pytest.raises(ValueError, match=r"games\[0\]\.rules"):
        parse_match({"game": "schotten-totten", "games": [{"rules": {}, "moves": []}]})
    with pytest.raises(ValueError, match="at least one game"):
        parse_match({"game": "schotten-totten", "games": []})
    with pytest.raises(ValueError, match=r"rules\.rounds"):
        FORMAT.random_match(1, {"rounds": 0})


def test_clanfehde_rules_parse_and_other_keys_are_refused() -> None:
    assert FORMAT.rules_of(CLANFEHDE) == Rules()
    with pytest.raises(ValueError, match=r"rules\.edtion"):
        FORMAT.rules_of({"edtion": "1999"})


def test_a_blocked_round_scores_each_player_its_stones() -> None:
    blocked = replace(finished(0, 2), outcome=Outcome("blocked", None))
    result, problem = FORMAT.match_result(match_of([0, 1], rounds=2), [blocked, finished(1, 1)])
    assert problem is None
    assert result["scores"] == [3 + 1, 2 + 5]
