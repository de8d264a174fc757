"""Moves every game on a line writes the same way: a card put at a place, a
claim, a pass; and what their values check when they are made.

The three moves of a plain game (one without tactic cards) are
:class:`Play` (``R3@2``), :class:`Claim` (``claim 2``) and :class:`Pass`
(``pass``); :func:`plain_reader` reads them for a game's cards. Places are
numbered from 1, written without leading zeros.

>>> from referee.cards import CardSet
>>> read = plain_reader(CardSet("RB", ("red", "blue"), range(1, 6)))
>>> read("R3@2"), read("claim 2").place, str(read("pass"))
(parse_move('R3@2'), 2, 'pass')
>>> read("R3@02")
Traceback (most recent call last):
...
referee.errors.InvalidMoveError: malformed move 'R3@02': write a move like R3@2, claim 2 or pass
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.cards import Card, CardSet, InvalidCardError
from referee.errors import InvalidMoveError
from referee.game import MoveText
from referee.notation import MoveReader

__all__ = ["Claim", "Pass", "PlainMove", "Play", "plain_reader"]


@dataclass(frozen=True, slots=True, repr=False)
class Play(MoveText):
    """Put ``card`` on the mover's side of ``place`` (from 1)."""

    card: Card
    place: int

    def __str__(self) -> str:
        return f"{self.card}@{self.place}"


@dataclass(frozen=True, slots=True, repr=False)
class Claim(MoveText):
    """Claim ``place`` (from 1)."""

    place: int

    def __str__(self) -> str:
        return f"claim {self.place}"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(MoveText):
    """Play no card (when none can be played)."""

    def __str__(self) -> str:
        return "pass"


#: A move of a plain game.
PlainMove = Play | Claim | Pass

_PLAIN = re.compile(r"([A-Z][0-9]+)@([1-9][0-9]?)|claim ([1-9][0-9]?)|pass")


def plain_reader(cards: CardSet) -> MoveReader[PlainMove]:
    """The move reader of a plain game of ``cards`` (bounded and remembering,
    see :class:`referee.notation.MoveReader`)."""

    def parse(text: str) -> PlainMove:
        found = _PLAIN.fullmatch(text)
        if found is None:
            raise InvalidMoveError(
                f"malformed move {text!r}: write a move like R3@2, claim 2 or pass"
            )
        card, place, claimed = found.groups()
        if claimed is not None:
            return Claim(int(claimed))
        if place is None:
            return Pass()
        try:
            return Play(cards.parse(card), int(place))
        except InvalidCardError as error:
            raise InvalidMoveError(f"malformed move {text!r}: {error}") from None

    return MoveReader(parse, example="R3@2")
