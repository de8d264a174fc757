"""A bot program in a few lines: :func:`serve` speaks the arena protocol for you.

Write one function, ``choose(view, rng, time_left)``, that returns a move, and
serve it::

    from referee.arena.bot import serve

    def choose(view, rng, time_left):
        return rng.choice(list(view.legal_moves()))

    if __name__ == "__main__":
        serve(choose)

or run any such function as a bot program without a ``__main__`` block::

    python -m referee.arena.bot mybot.py:choose          # a file and a function
    python -m referee.arena.bot mypackage.bots:choose    # a module and a function

and ``referee match mybot.py:choose examples/bots/greedy.py`` plays it (in the
sandbox, through ``python -m referee.arena.bot``). See ``docs/bots.md``.

``choose`` receives:

- ``view``: the game's own view object for the bot's seat, the one an
  in-process bot gets (:func:`referee.arena.view_reader` rebuilds it from the
  messages): ``view.legal_moves()`` are the moves it may play, and
  ``determinize`` and the action spaces accept it (``playout`` the full
  states ``determinize`` deals);
- ``rng``: a ``random.Random`` seeded with the seed the referee gave the bot for
  the game (so a match with the same seed is played the same way again);
- ``time_left``: the seconds ``choose`` has for this move (the move time or the
  game time left, whichever is less, less a margin for the answer to travel), or
  ``None`` when the referee sets no limit.

It returns a move object, its text, or ``"resign"``. The referee judges the
answer as it judges any bot's: ``choose`` should return within ``time_left``
(past the move time the game is lost as a ``timeout``), and a move that is
not legal forfeits the game with the rules' reason (``not_in_hand``,
``malformed_move``, ...). The helper says first, on standard error and as a
protocol ``log`` line, what ``choose`` returned when it is
not one of the turn's legal moves (``None``, a number, an illegal move). An
exception raised by ``choose`` ends the bot program: its traceback goes to
standard error, whose end the referee quotes in the forfeit (``crash``), and a
fresh copy of the program plays the next game. The helper returns when the
referee says ``quit`` or closes its input.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import io
import json
import os
import random
import re
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from referee.arena._bots import PROTOCOL, RESIGN
from referee.arena._wire import MessageError, ViewReader, view_reader

__all__ = ["Choose", "budget", "load", "main", "serve"]

#: ``choose(view, rng, time_left)``: a move, its text, or ``"resign"``.
Choose = Callable[[Any, random.Random, "float | None"], Any]

#: ``MODULE:FUNCTION`` or ``FILE.py:FUNCTION`` (the function may be dotted: ``Class.method``).
SPEC = re.compile(r"(?P<where>.+\.py|[A-Za-z_][\w.]*):(?P<name>[A-Za-z_][\w.]*)")

#: The least time kept back from a limit for the answer to reach the referee.
MARGIN = 0.02
#: The most time kept back (a tenth of the limit, up to this).
MAX_MARGIN = 0.25
#: The longest log text sent to the referee (it keeps 500 characters).
_LOG_CHARS = 480


def budget(move_time: float | None, time_left: float | None) -> float | None:
    """The seconds ``choose`` may take: the lower of the move time and the game
    time left, less a margin (a tenth, at least 20 ms and at most 0.25 s);
    ``None`` without limits.

    >>> budget(10.0, None), budget(None, 1.0), budget(2.0, 0.1), budget(None, None)
    (9.75, 0.9, 0.08, None)
    """
    limits = [t for t in (move_time, time_left) if isinstance(t, (int, float))]
    if not limits:
        return None
    limit = float(min(limits))
    return max(0.0, round(limit - min(MAX_MARGIN, max(MARGIN, limit / 10)), 6))


class _Channel:
    """The bot's ends of the protocol: JSON lines in, JSON lines out (text or bytes)."""

    def __init__(self, stdin: IO[Any], stdout: IO[Any], stderr: IO[str]) -> None:
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.binary = not isinstance(stdout, io.TextIOBase)

    def messages(self) -> Any:
        for line in self.stdin:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                self.complain(f"the referee sent a line that is not JSON: {line[:80]!r}")
                continue
            if isinstance(message, dict):
                yield message

    def send(self, message: dict[str, Any]) -> None:
        text = json.dumps(message) + "\n"
        self.stdout.write(text.encode() if self.binary else text)
        self.stdout.flush()

    def complain(self, text: str, *, log: bool = True) -> None:
        """Say ``text`` on standard error, and to the referee as a ``log`` line."""
        print(f"bot: {text}", file=self.stderr, flush=True)
        if log:
            self.send({"type": "log", "text": text[:_LOG_CHARS]})


