"""Validation on a Dask cluster gives the report of a local run: same order, same lines."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.distributed import (
    ClusterError,
    Partition,
    ResultsWriter,
    _Ledger,
    connect,
    plan_partitions,
    read_partition,
    validate_on_dask,
    validate_partitions,
)
from referee.records import MAX_DOCUMENT_BYTES, ValidationReport
from tests.distributed.corpus import line_starts, unreadable_file, write_corpus

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "records"
ILLEGAL = ROOT / "examples" / "illegal-records"


def local_reports(*paths: Path | str) -> list[ValidationReport]:
    """The reference: ``referee validate`` without Dask, one process."""
    from referee.cli._validate import _reports

    return list(_reports([str(p) for p in paths], 1))


# --- the line-boundary rule, without a cluster ---------------------------------------

LINE = st.sampled_from(
    [
        b'{"game": "schotten-totten", "moves": ["pass"]}',
        b'{"game": "schotten-totten", "moves": ["R7@3", "draw", "R7@4"]}',
        b'{"game": "clans-and-glory", "moves": []}',
        b"{oops",
        b"\xff\xfe",
        b"",
        b"   ",
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    lines=st.lists(LINE, max_size=12),
    endings=st.lists(st.sampled_from([b"\n", b"\r\n"]), min_size=12, max_size=12),
    final_newline=st.booleans(),
    partition_bytes=st.integers(1, 200),
    longest=st.sampled_from([MAX_DOCUMENT_BYTES, 45]),
)
def test_byte_ranges_give_every_line_once_in_order(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[bytes],
    endings: list[bytes],
    final_newline: bool,
    partition_bytes: int,
    longest: int,
) -> None:
    corpus = tmp_path_factory.mktemp("lines") / "corpus.jsonl"
    text = b"".join(line + ending for line, ending in zip(lines, endings, strict=False))
    if lines and not final_newline:
        text = text[: -len(endings[len(lines) - 1])]
    corpus.write_bytes(text)
    # With the longest line cut to 45 bytes, some lines are too long: they are
    # reported, not read, by a partition as by the local run, wherever they start.
    with mock.patch("referee.records._stream.MAX_DOCUMENT_BYTES", longest):
        ledger = _Ledger()
        split = [
            report
            for part in plan_partitions([corpus], partition_bytes)
            for report in ledger.reports(read_partition(part))
        ]
        split += ledger.close()
        assert split == local_reports(corpus)


def test_partitions_cover_the_file_in_byte_ranges(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "c.jsonl", 300)
    size = corpus.stat().st_size
    parts = plan_partitions([corpus, EXAMPLES], partition_bytes=10_000)
    ranges = [(p.start, p.end) for p in parts if p.path == str(corpus)]
    assert ranges[0][0] == 0 and ranges[-1][1] == size
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
    assert all(end - start <= 10_000 for start, end in ranges)
    files = [name for p in parts for name in p.files]
    assert files == [r.where for r in local_reports(EXAMPLES)]


def test_plan_refuses_an_empty_partition_size() -> None:
    with pytest.raises(ValueError, match="partition_bytes must be at least 1, got 0"):
        plan_partitions([EXAMPLES], 0)


def test_plan_names_files_as_given_and_reads_them_from_the_base_folder(tmp_path: Path) -> None:
    write_corpus(tmp_path / "games.jsonl", 50)
    (tmp_path / "empty").mkdir()
    plan = plan_partitions(
        ["games.jsonl", "missing.jsonl", "empty", "a.json"], 1_000, base=str(tmp_path)
    )
    # A file the planner cannot see is reported, not planned as empty.
    assert plan[-3:] == [
        Partition(
            "missing.jsonl", base=str(tmp_path), error="cannot read: No such file or directory"
        ),
        Partition("empty", base=str(tmp_path), error="no .json or .jsonl file in this folder"),
        Partition(files=("a.json",), base=str(tmp_path)),
    ]
    ranges = plan[:-3]
    size = (tmp_path / "games.jsonl").stat().st_size
    assert {(p.path, p.base, p.size) for p in ranges} == {("games.jsonl", str(tmp_path), size)}
    assert [r for p in ranges for r in read_partition(p).games]  # read from the base folder


def test_file_no_worker_can_read_is_one_report_however_many_partitions(
    client: distributed.Client, tmp_path: Path
) -> None:
    locked = unreadable_file(tmp_path / "locked.jsonl")
    after = write_corpus(tmp_path / "after.jsonl", 30)
    plan = plan_partitions([locked, after], partition_bytes=1_000)
    assert len([p for p in plan if p.path == str(locked)]) > 1
    got = list(validate_partitions(client, plan))
    assert got == local_reports(locked, after)
    assert got[0] == ValidationReport(
        str(locked), "?", False, 0, input_error="cannot read: Permission denied"
    )


@pytest.mark.parametrize("change", ["grown", "emptied"])
def test_file_of_another_size_on_the_workers_is_reported(
    client: distributed.Client, tmp_path: Path, change: str
) -> None:
    corpus = write_corpus(tmp_path / "games.jsonl", 300)
    planned = corpus.stat().st_size
    plan = plan_partitions([corpus], partition_bytes=10_000)
    # The workers see another copy than the planner did (or the file changed).
    if change == "grown":
        with corpus.open("ab") as out:
            out.write(b"\n" + corpus.read_bytes().split(b"\n")[0])
    else:
        os.truncate(corpus, 0)
    now = corpus.stat().st_size
    assert list(validate_partitions(client, plan)) == [
        ValidationReport(
            str(corpus),
            "?",
            False,
            0,
            input_error=f"cannot read: {now} bytes on this worker, {planned} when the run was "
            "planned (another copy of the file, or a file that changed during the run)",
        )
    ]


# --- on a real LocalCluster of two processes ---------------------------------------


def test_bundled_examples_same_report_as_local(client: distributed.Client) -> None:
    assert list(validate_on_dask(client, [EXAMPLES])) == local_reports(EXAMPLES)


def test_generated_10k_corpus_same_report_as_local(
    client: distributed.Client, corpus_10k: Path, tmp_path: Path
) -> None:
    small = write_corpus(tmp_path / "small.jsonl", 50, seed=1)
    paths = [corpus_10k, EXAMPLES / "schotten-totten", ILLEGAL, small, tmp_path / "missing.jsonl"]
    paths.append(small)
    expected = local_reports(*paths)
    statuses = {r.input_error is not None for r in expected} | {r.legal for r in expected}
    assert len(expected) == 10_000 + 7 + 18 + 50 + 1 + 50 and statuses == {True, False}
    # Small partitions, so many of them cross line boundaries.
    got = list(validate_on_dask(client, paths, partition_bytes=200_000))
    assert got == expected


def test_unreadable_partition_is_reported_and_the_run_goes_on(
    client: distributed.Client, tmp_path: Path
) -> None:
    first = write_corpus(tmp_path / "first.jsonl", 400, seed=2)
    lost = write_corpus(tmp_path / "lost.jsonl", 400, seed=3)
    last = write_corpus(tmp_path / "last.jsonl", 400, seed=4)
    plan = plan_partitions([first, lost, last], partition_bytes=100_000)
    # One range of the first file is not visible to the workers, and the
    # second file vanishes after planning.
    broken = [p for p in plan if p.path == str(first)][2]
    plan = [replace_path(p, tmp_path / "gone.jsonl") if p == broken else p for p in plan]
    lost.unlink()
    got = list(validate_partitions(client, plan))

    unreadable = [r for r in got if r.game == "?" and "No such file" in (r.input_error or "")]
    # The vanished file is one report, named as without Dask, however many
    # partitions it had.
    assert len([p for p in plan if p.path == str(lost)]) > 1
    assert [r.where for r in unreadable] == [
        f"{tmp_path / 'gone.jsonl'}[bytes {broken.start}-{broken.end}]",
        str(lost),
    ]
    assert all(r.input_error == "cannot read: No such file or directory" for r in unreadable)
    # The third file is intact, with its line numbers.
    assert [r for r in got if r.where.startswith(str(last))] == local_reports(last)
    # In the first file: lines before the gap keep their numbers, lines after it
    # are keyed by the byte where they start.
    reference = local_reports(first)
    before = [r for r in got if r.where.startswith(f"{first}:")]
    assert before == reference[: len(before)]
    after = [r for r in got if r.where.startswith(f"{first}[byte ")]
    starts = line_starts(first)
    assert after and [r.where for r in after] == [
        f"{first}[byte {starts[int(ref.where.rsplit(':', 1)[1]) - 1]}]"
        for ref in reference[-len(after) :]
    ]
    assert [r.summary().split(": ", 1)[1] for r in after] == [
        r.summary().split(": ", 1)[1] for r in reference[-len(after) :]
    ]


def replace_path(partition: Partition, path: Path) -> Partition:
    return Partition(str(path), partition.start, partition.end, whole=False)


def test_standard_input_is_refused(client: distributed.Client) -> None:
    with pytest.raises(ClusterError, match="standard input cannot be spread over a cluster"):
        list(validate_on_dask(client, ["-"]))


# --- the command line ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "status"),
    [
        ((str(EXAMPLES),), 0),
        ((str(EXAMPLES), str(ILLEGAL)), 1),
        (("--json", str(EXAMPLES / "schotten-totten" / "full-2024.json")), 0),
        (("--quiet", "CORPUS", str(EXAMPLES / "clans-and-glory")), 2),
    ],
)
def test_cli_dask_local_prints_the_same_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, options: tuple[str, ...], status: int
) -> None:
    corpus = str(write_corpus(tmp_path / "c.jsonl", 300, seed=5))
    args = ["validate", *(corpus if o == "CORPUS" else o for o in options)]
    assert main(args) == status
    alone = capsys.readouterr().out
    assert main([*args, "--dask", "local:2"]) == status
    assert capsys.readouterr().out == alone


@pytest.mark.parametrize("address", ["local:0", "local:two", "local:-1"])
def test_cli_bad_local_cluster_exits_2(capsys: pytest.CaptureFixture[str], address: str) -> None:
    assert main(["validate", str(EXAMPLES), "--dask", address]) == 2
    assert (
        f"expected local or local:N with N at least 1, got {address!r}" in capsys.readouterr().err
    )


def test_cli_standard_input_with_dask_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "-", "--dask", "tcp://127.0.0.1:9"]) == 2
    assert "standard input cannot be spread over a cluster" in capsys.readouterr().err


def test_unreachable_scheduler_is_a_cluster_error() -> None:
    with (
        pytest.raises(
            ClusterError, match=re.escape("cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'")
        ),
        connect("tcp://127.0.0.1:9", timeout=1),
    ):
        pass


def test_importing_referee_does_not_import_dask() -> None:
    code = (
        "import sys, referee, referee.cli, referee.records, referee.distributed\n"
        "assert not {'dask', 'distributed'} & set(sys.modules), 'dask imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- results for pandas -----------------------------------------------------------------


def test_results_as_json_lines_and_parquet(client: distributed.Client, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    corpus = write_corpus(tmp_path / "c.jsonl", 500, seed=6)
    reports = list(validate_on_dask(client, [corpus, EXAMPLES / "schotten-totten"]))
    with (
        ResultsWriter(tmp_path / "r.jsonl") as lines,
        ResultsWriter(tmp_path / "r.parquet", batch=100) as table,
    ):
        for report in reports:
            lines.write(report)
            table.write(report)
    assert [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()] == [
        r.to_json() for r in reports
    ]
    rows = pq.read_table(tmp_path / "r.parquet").to_pylist()
    assert [row["where"] for row in rows] == [r.where for r in reports]
    assert [row["status"] for row in rows] == [
        "unreadable" if r.input_error else "legal" if r.legal else "illegal" for r in reports
    ]
    assert [(row["error_ply"], row["error_reason"]) for row in rows] == [
        (r.error.ply, r.error.reason) if r.error else (None, None) for r in reports
    ]
    assert [row["outcome_winner"] for row in rows] == [
        r.outcome.winner if r.outcome else None for r in reports
    ]


def test_results_file_needs_a_known_suffix(tmp_path: Path) -> None:
    with pytest.raises(
        ValueError, match=r"results go to a \.jsonl or \.parquet file, got '.*r\.csv'"
    ):
        ResultsWriter(tmp_path / "r.csv")
