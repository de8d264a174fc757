"""Validating a corpus on a Dask cluster (the optional ``referee[dask]`` extra).

A JSON Lines corpus is cut into partitions by byte range; each worker reads only
its own range and validates each line there. A line belongs to the partition in
which it *starts*: a partition skips the tail of a line begun before it and reads
its own last line to the end, even past its range. Whole JSON files go out in
small batches. Only the per-game reports come back to the client, in corpus
order, through a bounded window of partitions in flight, so the client's memory
stays flat however large the corpus is.

The report is the one ``referee validate`` prints without Dask, byte for byte:
the sources are listed by the same function
(:func:`referee.records._sources.list_sources`) and their lines read by the
same one (:func:`referee.records._stream.iter_lines`). Each game is keyed by its
source and line; a worker lost mid-run only sends its partitions to another
worker, and a partition that cannot be read becomes an *unreadable* report
instead of stopping the run. A cluster that fails (its scheduler lost, or no
worker for :data:`DEFAULT_TIMEOUT` seconds) stops the run with a
:class:`ClusterFailure`, never a hang.

The reading needs no cluster, which makes the line-boundary rule easy to see:

    >>> import tempfile, pathlib
    >>> corpus = pathlib.Path(tempfile.mkdtemp()) / "corpus.jsonl"
    >>> line = '{"game": "schotten-totten", "moves": ["pass"]}'
    >>> _ = corpus.write_text(f"{line}\\n\\n{line}\\n")
    >>> parts = plan_partitions([str(corpus)], partition_bytes=40)
    >>> [(p.start, p.end) for p in parts]
    [(0, 40), (40, 80), (80, 95)]
    >>> [[(g.line, g.offset) for g in read_partition(p).games] for p in parts]
    [[(1, 0)], [(2, 48)], []]
    >>> [read_partition(p).lines for p in parts]
    [1, 2, 0]

The first line runs past byte 40 but is read whole by the first partition; the
second partition starts inside it, so it skips to the blank line (its local
line 1) and the next game (local line 2, byte 48), which it reads to the end;
the third partition starts inside that game and has nothing of its own.

``lines`` counts every line that starts in the partition (blank ones too), so
the client turns the partition-local ``line`` into the corpus line number.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import logging
import math
import os
import shlex
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from referee.errors import RefereeError
from referee.games import DEFAULT_GAME
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

if TYPE_CHECKING:  # the module imports Dask only when a cluster is used
    from distributed import Client, Future, LocalCluster, Security

__all__ = [
    "DASHBOARD_VARIABLE",
    "DEFAULT_PARTITION_BYTES",
    "DEFAULT_TIMEOUT",
    "LOCAL_WORKERS_PER_CORE",
    "MIN_PARTITION_BYTES",
    "TIMEOUT_VARIABLE",
    "ClusterError",
    "ClusterFailure",
    "KeyedReport",
    "Partition",
    "PartitionResult",
    "ResultsWriter",
    "connect",
    "match_on_dask",
    "max_local_workers",
    "plan_partitions",
    "read_partition",
    "validate_on_address",
    "validate_on_dask",
    "validate_partitions",
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
#: Seconds to wait, by default, for the scheduler to answer (when connecting or
#: at any time during a run), for a first worker to join it, and for a worker
#: to come back when none is left. Past that the run stops with a ClusterFailure.
DEFAULT_TIMEOUT = 30.0
#: The environment variable that sets that timeout for the command line.
TIMEOUT_VARIABLE = "REFEREE_DASK_TIMEOUT"
#: The environment variable that asks ``local`` for Dask's dashboard, at this
#: address (e.g. ``127.0.0.1:8787``); without it a local cluster has none.
DASHBOARD_VARIABLE = "REFEREE_DASK_DASHBOARD"
#: ``local:N`` starts at most this many worker processes per core.
LOCAL_WORKERS_PER_CORE = 2
#: Why Dask cancels a future when its scheduler is gone, in our words.
_SCHEDULER_GONE = {
    "scheduler-connection-lost": "the connection closed",
    "scheduler-restart": "the scheduler restarted",
}


class ClusterError(RefereeError):
    """The cluster cannot be used as asked: Dask missing, a bad address
    (``local:0``, ``tls://`` without TLS settings), standard input."""

    def __init__(self, message: str, reason: str = "cluster") -> None:
        super().__init__(reason, message)


class ClusterFailure(ClusterError):
    """The cluster failed: its scheduler unreachable or lost, or no worker
    within the timeout. ``done`` holds what was finished before (the games of
    :func:`match_on_dask`); the command line exits with status 3."""

    def __init__(self, message: str, done: Sequence[Any] = ()) -> None:
        super().__init__(message, "cluster_failed")
        self.done = tuple(done)


def max_local_workers() -> int:
    """How many worker processes ``local:N`` may start on this machine:
    :data:`LOCAL_WORKERS_PER_CORE` per core this process may use."""
    return LOCAL_WORKERS_PER_CORE * _cores()


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _timeout(timeout: float | None) -> float:
    """``timeout``, or the one the environment sets, or the default."""
    if timeout is None:
        text = os.environ.get(TIMEOUT_VARIABLE, "").strip()
        if not text:
            return DEFAULT_TIMEOUT
        try:
            timeout = float(text)
        except ValueError:
            timeout = math.nan
        if not 0 < timeout <= 86_400:
            raise ClusterError(f"{TIMEOUT_VARIABLE} must be seconds (0 to 86400), not {text!r}")
        return timeout
    if not 0 < timeout <= 86_400:
        raise ValueError(f"the timeout must be seconds (0 to 86400), not {timeout!r}")
    return float(timeout)


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


# --- planning and reading (run on the workers, no Dask needed) ----------------------


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


# --- the client side -------------------------------------------------------------


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


def _lost(partition: Partition, error: BaseException) -> PartitionResult:
    """A partition whose task failed on the cluster (e.g. it killed workers)."""
    return PartitionResult(partition, error=f"lost on the cluster: {type(error).__name__}: {error}")


class _Watch:
    """Waits on the cluster without ever hanging: a scheduler that stops
    answering, or a cluster left without a worker, raises a ClusterFailure
    within the timeout (plus a second's poll)."""

    def __init__(self, client: Client, timeout: float | None) -> None:
        self.client = client
        self.timeout = _timeout(timeout)
        self.poll = min(1.0, self.timeout / 4)
        self.address = str(getattr(client.scheduler, "address", None) or "?")
        self.idle_since: float | None = None

    def lost(self, error: BaseException | str) -> ClusterFailure:
        if isinstance(error, TimeoutError):
            error = f"no answer within {self.timeout:g} s"
        elif isinstance(error, BaseException):
            error = f"{type(error).__name__}: {error}".split("\n")[0]
        return ClusterFailure(f"lost the Dask scheduler at {self.address!r} ({error})")

    @contextlib.contextmanager
    def guard(self) -> Iterator[None]:
        """Dask's errors of communication, as a ClusterFailure."""
        try:
            yield
        except (OSError, TimeoutError) as error:  # CommClosedError is an OSError
            raise self.lost(error) from None

    def workers(self) -> dict[str, int]:
        """The threads of each worker, asked of the scheduler (within the timeout)."""
        if self.client.status != "running":
            raise self.lost(f"the client is {self.client.status}")
        with self.guard():
            workers: dict[str, int] = self.client.nthreads(callback_timeout=self.timeout)
        return workers

    def wait_for_workers(self) -> dict[str, int]:
        deadline = time.monotonic() + self.timeout
        while not (workers := self.workers()):
            if time.monotonic() > deadline:
                raise ClusterFailure(
                    f"no worker joined the Dask scheduler at {self.address!r} "
                    f"within {self.timeout:g} s"
                )
            time.sleep(self.poll)
        return workers

    def check(self) -> None:
        """Fail if the scheduler does not answer, or has had no worker for too long."""
        now = time.monotonic()
        if self.workers():
            self.idle_since = None
        elif self.idle_since is None:
            self.idle_since = now
        elif now - self.idle_since > self.timeout:
            raise ClusterFailure(
                f"the Dask scheduler at {self.address!r} has had no worker for {self.timeout:g} s"
            )

    def result(self, future: Future[Any]) -> Any:
        """The future's result; its task's own error as it is; a ClusterFailure
        when the cluster fails while it waits."""
        from distributed.client import FutureCancelledError

        while True:
            try:
                return future.result(timeout=self.poll)
            except FutureCancelledError as error:
                if error.reason in _SCHEDULER_GONE or self.client.status != "running":
                    raise self.lost(_SCHEDULER_GONE.get(error.reason, error.reason)) from None
                raise
            except (OSError, TimeoutError) as error:  # TimeoutError: not done yet
                if future.status == "error":  # the task raised it
                    raise
                if not isinstance(error, TimeoutError):
                    raise self.lost(error) from None
            self.check()


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


def _refuse_stdin(paths: Iterable[str | Path]) -> None:
    if any(str(p) == "-" for p in paths):
        raise ClusterError(
            "standard input cannot be spread over a cluster: give files the workers can read"
        )


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


@contextlib.contextmanager
def connect(
    address: str, *, timeout: float | None = None, dashboard: str | None = None
) -> Iterator[Client]:
    """A client for ``address``: a scheduler such as ``tcp://host:8786`` (or
    ``tls://host:8786`` with Dask's TLS settings), or ``local`` / ``local:N``
    for a cluster of N worker processes on this machine (default: one per
    core; at most :func:`max_local_workers`), listening on the loopback
    interface only. A local cluster is closed on exit.

    ``timeout`` (default :data:`DEFAULT_TIMEOUT`, or ``REFEREE_DASK_TIMEOUT``)
    bounds the wait for the scheduler. A local cluster has Dask's dashboard
    only when asked: at ``dashboard`` (or ``REFEREE_DASK_DASHBOARD``), such as
    ``127.0.0.1:8787``.

    A bad address is a :class:`ClusterError`; a scheduler that cannot be
    reached is a :class:`ClusterFailure`. Dask's own log messages are silenced
    while the client is open: its failures come as exceptions.
    """
    seconds = _timeout(timeout)
    workers = _local_workers(address)
    try:
        from distributed import Client
    except ImportError as error:
        raise ClusterError(
            f"Dask is not installed ({error}): pip install 'referee[dask]'"
        ) from None
    with _silenced("distributed"):
        yield from _connect(Client, address, workers, seconds, dashboard)


@contextlib.contextmanager
def _silenced(name: str) -> Iterator[None]:
    """The logger ``name`` and all those under it (Dask gives some their own
    level) say nothing for a while."""
    loggers = [logging.getLogger(name)] + [
        logger
        for key, logger in list(logging.root.manager.loggerDict.items())
        if key.startswith(f"{name}.") and isinstance(logger, logging.Logger)
    ]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _connect(
    client_class: type[Client],
    address: str,
    workers: int | None,
    seconds: float,
    dashboard: str | None,
) -> Iterator[Client]:
    if workers is not None:
        with (
            _local_cluster(workers, dashboard) as cluster,
            client_class(cluster, timeout=seconds) as client,
        ):
            yield client
        return
    security = _security(address)
    client = _started(
        lambda: client_class(address, timeout=seconds, security=security), address, seconds
    )
    try:
        yield client
    finally:
        # A scheduler already gone must not hold the exit up.
        with contextlib.suppress(Exception):
            client.close(timeout=min(seconds, 1.0))


def _started(start: Callable[[], Client], address: str, seconds: float) -> Client:
    """The client ``start()`` makes, within ``seconds`` (and a grace second).

    Dask bounds the connection by its ``timeout`` but not every wait after it:
    a service that is not a Dask scheduler (a web server, say) can answer the
    handshake with bytes Dask reads as a huge frame, or hold it open, and the
    client's start then waits for ever. So the start runs in a daemon thread,
    and a start that has not finished in time is a :class:`ClusterFailure`.
    """
    made: list[Client] = []
    failed: list[BaseException] = []
    lock, abandoned = threading.Lock(), threading.Event()

    def run() -> None:
        try:
            client = start()
        except BaseException as error:
            failed.append(error)
            return
        with lock:
            if not abandoned.is_set():
                made.append(client)
                return
        with contextlib.suppress(Exception):  # too late: nobody will use it
            client.close(timeout=1.0)

    thread = threading.Thread(target=run, name="referee-dask-connect", daemon=True)
    thread.start()
    thread.join(seconds + 1.0)
    with lock:
        if made:
            return made[0]
        abandoned.set()
    if not failed:
        raise ClusterFailure(
            f"no Dask scheduler answered at {address!r} within {seconds:g} s "
            "(is it a Dask scheduler's address?)"
        )
    error = failed[0]
    if isinstance(error, OSError | TimeoutError | MemoryError):
        raise ClusterFailure(
            f"cannot reach the Dask scheduler at {address!r} within {seconds:g} s: "
            f"{type(error).__name__}: {error}"
        ) from None
    if isinstance(error, ValueError | TypeError):
        raise ClusterError(f"cannot use the Dask scheduler address {address!r}: {error}") from None
    raise error


def _local_workers(address: str) -> int | None:
    """How many workers ``local[:N]`` asks for (None: not a local cluster)."""
    kind, colon, count = address.partition(":")
    if kind != "local":
        return None
    limit = max_local_workers()
    if not colon:
        return _cores()
    if not (count.isascii() and count.isdigit()) or int(count[:30]) < 1:
        raise ClusterError(f"expected local or local:N with N at least 1, got {address!r}")
    if len(count) > 30 or int(count) > limit:
        raise ClusterError(
            f"{address!r} asks for {count} worker processes: at most {limit} on this machine "
            f"({LOCAL_WORKERS_PER_CORE} per core)"
        )
    return int(count)


@contextlib.contextmanager
def _local_cluster(workers: int, dashboard: str | None) -> Iterator[LocalCluster]:
    """A cluster of ``workers`` processes on the loopback interface.

    The workers are forked from a fresh *forkserver* process (with Dask and
    referee already imported), not from this one, so they hold none of its
    sockets (the scheduler's among them) nor its threads' locks, and start in
    a fraction of a second once that server is up. As with Dask's own local
    clusters, a script that starts one must guard its entry point with
    ``if __name__ == "__main__":`` (the server imports the script's module).
    """
    import multiprocessing.forkserver

    import dask
    from distributed import LocalCluster
    from distributed.utils import get_mp_context

    dashboard = dashboard or os.environ.get(DASHBOARD_VARIABLE) or None
    options: dict[str, Any] = {}
    settings: dict[str, Any] = {"distributed.worker.multiprocessing-method": "forkserver"}
    if dashboard is None:
        # The scheduler always starts an HTTP server: on loopback, any free
        # port, and with nothing to serve.
        options["scheduler_kwargs"] = {"dashboard_address": "127.0.0.1:0"}
        settings["distributed.scheduler.http.routes"] = []
    with dask.config.set(settings):
        get_mp_context().set_forkserver_preload(
            ["distributed", "referee.distributed", "referee.records"]
        )
        # Its imports (a second or so) go on while the scheduler starts here.
        multiprocessing.forkserver.ensure_running()
        with LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=dashboard,
            silence_logs=logging.ERROR,
            **options,
        ) as cluster:
            yield cluster


