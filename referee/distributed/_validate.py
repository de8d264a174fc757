"""Validating a corpus on the cluster: partitions submitted through a bounded
window, their reports put back in corpus order, each game once."""

from __future__ import annotations

import os
import uuid
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from referee.distributed._connect import connect
from referee.distributed._partitions import (
    Partition,
    PartitionResult,
    plan_partitions,
    read_partition,
)
from referee.distributed._settings import ClusterFailure, _refuse_stdin
from referee.distributed._watch import _Watch
from referee.records import ValidationReport

if TYPE_CHECKING:  # the module imports Dask only when a cluster is used
    from distributed import Client, Future

__all__ = ["validate_on_address", "validate_on_dask", "validate_partitions"]


def validate_on_dask(
    client: Client,
    paths: Iterable[str | Path],
    *,
    partition_bytes: int | None = None,
    window: int | None = None,
    base: str | None = None,
    timeout: float | None = None,
) -> Iterator[ValidationReport]:
    """Validate a corpus on the cluster behind ``client``; yield the reports in
    corpus order, lazily.

    ``paths`` are files, folders and URLs (``s3://...``, read by the workers
    through fsspec) as the *workers* see them; a relative path is taken from
    ``base``, by default this process's current folder. The partition size is
    chosen for the corpus and the cluster unless ``partition_bytes`` is given
    (see :func:`plan_partitions`). ``window`` is how many partitions may be in
    flight at once (default: three per worker thread); nothing else is held on
    the client. A cluster that fails raises a :class:`ClusterFailure` within
    ``timeout`` seconds (default :data:`DEFAULT_TIMEOUT`, or the
    ``REFEREE_DASK_TIMEOUT`` environment variable), after the reports of the
    partitions finished before.
    """
    names = [str(p) for p in paths]
    _refuse_stdin(names)
    base = os.getcwd() if base is None else base
    watch = _Watch(client, timeout)
    threads = sum(watch.wait_for_workers().values())
    with watch.guard():
        planned = client.submit(
            plan_partitions, names, partition_bytes, threads=threads, base=base, pure=False
        )
    plan: list[Partition] = watch.result(planned)
    yield from validate_partitions(client, plan, window=window, timeout=watch.timeout)


def validate_partitions(
    client: Client,
    plan: Sequence[Partition],
    *,
    window: int | None = None,
    timeout: float | None = None,
) -> Iterator[ValidationReport]:
    """Validate planned partitions (see :func:`plan_partitions`) in order."""
    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    watch = _Watch(client, timeout)
    if window is None:
        window = max(4, 3 * sum(watch.wait_for_workers().values()))
    run = uuid.uuid4().hex[:12]
    ledger = _Ledger()
    pending: deque[tuple[Partition, Future[PartitionResult] | None]] = deque()
    parts = iter(enumerate(plan))

    def submit() -> None:
        with watch.guard():
            for index, partition in parts:
                future = None
                if partition.error is None:  # else nothing to read
                    key = f"referee-validate-{run}-{index}"
                    future = client.submit(read_partition, partition, key=key)
                pending.append((partition, future))
                if len(pending) >= window:
                    return

    try:
        submit()
        while pending:
            partition, future = pending.popleft()
            if future is None:
                result = read_partition(partition)
            else:
                try:
                    result = watch.result(future)
                except (KilledWorker, FutureCancelledError) as error:
                    result = _lost(partition, error)
                future.release()
            submit()
            yield from ledger.reports(result)
    except ClusterFailure:
        yield from ledger.close()  # what was read before the failure
        raise
    yield from ledger.close()


def validate_on_address(
    paths: Sequence[str],
    address: str,
    *,
    partition_bytes: int | None = None,
    timeout: float | None = None,
) -> Iterator[ValidationReport]:
    """What ``referee validate --dask ADDRESS`` runs: connect, validate, close.
    Relative paths are taken from the current folder, here on the client."""
    _refuse_stdin(paths)  # before starting or reaching a cluster
    base = os.getcwd()
    with connect(address, timeout=timeout) as client:
        yield from validate_on_dask(
            client, paths, partition_bytes=partition_bytes, base=base, timeout=timeout
        )


def _lost(partition: Partition, error: BaseException) -> PartitionResult:
    """A partition whose task failed on the cluster (e.g. it killed workers)."""
    return PartitionResult(partition, error=f"lost on the cluster: {type(error).__name__}: {error}")


@dataclass
class _Ledger:
    """Turns partition-local lines into corpus lines and keeps each game once.

    Partitions arrive in corpus order, so the keys (source, byte offset) only
    grow within a source: remembering the last one is enough to refuse a
    duplicate. Neighbouring partitions of a file that fail alike become one
    report, named after the file alone when they cover it all, as a file that
    cannot be opened is reported without Dask.
    """

    lines_before: int | None = 0
    last_offset: int = -1
    held: tuple[Partition, int, str] | None = None  # failing run: first, end, error

    def reports(self, result: PartitionResult) -> Iterator[ValidationReport]:
        part = result.partition
        if self.held is not None:
            first, end, error = self.held
            if (
                result.error == error
                and part.error is None
                and not part.files
                and part.path == first.path
                and 0 < part.start == end
            ):
                self.held = (first, part.end, error)
                return
            yield from self.close()
        if part.error is not None:  # known when planning: nothing was read
            yield ValidationReport(part.path, "?", False, 0, input_error=part.error)
            return
        if part.files:
            yield from (game.report for game in result.games)
            return
        if part.start == 0:  # a file starts (again, if it is named twice)
            self.lines_before, self.last_offset = 0, -1
        if result.error is not None:
            # Later line numbers in this file are unknown: key them by byte.
            self.lines_before = None
            self.held = (part, part.end, result.error)
            return
        for game in result.games:
            if game.offset <= self.last_offset:
                continue  # already reported
            self.last_offset = game.offset
            if self.lines_before is None:
                where = f"{part.path}[byte {game.offset}]"
            else:
                where = f"{part.path}:{self.lines_before + game.line}"
            yield replace(game.report, where=where)
        if self.lines_before is not None:
            self.lines_before += result.lines

    def close(self) -> Iterator[ValidationReport]:
        """The report of the failing run held back, if any."""
        if self.held is None:
            return
        first, end, error = self.held
        self.held = None
        whole = first.start == 0 and (first.whole or end == first.size)
        name = first.path if whole else f"{first.path}[bytes {first.start}-{end}]"
        yield ValidationReport(name, "?", False, 0, input_error=error)
