"""Claims at a contested place, proved through the prover: the verdict on a
complete side, what one position shows, and a refusal put in words.

A place (a stone, a wall tile) has two sides of cards in play order, the ply
at which each side became complete, and the formation rule in force there
(:class:`Place`). The kernel knows no game: each game says how its cards
become the prover's pieces and who is claiming.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, Protocol

from referee.cards import Card
from referee.formations import FormationRule, Kind
from referee.prover import ClaimVerdict, Engine, Piece, Pool, decide_claim

__all__ = [
    "NO_POOL",
    "Place",
    "PlainBest",
    "Sight",
    "card_bits",
    "describe_refusal",
    "mask_of",
    "verdict_at",
]

#: The empty pool: against a complete side nothing can be added.
NO_POOL = Pool(())


class Place(Protocol):
    """A contested place: both sides' cards in play order and completion times."""

    @property
    def sides(self) -> Sequence[tuple[Any, ...]]: ...

    @property
    def completed(self) -> Sequence[int | None]: ...

    @property
    def rule(self) -> FormationRule: ...


def verdict_at(
    place: Place,
    player: int,
    *,
    pieces: Callable[[Iterable[Any]], list[Piece]],
    pool: Callable[[], Pool] | Pool,
    colours: int,
    engine: Engine = "exact",
    who: str = "claimant",
) -> ClaimVerdict:
    """The prover's verdict on ``player`` claiming ``place`` with its complete side.

    ``pieces`` turns a side into the prover's pieces; ``pool`` is every card
    the opposing side may still get (or a function giving it, asked only when
    that side is incomplete). Against a complete side, ties go to whoever
    completed first; against an incomplete one, to the claimant. Raises
    ``ValueError`` if ``player``'s side (``who`` in the message) is incomplete.
    """
    rule = place.rule
    mine, theirs = place.sides[player], place.sides[1 - player]
    if len(mine) < rule.size:
        raise ValueError(f"the {who}'s formation is not complete")
    first = True
    if len(theirs) == rule.size:
        # Against a complete side nothing can be added, so no pool is needed.
        pool = NO_POOL
        mine_at, theirs_at = place.completed[player], place.completed[1 - player]
        first = mine_at is not None and theirs_at is not None and mine_at < theirs_at
    elif not isinstance(pool, Pool):
        pool = pool()
    return decide_claim(
        pieces(mine),
        pieces(theirs),
        pool,
        rule,
        colours=colours,
        claimant_completed_first=first,
        engine=engine,
    )


def describe_refusal(
    verdict: ClaimVerdict,
    card_of: Callable[[tuple[int, int]], object],
    *,
    opponent: str = "opponent",
    wild: str = "wildcards",
) -> str:
    """Why a claim is refused, in words: the opposing formation that is not
    beaten, or the cards that would complete one that beats the claimant.

    ``card_of`` names the card of a prover pair; ``opponent`` is how the
    opposing side is called (``"defender"`` on a wall).
    """
    best = verdict.opponent_best
    if best is None:  # pragma: no cover - a refusal always has a witness
        return verdict.explain()
    if verdict.opponent_complete:
        return f"the {opponent}'s {best.strength} is not beaten ({verdict.explain()})"
    cards = " ".join(str(card_of(p)) for p in best.cards)
    how = f"adding {cards} makes" if cards else f"its {wild} make"
    return f"the {opponent} can still beat your {verdict.claimant.strength}: {how} {best.strength}"


class Sight:
    """The cards one position shows and its pool (every card unseen), each
    computed on first use: the claims of one ply share them.

    ``see`` gives the visible cards; ``pairs`` maps every card of the game, in
    card order, to its prover pair.

    >>> from referee.cards import CardSet
    >>> cards = CardSet(colours="RB", colour_names=("red", "blue"), values=range(1, 3))
    >>> pairs = {card: cards.as_pair(card) for card in cards.cards}
    >>> sight = Sight(lambda: {Card("R", 1)}, pairs)
    >>> sorted(map(str, sight.seen)), len(sight.pool)
    (['R1'], 3)
    """

    __slots__ = ("_pairs", "_pool", "_see", "_seen")

    def __init__(
        self, see: Callable[[], AbstractSet[Card]], pairs: Mapping[Card, tuple[int, int]]
    ) -> None:
        self._see = see
        self._pairs = pairs
        self._seen: AbstractSet[Card] | None = None
        self._pool: Pool | None = None

    @property
    def seen(self) -> AbstractSet[Card]:
        """The visible cards."""
        if self._seen is None:
            self._seen = self._see()
        return self._seen

    @property
    def pool(self) -> Pool:
        """The prover's pool: every card of the game that is not visible."""
        if self._pool is None:
            seen = self.seen
            self._pool = Pool([pair for card, pair in self._pairs.items() if card not in seen])
        return self._pool


