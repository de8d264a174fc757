"""Hostile or careless input, one case per failure found (issue 13): each asserts the
clean outcome, a report or a ``RecordError`` and an honest exit status, never a
traceback, a forged line or an unbounded allocation."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import MAX_JOBS, main
from referee.records import (
    MAX_DEPTH,
    MAX_DOCUMENT_BYTES,
    MAX_MOVE_CHARS,
    Match,
    RecordError,
    loads_document,
    parse_match,
    parse_record,
    validate,
    validate_source,
)
from tests.reliability._support import examples, record_for

GOOD = record_for("schotten-totten", {}, 0)
GOOD_LINE = GOOD.dumps()
ILLEGAL_LINE = json.dumps({"game": "schotten-totten", "moves": ["R7@3", "draw", "R7@4"]})
EMPTY_LINE = json.dumps({"game": "schotten-totten", "moves": []})


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def referee(*argv: str, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *argv], capture_output=True, timeout=120, **kwargs
    )


# --- validate() on Record and Match objects built in Python -------------------------------


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"rules": None}, "rules"),
        ({"first": 1.0}, "first"),
        ({"first": True}, "first"),
        ({"first": -1}, "first"),
        ({"result": []}, "result"),
        ({"result": {"winner": True}}, "result.winner"),
        ({"deal": []}, "deal"),
        ({"moves": None}, "moves"),
        ({"moves": ("R7@3", 7)}, "moves[1]"),
        ({"players": None}, "players"),
        ({"players": ("a", None)}, "players[1]"),
        ({"meta": "x"}, "meta"),
        ({"game": None}, "game"),
    ],
)
def test_validate_reports_a_hand_built_record_with_bad_field_types(
    changes: dict[str, Any], field: str
) -> None:
    record = dataclasses.replace(GOOD, **changes)
    report = validate(record)
    assert not report.legal and report.input_error is not None
    assert report.input_error.startswith(f"field {field!r}"), report.input_error
    assert "unreadable" in report.summary()
    json.dumps(report.to_json())


@pytest.mark.parametrize(
    "match",
    [
        Match("schotten-totten", None),  # type: ignore[arg-type]
        Match("schotten-totten", ()),
        Match("schotten-totten", ("moves",)),  # type: ignore[arg-type]
        Match(None, (GOOD,)),  # type: ignore[arg-type]
        Match("schotten-totten", (GOOD,), result={"winner": 1.0}),
    ],
)
def test_validate_reports_a_hand_built_match_with_bad_fields(match: Match) -> None:
    report = validate(match)
    assert not report.legal and report.input_error is not None


# --- results, duplicate keys, canonical form -----------------------------------------------


@pytest.mark.parametrize(
    ("result", "field"),
    [
        ({"winnner": 0}, "result.winnner"),
        ({"winner": True}, "result.winner"),
        ({"winner": 1.0}, "result.winner"),
        ({"winner": -1}, "result.winner"),
        ({"winner": 0, "reason": 3}, "result.reason"),
        ({"winner": 0, "scores": [1, True]}, "result.scores[1]"),
    ],
)
def test_result_objects_outside_the_format_are_refused(result: dict[str, Any], field: str) -> None:
    data = {**GOOD.to_json(), "result": result}
    with pytest.raises(RecordError) as error:
        parse_record(data, "r.json")
    assert error.value.field == field and str(error.value).startswith("r.json: ")


def test_a_true_winner_never_equals_player_1() -> None:
    # The comparison is JSON's: true is not 1, 1.0 is not 1 (for records built in Python too).
    winner = GOOD.result["winner"] if GOOD.result else 0
    for wrong in (bool(winner), float(winner)):
        report = validate(dataclasses.replace(GOOD, result={"winner": wrong}))
        assert not report.legal


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"game": "schotten-totten", "game": "schotten-totten-2", "moves": []}', "game"),
        ('{"game": "schotten-totten", "moves": [], "meta": {"a": 1, "a": 2}}', "a"),
        (
            '{"game": "schotten-totten", "moves": [], "result": {"winner": 0, "winner": 1}}',
            "winner",
        ),
    ],
)
def test_duplicate_keys_are_refused(text: str, field: str) -> None:
    with pytest.raises(RecordError, match="the key appears twice") as error:
        loads_document(text, "d.json")
    assert error.value.field == field


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"reslt": {}}, "reslt"),
        ({"result": None}, "result"),
        ({"rules": None}, "rules"),
        ({"first": None}, "first"),
        ({"first": 1.0}, "first"),
        ({"rules": {"variants": "tactics"}}, "rules.variants"),
        ({"rules": {"variants": [1]}}, "rules.variants[0]"),
        ({"moves": ["R" * (MAX_MOVE_CHARS + 1)]}, "moves[0]"),
    ],
)
def test_non_canonical_record_text_is_refused(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(RecordError) as error:
        parse_record({**GOOD.to_json(), **changes}, "c.json")
    assert error.value.field == field


@pytest.mark.parametrize("game", ["schotten-totten", "schotten-totten-2"])
def test_five_player_names_for_a_two_player_game_are_refused(game: str) -> None:
    record = dataclasses.replace(record_for(game, {}, 1), players=("a", "b", "c", "d", "e"))
    report = validate(record)
    assert report.input_error == "field 'players': 5 names for a 2-player game"


@pytest.mark.parametrize(
    ("game", "rules", "field"),
    [
        ("schotten-totten", {"variants": ["clanfehde"]}, "rules.variants"),
        ("schotten-totten", {"rounds": 3}, "rules.rounds"),
        ("schotten-totten-2", {"variants": ["rache"]}, "rules.variants"),
    ],
)
def test_a_lone_game_with_match_rules_is_refused(
    game: str, rules: dict[str, Any], field: str
) -> None:
    record = dataclasses.replace(record_for(game, {}, 1), rules=rules)
    report = validate(record)
    assert report.input_error is not None and report.input_error.startswith(f"field {field!r}")
    assert "write a match document" in report.input_error


def test_a_match_game_cannot_name_its_own_players() -> None:
    data = {"game": "schotten-totten", "games": [{"moves": [], "players": ["a", "b"]}]}
    with pytest.raises(RecordError) as error:
        parse_match(data, "m.json")
    assert error.value.field == "games[0].players"


# --- byte-level input: BOM, UTF-8, nesting, sizes -------------------------------------------


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_a_utf8_bom_is_read(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"bom{suffix}"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD_LINE.encode())
    code, out, _ = run_cli(capsys, "validate", str(path))
    assert code == 0 and "1 legal" in out
    (report,) = validate_source(io.BytesIO(b"\xef\xbb\xbf" + GOOD_LINE.encode()))
    assert report.legal


def with_deep_meta(depth: int) -> str:
    """The good record with ``meta`` holding arrays nested ``depth`` levels (meta: +1)."""
    text = json.dumps({**GOOD.to_json(), "meta": "HERE"})
    return text.replace('"HERE"', '{"x": ' + "[" * depth + "]" * depth + "}")


def test_the_depth_limit_is_exact() -> None:
    assert loads_document_value("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(RecordError, match=f"nested deeper than {MAX_DEPTH} levels"):
        loads_document_value("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def loads_document_value(text: str) -> Any:
    from referee.records._decode import decode

    return decode(text, "depth.json")


def test_meta_nested_deeper_than_the_limit_is_refused() -> None:
    text = with_deep_meta(MAX_DEPTH)
    with pytest.raises(RecordError, match=f"nested deeper than {MAX_DEPTH} levels"):
        loads_document(text, "deep.json")
    shallow = "[" * (MAX_DEPTH - 3) + "]" * (MAX_DEPTH - 3)
    data = {**GOOD.to_json(), "meta": {"x": json.loads(shallow)}}
    assert loads_document(json.dumps(data), "ok.json").meta["x"] == json.loads(shallow)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 10, 5000])
def test_deep_meta_under_jobs_2_is_reported_not_a_pickling_crash(
    depth: int, tmp_path: Path
) -> None:
    corpus = tmp_path / "deep.jsonl"
    corpus.write_text(f"{GOOD_LINE}\n{with_deep_meta(depth)}\n{GOOD_LINE}\n")
    done = referee("validate", "--jobs", "2", str(corpus))
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert b"3 records: 2 legal, 0 illegal, 1 unreadable" in done.stdout
    assert f"deep.jsonl:2: unreadable: JSON nested deeper than {MAX_DEPTH}".encode() in done.stdout


def test_a_line_over_the_size_limit_is_refused_and_the_next_one_read(tmp_path: Path) -> None:
    corpus = tmp_path / "long.jsonl"
    with corpus.open("w") as handle:
        handle.write(GOOD_LINE + "\n")
        handle.write('{"game": "' + "x" * (MAX_DOCUMENT_BYTES + 10) + '"}\n')
        handle.write(GOOD_LINE + "\n")
    reports = list(validate_source(corpus))
    assert [r.legal for r in reports] == [True, False, True]
    assert reports[1].where.endswith("long.jsonl:2") and reports[2].where.endswith(":3")
    assert reports[1].input_error == f"line longer than {MAX_DOCUMENT_BYTES} bytes"


def test_a_lone_surrogate_in_a_move_is_an_illegal_move_shown_on_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"game": "schotten-totten", "moves": ["\\ud800@3\\n"]}')
    for argv in (["validate", str(path)], ["validate", "--json", str(path)]):
        code, out, _ = run_cli(capsys, *argv)
        assert code == 1 and len(out.splitlines()) == 2
        out.encode("utf-8")  # no lone surrogate reaches the output


def test_file_names_with_newlines_and_invalid_utf8_cannot_forge_lines(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path)
    name = folder + b"/a\nforged: ok \xff\xed\xa0\x80.json"
    with open(name, "wb") as handle:
        handle.write(ILLEGAL_LINE.encode())
    text = referee("validate", str(tmp_path))
    assert text.returncode == 1 and b"Traceback" not in text.stderr
    lines = text.stdout.decode("utf-8").splitlines()  # valid UTF-8, or this raises
    assert len(lines) == 2 and "\\u000aforged: ok" in lines[0] and "illegal at ply 3" in lines[0]
    as_json = referee("validate", "--json", str(tmp_path))
    lines = as_json.stdout.decode("utf-8").splitlines()
    assert as_json.returncode == 1 and len(lines) == 2
    report = json.loads(lines[0])
    assert "\nforged: ok" in report["where"] and not report["legal"]


# --- standard input --------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["validate", "-"], ["show", "-"], ["claimable", "-"]])
@pytest.mark.parametrize("stdin", [None, "closed"])
def test_closed_standard_input_is_reported(
    command: list[str],
    stdin: str | None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stream = None
    if stdin == "closed":
        stream = io.TextIOWrapper(io.BytesIO(b""))
        stream.close()
    monkeypatch.setattr(sys, "stdin", stream)
    code, out, err = run_cli(capsys, *command)
    assert code == 2 and "standard input is closed" in out + err


def test_closed_standard_input_in_a_real_process() -> None:
    for command in ("validate", "show"):
        done = subprocess.run(
            ["sh", "-c", f'exec "$0" -m referee {command} - 0<&-', sys.executable],
            capture_output=True,
            timeout=120,
        )
        assert done.returncode == 2 and b"Traceback" not in done.stderr
        assert b"standard input is closed" in done.stdout + done.stderr


def test_standard_input_with_a_bad_first_line_is_read_line_by_line() -> None:
    data = f"{{bad\n{GOOD_LINE}\n{ILLEGAL_LINE}\n{GOOD_LINE}\n".encode()
    done = referee("validate", "-", input=data)
    assert b"4 records: 2 legal, 1 illegal, 1 unreadable" in done.stdout
    assert b"<stdin>:1: unreadable" in done.stdout and b"<stdin>:3: illegal" in done.stdout


def test_a_pretty_printed_record_on_standard_input_is_one_document() -> None:
    done = referee("validate", "-", input=json.dumps(GOOD.to_json(), indent=2).encode())
    assert done.returncode == 0 and b"1 records: 1 legal" in done.stdout


# --- the command line: jobs, quiet, pipes, interrupts -----------------------------------------


@pytest.mark.parametrize("jobs", ["0", str(MAX_JOBS + 1), "1000", "99999999999999999999", "-3"])
def test_jobs_out_of_bounds_are_refused(
    jobs: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "g.json"
    path.write_text(GOOD_LINE)
    code, out, err = run_cli(capsys, "validate", f"--jobs={jobs}", str(path))
    assert code == 2 and not out and "--jobs" in err


def test_quiet_is_honoured_with_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(f"{GOOD_LINE}\n{ILLEGAL_LINE}\n{GOOD_LINE}\n")
    code, out, _ = run_cli(capsys, "validate", "--json", "--quiet", str(corpus))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(lines) == 2
    assert lines[0]["where"].endswith("c.jsonl:2") and not lines[0]["legal"]
    assert lines[1] == {"summary": {"records": 3, "legal": 2, "illegal": 1, "unreadable": 0}}


def test_a_closed_output_pipe_does_not_make_an_illegal_corpus_exit_0(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(f"{EMPTY_LINE}\n" * 5000 + f"{ILLEGAL_LINE}\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "validate", str(corpus)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    err = process.stderr.read()
    assert process.wait(timeout=120) == 1
    assert b"Traceback" not in err and b"standard output was closed" in err


def test_ctrl_c_during_validate_with_jobs_ends_every_process_with_130(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(f"{GOOD_LINE}\n" * 20_000)
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "validate", "--jobs", "2", str(corpus)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, like a terminal's job
        # A shell starts a job with the default Ctrl-C handling, whatever its own.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    process.stdout.readline()  # the workers are running
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C sends: the whole group
    try:
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, (out[-300:], err[-2000:])
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert err.decode().strip() == "referee: interrupted"
    # No worker outlives the parent.
    for _ in range(50):
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("a worker process is still running")


# --- memory: flat for any size or shape ------------------------------------------------------

# The peak of this process's own memory (VmHWM, in kB): ru_maxrss would also
# count the parent's memory, inherited through fork and exec.
_MEASURE = """
import re, resource, sys
from pathlib import Path
from referee.cli import main
code = main(sys.argv[1:])
status = Path("/proc/self/status")
peak = re.search(r"VmHWM:\\s*(\\d+)", status.read_text()) if status.exists() else None
kb = int(peak.group(1)) if peak else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
sys.stderr.write(f"maxrss={kb}\\n")
sys.exit(code)
"""


def _peak_mb(argv: list[str], feed: Any = None) -> tuple[int, float, bytes]:
    process = subprocess.Popen(
        [sys.executable, "-c", _MEASURE, *argv],
        stdin=subprocess.PIPE if feed else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    if feed:
        assert process.stdin is not None
        try:
            for chunk in feed:
                process.stdin.write(chunk)
        finally:
            process.stdin.close()
    out = process.stdout.read()
    err = process.stderr.read().decode()
    code = process.wait(timeout=300)
    peak = int(err.rsplit("maxrss=", 1)[1].split()[0]) / 1024
    return code, peak, out


def _huge_line(megabytes: int) -> Any:
    yield b'{"game": "schotten-totten", "moves": ["'
    for _ in range(megabytes):
        yield b"R" * (1024 * 1024)
    yield b'"]}\n'
    yield (GOOD_LINE + "\n").encode()


def test_a_300_mb_line_on_standard_input_keeps_memory_flat() -> None:
    code, peak, out = _peak_mb(["validate", "-"], _huge_line(300))
    assert code == 2 and b"2 records: 1 legal, 0 illegal, 1 unreadable" in out, (code, out)
    assert peak < 200, f"peak {peak:.0f} MB"
    print(f"peak {peak:.0f} MB")


def test_a_300_mb_line_in_a_file_keeps_memory_flat(tmp_path: Path) -> None:
    corpus = tmp_path / "huge.jsonl"
    with corpus.open("wb") as handle:
        for chunk in _huge_line(300):
            handle.write(chunk)
    code, peak, out = _peak_mb(["validate", str(corpus)])
    assert code == 2 and b"2 records: 1 legal, 0 illegal, 1 unreadable" in out
    assert peak < 200, f"peak {peak:.0f} MB"
    print(f"peak {peak:.0f} MB")


def test_a_long_stream_of_documents_at_the_size_limit_keeps_memory_flat() -> None:
    # Documents of 1 MiB each, each one as costly to decode as its size allows.
    document = b'{"game": "schotten-totten", "moves": [], "meta": {"x": ['
    document += b"{}," * ((MAX_DOCUMENT_BYTES - len(document) - 10) // 3) + b"{}]}}\n"
    assert len(document) <= MAX_DOCUMENT_BYTES
    code, peak, out = _peak_mb(["validate", "--quiet", "-"], [document] * 4)
    assert code == 0 and b"4 records: 4 legal" in out
    assert peak < 200, f"peak {peak:.0f} MB"
    print(f"peak {peak:.0f} MB")


# --- random command lines -------------------------------------------------------------------

_TOKENS = [
    "validate", "show", "claimable", "demo", "--json", "--quiet", "--svg", "--jobs", "--ply",
    "--round", "--seed", "--game", "--rules", "-", "0", "1", "33", "-1", "1e3",
    "99999999999999999999", "nope.json", "{}", '{"edition": "1999"}', "[]", "clans-and-glory",
    "\udcff", "a\nb", "",
]  # fmt: skip


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(argv=st.lists(st.sampled_from([*_TOKENS, "GOOD"]), max_size=6))
def test_random_command_lines_exit_cleanly(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        good = Path(folder) / "good.json"
        good.write_text(GOOD_LINE)
        argv = [str(good) if token == "GOOD" else token for token in argv]
        out, err = io.StringIO(), io.StringIO()
        stdin = io.TextIOWrapper(io.BytesIO(GOOD_LINE.encode()))
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            _stdin(stdin),
        ):
            code = main(argv)
    assert code in (0, 1, 2), (argv, code)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    if code == 2:
        assert err.getvalue().strip() or "unreadable" in out.getvalue()


@contextlib.contextmanager
def _stdin(stream: Any) -> Any:
    saved, sys.stdin = sys.stdin, stream
    try:
        yield
    finally:
        sys.stdin = saved


def test_a_variant_given_twice_is_refused() -> None:
    # Found by a newcomer's review: ["tactics", "tactics"] was accepted.
    from referee.records import json_schema, parse_record

    data = {"game": "schotten-totten", "moves": [], "rules": {"variants": ["tactics", "tactics"]}}
    with pytest.raises(RecordError, match="'tactics' is given twice"):
        parse_record(data, "a.json")
    jsonschema = pytest.importorskip("jsonschema")
    assert not jsonschema.Draft202012Validator(json_schema("record")).is_valid(data)
