"""The ``validate`` command of :mod:`referee.cli`: its inputs read as raw
documents, judged in this process or spread in batches over worker processes
(or a Dask cluster), reported one line at a time with a progress counter.

>>> [len(batch) for batch in _batches(iter([RecordError("bad", "x")] * 130))]
[64, 64, 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from multiprocessing.pool import AsyncResult, Pool
from typing import IO, Any

from referee._commands import EXIT_ILLEGAL, EXIT_OK, EXIT_UNREADABLE
from referee._commands import error as _error
from referee._commands import one_line as _one_line
from referee.records import MAX_DOCUMENT_BYTES, RecordError, ValidationReport
from referee.records._sources import check_item, check_raw, list_sources
from referee.records._stream import Raw, iter_raw, read_raw, read_source

__all__ = ["EXIT_CLUSTER"]

#: The exit status when the Dask cluster of ``--dask`` failed before every game was checked.
EXIT_CLUSTER = 3
#: A batch for a worker holds at most this many documents, and about this many bytes.
_BATCH = 64
_BATCH_BYTES = MAX_DOCUMENT_BYTES


def _silence_stdout() -> None:
    # Standard output is a closed pipe: point it at /dev/null so that nothing,
    # not even the interpreter's last flush, writes there again.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class _Output:
    """Standard output, one safe line at a time; a closed pipe is noted, not fatal."""

    def __init__(self) -> None:
        self.closed = False

    def line(self, text: str) -> None:
        if self.closed:
            return
        try:
            print(_one_line(text), flush=False)
        except BrokenPipeError:
            self.closed = True
            _silence_stdout()

    def flush(self) -> None:
        if not self.closed:
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                self.closed = True
                _silence_stdout()


def _stdin() -> IO[bytes]:
    """Standard input as bytes; a RecordError when there is none (closed)."""
    stream = sys.stdin
    if stream is None or stream.closed:
        raise RecordError("standard input is closed", "<stdin>")
    # sys.stdin may be any text stream (a StringIO has no bytes buffer)
    buffer = getattr(stream, "buffer", None)
    return buffer if buffer is not None else stream  # type: ignore[return-value]


def _raw(paths: Iterable[str]) -> Iterator[Raw]:
    # The listing and the reading are those of ``--dask`` (referee.records._sources).
    for source in list_sources(paths):
        if isinstance(source, RecordError):
            yield source
        elif source.name == "-":
            try:
                yield from iter_raw(_stdin())
            except RecordError as error:
                yield error
        else:
            yield from read_source(source.name, source.location)


_check = check_item  # the one verdict: see referee._commands
_check_raw = check_raw


def _check_batch(batch: list[Raw]) -> list[ValidationReport]:
    return [_check_raw(item) for item in batch]


def _batches(items: Iterator[Raw]) -> Iterator[list[Raw]]:
    # Undecoded documents only: the parent reads, the workers decode, and
    # nothing deep is ever pickled. A batch is bounded in count and bytes.
    batch: list[Raw] = []
    size = 0
    for item in items:
        batch.append(item)
        size += 0 if isinstance(item, RecordError) else len(item[0])
        if len(batch) >= _BATCH or size >= _BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool(jobs: int) -> Pool:
    """Worker processes that ignore Ctrl-C: the parent alone handles it and
    ends them, so an interrupt prints no worker tracebacks."""
    context = multiprocessing.get_context("spawn")
    if threading.current_thread() is not threading.main_thread():
        return context.Pool(jobs, initializer=_ignore_interrupts)
    # Ignored from their very start (a spawned process inherits it), not only
    # once the initializer runs.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return context.Pool(jobs, initializer=_ignore_interrupts)
    finally:
        signal.signal(signal.SIGINT, previous)


def _reports(paths: Sequence[str], jobs: int) -> Iterator[ValidationReport]:
    if jobs == 1:
        yield from map(_check_raw, _raw(paths))
        return
    pending: deque[AsyncResult[list[ValidationReport]]] = deque()
    pool = _pool(jobs)
    try:
        # A bounded window of batches in flight: the workers stay busy while a
        # huge corpus never sits in memory at once.
        for batch in _batches(_raw(paths)):
            pending.append(pool.apply_async(_check_batch, (batch,)))
            if len(pending) >= 2 * jobs:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()
    except BaseException:  # an interrupt, or the caller stopped early
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()


def _with_witnesses(paths: Sequence[str]) -> Iterator[tuple[ValidationReport, Any]]:
    """``validate --witness`` (in one process): each report, with one deal that
    fits a legal public record (the full-record ``deal``; see referee.deals)."""
    from referee.deals import witness_json

    for raw in _raw(paths):
        item = raw if isinstance(raw, RecordError) else read_raw(raw)
        report = _check(item)
        if isinstance(item, RecordError) or not report.legal:
            yield report, None
        else:
            yield report, witness_json(item)


def _validate(args: argparse.Namespace) -> int:
    counts = {"legal": 0, "illegal": 0, "unreadable": 0}
    out = _Output()
    progress = _Progress(sys.stderr) if sys.stderr.isatty() and not args.json else None
    if args.witness and args.dask is not None:
        _error("--witness runs in one process: leave out --dask")
        return EXIT_UNREADABLE
    results: Iterator[tuple[ValidationReport, Any]]
    stopped: list[str] = []  # why the Dask cluster failed, if it did
    if args.witness:
        results = _with_witnesses(args.paths)
    else:
        reports = (
            _reports(args.paths, args.jobs) if args.dask is None else _dask_reports(args, stopped)
        )
        results = ((report, None) for report in reports)
    for report, found in results:
        status = report.status
        counts[status] += 1
        if status != "legal" or not args.quiet:  # --quiet: only what is not legal
            if progress:
                progress.clear()
            if args.json:
                data = report.to_json()
                if args.witness:
                    data["witness"] = found
                out.line(json.dumps(data, ensure_ascii=False))
            else:
                out.line(report.summary())
                if found is not None:
                    out.line(f"  witness: {json.dumps(found, ensure_ascii=False)}")
        if progress:
            progress.tick()
    if progress:
        progress.clear()
    total = sum(counts.values())
    if args.json:
        out.line(json.dumps({"summary": {"records": total, **counts}}))
    else:
        out.line(
            f"{total} records: {counts['legal']} legal, {counts['illegal']} illegal, "
            f"{counts['unreadable']} unreadable"
        )
    out.flush()
    if out.closed:  # the status still covers every record, read to the end
        _error("standard output was closed: the exit status covers every record")
    if stopped:
        _error(f"{stopped[0]}; stopped after {total} records, the rest were not checked")
        return EXIT_CLUSTER
    if counts["unreadable"]:
        return EXIT_UNREADABLE
    return EXIT_ILLEGAL if counts["illegal"] else EXIT_OK


def _dask_reports(args: argparse.Namespace, stopped: list[str]) -> Iterator[ValidationReport]:
    """The same reports, computed on a Dask cluster (see referee.distributed);
    a cluster that fails mid-run ends them early, with the reason in ``stopped``."""
    from referee.distributed import ClusterFailure, validate_on_address  # Dask only when used

    try:
        yield from validate_on_address(args.paths, args.dask)
    except ClusterFailure as failure:
        stopped.append(str(failure))


class _Progress:
    """A one-line progress counter on a terminal."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream, self.count, self.start, self.shown = stream, 0, time.monotonic(), 0.0

    def tick(self) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self.shown > 0.2 and now - self.start > 1.0:
            rate = self.count / (now - self.start)
            self.stream.write(f"\rvalidated {self.count} games ({rate:.0f}/s)")
            self.stream.flush()
            self.shown = now

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
