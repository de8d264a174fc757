"""Rache: two games with the roles swapped, recorded as a ``referee-match/1``
document and decided as the rulebook says."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from referee.cli import main
from referee.records import (
    Match,
    RecordError,
    json_schema,
    parse_document,
    parse_match,
    parse_record,
    validate,
    validate_source,
)
from referee.schotten_totten_2 import GameResult, Phase
from referee.schotten_totten_2.match import decide
from referee.schotten_totten_2.record import FORMAT

from .helpers import position

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "records" / "schotten-totten-2"
REASONS = {
    "won_both",
    "attacker_left_more_cards",
    "defender_kept_more_wall_and_oil",
    "further_game_needed",
}


def result(attacker: int, winner: int, deck: int = 0, intact: int = 0, oil: int = 0) -> GameResult:
    return GameResult(attacker, winner, "x", deck, intact, oil)


def example(name: str) -> dict[str, Any]:
    folder = (
        EXAMPLES.parents[1] / "illegal-records" / EXAMPLES.name if "illegal" in name else EXAMPLES
    )
    data: dict[str, Any] = json.loads((folder / name).read_text("utf-8"))
    return data


def check(data: dict[str, Any]) -> Any:
    return validate(parse_match(data))


# --- deciding the match ----------------------------------------------------------------


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


def test_decide_refuses_results_that_are_not_a_rache_match() -> None:
    # issue 12, point 12: two results with the same attacker, the wrong number of games
    with pytest.raises(ValueError, match="both games were attacked by player 1: the second game"):
        decide([result(0, 0), result(0, 1)])
    for results in ([], [result(0, 0)], [result(0, 0), result(1, 0), result(0, 1)]):
        with pytest.raises(ValueError, match=f"from 2 game results, not {len(results)}$"):
            decide(results)
    with pytest.raises(ValueError, match="game 2: expected a GameResult"):
        decide([result(0, 0), (1, 0)])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="game 1: winner must be 0 or 1, not 2"):
        decide([result(0, 2), result(1, 0)])


def test_game_result_reads_a_finished_game() -> None:
    game = position({4: ("R10 R11", "")}, damaged=[1, 2, 3], phase=Phase.AFTER_PLAY, oil=1)
    done = game.play("control 4")
    assert GameResult.of(done) == GameResult(0, 0, "fourth_tile_damaged", done.deck_size, 3, 1)
    with pytest.raises(ValueError, match="not over"):
        GameResult.of(game)


# --- the match document ------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("variants", [["rache"], ["rache", "tactics"]])
def test_random_matches_are_two_games_with_the_roles_swapped(
    seed: int, variants: list[str]
) -> None:
    match = FORMAT.random_match(seed, {"variants": variants, "rounds": 2})
    assert isinstance(match, Match) and len(match.games) == 2
    first, second = match.games
    assert second.first == 1 - first.first
    for game in match.games:
        assert game.deal is not None and game.deal["attacker"] == game.first
        assert ("tactics" in game.deal) == ("tactics" in variants)
        assert game.result is not None
    report = validate(match)
    assert report.legal, report.summary()
    assert report.games == 2 and report.match_result is not None
    assert report.match_result == match.result and match.result is not None
    assert match.result["reason"] in REASONS
    data = match.to_json()
    jsonschema.validate(data, json_schema("match"))
    assert parse_document(json.loads(json.dumps(data))) == match


def test_random_match_fills_in_the_rache_rules() -> None:
    match = FORMAT.random_match(1, {"variants": ["tactics"]})
    assert match.rules == {"variants": ["tactics", "rache"], "rounds": 2}
    with pytest.raises(RecordError, match="two games"):
        FORMAT.random_match(1, {"variants": ["rache"], "rounds": 3})
    with pytest.raises(RecordError, match="match of two games") as error:
        FORMAT.random_record(1, {"variants": ["rache"]})
    assert error.value.field == "rules.rounds"


def test_the_bundled_match_is_decided_by_the_defenders_wall_and_oil() -> None:
    report = validate_source(EXAMPLES / "match-rache.json")
    only = next(iter(report))
    assert only.legal, only.summary()
    assert only.match_result == {
        "winner": 0,
        "reason": "defender_kept_more_wall_and_oil",
        "scores": [7, 4],
    }


def test_level_scores_need_a_further_game() -> None:
    report = check(example("match-rache-tie.json"))
    assert report.legal, report.summary()
    assert report.match_result == {
        "winner": None,
        "reason": "further_game_needed",
        "scores": [6, 6],
    }


def test_the_roles_must_be_swapped() -> None:
    data = example("illegal-match-roles-not-swapped.json")
    assert data["meta"]["expected"] == {"match_error": True}
    report = check(data)
    assert report.error is None and report.input_error is None
    assert report.match_error is not None and "swaps the roles" in report.match_error
    assert "game 2 must be attacked by player 2" in report.match_error


def test_the_deal_of_game_two_must_agree_with_its_attacker() -> None:
    data = example("match-rache.json")
    data["games"][1]["first"] = data["games"][0]["first"]
    report = check(data)
    assert report.input_error is not None
    assert report.input_error.startswith("game 2:") and "deal.attacker" in report.input_error


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"rounds": 2}, 'rules.variants holds "rache"'),
        ({"variants": ["rache"]}, "rules.rounds of a Rache match must be 2, not None"),
        ({"variants": ["rache"], "rounds": 3}, "must be 2, not 3"),
    ],
)
def test_the_match_rules_say_rache_and_two_games(rules: dict[str, Any], words: str) -> None:
    data = {**example("match-rache.json"), "rules": rules}
    report = check(data)
    assert report.match_error is not None and words in report.match_error


def test_a_rache_match_is_two_games_not_three() -> None:
    data = example("match-rache.json")
    data["games"].append(data["games"][0])
    report = check(data)
    assert report.match_error == "a Rache match is two games, not 3"


def test_the_first_game_ends_before_the_second_starts() -> None:
    data = example("match-rache.json")
    data["games"][0]["moves"] = data["games"][0]["moves"][:10]
    del data["games"][0]["result"]
    report = check(data)
    assert report.match_error == "game 1 is unfinished but the match goes on"


def test_an_unfinished_match_has_no_result_yet() -> None:
    data = example("match-rache.json")
    del data["result"]
    one_game = {**data, "games": data["games"][:1]}
    report = check(one_game)
    assert report.legal and report.match_result is None, report.summary()
    assert report.summary().endswith("unfinished)")
    data["games"][1]["moves"] = data["games"][1]["moves"][:20]
    del data["games"][1]["result"]
    report = check(data)
    assert report.legal and report.match_result is None, report.summary()
    claimed = check({**one_game, "result": {"winner": 0}})
    assert claimed.result_mismatch is not None and "not over" in claimed.result_mismatch


def test_a_wrong_match_result_is_reported() -> None:
    data = example("match-rache.json")
    data["result"] = {"winner": 1}
    report = check(data)
    assert report.error is None and report.match_error is None
    assert (
        report.result_mismatch == "the record says player 2 wins but the replay says player 1 wins"
    )


def test_a_move_after_the_end_of_game_two_is_refused() -> None:
    data = example("match-rache.json")
    data["games"][1]["moves"].append("R1@1")
    report = check(data)
    assert report.error is not None
    assert (report.error.round, report.error.reason) == (2, "game_over")


def test_a_public_match_is_decided_from_the_visible_games() -> None:
    data = example("match-rache.json")
    for game in data["games"]:
        del game["deal"]
    report = check(data)
    assert report.legal and report.public, report.summary()
    assert report.match_result == example("match-rache.json")["result"]


def test_a_single_game_of_a_rache_match_validates_on_its_own() -> None:
    data = example("match-rache.json")
    # The match's own rules (rounds, "rache") belong to a match document only.
    rules = {"variants": [v for v in data["rules"]["variants"] if v != "rache"]}
    game = {"game": data["game"], "rules": rules, **data["games"][1]}
    report = validate(parse_record(game))
    assert report.legal and report.outcome is not None, report.summary()
    report = validate(parse_record({**game, "rules": data["rules"]}))
    assert report.input_error is not None and "write a match document" in report.input_error


def test_the_old_one_record_rache_is_refused() -> None:
    old = {
        "game": "schotten-totten-2",
        "rules": {"match": "rache"},
        "deal": {"games": [{"deck": []}, {"deck": []}]},
        "moves": ["next game"],
    }
    report = validate(parse_record(old))
    assert report.input_error is not None and "rules.match" in report.input_error
    assert "referee-match/1" in report.input_error
    data = {**old, "rules": {}}
    report = validate(parse_record(data))
    assert report.input_error is not None and "deal.deck" in report.input_error


def test_demo_prints_a_rache_match_that_validates(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = json.dumps({"variants": ["rache", "tactics"], "rounds": 2})
    assert main(["demo", "--game", "schotten-totten-2", "--seed", "5", "--rules", rules]) == 0
    printed = capsys.readouterr().out
    data = json.loads(printed)
    assert data["format"] == "referee-match/1" and len(data["games"]) == 2
    jsonschema.validate(data, json_schema("match"))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(printed.encode())))
    assert main(["validate", "-"]) == 0
    assert "schotten-totten-2 match, 2 games" in capsys.readouterr().out
