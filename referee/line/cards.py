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
from itertools import pairwise

from referee.cards import Card, CardSet
from referee.formations import FormationRule, Kind, Strength

__all__ = ["CardIndex", "rank", "strength_of"]

#: A rank is ``kind * _KIND + total`` (``_KIND - 1 - total`` where the lower sum
#: wins): totals stay below 64 (four cards of at most 11).
_KIND = 64


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

    ``cards[id]`` is a card and ``ids[card]`` its id (card set order);
    ``values``, ``colours`` and ``pairs`` give each id's value, colour index
    and prover pair; ``by_value[v]`` and ``by_colour[c]`` are masks.
    """

    __slots__ = (
        "by_colour",
        "by_value",
        "cards",
        "colour_count",
        "colours",
        "everything",
        "high",
        "highest",
        "highest_of_colour",
        "ids",
        "low",
        "pairs",
        "spans",
        "values",
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
        self.everything = (1 << len(self.cards)) - 1
        #: value -> the mask of its cards (index = value)
        self.by_value: tuple[int, ...] = tuple(
            self._mask_where(lambda i, v=v: self.values[i] == v) for v in range(self.high + 1)
        )
        #: colour -> the mask of its cards
        self.by_colour: tuple[int, ...] = tuple(
            self._mask_where(lambda i, c=c: self.colours[i] == c) for c in range(self.colour_count)
        )
        #: (size, lowest value) -> the mask of every card with a value in the run
        self.spans: dict[tuple[int, int], int] = {
            (size, low): self._mask_where(lambda i, s=size, v=low: v <= self.values[i] < v + s)
            for size in range(1, 10)
            for low in range(self.low, self.high + 1)
        }
        order = sorted(range(len(self.cards)), key=lambda i: (-self.values[i], i))
        #: every card's (bit, value), highest value first
        self.highest: tuple[tuple[int, int], ...] = tuple((1 << i, self.values[i]) for i in order)
        #: colour -> its cards' (bit, value), highest value first
        self.highest_of_colour: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((1 << i, self.values[i]) for i in order if self.colours[i] == c)
            for c in range(self.colour_count)
        )

    def _mask_where(self, test: object) -> int:
        mask = 0
        for i in range(len(self.cards)):
            if test(i):  # type: ignore[operator]
                mask |= 1 << i
        return mask

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
        values = []
        colours = 0
        for i in ids_of(mask):
            values.append(self.values[i])
            colours |= 1 << self.colours[i]
        return _classify(rule, values, colours & (colours - 1) == 0)

    def best(self, side: int, seen: int, rule: FormationRule) -> tuple[int, int] | None:
        """The strongest formation the plain cards ``side`` can still become:
        its rank and the mask of the cards it adds (none of them in ``seen``,
        which holds every card that cannot be added, ``side``'s own among them),
        or ``None`` when too few cards are left to complete it. What the
        prover's ``best_reachable`` answers, found directly: each kind's best
        completion, strongest kind first (a completion that meets a kind's
        condition is worth at least that kind, so the first kind reachable holds
        the best rank).

        >>> from referee.cards import Card, CardSet
        >>> deck = CardIndex(CardSet("RB", ("red", "blue"), range(1, 6)))
        >>> side = deck.mask([Card("R", 4)])
        >>> ranked, added = deck.best(side, side | deck.mask([Card("R", 5)]), FormationRule(3))
        >>> strength_of(FormationRule(3), ranked), deck.cards_of(added)
        (Strength(kind=<Kind.COLOR_RUN: 4>, total=9), (Card('R', 2), Card('R', 3)))
        """
        values: list[int] = []
        colours = 0
        for i in ids_of(side):
            values.append(self.values[i])
            colours |= 1 << self.colours[i]
        size, kinds = rule.size, rule.kinds
        missing = size - len(values)
        if missing <= 0:
            return _classify(rule, values, colours & (colours - 1) == 0), 0
        one_colour = colours & (colours - 1) == 0
        in_colours = [colours.bit_length() - 1] if colours else range(self.colour_count)
        free = ~seen
        found: tuple[int, int, int] | None = None
        distinct = len(set(values)) == len(values)
        lows = self._run_lows(values, size, rule.lower_sum_wins) if distinct else ()
        if Kind.COLOR_RUN in kinds and one_colour:
            found = self._colour_run(side, free, size, lows, in_colours)
        if found is None and Kind.THREE_OF_A_KIND in kinds and len(set(values)) <= 1:
            found = self._same_value(values, free, size, missing, rule.lower_sum_wins)
        if found is None and Kind.COLOR in kinds and one_colour:
            found = self._colour(values, free, missing, rule.lower_sum_wins, in_colours)
        if found is None and Kind.RUN in kinds:
            found = self._run(values, free, size, lows)
        if found is None:
            found = self._sum(values, free, missing, rule.lower_sum_wins)
        if found is None:
            return None
        kind, total, added = found
        return rank(rule, kind, total), added

    # --- each kind's best completion (see :meth:`best`) ----------------------------------

    def _run_lows(self, values: list[int], size: int, lower: bool) -> range:
        """The lowest values of the runs that hold ``values``, best first."""
        first = max(max(values) - size + 1, self.low) if values else self.low
        last = min(min(values), self.high - size + 1) if values else self.high - size + 1
        return range(first, last + 1) if lower else range(last, first - 1, -1)

    def _colour_run(
        self, side: int, free: int, size: int, lows: range | tuple[()], colours: Iterable[int]
    ) -> tuple[int, int, int] | None:
        spans, by_colour = self.spans, self.by_colour
        for low in lows:
            span = spans[size, low]
            for colour in colours:
                added = span & by_colour[colour] & ~side
                if not added & ~free:
                    return Kind.COLOR_RUN, low * size + size * (size - 1) // 2, added
        return None

    def _same_value(
        self, values: list[int], free: int, size: int, missing: int, lower: bool
    ) -> tuple[int, int, int] | None:
        every = range(self.low, self.high + 1)
        for value in values[:1] or (every if lower else reversed(every)):
            unseen = self.by_value[value] & free
            if unseen.bit_count() >= missing:
                added = 0
                for _ in range(missing):
                    lowest = unseen & -unseen
                    added |= lowest
                    unseen ^= lowest
                return Kind.THREE_OF_A_KIND, value * size, added
        return None

    def _colour(
        self, values: list[int], free: int, missing: int, lower: bool, colours: Iterable[int]
    ) -> tuple[int, int, int] | None:
        best: tuple[int, int, int] | None = None
        for colour in colours:
            picked = _pick(self.highest_of_colour[colour], free, missing, lower)
            if picked is not None:
                total = sum(values) + picked[0]
                if best is None or (total < best[1] if lower else total > best[1]):
                    best = Kind.COLOR, total, picked[1]
        return best

    def _run(
        self, values: list[int], free: int, size: int, lows: range | tuple[()]
    ) -> tuple[int, int, int] | None:
        by_value = self.by_value
        for low in lows:
            added = 0
            for value in range(low, low + size):
                if value in values:
                    continue
                unseen = by_value[value] & free
                if not unseen:
                    break
                added |= unseen & -unseen
            else:
                return Kind.RUN, low * size + size * (size - 1) // 2, added
        return None

    def _sum(
        self, values: list[int], free: int, missing: int, lower: bool
    ) -> tuple[int, int, int] | None:
        picked = _pick(self.highest, free, missing, lower)
        if picked is None:
            return None
        return Kind.SUM, sum(values) + picked[0], picked[1]


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


def _pick(
    cards: tuple[tuple[int, int], ...], free: int, count: int, lowest: bool
) -> tuple[int, int] | None:
    """The total and mask of the ``count`` cards of ``cards`` (highest first)
    in ``free`` with the highest values (the lowest with ``lowest``)."""
    total = added = picked = 0
    for bit, value in reversed(cards) if lowest else cards:
        if bit & free:
            total += value
            added |= bit
            picked += 1
            if picked == count:
                return total, added
    return None


def _classify(rule: FormationRule, values: list[int], one_colour: bool) -> int:
    """The rank of a complete formation of plain cards (``rule.classify``)."""
    kinds = rule.kinds
    ordered = sorted(values)
    total = sum(values)
    run = all(b - a == 1 for a, b in pairwise(ordered))
    if one_colour and run and Kind.COLOR_RUN in kinds:
        kind = Kind.COLOR_RUN
    elif ordered[0] == ordered[-1] and Kind.THREE_OF_A_KIND in kinds:
        kind = Kind.THREE_OF_A_KIND
    elif one_colour and Kind.COLOR in kinds:
        kind = Kind.COLOR
    elif run and Kind.RUN in kinds:
        kind = Kind.RUN
    else:
        kind = Kind.SUM
    return rank(rule, kind, total)
