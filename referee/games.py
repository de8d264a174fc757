"""The games the library knows: one :class:`GameDescriptor` per game, one registry.

A game is declared once, by its descriptor: its name in records, its state
type, ``new_game``, its record format, action space, determinization, deal
model, picture, playout and arena adapter. Every part of the library that
serves a game by name reads the descriptor from here: records
(:func:`referee.records.find_game` is ``find_game(name).format``), the arena,
the PettingZoo environments, public records' deals (:mod:`referee.deals`),
pictures (:mod:`referee.svg`) and the command line.

Games join the registry three ways, and never as a side effect of an import:

- the bundled games are listed here by name and by the path of their
  descriptor (``referee.<game>._game:GAME``), and each is imported the first
  time it is asked for, so importing :mod:`referee` imports no game;
- a third-party game is found through the ``referee.games`` entry point group:
  the entry point's name is the game's name in records, its object the game's
  descriptor. In the third-party package's ``pyproject.toml``::

      [project.entry-points."referee.games"]
      "my-game" = "my_game:GAME"

- a program can call :func:`register` with a descriptor it built.

>>> "schotten-totten" in game_names()
True
>>> game = find_game("schotten-totten")
>>> game.title, game.players, game.format.name
('Schotten Totten', (2, 2), 'schotten-totten')
>>> descriptor_of(game.new_game(seed=1)) is game
True

See ``docs/adding-a-game.md`` for what each field needs and the tests every
game passes.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar, overload

if TYPE_CHECKING:
    from referee.actions import ActionSpace
    from referee.arena import ArenaGame
    from referee.clans_and_glory.state import State as _ClansAndGlory
    from referee.deals import DealAnswer, DealProblem
    from referee.game import Outcome
    from referee.records import GameFormat, Record
    from referee.schotten_totten.state import State as _SchottenTotten
    from referee.schotten_totten_2.state import State as _SchottenTotten2

__all__ = [
    "DEFAULT_GAME",
    "ENTRY_POINT_GROUP",
    "Commentary",
    "DealModel",
    "GameDescriptor",
    "Lazy",
    "descriptor_of",
    "find_game",
    "game_names",
    "lazy",
    "register",
]

#: The entry point group through which third-party games join.
ENTRY_POINT_GROUP = "referee.games"

#: The bundled games: each name as records write it, and where its descriptor is.
#: This is the one place in the library's shared code that names a game.
_BUNDLED: Mapping[str, str] = MappingProxyType(
    {
        "clans-and-glory": "referee.clans_and_glory._game:GAME",
        "schotten-totten": "referee.schotten_totten._game:GAME",
        "schotten-totten-2": "referee.schotten_totten_2._game:GAME",
    }
)

#: The game the command line and the arena play when none is named.
DEFAULT_GAME = "schotten-totten"

#: A game's name in records: lower-case words joined by hyphens (digits allowed).
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
#: ``"module:attribute"`` (dotted on both sides).
_PATH = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")

StateT = TypeVar("StateT")
_StateT_contra = TypeVar("_StateT_contra", contravariant=True)


class DealModel(Protocol):
    """What a game's public records need to be checked (see :mod:`referee.deals`):
    the deal problem of a public record's first moves, and the full record that a
    solution makes of it. A game's ``deals`` module has this shape."""

    def problem(self, record: Record, upto: int | None = None) -> DealProblem:
        """The :class:`~referee.deals.DealProblem` of ``record``'s first ``upto`` moves
        (all of them when ``None``)."""
        ...

    def full_record(self, record: Record, answer: DealAnswer) -> Record:
        """The public ``record`` made full with the deal ``answer`` found."""
        ...


class Playout(Protocol[_StateT_contra]):
    """``playout(state, rng, policy=None, *, max_plies=None)``: the game played out
    from ``state`` to its end on the game's fast core (``state`` is unchanged)."""

    def __call__(
        self,
        state: _StateT_contra,
        rng: random.Random,
        policy: Any = None,
        *,
        max_plies: int | None = None,
    ) -> Outcome | None: ...


