"""Record and position reading, writing, validation, and the bundled examples."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import jsonschema
import pytest

from referee.records import (
    RecordError,
    find_game,
    iter_records,
    json_schema,
    load_position,
    load_record,
    parse_record,
    replay,
    validate,
    validate_source,
)
from referee.schotten_totten.record import FORMAT

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(
    [
        *(ROOT / "examples" / "records").rglob("*.json"),
        *(ROOT / "examples" / "illegal-records").rglob("*.json"),
    ]
)


def test_there_are_bundled_examples_of_each_kind() -> None:
    names = [p.name for p in EXAMPLES]
    assert any(n.startswith("full-") for n in names)
    assert any(n.startswith("public-") for n in names)
    assert sum(n.startswith("illegal-") for n in names) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_bundled_example_matches_its_stated_expectation(path: Path) -> None:
    data = json.loads(path.read_text("utf-8"))
    jsonschema.validate(data, json_schema("match" if "games" in data else "record"))
    report = next(iter(validate_source(path)))
    expected = data.get("meta", {}).get("expected")
    if expected is None:
        assert report.legal, report.summary()
    elif "result_mismatch" in expected:
        assert report.error is None and report.result_mismatch is not None
    elif "match_error" in expected:
        assert report.error is None and report.match_error is not None
    else:
        assert report.error is not None, report.summary()
        assert (report.error.ply, report.error.reason) == (expected["ply"], expected["reason"])


def test_bundled_positions_follow_the_schema() -> None:
    for path in (ROOT / "examples" / "positions").glob("*.json"):
        jsonschema.validate(json.loads(path.read_text("utf-8")), json_schema("position"))
        load_position(path)


def test_record_round_trips_through_json() -> None:
    record = FORMAT.random_record(8, {"edition": "1999"})
    again = parse_record(json.loads(record.dumps()))
    assert again == record
    jsonschema.validate(record.to_json(), json_schema("record"))


def test_claim_refusal_report_carries_evidence() -> None:
    path = ROOT / "examples/illegal-records/schotten-totten/illegal-claim-not-proven.json"
    report = validate(load_record(path))
    assert report.error is not None and report.error.evidence is not None
    best = report.error.evidence["opponent_best"]
    assert best["added"] and best["kind"]
    assert report.to_json()["error"]["evidence"] == report.error.evidence


def test_replay_to_a_ply_and_position_round_trip() -> None:
    record = FORMAT.random_record(3, {})
    state = replay(record, 40)
    position = FORMAT.position_of(state)
    again = FORMAT.load_position(position)
    assert [s.sides for s in again.stones] == [s.sides for s in state.stones]
    assert [s.owner for s in again.stones] == [s.owner for s in state.stones]
    assert again.unseen_cards() == state.unseen_cards()
    for number in range(1, 10):  # the same claims are provable from the position
        for player in (0, 1):
            if len(state.stone(number).sides[player]) == 3 and state.stone(number).owner is None:
                assert (
                    again.claim_verdict(number, player=player).holds
                    == state.claim_verdict(number, player=player).holds
                )
    with pytest.raises(RecordError, match="outside"):
        replay(record, len(record.moves) + 1)


def test_jsonl_corpus_is_read_lazily_and_bad_lines_do_not_stop_it(tmp_path: Path) -> None:
    good = FORMAT.random_record(1, {}).dumps()
    corpus = tmp_path / "games.jsonl"
    corpus.write_text("\n".join([good, "{not json", "", '{"game": 5, "moves": []}', good]) + "\n")
    items = iter_records(corpus)
    first = next(items)
    assert not isinstance(first, RecordError)
    rest = list(items)
    assert [type(i).__name__ for i in rest] == ["RecordError", "RecordError", "Record"]
    assert rest[0].where == f"{corpus}:2"
    assert rest[1].where == f"{corpus}:4" and rest[1].field == "game"
    reports = list(validate_source(corpus))
    assert [r.legal for r in reports] == [True, False, False, True]
    assert reports[1].input_error is not None


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ([], "", "expected a JSON object"),
        ({"moves": []}, "game", "missing"),
        ({"game": "schotten-totten"}, "moves", "missing"),
        ({"game": "schotten-totten", "moves": [1]}, "moves[0]", "expected a move"),
        ({"game": "schotten-totten", "moves": [], "players": "ab"}, "players", "an array"),
        ({"game": "schotten-totten", "moves": [], "first": True}, "first", "an integer"),
        ({"format": "pgn", "game": "x", "moves": []}, "format", "unknown format"),
    ],
)
def test_malformed_records_say_where(data: object, field: str, words: str) -> None:
    with pytest.raises(RecordError) as error:
        parse_record(data, "in.json")
    assert error.value.field == field and words in str(error.value)
    assert str(error.value).startswith("in.json")


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"game": "chess"}, "game", "unknown game"),
        ({"rules": {"edition": "2030"}}, "rules.edition", "unknown edition"),
        ({"rules": {"variants": ["tartan"]}}, "rules.variants", "unsupported variant"),
        ({"first": 2}, "first", "0 or 1"),
        ({"deal": {"deck": "R1"}}, "deal.deck", "array"),
        ({"deal": {"deck": ["R1"] * 54}}, "deal.deck", "each of the 54"),
        ({"deal": {"deck": ["Q1"] + ["R1"] * 53}}, "deal.deck[0]", "unknown card"),
        ({"deal": {"deck": [7]}}, "deal.deck[0]", "expected a card"),
    ],
)
def test_unreadable_setup_is_reported_not_raised(changes: dict, field: str, words: str) -> None:
    data = {"game": "schotten-totten", "moves": ["R1@1"], **changes}
    report = validate(parse_record(data, "x.json"))
    assert not report.legal and report.input_error is not None
    assert field in report.input_error and words in report.input_error
    assert "unreadable" in report.summary()


@pytest.mark.parametrize(
    "text",
    [
        b"\xff\xfe{}",
        b"[" * 100000,
        b'{"game": "schotten-totten", "moves": [' + b"1" * 5000 + b"]}",
        b"",
        b"null",
    ],
)
def test_hostile_input_gives_record_errors(text: bytes) -> None:
    reports = list(validate_source(io.BytesIO(text)))
    assert len(reports) == 1 and reports[0].input_error is not None


def test_recorded_result_must_match() -> None:
    record = FORMAT.random_record(5, {}).to_json()
    record["moves"] = record["moves"][:10]
    report = validate(parse_record(record))
    assert report.result_mismatch is not None and "not over" in report.result_mismatch


@pytest.mark.parametrize("game", ["schotten-totten", "schotten-totten-2", "clans-and-glory"])
def test_a_result_of_a_finished_game_says_who_won_and_why(game: str) -> None:
    record = find_game(game).random_record(5, {})
    assert record.result is not None and validate(record).legal
    empty = validate(dataclasses.replace(record, result={}))
    assert empty.result_mismatch is not None
    assert empty.result_mismatch.startswith("the record's result {} gives no winner and no reason")
    winner_only = validate(dataclasses.replace(record, result={"winner": record.result["winner"]}))
    assert (
        winner_only.result_mismatch is not None and "gives no reason" in winner_only.result_mismatch
    )
