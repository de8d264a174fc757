"""A random agent against a greedy one, through the PettingZoo environment.

Needs the env extra (``pip install 'referee[env]'``). Usage::

    python examples/env_random_vs_greedy.py [GAMES] [--tactics]

The greedy agent reads only its observation and action mask: it claims every
stone it can, else plays its highest clan card where its side already has the
most cards, else takes the first legal id. Each agent plays first in half the
games. Prints the score.
"""

from __future__ import annotations

import sys

import numpy as np

from referee.env import schotten_totten_v0
from referee.schotten_totten import Rules
from referee.schotten_totten.actions import ACTIONS, OBSERVATION_LAYOUT
from referee.schotten_totten.moves import Claim, PlayCard

STONES = 9
CLAN_KINDS = 54
MY_SIDES = OBSERVATION_LAYOUT[1][1]  # start of "my side of each stone"


def random_agent(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def greedy_agent(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(observation["action_mask"])
    moves = {int(a): ACTIONS.move_of(int(a)) for a in legal}
    claims = [a for a, m in moves.items() if isinstance(m, Claim)]
    if claims:
        return claims[0]
    seen = observation["observation"]

    def worth(move: PlayCard) -> tuple[int, int]:
        side = seen[MY_SIDES + (move.stone - 1) * 63 : MY_SIDES + move.stone * 63]
        value = getattr(move.card, "value", 0)
        return value, int(side.sum()) if int(side.sum()) < 3 else -1

    plays = {a: m for a, m in moves.items() if isinstance(m, PlayCard)}
    if plays:
        return max(plays, key=lambda a: worth(plays[a]))
    return int(legal[0])


def play(games: int, rules: Rules) -> dict[str, int]:
    rng = np.random.default_rng(0)
    score = {"random": 0, "greedy": 0, "shared": 0}
    env = schotten_totten_v0.env(rules=rules)
    for game in range(games):
        seats = ("greedy", "random") if game % 2 == 0 else ("random", "greedy")
        agents = {"player_0": seats[0], "player_1": seats[1]}
        env.reset(seed=game)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                if reward > 0:
                    score[agents[agent]] += 1
                elif reward == 0 and agent == "player_0":
                    score["shared"] += 1
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
        f"greedy {score['greedy']}, random {score['random']}, shared {score['shared']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
