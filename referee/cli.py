"""The ``referee`` command line: validate records, ask about claims, show positions.

Exit status: 0 when everything is legal, 1 when a game is illegal, 2 when an
input cannot be read (or the command line itself is wrong), 3 when the Dask
cluster of ``--dask`` failed before every game was checked. Every command
judges a record or match it reads with one function,
:func:`referee.records.validate`, and refuses one that is not legal with the
same reason and ply (see :mod:`referee._commands`).
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
from pathlib import Path
from typing import IO, Any

from referee import __version__, games
from referee._commands import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_UNREADABLE,
    Refused,
    check_ply,
    ply,
    positive,
    require_legal,
)
from referee._commands import error as _error
from referee._commands import one_line as _one_line
from referee.arena._cli import add_match_parser
from referee.errors import RefereeError
from referee.game import GameState
from referee.games import DEFAULT_GAME, game_names
from referee.records import (
    MATCH_FORMAT,
    MAX_DOCUMENT_BYTES,
    POSITION_FORMAT,
    RECORD_FORMAT,
    GameFormat,
    Match,
    Record,
    RecordError,
    ValidationReport,
    find_game,
    iter_documents,
    parse_document,
    parse_position,
    replay,
)
from referee.records._sources import check_item, check_raw, list_sources
from referee.records._stream import Raw, iter_raw, read_raw, read_source

__all__ = ["MAX_JOBS", "main"]

EXIT_CLUSTER, EXIT_INTERRUPTED = 3, 130
#: ``--jobs`` is at most this many worker processes.
MAX_JOBS = 32
#: A batch for a worker holds at most this many documents, and about this many bytes.
_BATCH = 64
_BATCH_BYTES = MAX_DOCUMENT_BYTES


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    for stream in (sys.stdout, sys.stderr):
        # sys.stdout may be any text stream (a test's StringIO has no reconfigure)
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:  # never fail on a character the terminal cannot show
            reconfigure(errors="backslashreplace")
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        return int(args.run(args))
    except Refused as refused:  # a record or match that is not legal: its verdict
        _error(str(refused))
        return refused.status
    except RefereeError as error:
        _error(str(error))
        return EXIT_UNREADABLE
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED


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


class _CommandParser(argparse.ArgumentParser):
    """A command's parser: every mistake, an unknown option included, is
    reported with the command's own usage (not the top-level one)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extra = super().parse_known_args(args, namespace)
        if extra:
            self.error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed, extra


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee",
        description="Rules referee and claim prover for Schotten Totten and friends.",
    )
    parser.add_argument("--version", action="version", version=f"referee {__version__}")
    commands = parser.add_subparsers(required=True, metavar="COMMAND", parser_class=_CommandParser)

    check = commands.add_parser("validate", help="check recorded games move by move")
    check.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="record files, folders, .jsonl corpora, or - for standard input",
    )
    check.add_argument(
        "--json", action="store_true", help="JSON Lines output: one report per game, then a summary"
    )
    check.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help=f"spread the games over N processes (1 to {MAX_JOBS})",
    )
    check.add_argument(
        "--quiet", action="store_true", help="print only the games that are not legal"
    )
    check.add_argument(
        "--witness",
        action="store_true",
        help="for a legal public record: print a deal that fits (none with --quiet)",
    )
    check.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="validate on a Dask cluster: a scheduler address, or local[:N] (needs "
        "referee[dask]; REFEREE_DASK_TIMEOUT bounds each wait, 30 s by default)",
    )
    check.set_defaults(run=_validate)

    claim = commands.add_parser("claimable", help="which stones can be claimed in a position")
    _add_position_arguments(claim)
    claim.add_argument("--json", action="store_true", help="JSON output")
    claim.set_defaults(run=_claimable)

    show = commands.add_parser("show", help="print the picture of a position")
    _add_position_arguments(show)
    show.add_argument("--svg", action="store_true", help="print an SVG picture instead of text")
    show.set_defaults(run=_show)

    demo = commands.add_parser("demo", help="play a random legal game and print its record")
    demo.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    demo.add_argument(
        "--game",
        default=DEFAULT_GAME,
        help=f"which game: {', '.join(game_names())} (default: %(default)s)",
    )
    demo.add_argument(
        "--rules",
        type=_json_object,
        default={},
        metavar="JSON",
        help='rules object, e.g. \'{"edition": "1999"}\'',
    )
    demo.set_defaults(run=_demo)

    from referee import analysis, replay  # the viewer's commands live with the viewer

    replay.add_parser(commands)
    analysis.add_parser(commands)
    add_match_parser(commands)
    return parser


def _add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """PATH, --document, --round and --ply: which position of a record, match or
    position file, or of a JSON Lines corpus of them."""
    parser.add_argument(
        "path", metavar="PATH", help="a record, match or position file, a .jsonl corpus, or -"
    )
    parser.add_argument(
        "--document",
        type=positive,
        metavar="D",
        help="for a JSON Lines corpus: its D-th document (from 1)",
    )
    parser.add_argument(
        "--round",
        type=positive,
        metavar="R",
        help="for a match: its R-th game (default: the last)",
    )
    parser.add_argument(
        "--ply",
        type=ply,
        metavar="N",
        help="for a record: after its first N moves (default: all)",
    )


