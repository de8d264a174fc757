"""Schotten Totten 2 on integers: an action played on a
:class:`~referee.schotten_totten_2.table.Table`, rule by rule.

Each function names the move of :class:`~referee.schotten_totten_2.State` it
follows; the tests play every action through ``State.play`` too and compare
the legal actions after each ply (``tests/schotten_totten_2/test_playout.py``).
Support's shuffle is chance: :func:`shuffle` puts its two cards at the places
drawn.

>>> from referee.schotten_totten_2 import new_game
>>> from referee.schotten_totten_2.table import Table, legal_actions
>>> table = Table(new_game(seed=5))
>>> play(table, legal_actions(table)[0]); table.phase, legal_actions(table)
(<Phase.AFTER_PLAY: 'after_play'>, [583])
"""

from __future__ import annotations

from bisect import insort

from referee.game import Outcome, Termination
from referee.schotten_totten_2.actions import _unrank_pair, _unrank_trio
from referee.schotten_totten_2.state import DAMAGED_TO_WIN, Phase
from referee.schotten_totten_2.table import (
    CONTROL,
    DONE,
    DRAW,
    DRAW_TACTIC,
    OIL,
    PASS,
    RETREAT,
    SHUFFLE,
    SIEGE,
    SIZES,
    TILES_IN,
    VALUES,
    Table,
    can_play,
    controls_of,
)
from referee.schotten_totten_2.table_actions import (
    DESERTION,
    DESERTION_CARD,
    EXCHANGE_CARD,
    EXPLOSION,
    EXPLOSION_CARD,
    GIVE,
    OFFER,
    RECRUITMENT,
    RECRUITMENT_CARD,
    REDEPLOY,
    REDEPLOY_CARD,
    SUPPORT,
    SUPPORT_CARD,
    TREASON,
    TREASON_CARD,
)
from referee.schotten_totten_2.wall import TILES

__all__ = ["control", "draw", "end_turn", "next_turn", "place", "play", "shuffle"]

_OPENING, _PLAY, _AFTER_PLAY, _AFTER_PASS = (
    Phase.OPENING,
    Phase.PLAY,
    Phase.AFTER_PLAY,
    Phase.AFTER_PASS,
)
_SHUFFLE, _EXCHANGE = Phase.SHUFFLE, Phase.EXCHANGE


def play(t: Table, action: int) -> None:
    """Play ``action`` (legal: see :func:`~referee.schotten_totten_2.table.legal_actions`;
    not the shuffle, which is :func:`shuffle`) on ``t``."""
    if action < CONTROL:
        card, tile = divmod(action, TILES)
        _spend(t, card)
        place(t, card, tile, t.to_move)
        t.phase = _AFTER_PLAY
    elif action < RETREAT:
        control(t, action - CONTROL)
        return
    elif action < OIL:
        _retreat(t, action - RETREAT + 1)
    elif action < PASS:
        _oil(t, action - OIL)
    elif action == PASS:
        t.phase = _AFTER_PASS
    elif action <= DRAW_TACTIC:
        draw(t, action == DRAW)
        return
    elif action == DONE:
        end_turn(t)
        return
    elif action == SHUFFLE:
        raise ValueError("the shuffle is chance: play it with shuffle(table, first, second)")
    elif action < OFFER:
        _action_card(t, action)
    elif action < GIVE:
        _exchange(t, action - OFFER)
    else:
        _reply(t, action - GIVE)
    t.ply += 1


def control(t: Table, tile: int) -> None:
    """The attacker declares control of ``tile`` (proved): both sides are
    discarded and the tile turns to its damaged face; controlling a damaged
    tile, or damaging a fourth, wins."""
    attacker = t.attacker
    i = 2 * tile + attacker
    for side in (i, i ^ 1):
        _discard(t, t.sides[side])
        t.sides[side] = []
        t.masks[side] = 0
        t.completed[side] = -1
    t.kept[tile] = None
    if t.damaged[tile]:
        t.outcome = Outcome(Termination.CONTROLLED_DAMAGED_TILE, attacker)
    else:
        t.damaged[tile] = True
        if sum(t.damaged) >= DAMAGED_TO_WIN:
            t.outcome = Outcome(Termination.FOURTH_TILE_DAMAGED, attacker)
    t.ply += 1


def draw(t: Table, siege: bool) -> None:
    """Draw the top card of the siege deck (or the tactic pile), ending the turn."""
    if siege:
        insort(t.hands[t.to_move], t.deck.pop())
        if not t.deck:
            t.exhausted = True
    else:
        insort(t.hands[t.to_move], t.tactic_deck.pop())
    next_turn(t)


def end_turn(t: Table) -> None:
    """End a turn that draws nothing."""
    next_turn(t)


def shuffle(t: Table, first: int, second: int) -> None:
    """Support's two cards go into the deck at places ``first`` and
    ``second`` (1 is the top), in the support's order."""
    support = t.support
    assert support is not None
    size = len(t.deck) + 2
    rest = iter(reversed(t.deck))
    placed = {first: support[0], second: support[1]}
    top_first = [placed[i] if i in placed else next(rest) for i in range(1, size + 1)]
    top_first.reverse()
    t.deck = top_first
    t.support = None
    t.phase = _AFTER_PLAY
    t.ply += 1


def next_turn(t: Table) -> None:
    """``State._next_turn``: the attacker's last turn ends the game (the siege
    held); a pass that leaves nobody able to change anything ends it too (the
    siege failed)."""
    attacker, mover = t.attacker, t.to_move
    if mover == attacker and t.final_turn:
        t.outcome = Outcome(Termination.SIEGE_HELD, 1 - attacker)
    passed = t.phase is _AFTER_PASS
    following = 1 - mover
    t.to_move = following
    t.phase = _OPENING
    t.ply += 1
    t.final_turn = following == attacker and t.exhausted
    if t.outcome is None and passed and _siege_failed(t, mover == attacker):
        t.outcome = Outcome(Termination.SIEGE_FAILED, 1 - attacker)


