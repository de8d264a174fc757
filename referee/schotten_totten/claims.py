"""The claim rule (RULINGS 4-7): when a stone may be claimed, and its proof.

A player claims an unclaimed stone with its complete formation there. Against
a complete opposing formation the stronger one wins, equal kind and sum going
to whoever completed first. Against an incomplete one the claimant must prove
that it can no longer be beaten: no way to complete the opposing side with
clan cards that are not visible (on a stone or discarded) makes a stronger
formation; one that only ties does not beat it, since the claimant completed
first. Elite troops on a side count with every value they can still take
(each side valuing its own at their best); tactic cards in hand play no part.

The proof runs over masks (:func:`referee.line.claims.plain_verdict`) when
both sides hold clan cards only, and through the prover when an elite troop
lies there. Its answer is kept on the stone (:class:`referee.line.claims.Kept`):
it stands as long as the stone is unchanged and the cards it depends on are
(or stay out of) sight, so a stone is proved again only when that changes.

>>> from referee.schotten_totten import new_game
>>> game = new_game(seed=3)
>>> provable(game)
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, product

from referee.cards import Card
from referee.errors import ClaimRefusedError
from referee.formations import FormationRule, Kind
from referee.line import illegal, place_at
from referee.line.cards import ids_of, rank
from referee.line.claims import (
    claim_answer,
    describe_refusal,
    plain_verdict,
    verdict_at,
)
from referee.prover import ClaimVerdict, Completion, Engine, Piece, Pool, best_reachable
from referee.schotten_totten.cards import CLAN_CARDS, INDEX, AnyCard, Tactic, wildcard_of
from referee.schotten_totten.moves import Claim
from referee.schotten_totten.state import ALL_STONES, STONES_IN, Phase, Reason, State, Stone

__all__ = [
    "CLAIMS",
    "UnseenPool",
    "check_claim",
    "decided",
    "elite_rank",
    "holds",
    "provable",
    "side_rank",
    "verdict",
]

#: The claim of each stone (index 0: stone 1).
CLAIMS = tuple(Claim(n) for n in range(1, 10))
_COLOURS = len(CLAN_CARDS.colours)


def check_claim(state: State, move: Claim) -> Stone:
    """The stone ``move`` claims, after every check of the claim rule; its
    refusal otherwise (a claim not proven carries the prover's verdict)."""
    player = state.to_move
    if state.rules.early_bird and state.phase is not Phase.PLAY:
        raise illegal(
            move,
            Reason.CLAIM_NOT_NOW,
            "with Der frühe Vogel, stones are claimed only at the start of the turn",
        )
    if not state.claims_now():
        raise illegal(move, Reason.CLAIM_NOT_NOW, "stones are claimed after playing (or passing)")
    stone = place_at(move, move.stone, state.stones, Reason.NO_SUCH_STONE, "stone")
    if stone.owner is not None:
        raise illegal(move, Reason.STONE_CLAIMED, f"stone {move.stone} is already claimed")
    if len(stone.sides[player]) < stone.size:
        raise illegal(
            move,
            Reason.FORMATION_INCOMPLETE,
            f"your formation at stone {move.stone} is not complete "
            f"({len(stone.sides[player])} of {stone.size} cards)",
        )
    if not holds(state, stone, player):
        found = verdict(state, stone, player, "exact")
        raise ClaimRefusedError(
            Reason.CLAIM_NOT_PROVEN,
            f"illegal move {str(move)!r}: {describe_refusal(found, CLAN_CARDS.from_pair)}",
            found,
        )
    return stone


def provable(state: State) -> list[Claim]:
    """The claims the player to move can prove now (whether claims may be
    made at this point of the turn aside), stone by stone."""
    player, seen, stones = state.to_move, state.seen, state.stones
    claims = []
    for i in STONES_IN[state.complete_sides >> 9 * player & ALL_STONES]:
        stone = stones[i]
        # The stone's kept verdict (Kept.answer, inlined), else a proof.
        found = stone.kept.verdicts[player]
        if found is None or (found[1] & ~seen if found[0] else found[1] & seen):
            found = _prove(state, stone, player)
        if found[0]:
            claims.append(CLAIMS[i])
    return claims


def holds(state: State, stone: Stone, player: int) -> bool:
    """Whether ``player``'s complete side at ``stone`` can be claimed on
    ``state``'s table: the prover's verdict, from the stone's kept one when it
    still stands."""
    kept = stone.kept.answer(player, state.seen)
    if kept is not None:
        return kept
    return _prove(state, stone, player)[0]


def _prove(state: State, stone: Stone, player: int) -> tuple[bool, int]:
    """The claim rule at ``stone`` (see :func:`decided`), kept on the stone
    with the ranks of its complete sides."""
    kept, sides, done, masks = stone.kept, stone.sides, stone.completed, stone.masks
    rule = stone.rule
    ranks = kept.ranks
    mine = ranks[player]
    if mine < 0:
        mine = ranks[player] = side_rank(rule, masks[player], _elite(sides[player]))
    other = 1 - player
    theirs = sides[other]
    elite: Sequence[Tactic] = (
        _elite(theirs) if masks[other].bit_count() < len(theirs) else _NO_ELITE
    )
    if len(theirs) == stone.size and ranks[other] < 0:
        ranks[other] = side_rank(rule, masks[other], elite)
    mine_at, theirs_at = done[player], done[other]
    answer = decided(
        rule,
        mine,
        masks[other],
        elite,
        len(theirs),
        mine_at is not None and theirs_at is not None and mine_at < theirs_at,
        state.seen,
        ranks[other],
    )
    kept.verdicts[player] = answer
    return answer


#: The values each elite troop may take (its wildcard's), increasing.
_ELITE_VALUES = {
    name: tuple(sorted(wildcard_of(Tactic(name)).values))
    for name in ("joker", "spy", "shield_bearer")
}

#: The kinds as plain constants (an enum member read in a loop is slow).
_COLOR_RUN, _THREE_OF_A_KIND, _COLOR, _RUN, _SUM = (
    Kind.COLOR_RUN,
    Kind.THREE_OF_A_KIND,
    Kind.COLOR,
    Kind.RUN,
    Kind.SUM,
)

#: A side of clan cards only: no elite troop (its mask holds every card).
_NO_ELITE: tuple[Tactic, ...] = ()


def _elite(side: Sequence[AnyCard]) -> list[Tactic]:
    """The elite troops on a side."""
    return [c for c in side if type(c) is Tactic]


def side_rank(rule: FormationRule, mask: int, elite: Sequence[Tactic]) -> int:
    """The rank of a complete side: its clan cards ``mask`` and its elite
    troops, each valued at its best (see :func:`elite_rank`)."""
    if not elite:
        return INDEX.rank_of(mask, rule)
    return elite_rank(rule, mask, elite)


def elite_rank(rule: FormationRule, mask: int, elite: Sequence[Tactic]) -> int:
    """The rank of a complete side with elite troops, each at its best: the
    best formation over every value each troop may take (RULINGS 6: a joker
    any value, the spy a 7, the shield bearer 1-3). A troop takes the colour
    of the side's clan cards (any colour when there are none): one colour is
    never weaker, since it only adds the colour kinds. What the prover's
    ``best_reachable`` finds for a complete side (a test compares them).

    >>> from referee.line.cards import strength_of
    >>> from referee.schotten_totten.cards import FORMATION
    >>> mask = INDEX.mask([Card("R", 8), Card("R", 9)])
    >>> strength_of(FORMATION, elite_rank(FORMATION, mask, [Tactic("joker")]))
    Strength(kind=<Kind.COLOR_RUN: 4>, total=24)
    """
    pairs = INDEX.pairs
    ids = ids_of(mask)
    values = [pairs[i][1] for i in ids]
    # The troops take the clan cards' colour: one colour if theirs is one.
    one_colour = len({pairs[i][0] for i in ids}) <= 1
    kinds = rule.kinds
    colour_run = one_colour and _COLOR_RUN in kinds
    colour = one_colour and _COLOR in kinds
    same, run_kind = _THREE_OF_A_KIND in kinds, _RUN in kinds
    best = -1
    for extra in product(*(_ELITE_VALUES[t.name] for t in elite)):
        # rule.classify on the values: the strongest kind that counts, else a sum.
        ordered = sorted((*values, *extra))
        count = len(ordered)
        run = ordered[-1] - ordered[0] == count - 1 and len(set(ordered)) == count
        if run and colour_run:
            kind = _COLOR_RUN
        elif ordered[0] == ordered[-1] and same:
            kind = _THREE_OF_A_KIND
        elif colour:
            kind = _COLOR
        elif run and run_kind:
            kind = _RUN
        else:
            kind = _SUM
        best = max(best, rank(rule, kind, sum(ordered)))
    return best


def decided(
    rule: FormationRule,
    mine: int,
    theirs: int,
    theirs_wild: Sequence[Tactic],
    theirs_count: int,
    first: bool,
    seen: int,
    theirs_rank: int = -1,
) -> tuple[bool, int]:
    """The claim rule at one stone, from integers: ``mine`` is the rank of the
    claimant's complete side (:func:`side_rank`); the opposing side is its
    clan cards ``theirs`` (a mask), its elite troops and its card count
    (``theirs_rank`` its rank when complete, if known); ``first`` whether the
    claimant completed first (both sides complete); ``seen`` the visible cards.
    Returns what a stone keeps (:class:`~referee.line.claims.Kept`):
    ``(holds, then)`` or ``(False, witness)``. Clan cards are read over masks
    (:func:`~referee.line.claims.plain_verdict`); the prover finds the best
    completion of an opposing side that holds an elite troop."""
    if not theirs_wild:
        return plain_verdict(INDEX, rule, mine, theirs, theirs_count, first, seen, theirs_rank)
    complete = theirs_count == rule.size
    best: tuple[int, int] | None
    if complete:
        best = (theirs_rank if theirs_rank >= 0 else side_rank(rule, theirs, theirs_wild)), 0
    else:
        found = best_reachable(
            _side_pieces(theirs, theirs_wild), _pool(seen), rule, colours=_COLOURS
        )
        best = None if found is None else (_rank(rule, found), _mask_of_pairs(found.cards))
    return claim_answer(mine, best, complete, first, seen)


def _rank(rule: FormationRule, found: Completion) -> int:
    return rank(rule, found.strength.kind, found.strength.total)


def verdict(state: State, stone: Stone, player: int, engine: Engine) -> ClaimVerdict:
    """The prover's verdict on ``player`` claiming ``stone``, with its evidence.
    Raises ``ValueError`` if that side's formation is not complete."""
    return verdict_at(
        stone,
        player,
        pieces=_pieces,
        pool=lambda: _pool(state.seen),
        colours=_COLOURS,
        engine=engine,
    )


def _pieces(side: Iterable[AnyCard]) -> list[Piece]:
    """A side as the prover's pieces: clan cards as pairs, elite troops as wildcards."""
    pairs = INDEX.pairs
    ids = INDEX.ids
    return [pairs[ids[c]] if type(c) is Card else wildcard_of(c) for c in side]  # type: ignore[arg-type]


def _side_pieces(mask: int, wild: Sequence[Tactic]) -> list[Piece]:
    pairs = INDEX.pairs
    pieces: list[Piece] = [pairs[i] for i in ids_of(mask)]
    pieces += [wildcard_of(t) for t in wild]
    return pieces


def _pool(seen: int) -> Pool:
    """The prover's pool: every clan card not in ``seen``."""
    return UnseenPool(seen)


class UnseenPool(Pool):
    """The prover's :class:`~referee.prover.Pool` of the clan cards not in
    ``seen``, read off the card index: the same cards, indexes and order as
    ``Pool(pairs)`` makes (a test compares them), without checking pairs that
    the index made (they are the clan cards' own, checked for the game's
    colours once, here).

    >>> pool = UnseenPool(INDEX.everything & ~0b111)
    >>> sorted(pool.cards), pool.by_colour, pool.values_sorted
    ([(0, 1), (0, 2), (0, 3)], {0: [1, 2, 3]}, [(1, 0), (2, 0), (3, 0)])
    """

    __slots__ = ()

    def __init__(self, seen: int) -> None:
        unseen = INDEX.everything & ~seen
        width, low = INDEX.width, INDEX.low
        # A colour's cards are a row of bits, one per value (see CardIndex).
        by_colour = {}
        for colour in range(_COLOURS):
            row = unseen >> colour * width & INDEX.row
            if row:
                by_colour[colour] = list(_ROW_VALUES[row])
        by_value = {}
        for value in range(low, INDEX.high + 1):
            column = (unseen & INDEX.by_value[value]) >> value - low
            if column:
                by_value[value] = list(_COLUMN_COLOURS[column])
        pairs = INDEX.pairs
        self.cards = frozenset([pairs[i] for i in ids_of(unseen)])
        self.size = len(self.cards)
        self.by_colour = by_colour
        self.by_value = by_value
        self.values_sorted = [(v, c) for v, colours in by_value.items() for c in colours]
        self.checked_colours = _COLOURS


#: A colour's row of unseen bits -> its values, increasing (data, made at import).
_ROW_VALUES = tuple(
    tuple(INDEX.low + i for i in range(INDEX.width) if row >> i & 1) for row in range(INDEX.row + 1)
)
#: A value's unseen bits shifted to the colours' first column -> its colours, increasing.
_COLUMN_COLOURS = {
    sum(1 << c * INDEX.width for c in colours): colours
    for size in range(_COLOURS + 1)
    for colours in combinations(range(_COLOURS), size)
}


def _mask_of_pairs(pairs: Iterable[tuple[int, int]]) -> int:
    return INDEX.mask(CLAN_CARDS.from_pair(pair) for pair in pairs)
