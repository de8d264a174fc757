"""Schotten Totten's cards as data: the clan cards, the tactic cards, the
integer card index and the formation rules of a stone.

Inside the rules a card is its **id**: the 54 clan cards in
:data:`CLAN_CARDS` order (``R1`` = 0 ... ``P9`` = 53), then one id per tactic
card name (the two jokers share one), the order of the action space's card
kinds. Sets of clan cards are bit masks over the clan ids
(:data:`INDEX`, a :class:`~referee.line.cards.CardIndex`).

>>> ID[Card("R", 1)], ID[Card("P", 9)], ID[Tactic("joker")], CARDS[54]
(0, 53, 54, Tactic('joker'))
>>> len(TACTIC_CARDS), TACTIC_CARDS.count(Tactic("joker")), wildcard_of(Tactic("spy")).values
(10, 2, frozenset({7}))
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from referee.cards import Card, CardSet, InvalidCardError
from referee.formations import SUM_ONLY, FormationRule
from referee.line.cards import CardIndex
from referee.line.tactics import Tactic
from referee.prover import Wildcard

__all__ = [
    "BLIND_FORMATION",
    "CARDS",
    "CLANS",
    "CLAN_CARDS",
    "ELITE",
    "FORMATION",
    "HAND_SIZE",
    "ID",
    "INDEX",
    "MUD_FORMATION",
    "RUSES",
    "STONES",
    "STYLES",
    "TACTIC_CARDS",
    "TACTIC_NAMES",
    "AnyCard",
    "Tactic",
    "copies",
    "parse_card",
    "wildcard_of",
]

#: The 54 clan cards: red, orange, yellow, green, blue, purple; values 1-9.
CLAN_CARDS = CardSet(
    colours="ROYGBP",
    colour_names=("red", "orange", "yellow", "green", "blue", "purple"),
    values=range(1, 10),
)
#: The clan cards as integers (ids 0-53) and their formation tables.
INDEX = CardIndex(CLAN_CARDS)
#: How many clan cards there are (the first ids).
CLANS = len(CLAN_CARDS.cards)
#: How formations form and compare at an ordinary stone.
FORMATION = FormationRule(size=3)
#: At a stone with Blind Man's Bluff only the sum counts.
BLIND_FORMATION = FormationRule(size=3, kinds=SUM_ONLY)
#: At a stone with Mud Fight formations have 4 cards.
MUD_FORMATION = FormationRule(size=4)
#: Number of stones in the row.
STONES = 9
#: Cards in hand in the base game (one more with tactics).
HAND_SIZE = 6

# --- tactic cards (the Tartan-Taktiken variant) -------------------------------------

#: Elite troops: played to a side like clan cards, valued when the stone is resolved.
ELITE = ("joker", "spy", "shield_bearer")
#: Combat styles: lie on a stone and change how it is won.
STYLES = ("blind_mans_bluff", "mud_fight")
#: Ruses: take effect at once and are discarded.
RUSES = ("recruiter", "strategist", "banshee", "traitor")
TACTIC_NAMES = ELITE + STYLES + RUSES
#: The tactic pile: two jokers and one of every other tactic card.
TACTIC_CARDS: tuple[Tactic, ...] = (Tactic("joker"), *(Tactic(n) for n in TACTIC_NAMES))

#: Any card of the game: a clan card or a tactic card.
AnyCard = Card | Tactic

#: Every card kind in id order: the clan cards, then one of each tactic name.
CARDS: tuple[AnyCard, ...] = (*CLAN_CARDS.cards, *(Tactic(n) for n in TACTIC_NAMES))
#: card -> its id
ID: Mapping[AnyCard, int] = MappingProxyType({card: i for i, card in enumerate(CARDS)})

_WILDCARDS = {
    "joker": Wildcard.any_of(range(1, 10), "joker"),
    "spy": Wildcard.exactly(7, "spy"),
    "shield_bearer": Wildcard.any_of((1, 2, 3), "shield_bearer"),
}


def copies(card: Tactic) -> int:
    """How many copies of ``card`` the game has."""
    return 2 if card.name == "joker" else 1


def wildcard_of(card: Tactic) -> Wildcard:
    """The prover's wildcard for an elite troop: any colour, these values."""
    return _WILDCARDS[card.name]


def parse_card(text: str) -> AnyCard:
    """A clan card (``"R7"``) or a tactic card (``"joker"``) from its text.

    >>> parse_card("R7"), parse_card("spy")
    (Card('R', 7), Tactic('spy'))
    >>> parse_card("redeploy")
    Traceback (most recent call last):
    ...
    referee.cards.InvalidCardError: unknown tactic card 'redeploy': one of joker, spy, shield_bearer, blind_mans_bluff, mud_fight, recruiter, strategist, banshee, traitor
    """
    if text[:1].islower():
        if text not in TACTIC_NAMES:
            raise InvalidCardError(
                f"unknown tactic card {text!r}: one of " + ", ".join(TACTIC_NAMES)
            )
        return Tactic(text)
    return Card.parse(text)
