"""Planning a corpus into partitions and reading one: the work that runs on the
workers, with no Dask needed (see :mod:`referee.distributed` for the
line-boundary rule)."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from referee.distributed._settings import _refuse_stdin
from referee.records import ValidationReport
from referee.records._sources import Source, check_raw, list_sources, locate, source_size
from referee.records._stream import (
    Raw,
    describe_error,
    is_jsonl,
    is_url,
    iter_lines,
    open_binary,
    read_source,
)

__all__ = [
    "DEFAULT_PARTITION_BYTES",
    "MIN_PARTITION_BYTES",
    "KeyedReport",
    "Partition",
    "PartitionResult",
    "plan_partitions",
    "read_partition",
]

#: The largest partition when the size is chosen for the corpus: about 700
#: Schotten Totten games, half a second of work for one core.
DEFAULT_PARTITION_BYTES = 1 << 20
#: The smallest one: below this the scheduler's few milliseconds per task show.
MIN_PARTITION_BYTES = 1 << 16
#: Partitions per worker thread when the size is chosen for the corpus, so
#: that the last ones are short and no worker waits long for the others.
_PARTITIONS_PER_THREAD = 8
#: Whole JSON files sent to a worker at once.
_FILES_PER_BATCH = 64


@dataclass(frozen=True)
class Partition:
    """One unit of work: bytes ``[start, end)`` of a JSON Lines file, a batch
    of whole JSON ``files`` (then ``path`` is empty), or a source that could
    not be listed (``error``: it becomes one report, nothing is read).

    ``path`` and ``files`` are named as in the reports; they are read at
    :func:`~referee.records._sources.locate` (name, ``base``), ``base`` being
    the client's current folder. ``size`` is the file's size when the run was
    planned (-1 unknown): a worker that sees another size reports the file.
    ``end`` is -1 for a file of unknown size, read to its end. ``whole`` is
    true when the range is the entire file, so a failure to read it is
    reported under the file's name alone, as without Dask.
    """

    path: str = ""
    start: int = 0
    end: int = 0
    whole: bool = True
    files: tuple[str, ...] = ()
    base: str | None = None
    size: int = -1
    error: str | None = None

    @property
    def name(self) -> str:
        """How reports name the partition when it cannot be read."""
        if self.whole:
            return self.path
        return f"{self.path}[bytes {self.start}-{self.end}]"


@dataclass(frozen=True)
class KeyedReport:
    """One game's report with its key: the partition-local ``line`` (from 1,
    0 for a whole JSON file) and the byte ``offset`` where the line starts."""

    line: int
    offset: int
    report: ValidationReport


@dataclass(frozen=True)
class PartitionResult:
    """What a worker sends back for one partition: its games, how many lines
    start in it, or why it could not be read (``error``)."""

    partition: Partition
    games: tuple[KeyedReport, ...] = ()
    lines: int = 0
    error: str | None = None


def plan_partitions(
    paths: Iterable[str | Path],
    partition_bytes: int | None = None,
    *,
    threads: int = 1,
    base: str | None = None,
) -> list[Partition]:
    """Cut the corpus into partitions, in the order the reports come out.

    Only folder listings and file sizes are read; it runs on a worker, so the
    corpus has to be visible to the workers, not to the client. Relative
    paths are taken from ``base`` (the client's current folder; default: this
    process's). Without ``partition_bytes`` the size is chosen for the corpus
    and the cluster's ``threads``: about eight partitions per thread, between
    ``MIN_PARTITION_BYTES`` and ``DEFAULT_PARTITION_BYTES``.
    """
    names = [str(p) for p in paths]
    _refuse_stdin(names)
    if partition_bytes is not None and partition_bytes < 1:
        raise ValueError(f"partition_bytes must be at least 1, got {partition_bytes!r}")
    items = list(list_sources(names, base))
    sizes = {
        index: _planned_size(item)
        for index, item in enumerate(items)
        if isinstance(item, Source) and is_jsonl(item.name)
    }
    if partition_bytes is None:
        total = sum(size for size in sizes.values() if isinstance(size, int))
        partition_bytes = total // (_PARTITIONS_PER_THREAD * max(1, threads))
        partition_bytes = max(MIN_PARTITION_BYTES, min(DEFAULT_PARTITION_BYTES, partition_bytes))
    plan: list[Partition] = []
    batch: list[str] = []

    def flush() -> None:
        if batch:
            plan.append(Partition(files=tuple(batch), base=base))
            batch.clear()

    for index, item in enumerate(items):
        if isinstance(item, Source) and index not in sizes:
            batch.append(item.name)
            if len(batch) >= _FILES_PER_BATCH:
                flush()
            continue
        flush()
        if isinstance(item, Source):
            name, size = item.name, sizes[index]
        else:  # a folder with nothing to check
            name, size = item.where, f"{item.detail}"
        if isinstance(size, str):
            plan.append(Partition(name, base=base, error=size))
        elif size is None:
            plan.append(Partition(name, 0, -1, base=base))
        else:
            count = max(1, math.ceil(size / partition_bytes))
            for part in range(count):
                start, end = part * partition_bytes, min(size, (part + 1) * partition_bytes)
                plan.append(Partition(name, start, end, count == 1, base=base, size=size))
    flush()
    return plan


def _planned_size(source: Source) -> int | str | None:
    """The size of a corpus, ``None`` when unknown, or why it cannot be seen
    (the words the run without Dask uses when it cannot open it)."""
    errors = Exception if is_url(source.location) else OSError
    try:
        return source_size(source)
    except errors as error:  # fsspec's backends raise errors of their own
        return f"cannot read: {describe_error(error, source.location)}"


def read_partition(partition: Partition) -> PartitionResult:
    """Read and validate one partition (this is the task a worker runs).

    A read error makes the whole partition unreadable; the games already read
    in it are dropped, so none is counted twice.
    """
    if partition.error is not None:
        return PartitionResult(partition, error=partition.error)
    if partition.files:
        games = [
            KeyedReport(0, 0, check_raw(item))
            for name in partition.files
            for item in read_source(name, locate(name, partition.base))
        ]
        return PartitionResult(partition, tuple(games))
    location = locate(partition.path, partition.base)
    errors = Exception if is_url(location) else OSError
    try:
        lines, items = _read_range(partition, location)
    except _SizeChanged as changed:
        return PartitionResult(partition, error=str(changed))
    except errors as error:  # fsspec's backends raise errors of their own
        return PartitionResult(partition, error=f"cannot read: {describe_error(error, location)}")
    keyed = tuple(KeyedReport(line, offset, check_raw(item)) for line, offset, item in items)
    return PartitionResult(partition, keyed, lines)


class _SizeChanged(Exception):
    """The file is not the size it was when the run was planned."""


def _read_range(partition: Partition, location: str) -> tuple[int, list[tuple[int, int, Raw]]]:
    """The lines starting in the partition's range: how many, and the documents
    among them (``where`` is partition-local here; the client renumbers it).
    They are all read before any is checked, so that only reading can fail."""
    items: list[tuple[int, int, Raw]] = []
    lines = 0
    with open_binary(location) as handle:
        size = _handle_size(handle)
        if partition.size >= 0 and size is not None and size != partition.size:
            raise _SizeChanged(
                f"cannot read: {size} bytes on this worker, {partition.size} when the run was "
                "planned (another copy of the file, or a file that changed during the run)"
            )
        end = None if partition.end < 0 else partition.end
        for number, offset, item in iter_lines(handle, partition.path, partition.start, end):
            lines = number
            if item is not None:
                items.append((number, offset, item))
    return lines, items


def _handle_size(handle: IO[bytes]) -> int | None:
    try:
        return os.fstat(handle.fileno()).st_size
    except (OSError, ValueError):  # not a local file: fsspec's file knows its size
        size = getattr(getattr(handle, "raw", handle), "size", None)
        return size if isinstance(size, int) else None