class Commentary:
    """How the replay viewer, the pictures and ``referee analyze`` speak of a game.

    Every member has a default that suits any game; a game's descriptor gives a
    subclass that overrides what it knows better (its moves in words, its
    score, what claiming a place is, which places win).

    >>> plain = Commentary()
    >>> plain.move_words("play 3", "Ada"), plain.claim_move, plain.match_name({})
    ('Ada: play 3', None, 'match')
    """

    #: The move that claims place ``N``, as a format (``"claim {}"``); ``None``
    #: for a game without claims (the analysis then looks for none).
    claim_move: str | None = None
    #: Whether a match's score is kept game by game (each game's points added up).
    running_score: bool = False
    #: Whether the table is drawn from the side of the seat it is shown to
    #: (two players facing each other across a line), and a replay can turn it.
    faces: bool = False

    def move_words(self, move: str, who: str) -> str:
        """One move (its notation) as a sentence about the player ``who`` made it."""
        return f"{who}: {move}"

    def match_name(self, rules: Mapping[str, Any]) -> str:
        """What a match under the match rules ``rules`` is called."""
        return "match"

    def owners(self, state: Any) -> dict[int, int]:
        """The places (numbered from 1) that are claimed, with their owners."""
        return {}

    def wins(self, state: Any, places: set[int]) -> bool:
        """Whether holding ``places`` (besides what ``state`` says) wins the game."""
        return False

    def score_lines(self, state: Any, proven: Callable[[int], int]) -> list[str]:
        """The score strip beside a position: one line per player. ``proven(p)``
        is how many places the prover gives player ``p`` (claimed or provable)."""
        return []

    def graph(self, states: Sequence[Any], proven: Callable[[int, int], int]) -> dict[str, Any]:
        """The graph beside the board: ``title``, one ``series`` per player, and
        the ``goal`` (or ``None``). ``proven(k, p)`` counts player ``p``'s places
        at position ``k``."""
        players = states[0].num_players if states else 2
        series = [[proven(k, p) for k in range(len(states))] for p in range(players)]
        return {"title": "Places held or proven", "series": series, "goal": None}

    def seen_moves(
        self, states: Sequence[Any], moves: Sequence[str], viewer: int
    ) -> list[str] | None:
        """The moves as ``viewer`` saw them, or ``None`` to read them from the
        views' histories (``states[k]`` is the table before move ``k + 1``)."""
        return None


@dataclass(frozen=True)
class Lazy:
    """The object at ``"module:attribute"``, imported when it is first used.

    Calling a ``Lazy`` calls the object; reading an attribute reads the
    object's. A descriptor uses it for the parts that would import more than
    the game itself (its picture, its deal model, its arena adapter), so that
    finding a game stays cheap. Python keeps the imported module; nothing is
    kept here.

    >>> dumps = lazy("json:dumps")
    >>> dumps([1, 2])
    '[1, 2]'
    >>> lazy("json").loads("[3]")
    [3]
    >>> lazy("json dumps")
    Traceback (most recent call last):
    ...
    ValueError: expected 'module' or 'module:attribute', not 'json dumps'
    """

    path: str

    def __post_init__(self) -> None:
        if not isinstance(self.path, str) or not (
            _PATH.fullmatch(self.path) or _PATH.fullmatch(self.path + ":x")
        ):
            raise ValueError(f"expected 'module' or 'module:attribute', not {self.path!r}")

    def load(self) -> Any:
        """The object itself (importing its module the first time)."""
        module, _, attribute = self.path.partition(":")
        value: Any = importlib.import_module(module)
        for part in attribute.split(".") if attribute else ():
            value = getattr(value, part)  # a path the game's descriptor wrote
        return value

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.load()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy, pickle and friends ask for these: not the object's
            raise AttributeError(name)
        return getattr(self.load(), name)


def lazy(path: str, *, optional: bool = False) -> Any:
    """A :class:`Lazy` reference to ``"module:attribute"`` (or a whole module).

    With ``optional=True``, ``None`` when the module does not exist (checked
    without importing it; its package is imported): for a part a game may not
    have yet.

    >>> lazy("json:dumps")
    Lazy(path='json:dumps')
    >>> print(lazy("referee.no_such_module:run", optional=True))
    None
    """
    reference = Lazy(path)
    if optional:
        module = path.partition(":")[0]
        try:
            found = importlib.util.find_spec(module)
        except ModuleNotFoundError:  # its package is missing too
            found = None
        if found is None:
            return None
    return reference


