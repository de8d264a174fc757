"""Validating a corpus on a Dask cluster (the optional ``referee[dask]`` extra).

A JSON Lines corpus is cut into partitions by byte range; each worker reads only
its own range and validates each line there. A line belongs to the partition in
which it *starts*: a partition skips the tail of a line begun before it and reads
its own last line to the end, even past its range. Whole JSON files go out in
small batches. Only the per-game reports come back to the client, in corpus
order, through a bounded window of partitions in flight, so the client's memory
stays flat however large the corpus is.

The report is the one ``referee validate`` prints without Dask: same order, same
``where`` (``path:line``), same summary. Each game is keyed by its source and
line; a worker lost mid-run only sends its partitions to another worker, and a
partition that cannot be read becomes one *unreadable* report instead of
stopping the run.

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
import json
import logging
import math
import os
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from referee.errors import RefereeError
from referee.records import (
    Match,
    Record,
    RecordError,
    ValidationReport,
    iter_records,
    loads_document,
    validate,
)

if TYPE_CHECKING:  # the module imports Dask only when a cluster is used
    from distributed import Client, Future

__all__ = [
    "DEFAULT_PARTITION_BYTES",
    "MIN_PARTITION_BYTES",
    "ClusterError",
    "KeyedReport",
    "Partition",
    "PartitionResult",
    "ResultsWriter",
    "connect",
    "match_on_dask",
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


class ClusterError(RefereeError):
    """The cluster cannot be used: Dask missing, scheduler unreachable, stdin."""

    def __init__(self, message: str) -> None:
        super().__init__("cluster", message)


@dataclass(frozen=True)
class Partition:
    """One unit of work: bytes ``[start, end)`` of a JSON Lines file, or a batch
    of whole JSON ``files`` (then ``path`` is empty).

    ``whole`` is true when the range is the entire file, so a failure to read
    it is reported under the file's name alone, as without Dask.
    """

    path: str = ""
    start: int = 0
    end: int = 0
    whole: bool = True
    files: tuple[str, ...] = ()

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


def _sources(paths: Iterable[str | Path]) -> Iterator[Path]:
    # The same expansion as ``referee validate``: folders give their .json and
    # .jsonl files, sorted.
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(
                p for p in path.rglob("*") if p.suffix in (".json", ".jsonl") and p.is_file()
            )
        else:
            yield path


def plan_partitions(
    paths: Iterable[str | Path], partition_bytes: int | None = None, *, threads: int = 1
) -> list[Partition]:
    """Cut the corpus into partitions, in the order the reports come out.

    Only folder listings and file sizes are read; it runs on a worker, so the
    corpus has to be visible to the workers, not to the client. Without
    ``partition_bytes`` the size is chosen for the corpus and the cluster's
    ``threads``: about eight partitions per thread, between
    ``MIN_PARTITION_BYTES`` and ``DEFAULT_PARTITION_BYTES``.
    """
    sources = list(_sources(paths))
    if partition_bytes is None:
        total = sum(_size(source) for source in sources if source.suffix == ".jsonl")
        partition_bytes = total // (_PARTITIONS_PER_THREAD * max(1, threads))
        partition_bytes = max(MIN_PARTITION_BYTES, min(DEFAULT_PARTITION_BYTES, partition_bytes))
    if partition_bytes < 1:
        raise ValueError(f"partition_bytes must be at least 1, got {partition_bytes!r}")
    plan: list[Partition] = []
    batch: list[str] = []

    def flush() -> None:
        if batch:
            plan.append(Partition(files=tuple(batch)))
            batch.clear()

    for source in sources:
        if source.suffix != ".jsonl":
            batch.append(str(source))
            if len(batch) >= _FILES_PER_BATCH:
                flush()
            continue
        flush()
        size = _size(source)
        count = max(1, math.ceil(size / partition_bytes))
        for index in range(count):
            start, end = index * partition_bytes, min(size, (index + 1) * partition_bytes)
            plan.append(Partition(str(source), start, end, whole=count == 1))
    flush()
    return plan


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # the worker's open() reports why


def _check(item: Record | Match | RecordError) -> ValidationReport:
    if isinstance(item, RecordError):
        detail = item.detail if not item.field else f"field {item.field!r}: {item.detail}"
        return ValidationReport(item.where or "<input>", "?", False, 0, input_error=detail)
    return validate(item)


def _check_line(line: bytes, where: str) -> ValidationReport:
    try:
        return _check(loads_document(line, where))
    except RecordError as error:
        return _check(error)


def read_partition(partition: Partition) -> PartitionResult:
    """Read and validate one partition (this is the task a worker runs).

    An ``OSError`` while reading makes the whole partition unreadable; the
    games already checked in it are dropped, so none is counted twice.
    """
    if partition.files:
        games = [
            KeyedReport(0, 0, _check(item))
            for name in partition.files
            for item in iter_records(Path(name))
        ]
        return PartitionResult(partition, tuple(games))
    try:
        with open(partition.path, "rb") as handle:
            return _read_range(partition, handle)
    except OSError as error:
        return PartitionResult(partition, error=f"cannot read: {error.strerror or error}")


def _read_range(partition: Partition, handle: IO[bytes]) -> PartitionResult:
    position = partition.start
    if position > 0:
        # A line belongs to the partition where it starts: skip the end of a
        # line that began before this range.
        handle.seek(position - 1)
        if handle.read(1) != b"\n":
            position += len(handle.readline())
    games: list[KeyedReport] = []
    lines = 0
    while position < partition.end:
        line = handle.readline()
        if not line:
            break
        lines += 1
        if line.strip():
            # ``where`` is partition-local here; the client renumbers it.
            report = _check_line(line, f"{partition.path}:{lines}")
            games.append(KeyedReport(lines, position, report))
        position += len(line)
    return PartitionResult(partition, tuple(games), lines)


# --- the client side -------------------------------------------------------------


@dataclass
class _Ledger:
    """Turns partition-local lines into corpus lines and keeps each game once.

    Partitions arrive in corpus order, so the keys (source, byte offset) only
    grow within a source: remembering the last one is enough to refuse a
    duplicate.
    """

    lines_before: int | None = 0
    last_offset: int = -1

    def reports(self, result: PartitionResult) -> Iterator[ValidationReport]:
        part = result.partition
        if part.files:
            yield from (game.report for game in result.games)
            return
        if part.start == 0:  # a file starts (again, if it is named twice)
            self.lines_before, self.last_offset = 0, -1
        if result.error is not None:
            # Later line numbers in this file are unknown: key them by byte.
            self.lines_before = None
            yield ValidationReport(part.name, "?", False, 0, input_error=result.error)
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


def _lost(partition: Partition, error: BaseException) -> PartitionResult:
    """A partition whose task failed on the cluster (e.g. it killed workers)."""
    return PartitionResult(partition, error=f"lost on the cluster: {type(error).__name__}: {error}")


def validate_on_dask(
    client: Client,
    paths: Iterable[str | Path],
    *,
    partition_bytes: int | None = None,
    window: int | None = None,
) -> Iterator[ValidationReport]:
    """Validate a corpus on the cluster behind ``client``; yield the reports in
    corpus order, lazily.

    ``paths`` are files and folders as the *workers* see them. The partition
    size is chosen for the corpus and the cluster unless ``partition_bytes`` is
    given (see :func:`plan_partitions`). ``window`` is how many partitions may
    be in flight at once (default: three per worker thread); nothing else is
    held on the client.
    """
    paths = list(paths)
    _refuse_stdin(paths)
    threads = sum(client.nthreads().values())
    plan: list[Partition] = client.submit(
        plan_partitions, paths, partition_bytes, threads=threads, pure=False
    ).result()
    yield from validate_partitions(client, plan, window=window)


def _refuse_stdin(paths: Iterable[str | Path]) -> None:
    if any(str(p) == "-" for p in paths):
        raise ClusterError(
            "standard input cannot be spread over a cluster: give files the workers can read"
        )


def validate_partitions(
    client: Client, plan: Sequence[Partition], *, window: int | None = None
) -> Iterator[ValidationReport]:
    """Validate planned partitions (see :func:`plan_partitions`) in order."""
    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    if window is None:
        window = max(4, 3 * sum(client.nthreads().values()))
    run = uuid.uuid4().hex[:12]
    ledger = _Ledger()
    pending: deque[tuple[Partition, Future[PartitionResult]]] = deque()
    parts = iter(enumerate(plan))

    def submit() -> None:
        for index, partition in parts:
            key = f"referee-validate-{run}-{index}"
            pending.append((partition, client.submit(read_partition, partition, key=key)))
            if len(pending) >= window:
                return

    submit()
    while pending:
        partition, future = pending.popleft()
        try:
            result = future.result()
        except (KilledWorker, FutureCancelledError) as error:
            result = _lost(partition, error)
        future.release()
        submit()
        yield from ledger.reports(result)


@contextlib.contextmanager
def connect(address: str, *, timeout: float = 10.0) -> Iterator[Client]:
    """A client for ``address``: a scheduler such as ``tcp://host:8786``, or
    ``local`` / ``local:N`` for a cluster of N worker processes on this machine
    (default: one per core). A local cluster is closed on exit."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError as error:
        raise ClusterError(
            f"Dask is not installed ({error}): pip install 'referee[dask]'"
        ) from None
    kind, _, count = address.partition(":")
    if kind == "local":
        if count and not (count.isdigit() and int(count) >= 1):
            raise ClusterError(f"expected local or local:N with N at least 1, got {address!r}")
        workers = int(count) if count else os.cpu_count() or 1
        # Forked workers start with Dask and referee already imported: about a
        # second of CPU less per worker than spawning a fresh interpreter.
        with (
            dask.config.set({"distributed.worker.multiprocessing-method": "fork"}),
            LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = Client(address, timeout=timeout)
    except (OSError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {error}") from None
    with client:
        yield client


def validate_on_address(
    paths: Sequence[str], address: str, *, partition_bytes: int | None = None
) -> Iterator[ValidationReport]:
    """What ``referee validate --dask ADDRESS`` runs: connect, validate, close."""
    _refuse_stdin(paths)  # before starting or reaching a cluster
    with connect(address) as client:
        yield from validate_on_dask(client, paths, partition_bytes=partition_bytes)


# --- arena matches ----------------------------------------------------------------


def match_on_dask(
    client: Client,
    bots: Sequence[Any],
    game: str = "schotten-totten",
    *,
    games: int = 2,
    seed: int = 0,
    records: str | Path | IO[str] | None = None,
    window: int | None = None,
    on_game: Callable[[Any], None] | None = None,
    **options: Any,
) -> list[Any]:
    """``referee.arena.play_match`` with its games spread over the cluster's workers.

    Game ``i`` is ``referee.arena.match_game(bots, game, i, seed=seed, ...)``
    run as one task keyed by the match's seed and ``i``: its seats and deal come
    from the seed alone, so a game lost with its worker is played again from
    the start and counted once. The bots are started on the workers (a command
    bot must be installed there; an in-process bot is shipped with the task).
    The results come back in game order, as from ``play_match`` with the same
    seed; ``records`` receives every game's full record as a JSON line, in game
    order, and ``on_game`` is called with each result in game order.
    ``options`` are ``play_match``'s: ``rules``, ``move_time``, ``game_time``,
    ``max_plies``, ``ask_forced``, ``sandbox`` (bot programs are sandboxed on the
    workers unless ``sandbox=False``; a records file named here is hidden from
    them too). Needs ``referee.arena``.
    """
    import importlib

    arena = importlib.import_module("referee.arena")
    if games < 0:
        raise ValueError(f"the number of games must be 0 or more, not {games}")
    sandbox = options.get("sandbox", True)
    if sandbox is not False and isinstance(records, (str, Path)):
        options["sandbox"] = (arena.Sandbox() if sandbox is True else sandbox).hiding(records)
    if window is None:
        window = max(4, 3 * sum(client.nthreads().values()))
    run = uuid.uuid4().hex[:12]
    pending: deque[Future[Any]] = deque()
    indices = iter(range(games))
    results: list[Any] = []

    def submit() -> None:
        for index in indices:
            key = f"referee-match-{run}-seed{seed}-game{index}"
            pending.append(
                client.submit(arena.match_game, bots, game, index, seed=seed, key=key, **options)
            )
            if len(pending) >= window:
                return

    with contextlib.ExitStack() as stack:
        out: IO[str] | None
        if isinstance(records, (str, Path)):
            out = stack.enter_context(open(records, "w", encoding="utf-8"))
        else:
            out = records
        submit()
        while pending:
            future = pending.popleft()
            result = future.result()
            future.release()
            submit()
            results.append(result)
            if out is not None:
                out.write(result.record.dumps() + "\n")
                out.flush()
            if on_game is not None:
                on_game(result)
    return results


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
