"""A brute-force reference for the claim prover (tests and benchmarks only).

It enumerates every completion of a side, every choice of pool cards times
every (colour, value) of every wildcard, classifies each with
:meth:`FormationRule.classify` and keeps the strongest. It shares no code with
the engines beyond the classification itself, so it can catch their mistakes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations, product

from referee.formations import FormationRule, Strength
from referee.prover import Piece, Wildcard

__all__ = ["brute_best", "brute_claim_holds", "completions", "split"]

Pair = tuple[int, int]


def split(side: Sequence[Piece]) -> tuple[list[Pair], list[Wildcard]]:
    """The side's concrete cards and its wildcards."""
    cards = [(p[0], p[1]) for p in side if not isinstance(p, Wildcard)]
    wildcards = [p for p in side if isinstance(p, Wildcard)]
    return cards, wildcards


def completions(
    side: Sequence[Piece], pool: Iterable[Pair], rule: FormationRule, colours: int
) -> Iterator[tuple[tuple[Pair, ...], tuple[Pair, ...]]]:
    """Every ``(added pool cards, wildcard (colour, value)s)`` completing ``side``."""
    _, wildcards = split(side)
    need = rule.size - len(side)
    choices = [[(c, v) for c in range(colours) for v in sorted(w.values)] for w in wildcards]
    for added in combinations(sorted(pool), need):
        for wild in product(*choices):
            yield added, wild


def brute_best(
    side: Sequence[Piece], pool: Iterable[Pair], rule: FormationRule, colours: int
) -> Strength | None:
    """The strongest formation ``side`` can be completed into (``None``: none)."""
    cards, _ = split(side)
    best: Strength | None = None
    for added, wild in completions(side, pool, rule, colours):
        strength = rule.classify([*cards, *added, *wild])
        if best is None or rule.key(strength) > rule.key(best):
            best = strength
    return best


def brute_claim_holds(
    claimant: Sequence[Piece],
    opponent: Sequence[Piece],
    pool: Iterable[Pair],
    rule: FormationRule,
    colours: int,
    claimant_completed_first: bool = True,
) -> bool:
    """Whether no completion of ``opponent`` beats ``claimant``, by enumeration.

    Ties: against an incomplete opponent the claimant completed first and wins
    the tie; against a complete one, ``claimant_completed_first`` decides.
    """
    mine = brute_best(claimant, (), rule, colours)
    assert mine is not None
    first = claimant_completed_first or len(opponent) < rule.size
    cards, _ = split(opponent)
    for added, wild in completions(opponent, pool, rule, colours):
        theirs = rule.classify([*cards, *added, *wild])
        if rule.key(theirs) > rule.key(mine) or (rule.key(theirs) == rule.key(mine) and not first):
            return False
    return True
