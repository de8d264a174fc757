"""An agent's observation, mask and render hold nothing it may not see.

Two worlds an agent cannot tell apart (the same deal and moves but for two cards
it never saw, swapped: ``tests/secrets/worlds.py``), put in an environment,
must give that agent the same observation array, the same action mask and the
same render, in both places of the mask, and the same in the parallel form.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.env import GameEnv, GameParallelEnv
from referee.games import descriptor_of
from tests.secrets.worlds import GAMES, Twins, random_game, twins

SETTINGS = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


def _twins(data: st.DataObject, name: str) -> Twins:
    game = GAMES[name]
    seed = data.draw(st.integers(0, 2**32), label="seed")
    first = data.draw(st.integers(0, 1), label="first") if game.players == 2 else 0
    plies = data.draw(st.one_of(st.integers(0, 60), st.integers(60, 400)), label="plies")
    stop_at_secret = data.draw(st.booleans(), label="stop_at_secret")
    viewer = data.draw(st.integers(0, game.players - 1), label="viewer")
    pick = data.draw(st.integers(0, 2**16), label="pick")
    salts = data.draw(st.tuples(st.integers(0, 2**32), st.integers(0, 2**32)), label="salts")
    state = random_game(game, seed, first, plies, stop_at_secret)
    pair = twins(game, state, viewer, pick, salts)
    assume(pair is not None)
    assert pair is not None
    return pair


def placed(state: Any, **options: Any) -> GameEnv:
    """A raw environment of ``state``'s game, at ``state``."""
    rules = {"players": state.num_players} if state.num_players > 2 else {}
    env = GameEnv(descriptor_of(state), rules, **options)
    env.reset(seed=0)
    env.game = state
    env.agent_selection = env.possible_agents[state.to_move]
    env.infos = {}
    return env


def seen_by(state: Any, agent: str) -> list[Any]:
    """Everything ``agent`` is given at ``state``, in every form."""
    in_observation = placed(state)
    in_info = placed(state, action_mask_in="info")
    render = placed(state, render_mode="ansi", viewer=agent)
    in_info._set_infos()
    both = in_observation.observe(agent)
    return [
        both["observation"],
        both["action_mask"],
        in_info.observe(agent),
        in_info.infos[agent]["action_mask"],
        render.render(),
    ]


def parallel_seen_by(state: Any, agent: str) -> list[Any]:
    env = GameParallelEnv(
        descriptor_of(state), {"players": state.num_players} if state.num_players > 2 else {}
    )
    env.reset(seed=0)
    env._turns.game = state
    env._turns.agent_selection = env.possible_agents[state.to_move]
    observations, _ = env._observations(list(env.possible_agents), state.is_game_over())
    return [observations[agent]["observation"], observations[agent]["action_mask"]]


def same(one: list[Any], other: list[Any]) -> None:
    for a, b in zip(one, other, strict=True):
        if isinstance(a, np.ndarray):
            assert a.dtype == b.dtype and np.array_equal(a, b)
        else:
            assert a == b


@pytest.mark.parametrize("name", sorted(GAMES))
@SETTINGS
@given(data=st.data())
def test_an_agent_cannot_tell_two_worlds_apart(name: str, data: st.DataObject) -> None:
    pair = _twins(data, name)
    assert pair.viewer is not None
    agent = f"player_{pair.viewer}"
    assert pickle.dumps(pair.real) != pickle.dumps(pair.twin)  # two worlds, not one
    same(seen_by(pair.real, agent), seen_by(pair.twin, agent))
    same(parallel_seen_by(pair.real, agent), parallel_seen_by(pair.twin, agent))
