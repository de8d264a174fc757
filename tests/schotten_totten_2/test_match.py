"""Rache: two games with the roles swapped, decided as the rulebook says."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.records import parse_record, validate
from referee.schotten_totten_2 import (
    GameResult,
    Match,
    NextGame,
    Phase,
    new_match,
    public_match,
)
from referee.schotten_totten_2.match import decide
from referee.schotten_totten_2.record import FORMAT

from .helpers import position, reason_of


def result(attacker: int, winner: int, deck: int = 0, intact: int = 0, oil: int = 0) -> GameResult:
    return GameResult(attacker, winner, "x", deck, intact, oil)


def test_a_player_who_wins_both_games_wins_the_match() -> None:
    outcome = decide([result(0, 0), result(1, 0)])
    assert (outcome.winner, outcome.reason, outcome.scores) == (0, "won_both", None)


def test_both_attackers_won_more_cards_left_in_the_deck_wins() -> None:
    outcome = decide([result(0, 0, deck=9), result(1, 1, deck=14)])
    assert (outcome.winner, outcome.reason, outcome.scores) == (
        1,
        "attacker_left_more_cards",
        (9, 14),
    )
    tie = decide([result(0, 0, deck=9), result(1, 1, deck=9)])
    assert (tie.winner, tie.reason) == (None, "further_game_needed")


def test_both_defenders_won_more_intact_tiles_plus_oil_wins() -> None:
    outcome = decide([result(0, 1, intact=5, oil=1), result(1, 0, intact=4, oil=3)])
    assert (outcome.winner, outcome.reason, outcome.scores) == (
        0,
        "defender_kept_more_wall_and_oil",
        (7, 6),
    )
    tie = decide([result(0, 1, intact=5, oil=1), result(1, 0, intact=6, oil=0)])
    assert (tie.winner, tie.reason, tie.scores) == (None, "further_game_needed", (6, 6))


def test_game_result_reads_a_finished_game() -> None:
    game = position({4: ("R10 R11", "")}, damaged=[1, 2, 3], phase=Phase.AFTER_PLAY, oil=1)
    done = game.play("control 4")
    assert GameResult.of(done) == GameResult(0, 0, "fourth_tile_damaged", done.deck_size, 3, 1)
    with pytest.raises(ValueError, match="not over"):
        GameResult.of(game)


def test_a_match_swaps_the_roles_and_needs_next_game_between_the_games() -> None:
    match = new_match(seed=8, attacker=1)
    assert match.game.attacker == 1 and match.second.attacker == 0 and match.to_move == 1
    with pytest.raises(ValueError, match="swaps the roles"):
        Match(match.game, replace(match.second, attacker=1))
    finished = position({4: ("R10 R11", "")}, damaged=[1, 2, 3], phase=Phase.AFTER_PLAY)
    between = Match(finished, new_match(seed=8, attacker=0).second).play("control 4")
    assert between.results and between.outcome is None
    assert between.legal_moves() == [NextGame()] and between.to_move == 1
    assert reason_of(between, "R1@1") == "next_game_needed"  # type: ignore[arg-type]
    second = between.play("next game")
    assert second.number == 2 and second.game.attacker == 1 and second.game.ply == 0
    assert reason_of(second, "next game") == "game_in_progress"  # type: ignore[arg-type]
    assert "game 1: player 1 won as attacker" in str(second)


def test_random_matches_end_with_a_match_outcome_and_nothing_after() -> None:
    for seed in range(3):
        record = FORMAT.random_record(seed, {"match": "rache", "variants": ["tactics"]})
        assert record.moves.count("next game") == 1
        report = validate(record)
        assert report.legal, report.summary()
        assert report.outcome is not None and report.outcome.reason in (
            "won_both",
            "attacker_left_more_cards",
            "defender_kept_more_wall_and_oil",
            "further_game_needed",
        )
        assert record.result is not None and record.result["reason"] == report.outcome.reason
        data = record.to_json()
        data["moves"] = [*data["moves"], "R1@1"]
        late = validate(parse_record(data))
        assert late.error is not None and late.error.reason == "game_over"


def test_a_public_match_record_validates() -> None:
    record = FORMAT.random_record(4, {"match": "rache"})
    public = replace(record, deal=None, result=record.result)
    assert validate(public).legal
    assert public_match(attacker=1).second.attacker == 0


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        ({"deck": []}, "deal.games"),
        ({"games": [{}, {}]}, "deal.games[0].deck"),
        ({"games": "x"}, "deal.games"),
    ],
)
def test_match_deals_are_checked(deal: dict, field: str) -> None:
    record = parse_record(
        {"game": "schotten-totten-2", "rules": {"match": "rache"}, "deal": deal, "moves": []}
    )
    report = validate(record)
    assert report.input_error is not None and field in report.input_error


def test_the_second_game_must_swap_the_roles() -> None:
    data = FORMAT.random_record(1, {"match": "rache"}).to_json()
    data["deal"]["games"][1]["attacker"] = data["first"]
    report = validate(parse_record(data))
    assert report.input_error is not None and "deal.games[1].attacker" in report.input_error
