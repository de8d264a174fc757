"""What every game in the library has in common: outcomes and the game protocol.

Games are immutable states: :meth:`GameState.play` returns the next state and
leaves the old one untouched, so a refused move can never half-change a game.
Every game's ``State`` implements :class:`GameState` in full (see
``docs/protocol.md``): a program written against it runs unchanged on all three
games.

    >>> from referee import schotten_totten as st
    >>> game = st.new_game(seed=1)
    >>> moves = game.legal_moves()
    >>> len(moves) == moves.count() and bool(moves) and moves[0] in moves
    True
    >>> after = game.play(moves[0], player=game.to_move)
    >>> after.history == (moves[0],)
    True
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar, overload, runtime_checkable

from referee.errors import InvalidDealError

if TYPE_CHECKING:
    from collections import Counter

    from referee.errors import IllegalMoveError
    from referee.prover import ClaimVerdict
    from referee.records import Record

__all__ = [
    "ClaimGame",
    "GameState",
    "GameView",
    "History",
    "LegalMoves",
    "MoveText",
    "Outcome",
    "Termination",
    "check_max_plies",
    "check_player",
    "check_rng",
    "check_seed",
    "check_view",
]

MoveT = TypeVar("MoveT")
MoveT_co = TypeVar("MoveT_co", covariant=True)


class MoveText:
    """Base of move values whose ``repr`` is the parse call, like python-chess.

    A move class defines ``__str__`` (its notation); ``repr(move)`` is then
    ``parse_move('...')``, which reads the same move back.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


class Termination(StrEnum):
    """How a game (or a match) ended. The values are the ``reason`` strings of
    records, unchanged on the wire.

    >>> Termination.FIVE_STONES == "five_stones", Termination("resignation")
    (True, <Termination.RESIGNATION: 'resignation'>)
    """

    # Schotten Totten
    THREE_ADJACENT = "three_adjacent"
    FIVE_STONES = "five_stones"
    BLOCKED = "blocked"
    # Schotten Totten 2
    CONTROLLED_DAMAGED_TILE = "controlled_damaged_tile"
    FOURTH_TILE_DAMAGED = "fourth_tile_damaged"
    SIEGE_HELD = "siege_held"
    SIEGE_FAILED = "siege_failed"
    # any game on a line, in the kernel's words (a plain game, referee.line.plain)
    ADJACENT_PLACES = "adjacent_places"
    PLACES_HELD = "places_held"
    # Clans and Glory
    MOST_POINTS = "most_points"
    MOST_CARDS = "most_cards"
    SHARED = "shared"
    # a referee's end of a game still in play (every game)
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    FORFEIT = "forfeit"
    PLY_LIMIT = "ply_limit"
    # matches (Clanfehde, Rache)
    POINTS = "points"
    DRAW = "draw"
    WON_BOTH = "won_both"
    ATTACKER_LEFT_MORE_CARDS = "attacker_left_more_cards"
    DEFENDER_KEPT_MORE_WALL_AND_OIL = "defender_kept_more_wall_and_oil"
    FURTHER_GAME_NEEDED = "further_game_needed"


