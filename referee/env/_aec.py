"""The PettingZoo environment of any game, built from its descriptor (knows no game).

A game's descriptor (:mod:`referee.games`) says how to deal a game from a
random generator (``deal``), which action space numbers its moves
(``action_space``), how high an observation's entries go
(``observation_high``) and, if it has any, how a chance ply is played
(``chance``); :class:`GameEnv` does the rest: agents ``player_0`` ..
``player_{N-1}``, the observation dict with its mask, turns as the state's
``to_move`` says, rewards at the end from the action space, and the usual
wrappers (:func:`wrapped`). :func:`game_env` makes one for any game by name.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from referee.games import GameDescriptor, find_game

__all__ = ["GameEnv", "game_env", "wrapped"]


def wrapped(raw: AECEnv) -> AECEnv:
    """``raw`` with PettingZoo's usual safety wrappers (as ``chess_v6``): an
    illegal id ends the game with -1 for its player."""
    env: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    env = wrappers.OrderEnforcingWrapper(env)
    return env


def game_env(
    name: str, *, rules: Mapping[str, Any] | None = None, render_mode: str | None = None
) -> AECEnv:
    """The wrapped environment of the game ``name`` under the record rules ``rules``.

    >>> env = game_env("clans-and-glory", rules={"players": 3})
    >>> env.reset(seed=1)
    >>> env.agents, env.metadata["name"]
    (['player_0', 'player_1', 'player_2'], 'clans_and_glory_v0')
    """
    return wrapped(GameEnv(find_game(name), rules, render_mode))


class GameEnv(AECEnv):
    """An AEC environment over one game; :attr:`game` is its current state.

    ``rules`` is a record's ``rules`` object (``{}``: the game's default rules);
    the game's descriptor must have ``deal`` and ``action_space``.
    """

    #: PettingZoo's metadata; each environment's ``name`` is its game's ``env_name``.
    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's class attribute)
        "render_modes": ["human", "ansi"],
        "name": "",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: GameDescriptor[Any],
        rules: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        missing = [part for part in ("deal", "action_space") if getattr(game, part) is None]
        if missing:
            raise ValueError(f"{game.title} has no {' nor '.join(missing)}: no environment")
        self.descriptor = game
        self.record_rules: dict[str, Any] = dict(rules or {})
        self.metadata = {**type(self).metadata, "name": game.env_name}
        self.render_mode = render_mode
        self._seeds = random.Random()
        self.game: Any = self._deal(random.Random(0))
        assert game.action_space is not None
        space = game.action_space(self.game)
        self.space = space
        names = tuple(f"player_{p}" for p in range(self.game.num_players))
        self._names = names
        self.possible_agents = list(names)
        self.agents = list(names)
        size, count, high = space.observation_size, space.num_actions, game.observation_high
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

    # -- what the descriptor says -----------------------------------------------------------

    def _deal(self, rng: random.Random) -> Any:
        """A new game dealt from ``rng``, once any chance ply is played."""
        deal = self.descriptor.deal
        assert deal is not None
        return self._settle(deal(rng, self.record_rules))

    def _settle(self, state: Any) -> Any:
        """``state`` once every chance ply (drawn from the environment's
        generator) is played: no agent is asked to play chance."""
        chance = self.descriptor.chance
        if chance is None:
            return state
        while (move := chance(state, self._seeds)) is not None:
            state = state.play(move)
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