class _Game:
    """One game under way: its reader, the bot's generators and limits."""

    def __init__(self, message: dict[str, Any], channel: _Channel) -> None:
        seed = message.get("seed")
        self.rng = random.Random(seed)
        limits = message.get("limits")
        self.move_time = limits.get("move") if isinstance(limits, dict) else None
        self.reader: ViewReader | None = None
        try:
            self.reader = view_reader(message)
        except MessageError as error:
            channel.complain(f"cannot read the game's views: {error}")


def serve(
    choose: Choose,
    *,
    name: str | None = None,
    stdin: IO[Any] | None = None,
    stdout: IO[Any] | None = None,
    stderr: IO[str] | None = None,
) -> None:
    """Play games with ``choose(view, rng, time_left)`` over the arena protocol
    until the referee says ``quit`` or closes ``stdin`` (see the module). When
    ``choose`` raises, its traceback goes to ``stderr`` and ``serve`` raises
    ``SystemExit(1)``: the program ends, and the referee counts a crash.

    ``name`` is the name the bot gives itself in its ``hello`` (default: the
    function's name). ``stdin`` and ``stdout`` default to the process's own
    (bytes); text streams work too.

    >>> import io
    >>> lines = [{"type": "hello", "protocol": "referee-arena/1"},
    ...          {"type": "game", "game": "clans-and-glory", "rules": {"players": 2},
    ...           "seat": 0, "players": 2, "seed": 7, "first": 0, "limits": {"move": 1.0}},
    ...          {"type": "quit"}]
    >>> out = io.StringIO()
    >>> serve(lambda view, rng, left: "resign", name="quitter",
    ...       stdin=io.StringIO("".join(json.dumps(m) + "\\n" for m in lines)), stdout=out)
    >>> print(out.getvalue(), end="")
    {"type": "hello", "protocol": "referee-arena/1", "name": "quitter"}
    {"type": "ready"}
    """
    channel = _Channel(
        sys.stdin.buffer if stdin is None else stdin,
        sys.stdout.buffer if stdout is None else stdout,
        sys.stderr if stderr is None else stderr,
    )
    name = name or getattr(choose, "__name__", None) or "bot"
    game: _Game | None = None
    for message in channel.messages():
        kind = message.get("type")
        if kind == "hello":
            channel.send({"type": "hello", "protocol": PROTOCOL, "name": name})
        elif kind == "game":
            game = _Game(message, channel)
            channel.send({"type": "ready"})
        elif kind == "turn":
            try:
                answer = _answer(choose, game, message, channel)
            except _ChooseFailed as failed:
                traceback.print_exception(failed.error, file=channel.stderr)
                channel.complain(str(failed), log=False)  # the last line the referee quotes
                raise SystemExit(1) from None
            channel.send(answer)
        elif kind == "end":
            if game is not None and game.reader is not None:
                try:
                    game.reader.end(message)
                except MessageError as error:
                    channel.complain(f"cannot read the end of the game: {error}", log=False)
            game = None
        elif kind == "quit":
            return


def _answer(
    choose: Choose, game: _Game | None, message: dict[str, Any], channel: _Channel
) -> dict[str, Any]:
    """The answer to one ``turn`` message (:class:`_ChooseFailed` when ``choose`` raises)."""
    asked = time.monotonic()
    ply = message.get("ply")
    legal = message.get("legal")
    if game is None or game.reader is None or not isinstance(legal, list) or not legal:
        channel.complain(f"a turn the bot cannot play (ply {ply!r}): resigning")
        return {"type": "resign"}
    try:
        view = game.reader.view(message)
    except MessageError as unreadable:
        channel.complain(f"cannot rebuild the view at ply {ply!r}: {unreadable}: resigning")
        return {"type": "resign"}
    left = message.get("time_left")
    allowed = budget(game.move_time, left if isinstance(left, (int, float)) else None)
    if allowed is not None:
        allowed = max(0.0, allowed - (time.monotonic() - asked))
    try:
        answer = choose(view, game.rng, allowed)
    except Exception as error:
        raise _ChooseFailed(ply, error) from error
    if isinstance(answer, str) and answer == RESIGN:
        return {"type": "resign"}
    text = answer if isinstance(answer, str) else _text_of(answer)
    if text is None or text not in legal:
        channel.complain(
            f"choose returned {_shown(answer)} at ply {ply}, not one of the "
            f"{len(legal)} legal moves"
        )
        text = _shown(answer) if text is None else text
    return {"type": "move", "move": text, "ply": ply}


