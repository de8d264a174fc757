"""``referee validate --witness``: a legal public record comes with a deal that fits."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from referee.cli import main
from referee.records import Record, find_game, parse_record, validate

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = [
    ROOT / "examples" / "records" / "schotten-totten" / "public-2024.json",
    ROOT / "examples" / "records" / "schotten-totten" / "public-2024-tactics.json",
    ROOT / "examples" / "records" / "schotten-totten-2" / "public-base.json",
]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


@pytest.mark.parametrize("path", PUBLIC, ids=lambda p: p.name)
def test_the_witness_deal_makes_the_public_record_a_legal_full_record(
    capsys: pytest.CaptureFixture[str], path: Path
) -> None:
    code, out = _run(capsys, "validate", "--witness", "--json", str(path))
    assert code == 0
    report = json.loads(out.splitlines()[0])
    assert report["legal"] and report["public"]
    found = report["witness"]
    assert set(found) == {"deal"}  # nothing hidden to name: the moves stay as they are
    data = json.loads(path.read_text())
    data["deal"] = found["deal"]
    full = parse_record(data)
    assert not full.is_public
    checked = validate(full)
    assert checked.legal and checked.plies == report["plies"], checked.summary()


def test_text_output_prints_the_witness_under_the_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    moves = (
        "R1@1", "draw tactic", "O1@1", "draw clan",
        "recruiter draw clan tactic clan return clan tactic", "done", "Y1@1",
    )  # fmt: skip
    record = Record("schotten-totten", moves, {"variants": ["tactics"]})
    path = tmp_path / "hidden.json"
    path.write_text(json.dumps(record.to_json()))
    code, out = _run(capsys, "validate", "--witness", str(path))
    lines = out.splitlines()
    assert code == 0 and lines[0].endswith(
        "ok (schotten-totten, public record, 7 plies, unfinished)"
    )
    assert lines[1].startswith("  witness: ")
    found = json.loads(lines[1].removeprefix("  witness: "))
    # the hidden recruiter returns are named, as a full record must
    assert "return clan" not in found["moves"][4] and found["moves"][:4] == list(moves[:4])
    full = dataclasses.replace(record, deal=found["deal"], moves=tuple(found["moves"]))
    assert validate(full).legal


def test_no_witness_for_full_or_illegal_records(capsys: pytest.CaptureFixture[str]) -> None:
    full = ROOT / "examples" / "records" / "schotten-totten" / "full-2024.json"
    illegal = (
        ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-public-card-twice.json"
    )
    code, out = _run(capsys, "validate", "--witness", "--json", str(full), str(illegal))
    reports = [json.loads(line) for line in out.splitlines()[:2]]
    assert code == 1
    assert [r["witness"] for r in reports] == [None, None]


def test_a_public_match_gets_one_witness_per_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    match = find_game("schotten-totten").random_match(3, {"rounds": 2})
    public = dataclasses.replace(
        match, games=tuple(dataclasses.replace(g, deal=None) for g in match.games)
    )
    path = tmp_path / "match.json"
    path.write_text(json.dumps(public.to_json()))
    code, out = _run(capsys, "validate", "--witness", "--json", str(path))
    report = json.loads(out.splitlines()[0])
    assert code == 0 and report["legal"]
    assert len(report["witness"]) == 2
    # a game of a match is checked as part of its match (a lone game has no rounds)
    games = tuple(
        dataclasses.replace(game, deal=found["deal"])
        for game, found in zip(public.games, report["witness"], strict=True)
    )
    full = dataclasses.replace(public, games=games)
    checked = validate(full)
    assert not full.is_public and checked.legal, checked.summary()
    assert checked.plies == report["plies"]
