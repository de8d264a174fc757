"""The cheaper proofs against elite troops equal the prover's (issue #24):
the pool of unseen clan cards read off the card index (``claims.UnseenPool``)
is the pool ``Pool(pairs)`` makes from the same cards, and the prover finds the
same best completion from either; a complete side's rank with elite troops
(``claims.elite_rank``) is the prover's best valuation of it."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.formations import FormationRule
from referee.line.cards import rank
from referee.prover import Pool, best_reachable
from referee.schotten_totten.cards import (
    BLIND_FORMATION,
    FORMATION,
    INDEX,
    MUD_FORMATION,
    wildcard_of,
)
from referee.schotten_totten.claims import UnseenPool, elite_rank
from referee.schotten_totten.tactics import Tactic

_COLOURS = 6
_ELITE = [Tactic("joker"), Tactic("spy"), Tactic("shield_bearer")]


def _plain_pool(seen: int) -> Pool:
    return Pool([INDEX.pairs[i] for i in range(len(INDEX.pairs)) if not seen >> i & 1])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, INDEX.everything), st.integers(0, INDEX.everything))
def test_the_unseen_pool_is_the_plain_pool(first: int, second: int) -> None:
    for seen in (first, first & second, first | second, 0, INDEX.everything):
        ours, plain = UnseenPool(seen), _plain_pool(seen)
        assert ours.cards == plain.cards and ours.size == plain.size == len(plain)
        assert ours.by_colour == plain.by_colour
        assert ours.by_value == plain.by_value
        assert ours.values_sorted == plain.values_sorted


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, len(INDEX.pairs) - 1), max_size=3, unique=True),
    st.lists(st.sampled_from(_ELITE), min_size=1, max_size=2, unique=True),
    st.integers(0, INDEX.everything),
    st.sampled_from([FORMATION, MUD_FORMATION, BLIND_FORMATION]),
)
def test_the_prover_finds_the_same_best_completion_from_either_pool(
    ids: list[int], elite: list[Tactic], seen: int, rule: FormationRule
) -> None:
    assume(len(ids) + len(elite) <= rule.size)
    side_mask = sum(1 << i for i in ids)
    seen |= side_mask
    side = [INDEX.pairs[i] for i in ids] + [wildcard_of(t) for t in elite]
    ours = best_reachable(side, UnseenPool(seen), rule, colours=_COLOURS)
    plain = best_reachable(side, _plain_pool(seen), rule, colours=_COLOURS)
    assert ours == plain


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.integers(0, len(INDEX.pairs) - 1), max_size=3, unique=True),
    st.lists(st.sampled_from(_ELITE), min_size=1, max_size=3, unique=True),
    st.sampled_from([FORMATION, MUD_FORMATION, BLIND_FORMATION]),
)
def test_a_complete_sides_rank_with_elite_troops_is_the_provers(
    ids: list[int], elite: list[Tactic], rule: FormationRule
) -> None:
    assume(len(ids) + len(elite) == rule.size)
    side = [INDEX.pairs[i] for i in ids] + [wildcard_of(t) for t in elite]
    found = best_reachable(side, Pool(()), rule, colours=_COLOURS)
    assert found is not None
    expected = rank(rule, found.strength.kind, found.strength.total)
    assert elite_rank(rule, sum(1 << i for i in ids), elite) == expected


def test_elite_ranks_of_every_one_colour_and_mixed_pair_are_the_provers() -> None:
    """Every pair of clan cards of one colour (and a few mixed) beside each
    elite troop, in each formation rule: the rank the prover finds."""
    colour_zero = range(9)  # ids 0-8: one colour's values 1-9
    pairs = [(i, j) for i in colour_zero for j in colour_zero if i < j]
    pairs += [(i, 9 + j) for i in colour_zero for j in colour_zero]  # two colours
    for i, j in pairs:
        for troop in _ELITE:
            for rule in (FORMATION, BLIND_FORMATION):
                side = [INDEX.pairs[i], INDEX.pairs[j], wildcard_of(troop)]
                found = best_reachable(side, Pool(()), rule, colours=_COLOURS)
                assert found is not None
                expected = rank(rule, found.strength.kind, found.strength.total)
                assert elite_rank(rule, 1 << i | 1 << j, [troop]) == expected, (i, j, troop)