class _ChooseFailed(Exception):
    """``choose`` raised ``error`` at ``ply`` (:func:`serve` then ends the program)."""

    def __init__(self, ply: Any, error: Exception) -> None:
        super().__init__(f"choose raised {type(error).__name__} at ply {ply}: {error}")
        self.error = error


def _text_of(answer: Any) -> str | None:
    """The notation of a move object (``None`` for what is plainly no move)."""
    if answer is None or isinstance(answer, (bool, int, float, bytes, list, tuple, dict)):
        return None
    try:
        return str(answer)
    except Exception:  # a broken __str__: no move either
        return None


def _shown(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


# --- python -m referee.arena.bot ------------------------------------------------------


def load(spec: str, *, path: Sequence[str] = ()) -> Choose:
    """The function a ``MODULE:FUNCTION`` or ``FILE.py:FUNCTION`` spec names.

    A file is run as a module of its own, its folder first on ``sys.path`` (so
    the modules beside it import); ``path`` lists more folders to put there.
    A ``ValueError`` says what is wrong.

    >>> load("random:choice").__name__
    'choice'
    >>> load("mybot")
    Traceback (most recent call last):
    ...
    ValueError: expected MODULE:FUNCTION or FILE.py:FUNCTION, not 'mybot'
    >>> load("no_such_module_here:choose")
    Traceback (most recent call last):
    ...
    ValueError: cannot import 'no_such_module_here': No module named 'no_such_module_here'
    """
    match = SPEC.fullmatch(spec) if isinstance(spec, str) else None
    if match is None:
        raise ValueError(f"expected MODULE:FUNCTION or FILE.py:FUNCTION, not {spec!r}")
    where, name = match.group("where"), match.group("name")
    for folder in reversed(path):
        sys.path.insert(0, os.path.abspath(folder))
    if where.endswith(".py"):
        file = Path(where).resolve()
        if not file.is_file():
            raise ValueError(f"no bot file {where!r}")
        sys.path.insert(0, str(file.parent))
        module_name = file.stem
        if not module_name.isidentifier() or module_name in sys.modules:
            module_name = f"_bot_{abs(hash(str(file)))}"  # never shadow a module
        found = importlib.util.spec_from_file_location(module_name, file)
        if found is None or found.loader is None:
            raise ValueError(f"cannot load {where!r} as Python")
        module: Any = importlib.util.module_from_spec(found)
        sys.modules[module_name] = module
        found.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as error:
            raise ValueError(f"cannot import {where!r}: {error}") from None
    value: Any = module
    for part in name.split("."):
        value = getattr(value, part, None)
        if value is None:
            raise ValueError(f"{where!r} has no {name!r}")
    if not callable(value):
        raise ValueError(f"{spec!r} is not a function, but {_shown(value)}")
    chosen: Choose = value
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m referee.arena.bot SPEC [--name NAME] [--path DIR]``: serve the
    function ``SPEC`` names on standard input and output. Exit status 2 when it
    cannot be loaded (the reason on standard error)."""
    parser = argparse.ArgumentParser(
        prog="python -m referee.arena.bot",
        description="Play the arena protocol with a function choose(view, rng, time_left).",
    )
    parser.add_argument("spec", metavar="SPEC", help="MODULE:FUNCTION or FILE.py:FUNCTION")
    parser.add_argument("--name", help="the name the bot gives itself (default: the function's)")
    parser.add_argument(
        "--path",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder to import from (repeatable)",
    )
    args = parser.parse_args(argv)
    try:
        choose = load(args.spec, path=args.path)
    except ValueError as error:
        print(f"python -m referee.arena.bot: {error}", file=sys.stderr)
        return 2
    except Exception:  # the bot's own module failed to run
        traceback.print_exc()
        print(f"python -m referee.arena.bot: cannot load {args.spec!r}", file=sys.stderr)
        return 2
    serve(choose, name=args.name or os.path.basename(args.spec))
    return 0


if __name__ == "__main__":
    sys.exit(main())
