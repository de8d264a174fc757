"""Playouts on the integer core, checked move for move against the referee.

``playout`` plays action ids on a :class:`~referee.schotten_totten_2.table.Table`.
The reference here plays the same contract on the referee's own ``State``
(legal ids from ``legal_moves``, moves from ``ACTIONS.move_of``, support's
shuffle from the descriptor's ``chance``): from the same position and ``rng``
seed both must play the same actions and reach the same outcome. The table's
legal actions are the referee's legal moves at every ply, and after every ply
the table is the table of the referee's state.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.game import Outcome
from referee.line.playout import Policy, choose
from referee.schotten_totten_2 import Rules, State, new_game
from referee.schotten_totten_2._game import GAME
from referee.schotten_totten_2.actions import ACTIONS
from referee.schotten_totten_2.determinize import determinize
from referee.schotten_totten_2.moves import Shuffle
from referee.schotten_totten_2.playout import _general, _plain, playout
from referee.schotten_totten_2.steps import play, shuffle
from referee.schotten_totten_2.table import (
    CONTROL,
    RETREAT,
    SHUFFLE,
    Table,
    action_count,
    action_move,
    action_moves,
    legal_actions,
)
from referee.schotten_totten_2.wall import TILES
from tests.played import random_plies

VARIANTS = [Rules(), Rules(tactics=True)]
_SETTINGS = settings(max_examples=30, deadline=None)


def _highest(core: Any, legal: Sequence[int], rng: random.Random) -> int:
    return legal[-1]


def _low_half(core: Any, legal: Sequence[int], rng: random.Random) -> int:
    return legal[rng.randrange((len(legal) + 1) // 2)]


POLICIES: list[Policy | None] = [None, _highest, _low_half]


def _legal_ids(state: State) -> list[int]:
    """The ids of the referee's legal moves, increasing (an exchange offered in
    two card orders is one id)."""
    return sorted({ACTIONS.action_of(move) for move in state.legal_moves()})


def _reference(
    state: State, rng: random.Random, policy: Policy | None
) -> tuple[list[int], Outcome]:
    """The playout's contract played on the referee's ``State``."""
    trace: list[int] = []
    while state.outcome is None:
        if state.is_chance_node():
            move = GAME.chance(state, rng) if GAME.chance is not None else None
            assert isinstance(move, Shuffle)
            trace.append(ACTIONS.action_of(move))
            state = state.play(move)
            continue
        legal = _legal_ids(state)
        controls = [a for a in legal if CONTROL <= a < RETREAT]
        if policy is None and controls and state.to_move == state.attacker:
            action = controls[0]
        else:
            action = choose(legal, rng, state, policy)
        trace.append(action)
        state = state.play(ACTIONS.move_of(action))
    return trace, state.outcome


def _midgame(seed: int, rules: Rules, plies: int) -> State:
    """A state ``plies`` random plies into a seeded game (or its end)."""
    state = new_game(seed=seed, attacker=seed % 2, rules=rules)
    played: State = random_plies(state, plies, random.Random(seed))
    return played


@_SETTINGS
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(VARIANTS),
    st.integers(0, 90),
    st.sampled_from(POLICIES),
    st.integers(),
)
def test_a_playout_is_the_referees_game_with_its_outcome(
    seed: int, rules: Rules, plies: int, policy: Policy | None, choice: int
) -> None:
    start = _midgame(seed, rules, plies)
    before = dataclasses.replace(start)
    trace: list[int] = []
    outcome = playout(start, random.Random(choice), policy, trace=trace)
    assert start == before and start.outcome == before.outcome  # the state is not changed
    assert _reference(start, random.Random(choice), policy) == (trace, outcome)


@_SETTINGS
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(VARIANTS),
    st.integers(0, 120),
    st.sampled_from([0, 1]),
    st.integers(),
)
def test_a_playout_from_a_determinized_view_is_the_referees_game(
    seed: int, rules: Rules, plies: int, viewer: int, choice: int
) -> None:
    view = _midgame(seed, rules, plies).view(viewer)
    if view.outcome is None:
        with pytest.raises(ValueError, match="determinize a view first"):
            playout(view, random.Random(choice))
    guess = determinize(view, random.Random(choice))
    trace: list[int] = []
    outcome = playout(guess, random.Random(choice), trace=trace)
    assert _reference(guess, random.Random(choice), None) == (trace, outcome)


@_SETTINGS
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS), st.integers(0, 2**16))
def test_the_tables_legal_actions_are_the_referees_at_every_ply(
    seed: int, rules: Rules, choice: int
) -> None:
    rng = random.Random(choice)
    state = new_game(seed=seed, attacker=choice % 2, rules=rules)
    table = Table(state)
    while True:
        legal = legal_actions(table)
        assert legal == _legal_ids(state), f"ply {state.ply}"
        for player in (0, 1):  # the written-out loop counts the action cards' moves
            opened = [s for s in range(TILES) if table.completed[2 * s + player] < 0]
            moves = action_moves(table, player, opened)
            assert action_count(table, player, opened) == len(moves)
            assert [action_move(table, player, opened, k) for k in range(len(moves))] == moves
        if state.is_game_over():
            assert table.outcome == state.outcome
            break
        if state.is_chance_node():
            first, second = rng.sample(range(1, state.deck_size + 3), 2)
            shuffle(table, first, second)
            state = state.play(Shuffle((first, second)))
        else:
            action = rng.choice(legal)
            play(table, action)
            state = state.play(ACTIONS.move_of(action))
        # the table played the action as the referee did (what it keeps aside)
        after = Table(state)
        for name in Table.__slots__:
            if name not in ("kept", "pool"):
                assert getattr(table, name) == getattr(after, name), name


@_SETTINGS
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS), st.integers(0, 120), st.integers())
def test_the_written_out_loop_makes_the_general_loops_choices(
    seed: int, rules: Rules, plies: int, choice: int
) -> None:
    state = _midgame(seed, rules, plies)
    if state.is_game_over():
        return
    fast: list[int] = []
    general: list[int] = []
    outcome = _plain(Table(state), random.Random(choice), fast)
    assert _general(Table(state), random.Random(choice), None, -1, general) == outcome
    assert fast == general


def test_the_default_policy_controls_as_soon_as_it_can_and_otherwise_picks_at_random() -> None:
    for rules in VARIANTS:
        for seed in range(4):
            state = new_game(seed=seed, attacker=seed % 2, rules=rules)
            trace: list[int] = []
            playout(state, random.Random(seed), trace=trace)
            table = Table(state)
            rng = random.Random(seed)
            for action in trace:
                if table.phase.value == "shuffle":
                    assert action == SHUFFLE
                    shuffle(table, *rng.sample(range(1, len(table.deck) + 3), 2))
                    continue
                legal = legal_actions(table)
                controls = [a for a in legal if CONTROL <= a < RETREAT]
                if controls:
                    assert action == controls[0]
                elif len(legal) == 1:
                    assert action == legal[0]  # taken without a draw
                else:
                    assert action == legal[int(rng.random() * len(legal))]
                play(table, action)


def test_a_traced_playout_replays_through_the_referee() -> None:
    for rules in VARIANTS:
        for seed in range(3):
            game = new_game(seed=seed, rules=rules)
            trace: list[int] = []
            outcome = playout(game, random.Random(seed), trace=trace)
            if SHUFFLE in trace:
                continue  # the places drawn are not in the trace: the reference draws them
            for action in trace:
                game = game.play(ACTIONS.move_of(action))
            assert game.outcome == outcome


def test_a_policy_decides_every_ply_and_sees_the_table() -> None:
    seen: list[int] = []

    def highest(table: Any, legal: Any, rng: random.Random) -> int:
        assert isinstance(table, Table) and list(legal) == sorted(legal)
        seen.append(table.ply)
        return int(legal[-1])

    for rules in VARIANTS:
        state = new_game(seed=4, rules=rules)
        trace: list[int] = []
        seen.clear()
        outcome = playout(state, random.Random(0), highest, trace=trace)
        assert len(seen) == len(trace) - trace.count(SHUFFLE)
        assert _reference(state, random.Random(0), _highest) == (trace, outcome)


def test_a_playout_starts_at_a_pending_shuffle_or_exchange() -> None:
    """A search hands the playout any position, support's shuffle and an
    exchange's answer included."""
    found = set()
    for seed in range(400):
        # a random game, stopped at its first pending shuffle or exchange
        rng = random.Random(seed)
        state = new_game(seed=seed, attacker=seed % 2, rules=Rules(tactics=True))
        while not state.is_game_over() and state.phase.value not in ("shuffle", "exchange"):
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_game_over() or state.phase.value in found:
            continue
        found.add(state.phase.value)
        trace: list[int] = []
        outcome = playout(state, random.Random(seed), trace=trace)
        assert _reference(state, random.Random(seed), None) == (trace, outcome)
        if len(found) == 2:
            break
    assert found == {"shuffle", "exchange"}


@pytest.mark.parametrize(
    ("seed", "rules", "reason"),
    [
        (0, Rules(), "siege_held"),
        (46, Rules(), "controlled_damaged_tile"),
        (1067, Rules(), "fourth_tile_damaged"),
        (620, Rules(tactics=True), "siege_failed"),
    ],
)
def test_every_ending_is_played_as_the_referee_plays_it(
    seed: int, rules: Rules, reason: str
) -> None:
    state = new_game(seed=seed, attacker=seed % 2, rules=rules)
    trace: list[int] = []
    outcome = playout(state, random.Random(seed), trace=trace)
    assert outcome.reason == reason
    assert _reference(state, random.Random(seed), None) == (trace, outcome)