def _security(address: str) -> Security:
    """Dask's security settings for ``address``, from Dask's configuration;
    a ClusterError for an address that cannot work from here."""
    from distributed import Security
    from distributed.comm import registry
    from distributed.comm.addressing import parse_address

    try:
        scheme, _ = parse_address(address)
    except ValueError as error:
        raise ClusterError(f"cannot use the Dask scheduler address {address!r}: {error}") from None
    if scheme not in registry.backends:
        raise ClusterError(
            f"cannot use the Dask scheduler address {address!r}: unknown scheme {scheme!r} "
            f"(tcp://, tls://, ws:// or wss://)"
        )
    if scheme == "inproc":
        raise ClusterError(f"{address!r}: an inproc:// scheduler lives in another process")
    if scheme == "ucx" and importlib.util.find_spec("distributed_ucxx") is None:
        raise ClusterError(
            f"{address!r}: ucx:// needs Dask's UCX support (pip install distributed-ucxx); "
            "use a tcp:// or tls:// address"
        )
    try:
        security = Security()
        context = security.get_connection_args("client")["ssl_context"]
    except (OSError, ValueError) as error:  # ssl.SSLError is an OSError
        raise ClusterError(f"Dask's TLS settings cannot be used: {error}") from None
    if scheme == "tls" and context is None:
        raise ClusterError(
            f"{address!r}: a tls:// scheduler needs Dask's TLS settings for the client: "
            "distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and "
            "distributed.comm.tls.client.key in Dask's configuration (or the environment "
            "variables DASK_DISTRIBUTED__COMM__TLS__CA_FILE, ...__CLIENT__CERT, ...__CLIENT__KEY)"
        )
    return security


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


