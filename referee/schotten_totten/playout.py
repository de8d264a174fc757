"""Playouts: a Schotten Totten game run to its end on the integer core, for
programs that search (Monte Carlo tree search, determinized sampling...).

:func:`playout` runs from a full state (or from a player's view, once
:func:`~referee.schotten_totten.determinize.determinize` has dealt its hidden
cards) to the end of the game, on a :class:`~referee.schotten_totten.table.Table`
(cards as ids, sides as masks), without move objects and without history, and
returns the :class:`~referee.game.Outcome`. The state is not changed.

Every decision is among the legal **action ids** of
:data:`~referee.schotten_totten.actions.ACTIONS`, increasing. By default:

* a stone is claimed as soon as it can be proved (the lowest stone first,
  again and again while one can), whenever the rules allow claims;
* otherwise one legal action is picked uniformly at random:
  ``legal[int(rng.random() * len(legal))]`` (a single legal action is taken
  without drawing from ``rng``).

A ``policy(table, legal, rng)`` decides instead (claims included): it gets the
table (read it, never change it), the legal ids and ``rng``, and returns one of
the ids (anything else raises ``ValueError``). ``trace``, a list, receives
every action played; played through ``State.play`` (``ACTIONS.move_of``)
they give the same game. For the same ``rng`` seed the same game is played.

>>> import random
>>> from referee.schotten_totten import new_game
>>> from referee.schotten_totten.actions import ACTIONS
>>> game = new_game(seed=7)
>>> trace = []
>>> outcome = playout(game, random.Random(1), trace=trace)
>>> outcome.result(), len(trace)
('player 2 wins (three_adjacent)', 104)
>>> for action in trace:
...     game = game.play(ACTIONS.move_of(action))
>>> game.outcome == outcome
True
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable

from referee.game import Outcome, Termination, check_max_plies, check_rng
from referee.line.claims import plain_verdict
from referee.line.playout import Policy, choose, ply_limit, winner_pattern
from referee.schotten_totten.cards import FORMATION, INDEX, STONES
from referee.schotten_totten.state import STONES_IN, Phase, State
from referee.schotten_totten.steps import claim, draw, end_turn, play
from referee.schotten_totten.table import (
    CLAIM,
    DONE,
    DRAW,
    DRAW_CLAN,
    DRAW_TACTIC,
    PASS,
    Table,
    legal_actions,
    legal_counts,
    provable,
    ruse_actions,
    tactic_plays,
)

__all__ = ["Policy", "playout"]

#: rooms mask -> the stones (from 0) it holds, increasing (512 entries, data).
_STONES_OF = STONES_IN
_PLAY, _AFTER_PLAY, _AFTER_PASS = Phase.PLAY, Phase.AFTER_PLAY, Phase.AFTER_PASS
_RECRUIT_RETURN = Phase.RECRUIT_RETURN


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
        raise TypeError(f"playout takes a Schotten Totten State, not {type(state).__name__}")
    check_max_plies(max_plies)
    table = Table(state)
    if table.outcome is not None:
        return table.outcome
    if policy is None and max_plies is None:
        if table.rules.tactics:
            return _tactics(table, rng, trace)
        return _plain(table, rng, trace)
    return _general(table, rng, policy, -1 if max_plies is None else max_plies, trace)


def _general(
    table: Table, rng: random.Random, policy: Policy | None, limit: int, trace: list[int] | None
) -> Outcome:
    """The playout on :func:`~referee.schotten_totten.table.legal_actions` and
    :func:`~referee.schotten_totten.steps.play`: any variant, any policy."""
    while table.outcome is None:
        if limit == 0:
            return ply_limit()
        limit -= 1
        if policy is None:
            action = _pick(table, rng.random)
        else:
            action = choose(legal_actions(table), rng, table, policy)
        if trace is not None:
            trace.append(action)
        play(table, action)
    return table.outcome


def _tactics(table: Table, rng: random.Random, trace: list[int] | None) -> Outcome:
    """The default policy with tactic cards and without a ply limit: the same
    rules and the same choices as :func:`_general` (a test plays both), with
    the steps between two plays written out: the claims (the lowest provable
    stone, whenever claims may be made), the draw from either pile (uniformly
    when both hold cards: ``int(rng.random() * 2)``, which is
    ``rng.random() < 0.5``) and the end of a turn that draws nothing. A play
    (and the recruiter's cards put back) is picked as :func:`_general` picks it."""
    t = table
    rng_random = rng.random
    record = None if trace is None else trace.append
    # The piles are lists changed in place; no step of this game puts new ones on
    # the table (Schotten Totten 2's support does, its loop reads t.deck anew).
    deck, tactic_deck = t.deck, t.tactic_deck
    after = not t.rules.early_bird  # claims_now after the play, the pass or the recruiter
    while t.outcome is None:
        phase = t.phase
        if phase is _PLAY or phase is _RECRUIT_RETURN:
            action = _pick(t, rng_random)
            if record is not None:
                record(action)
            play(t, action)
            continue
        # After playing or passing (or the recruiter's draws): claims when
        # claims_now allows them (not with Der frühe Vogel) and the mover has
        # a complete side, then the rest of legal_counts's steps, in its order.
        stones = provable(t) if after and t.complete[t.to_move] else ()
        if stones:
            action = CLAIM + stones[0]
            claim(t, stones[0])
        elif phase is _AFTER_PLAY and (deck or tactic_deck):
            clan = bool(deck) and (not tactic_deck or rng_random() < 0.5)
            action = DRAW_CLAN if clan else DRAW_TACTIC
            draw(t, clan)
        else:
            action = DONE
            end_turn(t)
        if record is not None:
            record(action)
    return t.outcome


def _pick(t: Table, rng_random: Callable[[], float]) -> int:
    """The default policy's action (see the module): the lowest claim, else
    ``legal[int(rng.random() * len(legal))]``. The legal actions are counted
    in parts (:func:`~referee.schotten_totten.table.legal_counts`): the clan
    cards' plays (card by card, stone by stone), the tactic cards laid, the
    rest (the claims first, the ids in [CLAIM, PASS)), the ruses' moves; only
    the part picked from is listed, the play at that place made alone."""
    clans, opened, tactics, rest, ruses = legal_counts(t)
    if rest and rest[0] < PASS:
        return rest[0]
    width = len(opened)
    plays = len(clans) * width
    laid = plays + tactics
    listed = laid + len(rest)
    count = listed + ruses
    pick = int(rng_random() * count) if count > 1 else 0
    if pick < plays:
        return clans[pick // width] * STONES + opened[pick % width]
    if pick < laid:
        return tactic_plays(t, opened)[pick - plays]
    if pick < listed:
        return rest[pick - laid]
    return ruse_actions(t, opened)[pick - listed]


def _plain(table: Table, rng: random.Random, trace: list[int] | None) -> Outcome:
    """The default policy without tactic cards and without a ply limit,
    written out over the table's lists, a turn per round: the same rules and
    the same choices as :func:`_general` (a test plays both). Each step names
    the rule it follows."""
    t = table
    hands, deck, sides, counts, completed, kept = (
        t.hands,
        t.deck,
        t.sides,
        t.counts,
        t.completed,
        t.kept,
    )
    rng_random = rng.random
    record = None if trace is None else trace.append
    # When claims are made (rules.claims_now): 1999 before and after the play,
    # Der frühe Vogel only before, 2024 only after.
    before = t.rules.early_bird or t.rules.edition == "1999"
    after = not t.rules.early_bird
    p, phase, ply, seen = t.to_move, t.phase, t.ply, t.seen
    ranks, rooms, complete, owned = _plain_masks(t)
    while True:
        if complete[p] and (before if phase is _PLAY else after):
            # Claims (rules.claim; claims.holds): each provable stone, lowest first.
            t.ply, t.seen = ply, seen
            _plain_claims(t, p, ranks, rooms, complete, owned, record)
            if t.outcome is not None:
                return t.outcome
            ply = t.ply
        if phase is _PLAY:
            # Play a card (rules.play_card), or pass (rules.pass_turn).
            hand = hands[p]
            opened = _STONES_OF[rooms[p]]
            ply += 1
            if not (hand and opened):
                if record is not None:
                    record(PASS)
                phase = _AFTER_PASS
                continue
            width = len(opened)
            count = len(hand) * width
            pick = int(rng_random() * count) if count > 1 else 0
            card = hand.pop(pick // width)
            s = opened[pick % width]
            i = 2 * s + p
            bit = 1 << card
            sides[i] |= bit
            seen |= bit
            kept[i] = kept[i ^ 1] = None  # the stone changed: prove it again
            counts[i] += 1
            if counts[i] == 3:
                completed[i] = ply - 1
                ranks[i] = INDEX.rank_of(sides[i], FORMATION)
                complete[p] |= 1 << s
                rooms[p] &= ~(1 << s)
            if record is not None:
                record(card * STONES + s)
            phase = _AFTER_PLAY
            continue  # the claims after the play
        ply += 1
        if phase is _AFTER_PLAY and deck:
            # Draw (rules.draw), ending the turn.
            insort(hands[p], deck.pop())
            t.blank_turns = 0
            if record is not None:
                record(DRAW)
        else:
            # End a turn that draws nothing (rules.end_turn): two blank turns end it.
            if record is not None:
                record(DONE)
            if _blank_turn(t, phase):
                return Outcome(Termination.BLOCKED, None)
        p ^= 1
        phase = _PLAY


def _plain_masks(t: Table) -> tuple[list[int], list[int], list[int], list[int]]:
    """The complete sides' ranks, and per player the stones with room on its
    side, those where its side is complete (both unclaimed) and those it holds."""
    ranks, counts, owners = t.ranks, t.counts, t.owners
    rooms, complete, owned = [0, 0], [0, 0], [0, 0]
    for s in range(STONES):
        for q in (0, 1):
            i = 2 * s + q
            if ranks[i] < 0 and counts[i] == 3:
                ranks[i] = INDEX.rank_of(t.sides[i], FORMATION)
            if owners[s] == q:
                owned[q] |= 1 << s
            elif owners[s] < 0:
                if counts[i] < 3:
                    rooms[q] |= 1 << s
                else:
                    complete[q] |= 1 << s
    return ranks, rooms, complete, owned


def _plain_claims(
    t: Table,
    p: int,
    ranks: list[int],
    rooms: list[int],
    complete: list[int],
    owned: list[int],
    record: Callable[[int], None] | None,
) -> None:
    """``p`` claims every stone it can prove, lowest first (claims.holds on
    the table's kept verdicts); a claim that wins the game sets its outcome."""
    sides, counts, completed, kept, seen = t.sides, t.counts, t.completed, t.kept, t.seen
    found = complete[p]
    while found:
        low = found & -found
        found ^= low
        s = low.bit_length() - 1
        i = 2 * s + p
        known = kept[i]
        if known is None or (known[1] & ~seen if known[0] else known[1] & seen):
            j = i ^ 1
            first = 0 <= completed[i] < completed[j]
            known = kept[i] = plain_verdict(
                INDEX, FORMATION, ranks[i], sides[j], counts[j], first, seen, ranks[j]
            )
        if not known[0]:
            continue
        t.owners[s] = p
        owned[p] |= low
        complete[0] &= ~low
        complete[1] &= ~low
        rooms[0] &= ~low
        rooms[1] &= ~low
        t.blank_turns = -1
        t.ply += 1
        if record is not None:
            record(CLAIM + s)
        won = winner_pattern(owned[p], 3, 5)
        if won is not None:
            t.outcome = Outcome(won, p)
            return


def _blank_turn(t: Table, phase: Phase) -> bool:
    """A turn ends without a draw (rules.end_turn): whether it is the second
    blank turn in a row (a pass and no claim), which ends the game, blocked."""
    if phase is _AFTER_PASS:
        t.blank_turns = 0 if t.blank_turns < 0 else t.blank_turns + 1
    else:
        t.blank_turns = 0
    return t.blank_turns >= 2
