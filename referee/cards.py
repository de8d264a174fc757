"""Cards with a colour and a value, and the card sets that games are built from.

A :class:`Card` is a small immutable value (a named tuple) whose text form round-trips::

    >>> card = Card.parse("R7")
    >>> card
    Card('R', 7)
    >>> str(card)
    'R7'
    >>> Card.parse(str(Card("B", 11))) == Card("B", 11)
    True

Which colours and values exist is a property of the game, described by a
:class:`CardSet`. This module knows no particular game.

    >>> suits = CardSet(colours="RGB", colour_names=("red", "green", "blue"), values=range(1, 4))
    >>> len(suits.cards)
    9
    >>> suits.parse("G3")
    Card('G', 3)
    >>> suits.parse("X3")
    Traceback (most recent call last):
    ...
    referee.cards.InvalidCardError: unknown card 'X3': colour 'X' is not one of R, G, B
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

__all__ = ["Card", "CardSet", "InvalidCardError"]

# An ASCII capital, then the value in ASCII decimal digits (never "R\u0667").
_CARD_TEXT = re.compile(r"([A-Z])([0-9]{1,2})")


class InvalidCardError(ValueError):
    """Text that does not name a card of the card set in use."""


class Card(NamedTuple):
    """A playing card: a one-letter colour code and a value.

    Cards compare and hash by value, so ``Card("R", 7)`` equals any other red 7.
    """

    colour: str
    value: int

    def __str__(self) -> str:
        return f"{self.colour}{self.value}"

    def __repr__(self) -> str:
        return f"Card({self.colour!r}, {self.value})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from text such as ``"R7"`` or ``"B11"``.

        This checks the shape only; use :meth:`CardSet.parse` to also check that
        the card exists in a game.

        >>> Card.parse("P11")
        Card('P', 11)
        >>> Card.parse("7R")
        Traceback (most recent call last):
        ...
        referee.cards.InvalidCardError: malformed card '7R': expected a colour letter and a value, like 'R7'

        Each card has one text: a value is written without a leading zero.

        >>> Card.parse("R07")
        Traceback (most recent call last):
        ...
        referee.cards.InvalidCardError: non-canonical card 'R07': write the card as 'R7'
        """
        match = _CARD_TEXT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise InvalidCardError(
                f"malformed card {text!r}: expected a colour letter and a value, like 'R7'"
            )
        card = cls(match.group(1), int(match.group(2)))
        if len(text) != 1 + len(str(card.value)):
            raise InvalidCardError(f"non-canonical card {text!r}: write the card as {str(card)!r}")
        return card


@dataclass(frozen=True)
class CardSet:
    """The colours and values of a game's numbered cards.

    ``colours`` holds one letter per colour, in a fixed order; the order is the
    colour's index used by the prover's integer interface.
    """

    colours: str
    colour_names: tuple[str, ...]
    values: range
    cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.colour_names) != len(self.colours):
            raise ValueError("one colour name is needed per colour letter")
        if len(set(self.colours)) != len(self.colours):
            raise ValueError(f"colour letters repeat in {self.colours!r}")
        cards = tuple(Card(c, v) for c in self.colours for v in self.values)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "_index", {c: i for i, c in enumerate(self.colours)})

    def __contains__(self, card: object) -> bool:
        return (
            isinstance(card, tuple)
            and len(card) == 2
            and card[0] in self._index
            and card[1] in self.values
        )

    def colour_index(self, colour: str) -> int:
        """The position of a colour letter (0-based), as used by the prover."""
        return self._index[colour]

    def colour_name(self, colour: str) -> str:
        """The English name of a colour letter.

        >>> CardSet("RB", ("red", "blue"), range(1, 3)).colour_name("B")
        'blue'
        """
        return self.colour_names[self._index[colour]]

    def parse(self, text: str) -> Card:
        """Read a card and check that it belongs to this set."""
        card = Card.parse(text)
        if card.colour not in self._index:
            raise InvalidCardError(
                f"unknown card {text!r}: colour {card.colour!r} is not one of "
                + ", ".join(self.colours)
            )
        if card.value not in self.values:
            raise InvalidCardError(
                f"unknown card {text!r}: value {card.value} is outside "
                f"{self.values.start}-{self.values.stop - 1}"
            )
        return card

    def as_pair(self, card: Card) -> tuple[int, int]:
        """The prover's integer form of a card: ``(colour index, value)``."""
        return (self._index[card.colour], card.value)

    def from_pair(self, pair: tuple[int, int]) -> Card:
        """The card for a prover pair ``(colour index, value)``."""
        return Card(self.colours[pair[0]], pair[1])