class PlainBest:
    """The strongest formation a side of plain cards (no wildcards) can still
    reach from the unseen cards of one deck, found directly: what the
    prover's ``best_reachable`` answers, without a search, for the questions
    a playout asks at every ply.

    Each kind's best completion is found strongest kind first (colour run,
    three of a kind, colour, run, sum, among the kinds the rule counts); a
    completion that meets a kind's condition is worth at least that kind, so
    the first kind reachable holds the best key.

    >>> from referee.cards import CardSet
    >>> deck = CardSet(colours="RB", colour_names=("red", "blue"), values=range(1, 6))
    >>> best = PlainBest(deck.cards)
    >>> rank, added = best.best((Card("R", 4),), {Card("R", 4), Card("R", 5)}, FormationRule(3))
    >>> rank, [str(c) for c in added]
    ((<Kind.COLOR_RUN: 4>, 9), ['R2', 'R3'])
    """

    __slots__ = ("_by_colour", "_by_value", "_colours", "_high", "_low", "_ordered")

    def __init__(self, cards: Iterable[Card]) -> None:
        deck = sorted(set(cards), key=lambda c: (c.value, c.colour))
        self._colours = tuple(dict.fromkeys(c.colour for c in deck))
        self._low = min(c.value for c in deck)
        self._high = max(c.value for c in deck)
        #: every card, lowest value first
        self._ordered = tuple(deck)
        #: colour -> its cards, lowest value first
        self._by_colour = {k: tuple(c for c in deck if c.colour == k) for k in self._colours}
        #: value -> its cards
        self._by_value = {
            v: tuple(c for c in deck if c.value == v) for v in range(self._low, self._high + 1)
        }

    def best(
        self, side: Sequence[Card], seen: AbstractSet[Card], rule: FormationRule
    ) -> tuple[tuple[int, int], tuple[Card, ...]] | None:
        """The rule's key of the best formation ``side`` can reach and the
        cards it adds, or ``None`` when too few cards are unseen to complete
        it. ``seen`` holds every card that cannot be added (``side``'s own
        among them)."""
        size, kinds, lower = rule.size, rule.kinds, rule.lower_sum_wins
        values = [c.value for c in side]
        colours = {c.colour for c in side}
        missing = size - len(values)
        total = sum(values)
        different = len(set(values))
        in_colours = colours or self._colours
        sign = -1 if lower else 1
        if different == len(values):
            first = max(values) - size + 1 if values else self._low
            last = min(values) if values else self._high - size + 1
            lows = range(max(first, self._low), min(last, self._high - size + 1) + 1)
            runs = list(reversed(lows)) if not lower else list(lows)
            if Kind.COLOR_RUN in kinds and len(colours) <= 1:
                for low in runs:
                    for colour in in_colours:
                        added = tuple(
                            Card(colour, v) for v in range(low, low + size) if v not in values
                        )
                        if seen.isdisjoint(added):
                            total_run = low * size + size * (size - 1) // 2
                            return (Kind.COLOR_RUN, sign * total_run), added
        if Kind.THREE_OF_A_KIND in kinds and different <= 1:
            every = range(self._low, self._high + 1)
            order = values[:1] or (every if lower else reversed(every))
            for value in order:
                unseen = [c for c in self._by_value[value] if c not in seen]
                if len(unseen) >= missing:
                    return (Kind.THREE_OF_A_KIND, sign * value * size), tuple(unseen[:missing])
        if Kind.COLOR in kinds and len(colours) <= 1:
            found: tuple[int, tuple[Card, ...]] | None = None
            for colour in in_colours:
                picked = self._pick(self._by_colour[colour], seen, missing, lower)
                if picked is not None:
                    signed = sign * (total + sum(c.value for c in picked))
                    if found is None or signed > found[0]:
                        found = signed, picked
            if found is not None:
                return (Kind.COLOR, found[0]), found[1]
        if Kind.RUN in kinds and different == len(values):
            for low in runs:
                chosen: list[Card] = []
                for v in range(low, low + size):
                    if v in values:
                        continue
                    card = next((c for c in self._by_value[v] if c not in seen), None)
                    if card is None:
                        break
                    chosen.append(card)
                else:
                    total_run = low * size + size * (size - 1) // 2
                    return (Kind.RUN, sign * total_run), tuple(chosen)
        picked = self._pick(self._ordered, seen, missing, lower)
        if picked is None:
            return None
        return (Kind.SUM, sign * (total + sum(c.value for c in picked))), picked

    @staticmethod
    def _pick(
        cards: tuple[Card, ...], seen: AbstractSet[Card], count: int, lowest: bool
    ) -> tuple[Card, ...] | None:
        """The ``count`` unseen cards of ``cards`` (lowest value first) with the
        highest values (the lowest with ``lowest``), or ``None`` if too few."""
        picked: list[Card] = []
        if count == 0:
            return ()
        for card in cards if lowest else reversed(cards):
            if card not in seen:
                picked.append(card)
                if len(picked) == count:
                    return tuple(picked)
        return None


def card_bits(cards: Iterable[Card]) -> dict[Card, int]:
    """Each card of a deck with its bit, in deck order: sets of cards as masks
    (an ``int``), which the claim paths of both games keep from ply to ply.

    >>> bits = card_bits([Card("R", 1), Card("R", 2)])
    >>> bits[Card("R", 2)], mask_of(bits, bits)
    (2, 3)
    """
    return {card: 1 << i for i, card in enumerate(cards)}


def mask_of(bits: Mapping[Card, int], cards: Iterable[Card]) -> int:
    """The mask of ``cards`` (see :func:`card_bits`)."""
    mask = 0
    for card in cards:
        mask |= bits[card]
    return mask
