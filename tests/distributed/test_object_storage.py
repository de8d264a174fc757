"""Corpora in object storage: ``s3://`` URLs read by the workers themselves from
a local S3-compatible server (moto's server mode), each its own byte ranges."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from referee.distributed import plan_partitions, validate_on_dask
from tests.distributed.corpus import write_corpus
from tests.distributed.test_validate import EXAMPLES, local_reports

distributed = pytest.importorskip("distributed")


@pytest.fixture
def bucket(s3_endpoint: str | None) -> str:
    """A fresh bucket on the local S3 server."""
    if s3_endpoint is None:
        pytest.skip("needs moto[server] and s3fs")
    import fsspec

    name = f"referee-{uuid.uuid4().hex[:8]}"
    fsspec.filesystem("s3").mkdir(name)
    return name


def test_workers_read_their_ranges_from_object_storage_not_the_client(
    client: distributed.Client, bucket: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fsspec
    import fsspec.config

    corpus = write_corpus(tmp_path / "games.jsonl", 300, seed=21)
    fs = fsspec.filesystem("s3")
    fs.pipe(f"{bucket}/corpus/2024/games.jsonl", corpus.read_bytes())
    fs.pipe(
        f"{bucket}/corpus/full.json", (EXAMPLES / "schotten-totten" / "full-2024.json").read_bytes()
    )
    url = f"s3://{bucket}/corpus"
    expected = local_reports(url)  # the run without Dask reads the same URL
    assert len(expected) == 301 and expected[0].where == f"{url}/2024/games.jsonl:1"
    assert expected[-1].where == f"{url}/full.json" and expected[-1].legal
    plan = plan_partitions([url], partition_bytes=20_000)
    assert len(plan) > 5 and {p.size for p in plan if p.path} == {corpus.stat().st_size}

    # From now on this process cannot reach the server: only the workers can.
    nowhere = {
        "endpoint_url": "http://127.0.0.1:9",
        "config_kwargs": {"retries": {"max_attempts": 1}},
    }
    monkeypatch.setitem(fsspec.config.conf, "s3", nowhere)
    with pytest.raises(Exception, match=r"127\.0\.0\.1:9"):
        fsspec.filesystem("s3", skip_instance_cache=True).ls(bucket)
    got = list(validate_on_dask(client, [url], partition_bytes=20_000))
    assert got == expected


def test_missing_object_and_empty_prefix_are_reported_as_without_dask(
    client: distributed.Client, bucket: str
) -> None:
    import fsspec

    fsspec.filesystem("s3").pipe(f"{bucket}/notes/readme.txt", b"no corpus here")
    paths = [f"s3://{bucket}/missing.jsonl", f"s3://{bucket}/notes/", f"s3://{bucket}-nope/x.jsonl"]
    expected = local_reports(*paths)
    assert [(r.where, r.input_error) for r in expected] == [
        (paths[0], "cannot read: No such file or directory"),
        (paths[1], "no .json or .jsonl file in this folder"),
        (paths[2], "cannot read: No such file or directory (The specified bucket does not exist)"),
    ]
    assert list(validate_on_dask(client, paths)) == expected
