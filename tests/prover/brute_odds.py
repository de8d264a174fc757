"""A brute-force reference for the odds (tests and benchmarks only).

It lists every completion of the opposing side (every set of pool cards it
still needs), values each with its wildcards at their best by trying every
colour and value, and keeps the completions that beat the claimant. It shares
no code with :mod:`referee.prover._odds` beyond :meth:`FormationRule.classify`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, combinations_with_replacement, product
from math import comb, prod

from referee.formations import FormationRule, Strength
from referee.prover import Piece, Pool
from tests.prover.brute import Pair, brute_best, split

__all__ = ["brute_beating", "walk_beating"]


def brute_beating(
    claimant: Sequence[Piece],
    opponent: Sequence[Piece],
    pool: Iterable[Pair],
    rule: FormationRule,
    colours: int,
    claimant_completed_first: bool = True,
) -> tuple[set[tuple[Pair, ...]], int]:
    """The completions (sorted card tuples) that beat ``claimant``, and how many there are."""
    mine = brute_best(claimant, (), rule, colours)
    assert mine is not None
    threshold = rule.key(mine)
    ties_beat = len(opponent) == rule.size and not claimant_completed_first
    cards, wildcards = split(opponent)
    choices = [[(c, v) for c in range(colours) for v in sorted(w.values)] for w in wildcards]
    beating: set[tuple[Pair, ...]] = set()
    total = 0
    for added in combinations(sorted(pool), rule.size - len(opponent)):
        total += 1
        best: Strength | None = None
        for wild in product(*choices):
            strength = rule.classify([*cards, *added, *wild])
            if best is None or rule.key(strength) > rule.key(best):
                best = strength
        assert best is not None
        key = rule.key(best)
        if key > threshold or (ties_beat and key == threshold):
            beating.add(added)
    return beating, total


def walk_beating(
    claimant: Sequence[Piece],
    opponent: Sequence[Piece],
    pool: Pool | Iterable[Pair],
    rule: FormationRule,
    colours: int,
    claimant_completed_first: bool = True,
) -> int:
    """How many completions beat ``claimant``, by walking every value multiset
    the pool can supply (the counter this library had before: its work grows
    with the number of value multisets, not of completions). Each multiset is
    valued by brute force over the wildcards; a single-coloured completion is
    counted per colour. A second reference for pools too big to list."""
    mine = brute_best(claimant, (), rule, colours)
    assert mine is not None
    threshold = rule.key(mine)
    ties_beat = len(opponent) == rule.size and not claimant_completed_first
    cards, wildcards = split(opponent)
    choices = [[(c, v) for c in range(colours) for v in sorted(w.values)] for w in wildcards]
    own = {c for c, _ in cards}
    cards_in_pool = set(pool.cards if isinstance(pool, Pool) else pool)
    by_value: dict[int, list[int]] = {}
    for c, v in sorted(cards_in_pool):
        by_value.setdefault(v, []).append(c)
    need = rule.size - len(opponent)
    mono_colours = sorted({c for c, _ in cards_in_pool}) if not own else sorted(own)
    if len(own) > 1:
        mono_colours = []

    def strongest(values: Sequence[int], colour: int | None) -> tuple[int, int]:
        """The best key of the side with ``values`` added, all of ``colour``;
        ``None``: of colours no other card has (so not single-coloured)."""
        added = [(colours + i if colour is None else colour, v) for i, v in enumerate(values)]
        return max(rule.key(rule.classify([*cards, *added, *wild])) for wild in product(*choices))

    beating = 0
    values = sorted(by_value)
    for multiset in combinations_with_replacement(values, need):
        counts = {v: multiset.count(v) for v in set(multiset)}
        ways = prod(comb(len(by_value[v]), m) for v, m in counts.items())
        if ways == 0:
            continue
        mono = 0
        if multiset and len(counts) == len(multiset):
            mono = sum(all((c, v) in cards_in_pool for v in multiset) for c in mono_colours)
        if mono:
            key = strongest(multiset, mono_colours[0])
            beating += mono * (key > threshold or (ties_beat and key == threshold))
        if ways > mono:
            key = strongest(multiset, None)
            beating += (ways - mono) * (key > threshold or (ties_beat and key == threshold))
    return beating
