"""The record format of each game (:class:`GameFormat`), found through the
one game registry, :mod:`referee.games`.

A record names its game (``"game": "schotten-totten"``) and :func:`find_game`
gives that game's format: ``referee.games.find_game(name).format``. Games are
declared by their :class:`~referee.games.GameDescriptor` (bundled, registered
with :func:`register`, or installed through the ``referee.games`` entry point
group); this module only reads them.

>>> import sys
>>> "schotten-totten" in game_names()
True
>>> find_game("schotten-totten").title
'Schotten Totten'
>>> "referee.schotten_totten.record" in sys.modules
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, TypeVar, overload

from referee import games
from referee.game import Outcome
from referee.games import ENTRY_POINT_GROUP, game_names, register
from referee.records._types import Match, Position, Record

if TYPE_CHECKING:
    from referee.clans_and_glory.state import State as _ClansAndGlory
    from referee.prover import ClaimVerdict
    from referee.schotten_totten.state import State as _SchottenTotten
    from referee.schotten_totten_2.state import State as _SchottenTotten2

    #: The state of any of the bundled games (what a game named at run time gives).
    AnyGameState: TypeAlias = _SchottenTotten | _SchottenTotten2 | _ClansAndGlory

#: The state type a format reads and writes.
StateT = TypeVar("StateT")

__all__ = [
    "ENTRY_POINT_GROUP",
    "ClaimAnswer",
    "GameFormat",
    "find_game",
    "game_names",
    "game_of",
    "register",
]


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

    @property
    def has_claims(self) -> bool:
        """Whether the game has claims to prove (Clans and Glory has none)."""
        ...

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

    def describe_verdict(self, state: StateT, verdict: ClaimVerdict) -> Mapping[str, Any]:
        """The evidence of a refused claim's verdict, as JSON."""
        ...

    def match_result(
        self, match: Match, finals: Sequence[StateT]
    ) -> tuple[dict[str, Any] | None, str | None]:
        """Score a match from its games' final states: ``(result, problem)``;
        ``result`` is ``None`` while games remain, ``problem`` says what is wrong
        (a game without matches says so here)."""
        ...

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        """A random legal game as a full record (for ``referee demo``)."""
        ...

    def random_match(self, seed: int, rules: Mapping[str, Any]) -> Match:
        """A random legal match (for ``referee demo --rules '{"rounds": N}'``), or a
        RecordError for a game without matches."""
        ...


def game_of(state: object) -> str | None:
    """The name of the game whose state (or view) ``state`` is, else ``None``
    (see :func:`referee.games.descriptor_of`).

    >>> from referee import schotten_totten as st
    >>> game_of(st.new_game(seed=1)), game_of("R7")
    ('schotten-totten', None)
    """
    game = games.descriptor_of(state)
    return None if game is None else game.name


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
    """The record format of the game ``name`` (``referee.games.find_game(name).format``);
    a RecordError naming the known games if there is none.

    With the name written out, the format's states are typed precisely:
    ``find_game("schotten-totten").load_position(p)`` is a Schotten Totten
    ``State``; a name known only at run time gives any bundled game's state.
    """
    return games.find_game(name, where).format
