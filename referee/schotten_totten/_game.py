"""Schotten Totten, declared once for the whole library (see :mod:`referee.games`).

>>> from referee.games import find_game
>>> find_game("schotten-totten") is GAME
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.games import GameDescriptor, lazy
from referee.schotten_totten.actions import action_space
from referee.schotten_totten.cards import CLAN_CARDS
from referee.schotten_totten.determinize import determinize
from referee.schotten_totten.record import _VARIANTS, FORMAT
from referee.schotten_totten.start import new_game
from referee.schotten_totten.state import Rules, State

__all__ = ["GAME"]


def _deal(rng: random.Random, rules: Mapping[str, Any]) -> State:
    """A game dealt from ``rng`` under the record rules ``rules`` (player 0 starts)."""
    return new_game(seed=rng.getrandbits(32), rules=FORMAT.rules_of(rules))


GAME: GameDescriptor[State] = GameDescriptor(
    name=FORMAT.name,
    title=FORMAT.title,
    format=FORMAT,
    state_type=State,
    rules_type=Rules,
    new_game=new_game,
    players=(2, 2),
    variants=tuple(sorted(_VARIANTS)),
    deal=_deal,
    action_space=action_space,
    observation_high=len(CLAN_CARDS.cards),
    determinize=determinize,
    deals=lazy("referee.schotten_totten.deals"),
    picture=lazy("referee.schotten_totten.picture:draw"),
    playout=lazy("referee.schotten_totten.playout:playout"),
    arena=lazy("referee.schotten_totten._arena:SchottenTottenArena"),
    from_message=lazy("referee.schotten_totten.wire:from_message"),
    commentary=lazy("referee.schotten_totten._commentary:COMMENTARY"),
)
