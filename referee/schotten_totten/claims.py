"""The claim rule (RULINGS 4-7): when a stone may be claimed, and its proof.

A player claims an unclaimed stone with its complete formation there. Against
a complete opposing formation the stronger one wins, equal kind and sum going
to whoever completed first. Against an incomplete one the claimant must prove
that it can no longer be beaten: no way to complete the opposing side with
clan cards that are not visible (on a stone or discarded) makes a stronger
formation; one that only ties does not beat it, since the claimant completed
first. Elite troops on a side count with every value they can still take
(each side valuing its own at their best); tactic cards in hand play no part.

The proof runs over masks: :func:`referee.line.claims.plain_verdict` when
both sides hold clan cards only, :func:`elite_rank` and :func:`elite_best`
(the prover's search, written on masks; tests compare them) when an elite
troop lies there. Its answer is kept on the stone (:class:`referee.line.claims.Kept`):
it stands as long as the stone is unchanged and the cards it depends on are
(or stay out of) sight, so a stone is proved again only when that changes.

>>> from referee.schotten_totten import new_game
>>> game = new_game(seed=3)
>>> provable(game)
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, permutations, product

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
from referee.prover import ClaimVerdict, Engine, Piece, Pool
from referee.schotten_totten.cards import CLAN_CARDS, INDEX, AnyCard, Tactic, wildcard_of
from referee.schotten_totten.moves import Claim
from referee.schotten_totten.state import ALL_STONES, STONES_IN, Phase, Reason, State, Stone

__all__ = [
    "CLAIMS",
    "UnseenPool",
    "check_claim",
    "decided",
    "elite_best",
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
    (:func:`~referee.line.claims.plain_verdict`); :func:`elite_best` finds the
    best completion of an opposing side that holds an elite troop."""
    if not theirs_wild:
        return plain_verdict(INDEX, rule, mine, theirs, theirs_count, first, seen, theirs_rank)
    complete = theirs_count == rule.size
    best: tuple[int, int] | None
    if complete:
        best = (theirs_rank if theirs_rank >= 0 else side_rank(rule, theirs, theirs_wild)), 0
    else:
        best = elite_best(rule, theirs, theirs_wild, seen)
    return claim_answer(mine, best, complete, first, seen)


def elite_best(
    rule: FormationRule, mask: int, elite: Sequence[Tactic], seen: int
) -> tuple[int, int] | None:
    """The best completion of an incomplete side with elite troops (its clan
    cards ``mask``) from the clan cards not in ``seen``: its rank and the mask
    of the cards it adds, or ``None`` when too few are unseen to complete it.
    The prover's ``best_reachable`` (its exact engine: each kind's finder,
    strongest kind first) on masks: the same rank and the same cards (a test
    compares them), without building the prover's pool.

    >>> from referee.line.cards import strength_of
    >>> from referee.schotten_totten.cards import FORMATION
    >>> side = INDEX.mask([Card("R", 8)])
    >>> ranked, added = elite_best(FORMATION, side, [Tactic("spy")], side)
    >>> strength_of(FORMATION, ranked), INDEX.cards_of(added)
    (Strength(kind=<Kind.COLOR_RUN: 4>, total=24), (Card('R', 9),))
    """
    need = rule.size - mask.bit_count() - len(elite)
    free = INDEX.everything & ~seen
    if need > free.bit_count():
        return None
    side = _Side(rule, mask, elite, free, need)
    for kind in rule.strongest_kinds():
        found = _FINDERS[kind](side)
        if found is not None:
            return rank(rule, kind, found[0]), found[1]
    return None  # pragma: no cover - the sum kind is always reachable


#: The values each elite troop may take, as a set (see _ELITE_VALUES).
_ELITE_SETS = {name: frozenset(values) for name, values in _ELITE_VALUES.items()}


class _Side:
    """One question of :func:`elite_best`: an incomplete side with elite
    troops and the unseen clan cards ``free`` (a mask), ``need`` of them to add."""

    __slots__ = ("colours", "distinct", "free", "lower", "need", "size", "values", "wild")

    def __init__(
        self, rule: FormationRule, mask: int, elite: Sequence[Tactic], free: int, need: int
    ) -> None:
        pairs = INDEX.pairs
        ids = ids_of(mask)
        self.size, self.lower, self.free, self.need = rule.size, rule.lower_sum_wins, free, need
        self.values = [pairs[i][1] for i in ids]
        self.colours = {pairs[i][0] for i in ids}
        self.distinct = len(set(self.values)) == len(self.values)
        self.wild = [_ELITE_SETS[t.name] for t in elite]

    def colour_candidates(self) -> Sequence[int]:
        """The colours a one-colour formation may take."""
        if len(self.colours) > 1:
            return ()
        return tuple(self.colours) if self.colours else range(_COLOURS)

    def wild_best(self) -> int:
        """The troops' values at their best for a sum, added up."""
        pick = min if self.lower else max
        return sum(pick(w) for w in self.wild)

    def span(self) -> tuple[int, int]:
        """The lowest and highest value any card of the side could have."""
        values = set(self.values).union(*self.wild)
        free = self.free
        if self.need and free:
            column = 0  # the values of the unseen cards, as a row
            for colour in range(_COLOURS):
                column |= free >> colour * INDEX.width & INDEX.row
            values.add((column & -column).bit_length() - 1 + INDEX.low)
            values.add(column.bit_length() - 1 + INDEX.low)
        return min(values), max(values)

    def run_starts(self) -> Sequence[int]:
        """The first values of the runs to try, the best first."""
        lo, hi = self.span()
        starts = range(lo, hi - self.size + 2)
        return starts if self.lower else starts[::-1]

    def missing(self, start: int) -> list[int] | None:
        """The values of the run from ``start`` the clan cards lack (``None``:
        they cannot be part of it)."""
        end = start + self.size
        values = self.values
        if not self.distinct or (values and (min(values) < start or max(values) >= end)):
            return None
        return [v for v in range(start, end) if v not in values]

    def assignments(self, missing: Sequence[int]) -> list[tuple[int, ...]]:
        """The ways the troops take distinct ``missing`` values, in the prover's order."""
        wild = self.wild
        if len(wild) == 1:
            return [(v,) for v in missing if v in wild[0]]
        return [
            chosen
            for chosen in permutations(missing, len(wild))
            if all(v in w for v, w in zip(chosen, wild, strict=True))
        ]


