"""Bots: programs spoken to over the JSON Lines protocol, or Python callables in-process.

A :class:`Bot` describes a player (how to start it); a session is one running
instance that plays game after game until it breaks a rule, when the arena
kills it and starts a fresh one for the next game. A program's session runs in
a :class:`~referee.arena.Sandbox` unless told otherwise; a Python callable is
trusted code of the referee's own process.

What a bot is told and asked (:class:`GameInfo`, :class:`Turn`, ...) is in
:mod:`referee.arena._turns`; the names stay importable from here.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import json
import os
import re
import shlex
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.arena._limits import check_seconds
from referee.arena._process import MAX_DETAIL_CHARS, BotFault, BotProcess, cut
from referee.arena._sandbox import Sandbox
from referee.arena._turns import GameInfo, SeenMove, Turn, TurnSource
from referee.arena._turns import Session as Session

__all__ = [
    "PROTOCOL",
    "RESIGN",
    "Bot",
    "CallableBot",
    "CommandBot",
    "GameInfo",
    "SeenMove",
    "Turn",
    "TurnSource",
    "as_bot",
]

#: The protocol version named in the handshake.
PROTOCOL = "referee-arena/1"
#: What an in-process bot returns to resign (a subprocess bot sends ``{"type": "resign"}``).
RESIGN = "resign"
#: Longest line a bot may write (bytes); longer is a forfeit.
MAX_LINE = 1 << 20
#: Most log lines a bot may write while the referee waits for one answer.
MAX_LOGS_PER_TURN = 1000
#: Log lines kept per bot and game (the rest are counted, not kept).
KEPT_LOGS = 20
#: Longest log text kept (characters).
KEPT_LOG_CHARS = 500
#: Longest name a bot may give itself in its ``hello`` (characters).
MAX_NAME_CHARS = 60


class Bot:
    """A player for the arena: how to start one session of it."""

    name: str = "bot"

    def session(self, sandbox: Sandbox | None = None, hide: Sequence[str] = ()) -> Session:
        """Start a fresh session (a new process for a program): in ``sandbox``
        (``None``: none) unless the bot says otherwise, with ``hide`` (the
        match's output) out of its sight."""
        raise NotImplementedError


class CommandBot(Bot):
    """A bot program started as a command (argument list) that speaks the protocol.

    ``sandbox``: ``None`` (the default) plays it as the match says (in the
    sandbox, unless the match is played with ``sandbox=False``); ``True`` or a
    :class:`~referee.arena.Sandbox` always confines it; ``False`` never does (a
    program you trust). ``cwd`` is the folder its command's relative paths start
    from (default: the referee's working folder); a sandboxed bot itself starts
    in a fresh, empty working folder of its own.

    >>> CommandBot(["python3", "examples/bots/random_bot.py"]).name
    'random_bot.py'
    """

    def __init__(
        self,
        argv: Sequence[str],
        name: str | None = None,
        *,
        start_time: float = 10.0,
        cwd: str | None = None,
        sandbox: bool | Sandbox | None = None,
    ) -> None:
        if not argv:
            raise ValueError("a bot command needs at least a program")
        if sandbox is not None and not isinstance(sandbox, (bool, Sandbox)):
            raise ValueError(f"sandbox must be True, False, None or a Sandbox, not {sandbox!r}")
        self.argv = list(argv)
        self.name = name or next(
            (Path(a).name for a in reversed(self.argv) if not a.startswith("-")),
            self.argv[0],
        )
        self.start_time = check_seconds("start_time", start_time)
        self.cwd = cwd
        self.sandbox = sandbox

    def confinement(self, sandbox: Sandbox | None) -> Sandbox | None:
        """The sandbox this bot runs in when the match offers ``sandbox``.

        >>> bot = CommandBot(["./bot"])
        >>> bot.confinement(Sandbox()) == Sandbox(), bot.confinement(None)
        (True, None)
        >>> CommandBot(["./bot"], sandbox=False).confinement(Sandbox()) is None
        True
        """
        if self.sandbox is None:
            return sandbox
        if self.sandbox is False:
            return None
        return Sandbox() if self.sandbox is True else self.sandbox

    def session(self, sandbox: Sandbox | None = None, hide: Sequence[str] = ()) -> _ProcessSession:
        return _ProcessSession(self, self.confinement(sandbox), hide)

    def __repr__(self) -> str:
        return f"CommandBot({self.argv!r}, name={self.name!r})"


class CallableBot(Bot):
    """A Python callable playing in-process: ``fn(turn) -> move text | move | RESIGN``.

    In-process bots share the referee's process and are never sandboxed: they
    are trusted code (they could read the referee's memory, the deal included);
    the referee still judges their moves and their time.
    """

    def __init__(self, fn: Callable[[Turn], Any], name: str | None = None) -> None:
        self.fn = fn
        self.name = name or getattr(fn, "__name__", None) or type(fn).__name__

    def session(self, sandbox: Sandbox | None = None, hide: Sequence[str] = ()) -> _CallableSession:
        return _CallableSession(self)

    def __repr__(self) -> str:
        return f"CallableBot({self.fn!r}, name={self.name!r})"


def as_bot(spec: Bot | str | Sequence[str] | Callable[[Turn], Any]) -> Bot:
    """A :class:`Bot` from a command line, a script path, an argument list or a callable.

    A script path (one word, ending in ``.py`` or ``.js``) runs with the current
    Python or with ``node``; any other string is split like a shell command line.
    A script that does not exist is refused at once (``ValueError``), rather than
    forfeiting every game.

    >>> as_bot("examples/bots/random_bot.js").argv
    ['node', 'examples/bots/random_bot.js']
    >>> as_bot("node examples/bots/random_bot.js").argv
    ['node', 'examples/bots/random_bot.js']
    >>> as_bot(lambda turn: turn.legal_moves[0]).name
    '<lambda>'

    A function of a file or a module (``FILE.py:FUNCTION``, ``MODULE:FUNCTION``)
    is served by ``python -m referee.arena.bot`` (see :mod:`referee.arena.bot`):

    >>> bot = as_bot("examples/bots/greedy.py:choose")
    >>> bot.name, bot.argv[1:]
    ('greedy.py:choose', ['-m', 'referee.arena.bot', 'examples/bots/greedy.py:choose'])
    """
    if isinstance(spec, Bot):
        return spec
    if isinstance(spec, str):
        words = shlex.split(spec)
        function = _FUNCTION.fullmatch(words[0]) if len(words) == 1 else None
        if function is not None:
            return _function_bot(words[0], function.group(1), function.group(2))
        if len(words) == 1 and words[0].endswith((".py", ".js")):
            script = words[0]
            if not Path(script).is_file():
                raise ValueError(f"no bot script {script!r}")
            runner = sys.executable if script.endswith(".py") else "node"
            return CommandBot([runner, script])
        if not words:
            raise ValueError("an empty bot command")
        return CommandBot(words)
    if callable(spec):
        return CallableBot(spec)
    return CommandBot([str(a) for a in spec])


#: A function of a file or a module, as ``referee.arena.bot`` serves it.
_FUNCTION = re.compile(r"(.+\.py|[A-Za-z_][\w.]*):([A-Za-z_][\w.]*)")


def _function_bot(spec: str, where: str, function: str) -> CommandBot:
    """The bot program that serves ``function`` of file or module ``where``."""
    argv = [sys.executable, "-m", "referee.arena.bot", spec]
    if where.endswith(".py"):
        if not Path(where).is_file():
            raise ValueError(f"no bot file {where!r}")
        return CommandBot(argv, name=f"{Path(where).name}:{function}")
    folder = _module_folder(where.partition(".")[0])
    if folder is not None:
        argv += ["--path", folder]  # where it imports from (and what a sandbox shows)
    return CommandBot(argv, name=spec)


def _module_folder(top: str) -> str | None:
    """The folder a bot's top-level module ``top`` is imported from, when the
    bot's Python would not find it by itself (the working folder, a folder of
    ``sys.path`` outside the installation); ``None`` for an installed module.
    Found without running any of its code; a ``ValueError`` if it is nowhere."""
    here = os.getcwd()
    if importlib.machinery.PathFinder.find_spec(top, [here]) is not None:
        return here
    try:
        found = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        found = None
    if found is None:
        raise ValueError(f"no module {top!r} to take a bot from")
    origin = found.origin if found.has_location and found.origin else None
    if origin is None:
        return None  # built in, frozen or a namespace package: the bot's Python has it
    folder = os.path.dirname(origin)
    if found.submodule_search_locations is not None:  # a package: its __init__.py
        folder = os.path.dirname(folder)
    installed = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    installed.add(os.path.dirname(os.path.realpath(Path(__file__).resolve().parents[1])))
    real = os.path.realpath(folder)
    if any(real == p or real.startswith(p.rstrip("/") + "/") for p in installed):
        return None
    return folder


# --- sessions ---------------------------------------------------------------------------


class _CallableSession:
    def __init__(self, bot: CallableBot) -> None:
        self.name = bot.name
        self.fn = bot.fn
        self.logs: list[str] = []
        self.log_count = 0

    def begin(self, info: GameInfo, deadline: float | None) -> None:
        self.logs = []

    def ask(self, turn: Turn, deadline: float | None) -> Any:
        # The referee times the answer (a callable cannot be stopped halfway).
        try:
            return self.fn(turn)
        except Exception as error:
            said = cut(str(error), MAX_DETAIL_CHARS)  # cut before it is copied
            raise BotFault("crash", f"the bot raised {type(error).__name__}: {said}") from None

    def finish(self, result: Mapping[str, Any], seen: Sequence[SeenMove]) -> None:
        pass

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass

    def interrupt(self) -> None:
        pass


def _dumps(message: Mapping[str, Any]) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


class _ProcessSession:
    def __init__(self, bot: CommandBot, sandbox: Sandbox | None, hide: Sequence[str]) -> None:
        self.name = bot.name
        self.logs: list[str] = []
        self.log_count = 0
        if sandbox is None:
            self.process = BotProcess(bot.argv, max_line=MAX_LINE, cwd=bot.cwd)
        else:
            try:
                argv, env = sandbox.command(bot.argv, bot.cwd, hide)
            except OSError as error:
                raise BotFault(
                    "crash", f"cannot start {bot.argv[0]!r}: {error.strerror or error}"
                ) from None
            self.process = BotProcess(argv, max_line=MAX_LINE, env=env)
        try:
            deadline = time.monotonic() + bot.start_time
            self.process.write(_dumps({"type": "hello", "protocol": PROTOCOL}), deadline)
            reply = self._message(deadline, "hello")
            if reply.get("type") != "hello":
                raise BotFault("handshake", f"expected a hello message first, got {reply!r:.200}")
            if reply.get("protocol") != PROTOCOL:
                raise BotFault(
                    "handshake",
                    f"the bot speaks {reply.get('protocol')!r:.60}, the referee {PROTOCOL!r}",
                )
            if isinstance(reply.get("name"), str) and reply["name"]:
                self.name = _name(reply["name"])
        except BotFault:
            self.process.kill()
            raise

    def _message(self, deadline: float | None, waiting: str) -> dict[str, Any]:
        """The next message that is not a log line."""
        logs = 0
        while True:
            try:
                line = self.process.readline(deadline)
            except BotFault as fault:
                if fault.fault == "timeout":
                    raise BotFault("timeout", f"no {waiting} message in time") from None
                raise
            message = _decode(line)
            if message.get("type") == "log":
                logs += 1
                self._keep(message.get("text"))
                if logs > MAX_LOGS_PER_TURN:
                    raise BotFault("flood", f"more than {MAX_LOGS_PER_TURN} log lines in one wait")
                continue
            return message

    def _keep(self, text: Any) -> None:
        self.log_count += 1
        if len(self.logs) < KEPT_LOGS:
            self.logs.append(cut(str(text), KEPT_LOG_CHARS))

    def _unasked(self) -> None:
        """Read what the bot sent while nobody asked: logs are kept, anything else is a fault."""
        for line in self.process.available_lines():
            message = _decode(line)
            if message.get("type") != "log":
                raise BotFault(
                    "out_of_turn", f"sent {_show(message)} when it was not its turn to answer"
                )
            self._keep(message.get("text"))

    def begin(self, info: GameInfo, deadline: float | None) -> None:
        self.logs = []
        self.log_count = 0
        self._unasked()
        self.process.write(_dumps(info.to_json()), _write_deadline(deadline))
        reply = self._message(deadline, "ready")
        if reply.get("type") != "ready":
            fault = "out_of_turn" if reply.get("type") in ("move", "resign") else "bad_message"
            raise BotFault(fault, f"expected a ready message, got {_show(reply)}")

    def ask(self, turn: Turn, deadline: float | None) -> Any:
        self._unasked()
        self.process.write(turn.to_line(), _write_deadline(deadline))
        reply = self._message(deadline, "move")
        kind = reply.get("type")
        if "seat" in reply and reply["seat"] != turn.seat:
            raise BotFault(
                "wrong_player",
                f"answered for seat {reply['seat']!r:.20} but it plays seat {turn.seat}",
            )
        if "ply" in reply and reply["ply"] != turn.ply:
            raise BotFault(
                "out_of_turn", f"answered ply {reply['ply']!r:.20} when asked for ply {turn.ply}"
            )
        if kind == "resign":
            return RESIGN
        if kind != "move" or not isinstance(reply.get("move"), str):
            raise BotFault(
                "bad_message", f"expected a move (or resign) message, got {_show(reply)}"
            )
        return reply["move"]

    def finish(self, result: Mapping[str, Any], seen: Sequence[SeenMove]) -> None:
        message = {"type": "end", "result": dict(result), "seen": [s.to_json() for s in seen]}
        # A bot that is gone learns nothing; the next game finds out.
        with contextlib.suppress(BotFault):
            self.process.write(_dumps(message), time.monotonic() + 1.0)

    def close(self) -> None:
        self.process.close(_dumps({"type": "quit"}))

    def abort(self) -> None:
        self.process.kill()

    def interrupt(self) -> None:
        self.process.interrupt()


def _write_deadline(deadline: float | None) -> float:
    return time.monotonic() + 5.0 if deadline is None else max(deadline, time.monotonic() + 0.05)


def _decode(line: bytes) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        raise BotFault("invalid_json", f"not a JSON line: {line[:80]!r}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise BotFault("bad_message", f"a message is a JSON object with a type, not {line[:80]!r}")
    return message


def _name(text: str) -> str:
    """A name a bot gave itself, as the results and records show it: at most
    :data:`MAX_NAME_CHARS` characters, anything unprintable (a newline, a
    control character) as ``?``, a lone surrogate as U+FFFD.

    >>> _name("evil\\nbot\\x1b[2J"), len(_name("x" * 100))
    ('evil?bot?[2J', 60)
    """
    text = cut(text, MAX_NAME_CHARS)
    return text if text.isprintable() else "".join(c if c.isprintable() else "?" for c in text)


def _show(message: Mapping[str, Any]) -> str:
    text = json.dumps(message)
    return text if len(text) <= 120 else text[:117] + "..."