# --- arena matches ----------------------------------------------------------------


def match_on_dask(
    client: Client,
    bots: Sequence[Any],
    game: str = DEFAULT_GAME,
    *,
    games: int = 2,
    seed: int = 0,
    records: str | Path | IO[str] | None = None,
    window: int | None = None,
    on_game: Callable[[Any], None] | None = None,
    base: str | None = None,
    timeout: float | None = None,
    **options: Any,
) -> list[Any]:
    """``referee.arena.play_match`` with its games spread over the cluster's workers.

    Game ``i`` is ``referee.arena.match_game(bots, game, i, seed=seed, ...)``
    run as one task keyed by the match's seed and ``i``: its seats and deal come
    from the seed alone, so a game lost with its worker is played again from
    the start and counted once. The bots are started on the workers (a command
    bot must be installed there; an in-process bot is shipped with the task);
    the words of a bot command that name files in ``base`` (default: the
    current folder) are made absolute here, so that a worker in another folder
    finds them. The results come back in game order, as from ``play_match``
    with the same seed; ``records`` receives every game's full record as a JSON
    line, in game order, and ``on_game`` is called with each result in game
    order. ``options`` are ``play_match``'s: ``rules``, ``move_time``,
    ``game_time``, ``max_plies``, ``ask_forced``, ``sandbox`` (bot programs are
    sandboxed on the workers unless ``sandbox=False``; a records file named
    here is hidden from them too). Needs ``referee.arena``.

    A cluster that fails raises a :class:`ClusterFailure` within ``timeout``
    seconds (see :func:`validate_on_dask`) whose ``done`` holds the games
    finished before, all of them written to ``records``.
    """
    import importlib

    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    arena = importlib.import_module("referee.arena")
    if games < 0:
        raise ValueError(f"the number of games must be 0 or more, not {games}")
    sandbox = options.get("sandbox", True)
    if sandbox is not False and isinstance(records, (str, Path)):
        options["sandbox"] = (arena.Sandbox() if sandbox is True else sandbox).hiding(records)
    here = os.getcwd() if base is None else base
    bots = [_bot_for_workers(bot, here, arena) for bot in bots]
    watch = _Watch(client, timeout)
    if window is None:
        window = max(4, 3 * sum(watch.wait_for_workers().values())) if games else 1
    run = uuid.uuid4().hex[:12]
    pending: deque[tuple[int, Future[Any]]] = deque()
    indices = iter(range(games))
    results: list[Any] = []

    def submit() -> None:
        with watch.guard():
            for index in indices:
                key = f"referee-match-{run}-seed{seed}-game{index}"
                future = client.submit(
                    arena.match_game, bots, game, index, seed=seed, key=key, **options
                )
                pending.append((index, future))
                if len(pending) >= window:
                    return

    with contextlib.ExitStack() as stack:
        out: IO[str] | None
        if isinstance(records, (str, Path)):
            out = stack.enter_context(open(records, "w", encoding="utf-8"))
        else:
            out = records
        try:
            submit()
            while pending:
                index, future = pending.popleft()
                try:
                    result = watch.result(future)
                except (KilledWorker, FutureCancelledError) as error:
                    raise ClusterFailure(
                        f"game {index + 1} was lost on the cluster: {type(error).__name__}: "
                        f"{error}".split("\n")[0]
                    ) from None
                future.release()
                submit()
                results.append(result)
                if out is not None:
                    out.write(result.record.dumps() + "\n")
                    out.flush()
                if on_game is not None:
                    on_game(result)
        except ClusterFailure as failure:
            raise ClusterFailure(str(failure), done=results) from None
    return results


