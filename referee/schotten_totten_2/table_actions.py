"""Schotten Totten 2 on integers: the action cards' moves on a working table.

The action cards (redeploy, recruitment, desertion, treason, explosion, support,
exchange: the highest kinds, in that order) each give a block of action ids of
:data:`~referee.schotten_totten_2.actions.ACTIONS`. This module lists each
card's moves on a :class:`~referee.schotten_totten_2.table.Table` by the rules
of ``State._tactic_plays``, and counts them without listing them (a playout
that draws one move at random needs only the count and the one it draws), and
it lists the answers to a pending exchange. The table's
:func:`~referee.schotten_totten_2.table.legal_actions` calls it; its public names
are importable from :mod:`~referee.schotten_totten_2.table` too.

>>> from referee.schotten_totten_2 import Rules, new_game
>>> from referee.schotten_totten_2.table import Table
>>> table = Table(new_game(seed=5, rules=Rules(tactics=True)))
>>> player, opened = table.to_move, range(7)
>>> table.hands[player].append(EXCHANGE_CARD)  # 3 of the 7 other cards offered
>>> moves = action_moves(table, player, opened)
>>> len(moves), action_count(table, player, opened)
(35, 35)
>>> action_move(table, player, opened, 34) == moves[34] and moves[0] >= OFFER
True
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, TypeAlias

from referee.schotten_totten_2.actions import ACTIONS, KINDS, _rank_pair, _rank_trio
from referee.schotten_totten_2.moves import (
    Desertion,
    Exchange,
    ExchangeReply,
    Explosion,
    Recruitment,
    Redeploy,
    Support,
    Treason,
)
from referee.schotten_totten_2.wall import SIEGE_CARDS, TILES, TacticCard

if TYPE_CHECKING:
    from referee.schotten_totten_2.table import Table

__all__ = [
    "action_count",
    "action_move",
    "action_moves",
    "replies",
]

# --- the cards as kinds (the table reads them from here) --------------------------------

#: Kinds below this are the siege cards (ids 0-59, colour by colour).
SIEGE = len(SIEGE_CARDS.cards)
JOKER = KINDS.index(TacticCard.JOKER)
REDEPLOY_CARD = KINDS.index(TacticCard.REDEPLOY)
RECRUITMENT_CARD = KINDS.index(TacticCard.RECRUITMENT)
DESERTION_CARD = KINDS.index(TacticCard.DESERTION)
TREASON_CARD = KINDS.index(TacticCard.TREASON)
EXPLOSION_CARD = KINDS.index(TacticCard.EXPLOSION)
SUPPORT_CARD = KINDS.index(TacticCard.SUPPORT)
EXCHANGE_CARD = KINDS.index(TacticCard.EXCHANGE)

# --- the action cards' blocks of ids (read from the space itself) -----------------------

_R0, _R1, _R2 = SIEGE_CARDS.cards[:3]
REDEPLOY = ACTIONS.action_of(Redeploy(_R0, 1, None))
RECRUITMENT = ACTIONS.action_of(Recruitment(_R0, 1))
DESERTION = ACTIONS.action_of(Desertion(_R0, 1))
TREASON = ACTIONS.action_of(Treason(_R0, 1, 1))
EXPLOSION = ACTIONS.action_of(Explosion(1))
SUPPORT = ACTIONS.action_of(Support((_R0, _R1))) - _rank_pair(0, 1)
OFFER = ACTIONS.action_of(Exchange((_R0, _R1, _R2))) - (_rank_trio([0, 1, 2]) or 0)
GIVE = ACTIONS.action_of(ExchangeReply((_R0, _R1, _R2))) - (_rank_trio([0, 1, 2]) or 0)
#: Cards an exchange trades each way.
_EXCHANGED = 3

# --- listing and counting ---------------------------------------------------------------


def action_moves(t: Table, player: int, opened: Sequence[int]) -> list[int]:
    """The moves of the action cards in ``player``'s hand, increasing: redeploy,
    recruitment, desertion, treason, explosion, support, exchange (each card's
    block of ids follows the last's)."""
    moves: list[int] = []
    for card in _action_cards(t.hands[player]):
        moves += _MOVES[card - REDEPLOY_CARD](t, player, opened)
    return moves


def action_count(t: Table, player: int, opened: Sequence[int]) -> int:
    """How many moves :func:`action_moves` lists, counted without listing them."""
    return sum(
        _COUNTS[card - REDEPLOY_CARD](t, player, opened) for card in _action_cards(t.hands[player])
    )


def action_move(t: Table, player: int, opened: Sequence[int], index: int) -> int:
    """``action_moves(t, player, opened)[index]``, listing only the moves of
    the card it belongs to."""
    for card in _action_cards(t.hands[player]):
        count = _COUNTS[card - REDEPLOY_CARD](t, player, opened)
        if index < count:
            return _MOVES[card - REDEPLOY_CARD](t, player, opened)[index]
        index -= count
    raise IndexError("no such action card move")


def _action_cards(hand: list[int]) -> list[int]:
    """The distinct action cards of ``hand`` (the highest kinds), increasing."""
    return sorted(set(hand[bisect_left(hand, REDEPLOY_CARD) :]))


# Each action card's moves (``State._tactic_plays``), listed and counted.


def _redeploys(t: Table, player: int, opened: Sequence[int]) -> list[int]:
    """A card of the mover's side to another open tile, or to the discard pile."""
    moves = []
    for card, tile in _cards_at(t, player):
        base = REDEPLOY + (card * TILES + tile) * (TILES + 1)
        moves.append(base)  # to the discard pile
        moves += [base + target + 1 for target in opened if target != tile]
    return moves


def _count_redeploys(t: Table, player: int, opened: Sequence[int]) -> int:
    count = 0
    for tile in range(TILES):
        side = t.sides[2 * tile + player]
        if side:
            count += len(set(side)) * (len(opened) + (tile not in opened))
    return count


def _recruitments(t: Table, player: int, opened: Sequence[int]) -> list[int]:
    """A siege card of the discard pile to an open tile."""
    siege = sorted([k for k in t.discards if k < SIEGE])
    return [RECRUITMENT + card * TILES + tile for card in siege for tile in opened]


def _count_recruitments(t: Table, player: int, opened: Sequence[int]) -> int:
    return sum(1 for k in t.discards if k < SIEGE) * len(opened)


def _desertions(t: Table, player: int, opened: Sequence[int]) -> list[int]:
    """A card of the opponent's side to the discard pile."""
    return [DESERTION + card * TILES + tile for card, tile in _cards_at(t, 1 - player)]


def _count_desertions(t: Table, player: int, opened: Sequence[int]) -> int:
    sides = t.sides
    return sum(len(set(sides[2 * tile + 1 - player])) for tile in range(TILES))


def _treasons(t: Table, player: int, opened: Sequence[int]) -> list[int]:
    """A card of the opponent's side to an open tile of the mover's."""
    return [
        TREASON + (card * TILES + tile) * TILES + target
        for card, tile in _cards_at(t, 1 - player)
        for target in opened
    ]


def _count_treasons(t: Table, player: int, opened: Sequence[int]) -> int:
    return _count_desertions(t, player, opened) * len(opened)


def _explosions(t: Table, player: int, opened: Sequence[int]) -> list[int]:
    """Every tile with cards on either side."""
    sides = t.sides
    return [EXPLOSION + tile for tile in range(TILES) if sides[2 * tile] or sides[2 * tile + 1]]


def _count_explosions(t: Table, player: int, opened: Sequence[int]) -> int:
    return len(_explosions(t, player, opened))


def _supports(t: Table, player: int, opened: Sequence[int]) -> list[int]:
    """Two siege cards of the discard pile (where they land is chance)."""
    siege = sorted([k for k in t.discards if k < SIEGE])
    return sorted(SUPPORT + _rank_pair(a, b) for a, b in combinations(siege, 2))


def _count_supports(t: Table, player: int, opened: Sequence[int]) -> int:
    siege = sum(1 for k in t.discards if k < SIEGE)
    return siege * (siege - 1) // 2


def _offers(t: Table, player: int, opened: Sequence[int]) -> list[int]:
    """Three other cards of the mover's hand, while the opponent holds three."""
    if len(t.hands[1 - player]) < _EXCHANGED:
        return []
    rest = list(t.hands[player])
    rest.remove(EXCHANGE_CARD)
    return _trios(rest, OFFER)


def _count_offers(t: Table, player: int, opened: Sequence[int]) -> int:
    if len(t.hands[1 - player]) < _EXCHANGED:
        return 0
    hand = t.hands[player]
    kinds = len(set(hand)) - 1  # the exchange card stays out
    # distinct kinds three at a time, and the two jokers with any other kind
    return comb(kinds, _EXCHANGED) + (kinds - 1 if hand.count(JOKER) == 2 else 0)


_Moves: TypeAlias = "Callable[[Table, int, Sequence[int]], list[int]]"
_Count: TypeAlias = "Callable[[Table, int, Sequence[int]], int]"
#: action card - REDEPLOY_CARD -> its moves (increasing), its count of moves
_MOVES: tuple[_Moves, ...] = (
    _redeploys,
    _recruitments,
    _desertions,
    _treasons,
    _explosions,
    _supports,
    _offers,
)
_COUNTS: tuple[_Count, ...] = (
    _count_redeploys,
    _count_recruitments,
    _count_desertions,
    _count_treasons,
    _count_explosions,
    _count_supports,
    _count_offers,
)


def _cards_at(t: Table, player: int) -> list[tuple[int, int]]:
    """The distinct (kind, tile) of ``player``'s cards on the wall, increasing."""
    sides = t.sides
    return sorted({(card, tile) for tile in range(TILES) for card in sides[2 * tile + player]})


def _trios(cards: list[int], start: int) -> list[int]:
    """The ids (from ``start``) of every distinct set of 3 of ``cards`` (increasing kinds)."""
    ids = set()
    for trio in combinations(cards, _EXCHANGED):
        rank = _rank_trio(list(trio))
        assert rank is not None
        ids.add(start + rank)
    return sorted(ids)


def replies(t: Table) -> list[int]:
    """The answers to a pending exchange: any 3 cards of the chooser's hand."""
    return _trios(t.hands[t.to_move], GIVE)
