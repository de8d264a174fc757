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
from referee.line.cards import CardIndex
from referee.prover import ClaimVerdict, Engine, Piece, Pool, decide_claim

__all__ = [
    "NO_POOL",
    "Kept",
    "Place",
    "Sight",
    "card_bits",
    "claim_answer",
    "describe_refusal",
    "mask_of",
    "plain_verdict",
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


class Kept:
    """What was last proved at one place, kept on the place itself (a field
    that takes no part in its equality, its ``repr`` or its pickle): per
    claimant, the last verdict and when it still stands; per side, the rank
    of its complete formation.

    A place is immutable, so everything a verdict depends on is fixed but the
    visible cards. Those mostly grow (cards on the places and the discard pile
    stay in sight), but may shrink (Schotten Totten 2's support shuffles
    discarded cards back into the deck): :meth:`answer` reads each kept verdict
    against the cards visible now, either way. A verdict is kept as
    ``(holds, mask)``:

    * ``(True, then)``: the claim holds on every table where the cards of
      ``then`` are visible (the opposing side can reach only less from a
      smaller pool); ``then`` is ``0`` when both sides are complete;
    * ``(False, witness)``: the claim is refused on every table where none of
      the cards of ``witness`` is visible (they complete a formation that beats
      it); ``witness`` is ``0`` when both sides are complete.

    >>> kept = Kept()
    >>> kept.verdicts[0] = (False, 0b100)
    >>> kept.answer(0, seen=0b011), kept.answer(0, seen=0b111), kept.answer(1, seen=0)
    (False, None, None)
    """

    __slots__ = ("ranks", "verdicts")

    def __init__(self) -> None:
        #: claimant -> ``(holds, mask)`` (see above), or ``None``
        self.verdicts: list[tuple[bool, int] | None] = [None, None]
        #: side -> the rank of its complete formation, or -1
        self.ranks: list[int] = [-1, -1]

    def answer(self, player: int, seen: int) -> bool | None:
        """The kept verdict on ``player``'s claim where ``seen`` is visible, if it stands."""
        found = self.verdicts[player]
        if found is None:
            return None
        holds, mask = found
        if holds:
            return True if not mask & ~seen else None
        return None if mask & seen else False

    def __reduce__(self) -> tuple[type[Kept], tuple[()]]:
        # A copy or a pickle starts afresh: what was proved is never data.
        return (Kept, ())

    def __repr__(self) -> str:
        return "Kept()"


def claim_answer(
    mine: int, best: tuple[int, int] | None, complete: bool, first: bool, seen: int
) -> tuple[bool, int]:
    """The claim rule, from ranks: ``mine`` is the claimant's rank; ``best``
    the opposing side's rank when it is ``complete``, else its best completion
    from the unseen cards (its rank and the cards it adds) or ``None`` when too
    few are unseen to complete it; ``first`` whether the claimant completed
    first (both sides complete) and ``seen`` the visible cards. Against a
    complete side the stronger wins, a tie to whoever completed first; against
    an incomplete one the claim holds unless its best completion beats
    ``mine`` (a tie goes to the claimant). The answer is what :class:`Kept`
    keeps: ``(holds, then)`` or ``(False, witness)``.

    >>> claim_answer(100, (100, 0), True, False, 0), claim_answer(100, (101, 0b110), False, True, 1)
    ((False, 0), (False, 6))
    """
    if complete:
        assert best is not None
        return mine > best[0] or (mine == best[0] and first), 0
    if best is None or best[0] <= mine:
        return True, seen
    return False, best[1]


def plain_verdict(
    index: CardIndex,
    rule: FormationRule,
    mine: int,
    theirs: int,
    theirs_count: int,
    first: bool,
    seen: int,
    theirs_rank: int = -1,
) -> tuple[bool, int]:
    """:func:`claim_answer` against a side of plain cards: ``theirs`` is the
    mask of its ``theirs_count`` cards (``theirs_rank`` its rank when
    complete, if known); its best completion is :meth:`CardIndex.best`."""
    if theirs_count == rule.size:
        ranked = index.rank_of(theirs, rule) if theirs_rank < 0 else theirs_rank
        return claim_answer(mine, (ranked, 0), True, first, seen)
    return claim_answer(mine, index.best(theirs, seen, rule), False, first, seen)


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
