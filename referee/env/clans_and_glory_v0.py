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

from pettingzoo import AECEnv

from referee.clans_and_glory import State
from referee.clans_and_glory._game import GAME
from referee.clans_and_glory.actions import ACTIONS
from referee.env._aec import GameEnv, MaskPlace, wrapped
from referee.env._parallel import GameParallelEnv

__all__ = ["ACTIONS", "env", "parallel_env", "raw_env"]


def env(
    *,
    players: int = 2,
    render_mode: str | None = None,
    max_plies: int | None = None,
    action_mask_in: MaskPlace = "observation",
    viewer: str | None = None,
) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers (as ``chess_v6``);
    the arguments are :class:`raw_env`'s."""
    return wrapped(
        raw_env(
            players=players,
            render_mode=render_mode,
            max_plies=max_plies,
            action_mask_in=action_mask_in,
            viewer=viewer,
        )
    )


def parallel_env(
    *,
    players: int = 2,
    render_mode: str | None = None,
    max_plies: int | None = None,
    action_mask_in: MaskPlace = "observation",
    viewer: str | None = None,
) -> GameParallelEnv:
    """The parallel form: one move per step, the agents not to move playing the
    no-op ``wait_action`` (see :class:`referee.env.GameParallelEnv`)."""
    return GameParallelEnv(
        GAME,
        {"players": players},
        render_mode,
        max_plies=max_plies,
        action_mask_in=action_mask_in,
        viewer=viewer,
    )


class raw_env(GameEnv):  # PettingZoo's name for the unwrapped class
    """The unwrapped environment; :attr:`game` is the game's current state.
    ``max_plies``, ``action_mask_in`` and ``viewer`` are :class:`referee.env.GameEnv`'s."""

    metadata = {**GameEnv.metadata, "name": GAME.env_name}  # noqa: RUF012

    def __init__(
        self,
        *,
        players: int = 2,
        render_mode: str | None = None,
        max_plies: int | None = None,
        action_mask_in: MaskPlace = "observation",
        viewer: str | None = None,
    ) -> None:
        super().__init__(
            GAME,
            {"players": players},
            render_mode,
            max_plies=max_plies,
            action_mask_in=action_mask_in,
            viewer=viewer,
        )
        self.players: int = self.game.num_players
        self.game: State
