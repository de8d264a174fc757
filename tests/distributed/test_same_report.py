"""``referee validate --dask`` prints the report of the run without Dask, byte for
byte, whatever the input: relative paths, missing and unreadable files, an
empty folder, an overlong line, a corpus in object storage.

Each case runs three times through the command line: in one process, with
``--jobs 2`` and with ``--dask`` on the shared cluster, whose workers sit in
another folder than the test (as on a real cluster).
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.cli import main
from referee.records import MAX_DOCUMENT_BYTES
from tests.distributed.corpus import unreadable_file, write_corpus

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "records"
LEGAL = (EXAMPLES / "schotten-totten" / "full-2024.json").read_text()


def relative_paths(folder: Path, s3: str | None) -> tuple[list[str], int, dict[str, int]]:
    write_corpus(folder / "games.jsonl", 300, seed=11)
    (folder / "more" / "deep").mkdir(parents=True)
    (folder / "more" / "a.json").write_text(LEGAL)
    write_corpus(folder / "more" / "deep" / "b.jsonl", 40, seed=12)
    return ["games.jsonl", "more", "./more/a.json"], 2, {"No such file": 0, "more/a.json": 2}


def missing_files(folder: Path, s3: str | None) -> tuple[list[str], int, dict[str, int]]:
    write_corpus(folder / "games.jsonl", 50, seed=13)
    paths = ["missing.jsonl", "games.jsonl", "missing.json", str(folder / "gone"), "missing.jsonl"]
    return paths, 2, {"cannot read: No such file or directory": 4}


def unreadable(folder: Path, s3: str | None) -> tuple[list[str], int, dict[str, int]]:
    unreadable_file(folder / "locked.jsonl")
    write_corpus(folder / "after.jsonl", 30, seed=15)
    return ["locked.jsonl", "after.jsonl"], 2, {"cannot read: Permission denied": 1}


def empty_folder(folder: Path, s3: str | None) -> tuple[list[str], int, dict[str, int]]:
    (folder / "empty" / "nested").mkdir(parents=True)
    (folder / "empty" / "notes.txt").write_text("not a record")
    (folder / "full").mkdir()
    (folder / "full" / "a.json").write_text(LEGAL)
    return ["full", "empty"], 2, {"no .json or .jsonl file in this folder": 1}


def overlong_line(folder: Path, s3: str | None) -> tuple[list[str], int, dict[str, int]]:
    # A line longer than a document may be, across many partitions, with
    # games before and after it; a line exactly as long as allowed is read.
    legal = json.dumps(json.loads(LEGAL)).encode()
    long = b'{"game": "schotten-totten", "note": "' + b"x" * (MAX_DOCUMENT_BYTES + 500_000) + b'"}'
    fits = b'{"game": "x", "n": "' + b"y" * (MAX_DOCUMENT_BYTES - 22) + b'"}'
    with (folder / "long.jsonl").open("wb") as out:
        out.write(legal + b"\n" + long + b"\n" + fits + b"\n")
        out.write(b"\n".join([legal] * 300) + b"\n" + long)  # no newline at the end
    return ["long.jsonl"], 2, {f"line longer than {MAX_DOCUMENT_BYTES} bytes": 2}


def object_storage(folder: Path, s3: str | None) -> tuple[list[str], int, dict[str, int]]:
    if s3 is None:
        pytest.skip("needs moto[server] and s3fs")
    import fsspec

    bucket = f"referee-{uuid.uuid4().hex[:8]}"
    fs = fsspec.filesystem("s3")
    fs.mkdir(bucket)
    fs.pipe(f"{bucket}/corpus/games.jsonl", write_corpus(folder / "c.jsonl", 200).read_bytes())
    fs.pipe(f"{bucket}/corpus/sub/a.json", LEGAL.encode())
    fs.pipe(f"{bucket}/corpus/notes.txt", b"skipped")
    fs.mkdir(f"{bucket}-empty")
    signed = fs.url(f"{bucket}/corpus/sub/a.json")  # an https-like URL with a query string
    paths = [f"s3://{bucket}/corpus/", f"s3://{bucket}/nope.jsonl", signed]
    return (
        paths,
        2,
        {
            "cannot read: No such file or directory": 1,
            f"s3://{bucket}/corpus/sub/a.json: ok": 1,
            f"s3://{bucket}/corpus/games.jsonl:200:": 1,
            f"{signed}: ok": 1,
        },
    )


CASES: dict[str, Callable[[Path, str | None], tuple[list[str], int, dict[str, int]]]] = {
    "relative-paths": relative_paths,
    "missing-files": missing_files,
    "unreadable-file": unreadable,
    "empty-folder": empty_folder,
    "overlong-line": overlong_line,
    "object-storage": object_storage,
}


@pytest.mark.parametrize("case", list(CASES))
def test_dask_prints_the_local_report_byte_for_byte(
    case: str,
    client: distributed.Client,
    s3_endpoint: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    paths, status, expected = CASES[case](tmp_path, s3_endpoint)
    monkeypatch.chdir(tmp_path)  # the workers stay in this process's folder
    assert client.run(os.getcwd) != {a: str(tmp_path) for a in client.run(os.getcwd)}
    outputs = {}
    for mode, options in {
        "alone": [],
        "jobs": ["--jobs", "2"],
        "dask": ["--dask", client.scheduler.address],
    }.items():
        assert main(["validate", *paths, *options]) == status, mode
        outputs[mode] = capsys.readouterr()
    assert outputs["dask"].out == outputs["jobs"].out == outputs["alone"].out
    assert outputs["dask"].err == outputs["alone"].err == ""
    for text, count in expected.items():
        assert outputs["alone"].out.count(text) == count, text
