"""What every game's AEC environment offers beyond the game: where the mask goes,
the full observer's state, truncation at a ply limit, and renders of one view."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from referee import schotten_totten_2 as st2
from referee.env import (
    GameEnv,
    clans_and_glory_v0,
    game_env,
    schotten_totten_2_v0,
    schotten_totten_v0,
)
from referee.game import Termination
from referee.schotten_totten_2 import Shuffle, Support

GAMES: dict[str, tuple[ModuleType, dict[str, Any]]] = {
    "schotten-totten": (schotten_totten_v0, {}),
    "schotten-totten-2 tactics": (schotten_totten_2_v0, {"rules": st2.Rules(tactics=True)}),
    "clans-and-glory 3": (clans_and_glory_v0, {"players": 3}),
}


def raw(game: str, **more: Any) -> GameEnv:
    module, arguments = GAMES[game]
    env: GameEnv = module.raw_env(**arguments, **more)
    return env


def random_ids(env: GameEnv, seed: int) -> list[int]:
    """The ids a random agent plays through ``env`` from ``reset(seed=seed)``
    to the end of the game (masks read from the observations)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    ids = []
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        mask = env.observe(env.agent_selection)["action_mask"]
        ids.append(int(rng.choice(np.flatnonzero(mask))))
        env.step(ids[-1])
    return ids


# -- the mask in the observation or in the info ------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_mask_in_the_info_is_the_one_in_the_observation(game: str) -> None:
    in_observation, in_info = raw(game), raw(game, action_mask_in="info")
    ids = random_ids(in_observation, seed=3)
    names = in_info.possible_agents
    # both environments step together, compared ply by ply
    in_observation.reset(seed=3)
    in_info.reset(seed=3)
    for action in ids:
        mover = in_info.agent_selection
        assert in_info.infos[mover]["action_mask"][action] == 1
        for agent in names:
            both = in_observation.observe(agent)
            assert np.array_equal(in_info.observe(agent), both["observation"])
            assert np.array_equal(in_info.infos[agent]["action_mask"], both["action_mask"])
        in_observation.step(action)
        in_info.step(action)
    assert in_info.game == in_observation.game
    assert in_info.game.is_game_over()


def test_observations_are_fresh_writable_arrays() -> None:
    env = raw("schotten-totten-2 tactics")
    env.reset(seed=1)
    agent = env.agent_selection
    first = env.observe(agent)
    first["observation"][:] = 0
    first["action_mask"][:] = 0
    again = env.observe(agent)
    assert again["observation"].any() and again["action_mask"].any()
    other = next(a for a in env.agents if a != agent)
    env.observe(other)["action_mask"][:] = 1  # a non-mover's zeros are its own too
    assert not env.observe(other)["action_mask"].any()


# -- the full observer's state -----------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_state_is_every_players_observation_in_seat_order(game: str) -> None:
    env = raw(game)
    ids = random_ids(env, seed=5)
    env.reset(seed=5)
    size = env.space.observation_size
    players = len(env.possible_agents)
    assert env.state_space.shape == (players * size,)
    for action in ids[:40]:
        state = env.state()
        assert env.state_space.contains(state)
        for p in range(players):
            assert tuple(state[p * size : (p + 1) * size]) == env.space.observation(env.game, p)
        env.step(action)


def test_the_state_holds_every_hand() -> None:
    env = raw("schotten-totten")
    env.reset(seed=2)
    size = env.space.observation_size
    state = env.state()
    hand = slice(0, 63)  # "my hand: copies of each kind" of each player's block
    assert state[hand].sum() == len(env.game.hands[0]) == 6
    assert state[size:][hand].sum() == len(env.game.hands[1]) == 6


# -- truncation at a ply limit -----------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("limit", [1, 7, 20])
def test_the_game_is_cut_after_max_plies_plies(game: str, limit: int) -> None:
    free = raw(game)
    ids = random_ids(free, seed=limit)
    whole = free.game
    assert len(whole.history) > limit  # random games run longer than these limits
    env = raw(game, max_plies=limit)
    env.reset(seed=limit)
    names = env.possible_agents
    steps = 0
    while not env.truncations[env.agent_selection]:
        assert not any(env.terminations.values())
        env.step(ids[steps])
        steps += 1
    cut = env.game
    # every ply counted (chance ones too): the game holds exactly `limit` of them,
    # the same as the game played on without a limit
    assert len(cut.history) == limit
    assert tuple(cut.history) == tuple(whole.history)[:limit]
    assert cut.outcome is not None and cut.outcome.termination is Termination.PLY_LIMIT
    assert cut.outcome.winner is None
    assert env.truncations == dict.fromkeys(names, True)
    assert env.terminations == dict.fromkeys(names, False)
    assert env.rewards == dict.fromkeys(names, 0.0)
    # every agent then takes its last (None) step and leaves
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        assert truncated and not terminated and reward == 0.0
        assert agent in names
        assert not observation["action_mask"].any()
        env.step(None)
    assert env.agents == []


