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
from bisect import bisect_left, insort
from collections.abc import Callable

from referee.game import Outcome, check_max_plies, check_rng
from referee.line.playout import Policy, choose, ply_limit
from referee.schotten_totten_2.state import Phase, State
from referee.schotten_totten_2.steps import control, end_turn, next_turn, place, play, shuffle
from referee.schotten_totten_2.table import (
    CONTROL,
    DONE,
    DRAW,
    DRAW_TACTIC,
    OIL,
    ON_TILE,
    PASS,
    REDEPLOY_CARD,
    RETREAT,
    RETREATS_FROM,
    SHUFFLE,
    SIEGE,
    SIZES,
    TILES_IN,
    VALUES,
    Table,
    action_count,
    action_move,
    legal_actions,
    plays_after_opening,
    provable,
    replies,
)
from referee.schotten_totten_2.wall import TILES

__all__ = ["Policy", "playout"]

_SHUFFLING = Phase.SHUFFLE
_OPENING, _PLAY, _AFTER_PLAY, _AFTER_PASS = (
    Phase.OPENING,
    Phase.PLAY,
    Phase.AFTER_PLAY,
    Phase.AFTER_PASS,
)


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
    check_max_plies(max_plies)
    table = Table(state)
    if table.outcome is not None:
        return table.outcome
    if policy is None and max_plies is None:
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
    """The default policy without a ply limit, written out over the table's
    lists: the same rules and the same choices as :func:`_general` (a test
    plays both). The legal actions of a ply are counted, not listed: card
    plays (each card the mover may lay at each open tile), then the opening
    actions, then the pass when it is allowed, then the action cards' moves
    (listed). The tiles with room on each side, those holding the attacker's
    cards and those where its side is complete are kept as masks (see
    :func:`_masks`), read again from the table after every step but the
    common ones (a card laid, a draw)."""
    record = ([] if trace is None else trace).append
    rng_random = rng.random
    attacker = t.attacker
    marks = _masks(t)
    while True:
        p, phase = t.to_move, t.phase
        if p == attacker and marks[3]:
            # Control as soon as it is proved, the lowest tile first.
            tile = _first_control(t, marks[3])
            if tile >= 0:
                record(CONTROL + tile)
                control(t, tile)
                if t.outcome is not None:
                    return t.outcome
                marks = _masks(t)
                continue
        if phase is _OPENING or phase is _PLAY:
            if _play_or_open(t, p, marks, rng_random, record):
                marks = _masks(t)
            continue
        if phase is _AFTER_PLAY:
            _draw(t, p, rng_random, record)
        elif phase is _AFTER_PASS:
            record(DONE)
            end_turn(t)
        elif phase is _SHUFFLING:
            # Chance: where support's two cards land (the descriptor's draw).
            first, second = rng.sample(range(1, len(t.deck) + 3), 2)
            record(SHUFFLE)
            shuffle(t, first, second)
        else:
            # The answer to an exchange, uniformly.
            action = choose(replies(t), rng, t, None)
            record(action)
            play(t, action)
        if t.outcome is not None:
            return t.outcome


