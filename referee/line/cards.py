"""A game's plain cards as small integers: ids, bit masks and the tables that
formations are read from.

Inside the rules a card is its id (its place in the game's
:class:`~referee.cards.CardSet`), a set of cards is a bit mask (an ``int``,
bit ``id`` set for each card), and a formation's strength is a **rank**, one
``int`` that orders formations as the rule does (:func:`rank`). The tables
(the cards of each value and colour, highest first) are built once, from the
card set, as data.

>>> from referee.cards import Card, CardSet
>>> deck = CardIndex(CardSet("RB", ("red", "blue"), range(1, 4)))
>>> deck.ids[Card("B", 2)], deck.mask([Card("R", 1), Card("B", 2)]), deck.cards_of(0b10001)
(4, 17, (Card('R', 1), Card('B', 2)))
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.cards import Card, CardSet
from referee.formations import FormationRule, Kind, Strength

__all__ = ["CardIndex", "rank", "strength_of"]

#: A rank is ``kind * _KIND + total`` (``_KIND - 1 - total`` where the lower sum
#: wins): totals stay below 64 (four cards of at most 11).
_KIND = 64
#: The kinds as module constants: reading ``Kind.RUN`` goes through the enum's
#: class machinery on every call, a plain global does not.
_COLOR_RUN, _THREE_OF_A_KIND, _COLOR, _RUN, _SUM = (
    Kind.COLOR_RUN,
    Kind.THREE_OF_A_KIND,
    Kind.COLOR,
    Kind.RUN,
    Kind.SUM,
)


def rank(rule: FormationRule, kind: int, total: int) -> int:
    """The rank of a formation of ``kind`` adding up to ``total`` under ``rule``:
    the stronger formation has the larger rank (``rule.key`` as one ``int``).

    >>> from referee.formations import FormationRule
    >>> rank(FormationRule(3), Kind.COLOR, 20) > rank(FormationRule(3), Kind.RUN, 24)
    True
    >>> low = FormationRule(3, lower_sum_wins=True)
    >>> rank(low, Kind.SUM, 6) > rank(low, Kind.SUM, 9)
    True
    """
    return kind * _KIND + (_KIND - 1 - total if rule.lower_sum_wins else total)


def strength_of(rule: FormationRule, ranked: int) -> Strength:
    """The :class:`~referee.formations.Strength` a rank stands for.

    >>> strength_of(FormationRule(3), rank(FormationRule(3), Kind.RUN, 12))
    Strength(kind=<Kind.RUN: 1>, total=12)
    """
    kind, total = divmod(ranked, _KIND)
    return Strength(Kind(kind), _KIND - 1 - total if rule.lower_sum_wins else total)


class CardIndex:
    """The plain cards of a game as integers, and the tables read from them.

    ``cards[id]`` is a card and ``ids[card]`` its id (card set order: colour
    by colour, each colour's values increasing, so a colour's cards are a
    *row* of ``width`` bits, one per value); ``values``, ``colours`` and
    ``pairs`` give each id's value, colour index and prover pair;
    ``by_value[v]`` and ``by_colour[c]`` are masks.
    """

    __slots__ = (
        "by_colour",
        "by_value",
        "cards",
        "colour_count",
        "colours",
        "everything",
        "high",
        "ids",
        "low",
        "pairs",
        "row",
        "values",
        "width",
    )

    def __init__(self, card_set: CardSet) -> None:
        self.cards: tuple[Card, ...] = card_set.cards
        self.ids: dict[Card, int] = {card: i for i, card in enumerate(self.cards)}
        self.values: tuple[int, ...] = tuple(card.value for card in self.cards)
        self.colours: tuple[int, ...] = tuple(
            card_set.colour_index(card.colour) for card in self.cards
        )
        self.pairs: tuple[tuple[int, int], ...] = tuple(zip(self.colours, self.values, strict=True))
        self.colour_count = len(card_set.colours)
        self.low, self.high = min(self.values), max(self.values)
        #: values per colour: a colour's row of bits
        self.width = self.high - self.low + 1
        if len(self.cards) != self.width * self.colour_count or any(
            i != self.colours[i] * self.width + self.values[i] - self.low
            for i in range(len(self.cards))
        ):
            raise ValueError("a card index needs every value of every colour, colour by colour")
        self.row = (1 << self.width) - 1
        self.everything = (1 << len(self.cards)) - 1
        #: value -> the mask of its cards (index = value)
        self.by_value: tuple[int, ...] = tuple(
            sum(1 << i for i in range(len(self.cards)) if self.values[i] == v)
            for v in range(self.high + 1)
        )
        #: colour -> the mask of its cards
        self.by_colour: tuple[int, ...] = tuple(
            self.row << c * self.width for c in range(self.colour_count)
        )

    def mask(self, cards: Iterable[Card]) -> int:
        """The mask of ``cards`` (plain cards of this index)."""
        ids = self.ids
        mask = 0
        for card in cards:
            mask |= 1 << ids[card]
        return mask

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        """The cards of ``mask``, in id order."""
        return tuple(self.cards[i] for i in ids_of(mask))

    def rank_of(self, mask: int, rule: FormationRule) -> int:
        """The rank of the complete formation of plain cards ``mask`` under ``rule``
        (what ``rule.classify`` says, as a rank).

        >>> from referee.cards import Card, CardSet
        >>> deck = CardIndex(CardSet("RB", ("red", "blue"), range(1, 4)))
        >>> rule = FormationRule(3)
        >>> strength_of(rule, deck.rank_of(deck.mask([Card("R", 1), Card("R", 2), Card("R", 3)]), rule))
        Strength(kind=<Kind.COLOR_RUN: 4>, total=6)
        """
        values, colours_of = self.values, self.colours
        count = total = colours = spread = 0
        while mask:
            bit = mask & -mask
            mask ^= bit
            i = bit.bit_length() - 1
            value = values[i]
            count += 1
            total += value
            colours |= 1 << colours_of[i]
            spread |= 1 << value
        kinds = rule.kinds
        one_colour = colours & (colours - 1) == 0
        lowest = (spread & -spread).bit_length()
        run = spread.bit_count() == count and spread.bit_length() - lowest == count - 1
        if one_colour and run and _COLOR_RUN in kinds:
            kind = _COLOR_RUN
        elif spread & (spread - 1) == 0 and _THREE_OF_A_KIND in kinds:
            kind = _THREE_OF_A_KIND
        elif one_colour and _COLOR in kinds:
            kind = _COLOR
        elif run and _RUN in kinds:
            kind = _RUN
        else:
            kind = _SUM
        return kind * _KIND + (_KIND - 1 - total if rule.lower_sum_wins else total)

    def best(self, side: int, seen: int, rule: FormationRule) -> tuple[int, int] | None:
        """The strongest formation the plain cards ``side`` can still become:
        its rank and the mask of the cards it adds (none of them in ``seen``,
        which holds every card that cannot be added, ``side``'s own among them),
        or ``None`` when too few cards are left to complete it. What the
        prover's ``best_reachable`` answers, found directly: each kind's best
        completion, strongest kind first (a completion that meets a kind's
        condition is worth at least that kind, so the first kind reachable holds
        the best rank). Runs are found on the colours' rows of bits.

        >>> from referee.cards import Card, CardSet
        >>> deck = CardIndex(CardSet("RB", ("red", "blue"), range(1, 6)))
        >>> side = deck.mask([Card("R", 4)])
        >>> ranked, added = deck.best(side, side | deck.mask([Card("R", 5)]), FormationRule(3))
        >>> strength_of(FormationRule(3), ranked), deck.cards_of(added)
        (Strength(kind=<Kind.COLOR_RUN: 4>, total=9), (Card('R', 2), Card('R', 3)))
        """
        values = self.values
        width, colours_of = self.width, self.colours
        count = total = colours = have = 0
        mask = side
        while mask:
            bit = mask & -mask
            mask ^= bit
            i = bit.bit_length() - 1
            count += 1
            total += values[i]
            colours |= 1 << colours_of[i]
            have |= 1 << i % width  # the values held, as a row
        size, kinds, lower = rule.size, rule.kinds, rule.lower_sum_wins
        missing = size - count
        if missing <= 0:
            return self.rank_of(side, rule), 0
        free = self.everything & ~seen
        one_colour = colours & (colours - 1) == 0
        # A run holds distinct values, no further apart than its size allows.
        runs = have.bit_count() == count and have.bit_length() - (have & -have).bit_length() < size
        found: tuple[int, int, int] | None = None
        if runs and one_colour and _COLOR_RUN in kinds:
            found = self._colour_run(side, have, colours, free, size, lower)
        if found is None and have & (have - 1) == 0 and _THREE_OF_A_KIND in kinds:
            found = self._same_value(have, free, size, missing, lower)
        if found is None and one_colour and _COLOR in kinds:
            found = self._colour(colours, free, total, missing, lower)
        if found is None and runs and _RUN in kinds:
            found = self._run(have, free, size, lower)
        if found is None:
            found = self._sum(free, total, missing, lower)
        if found is None:
            return None
        kind, total, added = found
        return kind * _KIND + (_KIND - 1 - total if lower else total), added

    # --- each kind's best completion (see :meth:`best`) ----------------------------------

    def _starts(self, available: int, have: int, size: int, lower: bool) -> int:
        """The best start (a value offset) of a run of ``size`` values all in
        the row ``available`` and holding the row ``have``, or -1."""
        starts = available
        for shift in range(1, size):
            starts &= available >> shift
        if have:
            # The run holds the side's values: it starts at or below the lowest,
            # and reaches the highest.
            starts &= (1 << (have & -have).bit_length()) - 1
            reach = have.bit_length() - size
            if reach > 0:
                starts &= ~((1 << reach) - 1)
        if not starts:
            return -1
        return (starts & -starts).bit_length() - 1 if lower else starts.bit_length() - 1

    def _colour_run(
        self, side: int, have: int, colours: int, free: int, size: int, lower: bool
    ) -> tuple[int, int, int] | None:
        width, row = self.width, self.row
        best = -1
        chosen = 0
        for colour in (colours.bit_length() - 1,) if colours else range(self.colour_count):
            start = self._starts((free >> colour * width) & row | have, have, size, lower)
            if start >= 0 and (best < 0 or (start < best if lower else start > best)):
                best, chosen = start, colour
        if best < 0:
            return None
        run = (1 << size) - 1 << best + chosen * width
        return _COLOR_RUN, size * (best + self.low) + size * (size - 1) // 2, run & ~side

    def _same_value(
        self, have: int, free: int, size: int, missing: int, lower: bool
    ) -> tuple[int, int, int] | None:
        every = range(self.low, self.high + 1)
        held = (have.bit_length() - 1 + self.low,) if have else None
        for value in held or (every if lower else reversed(every)):
            unseen = self.by_value[value] & free
            if unseen.bit_count() >= missing:
                added = 0
                for _ in range(missing):
                    lowest = unseen & -unseen
                    added |= lowest
                    unseen ^= lowest
                return _THREE_OF_A_KIND, value * size, added
        return None

    def _colour(
        self, colours: int, free: int, total: int, missing: int, lower: bool
    ) -> tuple[int, int, int] | None:
        width, row = self.width, self.row
        best: tuple[int, int, int] | None = None
        for colour in (colours.bit_length() - 1,) if colours else range(self.colour_count):
            cards = (free >> colour * width) & row
            if cards.bit_count() < missing:
                continue
            picked = added = 0
            for _ in range(missing):
                at = (cards & -cards).bit_length() - 1 if lower else cards.bit_length() - 1
                cards ^= 1 << at
                picked += at + self.low
                added |= 1 << at + colour * width
            if best is None or (total + picked < best[1] if lower else total + picked > best[1]):
                best = _COLOR, total + picked, added
        return best

    def _run(self, have: int, free: int, size: int, lower: bool) -> tuple[int, int, int] | None:
        width, row = self.width, self.row
        available = have
        for colour in range(self.colour_count):
            available |= (free >> colour * width) & row
        start = self._starts(available, have, size, lower)
        if start < 0:
            return None
        added = 0
        for offset in range(start, start + size):
            if not have >> offset & 1:
                cards = self.by_value[offset + self.low] & free
                added |= cards & -cards
        return _RUN, size * (start + self.low) + size * (size - 1) // 2, added

    def _sum(self, free: int, total: int, missing: int, lower: bool) -> tuple[int, int, int] | None:
        every = range(self.low, self.high + 1)
        added = 0
        for value in every if lower else reversed(every):
            cards = self.by_value[value] & free
            while cards and missing:
                lowest = cards & -cards
                added |= lowest
                cards ^= lowest
                total += value
                missing -= 1
            if not missing:
                return _SUM, total, added
        return None


def ids_of(mask: int) -> list[int]:
    """The ids of the cards of ``mask``, lowest first.

    >>> ids_of(0b10110)
    [1, 2, 4]
    """
    ids = []
    while mask:
        lowest = mask & -mask
        ids.append(lowest.bit_length() - 1)
        mask ^= lowest
    return ids
