"""Schotten Totten 2, declared once for the whole library (see :mod:`referee.games`).

>>> from referee.games import find_game
>>> find_game("schotten-totten-2") is GAME
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.games import GameDescriptor, lazy
from referee.schotten_totten_2.actions import action_space
from referee.schotten_totten_2.determinize import determinize
from referee.schotten_totten_2.moves import Shuffle
from referee.schotten_totten_2.record import _VARIANTS, FORMAT
from referee.schotten_totten_2.state import Rules, State, new_game
from referee.schotten_totten_2.wall import SIEGE_CARDS

__all__ = ["GAME"]


def _deal(rng: random.Random, rules: Mapping[str, Any]) -> State:
    """A game dealt from ``rng`` under the record rules ``rules``, the attacker
    drawn at random."""
    return new_game(
        seed=rng.getrandbits(32), attacker=rng.randrange(2), rules=FORMAT.rules_of(rules)
    )


def _chance(state: State, rng: random.Random) -> Shuffle | None:
    """Where support's two cards land in the deck, drawn uniformly from ``rng``
    (as :meth:`State.chance_outcomes` says); ``None`` when a player decides.

    Not the shuffle the state's own deal would play: a game started from a
    record has ``chance_seed`` 0, so its dealt places would be known to every
    player; whoever runs the game draws them.
    """
    if not state.is_chance_node():
        return None
    size = state.deck_size + 2
    first, second = rng.sample(range(1, size + 1), 2)
    return Shuffle((first, second))


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
    chance=_chance,
    action_space=action_space,
    observation_high=len(SIEGE_CARDS.cards),
    determinize=determinize,
    deals=lazy("referee.schotten_totten_2.deals"),
    picture=lazy("referee.schotten_totten_2.picture:draw"),
    playout=lazy("referee.schotten_totten_2.playout:playout", optional=True),
    arena=lazy("referee.schotten_totten_2._arena:SchottenTotten2Arena"),
    commentary=lazy("referee.schotten_totten_2._commentary:COMMENTARY"),
)
