"""The games that records can name, each described by a :class:`GameFormat`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee.game import GameState, Outcome
from referee.records._types import Position, Record, RecordError

__all__ = ["ClaimAnswer", "GameFormat", "find_game", "game_names", "register"]


@dataclass(frozen=True)
class ClaimAnswer:
    """Whether one player can claim one place (stone or tile) now, and why.

    ``claimable`` is ``None`` when the question does not arise (the player's
    formation there is incomplete) or no engine could decide it.
    """

    place: int
    player: int
    claimable: bool | None
    explanation: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""

    def __str__(self) -> str:
        where = self.label or f"place {self.place}"
        return f"{where}, player {self.player + 1}: {self.explanation}"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "place": self.place,
            "label": self.label,
            "player": self.player,
            "claimable": self.claimable,
            "explanation": self.explanation,
            "evidence": dict(self.evidence),
        }


class GameFormat(Protocol):
    """How one game is recorded: set-up, positions, results and claims."""

    #: The name records use, like ``"schotten-totten"``.
    name: str
    #: The game's title for people.
    title: str

    def start(self, record: Record) -> GameState[Any]:
        """The state before the first move (full or public), or a RecordError."""
        ...

    def result_of(self, outcome: Outcome) -> dict[str, Any]:
        """The JSON ``result`` for an outcome."""
        ...

    def load_position(self, position: Position) -> GameState[Any]:
        """The state for a visible position, or a RecordError."""
        ...

    def position_of(self, state: Any) -> Position:
        """The visible position of a state."""
        ...

    def claimability(self, state: Any) -> list[ClaimAnswer]:
        """For every open place and player: can it be claimed now?"""
        ...

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        """A random legal game as a full record (for ``referee demo``)."""
        ...


_GAMES: dict[str, GameFormat] = {}


def register(game: GameFormat) -> GameFormat:
    """Make a game's format known to the records machinery under ``game.name``."""
    _GAMES[game.name] = game
    return game


def game_names() -> list[str]:
    """The names of every registered game."""
    return sorted(_GAMES)


def find_game(name: str, where: str = "") -> GameFormat:
    """The format registered as ``name``; a RecordError naming the known ones if none."""
    if not _GAMES:
        import referee  # noqa: F401  (importing the package registers every game)
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        known = ", ".join(game_names())
        raise RecordError(f"unknown game {name!r} (known: {known})", where, "game") from None
