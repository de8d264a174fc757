"""The games that records can name, each described by a :class:`GameFormat`.

Games register explicitly, never as a side effect of importing them:

- the three bundled games are known here by name and module path, and each is
  imported the first time :func:`find_game` asks for it;
- a third-party game is found through the ``referee.games`` entry point group:
  the entry point's name is the game's name in records, its object the game's
  :class:`GameFormat`. In the third-party package's ``pyproject.toml``::

      [project.entry-points."referee.games"]
      "my-game" = "my_game.record:FORMAT"

- a program can also call :func:`register` with a format it built.

>>> import sys
>>> "schotten-totten" in game_names()
True
>>> find_game("schotten-totten").title
'Schotten Totten'
>>> "referee.schotten_totten.record" in sys.modules
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, TypeVar, overload

from referee.game import Outcome
from referee.records._types import Match, Position, Record, RecordError

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

#: The entry point group through which third-party games join.
ENTRY_POINT_GROUP = "referee.games"


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


@dataclass(frozen=True)
class _Builtin:
    """Where a bundled game lives: imported only when it is first needed."""

    #: ``"module:attribute"`` of the game's :class:`GameFormat`.
    format: str
    #: ``"module:qualified name"`` of each state (or view) class of the game.
    states: tuple[str, ...]
    #: ``"module:function"`` drawing a state as SVG (see :mod:`referee.svg`).
    picture: str


_BUILTIN: dict[str, _Builtin] = {
    "schotten-totten": _Builtin(
        "referee.schotten_totten.record:FORMAT",
        ("referee.schotten_totten.state:State",),
        "referee.schotten_totten.picture:draw",
    ),
    "schotten-totten-2": _Builtin(
        "referee.schotten_totten_2.record:FORMAT",
        ("referee.schotten_totten_2.state:State",),
        "referee.schotten_totten_2.picture:draw",
    ),
    "clans-and-glory": _Builtin(
        "referee.clans_and_glory.record:FORMAT",
        ("referee.clans_and_glory.state:State",),
        "referee.clans_and_glory.picture:draw",
    ),
}
#: The formats loaded or registered so far, by name.
_GAMES: dict[str, GameFormat[Any]] = {}
_FormatT = TypeVar("_FormatT", bound=GameFormat[Any])


def _load(path: str) -> Any:
    """The object at ``"module:attribute"`` (importing the module)."""
    module, _, attribute = path.partition(":")
    value = importlib.import_module(module)
    for part in attribute.split("."):
        value = getattr(value, part)  # a path we wrote, resolved like an entry point
    return value


def register(game: _FormatT) -> _FormatT:
    """Make a game's format known to the records machinery under ``game.name``.

    >>> class Tiny:
    ...     name, title = "tiny-doctest-game", "Tiny"
    >>> register(Tiny()).title, "tiny-doctest-game" in game_names()
    ('Tiny', True)
    >>> del _GAMES["tiny-doctest-game"]
    """
    _GAMES[game.name] = game
    return game


def _third_party() -> dict[str, Any]:
    """The entry points of the ``referee.games`` group, by game name."""
    return {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}


def game_names() -> list[str]:
    """The names of every known game: bundled, registered or installed (none is imported)."""
    return sorted(set(_BUILTIN) | set(_GAMES) | set(_third_party()))


def game_of(state: object) -> str | None:
    """The name of the bundled game whose state (or view) ``state`` is, else ``None``.

    Compares class paths, so no game is imported to answer.

    >>> from referee import schotten_totten as st
    >>> game_of(st.new_game(seed=1)), game_of("R7")
    ('schotten-totten', None)
    """
    kinds = {f"{kind.__module__}:{kind.__qualname__}" for kind in type(state).__mro__}
    for name, builtin in _BUILTIN.items():
        if kinds.intersection(builtin.states):
            return name
    return None


def _picture(name: str) -> Callable[..., Any]:
    """The function drawing a bundled game's states (for :mod:`referee.svg`)."""
    draw: Callable[..., Any] = _load(_BUILTIN[name].picture)
    return draw


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
    if not isinstance(name, str):
        raise RecordError(
            f"unknown game {name!r} (known: {', '.join(game_names())})", where, "game"
        )
    game = _GAMES.get(name)
    if game is not None:
        return game
    builtin = _BUILTIN.get(name)
    if builtin is not None:
        return register(_load(builtin.format))
    point = _third_party().get(name)
    if point is None:
        known = ", ".join(game_names())
        raise RecordError(f"unknown game {name!r} (known: {known})", where, "game")
    game = point.load()
    if game.name != name:
        raise RecordError(
            f"the entry point {name!r} of {ENTRY_POINT_GROUP!r} gives a game named {game.name!r}",
            where,
            "game",
        )
    return register(game)