_positive = positive


def _jobs(text: str) -> int:
    value = _positive(text)
    if value > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"at most {MAX_JOBS} processes, got {text!r}")
    return value


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not JSON: {text!r}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("expected a JSON object")
    return value


# --- validate -----------------------------------------------------------------------


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


# --- positions: claimable and show -----------------------------------------------------


def _load_state(
    path: str, ply: int | None, round_: int | None = None, document: int | None = None
) -> tuple[GameFormat[Any], GameState[Any]]:
    """The position a command asks for: a position file as it is, or a record
    (a match's ``round_``-th game) after its first ``ply`` moves; in a JSON
    Lines corpus, its ``document``-th document (needed when it holds several).

    A record or match is judged first, whole, by the one verdict
    (:func:`referee.records.validate`): one that is not legal is refused
    (:class:`~referee._commands.Refused`) even when the illegal move comes after
    ``ply``, since the verdict is about the record.
    """
    source: str | Path | IO[bytes] = _stdin() if path == "-" else Path(path)
    item = _one_document(iter_documents(source), path, document)
    if isinstance(item, RecordError):
        require_legal(item)  # unreadable: refused as validate reports it
        raise item
    data, where = item
    if _is_position(data):
        if ply is not None:
            raise RecordError("--ply applies to records, not positions", where)
        if round_ is not None:
            raise RecordError("--round applies to matches", where)
        position = parse_position(data, where)
        fmt = find_game(position.game, where)
        return fmt, fmt.load_position(position)
    try:
        parsed: Record | Match | RecordError = parse_document(data, where)
    except RecordError as error:
        parsed = error
    require_legal(parsed)
    assert not isinstance(parsed, RecordError)
    if isinstance(parsed, Match):
        number = len(parsed.games) if round_ is None else round_
        if number > len(parsed.games):
            raise RecordError(f"--round {number}: the match has {len(parsed.games)} games", where)
        record = parsed.games[number - 1]
        where = f"{where} game {number}"
    elif round_ is not None:
        raise RecordError("--round applies to matches", where)
    else:
        record = parsed
    check_ply(ply, record, where)
    return find_game(record.game, where), replay(record, ply)


def _one_document(
    documents: Iterator[tuple[Any, str] | RecordError], path: str, document: int | None
) -> tuple[Any, str] | RecordError:
    """The document a command works on: the only one, or the ``document``-th."""
    where = "<stdin>" if path == "-" else path
    if document is None:
        item = next(documents, None)
        if item is None:
            raise RecordError("no document: the input is empty", where)
        if isinstance(item, RecordError) and item.where == where:
            return item  # the input itself cannot be read
        if next(documents, None) is not None:
            raise RecordError(
                "the input holds several documents: pick one with --document D", where
            )
        return item
    for number, item in enumerate(documents, start=1):
        if isinstance(item, RecordError) and item.where == where:
            return item
        if number == document:
            return item
    raise RecordError(f"there is no document {document}", where)


def _is_position(data: Any) -> bool:
    """A position document: one that says so, or an object without ``moves``
    or ``games`` that does not say it is a record or a match."""
    if not isinstance(data, dict):
        return False
    kind = data.get("format")
    if kind in (RECORD_FORMAT, MATCH_FORMAT):
        return False
    return kind == POSITION_FORMAT or ("moves" not in data and "games" not in data)


def _claimable(args: argparse.Namespace) -> int:
    game, state = _load_state(args.path, args.ply, args.round, args.document)
    answers = game.claimability(state)
    if args.json:
        print(
            json.dumps(
                {
                    "game": game.name,
                    "to_move": state.to_move,
                    "answers": [a.to_json() for a in answers],
                },
                ensure_ascii=False,
            )
        )
        return EXIT_OK
    if not game.has_claims:
        print(f"{game.title} has no claims to prove")
        return EXIT_OK
    decided = [a for a in answers if a.claimable is not None]
    for answer in decided:
        print(answer)
    waiting = sorted(
        {a.label or f"place {a.place}" for a in answers}
        - {a.label or f"place {a.place}" for a in decided},
        key=_natural_key,
    )
    if waiting:
        print(f"no complete formation yet at: {', '.join(waiting)}")
    if not answers:
        print("no open place")
    return EXIT_OK


def _natural_key(label: str) -> tuple[str, int]:
    head, _, tail = label.rpartition(" ")
    return (head, int(tail)) if tail.isdigit() else (label, 0)


def _show(args: argparse.Namespace) -> int:
    fmt, state = _load_state(args.path, args.ply, args.round, args.document)
    if args.svg:
        from referee.svg import render_svg  # only this option needs the renderer

        print(render_svg(state), end="")
        return EXIT_OK
    print(games.find_game(fmt.name).text(state))
    return EXIT_OK


def _demo(args: argparse.Namespace) -> int:
    fmt = find_game(args.game)
    if "rounds" in args.rules:
        match = fmt.random_match(args.seed, args.rules)
        print(json.dumps(match.to_json(), indent=2, ensure_ascii=False))
        return EXIT_OK
    record = fmt.random_record(args.seed, args.rules)
    print(json.dumps(record.to_json(), indent=2, ensure_ascii=False))
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
