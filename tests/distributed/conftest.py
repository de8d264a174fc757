"""Real Dask clusters on loopback for the tests, and a local S3-compatible server.

- ``client``: a cluster of two worker processes shared by the tests that do
  not harm it (its workers' current folder is this process's, not the one a
  test moves to, as on a real cluster).
- ``scheduler_process``: a ``dask scheduler`` and ``dask worker`` processes of
  their own, for the tests that stop or kill them.
- ``s3_endpoint``: moto's server mode on loopback (as s3fs's own tests use it),
  configured for fsspec through the environment before the shared cluster
  starts, so that its workers read ``s3://`` URLs from it themselves.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.records import ValidationReport
from tests.distributed.corpus import write_corpus

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="session", autouse=True)
def scratch_space(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Dask's workers keep their scratch files in this run's own folder (for
    this process, through Dask's config, and for the schedulers, workers and
    commands it starts, through the environment), not the shared
    ``dask-scratch-space`` of the current folder, which two runs at once
    would fight over."""
    import dask.config

    folder = str(tmp_path_factory.mktemp("dask-scratch"))
    saved = os.environ.get("DASK_TEMPORARY_DIRECTORY")
    os.environ["DASK_TEMPORARY_DIRECTORY"] = folder
    with dask.config.set({"temporary-directory": folder}):
        yield
    if saved is None:
        os.environ.pop("DASK_TEMPORARY_DIRECTORY", None)
    else:
        os.environ["DASK_TEMPORARY_DIRECTORY"] = saved


def start_cluster(workers: int = 2) -> distributed.LocalCluster:
    return distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.CRITICAL,
    )


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str | None]:
    """The URL of a local S3-compatible server (None without moto and s3fs)."""
    try:
        import s3fs  # noqa: F401 - fsspec's S3 support, needed by the workers
        from moto.server import ThreadedMotoServer
    except ImportError:
        yield None
        return
    import fsspec.config

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    settings = {
        "AWS_ACCESS_KEY_ID": "referee",
        "AWS_SECRET_ACCESS_KEY": "referee",
        "AWS_DEFAULT_REGION": "us-east-1",
        "FSSPEC_S3_ENDPOINT_URL": endpoint,
    }
    saved = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)
    fsspec.config.conf["s3"] = {"endpoint_url": endpoint}  # fsspec read the environment already
    try:
        yield endpoint
    finally:
        fsspec.config.conf.pop("s3", None)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        server.stop()


@pytest.fixture(scope="session")
def client(s3_endpoint: str | None) -> Iterator[distributed.Client]:
    with start_cluster() as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="session")
def corpus_10k(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """10,000 games with illegal and unreadable lines mixed in."""
    return write_corpus(tmp_path_factory.mktemp("corpus") / "games.jsonl", 10_000)


@pytest.fixture(scope="session")
def local_10k(corpus_10k: Path) -> list[ValidationReport]:
    """The reference report of the 10,000 games, without Dask."""
    from referee.cli._validate import _reports

    return list(_reports([str(corpus_10k)], 1))


class Processes:
    """A ``dask scheduler`` process and its ``dask worker`` processes."""

    def __init__(self, address: str, scheduler: subprocess.Popen[str]) -> None:
        self.address = address
        self.scheduler = scheduler
        self.workers: list[subprocess.Popen[bytes]] = []


@contextlib.contextmanager
def scheduler_process(workers: int = 0, *, joined: bool = False) -> Iterator[Processes]:
    """A real scheduler on loopback in a process of its own, with ``workers``
    worker processes (one thread each, no nanny) starting to join it (or
    ``joined`` already); every process is killed on exit."""
    scheduler = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
        ],
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    running = Processes("", scheduler)
    try:
        assert scheduler.stderr is not None
        for line in scheduler.stderr:
            found = re.search(r"Scheduler at:\s+(\S+)", line)
            if found:
                running.address = found.group(1)
                break
        else:
            raise AssertionError("the scheduler did not start")
        # Its log goes on: read it so that the pipe never fills.
        threading.Thread(target=scheduler.stderr.read, daemon=True).start()
        for _ in range(workers):
            running.workers.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "distributed.cli.dask_worker",
                        running.address,
                        "--nthreads",
                        "1",
                        "--no-nanny",
                        "--no-dashboard",
                        "--host",
                        "127.0.0.1",
                    ],
                    stdin=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        if joined:
            with distributed.Client(running.address, timeout=60) as waiter:
                waiter.wait_for_workers(workers, timeout=120)
        yield running
    finally:
        for process in [*running.workers, scheduler]:
            with contextlib.suppress(OSError):
                process.send_signal(signal.SIGCONT)  # a stopped process is killed too
                process.kill()
            process.wait()
