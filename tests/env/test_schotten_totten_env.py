"""The PettingZoo environment for Schotten Totten (the ``env`` extra)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from referee.env import schotten_totten_v0
from referee.schotten_totten import Rules
from referee.schotten_totten.actions import ACTIONS

ROOT = Path(__file__).resolve().parents[2]


class TestSchottenTottenEnv:
    def test_a_game_plays_to_the_end_with_rewards(self) -> None:
        env = schotten_totten_v0.raw_env(rules=Rules(tactics=True))
        env.reset(seed=4)
        rng = np.random.default_rng(4)
        totals = {"player_0": 0.0, "player_1": 0.0}
        while env.game.outcome is None:
            agent = env.agent_selection
            assert agent == f"player_{env.game.to_move}"
            other = "player_1" if agent == "player_0" else "player_0"
            assert env.observe(other)["action_mask"].sum() == 0
            mask = env.observe(agent)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            for name in totals:
                totals[name] += env.rewards[name]
        winner = env.game.outcome.winner
        assert all(env.terminations.values())
        if winner is None:
            assert totals == {"player_0": 0.0, "player_1": 0.0}
        else:
            assert totals[f"player_{winner}"] == 1.0 and totals[f"player_{1 - winner}"] == -1.0

    def test_the_observation_is_the_action_spaces(self) -> None:
        env = schotten_totten_v0.raw_env()
        env.reset(seed=9)
        seen = env.observe("player_1")
        assert tuple(seen["observation"]) == ACTIONS.observation(env.game, 1)
        assert seen["observation"].dtype == np.int8
        assert env.observation_space("player_1").contains(seen)

    def test_the_seed_fixes_the_deal(self) -> None:
        one, two = schotten_totten_v0.raw_env(), schotten_totten_v0.raw_env()
        one.reset(seed=11)
        two.reset(seed=11)
        assert one.game == two.game
        two.reset(seed=12)
        assert one.game.hands != two.game.hands

    def test_an_illegal_id_loses(self) -> None:
        env = schotten_totten_v0.env()
        env.reset(seed=1)
        mask = env.last()[0]["action_mask"]
        illegal = int(np.flatnonzero(mask == 0)[0])
        env.step(illegal)  # PettingZoo logs "Illegal move made"
        assert env.rewards["player_0"] == -1
        assert all(env.terminations.values())


def test_import_referee_loads_no_numpy_nor_pettingzoo() -> None:
    code = (
        "import sys, referee, referee.schotten_totten, referee.actions, "
        "referee.schotten_totten.actions, referee.schotten_totten.determinize\n"
        "print(sorted(m for m in ('numpy', 'pettingzoo', 'gymnasium') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_random_vs_greedy_example_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "env_random_vs_greedy.py"), "4"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("4 games (base game): greedy ")
