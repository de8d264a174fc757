"""The kernel's claim rule over masks, checked against the prover (issue #24:
one best-completion implementation, shared by the line games)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card, CardSet
from referee.formations import FormationRule
from referee.line.cards import CardIndex, rank, strength_of
from referee.line.claims import Kept, claim_answer, plain_verdict
from referee.line.tactics import JOKER, check_tactic, may_play_tactic
from referee.prover import best_reachable, decide_claim
from referee.schotten_totten.cards import BLIND_FORMATION, CLAN_CARDS, FORMATION, MUD_FORMATION
from referee.schotten_totten.state import Stone
from referee.schotten_totten_2.wall import SIEGE_CARDS, WALL

RULES = sorted(
    {FORMATION, BLIND_FORMATION, MUD_FORMATION, *(rule for pair in WALL for rule in pair)},
    key=repr,
)
DECKS = {
    "clan": (CLAN_CARDS, CardIndex(CLAN_CARDS)),
    "siege": (SIEGE_CARDS, CardIndex(SIEGE_CARDS)),
}


@st.composite
def tables(draw: st.DrawFn, complete: bool = False) -> tuple:
    """A deck, a rule, a side of it (complete or not) and the visible cards."""
    cards, index = DECKS[draw(st.sampled_from(sorted(DECKS)))]
    rule: FormationRule = draw(st.sampled_from(RULES))
    size = rule.size if complete else draw(st.integers(0, rule.size - 1))
    side = draw(st.lists(st.sampled_from(cards.cards), min_size=size, max_size=size, unique=True))
    others = draw(st.lists(st.sampled_from(cards.cards), max_size=len(cards.cards), unique=True))
    return cards, index, rule, side, {*side, *others}


@settings(max_examples=500, deadline=None)
@given(tables())
def test_the_best_completion_is_the_provers(case: tuple) -> None:
    cards, index, rule, side, seen = case
    found = index.best(index.mask(side), index.mask(seen), rule)
    pool = [cards.as_pair(c) for c in cards.cards if c not in seen]
    best = best_reachable([cards.as_pair(c) for c in side], pool, rule, colours=len(cards.colours))
    if best is None:
        assert found is None
        return
    assert found is not None
    ranked, added = found
    assert strength_of(rule, ranked) == best.strength
    # the cards added are unseen and make a formation of that rank
    assert not added & index.mask(seen) and added.bit_count() == rule.size - len(side)
    assert index.rank_of(index.mask(side) | added, rule) == ranked


@settings(max_examples=300, deadline=None)
@given(tables(complete=True))
def test_a_complete_sides_rank_is_its_classification(case: tuple) -> None:
    cards, index, rule, side, _ = case
    strength = rule.classify([cards.as_pair(c) for c in side])
    assert index.rank_of(index.mask(side), rule) == rank(rule, strength.kind, strength.total)
    assert strength_of(rule, rank(rule, strength.kind, strength.total)) == strength


@settings(max_examples=300, deadline=None)
@given(tables(complete=True), tables(), st.booleans())
def test_the_claim_rule_over_masks_is_decide_claim(mine: tuple, theirs: tuple, first: bool) -> None:
    cards, index, rule, claimant, seen = mine
    other = [c for c in theirs[3] if c in index.ids and c not in claimant][: rule.size]
    seen = {*seen, *other, *claimant}
    mine_rank = index.rank_of(index.mask(claimant), rule)
    holds, mask = plain_verdict(
        index, rule, mine_rank, index.mask(other), len(other), first, index.mask(seen)
    )
    pool = [cards.as_pair(c) for c in cards.cards if c not in seen]
    complete = len(other) == rule.size
    expected = decide_claim(
        [cards.as_pair(c) for c in claimant],
        [cards.as_pair(c) for c in other],
        [] if complete else pool,
        rule,
        colours=len(cards.colours),
        claimant_completed_first=first,
    )
    assert holds is expected.holds
    if complete:
        assert mask == 0  # settled: no card can change it
    elif holds:
        assert mask == index.mask(seen)  # holds wherever at least these are seen
    else:
        # a witness: unseen cards completing a formation that beats the claim
        assert not mask & index.mask(seen)
        assert index.rank_of(index.mask(other) | mask, rule) > mine_rank


def test_claim_answer_ties() -> None:
    # against a complete side a tie goes to whoever completed first
    assert claim_answer(200, (200, 0), True, True, 5) == (True, 0)
    assert claim_answer(200, (200, 0), True, False, 5) == (False, 0)
    # against an incomplete one to the claimant; nothing reachable: it holds
    assert claim_answer(200, (200, 0b11), False, False, 5) == (True, 5)
    assert claim_answer(200, None, False, False, 5) == (True, 5)


def test_a_card_index_needs_a_full_grid() -> None:
    class Partial(CardSet):
        pass

    full = CardSet("RB", ("red", "blue"), range(1, 4))
    index = CardIndex(full)
    assert index.width == 3 and index.by_colour == (0b000111, 0b111000)
    partial = Partial("RB", ("red", "blue"), range(1, 4))
    object.__setattr__(partial, "cards", full.cards[1:])
    with pytest.raises(ValueError, match="every value of every colour"):
        CardIndex(partial)


def test_kept_verdicts_are_never_data() -> None:
    stone = Stone(sides=((Card("R", 1), Card("R", 2), Card("R", 3)), ()), completed=(4, None))
    stone.kept.verdicts[0] = (True, 0b1)
    stone.kept.ranks[0] = 7
    assert stone == Stone(sides=stone.sides, completed=stone.completed)  # not in equality
    assert "kept" not in repr(stone) and "masks" not in repr(stone)
    for copied in (pickle.loads(pickle.dumps(stone)), copy.deepcopy(stone)):
        assert copied == stone and copied.kept.verdicts == [None, None]
        assert copied.kept.ranks == [-1, -1]
    # a shallow copy is the same stone: what was proved there holds for it too
    assert copy.copy(stone).kept is stone.kept
    assert pickle.dumps(Kept()) == pickle.dumps(stone.kept)  # its pickle says nothing


def test_a_side_is_stamped_when_it_becomes_complete_and_unstamped_when_it_loses_a_card() -> None:
    r1, r2, r3 = Card("R", 1), Card("R", 2), Card("R", 3)
    stone = Stone().with_card(0, r1, 1).with_card(0, r2, 3)
    assert stone.completed == (None, None) and stone.masks == (0b11, 0)
    full = stone.with_card(0, r3, 5)
    assert full.completed == (5, None) and full.complete(0) and full.masks == (0b111, 0)
    taken = full.without_card(0, r2, 8)
    assert taken.sides[0] == (r1, r3) and taken.completed == (None, None)
    assert taken.masks == (0b101, 0) and taken.with_card(0, r2, 9).completed == (9, None)


def test_the_tactic_limit_and_the_one_joker_rule() -> None:
    assert may_play_tactic((1, 1), 0) and may_play_tactic((0, 1), 0)
    assert not may_play_tactic((2, 1), 0)
    reasons = ("tactic_limit", "second_joker")
    with pytest.raises(ValueError, match="you may not get two ahead") as limit:
        check_tactic("spy@1", Card("R", 1), (2, 1), (False, False), 0, reasons)
    assert limit.value.reason == "tactic_limit"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="already played a joker") as joker:
        check_tactic("joker@1", JOKER, (1, 1), (True, False), 0, reasons)
    assert joker.value.reason == "second_joker"  # type: ignore[attr-defined]
    check_tactic("joker@1", JOKER, (1, 1), (False, True), 0, reasons)
