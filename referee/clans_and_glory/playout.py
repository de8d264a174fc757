"""Playouts: a game run to its end on the integer rules, for search and statistics.

:func:`playout` plays from a full state to the end and returns the outcome,
without move objects and without a history; the state itself is not changed.
Each ply runs the same rules as :meth:`State.play
<referee.clans_and_glory.State.play>` (:mod:`~referee.clans_and_glory.rules`:
``Board.options``, ``refusal_of``, ``Board.placed``) and the same scoring
(:func:`~referee.clans_and_glory.scoring.final_outcome`)::

    >>> import random
    >>> from referee.clans_and_glory import new_game
    >>> game = new_game(players=3, seed=1)
    >>> outcome = playout(game, random.Random(7))
    >>> outcome.reason in ("most_points", "most_cards", "shared"), len(outcome.scores)
    (True, 3)
    >>> playout(game, random.Random(7)) == outcome  # the same seed, the same game
    True

A policy chooses among the legal **action ids** of
:mod:`referee.clans_and_glory.actions` (ascending): here, always the first,
with the moves played recorded in ``trace``::

    >>> from referee.clans_and_glory.actions import action_space
    >>> first = lambda board, legal, rng: legal[0]
    >>> trace = []
    >>> outcome = playout(game, random.Random(0), first, trace=trace)
    >>> state = game
    >>> for action in trace:
    ...     state = state.play(action_space(game).move_of(action))
    >>> state.outcome == outcome, len(trace)
    (True, 24)

A player's view hides the other hands: determinize it first
(:func:`~referee.clans_and_glory.determinize.determinize`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from referee.clans_and_glory.cards import CARDS
from referee.clans_and_glory.rules import Board, action_ids, nth_placement, refusal_of
from referee.clans_and_glory.state import State
from referee.game import Outcome, Termination, check_max_plies, check_rng

__all__ = ["Policy", "playout"]

#: A policy: given the board (the position as small integers), the legal action
#: ids in ascending order and the playout's random source, the id to play.
Policy = Callable[[Board, Sequence[int], random.Random], int]


def playout(
    state: State,
    rng: random.Random,
    policy: Policy | None = None,
    *,
    max_plies: int | None = None,
    trace: list[int] | None = None,
) -> Outcome:
    """Play ``state`` to its end and return the outcome (``state`` is unchanged).

    The default policy picks each legal action with the same chance: it draws
    ``rng.randrange(n)`` over the ``n`` legal actions in ascending id order,
    which is ``rng.choice`` of their list, without building the list.
    ``policy``, when given, gets ``(board, legal_ids, rng)`` and returns one of
    the ids; an id that is not legal is a ``ValueError``. ``max_plies`` cuts the
    game short with a ``ply_limit`` outcome (no winner); ``trace``, when given,
    receives every action id played. A game already over returns its outcome.

    Raises ``ValueError`` for a view with a hidden hand (determinize it first)
    and ``TypeError`` for something that is not a Clans and Glory state.
    """
    if not isinstance(state, State):
        raise TypeError(f"playout takes a Clans and Glory State, not {type(state).__name__}")
    check_rng(rng)
    check_max_plies(max_plies)
    if state.outcome is not None:
        return state.outcome
    board = state.board
    if None in board.hands:
        raise ValueError(
            "this state is a view that hides a hand: determinize(view, rng) gives a full state"
        )
    layout, players = state.layout, state.num_players
    seats = len(layout.seats)
    last = players - 1
    choose = rng.randrange
    plies = 0
    while True:
        if max_plies is not None and plies >= max_plies:
            return Outcome(Termination.PLY_LIMIT, None)
        options, face_down, pairs = board.options()
        shields = board.supply[board.to_move] > 0
        if policy is None:
            card, seat, shield = nth_placement(
                options, shields, choose(pairs * 2 if shields else pairs)
            )
        else:
            card, seat, shield = _chosen(board, state, options, face_down, shields, policy, rng)
        if trace is not None:
            trace.append((card * seats + seat) * 4 + 2 * face_down + shield)
        mover = board.to_move
        board = board.placed(layout, card, seat, face_down, shield)
        plies += 1
        if mover == last and not board.hand_sizes[last]:
            return board.scored(layout)


def _chosen(
    board: Board,
    state: State,
    options: list[tuple[int, int]],
    face_down: bool,
    shields: bool,
    policy: Policy,
    rng: random.Random,
) -> tuple[int, int, bool]:
    """The placement ``policy`` picks, checked by the rules: ``(card, seat, shield)``."""
    seats = len(state.layout.seats)
    legal = action_ids(options, face_down, shields, seats)
    action = policy(board, legal, rng)
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 42 * seats * 4:
        raise ValueError(f"the policy chose {action!r}, which is not an action id")
    rest, option = divmod(action, 4)
    card, seat = divmod(rest, seats)
    down, shield = option >= 2, option % 2 == 1
    refused = refusal_of(board, state.layout, False, card, seat, down, shield)
    if refused is not None:
        move = f"{CARDS[card]}@{state.layout.seats[seat]}"
        raise ValueError(
            f"the policy chose action {action} ({move}), which is illegal: {refused[1]}"
        )
    return card, seat, shield
