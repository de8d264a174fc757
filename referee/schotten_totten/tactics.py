"""The ten tactic cards of the Tartan-Taktiken variant.

A tactic card's text is its name. There are three kinds: elite troops are played
like clan cards and valued when the stone is resolved; combat styles lie on a
stone and change how it is won; ruses take effect at once and are discarded.

    >>> Tactic.parse("mud_fight"), Tactic("joker").kind
    (Tactic('mud_fight'), 'elite')
    >>> len(TACTIC_CARDS), TACTIC_CARDS.count(Tactic("joker"))
    (10, 2)
    >>> wildcard_of(Tactic("shield_bearer")).values
    frozenset({1, 2, 3})
"""

from __future__ import annotations

from typing import NamedTuple

from referee.cards import Card, InvalidCardError
from referee.prover import Wildcard

__all__ = [
    "ELITE",
    "RUSES",
    "STYLES",
    "TACTIC_CARDS",
    "TACTIC_NAMES",
    "AnyCard",
    "Tactic",
    "copies",
    "parse_card",
    "wildcard_of",
]

ELITE = ("joker", "spy", "shield_bearer")
STYLES = ("blind_mans_bluff", "mud_fight")
RUSES = ("recruiter", "strategist", "banshee", "traitor")
TACTIC_NAMES = ELITE + STYLES + RUSES


class Tactic(NamedTuple):
    """A tactic card, named as in RULINGS.md (``joker``, ``spy``, ``mud_fight`` ...)."""

    name: str

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Tactic({self.name!r})"

    @property
    def kind(self) -> str:
        """``"elite"``, ``"style"`` or ``"ruse"``."""
        if self.name in ELITE:
            return "elite"
        return "style" if self.name in STYLES else "ruse"

    @classmethod
    def parse(cls, text: str) -> Tactic:
        """The tactic card named ``text``."""
        if text not in TACTIC_NAMES:
            raise InvalidCardError(
                f"unknown tactic card {text!r}: one of " + ", ".join(TACTIC_NAMES)
            )
        return cls(text)


#: Any card of the game: a clan card or a tactic card.
AnyCard = Card | Tactic

#: The tactic pile: two jokers and one of every other tactic card.
TACTIC_CARDS: tuple[Tactic, ...] = (Tactic("joker"), *(Tactic(n) for n in TACTIC_NAMES))


def copies(card: Tactic) -> int:
    """How many copies of ``card`` the game has."""
    return 2 if card.name == "joker" else 1


def parse_card(text: str) -> AnyCard:
    """A clan card (``"R7"``) or a tactic card (``"joker"``) from its text.

    >>> parse_card("R7"), parse_card("spy")
    (Card('R', 7), Tactic('spy'))
    """
    if text[:1].islower():
        return Tactic.parse(text)
    return Card.parse(text)


_WILDCARDS = {
    "joker": Wildcard.any_of(range(1, 10), "joker"),
    "spy": Wildcard.exactly(7, "spy"),
    "shield_bearer": Wildcard.any_of((1, 2, 3), "shield_bearer"),
}


def wildcard_of(card: Tactic) -> Wildcard:
    """The prover's wildcard for an elite troop: any colour, these values."""
    return _WILDCARDS[card.name]
