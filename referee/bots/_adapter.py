"""What every reference bot shares: the ``choose`` signature and the arena's form.

A reference bot is a function ``choose(view, rng, time_left) -> move``: it gets
the game's own view object of the player to move (never more than that player
may see), a :class:`random.Random` for its random choices, and the seconds left
on its game clock (``None``: no game limit). :func:`turn_bot` wraps such a
function into the form :func:`referee.arena.play_match` plays in-process, a
callable of one :class:`~referee.arena.Turn`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.game import check_rng

if TYPE_CHECKING:
    from referee.arena import Turn

__all__ = ["Choose", "TurnBot", "check_time_left", "legal_moves_of", "turn_bot"]

#: ``choose(view, rng, time_left) -> move``: a bot as a function of what its seat sees.
Choose = Callable[[Any, random.Random, float | None], Any]
#: ``bot(turn) -> move``: a bot as :func:`referee.arena.play_match` plays it in-process.
TurnBot = Callable[["Turn"], Any]


def turn_bot(choose: Choose, name: str | None = None) -> TurnBot:
    """The in-process arena form of ``choose``: a callable of one
    :class:`~referee.arena.Turn` that asks ``choose(turn.view, turn.rng,
    turn.time_left)``; it reads nothing else of the turn (never the referee's
    full state). ``name`` is how results and records name it (default: the
    function's ``__name__``).

    >>> from referee.arena import play_game
    >>> first = turn_bot(lambda view, rng, time_left: view.legal_moves()[0], "first")
    >>> first.__name__, play_game([first, first], "schotten-totten", seed=1).plies > 0
    ('first', True)
    """
    if not callable(choose):
        raise TypeError(f"turn_bot takes a function choose(view, rng, time_left), not {choose!r}")

    def bot(turn: Turn) -> Any:
        return choose(turn.view, turn.rng, turn.time_left)

    bot.__name__ = bot.__qualname__ = name or getattr(choose, "__name__", None) or "bot"
    bot.__doc__ = f"{bot.__name__} in the arena's form: bot(turn) -> move."
    return bot


def legal_moves_of(view: Any, rng: object) -> list[Any]:
    """The moves ``view``'s player may make, as a list; ``ValueError`` when
    there is none (the game is over), ``TypeError`` for ``rng`` that is not a
    :class:`random.Random`.

    >>> from referee import schotten_totten as st
    >>> len(legal_moves_of(st.new_game(seed=1).view(0), random.Random(0)))
    54
    """
    check_rng(rng)
    legal = getattr(view, "legal_moves", None)
    if not callable(legal):
        raise TypeError(f"a bot takes a game's view (state.view(player)), not {view!r:.80}")
    moves = list(legal())
    if not moves:
        raise ValueError(f"no legal move to choose from: the game is over ({view.outcome!r})")
    return moves


def check_time_left(time_left: object) -> float | None:
    """``time_left`` as seconds (``None`` stays ``None``: no game limit), else a
    ``ValueError`` that quotes it.

    >>> check_time_left(None), check_time_left(3)
    (None, 3.0)
    >>> check_time_left("soon")
    Traceback (most recent call last):
    ...
    ValueError: time_left must be a number of seconds or None, not 'soon'
    """
    if time_left is None:
        return None
    if isinstance(time_left, bool) or not isinstance(time_left, (int, float)):
        raise ValueError(f"time_left must be a number of seconds or None, not {time_left!r}")
    if math.isnan(time_left) or time_left < 0:
        raise ValueError(f"time_left must be a number of seconds or None, not {time_left!r}")
    return float(time_left)
