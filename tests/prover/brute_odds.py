"""A brute-force reference for the odds (tests and benchmarks only).

It lists every completion of the opposing side (every set of pool cards it
still needs), values each with its wildcards at their best by trying every
colour and value, and keeps the completions that beat the claimant. It shares
no code with :mod:`referee.prover._odds` beyond :meth:`FormationRule.classify`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, product

from referee.formations import FormationRule, Strength
from referee.prover import Piece
from tests.prover.brute import Pair, brute_best, split

__all__ = ["brute_beating"]


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