#: The ends a referee gives a game still in play; a player who loses by one is the ``loser``.
REFEREE_ENDS = frozenset(
    {Termination.RESIGNATION, Termination.TIMEOUT, Termination.FORFEIT, Termination.PLY_LIMIT}
)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, like python-chess's ``Outcome``.

    ``termination`` says how (a :class:`Termination`; a string with one of its
    values is converted); ``winner`` is the winning player's index (0-based,
    ``None`` when nobody or several players win); ``winners`` every winner, in
    every game: ``(winner,)``, several players for a shared win, or none;
    ``scores`` the final scores where the game keeps score; ``loser`` the player
    who resigned, ran out of time or forfeited.

        >>> Outcome("five_stones", 0)
        Outcome(Termination.FIVE_STONES, winner=0)
        >>> Outcome(Termination.FIVE_STONES, 0).reason, Outcome("five_stones", 0).winners
        ('five_stones', (0,))
        >>> Outcome("shared", None, (20, 20, 9), winners=(0, 1)).winners
        (0, 1)
        >>> Outcome("shared", 1, winners=(0, 1))
        Traceback (most recent call last):
        ...
        ValueError: winner 1 must be the only winner, not one of (0, 1)
    """

    termination: Termination
    winner: int | None
    scores: tuple[int, ...] | None = None
    loser: int | None = None
    winners: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if type(self.termination) is not Termination:
            object.__setattr__(self, "termination", Termination(self.termination))
        winners = tuple(self.winners)
        if self.winner is not None:
            if winners not in ((), (self.winner,)):
                raise ValueError(
                    f"winner {self.winner!r} must be the only winner, not one of {winners!r}"
                )
            winners = (self.winner,)
        elif len(winners) == 1:
            raise ValueError(f"one winner is winner={winners[0]!r}, not winners={winners!r}")
        object.__setattr__(self, "winners", winners)

    def __repr__(self) -> str:
        shared = self.winners if len(self.winners) > 1 else None
        extra = "".join(
            f", {name}={value!r}"
            for name, value in (("scores", self.scores), ("loser", self.loser), ("winners", shared))
            if value is not None
        )
        return f"Outcome(Termination.{self.termination.name}, winner={self.winner!r}{extra})"

    @property
    def reason(self) -> str:
        """The termination's code as a plain string (the record's ``reason``)."""
        return self.termination.value

    def result(self) -> str:
        """The result for people: ``"player 1 wins (five_stones)"`` (players counted from 1).

        >>> Outcome("ply_limit", None).result()
        'no winner (ply_limit)'
        >>> Outcome("shared", None, winners=(0, 2)).result()
        'players 1 and 3 share the win (shared)'
        """
        if len(self.winners) > 1:
            names = " and ".join(str(p + 1) for p in self.winners)
            return f"players {names} share the win ({self.reason})"
        if self.winner is None:
            return f"no winner ({self.reason})"
        return f"player {self.winner + 1} wins ({self.reason})"


class LegalMoves(Sequence[MoveT]):
    """The legal moves of a position as a lazy view, like python-chess's
    ``LegalMoveGenerator``: nothing is generated until it is asked for, then
    the moves are kept.

    It supports ``in``, ``len``/``count()``, truth, iteration and indexing
    (so ``random.choice(state.legal_moves())`` works), and compares equal to a
    list or tuple of the same moves.

        >>> moves = LegalMoves(lambda: ["a", "b"])
        >>> "a" in moves, len(moves), moves.count(), bool(moves), moves[-1], list(moves)
        (True, 2, 2, True, 'b', ['a', 'b'])
        >>> moves == ["a", "b"], moves
        (True, <LegalMoves (a, b)>)
    """

    __slots__ = ("_generate", "_moves")

    def __init__(self, generate: Callable[[], Sequence[MoveT]]) -> None:
        self._generate = generate
        self._moves: Sequence[MoveT] | None = None

    def _list(self) -> Sequence[MoveT]:
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate()
        return moves

    def __len__(self) -> int:
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate()
        return len(moves)

    def count(self, value: object = ...) -> int:
        """How many legal moves (with an argument: how often ``value`` occurs, 0 or 1)."""
        if value is ...:
            return len(self._list())
        return sum(1 for move in self._list() if move == value)

    def __bool__(self) -> bool:
        return bool(self._list())

    def __iter__(self) -> Iterator[MoveT]:
        return iter(self._list())

    def __contains__(self, move: object) -> bool:
        return move in self._list()

    @overload
    def __getitem__(self, index: int) -> MoveT: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[MoveT]: ...

    def __getitem__(self, index: int | slice) -> MoveT | Sequence[MoveT]:
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate()
        return moves[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalMoves | list | tuple):
            return list(self._list()) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(map(str, self._list()))})>"


class History(tuple[Any, ...], Generic[MoveT]):
    """The moves played since the start of a game, as a persistent linked list:
    each ply adds one node in O(1), and states share their past.

    ``start`` is the state the game began from (``None`` when a state was set
    up from a position, which has no past to record). Histories never make two
    states unequal: a state is its position, as python-chess's boards are.

        >>> past = History.begin("start").push("a").push("b")
        >>> past.moves(), len(past), past.start
        (('a', 'b'), 2, 'start')

    A player's view holds a history of its own (:meth:`as_seen`), never a
    window onto this one: nothing of the full history, nor the real start,
    can be reached from it.
    """

    # A node is the tuple (parent, move, size, start): tuples are the cheapest
    # objects Python builds, and a playout adds one node per ply. Only the first
    # node (parent ``None``) names a start; its move slot says whether the start
    # is the real one (``_NO_MOVE``) or only what a viewer may know of it
    # (``HIDDEN_START``).
    __slots__ = ()

    @classmethod
    def begin(cls, start: object) -> History[MoveT]:
        """An empty history beginning at ``start`` (``None``: unknown)."""
        return tuple.__new__(cls, (None, _NO_MOVE, 0, start))

    def push(self, move: MoveT) -> History[MoveT]:
        """The history with ``move`` played last."""
        return tuple.__new__(History, (self, move, self[2] + 1, None))

    def as_seen(
        self, mask: Callable[[MoveT], MoveT], hide: Callable[[object], object]
    ) -> History[MoveT]:
        """A new history for a viewer, sharing no node with this one: each move
        as ``mask`` rewrites it (for example, cards put face down written as their
        piles), beginning at ``hide(start)``, what the viewer may know of the
        start (for example, the deal with every hand hidden). Its ``start`` is
        ``None``: a view's record is a public one.

            >>> past = History.begin("deal").push("a").push("b")
            >>> seen = past.as_seen(str.upper, lambda start: "hidden " + start)
            >>> seen.moves(), seen.start, seen.origin(), seen[0] is past
            (('A', 'B'), None, ('hidden deal', True), False)

        A history already told for a viewer keeps its start (it hides nothing
        more). Telling costs one node per move: nothing is remembered between calls.
        """
        pending: list[MoveT] = []
        node: History[MoveT] = self
        while node[0] is not None:
            pending.append(node[1])
            node = node[0]
        if node[1] is HIDDEN_START:
            told: History[MoveT] = node  # a viewer's start already: it names nothing more
        else:
            start = node[3]
            hidden = None if start is None else hide(start)
            told = tuple.__new__(History, (None, HIDDEN_START, 0, hidden))
        new = tuple.__new__
        for move in reversed(pending):
            told = new(History, (told, mask(move), told[2] + 1, None))
        return told

    def origin(self) -> tuple[object, bool]:
        """The start state (``None`` if unknown) and whether it is hidden from
        this history's holder (a view's: only a public record may be written)."""
        node: History[MoveT] = self
        while True:
            parent = node[0]
            if parent is None:
                return node[3], node[1] is HIDDEN_START
            node = parent

    @property
    def start(self) -> object:
        """The start state, or ``None`` when it is unknown or hidden (a view)."""
        start, hidden = self.origin()
        return None if hidden else start

    def moves(self) -> tuple[MoveT, ...]:
        """The moves, first to last."""
        out: list[MoveT] = []
        node: History[MoveT] = self
        parent = node[0]
        while parent is not None:
            out.append(node[1])
            node = parent
            parent = node[0]
        out.reverse()
        return tuple(out)

    @property
    def parent(self) -> History[MoveT] | None:
        """The history one node back (``None`` at the start)."""
        parent: History[MoveT] | None = self[0]
        return parent

    def __len__(self) -> int:
        size: int = self[2]
        return size

    def __eq__(self, other: object) -> bool:
        return isinstance(other, History)

    def __ne__(self, other: object) -> bool:
        return not isinstance(other, History)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"<History of {self[2]} moves>"


class _Marker:
    """A unique marker that keeps its identity through pickle and copy."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def __reduce__(self) -> str:
        return self._name  # pickled as the module global of that name


