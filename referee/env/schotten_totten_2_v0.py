"""Schotten Totten 2 as a PettingZoo AEC environment, in the manner of ``chess_v6``.

Agents ``player_0`` and ``player_1`` (the state's players 0 and 1; which one
attacks is dealt at random by :meth:`raw_env.reset`). An agent keeps the turn
for every ply of its turn (opening action, card, controls, draw), as the game
protocol's ``to_move`` says; the player answering an exchange is asked in the
middle of the other's turn. Where support's two cards land is chance: the
environment plays the dealt ``shuffle`` itself, so no agent is asked. Each
observation is a dict: ``"observation"``, the observing player's encoding
(:data:`referee.schotten_totten_2.actions.OBSERVATION_LAYOUT`, ``int8``), and
``"action_mask"``, the legal ids (``int8``; all zero for the agent not to
move). Rewards are +1 to the winner and -1 to the loser at the end, 0
otherwise. An illegal id ends the game with -1 for its player (PettingZoo's
``TerminateIllegalWrapper``).

    >>> env = raw_env()
    >>> env.reset(seed=3)
    >>> mask = env.observe("player_0")["action_mask"]
    >>> move = ACTIONS.move_of(int(mask.argmax()))
    >>> env.step(int(mask.argmax()))
    >>> env.game.history == (move,)
    True

With the tactics variant: ``env(rules=Rules(tactics=True))``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from referee.schotten_totten_2 import SIEGE_CARDS, Rules, State, new_game
from referee.schotten_totten_2.actions import ACTIONS

__all__ = ["env", "raw_env"]

_AGENTS = ("player_0", "player_1")


def env(*, rules: Rules | None = None, render_mode: str | None = None) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers (as ``chess_v6``)."""
    wrapped: AECEnv = raw_env(rules=rules, render_mode=render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped class
    """The unwrapped environment; :attr:`game` is the game's current state."""

    metadata = {  # noqa: RUF012 (PettingZoo reads it as a class attribute)
        "render_modes": ["human", "ansi"],
        "name": "schotten_totten_2_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, *, rules: Rules | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = rules or Rules()
        self.render_mode = render_mode
        self.possible_agents = list(_AGENTS)
        self.agents = list(_AGENTS)
        size = ACTIONS.observation_size
        high = len(SIEGE_CARDS.cards)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, high, shape=(size,), dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, shape=(ACTIONS.num_actions,), dtype=np.int8),
                }
            )
            for agent in _AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(ACTIONS.num_actions) for agent in _AGENTS}
        self._seeds = random.Random()
        self.game: State = new_game(seed=0, rules=self.rules)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        player = _AGENTS.index(agent)
        state = self.game
        observation = np.array(ACTIONS.observation(state, player), dtype=np.int8)
        if state.to_move == player and state.outcome is None:
            mask = np.frombuffer(ACTIONS.legal_action_mask(state), dtype=np.int8).copy()
        else:
            mask = np.zeros(ACTIONS.num_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self.game = new_game(
            seed=self._seeds.getrandbits(32), attacker=self._seeds.randrange(2), rules=self.rules
        )
        self.agents = list(_AGENTS)
        self.rewards = dict.fromkeys(_AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(_AGENTS, 0.0)
        self.terminations = dict.fromkeys(_AGENTS, False)
        self.truncations = dict.fromkeys(_AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in _AGENTS}
        self.agent_selection = _AGENTS[self.game.to_move]

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        game = self.game.play(ACTIONS.move_of(int(action)))
        while game.is_chance_node():  # support's shuffle: the deal says where
            game = game.play(game.generate_legal_moves()[0])
        self.game = game
        self.rewards = dict.fromkeys(_AGENTS, 0.0)
        if self.game.outcome is not None:
            self.terminations = dict.fromkeys(_AGENTS, True)
            self.rewards = dict(zip(_AGENTS, ACTIONS.rewards(self.game), strict=True))
        else:
            self.agent_selection = _AGENTS[self.game.to_move]
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
