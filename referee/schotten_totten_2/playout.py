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
from bisect import insort

from referee.game import Outcome, check_rng
from referee.line.playout import Policy, choose, ply_limit
from referee.schotten_totten_2.state import Phase, State
from referee.schotten_totten_2.steps import control, end_turn, next_turn, place, play, shuffle
from referee.schotten_totten_2.table import (
    CONTROL,
    DONE,
    DRAW,
    OIL,
    PASS,
    RETREAT,
    RETREATS_FROM,
    SHUFFLE,
    SIZES,
    TILES_IN,
    VALUES,
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
    tile), then the opening actions, then the pass when it is allowed. The
    tiles with room on each side, those holding the attacker's cards and those
    where its side is complete are kept as masks, read again from the table
    after every step but the common ones (a card laid, a draw)."""
    record = None if trace is None else trace.append
    rng_random = rng.random
    attacker = t.attacker
    hands, sides, masks, completed, kept, damaged = (
        t.hands,
        t.sides,
        t.masks,
        t.completed,
        t.kept,
        t.damaged,
    )
    deck = t.deck  # the base game has no support: the deck stays this list
    rooms, held, full = _masks(t)
    while True:
        p, phase = t.to_move, t.phase
        if p == attacker and full:
            # Control as soon as it is proved, the lowest tile first.
            tile = _first_control(t, full)
            if tile >= 0:
                if record is not None:
                    record(CONTROL + tile)
                control(t, tile)
                if t.outcome is not None:
                    return t.outcome
                rooms, held, full = _masks(t)
                continue
        if phase is _OPENING or phase is _PLAY:
            hand = hands[p]
            opened = TILES_IN[rooms[p]]
            width = len(opened)
            plays = len(hand) * width
            openings: tuple[int, ...] = ()
            if phase is _OPENING and held:
                if p == attacker:
                    openings = RETREATS_FROM[held]
                elif t.oil:
                    openings = _OILS_AT[held]
            count = plays + len(openings)
            if not plays and not (phase is _OPENING and plays_after_opening(t, p)):
                count += 1  # the pass, last
            pick = int(rng_random() * count) if count > 1 else 0
            if pick >= plays:
                action = openings[pick - plays] if pick - plays < len(openings) else PASS
                if record is not None:
                    record(action)
                play(t, action)
                rooms, held, full = _masks(t)
                continue
            # A card laid (steps.place, inline but for chicken against cook).
            card = hand.pop(pick // width)
            tile = opened[pick % width]
            if record is not None:
                record(card * TILES + tile)
            i = 2 * tile + p
            value = VALUES[card]
            if (value == 0 or value == 11) and masks[i ^ 1] >> (card + 11 - 2 * value) & 1:
                place(t, card, tile, p)
                rooms, held, full = _masks(t)
            else:
                side = sides[i]
                side.append(card)
                bit = 1 << card
                masks[i] |= bit
                t.seen |= bit
                kept[tile] = None
                if len(side) == SIZES[tile][damaged[tile]]:
                    completed[i] = t.ply
                    rooms[p] &= ~(1 << tile)
                    if p == attacker:
                        full |= 1 << tile
                if p == attacker:
                    held |= 1 << tile
            t.phase = _AFTER_PLAY
            t.ply += 1
            continue
        if phase is _AFTER_PLAY and deck:
            # Draw (steps.draw), ending the turn.
            if record is not None:
                record(DRAW)
            insort(hands[p], deck.pop())
            if not deck:
                t.exhausted = True
            next_turn(t)
        else:
            if record is not None:
                record(DONE)
            end_turn(t)
        if t.outcome is not None:
            return t.outcome


#: tiles mask -> the oil ids at those tiles
_OILS_AT = tuple(tuple(OIL + s for s in tiles) for tiles in TILES_IN)


def _masks(t: Table) -> tuple[list[int], int, int]:
    """Per player the tiles where its side has room; the tiles holding the
    attacker's cards; those where its side is complete."""
    completed, sides, attacker = t.completed, t.sides, t.attacker
    rooms = [0, 0]
    held = full = 0
    for tile in range(TILES):
        bit = 1 << tile
        for p in (0, 1):
            if completed[2 * tile + p] < 0:
                rooms[p] |= bit
        i = 2 * tile + attacker
        if sides[i]:
            held |= bit
        if completed[i] >= 0:
            full |= bit
    return rooms, held, full


def _first_control(t: Table, full: int) -> int:
    """The lowest tile of ``full`` (the attacker's complete sides) where its
    control is proved (-1: none); the table's kept verdicts first."""
    seen, kept = t.seen, t.kept
    while full:
        low = full & -full
        full ^= low
        tile = low.bit_length() - 1
        known = kept[tile]
        if known is not None:
            if known[0]:
                if not known[1] & ~seen:
                    return tile
            elif not known[1] & seen:
                continue
        if provable(t, tile):
            return tile
    return -1
