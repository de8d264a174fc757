"""``referee match``: the arena on the command line."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from referee.arena._limits import MAX_GAMES, MAX_JOBS, MAX_PLY_LIMIT, MAX_SECONDS, MAX_SEED
from referee.arena._match import (
    DEFAULT_MAX_PLIES,
    DEFAULT_MOVE_TIME,
    GameResult,
    iter_match,
    match_seed,
)
from referee.arena._results import Standing, render_table, tally
from referee.arena._sandbox import (
    EXIT_NO_SANDBOX,
    MAX_SIZE,
    MIB,
    Sandbox,
    SandboxUnavailable,
)
from referee.games import DEFAULT_GAME, game_names

#: Fault lines printed under the table (the others are only counted).
SHOWN_FAULTS = 10

__all__ = ["add_match_parser", "run_match"]


def add_match_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``match`` subcommand to the CLI's subparsers (``run`` is :func:`run_match`)."""
    match: argparse.ArgumentParser = commands.add_parser(
        "match",
        help="play games between bots and print a results table",
        description=(
            "Play games between bots under the referee. A bot is a command (a .py file "
            "runs with this Python, a .js file with node, anything else as a command line) "
            "that speaks the arena protocol (docs/arena.md), or a Python function "
            "choose(view, rng, time_left) as FILE.py:FUNCTION or MODULE:FUNCTION, which "
            "python -m referee.arena.bot serves (docs/bots.md). Give one bot per seat. "
            "Every bot runs in a sandbox (bubblewrap) unless --no-sandbox is given; "
            f"exit status {EXIT_NO_SANDBOX} when it cannot be made here."
        ),
    )
    match.add_argument(
        "bots", nargs="+", metavar="BOT", help="bot commands or functions, one per seat"
    )
    match.add_argument(
        "--game",
        default=DEFAULT_GAME,
        help=f"which game: {', '.join(game_names())} (%(default)s)",
    )
    match.add_argument(
        "--rules",
        type=_json_object,
        default={},
        metavar="JSON",
        help='rules object as in records, e.g. \'{"variants": ["tactics"]}\'',
    )
    match.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME",
        help="add a variant to the rules (repeatable), e.g. tactics",
    )
    match.add_argument(
        "-n",
        "--games",
        type=_count(0, MAX_GAMES),
        default=2,
        metavar="N",
        help=f"games (2; at most {MAX_GAMES})",
    )
    match.add_argument(
        "--jobs",
        type=_count(1, MAX_JOBS),
        default=1,
        metavar="J",
        help=f"games at once (1; at most {MAX_JOBS})",
    )
    match.add_argument(
        "--seed",
        type=_count(0, MAX_SEED),
        default=None,
        metavar="S",
        help="the match's secret seed: the deals and the bots' seeds (default: a fresh one, "
        "printed at the end; a seed a bot's author can guess gives the deals away)",
    )
    match.add_argument("--records", metavar="FILE", help="write every game's record (JSON Lines)")
    match.add_argument(
        "--move-time",
        type=_seconds,
        default=DEFAULT_MOVE_TIME,
        metavar="T",
        help=f"seconds a bot may think about one move (%(default)s; at most {MAX_SECONDS:g})",
    )
    match.add_argument(
        "--game-time",
        type=_seconds,
        default=None,
        metavar="T",
        help=f"seconds per bot and game (at most {MAX_SECONDS:g})",
    )
    match.add_argument(
        "--max-plies",
        type=_count(1, MAX_PLY_LIMIT),
        default=DEFAULT_MAX_PLIES,
        metavar="P",
        help=f"end a game that reaches P plies as a draw (%(default)s; at most {MAX_PLY_LIMIT})",
    )
    match.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar (default: when standard error is a terminal)",
    )
    match.add_argument("--json", action="store_true", help="print the standings as JSON")
    match.add_argument(
        "--no-sandbox",
        dest="sandbox",
        action="store_false",
        help="run the bots as you, unconfined: only for bots you trust",
    )
    match.add_argument(
        "--sandbox-memory",
        type=_count(1, MAX_SIZE // MIB),
        default=Sandbox.memory // MIB,
        metavar="MIB",
        help=f"memory (heap) of each bot process, in MiB (%(default)s; at most {MAX_SIZE // MIB})",
    )
    match.add_argument(
        "--sandbox-read",
        action="append",
        default=[],
        metavar="PATH",
        help="a file or folder the bots may read besides their own (repeatable)",
    )
    match.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play the games on a Dask cluster: a scheduler address, or local[:N] "
        "(needs referee[dask]; --jobs is then the cluster's business; "
        "REFEREE_DASK_TIMEOUT bounds each wait, 30 s by default)",
    )
    match.set_defaults(run=run_match)
    return match


def run_match(args: argparse.Namespace) -> int:
    """Run ``referee match``; returns the exit status (0; 2 for bad arguments; 3 when
    the Dask cluster of ``--dask`` failed: the table has the games done; 4 when the
    bots cannot be sandboxed here; 130 when interrupted)."""
    rules = dict(args.rules)
    if args.variant:
        rules["variants"] = [*rules.get("variants", []), *args.variant]
    missing = [p for p in args.sandbox_read if args.dask is None and not os.path.exists(p)]
    if missing:
        print(f"referee: --sandbox-read: no such file or folder {missing[0]!r}", file=sys.stderr)
        return 2
    sandbox = _sandbox_of(args)
    seed = match_seed() if args.seed is None else args.seed
    # A referee stopped by SIGTERM still kills its bots (on the way out through atexit).
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
    show = sys.stderr.isatty() if args.progress is None else args.progress
    bar = _Progress(args.games, sys.stderr) if show else None
    options: dict[str, Any] = {
        "games": args.games,
        "rules": rules,
        "seed": seed,
        "move_time": args.move_time,
        "game_time": args.game_time,
        "max_plies": args.max_plies,
        "records": args.records,
        "on_game": None if bar is None else bar.update,
        "sandbox": sandbox,
    }
    faults = _Faults()
    try:
        standings, stopped = _play_match(args, options, faults)
    except (SandboxUnavailable, KeyboardInterrupt, ValueError, OSError) as error:
        if bar is not None:
            bar.close()
        return _failed(error)
    if bar is not None:
        bar.close()
    _print_standings(args, standings, faults)
    if args.seed is None:
        print(
            f"referee: match seed {seed} (--seed {seed} plays the same deals again)",
            file=sys.stderr,
        )
    if stopped is not None:
        print(stopped, file=sys.stderr)
        return 3
    return 0


