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

from collections import Counter
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from enum import Enum
from typing import Any

from referee.cards import Card, CardSet
from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule, Kind
from referee.line.cards import CardIndex
from referee.line.claims import Kept
from referee.line.place import Place, slot_writer
from referee.prover import Wildcard

__all__ = [
    "ALL_SIEGE",
    "ALL_TACTICS",
    "GATE",
    "INDEX",
    "SIEGE_CARDS",
    "TACTIC_CARDS",
    "TACTIC_COUNT",
    "TILES",
    "WALL",
    "AnyCard",
    "TacticCard",
    "Tile",
    "describe_wall",
    "made_tile",
    "parse_card",
]

#: The 60 siege cards: five colours, values 0-11 (our colour codes; see the docs).
SIEGE_CARDS = CardSet(
    colours="RYGBP",
    colour_names=("red", "yellow", "green", "blue", "purple"),
    values=range(12),
)
#: The siege cards as small integers and bit masks (see :mod:`referee.line.cards`).
INDEX = CardIndex(SIEGE_CARDS)


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


class _CardCount(Counter[AnyCard]):
    """A count of cards that cannot be changed (shared by every game).

    In-place arithmetic gives a new, ordinary ``Counter``, so the usual
    ``left = rules.all_cards; left -= seen`` works and leaves this one intact;
    every other change raises ``TypeError``.
    """

    def __init__(self, cards: Iterable[AnyCard] = ()) -> None:
        dict.__init__(self, Counter(cards))

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("the cards of the game are fixed: copy them with Counter(...) first")

    __setitem__ = __delitem__ = _refuse
    update = subtract = clear = pop = popitem = setdefault = _refuse

    def __isub__(self, other: Any) -> Counter[AnyCard]:  # type: ignore[override,misc]
        result: Counter[AnyCard] = Counter(self) - other
        return result

    def __iadd__(self, other: Any) -> Counter[AnyCard]:  # type: ignore[override,misc]
        result: Counter[AnyCard] = Counter(self) + other
        return result

    def __iand__(self, other: Any) -> Counter[AnyCard]:  # type: ignore[override,misc]
        result: Counter[AnyCard] = Counter(self) & other
        return result

    def __ior__(self, other: Any) -> Counter[AnyCard]:  # type: ignore[override,misc]
        result: Counter[AnyCard] = Counter(self) | other
        return result

    def __reduce__(self) -> Any:
        return (type(self), (list(self.elements()),))


#: The cards of the base game, counted (fixed: see ``Rules.all_cards``).
ALL_SIEGE: Counter[AnyCard] = _CardCount(SIEGE_CARDS.cards)
#: The cards of the tactics variant, counted (the two jokers count twice).
ALL_TACTICS: Counter[AnyCard] = _CardCount([*SIEGE_CARDS.cards, *TACTIC_CARDS])
#: The tactic cards, counted (the two jokers count twice).
TACTIC_COUNT: Counter[AnyCard] = _CardCount(TACTIC_CARDS)


def parse_card(text: str) -> AnyCard:
    """Read a siege card (``"R7"``) or a tactic card (``"joker"``); shape only.

    >>> parse_card("B11"), parse_card("shield")
    (Card('B', 11), <TacticCard.SHIELD: 'shield'>)
    """
    if text[:1].islower():
        return TacticCard.parse(text)
    return Card.parse(text)


@dataclass(frozen=True, slots=True, init=False)
class Tile(Place):
    """One wall tile: its side up, both sides' cards in play order, completion times.

    ``number`` is 1-7 from the left; ``completed`` holds, per side, the ply at
    which that side's formation became complete (``None`` while incomplete).
    Built as ``Tile(number, damaged, sides, completed)``. A tile also keeps
    (see :class:`~referee.line.place.Place`) each side's siege cards as a
    mask, the size of a complete side and the verdicts last proved there
    (:class:`~referee.line.claims.Kept`).

    >>> tile = Tile(2).with_card(0, Card("R", 7), 5)
    >>> tile.sides, tile.masks[0] == 1 << INDEX.ids[Card("R", 7)], tile.size
    (((Card('R', 7),), ()), True, 4)
    """

    number: int = 0
    damaged: bool = False

    _INDEX = INDEX

    def __init__(
        self,
        number: int,
        damaged: bool = False,
        sides: tuple[tuple[AnyCard, ...], tuple[AnyCard, ...]] = ((), ()),
        completed: tuple[int | None, int | None] = (None, None),
    ) -> None:
        _NUMBER(self, number)
        _DAMAGED(self, damaged)
        _SIDES(self, sides)
        _COMPLETED(self, completed)
        _KEPT(self, Kept())
        _MASKS(self, (0, 0))
        _SIZE(self, 0)
        if type(number) is int and 1 <= number <= TILES and type(damaged) is bool:
            # malformed sides have none: the state that holds the tile says so
            with suppress(TypeError):
                self.__post_init__()  # the masks and the size

    @property
    def rule(self) -> FormationRule:
        """The formation rule of the side that is up.

        >>> Tile(4, damaged=True).rule.lower_sum_wins
        True
        """
        return WALL[self.number - 1][self.damaged]

    def with_side(self, player: int, side: Sequence[AnyCard], ply: int) -> Tile:
        """This tile with ``player``'s side replaced; completion time kept or reset.

        A side keeps its completion time while unchanged; a side that becomes
        complete now gets ``ply``; an incomplete side has none.
        """
        side = tuple(side)
        old = self.completed[player]
        if len(side) != self.size:
            done: int | None = None
        elif side == self.sides[player] and old is not None:
            done = old
        else:
            done = ply
        mask = INDEX.mask(c for c in side if type(c) is Card)
        sides, completed, masks = self.sides, self.completed, self.masks
        if player == 0:
            return self._remade((side, sides[1]), (done, completed[1]), (mask, masks[1]))
        return self._remade((sides[0], side), (completed[0], done), (masks[0], mask))

    def _remade(
        self,
        sides: tuple[tuple[AnyCard, ...], ...],
        completed: tuple[int | None, ...],
        masks: tuple[int, int],
    ) -> Tile:
        return made_tile(self.number, self.damaged, sides, completed, masks, self.size)


_new = object.__new__
_NUMBER, _DAMAGED, _SIDES, _COMPLETED, _MASKS, _SIZE, _KEPT = (
    slot_writer(Tile, name)
    for name in ("number", "damaged", "sides", "completed", "masks", "size", "kept")
)


def made_tile(
    number: int,
    damaged: bool,
    sides: tuple[tuple[AnyCard, ...], ...],
    completed: tuple[int | None, ...],
    masks: tuple[int, int],
    size: int,
) -> Tile:
    """A tile made by the rules, nothing checked (its derived fields given):
    the constructor of the hot plies, which writes each slot of the frozen
    instance in turn (a fresh :class:`~referee.line.claims.Kept`: nothing
    proved yet)."""
    tile: Tile = _new(Tile)
    _NUMBER(tile, number)
    _DAMAGED(tile, damaged)
    _SIDES(tile, sides)
    _COMPLETED(tile, completed)
    _MASKS(tile, masks)
    _SIZE(tile, size)
    _KEPT(tile, Kept())
    return tile


def describe_wall() -> str:
    """The wall table in words, one line per tile."""
    lines = []
    for number, (intact, damaged) in enumerate(WALL, start=1):
        name = f"tile {number}" + (" (gate)" if number == GATE else "")
        lines.append(f"{name}: intact {intact.describe()} | damaged {damaged.describe()}")
    return "\n".join(lines)
