"""The random reference bot: a legal move chosen uniformly, from the given ``rng``.

>>> import random
>>> from referee import schotten_totten as st
>>> view = st.new_game(seed=1).view(0)
>>> move = choose(view, random.Random(5), None)
>>> move in view.legal_moves(), move == choose(view, random.Random(5), None)
(True, True)
"""

from __future__ import annotations

import random
from typing import Any

from referee.bots._adapter import check_time_left, legal_moves_of, turn_bot

__all__ = ["bot", "choose"]


def choose(view: Any, rng: random.Random, time_left: float | None = None) -> Any:
    """A legal move of ``view``'s player, each with the same chance (``rng.choice``)."""
    check_time_left(time_left)
    moves = legal_moves_of(view, rng)
    return rng.choice(moves)


#: :func:`choose` in the arena's form (``bot(turn) -> move``), named ``random``.
bot = turn_bot(choose, "random")
