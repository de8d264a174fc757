"""The state's derived fields, kept up to date by the rules ply by ply (issue
#24: masks kept as state fields), equal the ones computed afresh from the
stones and the discards."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.schotten_totten import Rules, State, new_game
from referee.schotten_totten.state import ALL_STONES, STONES_IN, sides_of

RULES = [Rules(), Rules("1999"), Rules(tactics=True), Rules(early_bird=True)]


def _fresh(state: State) -> tuple[int, int, int]:
    """The derived fields of a copy made through the checked constructor."""
    copy = dataclasses.replace(state)
    return copy.seen, copy.open_sides, copy.complete_sides


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULES))
def test_derived_fields_equal_a_fresh_computation(seed: int, rules: Rules) -> None:
    state = new_game(seed=seed, rules=rules)
    choose = random.Random(seed).choice
    while True:
        assert (state.seen, state.open_sides, state.complete_sides) == _fresh(state)
        for player in (0, 1):
            mine = STONES_IN[state.open_sides >> 9 * player & ALL_STONES]
            assert mine == tuple(i for i, s in enumerate(state.stones) if s.room(player))
            complete = STONES_IN[state.complete_sides >> 9 * player & ALL_STONES]
            assert complete == tuple(
                i for i, s in enumerate(state.stones) if s.owner is None and s.complete(player)
            )
        if state.outcome is not None:
            break
        state = state.play(choose(state.legal_moves()))


def test_a_claimed_stone_has_no_open_or_complete_side() -> None:
    state = new_game(seed=4)
    choose = random.Random(4).choice
    while not any(s.owner is not None for s in state.stones):
        state = state.play(choose(state.legal_moves()))
    claimed = [i for i, s in enumerate(state.stones) if s.owner is not None]
    both = sides_of(state.stones)
    for i in claimed:
        for player in (0, 1):
            assert not both[0] >> (9 * player + i) & 1
            assert not both[1] >> (9 * player + i) & 1
            assert not state.open_sides >> (9 * player + i) & 1
            assert not state.complete_sides >> (9 * player + i) & 1
