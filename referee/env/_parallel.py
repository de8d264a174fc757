"""The parallel form of any game's environment: every agent acts at every step.

The games are turn-based, so PettingZoo's ``aec_to_parallel`` (which steps each
agent once per cycle) does not fit them: one agent may play several plies in a
row. :class:`GameParallelEnv` plays one ply per step instead. At each step every
live agent gives an action: the agent to move one of the game's ids, every
other agent the no-op :attr:`~GameParallelEnv.wait_action` (the id after the
game's last, the only one its mask allows). An action its mask does not allow
ends the game with -1 for each agent that gave one (0 for the others), as the
AEC environment's ``TerminateIllegalWrapper`` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from referee.actions import action_index
from referee.env._aec import MASK_PLACES, GameEnv, MaskPlace
from referee.games import GameDescriptor, find_game

__all__ = ["GameParallelEnv", "game_parallel_env"]


def game_parallel_env(
    name: str,
    *,
    rules: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    max_plies: int | None = None,
    action_mask_in: MaskPlace = "observation",
    viewer: str | None = None,
) -> GameParallelEnv:
    """The parallel environment of the game ``name`` under the record rules ``rules``.

    >>> env = game_parallel_env("schotten-totten", max_plies=50)
    >>> observations, infos = env.reset(seed=1)
    >>> mover = env.agent_to_move
    >>> actions = {agent: env.wait_action for agent in env.agents}
    >>> actions[mover] = int(observations[mover]["action_mask"].argmax())
    >>> observations, rewards, terminations, truncations, infos = env.step(actions)
    >>> env.game.ply, rewards
    (1, {'player_0': 0.0, 'player_1': 0.0})
    """
    return GameParallelEnv(
        find_game(name),
        rules,
        render_mode,
        max_plies=max_plies,
        action_mask_in=action_mask_in,
        viewer=viewer,
    )


class GameParallelEnv(ParallelEnv):
    """A parallel environment over one game: one ply per step, every live
    agent acting (see the module's docstring). The arguments are
    :class:`~referee.env.GameEnv`'s; :attr:`game` is the current state.

    Observations are the AEC environment's with a mask one longer (the no-op
    last); the state, rewards, truncation at ``max_plies`` and renders are the
    AEC environment's.
    """

    metadata: dict[str, Any] = GameEnv.metadata

    def __init__(
        self,
        game: GameDescriptor[Any],
        rules: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        max_plies: int | None = None,
        action_mask_in: MaskPlace = "observation",
        viewer: str | None = None,
    ) -> None:
        # The turns are played by an AEC environment (its own masks unused).
        self._turns = turns = GameEnv(game, rules, render_mode, max_plies=max_plies, viewer=viewer)
        if action_mask_in not in MASK_PLACES:
            raise ValueError(f"action_mask_in is 'observation' or 'info', not {action_mask_in!r}")
        self.metadata = turns.metadata
        self.render_mode = render_mode
        self.action_mask_in: MaskPlace = action_mask_in
        self.possible_agents = list(turns.possible_agents)
        self.agents: list[str] = []
        count = turns.space.num_actions
        #: The no-op: what every agent not to move plays (the id after the game's last).
        self.wait_action = count
        self._legal = bytes(count)  # the mover's mask, as last observed

        def mask_space() -> spaces.Box:
            return spaces.Box(0, 1, shape=(count + 1,), dtype=np.int8)

        seen = turns._boxes
        if action_mask_in == "observation":
            self.observation_spaces: dict[str, spaces.Space[Any]] = {
                agent: spaces.Dict({"observation": box, "action_mask": mask_space()})
                for agent, box in seen.items()
            }
        else:
            self.observation_spaces = dict(seen)
        self.action_spaces = {agent: spaces.Discrete(count + 1) for agent in self.possible_agents}
        self.state_space = turns.state_space

    @property
    def game(self) -> Any:
        """The game's current state."""
        return self._turns.game

    @property
    def agent_to_move(self) -> str:
        """The agent whose id is played at the next step."""
        return str(self._turns.agent_selection)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def state(self) -> np.ndarray:
        """The full observer's state (see :meth:`referee.env.GameEnv.state`)."""
        return self._turns.state()

    def _observations(
        self, agents: list[str], over: bool
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Each agent's observation and info; all masks 0 once the game is ``over``."""
        turns = self._turns
        count = self.wait_action
        mover = turns.agent_selection
        if not over:
            self._legal = turns.space.legal_action_mask(turns.game)
        observations: dict[str, Any] = {}
        infos: dict[str, dict[str, Any]] = {}
        for agent in agents:
            mask = np.zeros(count + 1, dtype=np.int8)
            if over:
                pass
            elif agent == mover:
                mask[:count] = np.frombuffer(self._legal, dtype=np.int8)
            else:
                mask[count] = 1
            seen = turns._observation(turns._names.index(agent))
            if self.action_mask_in == "observation":
                observations[agent] = {"observation": seen, "action_mask": mask}
                infos[agent] = {}
            else:
                observations[agent] = seen
                infos[agent] = {"action_mask": mask}
        return observations, infos

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._turns.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return self._observations(self.agents, over=False)

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """One ply: ``actions`` holds an action for every live agent, each one
        its mask allows (else the game ends, -1 to each agent at fault)."""
        agents = self.agents
        if not agents:
            raise ValueError("the game is over: reset() the environment to play again")
        if set(actions) != set(agents):
            missing = sorted(set(agents) - set(actions))
            extra = sorted(set(actions) - set(agents), key=repr)
            raise ValueError(
                f"every live agent acts at each step: missing {missing}, not live {extra}"
            )
        ids = {agent: action_index(actions[agent], self.wait_action + 1) for agent in agents}
        turns = self._turns
        mover = turns.agent_selection
        wait = self.wait_action

        def faulty(agent: str, action: int) -> bool:
            if agent == mover:
                return action == wait or not self._legal[action]
            return action != wait

        at_fault = [agent for agent, action in ids.items() if faulty(agent, action)]
        if at_fault:
            rewards = {agent: -1.0 if agent in at_fault else 0.0 for agent in agents}
            terminations = dict.fromkeys(agents, True)
            truncations = dict.fromkeys(agents, False)
        else:
            turns.step(ids[mover])
            rewards = {agent: float(turns.rewards[agent]) for agent in agents}
            terminations = {agent: bool(turns.terminations[agent]) for agent in agents}
            truncations = {agent: bool(turns.truncations[agent]) for agent in agents}
        over = any(terminations.values()) or any(truncations.values())
        observations, infos = self._observations(agents, over)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The game as the viewer (or the agent to move) sees it (see
        :meth:`referee.env.GameEnv.render`)."""
        return self._turns.render()

    def close(self) -> None:
        self._turns.close()