def _bot_for_workers(spec: Any, base: str, arena: Any) -> Any:
    """``spec`` as a worker in another folder should start it: a script path
    made absolute, the words of a command that name files in ``base`` made
    absolute (the bot keeps the name it has without Dask)."""
    if isinstance(spec, str):
        words = shlex.split(spec)
        if len(words) == 1 and words[0].endswith((".py", ".js")):
            return shlex.quote(locate(words[0], base))  # the worker picks its runner
    elif isinstance(spec, Sequence) and not isinstance(spec, bytes):
        words = [str(word) for word in spec]
    else:
        return spec  # a Bot object or a callable: as it is
    if not words:
        return spec  # refused on the worker, as without Dask
    name = arena.as_bot(words).name
    absolute = [
        word
        if word.startswith("-") or is_url(word) or not os.path.exists(locate(word, base))
        else locate(word, base)
        for word in words
    ]
    return arena.CommandBot(absolute, name=name)


# --- results for later analysis ---------------------------------------------------

_COLUMNS: tuple[tuple[str, str], ...] = (
    ("where", "string"),
    ("game", "string"),
    ("public", "bool_"),
    ("legal", "bool_"),
    ("status", "string"),
    ("plies", "int64"),
    ("games", "int64"),
    ("error_round", "int64"),
    ("error_ply", "int64"),
    ("error_move", "string"),
    ("error_reason", "string"),
    ("error_message", "string"),
    ("error_evidence", "string"),
    ("result_mismatch", "string"),
    ("input_error", "string"),
    ("match_error", "string"),
    ("match_result", "string"),
    ("outcome_winner", "int64"),
    ("outcome_reason", "string"),
)


