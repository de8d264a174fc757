"""Fuzzed input: damaged records, positions and bytes are reported, never crash.

Valid documents (each registered game's ``random_record``, the bundled
examples, positions of random states) are damaged at random: moves dropped,
repeated, swapped, truncated or replaced by random text; fields given the wrong
type, removed or added; unknown cards; huge numbers; deep nesting; invalid
UTF-8 and random bytes. Reading and validating raise only ``RecordError`` (a
``RefereeError``, so a ``ValueError``) with a location, ``validate`` and
``validate_source`` never raise, and the command line exits 1 or 2 with a
message and no traceback.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import cli
from referee.errors import RefereeError
from referee.records import (
    MAX_DOCUMENT_BYTES,
    Match,
    Record,
    RecordError,
    ValidationReport,
    find_game,
    iter_documents,
    iter_records,
    parse_document,
    parse_position,
    replay,
    validate,
    validate_source,
)
from tests.reliability._support import (
    POSITION_EXAMPLES,
    RECORD_EXAMPLES,
    ROOT,
    examples,
    game_rules,
    games,
    reason_codes,
    record_for,
)

# Hypothesis would print whole damaged records when it reports an example.
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")


def fuzz(default: int) -> settings:
    """Hypothesis settings for ``default`` examples (or the knob's number)."""
    return settings(
        max_examples=examples(default), deadline=None, suppress_health_check=list(HealthCheck)
    )


# --- the valid documents that get damaged ----------------------------------------------


def _base_records() -> list[dict[str, Any]]:
    docs = [record_for(g, r, seed).to_json() for g, r in game_rules() for seed in (0, 1)]
    docs += [json.loads(p.read_text("utf-8")) for p in RECORD_EXAMPLES]
    # Deals that spell out what is usually left to its default (a table layout).
    for game, rules in game_rules():
        record = record_for(game, rules, 2)
        layout = getattr(replay(record, 0), "layout", None)
        if record.deal is not None and hasattr(layout, "to_json"):
            doc = record.to_json()
            doc["deal"]["layout"] = layout.to_json()
            docs.append(doc)
    return docs


def _keys(doc: Any) -> set[str]:
    if isinstance(doc, dict):
        return set(doc) | {k for v in doc.values() for k in _keys(v)}
    if isinstance(doc, list):
        return {k for v in doc for k in _keys(v)}
    return set()


def _base_positions() -> list[dict[str, Any]]:
    docs = [json.loads(p.read_text("utf-8")) for p in POSITION_EXAMPLES]
    for game, rules in game_rules():
        record = record_for(game, rules, 0)
        for ply in sorted({0, len(record.moves) // 3, 2 * len(record.moves) // 3}):
            state = replay(record, ply)
            docs.append(find_game(game).position_of(state).to_json())
    return docs


BASE_RECORDS = _base_records()
BASE_POSITIONS = _base_positions()
ALL_MOVES = sorted({m for doc in BASE_RECORDS for m in doc.get("moves", [])})
#: field names the readers know, for extra fields that mean something
KNOWN_KEYS = sorted(_keys(BASE_RECORDS) | _keys(BASE_POSITIONS))
REASONS = {g: reason_codes(replay(record_for(g, {}, 0), 0)) for g in games()}

# --- damage ----------------------------------------------------------------------------

HUGE = [10**400, -(10**30), 2**63, -1, 1e308, float("inf"), float("nan"), -0.0, 1.5]
CARDISH = st.from_regex(r"[A-Za-z]{0,2}-?[0-9]{0,4}", fullmatch=True) | st.sampled_from(
    ["R0", "R10", "Z7", "W9", "P12", "B-1", "joker", "Joker", "spy", "", " ", "R7 ", "r7"]
)
JSON_LEAF = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from(HUGE)
    | st.floats()
    | st.text(max_size=12)
    | CARDISH
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=8,
)
MOVE_TEXT = st.sampled_from(ALL_MOVES) | st.text(max_size=20) | CARDISH


def _deep(depth: int) -> str:
    """A marker that :func:`_dumps` writes as ``depth`` nested arrays (kept small here)."""
    return f"{_DEEP}{depth}"


_DEEP = "\u0000deep:"
_DEEP_TEXT = re.compile(r'"\\u0000deep:(\d+)"')


def _paths(doc: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _paths(value, (*at, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from _paths(value, (*at, i))


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _damage_moves(draw: st.DrawFn, moves: list[Any], kind: str) -> None:
    """Damage of ``kind`` to the list of moves (changed in place); the same draws as
    when this was part of :func:`damage_once`, so the same examples come out."""
    i = draw(st.integers(0, len(moves) - 1))
    if kind == "drop":
        del moves[i]
    elif kind == "repeat":
        moves.insert(i, moves[i])
    elif kind == "swap":
        j = draw(st.integers(0, len(moves) - 1))
        moves[i], moves[j] = moves[j], moves[i]
    elif kind == "truncate":
        del moves[i:]
    elif kind == "replace":
        moves[i] = draw(MOVE_TEXT)
    else:
        moves.insert(i, draw(MOVE_TEXT))


@st.composite
def damage_once(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` (a JSON value) with one random piece of damage; ``doc`` is left alone."""
    doc = copy.deepcopy(doc)
    moves = doc.get("moves") if isinstance(doc, dict) else None
    kinds = ["value", "delete", "extra", "card", "huge", "deep", "transplant", "transplant"]
    if isinstance(moves, list) and moves:
        kinds += ["drop", "repeat", "swap", "truncate", "replace", "insert"] * 2
    kind = draw(st.sampled_from(kinds))
    if kind in ("drop", "repeat", "swap", "truncate", "replace", "insert"):
        assert isinstance(moves, list)
        _damage_moves(draw, moves, kind)
        return doc
    path = draw(st.sampled_from(list(_paths(doc))))
    if kind == "extra":
        parent = _get(doc, path)
        if isinstance(parent, dict):
            key = draw(st.sampled_from(KNOWN_KEYS) | st.text(max_size=10))
            parent[key] = draw(JSON_VALUE)
            return doc
        kind = "value"
    if not path:  # the document itself
        return draw(JSON_VALUE) if kind != "deep" else _deep(draw(st.integers(1, 3000)))
    parent, key = _get(doc, path[:-1]), path[-1]
    if kind == "delete":
        del parent[key]
    elif kind == "card":
        parent[key] = draw(CARDISH)
    elif kind == "huge":
        parent[key] = draw(st.sampled_from(HUGE))
    elif kind == "deep":
        parent[key] = _deep(draw(st.integers(1, 3000)))
    elif kind == "transplant":  # a value from elsewhere in the document: right shape, wrong place
        parent[key] = copy.deepcopy(_get(doc, draw(st.sampled_from(list(_paths(doc))))))
    else:
        parent[key] = draw(JSON_VALUE)
    return doc


@st.composite
def damaged(draw: st.DrawFn, bases: list[dict[str, Any]]) -> Any:
    """A base document with one to three pieces of damage."""
    doc: Any = bases[draw(st.integers(0, len(bases) - 1))]
    for _ in range(draw(st.integers(1, 3))):
        doc = draw(damage_once(doc))
    return doc


def _dumps(doc: Any) -> str:
    """The document as JSON text, deep-nesting markers written out."""
    try:
        text = json.dumps(doc)
    except ValueError:  # an integer beyond Python's digit limit
        text = json.dumps(doc, default=str).replace("1" * 50, "1")
    return _DEEP_TEXT.sub(lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)), text)


@st.composite
def damaged_bytes(draw: st.DrawFn) -> bytes:
    """Damaged documents as bytes, damaged again at the byte level now and then."""
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return draw(st.binary(max_size=300))
    data = _dumps(draw(damaged(BASE_RECORDS))).encode("utf-8")
    if choice == 1:  # cut short
        return data[: draw(st.integers(0, len(data)))]
    if choice == 2:  # invalid UTF-8 inside
        at = draw(st.integers(0, len(data)))
        return (
            data[:at]
            + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]))
            + data[at:]
        )
    if choice == 3:  # a flipped byte
        if not data:
            return data
        at = draw(st.integers(0, len(data) - 1))
        return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]
    if choice == 4:  # a corpus: several documents, one a line
        docs = draw(st.lists(damaged(BASE_RECORDS), min_size=1, max_size=4))
        return "\n".join(_dumps(d).replace("\n", " ") for d in docs).encode("utf-8")
    return data


# --- what "reported, not raised" means ---------------------------------------------------


def check_report(report: ValidationReport, record: Record | Match | None) -> None:
    """A report always says where, and an illegal ply points into the record."""
    assert report.where
    assert report.summary()
    json.dumps(report.to_json())
    if report.input_error is not None:
        assert report.input_error.strip()
        assert report.error is None
        return
    if record is None:  # read from a stream: the record itself is not at hand
        return
    games = record.games if isinstance(record, Match) else (record,)
    if report.error is not None:
        error = report.error
        number = 1 if error.round is None else error.round
        assert 1 <= number <= len(games)
        game = games[number - 1]
        assert 1 <= error.ply <= len(game.moves)
        assert error.move == game.moves[error.ply - 1]
        before = sum(len(g.moves) for g in games[: number - 1])
        assert report.plies == before + error.ply - 1
        assert error.message
        codes = REASONS.get(record.game)
        if codes is not None:
            assert error.reason in codes, f"undocumented reason {error.reason!r}"
    elif report.match_error is None and report.result_mismatch is None:
        assert report.plies == sum(len(g.moves) for g in games)


def check_record_error(error: RecordError, where: str) -> None:
    assert isinstance(error, RefereeError) and isinstance(error, ValueError)
    assert error.reason == "unreadable_input"
    assert error.where == where or error.where.startswith(where)
    assert error.detail and str(error)


def read_and_validate(doc: Any) -> ValidationReport | None:
    """Read ``doc`` as JSON text (as a file would be) and validate it."""
    (item,) = list(iter_documents(io.StringIO(_dumps(doc))))
    where = "<stream>"
    if isinstance(item, RecordError):
        check_record_error(item, where)
        return None
    try:
        record = parse_document(item[0], where)
    except RecordError as error:
        check_record_error(error, where)
        return None
    report = validate(record)
    check_report(report, record)
    return report


# --- the properties -------------------------------------------------------------------


@fuzz(150)
@given(doc=damaged(BASE_RECORDS))
def test_damaged_records_are_reported_not_raised(doc: Any) -> None:
    read_and_validate(doc)


@fuzz(25)
@given(doc=JSON_VALUE)
def test_random_json_is_refused_with_a_location(doc: Any) -> None:
    read_and_validate(doc)
    read_and_validate({"game": doc, "moves": []})
    read_and_validate({"game": "schotten-totten", "moves": ["R7@3"], "rules": doc})


@fuzz(80)
@given(data=damaged_bytes(), suffix=st.sampled_from([".json", ".jsonl"]))
def test_damaged_bytes_never_stop_validate_source(data: bytes, suffix: str) -> None:
    reports = list(validate_source(io.BytesIO(data)))
    assert reports
    for report in reports:
        check_report(report, None)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"
        path.write_bytes(data)
        for item in iter_records(path):
            if isinstance(item, RecordError):
                check_record_error(item, str(path))
            else:
                check_report(validate(item), item)


@fuzz(100)
@given(doc=damaged(BASE_POSITIONS))
def test_damaged_positions_are_refused_with_a_location(doc: Any) -> None:
    (item,) = list(iter_documents(io.StringIO(_dumps(doc))))
    try:
        if isinstance(item, RecordError):
            raise item
        position = parse_position(item[0], item[1])
        game = find_game(position.game, item[1])
        state = game.load_position(position)
    except RecordError as error:
        check_record_error(error, "<stream>")
        return
    # A position that loads can be shown, asked about and moved on.
    str(state)
    for answer in game.claimability(state):
        str(answer)
        json.dumps(answer.to_json())
    for move in state.legal_moves()[:20]:
        state.play(move)


@contextlib.contextmanager
def _file(data: bytes, suffix: str = ".json") -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"
        path.write_bytes(data)
        yield str(path)


def _run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@fuzz(60)
@given(doc=damaged(BASE_RECORDS), ply=st.none() | st.integers(0, 200))
def test_command_line_on_damaged_records(
    doc: Any, ply: int | None, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _dumps(doc).encode("utf-8")
    with _file(data) as path:
        code, out, _ = _run_cli(["validate", path], capsys)
        assert code in (0, 1, 2) and out.strip()
        if code == 0:
            assert read_and_validate(doc) is not None
        for command in ("claimable", "show"):
            argv = [command, path] + ([] if ply is None else ["--ply", str(ply)])
            code, out, err = _run_cli(argv, capsys)
            assert code in (0, 1, 2)
            if code == 0:
                assert out.strip()
            else:
                assert err.startswith("referee: "), err


@fuzz(40)
@given(doc=damaged(BASE_POSITIONS))
def test_command_line_on_damaged_positions(doc: Any, capsys: pytest.CaptureFixture[str]) -> None:
    with _file(_dumps(doc).encode("utf-8")) as path:
        for argv in (["claimable", path], ["claimable", path, "--json"], ["show", path]):
            code, out, err = _run_cli(argv, capsys)
            assert code in (0, 1, 2)
            assert out.strip() if code == 0 else err.startswith("referee: ")


# --- edge cases, one by one ---------------------------------------------------------------

VALID = json.dumps(record_for("schotten-totten", {}, 0).to_json())
EDGE_CASES: dict[str, bytes] = {
    "empty": b"",
    "blank": b"  \n\n ",
    "bom": b"\xef\xbb\xbf" + VALID.encode(),
    "invalid-utf8": b'{"game": "schotten-totten", "moves": ["\xff"]}',
    "utf16": VALID.encode("utf-16"),
    "nul": b"\x00" * 10,
    "deep-array": b"[" * 100_000 + b"]" * 100_000,
    "deep-object": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "deep-in-meta": VALID.replace(
        '"meta": {', '"meta": {"x": ' + "[" * 5000 + "]" * 5000 + ", ", 1
    ).encode(),
    "long-int": b'{"game": "schotten-totten", "moves": [], "first": ' + b"9" * 5000 + b"}",
    "huge-first": b'{"game": "schotten-totten", "moves": [], "first": 1e999}',
    "nan-first": b'{"game": "schotten-totten", "moves": [], "first": NaN}',
    "many-moves": json.dumps({"game": "schotten-totten", "moves": ["pass"] * 10_001}).encode(),
    "long-move": json.dumps({"game": "schotten-totten", "moves": ["R" * 1_000_000]}).encode(),
    "long-game": json.dumps({"game": "g" * 1_000_000, "moves": []}).encode(),
    "array": b"[]",
    "string": b'"schotten-totten"',
    "number": b"7",
    "null": b"null",
    "two-documents": VALID.encode() + b"\n" + VALID.encode(),
    "lone-surrogate": b'{"game": "schotten-totten", "moves": ["\\ud800@3"]}',
    "control-chars": json.dumps({"game": "schotten-totten", "moves": ["R7@3\n\x1b[2J"]}).encode(),
    "wrong-format": json.dumps({"format": "referee-record/9", "game": "x", "moves": []}).encode(),
}

#: as JSON Lines these are fine: an empty corpus, and a corpus of two records
JSONL_FINE = {"empty", "blank", "two-documents"}
#: read as the record they hold, whichever the suffix: a UTF-8 byte-order mark is skipped
READ_FINE = {"bom"}


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_edge_case_is_reported(name: str, suffix: str, capsys: pytest.CaptureFixture[str]) -> None:
    data = EDGE_CASES[name]
    for report in validate_source(io.BytesIO(data)):
        check_report(report, None)
    with _file(data, suffix) as path:
        reports = list(validate_source(path))
        assert all(r.where.startswith(path) for r in reports)
        code, out, _ = _run_cli(["validate", path], capsys)
        if (suffix == ".jsonl" and name in JSONL_FINE) or name in READ_FINE:
            assert code == 0, out
        else:
            assert code in (1, 2), out
        code, _, err = _run_cli(["claimable", path], capsys)
        assert (code in (1, 2) and err.startswith("referee: ")) or name in READ_FINE


def test_a_document_over_the_size_limit_is_refused_unread(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = (
        b'{"game": "schotten-totten", "moves": ['
        + b'"pass",' * (MAX_DOCUMENT_BYTES // 7)
        + b'"pass"]}'
    )
    with _file(data) as path:
        (report,) = list(validate_source(path))
        assert report.input_error is not None and "larger than" in report.input_error
        code, out, _ = _run_cli(["validate", path], capsys)
        assert code == 2 and "unreadable" in out


def test_missing_file_and_folder_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "nowhere.json")
    code, out, _ = _run_cli(["validate", missing], capsys)
    assert code == 2 and "cannot read" in out
    for command in ("claimable", "show"):
        code, _, err = _run_cli([command, missing], capsys)
        assert code == 2 and err.startswith("referee: ")
        code, _, err = _run_cli([command, str(tmp_path)], capsys)
        assert code == 2 and err.startswith("referee: ")


# --- the real command, in a subprocess ----------------------------------------------------

SUBPROCESS_CASES: dict[str, bytes] = {
    "random-bytes": bytes(range(256)),
    "deep-array": EDGE_CASES["deep-array"],
    "damaged-record": VALID.replace('"R', '"Z', 3).encode(),
    "illegal-record": (
        ROOT / "examples/illegal-records/schotten-totten/illegal-claim-not-proven.json"
    ).read_bytes(),
}


@pytest.mark.parametrize("name", sorted(SUBPROCESS_CASES))
def test_python_dash_m_referee_exits_without_a_traceback(name: str) -> None:
    with _file(SUBPROCESS_CASES[name]) as path:
        for argv in (["validate", path], ["claimable", path]):
            done = subprocess.run(
                [sys.executable, "-m", "referee", *argv],
                capture_output=True,
                text=True,
                timeout=60,
                cwd=ROOT,
            )
            assert done.returncode in (1, 2), (done.stdout, done.stderr)
            assert "Traceback" not in done.stderr + done.stdout
            assert (done.stdout + done.stderr).strip()


def test_standard_input_is_read_like_a_file() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee", "validate", "-"],
        input=b"\xff\xfe not json",
        capture_output=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2 and b"Traceback" not in done.stderr


def test_a_stream_whose_first_line_is_nested_too_deeply_is_reported() -> None:
    """Regression: sniffing a stream for JSON Lines let a RecursionError escape."""
    first = b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    data = first + b'\n{"game": "schotten-totten", "moves": []}\n'
    bad, good = list(validate_source(io.BytesIO(data)))
    assert bad.input_error is not None and "nested deeper than" in bad.input_error
    assert bad.where == "<stream>:1" and good.legal and good.where == "<stream>:2"


# --- crashes found in a game's module (not fixed here: pinned until they are) ---------------


def _clans_and_glory_with_layout(**changes: Any) -> dict[str, Any]:
    record = record_for("clans-and-glory", {"players": 2}, 1)
    doc = record.to_json()
    layout = replay(record, 0).layout.to_json()
    grid = changes.pop("grid_first", None)
    layout.update(changes)
    if grid is not None:
        layout["grid"] = [grid, *layout["grid"][1:]]
    doc["deal"]["layout"] = layout
    return doc


def test_clans_and_glory_huge_tableau_count_is_reported() -> None:
    # Found by this harness: new_game once built ((),) * tableaus.
    doc = _clans_and_glory_with_layout(tableaus=2**70)
    (item,) = list(iter_documents(io.StringIO(json.dumps(doc))))
    assert not isinstance(item, RecordError)
    report = validate(parse_document(item[0], "layout.json"))
    assert report.input_error is not None


def test_clans_and_glory_show_with_a_tableau_without_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = _clans_and_glory_with_layout(tableaus=5)
    with _file(json.dumps(doc).encode()) as path:
        code, _, err = _run_cli(["show", path], capsys)
    assert code in (0, 2), err


def test_clans_and_glory_show_with_a_grid_cell_outside_the_picture(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = _clans_and_glory_with_layout(grid_first=[-50, 0])
    with _file(json.dumps(doc).encode()) as path:
        code, _, err = _run_cli(["show", path], capsys)
    assert code in (0, 2), err