@dataclass(frozen=True, kw_only=True, repr=False)
class GameDescriptor(Generic[StateT]):
    """Everything the library needs to serve one game, declared once.

    Only ``name``, ``title`` and ``format`` are required; each other part is
    ``None`` where a game lacks it, and the part of the library that needs it
    says so (an environment needs ``deal`` and ``action_space``; the arena
    needs ``deal``). The bundled games declare every part (a test checks it).

    >>> from referee.records import find_game as find_format
    >>> GameDescriptor(name="Bad Name", title="x", format=find_format("schotten-totten"))
    Traceback (most recent call last):
    ...
    ValueError: a game's name is lower-case words joined by hyphens, not 'Bad Name'
    """

    #: The game's name in records (``"game"``), like ``"schotten-totten"``.
    name: str
    #: The game's title for people.
    title: str
    #: How the game is recorded (:class:`referee.records.GameFormat`); its
    #: ``name`` and ``title`` are the descriptor's.
    format: GameFormat[StateT]
    #: The class of the game's states (``None`` only for a game registered as a
    #: bare format, which then cannot be found from a state).
    state_type: type[StateT] | None = None
    #: The class of a player's view when it is not ``state_type`` (views are
    #: states, with hidden parts ``None``, in every bundled line game).
    view_type: type[Any] | None = None
    #: The class of ``new_game``'s ``rules=`` argument, if it takes one.
    rules_type: type[Any] | None = None
    #: ``new_game(seed=..., ...)``: the game's own constructor, for people.
    new_game: Callable[..., StateT] | None = None
    #: The fewest and the most players. When they differ, the number of
    #: players is the record rules' ``"players"``.
    players: tuple[int, int] = (2, 2)
    #: The variants a record's ``rules.variants`` may name.
    variants: tuple[str, ...] = ()
    #: ``deal(rng, rules)``: a new game dealt at random from ``rng`` under the
    #: record rules ``rules`` (a JSON object; ``{}`` for the default rules).
    #: Every random choice is drawn from ``rng``.
    deal: Callable[[random.Random, Mapping[str, Any]], StateT] | None = None
    #: ``chance(state, rng)``: the chance ply that whoever runs the game (the
    #: arena, an environment) plays itself, drawn from ``rng``; ``None`` when a
    #: player decides. ``None`` for a game without chance plies.
    chance: Callable[[StateT, random.Random], Any] | None = None
    #: ``action_space(state)``: the numbered moves (:class:`referee.actions.ActionSpace`)
    #: of the game ``state`` is in.
    action_space: Callable[[StateT], ActionSpace] | None = None
    #: The largest number an observation of the action space holds (an
    #: environment's observation bound).
    observation_high: int = 1
    #: ``determinize(view, rng)``: a full state the viewer cannot tell from ``view``.
    determinize: Callable[[StateT, random.Random], StateT] | None = None
    #: The public records' deal model (see :class:`DealModel`).
    deals: DealModel | None = None
    #: ``picture(state, options)``: the SVG drawing of a state for
    #: :func:`referee.svg.render_svg`, or a whole ``<svg>`` text. Without one,
    #: pictures show the state's text.
    picture: Callable[[StateT, Any], Any] | None = None
    #: ``text(state)``: the state as text (``referee show``).
    text: Callable[[StateT], str] = str
    #: ``playout(state, rng, policy=None, *, max_plies=None)``: the game played
    #: to its end on its fast core.
    playout: Playout[StateT] | None = None
    #: ``arena(descriptor, rules)``: the arena's adapter for the game under
    #: ``rules`` (a subclass of :class:`referee.arena.ArenaGame`); ``None``:
    #: the generic :class:`~referee.arena.ArenaGame`.
    arena: Callable[[GameDescriptor[StateT], Mapping[str, Any]], ArenaGame] | None = None
    #: How the viewer, the pictures and the analysis speak of the game (its moves
    #: in words, its score, its claims; see :class:`Commentary`).
    commentary: Commentary = field(default_factory=Commentary)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise ValueError(
                f"a game's name is lower-case words joined by hyphens, not {self.name!r}"
            )
        if not isinstance(self.title, str) or not self.title.strip():
            raise ValueError(f"a game needs a title, not {self.title!r}")
        for part in ("name", "title"):
            if getattr(self.format, part, None) != getattr(self, part):
                raise ValueError(
                    f"the format of {self.name!r} has {part} "
                    f"{getattr(self.format, part, None)!r}, not {getattr(self, part)!r}"
                )
        low, high = self.players if len(self.players) == 2 else (0, -1)
        if any(isinstance(n, bool) or not isinstance(n, int) for n in self.players) or not (
            1 <= low <= high
        ):
            raise ValueError(f"players must be (fewest, most), not {self.players!r}")

    def __repr__(self) -> str:
        return f"GameDescriptor(name={self.name!r})"

    @property
    def env_name(self) -> str:
        """The PettingZoo environment's name: ``schotten_totten_v0`` for ``schotten-totten``.

        >>> find_game("clans-and-glory").env_name
        'clans_and_glory_v0'
        """
        return self.name.replace("-", "_") + "_v0"

    def owns(self, state: object) -> bool:
        """Whether ``state`` is a state or a view of this game.

        >>> from referee import schotten_totten_2 as st2
        >>> find_game("schotten-totten-2").owns(st2.new_game(seed=1).view(0))
        True
        >>> find_game("schotten-totten").owns(st2.new_game(seed=1))
        False
        """
        kinds = tuple(k for k in (self.state_type, self.view_type) if k is not None)
        return bool(kinds) and isinstance(state, kinds)


#: The games found or registered so far, by name (the registry itself).
_GAMES: dict[str, GameDescriptor[Any]] = {}