def _fill(
    missing: Sequence[int], options: Sequence[tuple[int, ...]], row: int
) -> tuple[int, ...] | None:
    """The first troop values of ``options`` that leave only values of ``row``
    (bit ``value - low``) to add."""
    absent = [v for v in missing if not row >> v - INDEX.low & 1]
    for chosen in options:
        if all(v in chosen for v in absent):
            return chosen
    return None


def _run_total(start: int, size: int) -> int:
    return size * start + size * (size - 1) // 2


def _colour_run(side: _Side) -> tuple[int, int] | None:
    colours = side.colour_candidates()
    if not colours:
        return None
    width = INDEX.width
    for start in side.run_starts():
        missing = side.missing(start)
        if missing is None:
            continue
        options = side.assignments(missing)
        if not options:
            continue  # the troops cannot join this run in any colour
        for colour in colours:
            chosen = _fill(missing, options, side.free >> colour * width & INDEX.row)
            if chosen is not None:
                added = 0
                for v in missing:
                    if v not in chosen:
                        added |= 1 << colour * width + v - INDEX.low
                return _run_total(start, side.size), added
    return None


def _same_value(side: _Side) -> tuple[int, int] | None:
    values = set(side.values)
    if len(values) > 1:
        return None
    candidates: Sequence[int] = tuple(values)
    if not values:
        lo, hi = side.span()
        candidates = range(lo, hi + 1) if side.lower else range(hi, lo - 1, -1)
    for value in candidates:
        if not all(value in w for w in side.wild):
            continue
        column = side.free & INDEX.by_value[value]
        if column.bit_count() < side.need:
            continue
        added = 0
        for _ in range(side.need):
            low = column & -column  # the lowest colours
            added |= low
            column ^= low
        return value * side.size, added
    return None


def _colour(side: _Side) -> tuple[int, int] | None:
    best: tuple[int, int] | None = None
    width, need, lower = INDEX.width, side.need, side.lower
    base = sum(side.values) + side.wild_best()
    for colour in side.colour_candidates():
        row = side.free >> colour * width & INDEX.row
        if row.bit_count() < need:
            continue
        total, added = base, 0
        for _ in range(need):
            at = (row & -row).bit_length() - 1 if lower else row.bit_length() - 1
            row ^= 1 << at
            total += at + INDEX.low
            added |= 1 << colour * width + at
        if best is None or (total < best[0] if lower else total > best[0]):
            best = total, added
    return best


def _run(side: _Side) -> tuple[int, int] | None:
    free, by_value = side.free, INDEX.by_value
    row = 0  # the values unseen in some colour
    for colour in range(_COLOURS):
        row |= free >> colour * INDEX.width & INDEX.row
    for start in side.run_starts():
        missing = side.missing(start)
        if missing is None:
            continue
        chosen = _fill(missing, side.assignments(missing), row)
        if chosen is None:
            continue
        added = 0
        for v in missing:
            if v not in chosen:
                column = free & by_value[v]
                added |= column & -column  # the lowest colour
        return _run_total(start, side.size), added
    return None


def _sum(side: _Side) -> tuple[int, int] | None:
    # The unseen cards by value, then colour: the best ``need`` of them.
    total, added, need, lower = sum(side.values) + side.wild_best(), 0, side.need, side.lower
    for value in (
        range(INDEX.low, INDEX.high + 1) if lower else range(INDEX.high, INDEX.low - 1, -1)
    ):
        column = side.free & INDEX.by_value[value]
        while column and need:
            bit = column & -column if lower else 1 << column.bit_length() - 1
            column ^= bit
            added |= bit
            total += value
            need -= 1
    return total, added


_FINDERS = {
    Kind.COLOR_RUN: _colour_run,
    Kind.THREE_OF_A_KIND: _same_value,
    Kind.COLOR: _colour,
    Kind.RUN: _run,
    Kind.SUM: _sum,
}


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
