"""Clans and Glory, declared once for the whole library (see :mod:`referee.games`).

>>> from referee.games import find_game
>>> find_game("clans-and-glory") is GAME
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.clans_and_glory.actions import ACTIONS, action_space
from referee.clans_and_glory.dealing import new_game
from referee.clans_and_glory.determinize import determinize
from referee.clans_and_glory.record import FORMAT
from referee.clans_and_glory.setup import SETUPS
from referee.clans_and_glory.state import State
from referee.games import GameDescriptor, lazy

__all__ = ["GAME"]


def _deal(rng: random.Random, rules: Mapping[str, Any]) -> State:
    """A game dealt from ``rng`` for the record rules' number of ``players`` (2 by default)."""
    return new_game(players=FORMAT.players_of(rules), seed=rng.getrandbits(32))


GAME: GameDescriptor[State] = GameDescriptor(
    name=FORMAT.name,
    title=FORMAT.title,
    format=FORMAT,
    state_type=State,
    view_type=State,  # a view is a State with the hidden parts None
    new_game=new_game,
    players=(min(SETUPS), max(SETUPS)),
    deal=_deal,
    action_space=action_space,
    # the largest over the player counts (a hand size or a shield count)
    observation_high=max(space.observation_high for space in ACTIONS.values()),
    determinize=determinize,
    picture=lazy("referee.clans_and_glory.picture:draw"),
    playout=lazy("referee.clans_and_glory.playout:playout"),
    arena=lazy("referee.clans_and_glory._arena:ClansAndGloryArena"),
    commentary=lazy("referee.clans_and_glory._commentary:COMMENTARY"),
)
