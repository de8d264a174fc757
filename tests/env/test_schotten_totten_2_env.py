"""The PettingZoo environment for Schotten Totten 2 (the ``env`` extra)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from referee.env import schotten_totten_2_v0
from referee.schotten_totten_2 import Rules, Shuffle, Support
from referee.schotten_totten_2.actions import ACTIONS

ROOT = Path(__file__).resolve().parents[2]


class TestSchottenTotten2Env:
    def test_games_play_to_the_end_with_rewards_and_no_agent_shuffles(self) -> None:
        env = schotten_totten_2_v0.raw_env(rules=Rules(tactics=True))
        rng = np.random.default_rng(4)
        supports = 0
        for seed in range(6):
            env.reset(seed=seed)
            totals = {"player_0": 0.0, "player_1": 0.0}
            while env.game.outcome is None:
                agent = env.agent_selection
                assert agent == f"player_{env.game.to_move}"
                assert not env.game.is_chance_node()
                other = "player_1" if agent == "player_0" else "player_0"
                assert env.observe(other)["action_mask"].sum() == 0
                mask = env.observe(agent)["action_mask"]
                assert mask[ACTIONS.action_of(Shuffle())] == 0
                action = int(rng.choice(np.flatnonzero(mask)))
                supports += isinstance(ACTIONS.move_of(action), Support)
                env.step(action)
                for name in totals:
                    totals[name] += env.rewards[name]
            winner = env.game.outcome.winner
            assert all(env.terminations.values())
            assert winner is not None
            assert totals[f"player_{winner}"] == 1.0 and totals[f"player_{1 - winner}"] == -1.0
        assert supports > 0  # the shuffle was met and played by the environment

    def test_the_observation_is_the_action_spaces(self) -> None:
        env = schotten_totten_2_v0.raw_env()
        env.reset(seed=9)
        seen = env.observe("player_1")
        assert tuple(seen["observation"]) == ACTIONS.observation(env.game, 1)
        assert seen["observation"].dtype == np.int8
        assert env.observation_space("player_1").contains(seen)

    def test_the_seed_fixes_the_deal_and_the_roles(self) -> None:
        one, two = schotten_totten_2_v0.raw_env(), schotten_totten_2_v0.raw_env()
        one.reset(seed=11)
        two.reset(seed=11)
        assert one.game == two.game
        attackers = set()
        for seed in range(12):
            two.reset(seed=seed)
            attackers.add(two.game.attacker)
        assert attackers == {0, 1}

    def test_an_illegal_id_loses(self) -> None:
        env = schotten_totten_2_v0.env()
        env.reset(seed=1)
        agent = env.agent_selection
        mask = env.last()[0]["action_mask"]
        illegal = int(np.flatnonzero(mask == 0)[0])
        env.step(illegal)  # PettingZoo logs "Illegal move made"
        assert env.rewards[agent] == -1
        assert all(env.terminations.values())


def test_import_referee_loads_no_numpy_nor_pettingzoo() -> None:
    code = (
        "import sys, referee, referee.schotten_totten_2, "
        "referee.schotten_totten_2.actions, referee.schotten_totten_2.determinize\n"
        "print(sorted(m for m in ('numpy', 'pettingzoo', 'gymnasium') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("tactics", [False, True])
def test_the_random_vs_greedy_example_runs(tactics: bool) -> None:
    script = ROOT / "examples" / "env_schotten_totten_2_random_vs_greedy.py"
    done = subprocess.run(
        [sys.executable, str(script), "4", *(["--tactics"] if tactics else [])],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    variant = "tactics" if tactics else "base game"
    assert done.stdout.startswith(f"4 games ({variant}): greedy ")
