"""Positions for tests: a dealt game played on at random for some plies.

>>> from referee.schotten_totten import new_game
>>> random_plies(new_game(seed=1), 3, random.Random(1)).ply
3
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


def random_plies(
    state: Any,
    plies: int,
    rng: random.Random,
    chance: Callable[[Any, random.Random], Any] | None = None,
) -> Any:
    """``state`` after ``plies`` uniformly random legal moves (or at its end);
    ``chance(state, rng)``, when given, plays a chance ply when it returns one
    (a descriptor's ``chance``)."""
    for _ in range(plies):
        if state.is_game_over():
            break
        drawn = chance(state, rng) if chance is not None else None
        state = state.play(drawn if drawn is not None else rng.choice(state.legal_moves()))
    return state
