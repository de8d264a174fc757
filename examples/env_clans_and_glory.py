"""A greedy agent against random ones in Clans and Glory, through the PettingZoo environment.

Needs the env extra (``pip install 'referee[env]'``). Usage::

    python examples/env_clans_and_glory.py [GAMES] [--players N]

One greedy agent plays against N - 1 random agents (N is 2 by default), taking
each seat in turn. The greedy agent looks one move ahead: it samples a full
state from its own view (``determinize``: the same information as its
observation), tries each legal id on it and keeps the one that leaves it
furthest ahead of its best rival on the current score; it keeps its shields
when a shield gains nothing. Prints how many games each kind of agent won.
"""

from __future__ import annotations

import random
import sys

import numpy as np

from referee.clans_and_glory import State
from referee.clans_and_glory.actions import ACTIONS
from referee.clans_and_glory.determinize import determinize
from referee.env import clans_and_glory_v0


def random_agent(observation: dict[str, np.ndarray], game: State, rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def greedy_agent(observation: dict[str, np.ndarray], game: State, rng: random.Random) -> int:
    player = game.to_move
    space = ACTIONS[game.num_players]
    sample = determinize(game.view(player), rng)  # only what this player may see

    def lead(action: int) -> tuple[int, bool]:
        move = space.move_of(action)
        points = sample.play(move).score().points
        rivals = max(p for q, p in enumerate(points) if q != player)
        return points[player] - rivals, not move.shield

    return max((int(a) for a in np.flatnonzero(observation["action_mask"])), key=lead)


def play(games: int, players: int) -> dict[str, int]:
    rng = random.Random(0)
    score = {"greedy": 0, "random": 0, "shared": 0}
    env = clans_and_glory_v0.env(players=players)
    for number in range(games):
        greedy_seat = f"player_{number % players}"
        env.reset(seed=number)
        for agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            policy = greedy_agent if agent == greedy_seat else random_agent
            env.step(policy(observation, env.unwrapped.game, rng))
        outcome = env.unwrapped.game.outcome
        if outcome.winner is None:
            score["shared"] += 1
        else:
            score["greedy" if f"player_{outcome.winner}" == greedy_seat else "random"] += 1
    env.close()
    return score


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv and argv[0].isdigit() else 20
    players = int(argv[argv.index("--players") + 1]) if "--players" in argv else 2
    score = play(games, players)
    print(
        f"{games} games ({players} players): greedy {score['greedy']}, "
        f"random {score['random']}, shared {score['shared']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
