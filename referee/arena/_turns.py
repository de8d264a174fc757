"""What a bot is told and asked: the protocol's messages as objects (the game's
start, the moves a seat has seen, the turn), and :class:`Session`, the interface
of one running bot that the arena speaks to."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from referee.arena._games import move_text, moves_json

__all__ = ["GameInfo", "SeenMove", "Session", "Turn", "TurnSource"]


@dataclass(frozen=True)
class SeenMove:
    """A move as a seat may see it: ``ply`` counts from 1, ``move`` is its visible text.

    ``reveals`` is an earlier move, shown to this seat masked, that it learns in
    full with this one (Schotten Totten 2: the exchange offer, once its cards
    reach the answering player's hand), else ``None``.

    >>> SeenMove(9, 1, "give B4,B5,B6", SeenMove(8, 0, "exchange R1,R2,spy")).to_json()
    {'ply': 9, 'seat': 1, 'move': 'give B4,B5,B6', 'reveals': {'ply': 8, 'seat': 0, 'move': 'exchange R1,R2,spy'}}
    """

    ply: int
    seat: int
    move: str
    reveals: SeenMove | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``seen`` entry of a protocol message."""
        data: dict[str, Any] = {"ply": self.ply, "seat": self.seat, "move": self.move}
        if self.reveals is not None:
            data["reveals"] = self.reveals.to_json()
        return data


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
    #: The seat that moves first (Schotten Totten 2: the attacker).
    first: int = 0

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
            "first": self.first,
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
