"""The parallel form of every game's environment: one ply per step, the agents
not to move playing the no-op, the same game as the AEC environment plays."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from referee import schotten_totten_2 as st2
from referee.env import (
    GameParallelEnv,
    clans_and_glory_v0,
    game_parallel_env,
    schotten_totten_2_v0,
    schotten_totten_v0,
)
from referee.game import Termination

GAMES: dict[str, tuple[ModuleType, dict[str, Any]]] = {
    "schotten-totten": (schotten_totten_v0, {}),
    "schotten-totten-2 tactics": (schotten_totten_2_v0, {"rules": st2.Rules(tactics=True)}),
    "clans-and-glory 4": (clans_and_glory_v0, {"players": 4}),
}


def parallel(game: str, **more: Any) -> GameParallelEnv:
    module, arguments = GAMES[game]
    env: GameParallelEnv = module.parallel_env(**arguments, **more)
    return env


def moves(env: GameParallelEnv, observations: dict[str, Any], rng: np.random.Generator) -> Any:
    """Every live agent's action, drawn from its mask."""
    return {
        agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
        for agent in env.agents
    }


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_parallel_game_is_the_aec_game(game: str) -> None:
    module, arguments = GAMES[game]
    env = parallel(game)
    turns = module.raw_env(**arguments)
    rng = np.random.default_rng(1)
    observations, infos = env.reset(seed=1)
    turns.reset(seed=1)
    wait = env.wait_action
    assert wait == turns.space.num_actions
    assert set(observations) == set(infos) == set(env.possible_agents) == set(env.agents)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        mover = env.agent_to_move
        assert mover == turns.agent_selection
        for agent in env.agents:
            mask = observations[agent]["action_mask"]
            assert mask.shape == (wait + 1,)
            assert env.observation_space(agent).contains(observations[agent])
            aec = turns.observe(agent)
            assert np.array_equal(observations[agent]["observation"], aec["observation"])
            if agent == mover:
                assert np.array_equal(mask[:wait], aec["action_mask"]) and mask[wait] == 0
            else:
                assert np.flatnonzero(mask).tolist() == [wait]
        actions = moves(env, observations, rng)
        turns.step(actions[mover])
        observations, rewards, terminations, truncations, infos = env.step(actions)
        assert env.game == turns.game
        assert np.array_equal(env.state(), turns.state())
        for agent, reward in rewards.items():
            totals[agent] += reward
            assert reward == turns.rewards[agent]
    assert all(terminations.values()) and not any(truncations.values())
    assert env.game.is_game_over()
    # the rewards of the end, paid once: +1 to each winner, -1 to the others
    assert tuple(totals[a] for a in env.possible_agents) == turns.space.rewards(env.game)
    assert any(totals.values())
    assert all(not o["action_mask"].any() for o in observations.values())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_same_seed_and_actions_play_the_same_game(game: str) -> None:
    one, two = parallel(game), parallel(game)
    seen_one, _ = one.reset(seed=9)
    seen_two, _ = two.reset(seed=9)
    rng_one, rng_two = np.random.default_rng(2), np.random.default_rng(2)
    while one.agents:
        step_one = one.step(moves(one, seen_one, rng_one))
        step_two = two.step(moves(two, seen_two, rng_two))
        seen_one, seen_two = step_one[0], step_two[0]
        assert step_one[1:4] == step_two[1:4]
        for agent in seen_one:
            assert np.array_equal(seen_one[agent]["observation"], seen_two[agent]["observation"])
    assert one.game == two.game


def test_the_mask_can_go_in_the_info() -> None:
    env = parallel("schotten-totten", action_mask_in="info")
    observations, infos = env.reset(seed=3)
    mover = env.agent_to_move
    assert isinstance(observations[mover], np.ndarray)
    assert env.observation_space(mover).contains(observations[mover])
    other = next(a for a in env.agents if a != mover)
    assert np.flatnonzero(infos[other]["action_mask"]).tolist() == [env.wait_action]
    actions = {mover: int(np.flatnonzero(infos[mover]["action_mask"])[0]), other: env.wait_action}
    observations, _rewards, _terminations, _truncations, infos = env.step(actions)
    assert env.game.ply == 1
    assert set(infos[env.agent_to_move]) == {"action_mask"}


@pytest.mark.parametrize(
    ("mover_plays", "other_plays", "at_fault"),
    [
        ("wait", "wait", ["mover"]),  # the agent to move may not wait
        ("legal", "legal", ["other"]),  # an agent not to move may only wait
        ("illegal", "wait", ["mover"]),  # an id its mask does not allow
        ("wait", "legal", ["mover", "other"]),
    ],
)
def test_an_action_the_mask_forbids_ends_the_game(
    mover_plays: str, other_plays: str, at_fault: list[str]
) -> None:
    env = parallel("schotten-totten")
    observations, _ = env.reset(seed=4)
    mover = env.agent_to_move
    other = next(a for a in env.agents if a != mover)
    mask = observations[mover]["action_mask"]
    choice = {
        "wait": env.wait_action,
        "legal": int(np.flatnonzero(mask)[0]),
        "illegal": int(np.flatnonzero(mask == 0)[0]),
    }
    before = env.game
    _seen, rewards, terminations, truncations, _infos = env.step(
        {mover: choice[mover_plays], other: choice[other_plays]}
    )
    faulty = {"mover": mover, "other": other}
    assert rewards == {a: -1.0 if a in {faulty[f] for f in at_fault} else 0.0 for a in rewards}
    assert all(terminations.values()) and not any(truncations.values())
    assert env.agents == []
    assert env.game is before  # nothing was played
    with pytest.raises(ValueError, match=r"^the game is over: reset\(\) the environment"):
        env.step({})


def test_every_live_agent_must_act_and_nothing_is_played_otherwise() -> None:
    env = parallel("clans-and-glory 4")
    observations, _ = env.reset(seed=5)
    mover = env.agent_to_move
    before = env.game
    with pytest.raises(ValueError) as refused:
        env.step({mover: int(np.flatnonzero(observations[mover]["action_mask"])[0])})
    others = sorted(a for a in env.agents if a != mover)
    assert str(refused.value) == (
        f"every live agent acts at each step: missing {others}, not live []"
    )
    actions = dict.fromkeys(env.agents, env.wait_action)
    with pytest.raises(ValueError, match=r"not live \['player_9'\]"):
        env.step({**actions, "player_9": 0})
    with pytest.raises(ValueError, match="no action 'x': ids are whole numbers 0-6384"):
        env.step({**actions, mover: "x"})
    assert env.game is before and env.agents == env.possible_agents


def test_the_parallel_game_is_cut_at_max_plies() -> None:
    env = parallel("schotten-totten", max_plies=5)
    observations, _ = env.reset(seed=6)
    rng = np.random.default_rng(6)
    for step in range(5):
        assert env.agents
        observations, rewards, terminations, truncations, _ = env.step(
            moves(env, observations, rng)
        )
        assert all(truncations.values()) == (step == 4)
    assert not any(terminations.values()) and rewards == dict.fromkeys(rewards, 0.0)
    assert env.agents == []
    assert env.game.outcome.termination is Termination.PLY_LIMIT
    assert len(env.game.history) == 5


def test_game_parallel_env_renders_the_movers_view() -> None:
    env = game_parallel_env("schotten-totten-2", render_mode="ansi")
    env.reset(seed=2)
    mover = env.possible_agents.index(env.agent_to_move)
    assert env.render() == str(env.game.view(mover))
    assert env.state_space.contains(env.state())