def _siege_failed(t: Table, after_attacker: bool) -> bool:
    """Nobody can play a card any more (at the start of a turn of its own,
    after an opening action if need be), and, after the defender's turn, the
    attacker has no control to declare."""
    if can_play(t, t.attacker) or can_play(t, 1 - t.attacker):
        return False
    return after_attacker or not controls_of(t)


def _spend(t: Table, card: int) -> None:
    """The mover takes ``card`` from its hand; a tactic card counts for the tactic limit."""
    player = t.to_move
    t.hands[player].remove(card)
    if card >= SIEGE:
        t.tactics_played[player] += 1


def _discard(t: Table, cards: list[int]) -> None:
    t.discards += cards


def _changed(t: Table, i: int) -> None:
    """Side ``i`` changed: its mask and completion read again, the tile's proof dropped."""
    side = t.sides[i]
    tile = i >> 1
    mask = 0
    for k in side:
        if k < SIEGE:
            mask |= 1 << k
    t.masks[i] = mask
    t.completed[i] = t.ply if len(side) == SIZES[tile][t.damaged[tile]] else -1
    t.kept[tile] = None


def place(t: Table, card: int, tile: int, player: int) -> None:
    """``card`` laid on ``player``'s side of ``tile`` (``state._place``): a 0
    arriving opposite the 11 of its colour (or an 11 opposite the 0) is
    discarded with it, chicken against cook."""
    value = VALUES[card]
    if value == 0 or value == 11:
        rival = card + 11 - 2 * value
        j = 2 * tile + 1 - player
        if t.masks[j] >> rival & 1:
            t.sides[j].remove(rival)
            _changed(t, j)
            t.discards += (card, rival)
            t.seen |= 1 << card
            return
    i = 2 * tile + player
    t.sides[i].append(card)
    if card < SIEGE:
        t.seen |= 1 << card
    _changed(t, i)


def _take(t: Table, card: int, tile: int, player: int) -> None:
    """The earliest ``card`` taken off ``player``'s side of ``tile``."""
    i = 2 * tile + player
    t.sides[i].remove(card)
    _changed(t, i)


def _retreat(t: Table, tiles: int) -> None:
    """The attacker takes back its cards from ``tiles`` (a mask) to the discard pile."""
    attacker = t.attacker
    for tile in TILES_IN[tiles]:
        i = 2 * tile + attacker
        _discard(t, t.sides[i])
        t.sides[i] = []
        _changed(t, i)
    t.phase = _PLAY


def _oil(t: Table, tile: int) -> None:
    """The defender pours oil at ``tile``: the attacker's first card there is discarded."""
    i = 2 * tile + t.attacker
    t.discards.append(t.sides[i].pop(0))
    _changed(t, i)
    t.oil -= 1
    t.phase = _PLAY


def _action_card(t: Table, action: int) -> None:
    """Redeploy, recruitment, desertion, treason, explosion or support."""
    player, opponent = t.to_move, 1 - t.to_move
    if action < RECRUITMENT:
        rest, target = divmod(action - REDEPLOY, TILES + 1)
        card, source = divmod(rest, TILES)
        _spend(t, REDEPLOY_CARD)
        _take(t, card, source, player)
        if target:
            place(t, card, target - 1, player)
        else:
            t.discards.append(card)
    elif action < DESERTION:
        card, tile = divmod(action - RECRUITMENT, TILES)
        _spend(t, RECRUITMENT_CARD)
        t.discards.remove(card)
        place(t, card, tile, player)
    elif action < TREASON:
        card, tile = divmod(action - DESERTION, TILES)
        _spend(t, DESERTION_CARD)
        _take(t, card, tile, opponent)
        t.discards.append(card)
    elif action < EXPLOSION:
        rest, target = divmod(action - TREASON, TILES)
        card, source = divmod(rest, TILES)
        _spend(t, TREASON_CARD)
        _take(t, card, source, opponent)
        place(t, card, target, player)
    elif action < SUPPORT:
        tile = action - EXPLOSION
        _spend(t, EXPLOSION_CARD)
        for i in (2 * tile + t.attacker, 2 * tile + 1 - t.attacker):
            _discard(t, t.sides[i])
            t.sides[i] = []
            _changed(t, i)
    else:
        a, b = _unrank_pair(action - SUPPORT)
        _spend(t, SUPPORT_CARD)
        t.discards.remove(a)
        t.discards.remove(b)
        t.seen &= ~(1 << a | 1 << b)
        t.support = (a, b)
        t.phase = _SHUFFLE
        return
    t.phase = _AFTER_PLAY


def _exchange(t: Table, rank: int) -> None:
    """The mover offers 3 cards; the opponent answers next (its ply)."""
    _spend(t, EXCHANGE_CARD)
    t.offer = _unrank_trio(rank)
    t.to_move ^= 1
    t.phase = _EXCHANGE


def _reply(t: Table, rank: int) -> None:
    """The chooser gives 3 cards back: the hands swap the offer and the answer."""
    chooser, mover = t.to_move, 1 - t.to_move
    given = _unrank_trio(rank)
    offer = t.offer
    assert offer is not None
    for card in offer:
        t.hands[mover].remove(card)
    for card in given:
        t.hands[chooser].remove(card)
    for card in given:
        insort(t.hands[mover], card)
    for card in offer:
        insort(t.hands[chooser], card)
    t.offer = None
    t.to_move = mover
    t.phase = _AFTER_PLAY
