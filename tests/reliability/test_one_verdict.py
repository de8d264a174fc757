"""One verdict on every command: what ``validate`` calls illegal or unreadable,
every command refuses with the same line and the same exit status.

Each case runs the command line itself (``referee.cli.main``, and for a sample
``python -m referee`` in a subprocess) and compares its exit status and message
with what ``referee validate`` says about the same file.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given

import tests.reliability.test_fuzz_records as fuzz
from referee.cli import main
from referee.records import Record, load_record, replay, validate

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "records"
ILLEGAL = sorted((ROOT / "examples" / "illegal-records").rglob("*.json"))
DATA = Path(__file__).resolve().parent / "data"

#: The commands that read a record or match, with the options they need.
COMMANDS = {
    "show": ["show"],
    "show --svg": ["show", "--svg"],
    "claimable": ["claimable"],
    "claimable --json": ["claimable", "--json"],
    "replay": ["replay"],
    "analyze": ["analyze"],
    "analyze --json": ["analyze", "--json"],
}

#: The recruiter example of docs/public-records.md: player 2 plays a card that
#: player 1 put under the clan pile, so no deal fits ply 7.
RECRUITER = Record(
    "schotten-totten",
    (
        "R1@1",
        "draw tactic",
        "O1@1",
        "draw clan",
        "recruiter draw clan clan clan return R2 R3",
        "done",
        "R2@2",
    ),
    {"variants": ["tactics"]},
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def verdict_of(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    """What ``referee validate`` says about ``path``: its status and its line."""
    code, out, _ = run(capsys, "validate", str(path))
    return code, out.splitlines()[0]


def write(tmp_path: Path, name: str, document: object) -> Path:
    path = tmp_path / name
    path.write_text(
        document if isinstance(document, str) else json.dumps(document), encoding="utf-8"
    )
    return path


def illegal_files(tmp_path: Path) -> list[Path]:
    """Every illegal record the audits used: the bundled ones, the recruiter
    example of the docs, a Schotten Totten 2 support shuffle, a public record
    with a card played twice."""
    return [
        *ILLEGAL,
        write(tmp_path, "recruiter.json", RECRUITER.to_json()),
        DATA / "st2-support-shuffled-card.json",
    ]


def unreadable_files(tmp_path: Path) -> list[Path]:
    return [
        write(tmp_path, "oops.json", "{oops"),
        write(tmp_path, "reslt.json", {"game": "schotten-totten", "reslt": {}, "moves": []}),
        write(
            tmp_path,
            "five-names.json",
            {"game": "schotten-totten", "players": list("abcde"), "moves": []},
        ),
        write(tmp_path, "no-game.json", {"game": "chess", "moves": []}),
        write(tmp_path, "array.json", "[1, 2]"),
        tmp_path / "missing.json",
    ]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_illegal_record_is_refused_as_validate_refuses_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    for path in illegal_files(tmp_path):
        status, line = verdict_of(capsys, path)
        assert status == 1, line
        code, out, err = run(capsys, *COMMANDS[command], str(path))
        assert code == 1, (path.name, err)
        # The very line validate prints, as the command's one message.
        assert err.splitlines()[-1] == f"referee: {line}", path.name
        if command != "replay":  # replay writes its page (see the replay tests)
            assert out == "", (path.name, out[:200])


@pytest.mark.parametrize("command", COMMANDS)
def test_every_unreadable_record_is_refused_as_validate_refuses_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    for path in unreadable_files(tmp_path):
        status, line = verdict_of(capsys, path)
        assert status == 2 and ": unreadable: " in line, line
        code, out, err = run(capsys, *COMMANDS[command], str(path))
        assert (code, out) == (2, ""), (path.name, err)
        assert err.splitlines() == [f"referee: {line}"], path.name


def test_the_audited_records_are_refused_for_the_right_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The cases of the audit, named: each once shown as an ordinary game.
    expected = {
        "recruiter.json": "illegal at ply 7 'R2@2' [card_never_held]",
        "st2-support-shuffled-card.json": "illegal at ply 120 'Y2@1' [card_never_held]",
        "illegal-wrong-result.json": "result mismatch: the record says player 2 wins",
        "illegal-match-extra-round.json": "illegal match: the match has 3 games but 2 rounds",
        "illegal-match-roles-not-swapped.json": "illegal match: game 2 must be attacked by",
    }
    seen = set()
    for path in illegal_files(tmp_path):
        if path.name in expected:
            seen.add(path.name)
            for command in ("show", "claimable", "replay", "analyze"):
                code, _, err = run(capsys, command, str(path))
                assert code == 1 and expected[path.name] in err, (command, path.name, err)
    assert seen == set(expected)


def test_show_at_a_ply_before_the_illegal_move_is_refused_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The verdict is about the record: a record illegal at ply 13 is refused
    # at ply 5 as well (the replay page shows the positions before the refusal).
    path = (
        ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-card-not-in-hand.json"
    )
    _, line = verdict_of(capsys, path)
    for command in ("show", "claimable"):
        code, out, err = run(capsys, command, "--ply", "5", str(path))
        assert (code, out, err) == (1, "", f"referee: {line}\n")
    match = (
        ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-match-extra-round.json"
    )
    code, _, err = run(capsys, "show", "--round", "1", "--ply", "3", str(match))
    assert code == 1 and "illegal match" in err


@pytest.mark.parametrize(
    "name",
    [
        "schotten-totten/full-2024.json",
        "schotten-totten/public-2024-tactics.json",
        "schotten-totten-2/public-base.json",
        "clans-and-glory/full-3-players.json",
    ],
)
def test_a_legal_record_works_on_every_command_at_every_ply(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    path = EXAMPLES / name
    record = load_record(path)
    assert verdict_of(capsys, path)[0] == 0
    for args in COMMANDS.values():
        code, out, err = run(capsys, *args, str(path))
        assert (code, err) == (0, ""), (args, err)
        assert out
    for ply in (0, len(record.moves) // 2, len(record.moves)):
        for command in ("show", "claimable"):
            code, out, err = run(capsys, command, "--ply", str(ply), str(path))
            assert (code, err) == (0, "") and out, (command, ply, err)
    code, out, _ = run(capsys, "show", "--ply", "3", str(path))
    assert out == f"{replay(record, 3)}\n"  # the position after exactly 3 moves


def test_a_legal_match_works_and_an_illegal_one_is_refused_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    match = EXAMPLES / "schotten-totten-2" / "match-rache.json"
    for round_ in ("1", "2"):
        code, out, _ = run(capsys, "show", "--round", round_, "--ply", "4", str(match))
        assert code == 0 and "ply 4" in out
    roles = (
        ROOT
        / "examples"
        / "illegal-records"
        / "schotten-totten-2"
        / "illegal-match-roles-not-swapped.json"
    )
    _, line = verdict_of(capsys, roles)
    for round_ in ("1", "2"):
        code, out, err = run(capsys, "claimable", "--round", round_, str(roles))
        assert (code, out, err) == (1, "", f"referee: {line}\n")


def test_a_corpus_gets_each_document_judged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    legal = json.loads((EXAMPLES / "schotten-totten" / "public-2024.json").read_text())
    wrong = json.loads(
        (
            ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-wrong-result.json"
        ).read_text()
    )
    corpus = write(tmp_path, "c.jsonl", "".join(json.dumps(d) + "\n" for d in (legal, wrong)))
    code, out, _ = run(capsys, "validate", "--quiet", str(corpus))
    assert code == 1
    line = out.splitlines()[0]
    assert line.startswith(f"{corpus}:2: result mismatch")
    code, out, err = run(capsys, "analyze", "--json", str(corpus))
    assert code == 1 and err == f"referee: {line}\n"
    assert [json.loads(x)["where"] for x in out.splitlines()] == [f"{corpus}:1"]
    code, out, err = run(capsys, "replay", "-o", str(tmp_path / "c.html"), str(corpus))
    assert code == 1 and err == f"referee: {line}\n"
    # A corpus with an unreadable line: 2, and no page.
    broken = write(tmp_path, "b.jsonl", json.dumps(legal) + "\n{oops\n" + json.dumps(wrong) + "\n")
    page = tmp_path / "b.html"
    code, _, err = run(capsys, "replay", "-o", str(page), str(broken))
    assert code == 2 and err.startswith(f"referee: {broken}:2: unreadable: bad JSON")
    assert not page.exists()
    code, out, err = run(capsys, "analyze", str(broken))
    assert code == 2 and len(err.splitlines()) == 2  # the unreadable line and the illegal one


def test_witness_gives_the_same_verdict(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recruiter = write(tmp_path, "recruiter.json", RECRUITER.to_json())
    for path in (recruiter, DATA / "st2-support-shuffled-card.json", *ILLEGAL):
        status, line = verdict_of(capsys, path)
        code, out, _ = run(capsys, "validate", "--witness", str(path))
        assert (code, out.splitlines()[0]) == (status, line)
        assert "  witness: " not in out
        code, out, _ = run(capsys, "validate", "--witness", "--json", str(path))
        report = json.loads(out.splitlines()[0])
        assert code == status and report["witness"] is None and not report["legal"]
        assert report == {**validate(load_any(path)).to_json(), "witness": None}


def load_any(path: Path) -> object:
    from referee.records import loads_document

    return loads_document(path.read_bytes(), str(path))


def test_witness_quiet_prints_only_the_games_that_are_not_legal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    public = EXAMPLES / "schotten-totten" / "public-2024.json"
    illegal = (
        ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-public-card-twice.json"
    )
    code, out, _ = run(capsys, "validate", "--witness", "--quiet", str(public), str(illegal))
    lines = out.splitlines()
    assert code == 1
    assert lines == [
        f"{illegal}: illegal at ply 9 'R9@4' [card_already_played]: "
        "illegal move 'R9@4': R9 is already on the table",
        "2 records: 1 legal, 1 illegal, 0 unreadable",
    ]
    code, out, _ = run(capsys, "validate", "--witness", "--quiet", "--json", str(public))
    assert code == 0 and [json.loads(x) for x in out.splitlines()] == [
        {"summary": {"records": 1, "legal": 1, "illegal": 0, "unreadable": 0}}
    ]
    # Without --quiet the legal public record has its witness.
    code, out, _ = run(capsys, "validate", "--witness", str(public))
    assert code == 0 and out.splitlines()[1].startswith("  witness: ")


@pytest.mark.parametrize("command", ["show", "claimable", "replay"])
@pytest.mark.parametrize("value", ["-1", "0x1", "+2", "1.5", "", "three", "²", " 3x"])
def test_one_rule_for_ply_everywhere(
    capsys: pytest.CaptureFixture[str], command: str, value: str
) -> None:
    path = str(EXAMPLES / "schotten-totten" / "full-2024.json")
    code, out, err = run(capsys, command, "--ply", value, path)
    assert (code, out) == (2, "")
    assert err.startswith(f"usage: referee {command} ")
    assert f"argument --ply: expected a whole number of moves (0 or more), got {value!r}" in err


@pytest.mark.parametrize("command", ["show", "claimable", "replay"])
def test_a_ply_past_the_record_is_refused_the_same_way(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = EXAMPLES / "schotten-totten" / "full-2024.json"
    moves = len(load_record(path).moves)
    code, out, err = run(capsys, command, "--ply", str(moves + 1), str(path))
    assert (code, out) == (2, "")
    assert err == f"referee: {path}: --ply {moves + 1} is past the record's {moves} moves\n"
    code, out, err = run(capsys, command, "--ply", str(moves), str(path))
    assert (code, err) == (0, "")


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("validate", ["--qiuet", "x.json"]),
        ("show", ["--plie", "3", "x.json"]),
        ("claimable", ["--jsno", "x.json"]),
        ("replay", ["--output-file", "x.html", "x.json"]),
        ("analyze", ["--gaem", "2", "x.json"]),
        ("demo", ["--sed", "3"]),
        ("match", ["--gmaes", "3", "a", "b"]),
        ("validate", ["x.json", "--version"]),
    ],
)
def test_a_misspelled_option_gets_the_command_usage(
    capsys: pytest.CaptureFixture[str], command: str, args: list[str]
) -> None:
    code, out, err = run(capsys, command, *args)
    assert (code, out) == (2, "")
    assert err.startswith(f"usage: referee {command} "), err
    assert re.search(rf"^referee {command}: error: unrecognized arguments: ", err, re.M), err


def test_the_real_command_line_gives_the_same_verdict(tmp_path: Path) -> None:
    """A sample through ``python -m referee``: statuses and lines as in-process."""
    recruiter = write(tmp_path, "recruiter.json", RECRUITER.to_json())
    oops = write(tmp_path, "oops.json", "{oops")

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "referee", *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    for path, status in ((recruiter, 1), (oops, 2)):
        line = cli("validate", str(path)).stdout.splitlines()[0]
        for command in ("show", "claimable", "analyze", "replay"):
            done = cli(command, str(path))
            assert done.returncode == status, (command, done.stderr)
            assert done.stderr.splitlines()[-1] == f"referee: {line}"
            assert "Traceback" not in done.stderr
    done = cli("show", "--qiuet", str(recruiter))
    assert done.returncode == 2 and done.stderr.startswith("usage: referee show ")


@fuzz.fuzz(40)
@given(doc=fuzz.damaged(fuzz.BASE_RECORDS))
def test_damaged_records_get_one_verdict_on_every_command(
    doc: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whatever the damage, a command that reads a record gives validate's status
    and, unless it is legal, validate's line."""
    if isinstance(doc, dict) and (
        doc.get("format") == "referee-position/1" or not {"moves", "games"} & set(doc)
    ):
        return  # read as a position by show and claimable: no record, no verdict
    with fuzz._file(fuzz._dumps(doc).encode("utf-8")) as path:
        status, out, _ = fuzz._run_cli(["validate", path], capsys)
        line = out.splitlines()[0]
        commands = ["show", "claimable"]
        if status:  # refused before any work: cheap on every command
            commands += ["analyze", "replay"] if status == 2 else ["analyze"]
        for command in commands:
            code, out, err = fuzz._run_cli([command, path], capsys)
            assert code == status, (command, line, err)
            if status:
                assert (out, err.splitlines()) == ("", [f"referee: {line}"]), command