def _row(report: ValidationReport) -> dict[str, Any]:
    error, outcome = report.error, report.outcome
    return {
        "where": report.where,
        "game": report.game,
        "public": report.public,
        "legal": report.legal,
        "status": "unreadable"
        if report.input_error is not None
        else "legal"
        if report.legal
        else "illegal",
        "plies": report.plies,
        "games": report.games,
        "error_round": None if error is None else error.round,
        "error_ply": None if error is None else error.ply,
        "error_move": None if error is None else error.move,
        "error_reason": None if error is None else error.reason,
        "error_message": None if error is None else error.message,
        "error_evidence": None
        if error is None or error.evidence is None
        else json.dumps(error.evidence, ensure_ascii=False),
        "result_mismatch": report.result_mismatch,
        "input_error": report.input_error,
        "match_error": report.match_error,
        "match_result": None
        if report.match_result is None
        else json.dumps(report.match_result, ensure_ascii=False),
        "outcome_winner": None if outcome is None else outcome.winner,
        "outcome_reason": None if outcome is None else outcome.reason,
    }


class ResultsWriter:
    """Writes reports to a ``.jsonl`` file (one :meth:`ValidationReport.to_json`
    per line) or a ``.parquet`` file (one flat row per game, see the docs page),
    a batch at a time, so memory stays flat.

    Parquet needs ``pyarrow``, which the ``dask`` extra installs.

    >>> import tempfile, pathlib
    >>> from referee.records import loads_document, validate
    >>> report = validate(loads_document('{"game": "schotten-totten", "moves": ["pass"]}', "x:1"))
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "results.jsonl"
    >>> with ResultsWriter(out) as writer:
    ...     writer.write(report)
    >>> out.read_text().count("\\n")
    1
    """

    def __init__(self, path: str | Path, *, batch: int = 4096) -> None:
        self.path = Path(path)
        self._batch_size = batch
        self._rows: list[dict[str, Any]] = []
        self._parquet: Any = None
        self._schema: Any = None
        self._text: IO[str] | None = None
        if self.path.suffix == ".parquet":
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                raise ImportError(
                    "Parquet results need pyarrow: pip install 'referee[dask]'"
                ) from None
            self._schema = pa.schema([(name, getattr(pa, kind)()) for name, kind in _COLUMNS])
            self._parquet = pq.ParquetWriter(str(self.path), self._schema)
        elif self.path.suffix == ".jsonl":
            self._text = self.path.open("w", encoding="utf-8")
        else:
            raise ValueError(f"results go to a .jsonl or .parquet file, got {str(path)!r}")

    def write(self, report: ValidationReport) -> None:
        """Add one report."""
        if self._text is not None:
            self._text.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
            return
        self._rows.append(_row(report))
        if len(self._rows) >= self._batch_size:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            import pyarrow as pa

            self._parquet.write_table(pa.Table.from_pylist(self._rows, schema=self._schema))
            self._rows.clear()

    def close(self) -> None:
        """Write what is left and close the file."""
        if self._text is not None:
            self._text.close()
        elif self._parquet is not None:
            self._flush()
            self._parquet.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
