"""Playouts: a Schotten Totten 2 game run to its end on the integer core, for
programs that search (Monte Carlo tree search, determinized sampling...).

:func:`playout` runs from a full state (or from a player's view, once
:func:`~referee.schotten_totten_2.determinize.determinize` has dealt its
hidden cards) to the end of the game, on a
:class:`~referee.schotten_totten_2.table.Table` (cards as kinds, sides as
lists and masks), without move objects and without history, and returns the
:class:`~referee.game.Outcome`. The state is not changed.

Every decision is among the legal **action ids** of
:data:`~referee.schotten_totten_2.actions.ACTIONS`, increasing. By default:

* the attacker declares control as soon as it can be proved (the lowest tile
  first, again and again while one can);
* otherwise one legal action is picked uniformly at random:
  ``legal[int(rng.random() * len(legal))]`` (a single legal action is taken
  without drawing from ``rng``); the answer to an exchange too.

Where support's two cards land in the deck is chance, drawn from ``rng`` as
the game's descriptor draws it (``rng.sample(range(1, size + 1), 2)``, ``size``
the deck with them); ``trace`` records it as the shuffle's one id.

A ``policy(table, legal, rng)`` decides instead (controls and exchange answers
included): it gets the table (read it, never change it), the legal ids and
``rng``, and returns one of the ids (anything else raises ``ValueError``).
``trace``, a list, receives every action played. For the same ``rng`` seed the
same game is played.

>>> import random
>>> from referee.schotten_totten_2 import new_game
>>> from referee.schotten_totten_2.actions import ACTIONS
>>> game = new_game(seed=7)
>>> trace = []
>>> outcome = playout(game, random.Random(1), trace=trace)
>>> outcome.result(), len(trace)
('player 2 wins (siege_held)', 107)
>>> for action in trace:
...     game = game.play(ACTIONS.move_of(action))
>>> game.outcome == outcome
True
"""

from __future__ import annotations

import random

from referee.game import Outcome, check_rng
from referee.line.playout import Policy, choose, ply_limit
from referee.schotten_totten_2.state import Phase, State
from referee.schotten_totten_2.steps import play, shuffle
from referee.schotten_totten_2.table import (
    CONTROL,
    RETREAT,
    SHUFFLE,
    Table,
    legal_actions,
)

__all__ = ["Policy", "playout"]

_SHUFFLING = Phase.SHUFFLE


def playout(
    state: State,
    rng: random.Random,
    policy: Policy | None = None,
    *,
    max_plies: int | None = None,
    trace: list[int] | None = None,
) -> Outcome:
    """Play ``state`` to its end (see the module); at most ``max_plies`` plies
    (then the outcome is a ``ply_limit``, no winner). Raises ``ValueError``
    for a state whose hands or piles are hidden (determinize it first) and
    ``TypeError`` for a ``rng`` that is not a ``random.Random``."""
    check_rng(rng)
    if not isinstance(state, State):
        raise TypeError(f"playout takes a Schotten Totten 2 State, not {type(state).__name__}")
    if max_plies is not None and (type(max_plies) is not int or max_plies < 0):
        raise ValueError(f"max_plies must be a whole number of plies or None, not {max_plies!r}")
    table = Table(state)
    if table.outcome is not None:
        return table.outcome
    return _general(table, rng, policy, -1 if max_plies is None else max_plies, trace)


def _general(
    table: Table, rng: random.Random, policy: Policy | None, limit: int, trace: list[int] | None
) -> Outcome:
    """The playout on :func:`~referee.schotten_totten_2.table.legal_actions`
    and :func:`~referee.schotten_totten_2.steps.play`: any variant, any policy."""
    while table.outcome is None:
        if limit == 0:
            return ply_limit()
        limit -= 1
        if table.phase is _SHUFFLING:
            # Chance: where support's two cards land (the descriptor's draw).
            first, second = rng.sample(range(1, len(table.deck) + 3), 2)
            if trace is not None:
                trace.append(SHUFFLE)
            shuffle(table, first, second)
            continue
        legal = legal_actions(table)
        if policy is None:
            action = _control(legal, table)
            if action < 0:
                action = choose(legal, rng, table, None)
        else:
            action = choose(legal, rng, table, policy)
        if trace is not None:
            trace.append(action)
        play(table, action)
    return table.outcome


def _control(legal: list[int], table: Table) -> int:
    """The lowest provable control among ``legal`` (-1: none)."""
    if table.to_move != table.attacker:
        return -1
    for action in legal:
        if action >= CONTROL:
            return action if action < RETREAT else -1
    return -1
