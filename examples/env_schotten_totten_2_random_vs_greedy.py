"""A random agent against a greedy one in Schotten Totten 2, through the PettingZoo environment.

Needs the env extra (``pip install 'referee[env]'``). Usage::

    python examples/env_schotten_totten_2_random_vs_greedy.py [GAMES] [--tactics]

The greedy agent reads only its observation and action mask: it declares
control of every tile it can, else plays its highest card (elite troops count
as high) where its side already has the most cards, else takes the first legal
id. Each agent attacks in half the games (the environment deals the roles from
its seed, so the seats are swapped instead). Prints the score.
"""

from __future__ import annotations

import sys

import numpy as np

from referee.env import schotten_totten_2_v0
from referee.schotten_totten_2 import Control, PlayCard, Rules
from referee.schotten_totten_2.actions import ACTIONS, OBSERVATION_LAYOUT

ON_TILE = 63  # kinds that lie at a tile: 60 siege cards, joker, spy, shield
MY_SIDES = OBSERVATION_LAYOUT[1][1]  # start of "my side of each tile"


def random_agent(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def greedy_agent(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(observation["action_mask"])
    moves = {int(a): ACTIONS.move_of(int(a)) for a in legal}
    controls = [a for a, m in moves.items() if isinstance(m, Control)]
    if controls:
        return controls[0]
    seen = observation["observation"]

    def worth(move: PlayCard) -> tuple[int, int]:
        at = MY_SIDES + (move.tile - 1) * ON_TILE
        mine = int(seen[at : at + ON_TILE].sum())
        value = getattr(move.card, "value", 12)
        return value, mine

    plays = {a: m for a, m in moves.items() if isinstance(m, PlayCard)}
    if plays:
        return max(plays, key=lambda a: worth(plays[a]))
    return int(legal[0])


def play(games: int, rules: Rules) -> dict[str, int]:
    rng = np.random.default_rng(0)
    score = {"random": 0, "greedy": 0, "greedy attacking": 0}
    env = schotten_totten_2_v0.env(rules=rules)
    for game in range(games):
        env.reset(seed=game // 2)  # each deal twice, the seats swapped
        seats = ("greedy", "random") if game % 2 == 0 else ("random", "greedy")
        agents = {"player_0": seats[0], "player_1": seats[1]}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                if reward > 0:
                    score[agents[agent]] += 1
                    attacker = env.unwrapped.game.attacker
                    if agents[agent] == "greedy" and agent == f"player_{attacker}":
                        score["greedy attacking"] += 1
                env.step(None)
                continue
            policy = greedy_agent if agents[agent] == "greedy" else random_agent
            env.step(policy(observation, rng))
    env.close()
    return score


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv and argv[0].isdigit() else 20
    rules = Rules(tactics="--tactics" in argv)
    score = play(games, rules)
    print(
        f"{games} games ({'tactics' if rules.tactics else 'base game'}): "
        f"greedy {score['greedy']} ({score['greedy attacking']} as the attacker), "
        f"random {score['random']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