def _play_or_open(
    t: Table,
    p: int,
    marks: list[int],
    rng_random: Callable[[], float],
    record: Callable[[int], None],
) -> bool:
    """The mover lays a card, takes an opening action, passes or plays an
    action card, uniformly among its legal actions (no control is provable
    here); whether the table changed beyond what ``marks`` follows."""
    hand = t.hands[p]
    opened = TILES_IN[marks[p]]
    width = len(opened)
    actions = 0
    if hand and hand[-1] >= SIEGE:
        tactic_ok = t.tactics_played[p] <= t.tactics_played[1 - p]
        cards = _layable(hand, tactic_ok)
        if tactic_ok and hand[-1] >= REDEPLOY_CARD:
            actions = action_count(t, p, opened)
    else:
        cards = hand  # siege cards only: each once
    plays = len(cards) * width
    openings: tuple[int, ...] = ()
    opening = t.phase is _OPENING
    if opening and marks[2]:
        if p == t.attacker:
            openings = RETREATS_FROM[marks[2]]
        elif t.oil:
            openings = _OILS_AT[marks[2]]
    count = plays + len(openings)
    if not plays and not actions and not (opening and plays_after_opening(t, p)):
        count += 1  # the pass, after the openings
    after = count
    count += actions
    pick = int(rng_random() * count) if count > 1 else 0
    if pick < plays:
        card = cards[pick // width]
        tile = opened[pick % width]
        record(card * TILES + tile)
        return _lay(t, p, card, tile, marks)
    if pick >= after:
        action = action_move(t, p, opened, pick - after)
        record(action)
        play(t, action)
        return True
    if pick - plays < len(openings):
        action = openings[pick - plays]
        record(action)
        play(t, action)
        _opened(t, marks, action)
        return False
    record(PASS)
    play(t, PASS)
    return False


def _opened(t: Table, marks: list[int], action: int) -> None:
    """``marks`` after the opening ``action``: a retreat empties the
    attacker's sides at its tiles, oil takes a card from one."""
    attacker = t.attacker
    if action < OIL:
        tiles = action - RETREAT + 1
        marks[attacker] |= tiles
        marks[2] &= ~tiles
        marks[3] &= ~tiles
    else:
        tile = action - OIL
        marks[attacker] |= 1 << tile
        marks[3] &= ~(1 << tile)
        if not t.sides[2 * tile + attacker]:
            marks[2] &= ~(1 << tile)


def _layable(hand: list[int], tactic_ok: bool) -> list[int]:
    """The distinct cards of ``hand`` that may be laid at a tile: siege cards,
    and elite troops when the tactic limit allows."""
    siege = bisect_left(hand, SIEGE)
    cards = hand[:siege]
    if tactic_ok:
        cards += sorted(set(hand[siege : bisect_left(hand, ON_TILE, siege)]))
    return cards


def _lay(t: Table, p: int, card: int, tile: int, marks: list[int]) -> bool:
    """``card`` laid at ``tile`` (``steps.place``, written out but for chicken
    against cook, which :func:`~referee.schotten_totten_2.steps.place` plays);
    whether the table changed beyond what ``marks`` follows."""
    t.hands[p].remove(card)
    if card >= SIEGE:
        t.tactics_played[p] += 1
    i = 2 * tile + p
    value = VALUES[card]
    changed = False
    if (value == 0 or value == 11) and t.masks[i ^ 1] >> (card + 11 - 2 * value) & 1:
        place(t, card, tile, p)
        changed = True
    else:
        side = t.sides[i]
        side.append(card)
        if card < SIEGE:
            bit = 1 << card
            t.masks[i] |= bit
            t.seen |= bit
        t.kept[tile] = None
        if len(side) == SIZES[tile][t.damaged[tile]]:
            t.completed[i] = t.ply
            marks[p] &= ~(1 << tile)
            if p == t.attacker:
                marks[3] |= 1 << tile
        if p == t.attacker:
            marks[2] |= 1 << tile
    t.phase = _AFTER_PLAY
    t.ply += 1
    return changed


def _draw(t: Table, p: int, rng_random: Callable[[], float], record: Callable[[int], None]) -> None:
    """After a card: draw from the siege deck or the tactic pile (uniformly
    when both have cards), ending the turn; or end it when both are empty."""
    deck, tactic_deck = t.deck, t.tactic_deck
    if deck and tactic_deck:
        siege = rng_random() < 0.5
    elif deck or tactic_deck:
        siege = bool(deck)
    else:
        record(DONE)
        end_turn(t)
        return
    if siege:
        record(DRAW)
        insort(t.hands[p], deck.pop())
        if not deck:
            t.exhausted = True
    else:
        record(DRAW_TACTIC)
        insort(t.hands[p], tactic_deck.pop())
    next_turn(t)


#: tiles mask -> the oil ids at those tiles
_OILS_AT = tuple(tuple(OIL + s for s in tiles) for tiles in TILES_IN)


def _masks(t: Table) -> list[int]:
    """Tiles as masks: those where each player's side has room (players 0
    and 1), those holding the attacker's cards, those where its side is
    complete."""
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
    return [rooms[0], rooms[1], held, full]


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
