"""What the PettingZoo environments of every game share (knows no game).

A game's environment says how to deal a game from a random generator, which
action space numbers its moves, how high an observation's entries go, and
(if it has any) how a chance ply is played; :class:`GameEnv` does the rest:
agents ``player_0`` .. ``player_{N-1}``, the observation dict with its mask,
turns as the state's ``to_move`` says, rewards at the end from the action
space, and the usual wrappers (:func:`wrapped`).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from referee.actions import ActionSpace

__all__ = ["GameEnv", "wrapped"]


def wrapped(raw: AECEnv) -> AECEnv:
    """``raw`` with PettingZoo's usual safety wrappers (as ``chess_v6``): an
    illegal id ends the game with -1 for its player."""
    env: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    env = wrappers.OrderEnforcingWrapper(env)
    return env


class GameEnv(AECEnv):
    """An AEC environment over one of the games; :attr:`game` is its current state."""

    #: PettingZoo's metadata; a subclass sets its ``name``.
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self, space: ActionSpace, players: int, high: int, render_mode: str | None
    ) -> None:
        super().__init__()
        self.space = space
        self.render_mode = render_mode
        names = tuple(f"player_{p}" for p in range(players))
        self._names = names
        self.possible_agents = list(names)
        self.agents = list(names)
        size, count = space.observation_size, space.num_actions
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, high, shape=(size,), dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, shape=(count,), dtype=np.int8),
                }
            )
            for agent in names
        }
        self.action_spaces = {agent: spaces.Discrete(count) for agent in names}
        self._seeds = random.Random()
        self.game: Any = self._deal(random.Random(0))

    # -- what each game says ------------------------------------------------------------

    def _deal(self, rng: random.Random) -> Any:
        """A new game dealt from ``rng``."""
        raise NotImplementedError

    def _settle(self, state: Any) -> Any:
        """``state`` once any chance ply is played (nothing to do by default)."""
        return state

    # -- PettingZoo's interface ------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        player = self._names.index(agent)
        state = self.game
        space = self.space
        observation = np.array(space.observation(state, player), dtype=np.int8)
        if state.to_move == player and not state.is_game_over():
            mask = np.frombuffer(space.legal_action_mask(state), dtype=np.int8).copy()
        else:
            mask = np.zeros(space.num_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self.game = self._deal(self._seeds)
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
        self.game = self._settle(self.space.play(self.game, int(action)))
        names = self._names
        self.rewards = dict.fromkeys(names, 0.0)
        if self.game.is_game_over():
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