def _descriptor(value: object, origin: str) -> GameDescriptor[Any]:
    """``value`` as a descriptor: a bare record format (the older way to declare
    a game) is wrapped, with a DeprecationWarning."""
    if isinstance(value, GameDescriptor):
        return value
    if callable(getattr(value, "start", None)) and isinstance(getattr(value, "name", None), str):
        warnings.warn(
            f"{origin} gives a bare GameFormat: give a referee.games.GameDescriptor "
            "(its format is the descriptor's 'format')",
            DeprecationWarning,
            stacklevel=3,
        )
        fmt: Any = value
        return GameDescriptor(name=fmt.name, title=fmt.title, format=fmt)
    raise TypeError(f"{origin} gives {value!r}, not a referee.games.GameDescriptor")


def register(game: GameDescriptor[StateT]) -> GameDescriptor[StateT]:
    """Make ``game`` known under ``game.name`` (replacing a game of that name).

    A bare record format is still accepted, with a ``DeprecationWarning``.

    >>> base = find_game("schotten-totten")
    >>> from dataclasses import replace
    >>> class Renamed(type(base.format)):
    ...     name, title = "schotten-totten-copy", "A copy"
    >>> copy = register(replace(base, name="schotten-totten-copy", title="A copy",
    ...                         format=Renamed(), state_type=None))
    >>> find_game("schotten-totten-copy") is copy, "schotten-totten-copy" in game_names()
    (True, True)
    >>> del _GAMES["schotten-totten-copy"]
    """
    found: GameDescriptor[StateT] = _descriptor(game, "register()")
    _GAMES[found.name] = found
    return found


def _third_party() -> dict[str, Any]:
    """The entry points of the ``referee.games`` group, by game name."""
    return {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}


def game_names() -> list[str]:
    """The names of every known game: bundled, registered or installed (none is imported).

    >>> game_names()[:3]
    ['clans-and-glory', 'schotten-totten', 'schotten-totten-2']
    """
    return sorted(set(_BUNDLED) | set(_GAMES) | set(_third_party()))


def _unknown(name: object, where: str, message: str = "") -> Exception:
    from referee.records._types import RecordError

    known = ", ".join(game_names())
    return RecordError(message or f"unknown game {name!r} (known: {known})", where, "game")


@overload
def find_game(
    name: Literal["schotten-totten"], where: str = ""
) -> GameDescriptor[_SchottenTotten]: ...


@overload
def find_game(
    name: Literal["schotten-totten-2"], where: str = ""
) -> GameDescriptor[_SchottenTotten2]: ...


@overload
def find_game(
    name: Literal["clans-and-glory"], where: str = ""
) -> GameDescriptor[_ClansAndGlory]: ...


@overload
def find_game(name: str, where: str = "") -> GameDescriptor[Any]: ...


def find_game(name: str, where: str = "") -> GameDescriptor[Any]:
    """The game named ``name``; a :class:`~referee.records.RecordError` (field
    ``game``) naming the known games if there is none.

    >>> find_game("chess")
    Traceback (most recent call last):
    ...
    referee.records.RecordError: field 'game': unknown game 'chess' (known: clans-and-glory, schotten-totten, schotten-totten-2)
    """
    if not isinstance(name, str):
        raise _unknown(name, where)
    game = _GAMES.get(name)
    if game is not None:
        return game
    path = _BUNDLED.get(name)
    if path is not None:
        value = Lazy(path).load()
        origin = f"the bundled game {name!r}"
    else:
        point = _third_party().get(name)
        if point is None:
            raise _unknown(name, where)
        value = point.load()
        origin = f"the entry point {name!r} of {ENTRY_POINT_GROUP!r}"
    found = _descriptor(value, origin)
    if found.name != name:
        raise _unknown(name, where, f"{origin} gives a game named {found.name!r}")
    _GAMES[name] = found
    return found


def _package(path: str) -> str:
    """The package a ``"module:attribute"`` path lives in (a top-level module is its own)."""
    module = path.partition(":")[0]
    return module.rpartition(".")[0] or module


def descriptor_of(state: object) -> GameDescriptor[Any] | None:
    """The game whose state (or view) ``state`` is, else ``None``.

    Only a game whose package the state's class comes from is imported to
    answer (it is imported already: the state exists).

    >>> from referee import schotten_totten as st
    >>> descriptor_of(st.new_game(seed=1)).name, descriptor_of("R7")
    ('schotten-totten', None)
    """
    for game in list(_GAMES.values()):
        if game.owns(state):
            return game
    modules = {kind.__module__ for kind in type(state).__mro__}

    def near(path: str) -> bool:
        package = _package(path)
        return any(m == package or m.startswith(package + ".") for m in modules)

    candidates = [name for name, path in _BUNDLED.items() if name not in _GAMES and near(path)]
    if not candidates:
        candidates = [
            name
            for name, point in _third_party().items()
            if name not in _GAMES and near(point.value)
        ]
    for name in candidates:
        game = find_game(name)
        if game.owns(state):
            return game
    return None
