"""Immutable states of games on a line of contested places: the shared base
of their states, small tuple updates and refusals with evidence.

Every game's state is a frozen, slotted dataclass that subclasses
:class:`LineState`; a copy with some fields changed is ``dataclasses.replace``
(or a game's own hand-written constructor on its hot paths):

>>> import dataclasses
>>> from referee import schotten_totten as st
>>> game = st.new_game(seed=1)
>>> dataclasses.replace(game, ply=5).ply
5
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from referee.errors import IllegalMoveError, InvalidMoveError
from referee.game import (
    NO_HISTORY,
    History,
    LegalMoves,
    Outcome,
    Termination,
    check_player,
    referee_end,
)

if TYPE_CHECKING:
    from referee.records import Record

__all__ = [
    "LineState",
    "check_viewer",
    "illegal",
    "not_your_turn",
    "place_at",
    "replaced",
]

_T = TypeVar("_T")
MoveT = TypeVar("MoveT")


def replaced(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    """``items`` with the item at ``index`` replaced by ``value``.

    >>> replaced((1, 2, 3), 1, 9)
    (1, 9, 3)
    """
    return (*items[:index], value, *items[index + 1 :])


def illegal(move: object, reason: str, why: str) -> IllegalMoveError:
    """The refusal of ``move`` (quoted by its text) with a reason code.

    >>> error = illegal("R7@3", "side_full", "your side of stone 3 is full")
    >>> error.reason, str(error)
    ('side_full', "illegal move 'R7@3': your side of stone 3 is full")
    """
    return IllegalMoveError(reason, f"illegal move {str(move)!r}: {why}")


def not_your_turn(move: object, reason: str, mover: int, player: int) -> IllegalMoveError:
    """The refusal of ``move`` tried by ``player`` while ``mover`` is to move.

    >>> str(not_your_turn("pass", "not_your_turn", 0, 1))
    "illegal move 'pass': it is player 1's turn, not player 2's"
    """
    return illegal(move, reason, f"it is player {mover + 1}'s turn, not player {player + 1}'s")


def place_at(move: object, number: int, places: tuple[_T, ...], reason: str, noun: str) -> _T:
    """The place numbered ``number`` (from 1) that ``move`` names, or its refusal.

    >>> place_at("claim 3", 3, ("a", "b", "c"), "no_such_stone", "stone")
    'c'
    >>> place_at("claim 4", 4, ("a", "b", "c"), "no_such_stone", "stone")
    Traceback (most recent call last):
    ...
    referee.errors.IllegalMoveError: illegal move 'claim 4': there is no stone 4 (stones are 1-3)
    """
    if not 1 <= number <= len(places):
        raise illegal(move, reason, f"there is no {noun} {number} ({noun}s are 1-{len(places)})")
    return places[number - 1]


def check_viewer(player: object) -> None:
    """Refuse a viewer that is not 0, 1 or ``None`` (a spectator).

    >>> check_viewer(2)
    Traceback (most recent call last):
    ...
    ValueError: player must be 0 or 1 (or None for a spectator), not 2
    """
    if player is not None and (isinstance(player, bool) or player not in (0, 1)):
        raise ValueError(f"player must be 0 or 1 (or None for a spectator), not {player!r}")


# --- the state every game on a line shares --------------------------------------------


class LineState(Generic[MoveT]):
    """What every two-player game on a line does the same way, for its state
    (a frozen, slotted dataclass that subclasses this): ending, resigning,
    history, records, views, legality and the checks every move goes through
    before the game's own rules (:meth:`_checked`).

    A game sets the class attributes (plain attributes, not dataclass fields)
    ``_NAME`` (its name in messages), ``_MOVE_TYPES`` (its move classes),
    ``_GAME_OVER`` and ``_NOT_YOUR_TURN`` (its reason codes), ``_parse`` (its
    move parser, as a ``staticmethod``) and, if its views mask moves,
    ``_as_seen`` (the same for every viewer); it overrides ``_view_changes`` if
    its views hide more than the hands and the piles' order; and it defines
    ``parse_move``, ``_apply`` (its rules: a checked move and the history of
    the state it makes), ``generate_legal_moves`` and ``_render``.

    >>> from referee import schotten_totten as st
    >>> game = st.new_game(seed=1)
    >>> isinstance(game, LineState), game.num_players, game.is_game_over()
    (True, 2, False)
    """

    __slots__ = ()

    _NAME: ClassVar[str]
    #: The field that holds the game's places (stones, tiles).
    _PLACES: ClassVar[str] = "stones"
    _MOVE_TYPES: ClassVar[frozenset[type]]
    _GAME_OVER: ClassVar[str]
    _NOT_YOUR_TURN: ClassVar[str]

    if TYPE_CHECKING:

        @property
        def outcome(self) -> Outcome | None: ...

        @property
        def past(self) -> History[MoveT]: ...

        @property
        def to_move(self) -> int: ...

        @property
        def hands(self) -> tuple[tuple[Any, ...] | None, ...]: ...

    # --- the game's own parts -----------------------------------------------------

    def parse_move(self, text: str) -> MoveT:
        """Read a move in the game's notation."""
        raise NotImplementedError

    def generate_legal_moves(self) -> list[MoveT]:
        """Every legal move for the player to move, as a new list."""
        raise NotImplementedError

    def _apply(self, move: MoveT, past: History[MoveT]) -> Self:
        """The state after ``move`` (past the checks of :meth:`_checked`), whose
        history is ``past``; raises ``IllegalMoveError`` if the rules refuse it."""
        raise NotImplementedError

    def _render(self) -> str:
        raise NotImplementedError

    @staticmethod
    def _parse(text: str) -> Any:
        """The game's move parser (its module function: no method call on the replay path)."""
        raise NotImplementedError

    @staticmethod
    def _as_seen(move: MoveT) -> MoveT:
        """``move`` as a player's view shows it in the history (by default, as played)."""
        return move

    # --- shared ---------------------------------------------------------------------

    def _changed(self, **changes: Any) -> Self:
        """A copy with the named fields changed (``dataclasses.replace``: checked,
        for the paths that are not hot: ends, views, deals)."""
        changed: Self = dataclasses.replace(self, **changes)  # type: ignore[type-var]
        return changed

    def is_game_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    @property
    def num_players(self) -> int:
        """A game on a line is a game for two."""
        return 2

    @property
    def history(self) -> tuple[MoveT, ...]:
        """The moves played since the start (empty for a state set up from a position).

        >>> from referee import schotten_totten as st
        >>> game = st.new_game(deck=st.CLAN_CARDS.cards)
        >>> [str(m) for m in game.play("R4@1").play("draw").history]
        ['R4@1', 'draw']
        """
        return self.past.moves()

    def legal_moves(self) -> LegalMoves[MoveT]:
        """Every legal move for the player to move, as a lazy view
        (see :class:`~referee.game.LegalMoves` and :meth:`generate_legal_moves`)."""
        return LegalMoves(self._legal_sequence)

    def _legal_sequence(self) -> Sequence[MoveT]:
        """The legal moves as :meth:`legal_moves` reads them: by default
        :meth:`generate_legal_moves`; a game may give a sequence whose moves
        are made only when asked for (the same moves in the same order)."""
        return self.generate_legal_moves()

    def is_legal(self, move: MoveT | str, *, player: int | None = None) -> bool:
        """Whether ``move`` may be played now (by ``player``, when given)."""
        try:
            self._play_untracked(move, player)
        except ValueError:
            return False
        return True

    def refusal(self, move: MoveT | str, *, player: int | None = None) -> IllegalMoveError | None:
        """Why ``move`` is refused (the error :meth:`play` would raise), or ``None``
        if it is legal, as in every game; an ``InvalidMoveError`` for unreadable text.

        >>> from referee import schotten_totten as st
        >>> st.new_game(seed=1).refusal("draw").reason == "must_play_first"
        True
        """
        try:
            self.play(move, player=player)
        except IllegalMoveError as error:
            return error
        return None

    def is_chance_node(self) -> bool:
        """Whether the next ply is chance (a game with explicit chance plies says when)."""
        return False

    def chance_outcomes(self) -> list[tuple[MoveT, float]]:
        """The outcomes of a chance ply with their chances (none by default)."""
        return []

    def play(self, move: MoveT | str, *, player: int | None = None) -> Self:
        """The state after ``move``. Raises ``IllegalMoveError`` (or
        ``InvalidMoveError`` for unreadable text) and changes nothing if refused.

        ``player``, when given, is who is trying to move (refused with
        ``not_your_turn`` if it is not that player's decision). The new state's
        history is this one's and ``move``: one node per ply, shared.
        """
        checked = self._checked(move, player)
        past = self.past
        # History.push, inlined: this is the replay path.
        return self._apply(checked, _tuple_new(History, (past, checked, past[2] + 1, None)))

    def _play_untracked(self, move: MoveT | str, player: int | None = None) -> Self:
        """:meth:`play` without extending :attr:`history`, for validation, which
        replays whole corpora and never reads it (the state's history is stale)."""
        return self._apply(self._checked(move, player), self.past)

    def _checked(self, move: MoveT | str, player: int | None) -> MoveT:
        """``move`` (read from its text) after the checks every move goes
        through first: a move of this game, a game not over, the mover's turn."""
        checked: MoveT = self._parse(move) if isinstance(move, str) else move
        if type(checked) not in self._MOVE_TYPES:
            raise InvalidMoveError(
                f"malformed move {checked!r}: not a {self._NAME} move (give a move or its text)"
            )
        if self.outcome is not None:
            raise illegal(checked, self._GAME_OVER, "the game is over")
        if player is not None and check_player(player, 2) != self.to_move:
            raise not_your_turn(checked, self._NOT_YOUR_TURN, self.to_move, player)
        return checked

    def resign(self, player: int) -> Self:
        """The game ended by ``player``'s resignation: the other player wins.

        >>> from referee import schotten_totten_2 as st2
        >>> st2.new_game(seed=1).resign(0).outcome.result()
        'player 2 wins (resignation)'
        """
        return self.end(Termination.RESIGNATION, loser=player)

    def end(self, termination: Termination, *, loser: int | None = None) -> Self:
        """The game ended by a referee: ``resignation``, ``timeout`` or ``forfeit``
        of ``loser`` (the other player wins), or ``ply_limit`` (no winner)."""
        if self.outcome is not None:
            raise IllegalMoveError(
                self._GAME_OVER, f"cannot end with {termination}: the game is over"
            )
        return self._changed(outcome=referee_end(termination, loser, 2))

    def to_record(self) -> Record:
        """The game so far as a record (full when the deal is known, else public).

        >>> from referee import schotten_totten as st
        >>> from referee.records import validate
        >>> game = st.new_game(deck=st.CLAN_CARDS.cards).play("R2@5").play("draw").resign(1)
        >>> record = game.to_record()
        >>> record.moves, record.result, validate(record).legal
        (('R2@5', 'draw'), {'winner': 0, 'reason': 'resignation', 'loser': 1}, True)
        """
        start, hidden = self.past.origin()
        if not isinstance(start, type(self)):
            raise ValueError("this state was set up from a position: it has no history to record")
        from referee.games import descriptor_of

        game = descriptor_of(self)
        if game is None:
            raise ValueError(f"no game in referee.games declares {type(self).__name__}")
        game_format: Any = game.format
        record: Record = game_format.record_of(start, self.history, self.outcome, public=hidden)
        return record

    @classmethod
    def _dealt(
        cls, rules: Any, order: Sequence[Any], tactics: Sequence[Any], **fields: Any
    ) -> Self:
        """The start of a game dealt from ``order``: the first hand, the second
        hand, then the draw pile (top first); ``tactics`` is the tactic pile.
        ``fields`` are the game's own (who moves first, ...)."""
        size = rules.hand_size
        state = cls(
            rules=rules,  # type: ignore[call-arg]
            hands=(tuple(order[:size]), tuple(order[size : 2 * size])),
            hand_sizes=(size, size),
            deck=tuple(order[2 * size :]),
            deck_size=len(order) - 2 * size,
            tactic_deck=tuple(tactics),
            tactic_deck_size=len(tactics),
            **fields,
        )
        return state._changed(past=History.begin(state))

    @classmethod
    def _hidden_deal(cls, rules: Any, cards: int, tactics: int, **fields: Any) -> Self:
        """The start of a game whose deal is unknown (for public records): both
        hands and the piles hidden, only their sizes known, from ``cards`` in the
        main pile and ``tactics`` in the tactic pile before the deal."""
        size = rules.hand_size
        state = cls(
            rules=rules,  # type: ignore[call-arg]
            hands=(None, None),
            hand_sizes=(size, size),
            deck=None,
            deck_size=cards - 2 * size,
            tactic_deck=None,
            tactic_deck_size=tactics,
            **fields,
        )
        return state._changed(past=History.begin(state))

    def _view_changes(self, player: int | None) -> dict[str, Any]:
        """The fields a game hides or rewrites in ``player``'s view beyond the
        hands and the piles' order (by default none)."""
        return {}

    def _hidden_from(self, player: int | None, told: History[MoveT] = NO_HISTORY) -> Self:
        """This position as ``player`` (``None``: a spectator) sees it, with the
        history ``told`` (by default none): the other hand (both for a
        spectator) and the piles' order hidden, and the game's own
        :meth:`_view_changes`. Its places are copies that have proved nothing
        yet: a view shares no place (and so no kept verdict) with the state it
        shows, so nothing done to a view can change the referee's verdicts."""
        hands = self.hands
        places = tuple(
            p._remade(p.sides, p.completed, p.masks) for p in getattr(self, self._PLACES)
        )
        return self._changed(
            hands=(None, None) if player is None else replaced(hands, 1 - player, None),
            deck=None,
            tactic_deck=None,
            past=told,
            **{self._PLACES: places},
            **self._view_changes(player),
        )

    def _viewed(self, player: int | None, past: History[MoveT] | None = None) -> Self:
        """What ``player`` can see (see :meth:`_hidden_from`), with a history of
        its own: ``past`` (by default the whole history) told as a viewer sees
        it, each move through :meth:`_as_seen`, from the start as a spectator
        sees it. The view shares nothing with the full state that its player
        may not know: not a node of its history, not its start. Telling the
        history costs a node per ply (views are not on the playouts' path)."""
        check_viewer(player)
        told = (self.past if past is None else past).as_seen(self._as_seen, _public_start)
        return self._hidden_from(player, told)

    def __str__(self) -> str:
        return self._render()

    def _repr_svg_(self) -> str:
        """The picture of the position, for Jupyter (see :mod:`referee.svg`)."""
        from referee.svg import render_svg

        svg: str = render_svg(self)
        return svg


def _public_start(start: object) -> object:
    """What every viewer may know of a game's start: the position with both
    hands and the piles' order hidden, and no history (``History.as_seen``)."""
    if isinstance(start, LineState):
        return start._hidden_from(None)
    return None


_tuple_new = tuple.__new__
