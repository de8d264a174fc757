"""Clans and Glory as a PettingZoo AEC environment for 2, 3 or 4 players.

Agents ``player_0`` .. ``player_{N-1}`` (the state's players, in turn order;
``player_0`` moves first). Each turn is one move, so the agents simply take
turns. Each observation is a dict: ``"observation"``, the observing player's
encoding (``ACTIONS[players].observation_layout`` in
:mod:`referee.clans_and_glory.actions`, ``int8``), and ``"action_mask"``, the
legal ids (``int8``; all zero for the agents not to move). Rewards come at the
end only: +1 to each winner (all of them in a shared win) and -1 to every other
player. An illegal id ends the game with -1 for its player (PettingZoo's
``TerminateIllegalWrapper``).

    >>> env = raw_env(players=3)
    >>> env.reset(seed=3)
    >>> env.agents, env.agent_selection
    (['player_0', 'player_1', 'player_2'], 'player_0')
    >>> mask = env.observe("player_0")["action_mask"]
    >>> move = ACTIONS[3].move_of(int(mask.argmax()))
    >>> env.step(int(mask.argmax()))
    >>> env.game.history == (move,), env.agent_selection
    (True, 'player_1')
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from referee.clans_and_glory import State, new_game, setup_for
from referee.clans_and_glory.actions import ACTIONS

__all__ = ["env", "raw_env"]


def env(*, players: int = 2, render_mode: str | None = None) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers (as ``chess_v6``)."""
    wrapped: AECEnv = raw_env(players=players, render_mode=render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped class
    """The unwrapped environment; :attr:`game` is the game's current state."""

    metadata = {  # noqa: RUF012 (PettingZoo reads it as a class attribute)
        "render_modes": ["human", "ansi"],
        "name": "clans_and_glory_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, *, players: int = 2, render_mode: str | None = None) -> None:
        super().__init__()
        self.players = setup_for(players).players
        self.space = ACTIONS[self.players]
        self.render_mode = render_mode
        names = tuple(f"player_{p}" for p in range(self.players))
        self._names = names
        self.possible_agents = list(names)
        self.agents = list(names)
        space = self.space
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0, space.observation_high, shape=(space.observation_size,), dtype=np.int8
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(space.num_actions,), dtype=np.int8),
                }
            )
            for agent in names
        }
        self.action_spaces = {agent: spaces.Discrete(space.num_actions) for agent in names}
        self._seeds = random.Random()
        self.game: State = new_game(self.players, seed=0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        player = self._names.index(agent)
        state = self.game
        observation = np.array(self.space.observation(state, player), dtype=np.int8)
        if state.to_move == player and not state.is_over:
            mask = np.frombuffer(self.space.legal_action_mask(state), dtype=np.int8).copy()
        else:
            mask = np.zeros(self.space.num_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self.game = new_game(self.players, seed=self._seeds.getrandbits(32))
        names = self._names
        self.agents = list(names)
        self.rewards = dict.fromkeys(names, 0.0)
        self._cumulative_rewards = dict.fromkeys(names, 0.0)
        self.terminations = dict.fromkeys(names, False)
        self.truncations = dict.fromkeys(names, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in names}
        self.agent_selection = names[self.game.to_move]

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game = self.game.play(self.space.move_of(int(action)))
        names = self._names
        self.rewards = dict.fromkeys(names, 0.0)
        if self.game.is_over:
            self.terminations = dict.fromkeys(names, True)
            self.rewards = dict(zip(names, self.space.rewards(self.game), strict=True))
        else:
            self.agent_selection = names[self.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.game)
        if self.render_mode == "human":
            print(self.game)
        return None

    def close(self) -> None:
        pass
