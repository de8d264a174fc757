"""Schotten Totten on integers: an action played on a
:class:`~referee.schotten_totten.table.Table`, rule by rule.

Each function names the rule of :mod:`~referee.schotten_totten.rules` or
:mod:`~referee.schotten_totten.tactics` it follows; the tests play every action
through ``State.play`` too and compare the tables after each ply
(``tests/schotten_totten/test_playout.py``).

>>> from referee.schotten_totten import new_game
>>> from referee.schotten_totten.table import Table, legal_actions
>>> table = Table(new_game(seed=5))
>>> play(table, legal_actions(table)[0]); table.phase, legal_actions(table)
(<Phase.AFTER_PLAY: 'after_play'>, [577])
"""

from __future__ import annotations

from bisect import insort

from referee.game import Outcome, Termination
from referee.line.playout import winner_pattern
from referee.schotten_totten.actions import RECRUIT_DRAWS
from referee.schotten_totten.cards import CLANS, STONES
from referee.schotten_totten.table import (
    _AFTER_PASS,
    _AFTER_PLAY,
    _AFTER_RECRUIT,
    _BANSHEE,
    _JOKER,
    _KIND,
    _KINDS,
    _MUD,
    _PLAY,
    _RECRUIT_RETURN,
    _RECRUITER,
    _STRATEGIST,
    _TRAITOR,
    BANSHEE,
    CLAIM,
    DONE,
    DRAW_TACTIC,
    PASS,
    RECRUIT,
    RETURN,
    STRATEGIST,
    TRAITOR,
    Table,
    sides_changed,
)

__all__ = ["claim", "draw", "end_turn", "play"]


def play(t: Table, action: int) -> None:
    """Play ``action`` (legal: see :func:`legal_actions`) on ``t``."""
    if action < CLAIM:
        card, stone = divmod(action, STONES)
        if card < CLANS:
            t.hands[t.to_move].remove(card)  # _spend: a clan card counts for no limit
            _lay(t, card, stone, t.to_move)
        elif _KIND[card] == "style":
            _style(t, card, stone)
        else:
            _spend(t, card)
            _lay(t, card, stone, t.to_move)
        t.phase = _AFTER_PLAY
    elif action < PASS:
        claim(t, action - CLAIM)
        return
    elif action == PASS:
        t.phase = _AFTER_PASS
    elif action <= DRAW_TACTIC:
        draw(t, action != DRAW_TACTIC)
        return
    elif action == DONE:
        end_turn(t)
        return
    elif action < RECRUIT:
        _ruse(t, action)
        t.phase = _AFTER_PLAY
    elif action < RETURN:
        _recruit(t, *RECRUIT_DRAWS[action - RECRUIT])
    else:
        _put_back(t, action - RETURN)
    t.ply += 1


def claim(t: Table, stone: int) -> None:
    """Claim ``stone`` (proved); the game ends at once at three adjacent or five stones."""
    player = t.to_move
    t.owners[stone] = player
    sides_changed(t, stone)
    owned = 0
    for s in range(STONES):
        if t.owners[s] == player:
            owned |= 1 << s
    won = winner_pattern(owned, adjacent=3, total=5)
    if won is not None:
        t.outcome = Outcome(won, player)
    t.blank_turns = -1
    t.ply += 1


def draw(t: Table, clan: bool) -> None:
    """Draw the top card of the clan (or tactic) pile, ending the turn."""
    insort(t.hands[t.to_move], (t.deck if clan else t.tactic_deck).pop())
    t.to_move ^= 1
    t.phase = _PLAY
    t.blank_turns = 0
    t.ply += 1


def end_turn(t: Table) -> None:
    """End a turn that draws nothing; two blank turns in a row end the game, blocked."""
    if t.phase is _AFTER_PASS:
        t.blank_turns = 0 if t.blank_turns < 0 else t.blank_turns + 1
        if t.blank_turns >= 2:
            t.outcome = Outcome(Termination.BLOCKED, None)
    else:
        t.blank_turns = 0
    t.to_move ^= 1
    t.phase = _PLAY
    t.ply += 1


def _spend(t: Table, card: int) -> None:
    """The mover takes ``card`` from its hand; a tactic card counts for the
    tactic limit, a joker for the one-joker rule."""
    player = t.to_move
    t.hands[player].remove(card)
    if card >= CLANS:
        t.tactics_played[player] += 1
        if card == _JOKER:
            t.jokers_played[player] = True


