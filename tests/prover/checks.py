"""Plain checks of the prover's evidence, shared by the prover tests."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from referee.formations import FormationRule, Strength
from referee.prover import ClaimVerdict, Completion, Piece, Wildcard
from tests.prover.brute import Pair, split


def check_completion(
    side: Sequence[Piece],
    pool: Collection[Pair],
    rule: FormationRule,
    colours: int,
    completion: Completion,
) -> Strength:
    """Assert that ``completion`` really completes ``side``; return its strength."""
    cards, wildcards = split(side)
    added = completion.cards
    assert len(added) == rule.size - len(side), completion
    assert len(set(added)) == len(added), f"a pool card is added twice: {completion}"
    assert all(card in pool for card in added), f"a card not from the pool: {completion}"
    assert len(completion.wildcards) == len(wildcards), completion
    for (colour, value), wildcard in zip(completion.wildcards, wildcards, strict=True):
        assert 0 <= colour < colours, f"wildcard colour {colour} out of range: {completion}"
        assert value in wildcard.values, f"wildcard value {value} not allowed: {completion}"
    strength = rule.classify([*cards, *added, *completion.wildcards])
    assert strength == completion.strength, f"reported {completion.strength}, is {strength}"
    return strength


def check_verdict(
    verdict: ClaimVerdict,
    claimant: Sequence[Piece],
    opponent: Sequence[Piece],
    pool: Collection[Pair],
    rule: FormationRule,
    colours: int,
) -> None:
    """Assert that the verdict's evidence holds up, checked with plain code."""
    mine = check_completion(claimant, (), rule, colours, verdict.claimant)
    best = verdict.opponent_best
    if best is not None:
        check_completion(opponent, pool, rule, colours, best)
    witness = verdict.witness
    if verdict.holds:
        assert witness is None
        if best is not None:
            # The opponent's best does not beat the claim.
            theirs = rule.key(best.strength)
            assert theirs < rule.key(mine) or (
                theirs == rule.key(mine) and verdict.claimant_completed_first
            )
    else:
        assert witness is not None, verdict
        theirs = rule.key(check_completion(opponent, pool, rule, colours, witness))
        first = verdict.claimant_completed_first
        assert theirs > rule.key(mine) or (theirs == rule.key(mine) and not first), verdict


def wildcard_count(side: Sequence[Piece]) -> int:
    """How many wildcards a side holds."""
    return sum(isinstance(p, Wildcard) for p in side)