def _sandbox_of(args: argparse.Namespace) -> bool | Sandbox:
    """The bots' sandbox (``False`` for ``--no-sandbox``, which is warned about)."""
    if args.sandbox:
        return Sandbox(memory=args.sandbox_memory * MIB, read=tuple(args.sandbox_read))
    print(
        "referee: warning: --no-sandbox: the bots run as you, unconfined: they can read "
        "your files (the records being written too), see and signal the referee and "
        "each other, remember deals and reach the network; play only bots you trust",
        file=sys.stderr,
    )
    return False


def _play_match(
    args: argparse.Namespace, options: dict[str, Any], faults: _Faults
) -> tuple[list[Standing], str | None]:
    """Play the match here or on the Dask cluster of ``--dask``: the standings, and
    what to say when the cluster failed (``None``: it did not)."""
    if args.dask is None:
        # Streamed: the results are added up as they come, none is kept.
        stream = iter_match(args.bots, args.game, jobs=args.jobs, **options)
        with contextlib.closing(stream):
            return tally(faults.watch(stream), len(args.bots)), None
    from referee.distributed import ClusterFailure, connect, match_on_dask

    stopped = None  # why the Dask cluster failed, if it did
    try:
        with connect(args.dask) as client:
            results = match_on_dask(client, args.bots, args.game, **options)
    except ClusterFailure as failure:
        results, stopped = list(failure.done), failure
    standings = tally(faults.watch(results), len(args.bots))
    if stopped is None:
        return standings, None
    return standings, (f"referee: {stopped}; stopped after {len(results)} of {args.games} games")


def _failed(error: BaseException) -> int:
    """Say why the match could not be played (or finished); the exit status."""
    if isinstance(error, SandboxUnavailable):
        print(f"referee: cannot sandbox the bots: {error}", file=sys.stderr)
        return EXIT_NO_SANDBOX
    if isinstance(error, KeyboardInterrupt):
        print("referee: interrupted (every bot is stopped)", file=sys.stderr)
        return 130
    if isinstance(error, OSError) and not isinstance(error, ValueError):
        # The records file cannot be written.
        print(f"referee: cannot write {error.filename!r}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"referee: {error}", file=sys.stderr)
    return 2


def _print_standings(args: argparse.Namespace, standings: list[Standing], faults: _Faults) -> None:
    """The table (or its JSON), and the games lost by timeout or forfeit under it."""
    if args.json:
        # Strict JSON has no infinity: a perfect or a null score's Elo is a string.
        rows = [
            {
                k: (str(v) if isinstance(v, float) and math.isinf(v) else v)
                for k, v in vars(s).items()
            }
            for s in standings
        ]
        print(json.dumps(rows))
        return
    print(render_table(standings))
    if faults.count:
        print(f"\n{faults.count} game(s) lost by timeout or forfeit:")
        for line in faults.shown:
            print(line)
        if faults.count > len(faults.shown):
            print(f"  ... and {faults.count - len(faults.shown)} more")


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


class _Progress:
    """A one-line progress bar on a terminal."""

    def __init__(self, total: int, stream: IO[str]) -> None:
        self.total, self.done, self.stream = total, 0, stream
        self.started = time.monotonic()
        self._draw()

    def update(self, result: GameResult) -> None:
        self.done += 1
        self._draw()

    def _draw(self) -> None:
        width = 30
        filled = width * self.done // self.total if self.total else width
        rate = self.done / max(time.monotonic() - self.started, 1e-9)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games "
            f"({rate:.1f}/s)"
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


class _Faults:
    """The games lost by timeout or forfeit, counted as the results go by; the
    first :data:`SHOWN_FAULTS` kept as the lines printed under the table."""

    def __init__(self) -> None:
        self.count = 0
        self.shown: list[str] = []

    def watch(self, results: Iterable[GameResult]) -> Iterator[GameResult]:
        for result in results:
            if result.fault is not None:
                self.count += 1
                if len(self.shown) < SHOWN_FAULTS:
                    end = result.record.result or {}
                    loser = end.get("loser")
                    who = result.names[loser] if isinstance(loser, int) else "?"
                    line = (
                        f"  game {result.round + 1}: {who} [{result.fault}] {end.get('detail', '')}"
                    )
                    self.shown.append(line[:200])
            yield result


def _count(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``."""

    def count(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number from {low} to {high}, got {text[:40]!r}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"expected a whole number from {low} to {high}, got {text[:40]!r}"
            )
        return value

    return count


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text[:40]!r}") from None
    if not 0 < value <= MAX_SECONDS:  # NaN and inf too
        raise argparse.ArgumentTypeError(
            f"expected a time above 0 and at most {MAX_SECONDS:g} seconds, got {text[:40]!r}"
        )
    return value


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from None
    except RecursionError:
        raise argparse.ArgumentTypeError("not JSON: nested too deeply") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("expected a JSON object")
    return value
