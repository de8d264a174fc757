"""The cheaper proofs against elite troops equal the prover's (issue #24):
the pool of unseen clan cards read off the card index (``claims.UnseenPool``)
is the pool ``Pool(pairs)`` makes from the same cards, and the prover finds the
same best completion from either, and the same as ``claims.elite_best``
finds on masks; a complete side's rank with elite troops
(``claims.elite_rank``) is the prover's best valuation of it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.formations import FormationRule
from referee.line.cards import rank
from referee.prover import Piece, Pool, best_reachable
from referee.schotten_totten.cards import (
    BLIND_FORMATION,
    FORMATION,
    INDEX,
    MUD_FORMATION,
    wildcard_of,
)
from referee.schotten_totten.claims import UnseenPool, elite_best, elite_rank
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


@st.composite
def open_sides(draw: st.DrawFn) -> tuple[FormationRule, list[int], list[Tactic], int]:
    """A formation rule, a side with an elite troop (clan card ids and elite
    troops, complete or not) and the visible cards."""
    rule = draw(st.sampled_from([FORMATION, MUD_FORMATION, BLIND_FORMATION]))
    elite = draw(st.lists(st.sampled_from(_ELITE), min_size=1, max_size=2, unique=True))
    room = rule.size - len(elite)
    ids = draw(st.lists(st.integers(0, len(INDEX.pairs) - 1), max_size=room, unique=True))
    return rule, ids, elite, draw(st.integers(0, INDEX.everything))


@settings(max_examples=300, deadline=None)
@given(open_sides())
def test_the_prover_finds_the_same_best_completion_from_either_pool(
    drawn: tuple[FormationRule, list[int], list[Tactic], int],
) -> None:
    rule, ids, elite, seen = drawn
    seen |= sum(1 << i for i in ids)
    side = [INDEX.pairs[i] for i in ids] + [wildcard_of(t) for t in elite]
    ours = best_reachable(side, UnseenPool(seen), rule, colours=_COLOURS)
    plain = best_reachable(side, _plain_pool(seen), rule, colours=_COLOURS)
    assert ours == plain


@settings(max_examples=1500, deadline=None)
@given(open_sides())
def test_the_best_completion_on_masks_is_the_provers(
    drawn: tuple[FormationRule, list[int], list[Tactic], int],
) -> None:
    rule, ids, elite, seen = drawn
    mask = sum(1 << i for i in ids)
    seen |= mask
    side = [INDEX.pairs[i] for i in ids] + [wildcard_of(t) for t in elite]
    found = best_reachable(side, _plain_pool(seen), rule, colours=_COLOURS)
    ours = elite_best(rule, mask, elite, seen)
    if found is None:
        assert ours is None
        return
    added = sum(1 << INDEX.pairs.index(pair) for pair in found.cards)
    assert ours == (rank(rule, found.strength.kind, found.strength.total), added)


def test_the_best_completion_on_masks_is_the_provers_with_few_cards_unseen() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        rule = rng.choice([FORMATION, MUD_FORMATION, BLIND_FORMATION])
        elite = rng.sample(_ELITE, rng.randint(1, 3 if rule.size == 4 else 2))
        ids = rng.sample(range(len(INDEX.pairs)), rng.randint(0, rule.size - len(elite)))
        mask = sum(1 << i for i in ids)
        unseen = rng.sample(range(len(INDEX.pairs)), rng.randint(0, 8))
        seen = (INDEX.everything & ~sum(1 << i for i in unseen)) | mask
        side = [INDEX.pairs[i] for i in ids] + [wildcard_of(t) for t in elite]
        found = best_reachable(side, _plain_pool(seen), rule, colours=_COLOURS)
        ours = elite_best(rule, mask, elite, seen)
        if found is None:
            assert ours is None
            continue
        added = sum(1 << INDEX.pairs.index(pair) for pair in found.cards)
        assert ours == (rank(rule, found.strength.kind, found.strength.total), added)


@st.composite
def complete_sides(draw: st.DrawFn) -> tuple[FormationRule, list[int], list[Tactic]]:
    """A formation rule and a complete side: clan card ids and elite troops."""
    rule = draw(st.sampled_from([FORMATION, MUD_FORMATION, BLIND_FORMATION]))
    elite = draw(st.lists(st.sampled_from(_ELITE), min_size=1, max_size=3, unique=True))
    count = rule.size - len(elite)
    ids = draw(
        st.lists(st.integers(0, len(INDEX.pairs) - 1), min_size=count, max_size=count, unique=True)
    )
    return rule, ids, elite


@settings(max_examples=500, deadline=None)
@given(complete_sides())
def test_a_complete_sides_rank_with_elite_troops_is_the_provers(
    drawn: tuple[FormationRule, list[int], list[Tactic]],
) -> None:
    rule, ids, elite = drawn
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
                side: list[Piece] = [INDEX.pairs[i], INDEX.pairs[j], wildcard_of(troop)]
                found = best_reachable(side, Pool(()), rule, colours=_COLOURS)
                assert found is not None
                expected = rank(rule, found.strength.kind, found.strength.total)
                assert elite_rank(rule, 1 << i | 1 << j, [troop]) == expected, (i, j, troop)
