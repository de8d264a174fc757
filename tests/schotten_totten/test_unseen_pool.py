"""The prover's pool of unseen clan cards, read off the card index
(``claims.UnseenPool``), is the pool ``Pool(pairs)`` makes from the same
cards, and the prover finds the same best completion from either (issue #24:
a cheaper proof against elite troops, equal to the plain one)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.formations import FormationRule
from referee.prover import Pool, best_reachable
from referee.schotten_totten.cards import (
    BLIND_FORMATION,
    FORMATION,
    INDEX,
    MUD_FORMATION,
    wildcard_of,
)
from referee.schotten_totten.claims import UnseenPool
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
