"""The ``referee`` command line: validate records, ask about claims, show positions.

Exit status: 0 when everything is legal, 1 when a game is illegal, 2 when an
input cannot be read (or the command line itself is wrong), 3 when the Dask
cluster of ``--dask`` failed before every game was checked. Every command
judges a record or match it reads with one function,
:func:`referee.records.validate`, and refuses one that is not legal with the
same reason and ply (see :mod:`referee._commands`).

The parser and :func:`main` live here; the body of ``validate`` (reading,
worker processes, progress) in :mod:`referee.cli._validate`, and the commands
on one position (``claimable``, ``show``) with ``demo`` in
:mod:`referee.cli._positions`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from referee import __version__
from referee._commands import EXIT_UNREADABLE, Refused, ply, positive
from referee._commands import error as _error
from referee.arena._cli import add_match_parser
from referee.cli._positions import _claimable, _demo, _show
from referee.cli._validate import EXIT_CLUSTER as EXIT_CLUSTER
from referee.cli._validate import _silence_stdout, _validate
from referee.errors import RefereeError
from referee.games import DEFAULT_GAME, game_names

__all__ = ["MAX_JOBS", "main"]

EXIT_INTERRUPTED = 130
#: ``--jobs`` is at most this many worker processes.
MAX_JOBS = 32


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
