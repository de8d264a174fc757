"""Playouts on the integer core, checked move for move against the referee.

``playout`` plays action ids on a :class:`~referee.schotten_totten.table.Table`;
every id it plays, turned into a move and played through ``State.play``, must
be legal there and reach the same outcome. The table's legal actions are the
referee's legal moves at every ply, and the written-out loops of the default
policy make the same choices as the general one.
"""

from __future__ import annotations

import dataclasses
import random
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.schotten_totten import Rules, State, new_game
from referee.schotten_totten.actions import ACTIONS
from referee.schotten_totten.cards import ID, STONES, Tactic
from referee.schotten_totten.determinize import determinize
from referee.schotten_totten.playout import _general, _plain, _tactics, playout
from referee.schotten_totten.state import STONES_IN, Phase
from referee.schotten_totten.steps import play
from referee.schotten_totten.table import (
    CLAIM,
    PASS,
    Table,
    legal_actions,
    legal_counts,
    ruse_actions,
    ruse_count,
    tactic_play_count,
    tactic_plays,
)
from tests.played import random_plies

VARIANTS = [
    Rules(),
    Rules("1999"),
    Rules(early_bird=True),
    Rules(tactics=True),
    Rules(tactics=True, early_bird=True),
]
_SETTINGS = settings(max_examples=40, deadline=None)


def _midgame(seed: int, rules: Rules, plies: int) -> State:
    """A state ``plies`` random plies into a seeded game (or its end)."""
    state = new_game(seed=seed, first=seed % 2, rules=rules)
    played: State = random_plies(state, plies, random.Random(seed))
    return played


def _replayed(state: State, trace: list[int]) -> State:
    """``trace`` played through the referee, each move checked legal first."""
    for action in trace:
        move = ACTIONS.move_of(action)
        assert move in state.legal_moves(), f"{move} is not legal at ply {state.ply}"
        state = state.play(move)
    return state


@_SETTINGS
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS), st.integers(0, 60), st.integers())
def test_a_playout_is_a_legal_game_with_its_outcome(
    seed: int, rules: Rules, plies: int, choice: int
) -> None:
    start = _midgame(seed, rules, plies)
    before = dataclasses.replace(start)
    trace: list[int] = []
    outcome = playout(start, random.Random(choice), trace=trace)
    end = _replayed(start, trace)
    assert end.outcome == outcome and end.is_game_over()
    assert start == before and start.outcome == before.outcome  # the state is not changed


@_SETTINGS
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(VARIANTS),
    st.integers(0, 80),
    st.sampled_from([0, 1]),
    st.integers(),
)
def test_a_playout_from_a_determinized_view_is_a_legal_game(
    seed: int, rules: Rules, plies: int, viewer: int, choice: int
) -> None:
    view = _midgame(seed, rules, plies).view(viewer)
    with pytest.raises(ValueError, match="determinize a view first"):
        playout(view, random.Random(choice))
    guess = determinize(view, random.Random(choice))
    trace: list[int] = []
    outcome = playout(guess, random.Random(choice), trace=trace)
    assert _replayed(guess, trace).outcome == outcome


@_SETTINGS
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS), st.integers(0, 2**16))
def test_the_tables_legal_actions_are_the_referees_at_every_ply(
    seed: int, rules: Rules, choice: int
) -> None:
    rng = random.Random(choice)
    state = new_game(seed=seed, first=seed % 2, rules=rules)
    while True:
        table = Table(state)
        legal = legal_actions(table)
        assert legal == sorted(ACTIONS.action_of(m) for m in state.legal_moves())
        if state.is_game_over():
            break
        action = rng.choice(legal)
        play(table, action)
        state = state.play(ACTIONS.move_of(action))
        # the table played the action as the referee did (what it keeps aside)
        after = Table(state)
        for name in Table.__slots__:
            if name not in ("kept", "ranks"):
                assert getattr(table, name) == getattr(after, name), name


