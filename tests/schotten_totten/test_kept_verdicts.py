"""The claim proof over masks and the verdicts kept on the stones agree with
the prover asked afresh (issue #24: a stone's verdict is kept on the stone)."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.prover import best_reachable
from referee.schotten_totten import CLAN_CARDS, FORMATION, Rules, claims, new_game
from referee.schotten_totten.cards import INDEX
from referee.schotten_totten.tactics import Tactic
from tests.schotten_totten.helpers import position

CARDS = CLAN_CARDS.cards


@st.composite
def sides_and_tables(draw: st.DrawFn) -> tuple[tuple, frozenset]:
    """An incomplete side of clan cards and the visible cards (the side's among them)."""
    side = tuple(draw(st.lists(st.sampled_from(CARDS), max_size=2, unique=True)))
    others = draw(st.lists(st.sampled_from(CARDS), max_size=len(CARDS), unique=True))
    return side, frozenset((*side, *others))


@settings(max_examples=400, deadline=None)
@given(sides_and_tables())
def test_the_best_completion_over_masks_is_the_provers(case: tuple[tuple, frozenset]) -> None:
    side, seen = case
    found = INDEX.best(INDEX.mask(side), INDEX.mask(seen), FORMATION)
    pool = [CLAN_CARDS.as_pair(c) for c in CARDS if c not in seen]
    best = best_reachable([CLAN_CARDS.as_pair(c) for c in side], pool, FORMATION, colours=6)
    if best is None:
        assert found is None
        return
    assert found is not None
    ranked, added = found
    assert INDEX.rank_of(INDEX.mask(side) | added, FORMATION) == ranked
    added_cards = INDEX.cards_of(added)
    assert len(added_cards) == 3 - len(side) and not seen.intersection(added_cards)
    expected = best_reachable(
        [CLAN_CARDS.as_pair(c) for c in (*side, *added_cards)], [], FORMATION, colours=6
    )
    assert expected is not None and expected.strength == best.strength


def _every_ply(rules: Rules, seed: int):  # type: ignore[no-untyped-def]
    state = new_game(seed=seed, rules=rules)
    choose = random.Random(seed).choice
    while state.outcome is None:
        yield state
        state = state.play(choose(state.legal_moves()))


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules("1999"), Rules(tactics=True), Rules(early_bird=True)],
    ids=["2024", "1999", "tactics", "early bird"],
)
def test_kept_verdicts_equal_fresh_proofs(rules: Rules) -> None:
    kept = 0
    for seed in range(12):
        for state in _every_ply(rules, seed):
            assert state.seen == INDEX.mask(state.visible_cards())
            for stone in state.stones:
                for player in (0, 1):
                    answer = stone.kept.answer(player, state.seen)
                    if answer is None or not stone.complete(player):
                        continue
                    kept += 1
                    # the kept answer is the prover's, asked afresh on a copy
                    fresh = copy.deepcopy(stone)
                    assert not any(fresh.kept.verdicts)
                    assert answer == claims.verdict(state, fresh, player, "exact").holds
    assert kept > 100  # the kept answers are used


def test_provable_claims_are_the_provers_verdicts() -> None:
    for rules in (Rules(), Rules(tactics=True)):
        for seed in range(8):
            for state in _every_ply(rules, seed):
                player = state.to_move
                complete = [
                    n
                    for n, s in enumerate(state.stones, start=1)
                    if s.owner is None and s.complete(player)
                ]
                proved = [c.stone for c in claims.provable(state)]
                assert proved == [n for n in complete if state.claim_verdict(n).holds]


def test_a_verdict_kept_on_a_stone_is_not_used_where_fewer_cards_are_visible() -> None:
    # R6 R7 R8 (a colour run of 21) against an empty side: where every 8 is
    # visible the claim holds; the same stone on a table without them does not.
    blocked = position(
        {1: ("R6 R7 R8", ""), 2: ("O8 Y8", "G8 B8"), 3: ("P8", "")}, phase=FORMATION_PHASE
    )
    stone = blocked.stone(1)
    assert claims.holds(blocked, stone, 0)
    assert stone.kept.verdicts[0] == (True, blocked.seen)
    open_table = position({1: ("R6 R7 R8", "")}, phase=FORMATION_PHASE)
    moved = dataclasses.replace(open_table, stones=(stone, *open_table.stones[1:]))
    assert moved.stones[0] is stone and not claims.holds(moved, stone, 0)
    kind, witness = stone.kept.verdicts[0]
    assert kind is False and witness & ~moved.seen == witness  # cards still unseen there
    assert claims.holds(blocked, stone, 0)  # and back: proved again, holds again


def test_a_wildcard_side_is_proved_by_the_prover_and_kept() -> None:
    state = position(
        {4: ("joker R8 R9", "B1 B2")},
        rules=Rules(tactics=True),
        tactics_played=(1, 0),
    )
    stone = state.stone(4)
    assert claims.holds(state, stone, 0) is state.claim_verdict(4).holds
    assert stone.kept.verdicts[0] is not None
    assert Tactic("joker") in stone.sides[0]


FORMATION_PHASE = new_game(seed=1).play(new_game(seed=1).legal_moves()[0]).phase
