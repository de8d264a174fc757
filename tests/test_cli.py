"""The referee command line: exit codes, output, and no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.schotten_totten.record import FORMAT

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "records"
ILLEGAL = ROOT / "examples" / "illegal-records"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_examples_folder(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(EXAMPLES))
    assert code == 0  # every bundled game there is legal
    assert "ok (schotten-totten, public record" in out
    assert out.strip().splitlines()[-1].endswith(" legal, 0 illegal, 0 unreadable")
    code, out, _ = run(capsys, "validate", str(ILLEGAL))
    assert code == 1  # the illegal examples, each pinpointed
    assert "illegal at ply 13 'G4@7' [card_not_in_hand]" in out
    assert out.strip().splitlines()[-1].endswith("illegal, 0 unreadable")
    assert "0 legal" in out.strip().splitlines()[-1]


def test_validate_folder_without_records_is_not_a_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("no records here", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(tmp_path))
    assert code == 2  # nothing checked must not read as "every game legal"
    assert "no .json or .jsonl file in this folder" in out
    (tmp_path / "g.json").write_text(
        (EXAMPLES / "schotten-totten" / "full-2024.json").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "validate", str(tmp_path))
    assert code == 0 and "1 records: 1 legal" in out


def test_validate_legal_file_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(EXAMPLES / "schotten-totten" / "full-2024.json"))
    assert code == 0 and "1 records: 1 legal, 0 illegal, 0 unreadable" in out


def test_validate_unreadable_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    code, out, _ = run(capsys, "validate", str(bad), str(tmp_path / "missing.json"))
    assert code == 2
    assert "bad JSON" in out and "cannot read" in out


def test_validate_json_lines_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", "--json", str(EXAMPLES), str(ILLEGAL))
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[-1]["summary"]["records"] == len(lines) - 1
    wrong = [r for r in lines[:-1] if r["result_mismatch"]]
    assert wrong and not wrong[0]["legal"]
    assert code == 1


def test_validate_jobs_gives_the_same_reports(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(FORMAT.random_record(s, {}).dumps() for s in range(12)) + "\n")
    one = run(capsys, "validate", "--json", str(corpus))
    two = run(capsys, "validate", "--json", "--jobs", "2", str(corpus))
    assert one == two and one[0] == 0


def test_claimable_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    position = ROOT / "examples" / "positions" / "blue-seven.json"
    code, out, _ = run(capsys, "claimable", str(position))
    assert code == 0
    assert "stone 2, player 1: claimable" in out
    code, out, _ = run(capsys, "claimable", "--json", str(position))
    answers = json.loads(out)["answers"]
    stone2 = next(a for a in answers if a["place"] == 2 and a["player"] == 0)
    assert stone2["claimable"] is True and stone2["evidence"]["opponent_best"]["kind"] == "color"
    code, out, _ = run(capsys, "show", str(position))
    assert code == 0 and "R6 O6 Y6" in out and "B8 B9" in out


def test_claimable_at_a_ply_of_a_record(capsys: pytest.CaptureFixture[str]) -> None:
    record = EXAMPLES / "schotten-totten" / "full-2024.json"
    code, out, _ = run(capsys, "show", "--ply", "0", str(record))
    assert code == 0 and "ply 0" in out
    code, _, err = run(capsys, "show", "--ply", "9999", str(record))
    assert code == 2 and "past the record" in err
    illegal = (
        ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-pass-with-cards.json"
    )
    code, _, err = run(capsys, "claimable", str(illegal))
    assert code == 1 and "illegal at ply 1" in err


def test_demo_prints_a_legal_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "demo", "--seed", "17")
    assert code == 0
    path = tmp_path / "demo.json"
    path.write_text(out)
    assert run(capsys, "validate", str(path))[0] == 0
    assert run(capsys, "demo", "--game", "go")[0] == 2


@pytest.mark.parametrize(
    "args",
    [
        ["validate"],
        ["nonsense"],
        ["validate", "--jobs", "0", "x"],
        ["claimable"],
        ["demo", "--rules", "[1]"],
        ["show", "--ply", "-3", "x"],
    ],
)
def test_bad_command_lines_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    assert run(capsys, *args)[0] == 2


def test_module_entry_point_reads_stdin_without_traceback() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "referee", "validate", "-"],
        input=b"\x00\xff garbage",
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert b"Traceback" not in result.stderr + result.stdout
    assert b"unreadable" in result.stdout


def test_the_cli_package_runs_as_a_module_as_referee_does() -> None:
    # ``python -m referee.cli`` (the command line is a package) and ``python -m
    # referee`` give the same lines and status.
    runs = [
        subprocess.run(
            [sys.executable, "-m", module, "validate", "-"],
            input=b"{}",
            capture_output=True,
            timeout=60,
            check=False,
        )
        for module in ("referee", "referee.cli")
    ]
    assert runs[0].returncode == runs[1].returncode == 2
    assert runs[0].stdout == runs[1].stdout and b"unreadable" in runs[1].stdout
    assert runs[0].stderr == runs[1].stderr


def test_show_and_claimable_pick_a_game_of_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    match = EXAMPLES / "schotten-totten" / "match-clanfehde.json"
    code, out, _ = run(capsys, "show", "--round", "2", "--ply", "10", str(match))
    assert code == 0 and "ply 10" in out
    code, _, err = run(capsys, "claimable", "--round", "9", str(match))
    assert code == 2 and "the match has 3 games" in err
    position = ROOT / "examples" / "positions" / "blue-seven.json"
    code, _, err = run(capsys, "show", "--round", "1", str(position))
    assert code == 2 and "--round applies to matches" in err


def corpus_of(tmp_path: Path, *paths: Path) -> Path:
    """A JSON Lines corpus of the given documents, one a line."""
    corpus = tmp_path / "corpus.jsonl"
    lines = [json.dumps(json.loads(p.read_text(encoding="utf-8"))) for p in paths]
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return corpus


def test_show_and_claimable_read_a_document_of_a_corpus(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first = EXAMPLES / "schotten-totten" / "full-2024.json"
    match = EXAMPLES / "schotten-totten-2" / "match-rache.json"
    position = ROOT / "examples" / "positions" / "blue-seven.json"
    corpus = corpus_of(tmp_path, first, match, position)
    # The same answers as the document read on its own.
    alone = run(capsys, "claimable", "--json", "--ply", "30", str(first))
    assert (
        run(capsys, "claimable", "--json", "--document", "1", "--ply", "30", str(corpus)) == alone
    )
    alone = run(capsys, "show", "--round", "2", "--ply", "40", str(match))
    assert (
        run(capsys, "show", "--document", "2", "--round", "2", "--ply", "40", str(corpus)) == alone
    )
    alone = run(capsys, "claimable", str(position))
    assert run(capsys, "claimable", "--document", "3", str(corpus)) == alone
    assert alone[0] == 0 and "stone 2" in alone[1]
    # Several documents need a choice; a missing one is named.
    code, _, err = run(capsys, "show", str(corpus))
    assert code == 2 and "several documents: pick one with --document D" in err
    code, _, err = run(capsys, "claimable", "--document", "4", str(corpus))
    assert code == 2 and "there is no document 4" in err
    # An illegal document of a corpus gets the verdict every command gives.
    illegal = ILLEGAL / "schotten-totten" / "illegal-claim-not-proven.json"
    corpus = corpus_of(tmp_path, first, illegal)
    code, out, err = run(capsys, "show", "--document", "2", "--ply", "3", str(corpus))
    assert code == 1 and out == ""
    assert f"{corpus}:2: illegal at ply 24 'claim 4' [claim_not_proven]" in err


def test_the_elo_of_a_clean_sweep_reads_as_a_bound() -> None:
    from referee.arena import Standing, render_table

    sweep = Standing(
        "all", 10, 10, 0, 0, 10.0, 1.0, 0.72, 1.0, float("inf"), 164.0, float("inf"), 0
    )
    none = Standing(
        "none", 10, 0, 10, 0, 0.0, 0.0, 0.0, 0.28, float("-inf"), float("-inf"), -164.0, 0
    )
    table = render_table([sweep, none])
    assert "inf" not in table
    assert ">+800 (+164, >+800)" in table and "<-800 (<-800, -164)" in table


@pytest.mark.parametrize("command", ["replay", "analyze", "show", "claimable", "demo", "validate"])
def test_a_misspelled_option_gets_the_commands_own_usage(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    record = str(EXAMPLES / "schotten-totten" / "full-2024.json")
    args = [command] if command == "demo" else [command, record]
    code, _, err = run(capsys, *args, "--plyy", "3")
    assert code == 2
    assert err.startswith(f"usage: referee {command} ")
    assert f"referee {command}: error: unrecognized arguments: --plyy 3" in err
