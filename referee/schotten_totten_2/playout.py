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
from referee.schotten_totten_2.steps import control, draw, end_turn, place, play, shuffle
from referee.schotten_totten_2.table import (
    CONTROL,
    DONE,
    DRAW,
    OIL,
    PASS,
    RETREAT,
    RETREATS_FROM,
    SHUFFLE,
    TILES_IN,
    Table,
    legal_actions,
    plays_after_opening,
    provable,
)
from referee.schotten_totten_2.wall import TILES

__all__ = ["Policy", "playout"]

_SHUFFLING = Phase.SHUFFLE
_OPENING, _PLAY, _AFTER_PLAY = Phase.OPENING, Phase.PLAY, Phase.AFTER_PLAY


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
    if policy is None and max_plies is None and not table.tactics:
        return _plain(table, rng, trace)
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


def _plain(t: Table, rng: random.Random, trace: list[int] | None) -> Outcome:
    """The default policy in the base game without a ply limit, written out
    over the table's lists: the same rules and the same choices as
    :func:`_general` (a test plays both). The legal actions of a ply are
    counted, not listed: card plays (each card of the hand at each open
    tile), then the opening actions, then the pass when it is allowed."""
    record = None if trace is None else trace.append
    rng_random = rng.random
    attacker = t.attacker
    hands, sides, completed = t.hands, t.sides, t.completed
    while True:
        p, phase = t.to_move, t.phase
        if p == attacker:
            # Control as soon as it is proved, the lowest tile first.
            tile = _first_control(t)
            if tile >= 0:
                if record is not None:
                    record(CONTROL + tile)
                control(t, tile)
                if t.outcome is not None:
                    return t.outcome
                continue
        if phase is _OPENING or phase is _PLAY:
            hand = hands[p]
            opened = [s for s in range(TILES) if completed[2 * s + p] < 0]
            width = len(opened)
            plays = len(hand) * width
            openings: tuple[int, ...] = ()
            if phase is _OPENING:
                held = 0
                for s in range(TILES):
                    if sides[2 * s + attacker]:
                        held |= 1 << s
                if p == attacker:
                    openings = RETREATS_FROM[held]
                elif t.oil:
                    openings = tuple(OIL + s for s in TILES_IN[held])
            count = plays + len(openings)
            if not plays and not (phase is _OPENING and plays_after_opening(t, p)):
                count += 1  # the pass, last
            pick = int(rng_random() * count) if count > 1 else 0
            if pick < plays:
                card = hand.pop(pick // width)
                tile = opened[pick % width]
                if record is not None:
                    record(card * TILES + tile)
                place(t, card, tile, p)
                t.phase = _AFTER_PLAY
                t.ply += 1
                continue
            action = openings[pick - plays] if pick - plays < len(openings) else PASS
            if record is not None:
                record(action)
            play(t, action)
            continue
        if phase is _AFTER_PLAY and t.deck:
            if record is not None:
                record(DRAW)
            draw(t, True)
        else:
            if record is not None:
                record(DONE)
            end_turn(t)
        if t.outcome is not None:
            return t.outcome


def _first_control(t: Table) -> int:
    """The lowest tile where the attacker's control is proved (-1: none)."""
    completed = t.completed
    attacker = t.attacker
    for tile in range(TILES):
        if completed[2 * tile + attacker] >= 0 and provable(t, tile):
            return tile
    return -1