def _counts_checked(seed: int, rules: Rules, choice: int) -> int:
    """A game played on a table, tactic cards often (the highest ids half the
    time, so that the ruses' targets vary): at every ply the tactic cards'
    moves counted are the ones listed and the view with them is the legal
    actions. The ruses counted."""
    rng = random.Random(choice)
    table = Table(new_game(seed=seed, first=seed % 2, rules=rules))
    counted = 0
    while table.outcome is None:
        clans, opened, tactics, rest, ruses = legal_counts(table)
        if table.phase is Phase.PLAY:
            assert tactic_play_count(table, opened) == len(tactic_plays(table, opened))
            assert ruse_count(table, opened) == len(ruse_actions(table, opened))
        laid = tactic_plays(table, opened) if tactics else []
        listed = ruse_actions(table, opened) if ruses else []
        assert (tactics, ruses) == (len(laid), len(listed))
        legal = [card * STONES + s for card in clans for s in opened] + laid + rest + listed
        assert legal == legal_actions(table)
        counted += ruses
        play(table, legal[-1] if rng.random() < 0.5 else rng.choice(legal))
    return counted


@_SETTINGS
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS[3:]), st.integers(0, 2**16))
def test_the_moves_counted_are_the_moves_listed(seed: int, rules: Rules, choice: int) -> None:
    _counts_checked(seed, rules, choice)


def test_the_ruses_are_counted_in_many_positions() -> None:
    assert sum(_counts_checked(seed, VARIANTS[3], seed) for seed in range(10)) > 200


def test_the_recruiters_draws_are_counted_for_every_size_of_the_piles() -> None:
    recruiter, joker = ID[Tactic("recruiter")], ID[Tactic("joker")]
    hands = ([], [joker], [joker, 3], [3, 4], [joker, 3, 4])
    for clans, tactics, played, hand, on_top in product(
        range(5), range(5), (False, True), hands, ([], [joker])
    ):
        table = Table(new_game(seed=clans, rules=VARIANTS[3]))
        table.hands[0] = sorted([*hand, recruiter])
        table.deck = table.deck[:clans]
        table.tactic_deck = (table.tactic_deck[:tactics] + on_top)[-tactics:] if tactics else []
        table.jokers_played[0] = played
        opened = STONES_IN[table.rooms[0]]
        assert ruse_count(table, opened) == len(ruse_actions(table, opened))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS), st.integers(0, 40))
def test_the_written_out_loops_make_the_general_loops_choices(
    seed: int, rules: Rules, plies: int
) -> None:
    state = _midgame(seed, rules, plies)
    if state.is_game_over():
        return
    fast: list[int] = []
    general: list[int] = []
    loop = _tactics if rules.tactics else _plain
    outcome = loop(Table(state), random.Random(seed), fast)
    assert _general(Table(state), random.Random(seed), None, -1, general) == outcome
    assert fast == general


def test_the_default_policy_claims_as_soon_as_it_can_and_otherwise_picks_at_random() -> None:
    for rules in VARIANTS:
        for seed in range(6):
            state = new_game(seed=seed, rules=rules)
            trace: list[int] = []
            playout(state, random.Random(seed), trace=trace)
            table = Table(state)
            rng = random.Random(seed)
            for action in trace:
                legal = legal_actions(table)
                claims = [a for a in legal if CLAIM <= a < PASS]
                if claims:
                    assert action == claims[0]
                elif len(legal) == 1:
                    assert action == legal[0]  # taken without a draw
                else:
                    assert action == legal[int(rng.random() * len(legal))]
                play(table, action)


def test_a_policy_decides_every_ply_and_sees_the_table() -> None:
    seen: list[tuple[int, int]] = []

    def highest(table: Any, legal: Any, rng: random.Random) -> int:
        assert isinstance(table, Table) and list(legal) == sorted(legal)
        seen.append((table.ply, len(legal)))
        return int(legal[-1])

    for rules in VARIANTS:
        state = new_game(seed=4, rules=rules)
        trace: list[int] = []
        seen.clear()
        outcome = playout(state, random.Random(0), highest, trace=trace)
        assert len(seen) == len(trace) and _replayed(state, trace).outcome == outcome
