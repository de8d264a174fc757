"""Bots: programs spoken to over the JSON Lines protocol, or Python callables in-process.

A :class:`Bot` describes a player (how to start it); a session is one running
instance that plays game after game until it breaks a rule, when the arena
kills it and starts a fresh one for the next game. A program's session runs in
a :class:`~referee.arena.Sandbox` unless told otherwise; a Python callable is
trusted code of the referee's own process.
"""

from __future__ import annotations

import contextlib
import json
import random
import shlex
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from referee.arena._games import move_text, moves_json
from referee.arena._limits import check_seconds
from referee.arena._process import MAX_DETAIL_CHARS, BotFault, BotProcess, cut
from referee.arena._sandbox import Sandbox

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


@dataclass(frozen=True)
class SeenMove:
    """A move as a seat may see it: ``ply`` counts from 1, ``move`` is its visible text."""

    ply: int
    seat: int
    move: str

    def to_json(self) -> dict[str, Any]:
        """The ``seen`` entry of a protocol message."""
        return {"ply": self.ply, "seat": self.seat, "move": self.move}


@dataclass(frozen=True)
class GameInfo:
    """What a bot is told when a game starts (the protocol's ``game`` message).

    ``seed`` is the bot's own seed for its random choices: drawn from the match's
    secret seed apart from the deal, so it tells nothing about the cards.
    """

    game: str
    rules: Mapping[str, Any]
    seat: int
    players: int
    names: tuple[str, ...]
    seed: int
    round: int
    move_time: float | None
    game_time: float | None
    max_plies: int | None

    def to_json(self) -> dict[str, Any]:
        """The ``game`` message."""
        return {
            "type": "game",
            "game": self.game,
            "rules": dict(self.rules),
            "seat": self.seat,
            "players": self.players,
            "names": list(self.names),
            "seed": self.seed,
            "round": self.round,
            "limits": {"move": self.move_time, "game": self.game_time, "plies": self.max_plies},
        }


class TurnSource(Protocol):
    """Where a :class:`Turn` gets what it shows, worked out only when asked for
    (the referee's game under way)."""

    def view(self, state: Any, seat: int) -> Any:
        """The game's own view object of ``state`` for ``seat``."""
        ...

    def view_json(self, state: Any, seat: int) -> dict[str, Any]:
        """The view as the protocol's JSON."""
        ...

    def view_text(self, state: Any, seat: int) -> str:
        """:meth:`view_json` as compact JSON text."""
        ...

    def seen(self, seat: int, start: int, end: int) -> tuple[SeenMove, ...]:
        """Plies ``start + 1`` to ``end`` as ``seat`` may see them."""
        ...

    def seen_text(self, seat: int, start: int, end: int) -> str:
        """:meth:`seen` as the items of a compact JSON list (no brackets)."""
        ...


class Turn:
    """One decision of one seat: what an in-process bot receives (read-only).

    ``view`` is the game's own view object for the seat (never more than its
    player may see), ``legal_moves`` the move objects it may play (``str`` gives
    the notation), ``seen`` every move since the seat's previous turn in visible
    form, ``rng`` a random generator seeded with the seat's own seed for the game
    (the ``seed`` a program bot is given: independent of the deal),
    ``time_left`` the seat's time left for the game (``None``: no game limit).
    """

    __slots__ = (
        "_end",
        "_source",
        "_start",
        "_state",
        "game",
        "legal_moves",
        "ply",
        "rng",
        "seat",
        "time_left",
    )

    def __init__(
        self,
        game: str,
        seat: int,
        ply: int,
        source: TurnSource,
        state: Any,
        legal_moves: Sequence[Any],
        seen: tuple[int, int],
        time_left: float | None,
        rng: random.Random,
    ) -> None:
        self.game = game
        self.seat = seat
        self.ply = ply
        self._source = source
        self._state = state
        self.legal_moves = legal_moves
        self._start, self._end = seen
        self.time_left = time_left
        self.rng = rng

    @property
    def view(self) -> Any:
        """The game's own view object for this seat (worked out when asked for)."""
        return self._source.view(self._state, self.seat)

    @property
    def seen(self) -> tuple[SeenMove, ...]:
        """Every move since this seat's previous turn, as the seat may see it."""
        return self._source.seen(self.seat, self._start, self._end)

    def view_json(self) -> dict[str, Any]:
        """The seat's view as the protocol's JSON."""
        return self._source.view_json(self._state, self.seat)

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``turn`` message."""
        return {
            "type": "turn",
            "ply": self.ply,
            "seat": self.seat,
            "view": self.view_json(),
            "legal": [move_text(m) for m in self.legal_moves],
            "seen": [s.to_json() for s in self.seen],
            "time_left": None if self.time_left is None else round(self.time_left, 3),
        }

    def to_line(self) -> bytes:
        """The ``turn`` message as the line the protocol sends: exactly
        ``json.dumps(self.to_json(), separators=(",", ":"))`` and a newline, written
        piece by piece from remembered texts.

        >>> from referee.arena import play_game
        >>> turns = []
        >>> result = play_game([lambda t: turns.append(t) or t.legal_moves[0]] * 2, seed=3)
        >>> all(t.to_line() == (json.dumps(t.to_json(), separators=(",", ":")) + "\\n").encode()
        ...     for t in turns)
        True
        """
        source, seat = self._source, self.seat
        view = source.view_text(self._state, seat)
        legal = moves_json(self.legal_moves)
        seen = source.seen_text(seat, self._start, self._end)
        left = "null" if self.time_left is None else json.dumps(round(self.time_left, 3))
        return (
            f'{{"type":"turn","ply":{self.ply},"seat":{seat},"view":{view},'
            f'"legal":[{legal}],"seen":[{seen}],"time_left":{left}}}\n'
        ).encode()

    def __repr__(self) -> str:
        return f"<Turn {self.game} ply {self.ply} seat {self.seat}: {len(self.legal_moves)} moves>"


class Session(Protocol):
    """One running instance of a bot."""

    name: str
    logs: list[str]
    log_count: int

    def begin(self, info: GameInfo, deadline: float | None) -> None:
        """Tell the bot a game starts; it must be ready by ``deadline``."""
        ...

    def ask(self, turn: Turn, deadline: float | None) -> Any:
        """The bot's answer to ``turn``: move text, a move object or :data:`RESIGN`."""
        ...

    def finish(self, result: Mapping[str, Any], seen: Sequence[SeenMove]) -> None:
        """Tell the bot the game is over."""
        ...

    def close(self) -> None:
        """Stop the bot (killing whatever is left of it)."""
        ...

    def abort(self) -> None:
        """Kill the bot at once (after a fault)."""
        ...

    def interrupt(self) -> None:
        """Kill the bot's processes now, from another thread (the match is aborted)."""
        ...


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
    """
    if isinstance(spec, Bot):
        return spec
    if isinstance(spec, str):
        words = shlex.split(spec)
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
