"""Faults on a real cluster: a worker killed mid-run neither loses nor repeats a game."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest

from referee.distributed import validate_on_dask
from referee.records import ValidationReport
from tests.distributed.conftest import start_cluster
from tests.distributed.corpus import line_starts, write_corpus
from tests.distributed.test_validate import local_reports

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")


def kill_a_busy_worker(
    client: distributed.Client, pids: dict[str, int], prefix: str = "referee-validate-"
) -> str:
    """SIGKILL a worker that holds one of our tasks right now; its address."""
    for _ in range(1000):
        busy = [
            address
            for address, keys in client.processing().items()
            if any(str(key).startswith(prefix) for key in keys)
        ]
        if busy:
            break
    else:  # pragma: no cover - the run is paused on the client, workers are busy
        raise AssertionError("no worker was processing a task of ours")
    os.kill(pids[busy[0]], signal.SIGKILL)
    return busy[0]


def run_with_a_kill(
    client: distributed.Client, corpus: Path, after: int
) -> tuple[list[ValidationReport], str]:
    pids = client.run(os.getpid)
    reports: Iterator[ValidationReport] = validate_on_dask(
        client, [corpus], partition_bytes=300_000, window=4
    )
    got = list(islice(reports, after))
    victim = kill_a_busy_worker(client, pids)
    got += reports
    return got, victim


def test_worker_killed_mid_run_changes_nothing(
    corpus_10k: Path, local_10k: list[ValidationReport]
) -> None:
    with start_cluster() as cluster, distributed.Client(cluster) as client:
        got, victim = run_with_a_kill(client, corpus_10k, after=1500)
        survivors = client.run(os.getpid)
    assert victim not in survivors  # the nanny started a fresh worker
    assert got == local_10k


def test_partition_that_keeps_killing_workers_is_reported_not_fatal(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "games.jsonl", 3_000, seed=7)
    local = local_reports(corpus)
    # With no failure allowed, the partitions on the killed worker are given up
    # (as a task that crashes every worker would be): each becomes one report.
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        start_cluster() as cluster,
        distributed.Client(cluster) as client,
    ):
        got, _ = run_with_a_kill(client, corpus, after=500)
    lost = [r for r in got if (r.input_error or "").startswith("lost on the cluster: KilledWorker")]
    assert lost and all(r.where.startswith(f"{corpus}[bytes ") for r in lost)
    # Every other game is there once, as locally: by line number before the
    # first loss, by the byte where its line starts after it.
    starts = line_starts(corpus)
    by_line = {r.where: r for r in local}
    line_of = {start: number for number, start in enumerate(starts, start=1)}
    kept = []
    for report in got:
        if report in lost:
            continue
        where = report.where
        if "[byte " in where:
            where = f"{corpus}:{line_of[int(where.rsplit(' ', 1)[1][:-1])]}"
        kept.append(where)
        assert by_line[where].summary().split(": ", 1)[1] == report.summary().split(": ", 1)[1]
    assert len(kept) == len(set(kept))
    assert [r.where for r in local if r.where in set(kept)] == kept
    assert len(kept) < len(local)
