"""What every game's ``playout`` shares: policies and their choices, the
default uniform choice, the end by the ply limit and the winning patterns of a
row of places.

A playout runs a game to its end on the game's integer core, without move
objects and without history, and returns its :class:`~referee.game.Outcome`.
Every decision is among **action ids** (those of the game's
``actions.action_space``): a :data:`Policy` gets the core, the legal ids in
increasing order and the random generator, and returns one of them.

>>> import random
>>> choose((3, 5, 8), random.Random(1), None, None)
3
>>> choose((3, 5, 8), random.Random(1), None, lambda core, legal, rng: legal[-1])
8
>>> choose((3, 5, 8), random.Random(1), None, lambda core, legal, rng: 4)
Traceback (most recent call last):
...
ValueError: the policy chose action 4, which is not legal here (legal: 3, 5, 8)
>>> winner_pattern(0b000011100, adjacent=3, total=5), winner_pattern(0b101010101, 3, 5)
(<Termination.THREE_ADJACENT: 'three_adjacent'>, <Termination.FIVE_STONES: 'five_stones'>)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from referee.game import Outcome, Termination

__all__ = ["Policy", "choose", "ply_limit", "winner_pattern"]

#: A policy: ``policy(core, legal, rng)`` returns one of the ``legal`` action
#: ids (increasing); ``core`` is the game's playout core, read-only.
Policy = Callable[[Any, Sequence[int], random.Random], int]


def choose(legal: Sequence[int], rng: random.Random, core: object, policy: Policy | None) -> int:
    """The action ``policy`` picks among ``legal`` (by default one uniformly at
    random: ``legal[int(rng.random() * len(legal))]``; a single legal action
    is taken without drawing). Raises ``ValueError`` if the policy's pick is
    not legal."""
    if policy is None:
        if len(legal) == 1:
            return legal[0]
        return legal[int(rng.random() * len(legal))]
    action = policy(core, legal, rng)
    if action not in legal:
        shown = ", ".join(map(str, legal[:20])) + (", ..." if len(legal) > 20 else "")
        raise ValueError(
            f"the policy chose action {action!r}, which is not legal here (legal: {shown})"
        )
    return action


def ply_limit() -> Outcome:
    """The outcome of a playout cut short by its ``max_plies``: no winner."""
    return Outcome(Termination.PLY_LIMIT, None)


def winner_pattern(owned: int, adjacent: int, total: int) -> Termination | None:
    """How a player holding the places of mask ``owned`` (bit ``i``: place
    ``i + 1``) has won: ``adjacent`` neighbouring places (``three_adjacent``)
    or ``total`` places anywhere (``five_stones``), else ``None``."""
    run = owned
    for _ in range(adjacent - 1):
        run &= run >> 1
    if run:
        return Termination.THREE_ADJACENT
    if owned.bit_count() >= total:
        return Termination.FIVE_STONES
    return None
