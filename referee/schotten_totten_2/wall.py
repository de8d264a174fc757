"""Schotten Totten 2's material as data: siege cards, tactic cards and the wall.

The wall table (RULINGS.md, "Schotten Totten 2", ruling 2) lives here and only
here, so a correction is one edit:

    >>> print(describe_wall())
    tile 1: intact 3 cards, sum only | damaged 3 cards, run + sum
    tile 2: intact 4 cards, all kinds | damaged 2 cards, three_of_a_kind + sum
    tile 3: intact 3 cards, all kinds | damaged 3 cards, color + sum
    tile 4 (gate): intact 2 cards, all kinds | damaged 4 cards, sum only, lower sum wins
    tile 5: intact 3 cards, all kinds | damaged 3 cards, color + sum
    tile 6: intact 4 cards, all kinds | damaged 2 cards, three_of_a_kind + sum
    tile 7: intact 3 cards, sum only, lower sum wins | damaged 3 cards, run + sum

Cards are :class:`~referee.cards.Card` values for the 60 siege cards and
:class:`TacticCard` members for the 11 tactic cards:

    >>> SIEGE_CARDS.parse("P11"), TacticCard.parse("joker")
    (Card('P', 11), <TacticCard.JOKER: 'joker'>)
    >>> len(SIEGE_CARDS.cards), len(TACTIC_CARDS)
    (60, 11)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from referee.cards import Card, CardSet
from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule, Kind
from referee.line import copier
from referee.prover import Wildcard

__all__ = [
    "GATE",
    "SIEGE_CARDS",
    "TACTIC_CARDS",
    "TILES",
    "WALL",
    "AnyCard",
    "TacticCard",
    "Tile",
    "describe_wall",
    "parse_card",
]

#: The 60 siege cards: five colours, values 0-11 (our colour codes; see the docs).
SIEGE_CARDS = CardSet(
    colours="RYGBP",
    colour_names=("red", "yellow", "green", "blue", "purple"),
    values=range(12),
)


def _rule(size: int, *kinds: Kind, lower_sum_wins: bool = False) -> FormationRule:
    return FormationRule(size, frozenset(kinds) or SUM_ONLY, lower_sum_wins)


_ALL = tuple(ALL_KINDS)

#: The wall, left to right: ``(intact rule, damaged rule)`` of each tile.
#: Sizes are cards per side; kinds are those that count (a sum always counts).
WALL: tuple[tuple[FormationRule, FormationRule], ...] = (
    (_rule(3), _rule(3, Kind.RUN)),
    (_rule(4, *_ALL), _rule(2, Kind.THREE_OF_A_KIND)),
    (_rule(3, *_ALL), _rule(3, Kind.COLOR)),
    (_rule(2, *_ALL), _rule(4, lower_sum_wins=True)),
    (_rule(3, *_ALL), _rule(3, Kind.COLOR)),
    (_rule(4, *_ALL), _rule(2, Kind.THREE_OF_A_KIND)),
    (_rule(3, lower_sum_wins=True), _rule(3, Kind.RUN)),
)
#: Number of wall tiles.
TILES = len(WALL)
#: The tile showing the gate.
GATE = 4


class TacticCard(Enum):
    """The tactic cards of the tactics variant (two jokers, one of each other)."""

    JOKER = "joker"
    SPY = "spy"
    SHIELD = "shield"
    REDEPLOY = "redeploy"
    RECRUITMENT = "recruitment"
    DESERTION = "desertion"
    TREASON = "treason"
    EXPLOSION = "explosion"
    SUPPORT = "support"
    EXCHANGE = "exchange"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"<TacticCard.{self.name}: {self.value!r}>"

    @property
    def is_elite(self) -> bool:
        """Elite troops (joker, spy, shield) are played to a tile like siege cards."""
        return self in _ELITE

    @property
    def wildcard(self) -> Wildcard:
        """How the prover values an elite troop on a tile.

        >>> sorted(TacticCard.SHIELD.wildcard.values)
        [1, 2, 3]
        """
        try:
            return _WILDCARDS[self]
        except KeyError:
            raise ValueError(f"{self.value} is an action card, not an elite troop") from None

    @classmethod
    def parse(cls, text: str) -> TacticCard:
        """The tactic card named ``text`` (raises ``ValueError`` if none)."""
        try:
            return cls(text)
        except ValueError:
            raise ValueError(f"unknown tactic card {text!r}") from None


_ELITE = frozenset({TacticCard.JOKER, TacticCard.SPY, TacticCard.SHIELD})
_WILDCARDS = {
    TacticCard.JOKER: Wildcard.any_of(range(12), "joker"),
    TacticCard.SPY: Wildcard.exactly(10, "spy"),
    TacticCard.SHIELD: Wildcard.any_of(range(1, 4), "shield"),
}

#: The 11 tactic cards, one entry per physical card.
TACTIC_CARDS: tuple[TacticCard, ...] = (TacticCard.JOKER, *TacticCard)

#: A card in hand, on a tile or discarded: a siege card or a tactic card.
AnyCard = Card | TacticCard


def parse_card(text: str) -> AnyCard:
    """Read a siege card (``"R7"``) or a tactic card (``"joker"``); shape only.

    >>> parse_card("B11"), parse_card("shield")
    (Card('B', 11), <TacticCard.SHIELD: 'shield'>)
    """
    if text[:1].islower():
        return TacticCard.parse(text)
    return Card.parse(text)


@dataclass(frozen=True, slots=True)
class Tile:
    """One wall tile: its side up, both sides' cards in play order, completion times.

    ``number`` is 1-7 from the left; ``completed`` holds, per side, the ply at
    which that side's formation became complete (``None`` while incomplete).
    """

    number: int
    damaged: bool = False
    sides: tuple[tuple[AnyCard, ...], tuple[AnyCard, ...]] = ((), ())
    completed: tuple[int | None, int | None] = (None, None)

    @property
    def rule(self) -> FormationRule:
        """The formation rule of the side that is up.

        >>> Tile(4, damaged=True).rule.lower_sum_wins
        True
        """
        return WALL[self.number - 1][self.damaged]

    def room(self, player: int) -> bool:
        """Whether ``player`` may still add a card on its side."""
        return len(self.sides[player]) < self.rule.size

    def complete(self, player: int) -> bool:
        """Whether ``player``'s formation here is complete."""
        return len(self.sides[player]) == self.rule.size

    def with_side(self, player: int, side: Sequence[AnyCard], ply: int) -> Tile:
        """This tile with ``player``'s side replaced; completion time kept or reset.

        A side keeps its completion time while unchanged; a side that becomes
        complete now gets ``ply``; an incomplete side has none.
        """
        side = tuple(side)
        old = self.completed[player]
        if len(side) != self.rule.size:
            done: int | None = None
        elif side == self.sides[player] and old is not None:
            done = old
        else:
            done = ply
        sides = (side, self.sides[1]) if player == 0 else (self.sides[0], side)
        completed = (done, self.completed[1]) if player == 0 else (self.completed[0], done)
        return _new_sides(self, sides, completed)


#: A tile with both sides changed (the kernel's copier: no checks, the rules made them).
_new_sides = copier(Tile, "sides", "completed")


def describe_wall() -> str:
    """The wall table in words, one line per tile."""
    lines = []
    for number, (intact, damaged) in enumerate(WALL, start=1):
        name = f"tile {number}" + (" (gate)" if number == GATE else "")
        lines.append(f"{name}: intact {intact.describe()} | damaged {damaged.describe()}")
    return "\n".join(lines)
