"""How Clans and Glory states are made from one another: by a move
(:func:`played`, refused first with :func:`refusal`), by a referee's end
(:func:`ended`), as a player's view (:func:`seen_by`) and as a copy with some
parts changed (:func:`replaced`, checked by the constructor).

A :class:`~referee.clans_and_glory.state.State` is immutable: :func:`fill`
is the one place its fields are written, by the constructor and by
``State._made`` (the states the library makes from well-formed ones, with no
checks), before anyone holds the state. The methods of ``State`` ask this
module.

>>> from referee.clans_and_glory import new_game
>>> game = new_game(players=2, seed=7)
>>> after = played(game, game.legal_moves()[0], None)
>>> after.to_move, len(after.history), game.history
(1, 1, ())
>>> ended(after, Termination.RESIGNATION, 1).outcome.result()
'player 1 wins (resignation)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.cards import Card
from referee.clans_and_glory.cards import ID
from referee.clans_and_glory.layout import Layout
from referee.clans_and_glory.moves import Placement, parse_move
from referee.clans_and_glory.placed import check_player as check_seat_player
from referee.clans_and_glory.rules import Board, Reason, refusal_of
from referee.errors import IllegalMoveError, InvalidMoveError
from referee.game import REFEREE_ENDS, Outcome, Termination, check_player, referee_end

if TYPE_CHECKING:
    from collections.abc import Mapping

    from referee.clans_and_glory.state import State

__all__ = [
    "as_move",
    "ended",
    "fill",
    "parts_of",
    "played",
    "refusal",
    "refused",
    "replaced",
    "seen_by",
    "viewer",
]

#: The parts of a state in the order of ``State._made`` (and of pickling).
_Parts = tuple[
    int,
    Layout,
    Board,
    Outcome | None,
    tuple[Placement, ...],
    tuple[Card, ...] | None,
    tuple[int, ...] | None,
]


def fill(
    state: State,
    num_players: int,
    layout: Layout,
    board: Board,
    outcome: Outcome | None,
    history: tuple[Placement, ...],
    deal: tuple[Card, ...] | None,
    removed_ids: tuple[int, ...] | None,
) -> None:
    """Set a new state's fields: the one place they are written (by the
    constructor and ``State._made``), before anyone holds the state."""
    _set(state, "num_players", num_players)
    _set(state, "layout", layout)
    _set(state, "board", board)
    _set(state, "outcome", outcome)
    _set(state, "history", history)
    _set(state, "deal", deal)
    _set(state, "removed_ids", removed_ids)


_set = object.__setattr__


def parts_of(state: State) -> _Parts:
    """The parts ``State._made`` makes ``state`` again from (pickle and copy use them)."""
    return (
        state.num_players,
        state.layout,
        state.board,
        state.outcome,
        state.history,
        state.deal,
        state.removed_ids,
    )


def replaced(state: State, changes: Mapping[str, Any]) -> State:
    """``state`` with some of the constructor's parts changed, checked by the
    constructor (see ``State.replace``)."""
    ended_by = state.outcome
    parts: dict[str, Any] = {
        "num_players": state.num_players,
        "table": state.table,
        "hands": state.hands,
        "shields": state.shields,
        "to_move": state.to_move,
        "layout": state.layout,
        "hand_sizes": state.hand_sizes,
        "removed": state.removed,
        "deal": state.deal,
        "history": state.history,
        "outcome": (
            ended_by if ended_by is not None and ended_by.termination in REFEREE_ENDS else None
        ),
    }
    unknown = sorted(set(changes) - set(parts))
    if unknown:
        raise TypeError(f"State.replace() got an unexpected keyword argument {unknown[0]!r}")
    parts.update(changes)
    if "hands" in changes and "hand_sizes" not in changes and None not in changes["hands"]:
        parts["hand_sizes"] = None  # counted from the new hands
    return type(state)(**parts)


def ended(state: State, termination: Termination, loser: int | None) -> State:
    """``state`` ended by a referee (see ``State.end``)."""
    if state.outcome is not None:
        raise IllegalMoveError(Reason.GAME_OVER, f"cannot end with {termination}: the game is over")
    outcome = referee_end(termination, loser, state.num_players)
    num_players, layout, board, _, history, deal, removed_ids = parts_of(state)
    return state._made(num_players, layout, board, outcome, history, deal, removed_ids)


def as_move(move: object) -> Placement:
    """A move given as a :class:`Placement` or its text (an ``InvalidMoveError`` otherwise)."""
    if isinstance(move, str):
        return parse_move(move)
    if not isinstance(move, Placement):
        raise InvalidMoveError(f"malformed move {move!r}: expected a Placement or its text")
    return move


def refused(state: State, move: Placement, player: int | None) -> tuple[Reason, str] | None:
    """Why the rules refuse ``move`` (by ``player``, when given), or ``None``."""
    if player is not None:
        check_player(player, state.num_players)
    layout = state.layout
    return refusal_of(
        state.board,
        layout,
        state.outcome is not None,
        ID[move.card],
        layout.find(move.seat),
        move.face_down,
        move.shield,
        player,
        move.seat,
    )


def refusal(state: State, move: Placement | str, player: int | None) -> IllegalMoveError | None:
    """The error :func:`played` would raise for ``move``, or ``None`` if it is legal."""
    placement = as_move(move)
    why = refused(state, placement, player)
    if why is None:
        return None
    return IllegalMoveError(why[0], f"illegal move {str(placement)!r}: {why[1]}")


def played(state: State, move: Placement | str, player: int | None) -> State:
    """The state after ``move`` (see ``State.play``), scored once the game is over."""
    placement = move if type(move) is Placement else as_move(move)
    why = refused(state, placement, player)
    if why is not None:
        raise IllegalMoveError(why[0], f"illegal move {str(placement)!r}: {why[1]}")
    layout = state.layout
    board = state.board.placed(
        layout,
        ID[placement.card],
        layout.find(placement.seat),
        placement.face_down,
        placement.shield,
    )
    outcome = board.scored(layout) if board.is_over() else None
    history = (*state.history, placement)
    return state._made(
        state.num_players, layout, board, outcome, history, state.deal, state.removed_ids
    )


def seen_by(state: State, player: int | None) -> State:
    """What ``player`` may see of ``state`` (see ``State.view``)."""
    if player is not None:
        check_seat_player(player, state.num_players)
    seen = state.board.seen_by(player)
    return state._made(state.num_players, state.layout, seen, state.outcome, (), None, None)


def viewer(state: State) -> int | str | None:
    """``"all"`` for a full state; else the player whose view this is (``None``:
    a spectator's)."""
    known = [p for p, hand in enumerate(state.board.hands) if hand is not None]
    if len(known) == state.num_players:
        return "all"
    return known[0] if known else None
