"""The PettingZoo environment of any game, built from its descriptor (knows no game).

A game's descriptor (:mod:`referee.games`) says how to deal a game from a
random generator (``deal``), which action space numbers its moves
(``action_space``), how high an observation's entries go
(``observation_high``) and, if it has any, how a chance ply is played
(``chance``); :class:`GameEnv` does the rest: agents ``player_0`` ..
``player_{N-1}``, observations as NumPy arrays with their action mask, the
full observer's :meth:`~GameEnv.state`, turns as the state's ``to_move``
says, rewards at the end from the action space, truncation at a ply limit,
renders of one player's view, and the usual wrappers (:func:`wrapped`).
:func:`game_env` makes one for any game by name.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from referee.actions import action_index
from referee.game import Termination
from referee.games import GameDescriptor, find_game

__all__ = ["MASK_PLACES", "RENDER_MODES", "GameEnv", "MaskPlace", "game_env", "wrapped"]

#: Where an environment puts each agent's action mask: in its observation
#: (``{"observation": ..., "action_mask": ...}``, as PettingZoo's classic
#: environments do) or in its ``info`` (the observation is then the bare array).
MaskPlace = Literal["observation", "info"]
MASK_PLACES: tuple[MaskPlace, ...] = ("observation", "info")
#: The render modes: both show one player's view, never more.
RENDER_MODES = ("human", "ansi")


def wrapped(raw: AECEnv) -> AECEnv:
    """``raw`` with PettingZoo's usual safety wrappers (as ``chess_v6``): an
    illegal id ends the game with -1 for its player."""
    env: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    env = wrappers.OrderEnforcingWrapper(env)
    return env


def game_env(
    name: str,
    *,
    rules: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    max_plies: int | None = None,
    action_mask_in: MaskPlace = "observation",
    viewer: str | None = None,
) -> AECEnv:
    """The wrapped environment of the game ``name`` under the record rules
    ``rules``; the other arguments are :class:`GameEnv`'s.

    >>> env = game_env("clans-and-glory", rules={"players": 3})
    >>> env.reset(seed=1)
    >>> env.agents, env.metadata["name"]
    (['player_0', 'player_1', 'player_2'], 'clans_and_glory_v0')
    """
    return wrapped(
        GameEnv(
            find_game(name),
            rules,
            render_mode,
            max_plies=max_plies,
            action_mask_in=action_mask_in,
            viewer=viewer,
        )
    )


def _checked_options(
    names: tuple[str, ...],
    render_mode: object,
    max_plies: object,
    action_mask_in: object,
    viewer: object,
) -> None:
    """Refuse an environment's options (``ValueError`` quoting the bad one)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"no render mode {render_mode!r}: 'human', 'ansi' or None")
    if max_plies is not None and (
        isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1
    ):
        raise ValueError(f"max_plies is a whole number from 1 up (or None), not {max_plies!r}")
    if action_mask_in not in MASK_PLACES:
        raise ValueError(f"action_mask_in is 'observation' or 'info', not {action_mask_in!r}")
    if viewer is not None and viewer not in names:
        raise ValueError(f"no agent {viewer!r} to view the game: {', '.join(names)} or None")