def _changed(t: Table, stone: int, side: int) -> None:
    """Side ``side`` of ``stone`` changed (-1: the stone's rule): what was
    proved there is proved again, the changed ranks read again."""
    t.kept[2 * stone] = t.kept[2 * stone + 1] = None
    if side < 0:
        t.ranks[2 * stone] = t.ranks[2 * stone + 1] = -1
    else:
        t.ranks[side] = -1


def _lay(t: Table, card: int, stone: int, player: int) -> None:
    """``card`` laid last on ``player``'s side of ``stone`` (``Place.with_card``)."""
    i = 2 * stone + player
    if card < CLANS:
        t.sides[i] |= 1 << card
        t.seen |= 1 << card
    else:
        t.wild[i] = (*t.wild[i], card)
    t.kept[i & ~1] = t.kept[i | 1] = None  # _changed: proved again,
    t.ranks[i] = -1  # this side's rank read again
    count = t.counts[i] = t.counts[i] + 1
    if count == t.sizes[stone]:
        t.completed[i] = t.ply
        # sides_changed for the side that grew (a card is laid only where the
        # side has room, on an unclaimed stone): complete now.
        bit = 1 << stone
        t.rooms[player] &= ~bit
        t.complete[player] |= bit
    else:
        t.completed[i] = -1


def _take(t: Table, card: int, stone: int, player: int) -> None:
    """``card`` taken off ``player``'s side of ``stone`` (``Place.without_card``)."""
    i = 2 * stone + player
    if card < CLANS:
        t.sides[i] &= ~(1 << card)
    else:
        wild = list(t.wild[i])
        wild.remove(card)
        t.wild[i] = tuple(wild)
    t.counts[i] -= 1
    t.completed[i] = t.ply if t.counts[i] == t.sizes[stone] else -1
    _changed(t, stone, i)
    sides_changed(t, stone)


def _style(t: Table, card: int, stone: int) -> None:
    """A combat style on ``stone`` (``tactics.restyled``): Mud Fight makes
    formations four cards, so a side of three is incomplete again."""
    _spend(t, card)
    t.styles[stone] = card
    size = t.sizes[stone] = 4 if card == _MUD else 3
    for i in (2 * stone, 2 * stone + 1):
        if t.counts[i] != size:
            t.completed[i] = -1
    _changed(t, stone, -1)
    sides_changed(t, stone)


def _ruse(t: Table, action: int) -> None:
    """The banshee, the traitor or the strategist (``tactics``)."""
    player, opponent = t.to_move, 1 - t.to_move
    if action < TRAITOR:
        card, stone = divmod(action - BANSHEE, STONES)
        _spend(t, _BANSHEE)
        _take(t, card, stone, opponent)
    elif action < STRATEGIST:
        rest, target = divmod(action - TRAITOR, STONES)
        card, source = divmod(rest, STONES)
        _spend(t, _TRAITOR)
        _take(t, card, source, opponent)
        _lay(t, card, target, player)
    else:
        rest, target = divmod(action - STRATEGIST, STONES + 1)
        card, source = divmod(rest, STONES)
        _spend(t, _STRATEGIST)
        _take(t, card, source, player)
        if target:
            _lay(t, card, target - 1, player)


def _recruit(t: Table, clans: int, tactics: int) -> None:
    """The recruiter's draws; the cards it puts back are the next ply (or none
    when its hand is empty)."""
    _spend(t, _RECRUITER)
    hand = t.hands[t.to_move]
    for _ in range(clans):
        insort(hand, t.deck.pop())
    for _ in range(tactics):
        insort(hand, t.tactic_deck.pop())
    t.phase = _RECRUIT_RETURN if hand else _AFTER_RECRUIT


def _put_back(t: Table, index: int) -> None:
    """The recruiter's cards back under their piles, the first above the second."""
    kinds = _RETURN_KINDS[index]
    hand = t.hands[t.to_move]
    for card in kinds:
        hand.remove(card)
        (t.deck if card < CLANS else t.tactic_deck).insert(0, card)
    t.phase = _AFTER_RECRUIT


_RETURN_KINDS: tuple[tuple[int, ...], ...] = (
    *((i,) for i in range(_KINDS)),
    *((i, j) for i in range(_KINDS) for j in range(i, _KINDS)),
)