_NO_MOVE: Any = _Marker("_NO_MOVE")
#: The first node of a viewer's history names this: its start is only what the
#: viewer may know of the real one.
HIDDEN_START: Any = _Marker("HIDDEN_START")
#: The history of a state set up from a position (no known start).
NO_HISTORY: History[Any] = History.begin(None)


@runtime_checkable
class GameView(Protocol[MoveT_co]):
    """What a player (or a spectator) sees of a game: :meth:`GameState.view`."""

    @property
    def to_move(self) -> int:
        """Index of the player whose decision it is."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""
        ...

    @property
    def num_players(self) -> int:
        """How many players the game has."""
        ...

    def is_game_over(self) -> bool:
        """Whether the game has ended."""
        ...

    def legal_moves(self) -> Sequence[MoveT_co]:
        """The viewer's legal moves as far as it can tell."""
        ...


@runtime_checkable
class GameState(Protocol[MoveT]):
    """The protocol every game's state implements in full (see ``docs/protocol.md``).

    Players are numbered from 0 in Python and JSON; sentences for people say
    "player 1", "player 2".
    """

    @property
    def to_move(self) -> int:
        """Index of the player whose decision it is."""
        ...

    @property
    def num_players(self) -> int:
        """How many players the game has."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""
        ...

    @property
    def history(self) -> tuple[MoveT, ...]:
        """The moves played since the start, first to last."""
        ...

    def is_game_over(self) -> bool:
        """Whether the game has ended (by its rules or by a referee's end)."""
        ...

    def legal_moves(self) -> LegalMoves[MoveT]:
        """Every legal move for the player to move (empty once the game is over)."""
        ...

    def parse_move(self, text: str) -> MoveT:
        """Read a move in the game's notation (raises ``InvalidMoveError``)."""
        ...

    def is_legal(self, move: MoveT | str) -> bool:
        """Whether ``move`` may be played now."""
        ...

    def play(self, move: MoveT | str, *, player: int | None = None) -> Self:
        """The state after ``move`` (raises ``IllegalMoveError`` if refused;
        ``player``, when given, must be the player to move: ``not_your_turn``)."""
        ...

    def refusal(self, move: MoveT | str, *, player: int | None = None) -> IllegalMoveError | None:
        """The error :meth:`play` would raise for ``move``, or ``None`` if it is legal."""
        ...

    def status(self) -> tuple[str, ...]:
        """Why no game can reach this position, every reason at once (empty: none)."""
        ...

    def visible_cards(self) -> Counter[Any]:
        """The cards every player sees, counted."""
        ...

    def is_chance_node(self) -> bool:
        """Whether the next ply is chance rather than a player's decision."""
        ...

    def chance_outcomes(self) -> list[tuple[MoveT, float]]:
        """A chance ply's outcomes with their chances (empty at a decision)."""
        ...

    def view(self, player: int | None) -> GameView[MoveT]:
        """What ``player`` sees; ``None``: a spectator, with every hand hidden."""
        ...

    def resign(self, player: int) -> Self:
        """The game ended by ``player``'s resignation."""
        ...

    def end(self, termination: Termination, *, loser: int | None = None) -> Self:
        """The game ended by a referee: resignation, timeout or forfeit of
        ``loser``, or the ply limit (no loser)."""
        ...

    def to_record(self) -> Record:
        """The game so far as a record that ``referee validate`` accepts."""
        ...


@runtime_checkable
class ClaimGame(GameState[MoveT], Protocol[MoveT]):
    """A game whose places (stones, tiles) are claimed with a proof."""

    def claim_verdict(self, place: int, *, player: int | None = None) -> ClaimVerdict:
        """The prover's verdict on ``player`` (default: to move) claiming ``place``."""
        ...


def referee_end(termination: Termination | str, loser: int | None, players: int) -> Outcome:
    """The outcome of a referee's end: the other player of two wins a
    resignation, timeout or forfeit (with more players nobody does); a ply
    limit has no winner. Raises ``ValueError`` for anything else.

    >>> referee_end("timeout", 1, 2)
    Outcome(Termination.TIMEOUT, winner=0, loser=1)
    """
    kind = Termination(termination)
    if kind not in REFEREE_ENDS:
        raise ValueError(
            f"{kind.value!r} is not a referee's end (use resignation, timeout, forfeit or ply_limit)"
        )
    if kind is Termination.PLY_LIMIT:
        if loser is not None:
            raise ValueError("a ply limit has no loser")
        return Outcome(kind, None)
    if isinstance(loser, bool) or not isinstance(loser, int) or not 0 <= loser < players:
        raise ValueError(
            f"a {kind.value} needs the losing player's index (0-{players - 1}), not {loser!r}"
        )
    return Outcome(kind, 1 - loser if players == 2 else None, None, loser)


def referee_result(
    outcome: Outcome | None, plies: int, game_result: Callable[[Outcome], dict[str, Any]]
) -> dict[str, Any] | None:
    """The JSON ``result`` a record carries after ``plies`` moves: none while the
    game goes on, a referee's end (resignation, timeout, forfeit, ply limit) in the
    arena's format, and any other end as the game's own ``game_result``.

        >>> referee_result(Outcome("resignation", 1, loser=0), 12, dict)
        {'winner': 1, 'reason': 'resignation', 'loser': 0}
    """
    if outcome is None:
        return None
    if outcome.termination is Termination.PLY_LIMIT:
        return {"winner": None, "reason": outcome.reason, "plies": plies}
    if outcome.termination in REFEREE_ENDS:
        return {"winner": outcome.winner, "reason": outcome.reason, "loser": outcome.loser}
    return game_result(outcome)


def check_player(player: object, players: int) -> int:
    """``player`` as a player index of a game of ``players`` players, or a
    ``ValueError`` that says which numbers there are (a bool is no player).

    >>> check_player(1, 2)
    1
    >>> check_player(True, 2)
    Traceback (most recent call last):
    ...
    ValueError: no player True: players are numbered 0-1
    """
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise ValueError(f"no player {player!r}: players are numbered 0-{players - 1}")
    return player


def check_rng(rng: object) -> random.Random:
    """``rng`` if it is a :class:`random.Random` (what determinizations draw
    from), else a ``TypeError`` that says how to make one.

    >>> check_rng(7)
    Traceback (most recent call last):
    ...
    TypeError: expected a random.Random (such as random.Random(7)), not 7
    """
    if not isinstance(rng, random.Random):
        hint = f"random.Random({rng!r})" if isinstance(rng, int) else "random.Random(seed)"
        raise TypeError(f"expected a random.Random (such as {hint}), not {rng!r}")
    return rng


def check_max_plies(max_plies: object) -> int | None:
    """``max_plies`` if it is a whole number of plies (0 or more) or ``None``
    (no limit), else a ``ValueError``: what every game's ``playout`` accepts.

    >>> check_max_plies(10), check_max_plies(None)
    (10, None)
    >>> check_max_plies(-1)
    Traceback (most recent call last):
    ...
    ValueError: max_plies must be a whole number of plies or None, not -1
    """
    if max_plies is not None and (type(max_plies) is not int or max_plies < 0):
        raise ValueError(f"max_plies must be a whole number of plies or None, not {max_plies!r}")
    return max_plies


def check_seed(seed: object, *, given: object = None, what: str = "a deck") -> int | None:
    """``seed`` if it is a whole number or ``None``, else an
    :class:`~referee.errors.InvalidDealError`: what every game's ``new_game``
    accepts. ``given``, when not ``None``, is the card order the caller gave
    too (``what`` names it): a seed and an order together are refused.

    >>> check_seed(7), check_seed(None)
    (7, None)
    >>> check_seed(1.0)
    Traceback (most recent call last):
    ...
    referee.errors.InvalidDealError: seed must be a whole number or None, not 1.0
    """
    if seed is not None and (type(seed) is not int):
        raise InvalidDealError("field_type", f"seed must be a whole number or None, not {seed!r}")
    if seed is not None and given is not None:
        raise InvalidDealError("field_type", f"give a seed or {what}, not both")
    return seed


def check_view(view: object, kinds: type | tuple[type, ...], game: str) -> None:
    """Refuse what a ``determinize`` of ``game`` cannot read: ``view`` must be one
    of ``kinds`` (that game's state or view), else a ``TypeError`` that names
    what it got (another game's view is named with its module).

    >>> check_view(7, int, "Counting")
    >>> check_view("R7", int, "Schotten Totten")
    Traceback (most recent call last):
    ...
    TypeError: determinize takes a Schotten Totten view (state.view(player)) or state, not str 'R7'
    """
    if not isinstance(view, kinds):
        kind = type(view)
        if kind.__module__ == "builtins":
            got = f"{kind.__name__} {reprlib.repr(view)}"
        else:
            got = f"a {kind.__module__}.{kind.__qualname__}"
        raise TypeError(f"determinize takes a {game} view (state.view(player)) or state, not {got}")
