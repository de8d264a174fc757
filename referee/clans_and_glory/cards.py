"""The Clans and Glory cards as small integers, and the tables the rules read.

Inside the rules a card is its **id**: its place in
:data:`~referee.clans_and_glory.setup.CLAN_CARDS` order (``R3`` is 0, ``R4``
is 1, ..., ``W8`` is 41), the same numbers as the action ids of
:mod:`referee.clans_and_glory.actions`. A hand is a bit mask of ids; the
:class:`~referee.cards.Card` objects users see are made at the edge.

A card fits a seat face up when it shares its colour or its rank with a face-up
card touching the seat. Colours and ranks are the 13 **traits** of the cards
(7 colours, then 6 ranks); :data:`TRAITS` gives the two traits of each card::

    >>> from referee.cards import Card
    >>> card = ID[Card("O", 5)]
    >>> card, CARDS[card], TRAITS[card], RANK[card]
    (8, Card('O', 5), (1, 9), 5)
    >>> [str(CARDS[c]) for c in ids_of(1 << 0 | 1 << 41)]
    ['R3', 'W8']

Every table here is data computed once at import.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType

from referee.cards import Card
from referee.clans_and_glory.setup import CLAN_CARDS, SETUPS

__all__ = [
    "CARDS",
    "COLOURS",
    "DECK_IDS",
    "ID",
    "IN_PLAY",
    "RANK",
    "RANKS",
    "TRAITS",
    "TRAIT_COUNT",
    "ids_of",
    "mask_of",
]

#: id -> card, in card-set order (colour by colour, ranks 3-8).
CARDS: tuple[Card, ...] = CLAN_CARDS.cards
#: card -> id (read-only).
ID: Mapping[Card, int] = MappingProxyType({card: i for i, card in enumerate(CARDS)})
#: The number of colours (7) and the ranks (3-8).
COLOURS = len(CLAN_CARDS.colours)
RANKS = tuple(CLAN_CARDS.values)
#: Traits: colours 0-6, then ranks 3-8 as 7-12.
TRAIT_COUNT = COLOURS + len(RANKS)
#: id -> its rank (3-8).
RANK: tuple[int, ...] = tuple(card.value for card in CARDS)
#: id -> its two traits: (colour trait, rank trait).
TRAITS: tuple[tuple[int, int], ...] = tuple(
    (CLAN_CARDS.colour_index(card.colour), COLOURS + card.value - RANKS[0]) for card in CARDS
)
#: players -> the ids of the cards in play with that many players, lowest first.
DECK_IDS: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {players: tuple(ID[card] for card in setup.deck()) for players, setup in SETUPS.items()}
)
#: players -> the mask of the cards in play with that many players.
IN_PLAY: Mapping[int, int] = MappingProxyType(
    {players: sum(1 << card for card in ids) for players, ids in DECK_IDS.items()}
)


def ids_of(mask: int) -> Iterator[int]:
    """The ids in a bit mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards (each a Clans and Glory card)."""
    mask = 0
    for card in cards:
        mask |= 1 << ID[card]
    return mask
