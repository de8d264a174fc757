"""Schotten Totten 2 records and positions: set-up errors, positions, claimability."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.records import Position, parse_record, replay, validate
from referee.schotten_totten_2 import Phase, State
from referee.schotten_totten_2.record import FORMAT

from .helpers import position

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "records" / "schotten-totten-2"


def test_the_game_is_registered_on_import() -> None:
    import referee
    from referee.records import game_names

    assert "schotten-totten-2" in game_names()
    assert referee.schotten_totten_2.State is State


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"rules": {"variants": ["tartan"]}}, "rules.variants", "unsupported variant"),
        ({"rules": {"match": "rache"}}, "rules.match", "referee-match/1 document"),
        ({"rules": {"edition": "2020"}}, "rules.edition", "unknown rule"),
        ({"rules": {"rounds": 0}}, "rules.rounds", "a number of games"),
        ({"first": 2}, "first", "0 or 1"),
        ({"deal": {"deck": "R1"}}, "deal.deck", "array of 60"),
        ({"deal": {"deck": ["R1"] * 60}}, "deal.deck", "once each"),
        ({"deal": {"deck": ["Q1"]}}, "deal.deck[0]", "unknown card"),
        ({"deal": {"deck": ["R12"]}}, "deal.deck[0]", "outside 0-11"),
        ({"deal": {"deck": [], "attacker": 1}}, "deal.attacker", "the attacker moves first"),
        ({"deal": {"deck": [], "tactics": []}}, "deal.tactics", "no tactic pile"),
        (
            {"rules": {"variants": ["tactics"]}, "deal": {"deck": []}},
            "deal.tactics",
            "11 tactic cards",
        ),
        (
            {"rules": {"variants": ["tactics"]}, "deal": {"deck": [], "tactics": ["dragon"]}},
            "deal.tactics[0]",
            "tactic card name",
        ),
    ],
)
def test_unreadable_setup_is_reported_not_raised(changes: dict, field: str, words: str) -> None:
    data = {"game": "schotten-totten-2", "moves": ["R1@1"], **changes}
    report = validate(parse_record(data, "x.json"))
    assert not report.legal and report.input_error is not None
    assert field in report.input_error and words in report.input_error


def test_tactic_pile_must_hold_the_eleven_cards() -> None:
    data = FORMAT.random_record(2, {"variants": ["tactics"]}).to_json()
    data["deal"]["tactics"][0] = "spy" if data["deal"]["tactics"][0] != "spy" else "joker"
    report = validate(parse_record(data))
    assert report.input_error is not None and "deal.tactics" in report.input_error


@pytest.mark.parametrize("rules", [{}, {"variants": ["tactics"]}])
def test_positions_round_trip_and_keep_claimability(rules: dict) -> None:
    record = FORMAT.random_record(11, rules)
    for ply in range(0, len(record.moves), 7):
        state = replay(record, ply)
        if state.phase is not Phase.OPENING:
            continue
        again = FORMAT.load_position(FORMAT.position_of(state))
        assert [t.sides for t in again.tiles] == [t.sides for t in state.tiles]
        assert [t.damaged for t in again.tiles] == [t.damaged for t in state.tiles]
        assert again.unseen_siege_cards() == state.unseen_siege_cards()
        assert (again.deck_size, again.tactic_deck_size) == (
            state.deck_size,
            state.tactic_deck_size,
        )
        assert again.hand_sizes == state.hand_sizes and again.oil == state.oil
        assert again.tactics_played == state.tactics_played
        mine = [(a.place, a.claimable) for a in FORMAT.claimability(state)]
        assert [(a.place, a.claimable) for a in FORMAT.claimability(again)] == mine


def test_claimability_answers_for_the_attacker_per_tile() -> None:
    state = position({4: ("", "R10 R11"), 1: ("", "R1 R2 R3")}, attacker=1)
    answers = {a.place: a for a in FORMAT.claimability(state)}
    assert len(answers) == 7 and all(a.player == 1 for a in answers.values())
    assert answers[4].claimable is True and answers[4].label == "tile 4"
    assert answers[1].claimable is False and "e.g. with" in answers[1].explanation
    assert answers[2].claimable is None
    assert answers[1].evidence["opponent_best"]["added"]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"tiles": []}, "tiles"),
        ({"tiles": [{"sides": [["R1", "R2", "R3", "R4"], []]}] + [{}] * 6}, "tiles[0].sides[0]"),
        ({"tiles": [{"sides": [["R0"], ["R11"]]}] + [{}] * 6}, "tiles[0]"),
        (
            {"tiles": [{"sides": [["R1", "R2", "R3"], ["Y1", "Y2", "Y3"]]}] + [{}] * 6},
            "tiles[0].first",
        ),
        ({"tiles": [{}] * 7, "oil": 4}, "oil"),
        ({"tiles": [{}] * 7, "hand_sizes": [30, 31]}, "hand_sizes"),
        ({"tiles": [{}] * 7, "discards": ["joker"]}, "discards[0]"),
    ],
)
def test_bad_positions_say_where(data: dict, field: str) -> None:
    from referee.records import RecordError

    with pytest.raises(RecordError) as error:
        FORMAT.load_position(Position("schotten-totten-2", data))
    assert error.value.field == field


def test_bundled_examples_exist_and_match_their_expectations() -> None:
    import json

    import jsonschema

    from referee.records import json_schema, validate_source

    illegal = EXAMPLES.parents[1] / "illegal-records" / EXAMPLES.name
    paths = sorted([*EXAMPLES.glob("*.json"), *illegal.glob("*.json")])
    names = [p.name for p in paths]
    assert any(n.startswith("full-") and "tactics" in n for n in names)
    assert any(n.startswith("full-") and "tactics" not in n for n in names)
    assert any(n.startswith("public-") for n in names)
    assert sum(n.startswith("illegal-") for n in names) >= 3
    assert any(n.startswith("match-rache") for n in names)
    for path in paths:
        data = json.loads(path.read_text("utf-8"))
        jsonschema.validate(data, json_schema("match" if "games" in data else "record"))
        expected = data.get("meta", {}).get("expected")
        (report,) = validate_source(path)
        if expected is None:
            assert report.legal, report.summary()
        elif "match_error" in expected:
            assert report.error is None and report.match_error is not None, report.summary()
        else:
            assert report.error is not None, report.summary()
            assert (report.error.ply, report.error.reason) == (expected["ply"], expected["reason"])
