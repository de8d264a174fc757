"""A real Dask cluster of two worker processes, shared by the tests that do not harm it."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.records import ValidationReport
from tests.distributed.corpus import write_corpus

distributed = pytest.importorskip("distributed")


def start_cluster(workers: int = 2) -> distributed.LocalCluster:
    return distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.CRITICAL,
    )


@pytest.fixture(scope="session")
def client() -> Iterator[distributed.Client]:
    with start_cluster() as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="session")
def corpus_10k(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """10,000 games with illegal and unreadable lines mixed in."""
    return write_corpus(tmp_path_factory.mktemp("corpus") / "games.jsonl", 10_000)


@pytest.fixture(scope="session")
def local_10k(corpus_10k: Path) -> list[ValidationReport]:
    """The reference report of the 10,000 games, without Dask."""
    from referee.cli import _reports

    return list(_reports([str(corpus_10k)], 1))
