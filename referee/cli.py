"""The ``referee`` command line: validate records, ask about claims, show positions.

Exit status: 0 when everything is legal, 1 when a game is illegal, 2 when an
input cannot be read (or the command line itself is wrong).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import IO, Any

from more_itertools import chunked

from referee.arena._cli import add_match_parser
from referee.errors import RefereeError
from referee.game import GameState
from referee.records import (
    GameFormat,
    Match,
    Record,
    RecordError,
    ValidationReport,
    find_game,
    iter_documents,
    iter_records,
    loads_document,
    parse_match,
    parse_position,
    parse_record,
    validate,
)

__all__ = ["main"]

EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2
_BATCH = 64


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        return int(args.run(args))
    except RefereeError as error:
        print(f"referee: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee",
        description="Rules referee and claim prover for Schotten Totten and friends.",
    )
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

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
        "--jobs", type=_positive, default=1, metavar="N", help="spread the games over N processes"
    )
    check.add_argument("--quiet", action="store_true", help="print only the illegal games")
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
    demo.add_argument("--game", default="schotten-totten", help="which game (default: %(default)s)")
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
    """PATH, --round and --ply: which position of a record, match or position file."""
    parser.add_argument("path", metavar="PATH", help="a record or position file, or -")
    parser.add_argument(
        "--round",
        type=_positive,
        metavar="R",
        help="for a match: its R-th game (default: the last)",
    )
    parser.add_argument(
        "--ply",
        type=_natural,
        metavar="N",
        help="for a record: after its first N moves (default: all)",
    )


def _positive(text: str) -> int:
    value = _natural(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def _natural(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
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


def _sources(paths: Iterable[str]) -> Iterator[str | Path | IO[bytes]]:
    for name in paths:
        if name == "-":
            yield sys.stdin.buffer
            continue
        path = Path(name)
        if path.is_dir():
            yield from sorted(
                p for p in path.rglob("*") if p.suffix in (".json", ".jsonl") and p.is_file()
            )
        else:
            yield path


def _all_records(paths: Iterable[str]) -> Iterator[Record | Match | RecordError]:
    for source in _sources(paths):
        yield from iter_records(source)


def _check(item: Record | Match | RecordError) -> ValidationReport:
    if isinstance(item, RecordError):
        detail = item.detail if not item.field else f"field {item.field!r}: {item.detail}"
        return ValidationReport(item.where or "<input>", "?", False, 0, input_error=detail)
    return validate(item)


#: A unit of work for a worker process: a raw JSON Lines line (decoded in the
#: worker, so the parent only reads) or an already read record.
_Unit = tuple[bytes, str] | Record | Match | RecordError


def _units(paths: Iterable[str]) -> Iterator[_Unit]:
    for source in _sources(paths):
        if isinstance(source, Path) and source.suffix == ".jsonl":
            try:
                with source.open("rb") as handle:
                    for number, line in enumerate(handle, start=1):
                        if line.strip():
                            yield (line, f"{source}:{number}")
            except OSError as error:
                yield RecordError(f"cannot read: {error.strerror or error}", str(source))
        else:
            yield from iter_records(source)


def _check_units(units: list[_Unit]) -> list[ValidationReport]:
    reports = []
    for unit in units:
        if isinstance(unit, tuple):
            line, where = unit
            try:
                reports.append(_check(loads_document(line, where)))
            except RecordError as error:
                reports.append(_check(error))
        else:
            reports.append(_check(unit))
    return reports


def _reports(paths: Sequence[str], jobs: int) -> Iterator[ValidationReport]:
    if jobs == 1:
        yield from map(_check, _all_records(paths))
        return
    pending: deque[AsyncResult[list[ValidationReport]]] = deque()
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        # A bounded window of chunks in flight: the workers stay busy while a
        # huge corpus never sits in memory at once.
        for chunk in chunked(_units(paths), _BATCH):
            pending.append(pool.apply_async(_check_units, (chunk,)))
            if len(pending) >= 4 * jobs:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()


def _validate(args: argparse.Namespace) -> int:
    counts = {"legal": 0, "illegal": 0, "unreadable": 0}
    progress = _Progress(sys.stderr) if sys.stderr.isatty() and not args.json else None
    for report in _reports(args.paths, args.jobs):
        status = (
            "unreadable"
            if report.input_error is not None
            else "legal"
            if report.legal
            else "illegal"
        )
        counts[status] += 1
        if args.json:
            print(json.dumps(report.to_json(), ensure_ascii=False))
        elif status != "legal" or not args.quiet:
            if progress:
                progress.clear()
            print(report.summary())
        if progress:
            progress.tick()
    if progress:
        progress.clear()
    total = sum(counts.values())
    if args.json:
        print(json.dumps({"summary": {"records": total, **counts}}))
    else:
        print(
            f"{total} records: {counts['legal']} legal, {counts['illegal']} illegal, "
            f"{counts['unreadable']} unreadable"
        )
    if counts["unreadable"]:
        return EXIT_UNREADABLE
    return EXIT_ILLEGAL if counts["illegal"] else EXIT_OK


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
    path: str, ply: int | None, round_: int | None = None
) -> tuple[GameFormat[Any], GameState[Any]]:
    source: str | Path | IO[bytes] = sys.stdin.buffer if path == "-" else Path(path)
    documents = list(iter_documents(source))
    if len(documents) != 1:
        raise RecordError(f"expected one record or position, found {len(documents)}", path)
    item = documents[0]
    if isinstance(item, RecordError):
        raise item
    data, where = item
    if isinstance(data, dict) and "games" in data:
        match = parse_match(data, where)
        number = len(match.games) if round_ is None else round_
        if number > len(match.games):
            raise RecordError(f"--round {number}: the match has {len(match.games)} games", where)
        record = match.games[number - 1]
        where = f"{where} game {number}"
    elif round_ is not None:
        raise RecordError("--round applies to matches", where)
    elif isinstance(data, dict) and "moves" not in data:
        if ply is not None:
            raise RecordError("--ply applies to records, not positions", where)
        position = parse_position(data, where)
        fmt = find_game(position.game, where)
        return fmt, fmt.load_position(position)
    else:
        record = parse_record(data, where)
    fmt = find_game(record.game, where)
    state = fmt.start(record)
    upto = len(record.moves) if ply is None else ply
    if upto > len(record.moves):
        raise RecordError(f"--ply {upto} is past the record's {len(record.moves)} moves", where)
    for number, move in enumerate(record.moves[:upto], start=1):
        try:
            state = state.play(move)
        except RefereeError as error:
            raise _IllegalBefore(
                f"{where}: illegal at ply {number} {move!r} [{error.reason}]: {error}"
            ) from None
    return fmt, state


class _IllegalBefore(Exception):
    """The record is illegal before the requested ply."""


def _claimable(args: argparse.Namespace) -> int:
    try:
        game, state = _load_state(args.path, args.ply, args.round)
    except _IllegalBefore as error:
        print(f"referee: {error}", file=sys.stderr)
        return EXIT_ILLEGAL
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
    if not getattr(type(game), "has_claims", True):
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
    try:
        _, state = _load_state(args.path, args.ply, args.round)
    except _IllegalBefore as error:
        print(f"referee: {error}", file=sys.stderr)
        return EXIT_ILLEGAL
    if args.svg:
        from referee.svg import render_svg  # only this option needs the renderer

        print(render_svg(state), end="")
        return EXIT_OK
    print(state)
    return EXIT_OK


def _demo(args: argparse.Namespace) -> int:
    fmt = find_game(args.game)
    if "rounds" in args.rules:
        make_match = getattr(fmt, "random_match", None)
        if make_match is None:
            raise RecordError(f"{fmt.title} has no matches", "", "rules.rounds")
        print(json.dumps(make_match(args.seed, args.rules).to_json(), indent=2, ensure_ascii=False))
        return EXIT_OK
    record = fmt.random_record(args.seed, args.rules)
    print(json.dumps(record.to_json(), indent=2, ensure_ascii=False))
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
