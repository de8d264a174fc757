"""The PettingZoo environment for Clans and Glory, 2 to 4 players (the ``env`` extra)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from referee.clans_and_glory.actions import ACTIONS
from referee.env import clans_and_glory_v0

ROOT = Path(__file__).resolve().parents[2]


class TestClansAndGloryEnv:
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_a_game_plays_to_the_end_with_rewards(self, players: int) -> None:
        env = clans_and_glory_v0.raw_env(players=players)
        env.reset(seed=players)
        rng = np.random.default_rng(players)
        names = [f"player_{p}" for p in range(players)]
        totals = dict.fromkeys(names, 0.0)
        while not env.game.is_game_over():
            agent = env.agent_selection
            assert agent == f"player_{env.game.to_move}"
            for other in names:
                if other != agent:
                    assert env.observe(other)["action_mask"].sum() == 0
            mask = env.observe(agent)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            for name in names:
                totals[name] += env.rewards[name]
        winners = env.game.score().winners
        assert all(env.terminations.values())
        assert totals == {f"player_{p}": 1.0 if p in winners else -1.0 for p in range(players)}

    def test_the_observation_is_the_action_spaces(self) -> None:
        env = clans_and_glory_v0.raw_env(players=4)
        env.reset(seed=9)
        seen = env.observe("player_2")
        assert tuple(seen["observation"]) == ACTIONS[4].observation(env.game, 2)
        assert seen["observation"].dtype == np.int8
        assert env.observation_space("player_2").contains(seen)
        assert env.action_space("player_2").n == ACTIONS[4].num_actions

    def test_the_seed_fixes_the_deal(self) -> None:
        one = clans_and_glory_v0.raw_env(players=3)
        two = clans_and_glory_v0.raw_env(players=3)
        one.reset(seed=11)
        two.reset(seed=11)
        assert one.game == two.game
        two.reset(seed=12)
        assert one.game.hands != two.game.hands

    def test_an_illegal_id_loses(self) -> None:
        env = clans_and_glory_v0.env(players=3)
        env.reset(seed=1)
        mask = env.last()[0]["action_mask"]
        illegal = int(np.flatnonzero(mask == 0)[0])
        env.step(illegal)  # PettingZoo logs "Illegal move made"
        assert env.rewards["player_0"] == -1
        assert all(env.terminations.values())

    def test_other_player_counts_are_refused(self) -> None:
        with pytest.raises(ValueError, match="2 to 4 players, not 5"):
            clans_and_glory_v0.raw_env(players=5)


def test_a_shared_win_rewards_every_winner() -> None:
    # Find a shared win among random games; every winner gets +1.
    env = clans_and_glory_v0.raw_env(players=2)
    rng = np.random.default_rng(0)
    for seed in range(300):
        env.reset(seed=seed)
        while not env.game.is_game_over():
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        if env.game.outcome is not None and env.game.outcome.winner is None:
            break
    else:
        pytest.fail("no shared win in 300 random games")
    assert env.rewards == {"player_0": 1.0, "player_1": 1.0}


def test_import_referee_loads_no_numpy_nor_pettingzoo() -> None:
    code = (
        "import sys, referee, referee.clans_and_glory, referee.clans_and_glory.actions, "
        "referee.clans_and_glory.determinize\n"
        "print(sorted(m for m in ('numpy', 'pettingzoo', 'gymnasium') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_greedy_example_beats_random_agents() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "env_clans_and_glory.py"), "6", "--players", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("6 games (3 players): greedy ")
    greedy = int(done.stdout.split("greedy ")[1].split(",")[0])
    randoms = int(done.stdout.split("random ")[1].split(",")[0])
    assert greedy > randoms  # one move of look-ahead beats random play
