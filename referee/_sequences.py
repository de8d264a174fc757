"""The two sequence types of the game protocol (:mod:`referee.game`): the
legal moves of a position as a lazy view (:class:`LegalMoves`), and the moves
played since the start as a persistent linked list (:class:`History`).

Both are importable from :mod:`referee.game`, and keep that module as theirs
(in pickles and messages), as they did before they moved here.

    >>> past = History.begin(None).push("a")
    >>> LegalMoves(lambda: ["b", "c"]) == ["b", "c"], past.moves()
    (True, ('a',))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

__all__ = ["HIDDEN_START", "NO_HISTORY", "History", "LegalMoves"]

MoveT = TypeVar("MoveT")


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


# Their home is the protocol's module, where they were first defined: pickles
# name them there (the markers pickle as referee.game's globals of their names).
LegalMoves.__module__ = History.__module__ = _Marker.__module__ = "referee.game"
