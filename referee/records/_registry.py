"""The games that records can name, each described by a :class:`GameFormat`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, TypeVar, overload

from referee.game import Outcome
from referee.records._types import Position, Record, RecordError

if TYPE_CHECKING:
    from referee.clans_and_glory.state import State as _ClansAndGlory
    from referee.schotten_totten.state import State as _SchottenTotten
    from referee.schotten_totten_2.state import State as _SchottenTotten2

    #: The state of any of the bundled games (what a game named at run time gives).
    AnyGameState: TypeAlias = _SchottenTotten | _SchottenTotten2 | _ClansAndGlory

#: The state type a format reads and writes.
StateT = TypeVar("StateT")

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


class GameFormat(Protocol[StateT]):
    """How one game is recorded: set-up, positions, results and claims.

    Generic in the game's state: ``find_game("schotten-totten")`` is a
    ``GameFormat[referee.schotten_totten.State]``, so what it loads is typed.
    """

    #: The name records use, like ``"schotten-totten"``.
    name: str
    #: The game's title for people.
    title: str

    def start(self, record: Record) -> StateT:
        """The state before the first move (full or public), or a RecordError."""
        ...

    def result_of(self, outcome: Outcome) -> dict[str, Any]:
        """The JSON ``result`` for an outcome."""
        ...

    def load_position(self, position: Position) -> StateT:
        """The state for a visible position, or a RecordError."""
        ...

    def position_of(self, state: StateT) -> Position:
        """The visible position of a state."""
        ...

    def claimability(self, state: StateT) -> list[ClaimAnswer]:
        """For every open place and player: can it be claimed now?"""
        ...

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        """A random legal game as a full record (for ``referee demo``)."""
        ...


_GAMES: dict[str, GameFormat[Any]] = {}
_FormatT = TypeVar("_FormatT", bound=GameFormat[Any])


def register(game: _FormatT) -> _FormatT:
    """Make a game's format known to the records machinery under ``game.name``."""
    _GAMES[game.name] = game
    return game


def game_names() -> list[str]:
    """The names of every registered game."""
    return sorted(_GAMES)


@overload
def find_game(name: Literal["schotten-totten"], where: str = "") -> GameFormat[_SchottenTotten]: ...


@overload
def find_game(
    name: Literal["schotten-totten-2"], where: str = ""
) -> GameFormat[_SchottenTotten2]: ...


@overload
def find_game(name: Literal["clans-and-glory"], where: str = "") -> GameFormat[_ClansAndGlory]: ...


@overload
def find_game(name: str, where: str = "") -> GameFormat[AnyGameState]: ...


def find_game(name: str, where: str = "") -> GameFormat[Any]:
    """The format registered as ``name``; a RecordError naming the known ones if none.

    With the name written out, the format's states are typed precisely:
    ``find_game("schotten-totten").load_position(p)`` is a Schotten Totten
    ``State``; a name known only at run time gives any bundled game's state.
    """
    if not _GAMES:
        import referee  # noqa: F401  (importing the package registers every game)
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        known = ", ".join(game_names())
        raise RecordError(f"unknown game {name!r} (known: {known})", where, "game") from None