class GameEnv(AECEnv):
    """An AEC environment over one game; :attr:`game` is its current state.

    ``rules`` is a record's ``rules`` object (``{}``: the game's default rules);
    the game's descriptor must have ``deal`` and ``action_space``.

    - ``action_mask_in="observation"`` (the default, as PettingZoo's classic
      environments): an observation is ``{"observation": array, "action_mask":
      array}``; with ``"info"``, it is the bare array and the mask is
      ``infos[agent]["action_mask"]``.
    - ``max_plies``: once that many plies are played (chance plies and forced
      ones included, as the arena's ``--max-plies`` counts them) and the game
      is not over, it ends without a winner (its outcome is ``ply_limit``):
      every agent is truncated, with reward 0.
    - ``render_mode`` ``"ansi"`` returns, ``"human"`` prints (after each step),
      the game as ``viewer`` sees it; with no ``viewer``, as the agent to act
      (:attr:`agent_selection`) sees it.
    """

    #: PettingZoo's metadata; each environment's ``name`` is its game's ``env_name``.
    #: Not parallelizable by ``aec_to_parallel``: agents act one at a time, some of
    #: them several times in a row; :mod:`referee.env` has its own parallel form.
    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's class attribute)
        "render_modes": list(RENDER_MODES),
        "name": "",
        "is_parallelizable": False,
        "render_fps": 1,
    }

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
        super().__init__()
        missing = [part for part in ("deal", "action_space") if getattr(game, part) is None]
        if missing:
            raise ValueError(f"{game.title} has no {' nor '.join(missing)}: no environment")
        self.descriptor = game
        self.record_rules: dict[str, Any] = dict(rules or {})
        self.metadata = {**type(self).metadata, "name": game.env_name}
        self._seeds = random.Random()
        self.game: Any = self._deal(random.Random(0))
        names = tuple(f"player_{p}" for p in range(self.game.num_players))
        _checked_options(names, render_mode, max_plies, action_mask_in, viewer)
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.action_mask_in: MaskPlace = action_mask_in
        self.viewer = viewer
        assert game.action_space is not None
        self.space = space = game.action_space(self.game)
        self._names = names
        self.possible_agents = list(names)
        self.agents = list(names)
        high = game.observation_high
        self._dtype = np.int8 if high <= 127 else np.int32
        size, count = space.observation_size, space.num_actions
        self._zeros_mask = np.zeros(count, dtype=np.int8)
        self._plies = 0
        self._truncated = False

        # each agent's own space objects (PettingZoo seeds them one by one)
        self._boxes = {
            agent: spaces.Box(0, high, shape=(size,), dtype=self._dtype) for agent in names
        }
        if action_mask_in == "observation":
            self.observation_spaces: dict[str, spaces.Space[Any]] = {
                agent: spaces.Dict(
                    {
                        "observation": self._boxes[agent],
                        "action_mask": spaces.Box(0, 1, shape=(count,), dtype=np.int8),
                    }
                )
                for agent in names
            }
        else:
            self.observation_spaces = dict(self._boxes)
        self.action_spaces = {agent: spaces.Discrete(count) for agent in names}
        #: The full observer's state (:meth:`state`): every player's observation, in seat order.
        self.state_space = spaces.Box(0, high, shape=(len(names) * size,), dtype=self._dtype)

    # -- what the descriptor says -----------------------------------------------------------

    def _deal(self, rng: random.Random) -> Any:
        """A new game dealt from ``rng`` (its chance plies not played yet)."""
        deal = self.descriptor.deal
        assert deal is not None
        return deal(rng, self.record_rules)

    def _go_on(self, state: Any) -> None:
        """Make ``state`` the game, once every chance ply (drawn from the
        environment's generator) is played: no agent is asked to play chance.
        Each ply is counted; at ``max_plies`` a game not over ends there, as the
        arena ends it (checked before every ply, chance or not)."""
        chance, limit = self.descriptor.chance, self.max_plies
        while not state.is_game_over():
            if limit is not None and self._plies >= limit:
                state = state.end(Termination.PLY_LIMIT)
                self._truncated = True
                break
            move = None if chance is None else chance(state, self._seeds)
            if move is None:
                break
            state = state.play(move)
            self._plies += 1
        self.game = state

    # -- arrays --------------------------------------------------------------------------

    def _observation(self, player: int) -> np.ndarray:
        """``player``'s observation as an array (a fresh, writable one)."""
        seen = self.space.observation(self.game, player)
        if self._dtype is np.int8:  # entries 0-127: through bytes, 5x quicker than np.array
            return np.frombuffer(bytearray(seen), dtype=np.int8)
        return np.array(seen, dtype=self._dtype)

    def _mask(self, player: int) -> np.ndarray:
        """``player``'s action mask (all 0 unless it is to move in a game not over)."""
        state = self.game
        if state.to_move != player or state.is_game_over():
            return self._zeros_mask.copy()
        return np.frombuffer(bytearray(self.space.legal_action_mask(state)), dtype=np.int8)

    def _set_infos(self) -> None:
        names = self._names
        if self.action_mask_in == "info":
            self.infos = {agent: {"action_mask": self._mask(p)} for p, agent in enumerate(names)}
        else:
            self.infos = {agent: {} for agent in names}

    # -- PettingZoo's interface ------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Any:
        """What ``agent`` sees (its view of the game, nothing more), as
        :meth:`observation_space` says."""
        player = self._names.index(agent)
        seen = self._observation(player)
        if self.action_mask_in == "info":
            return seen
        return {"observation": seen, "action_mask": self._mask(player)}

    def state(self) -> np.ndarray:
        """The full observer's state: every player's observation, in seat order
        (so every hand, and whatever any player sees; not the piles' order, the
        chance to come, or a card no player has seen), in :attr:`state_space`."""
        return np.concatenate([self._observation(p) for p in range(len(self._names))])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self._plies = 0
        self._truncated = False
        self._go_on(self._deal(self._seeds))
        names = self._names
        self.agents = list(names)
        self.rewards = dict.fromkeys(names, 0.0)
        self._cumulative_rewards = dict.fromkeys(names, 0.0)
        self.terminations = dict.fromkeys(names, False)
        self.truncations = dict.fromkeys(names, False)
        self.agent_selection = names[self.game.to_move]
        self._set_infos()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        moved = self.space.play(self.game, action_index(action, self.space.num_actions))
        self._plies += 1
        self._go_on(moved)
        names = self._names
        self.rewards = dict.fromkeys(names, 0.0)
        if self._truncated:
            self.truncations = dict.fromkeys(names, True)
        elif self.game.is_game_over():
            self.terminations = dict.fromkeys(names, True)
            self.rewards = dict(zip(names, self.space.rewards(self.game), strict=True))
        else:
            self.agent_selection = names[self.game.to_move]
        self._set_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game as :attr:`viewer` (or the agent to act) sees it: its view's
        text, returned (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            return None
        viewer = self.viewer or self.agent_selection
        text = self.descriptor.text(self.game.view(self._names.index(viewer)))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass
