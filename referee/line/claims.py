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
from referee.formations import FormationRule
from referee.prover import ClaimVerdict, Engine, Piece, Pool, decide_claim

__all__ = ["NO_POOL", "Place", "Sight", "describe_refusal", "verdict_at"]

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