def test_a_game_that_ends_first_is_terminated_not_truncated() -> None:
    env = raw("schotten-totten")
    ids = random_ids(env, seed=4)
    plies = len(env.game.history)
    limited = raw("schotten-totten", max_plies=plies)  # the last ply ends the game
    limited.reset(seed=4)
    for action in ids:
        limited.step(action)
    assert limited.game == env.game
    assert all(limited.terminations.values()) and not any(limited.truncations.values())


def test_a_chance_ply_counts_and_is_cut_as_the_arena_cuts_it() -> None:
    # Schotten Totten 2: after a support the environment plays the shuffle itself.
    # The arena checks its limit before every ply, chance plies included: a limit
    # that falls right after the support cuts the game before the shuffle, one more
    # lets the shuffle be played, and then the game is cut.
    env = raw("schotten-totten-2 tactics")
    for seed in range(40):
        ids = random_ids(env, seed)
        history = tuple(env.game.history)
        shuffles = [i for i, move in enumerate(history) if isinstance(move, Shuffle)]
        if shuffles:
            break
    else:
        pytest.fail("no support in 40 random games")
    at = shuffles[0]
    assert isinstance(history[at - 1], Support)
    agent_steps = at - sum(1 for i in shuffles if i < at)  # the support's step is the last
    for limit, kept in ((at, at), (at + 1, at + 1)):
        cut = raw("schotten-totten-2 tactics", max_plies=limit)
        cut.reset(seed=seed)
        for action in ids[:agent_steps]:
            cut.step(action)
        assert all(cut.truncations.values())
        assert tuple(cut.game.history) == history[:kept]
    assert cut.game.history[-1] == history[at]  # the shuffle, played before the cut


def test_game_env_takes_every_option() -> None:
    env = game_env(
        "clans-and-glory",
        rules={"players": 4},
        render_mode="ansi",
        max_plies=3,
        action_mask_in="info",
        viewer="player_2",
    )
    env.reset(seed=1)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.infos[env.agent_selection]["action_mask"])[0]))
    assert all(env.truncations.values())
    assert env.render() == str(env.unwrapped.game.view(2))


# -- renders: one view only -------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_render_shows_the_view_of_the_agent_to_act(game: str) -> None:
    env = raw(game, render_mode="ansi")
    ids = random_ids(env, seed=6)
    env.reset(seed=6)
    for action in ids[:30]:
        player = env.possible_agents.index(env.agent_selection)
        text = env.render()
        assert text == env.descriptor.text(env.game.view(player))
        assert text != str(env.game)  # the full state shows every hand
        env.step(action)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_fixed_viewer_is_rendered_whoever_is_to_move(game: str) -> None:
    env = raw(game, render_mode="ansi", viewer="player_1")
    ids = random_ids(env, seed=7)
    env.reset(seed=7)
    movers = set()
    for action in ids[:30]:
        movers.add(env.agent_selection)
        assert env.render() == env.descriptor.text(env.game.view(1))
        env.step(action)
    assert len(movers) > 1


def test_human_render_prints_after_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    env = raw("schotten-totten", render_mode="human")
    env.reset(seed=8)
    capsys.readouterr()
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    printed = capsys.readouterr().out
    player = env.possible_agents.index(env.agent_selection)
    assert printed == str(env.game.view(player)) + "\n"
    assert env.render() is None
    # the other hand is printed as hidden, never card by card
    other = env.game.hands[1 - player]
    assert f"hand ({len(other)}): hidden" in printed


def test_no_render_mode_renders_nothing() -> None:
    env = raw("schotten-totten")
    env.reset(seed=1)
    assert env.render() is None


# -- options refused ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("render_mode", "rgb_array", "no render mode 'rgb_array': 'human', 'ansi' or None"),
        ("max_plies", 0, "max_plies is a whole number from 1 up (or None), not 0"),
        ("max_plies", True, "max_plies is a whole number from 1 up (or None), not True"),
        ("max_plies", "20", "max_plies is a whole number from 1 up (or None), not '20'"),
        ("action_mask_in", "obs", "action_mask_in is 'observation' or 'info', not 'obs'"),
        ("viewer", "player_3", "no agent 'player_3' to view the game: player_0, player_1"),
        ("viewer", 0, "no agent 0 to view the game: player_0, player_1 or None"),
    ],
)
def test_bad_options_are_refused_by_name(option: str, value: object, message: str) -> None:
    with pytest.raises(ValueError) as refused:
        schotten_totten_v0.raw_env(**{option: value})
    assert str(refused.value).startswith(message)
    with pytest.raises(ValueError) as refused:
        schotten_totten_v0.parallel_env(**{option: value})
    assert str(refused.value).startswith(message)


def test_a_raw_step_refuses_what_is_no_id_and_plays_nothing() -> None:
    env = raw("schotten-totten")
    env.reset(seed=1)
    before = env.game
    for bad in (-1, 13281, 2.0, "5", None):
        with pytest.raises(ValueError, match="no action"):
            env.step(bad)
        assert env.game is before
