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

from pettingzoo import AECEnv

from referee.env._aec import GameEnv, MaskPlace, wrapped
from referee.env._parallel import GameParallelEnv
from referee.schotten_totten_2 import Rules, State
from referee.schotten_totten_2._game import GAME
from referee.schotten_totten_2.actions import ACTIONS
from referee.schotten_totten_2.record import FORMAT

__all__ = ["ACTIONS", "env", "parallel_env", "raw_env"]


def env(
    *,
    rules: Rules | None = None,
    render_mode: str | None = None,
    max_plies: int | None = None,
    action_mask_in: MaskPlace = "observation",
    viewer: str | None = None,
) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers (as ``chess_v6``);
    the arguments are :class:`raw_env`'s."""
    return wrapped(
        raw_env(
            rules=rules,
            render_mode=render_mode,
            max_plies=max_plies,
            action_mask_in=action_mask_in,
            viewer=viewer,
        )
    )


def parallel_env(
    *,
    rules: Rules | None = None,
    render_mode: str | None = None,
    max_plies: int | None = None,
    action_mask_in: MaskPlace = "observation",
    viewer: str | None = None,
) -> GameParallelEnv:
    """The parallel form: one ply per step, the agents not to move playing the
    no-op ``wait_action`` (see :class:`referee.env.GameParallelEnv`)."""
    return GameParallelEnv(
        GAME,
        FORMAT.rules_json(rules or Rules()),
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
        rules: Rules | None = None,
        render_mode: str | None = None,
        max_plies: int | None = None,
        action_mask_in: MaskPlace = "observation",
        viewer: str | None = None,
    ) -> None:
        self.rules = rules or Rules()
        super().__init__(
            GAME,
            FORMAT.rules_json(self.rules),
            render_mode,
            max_plies=max_plies,
            action_mask_in=action_mask_in,
            viewer=viewer,
        )
        self.game: State
