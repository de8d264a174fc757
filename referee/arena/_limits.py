"""The arena's limits on the numbers it is given, and the checks that enforce them.

Every number a match takes (from Python or from ``referee match``) is checked
before anything is played, and refused with a ``ValueError`` that quotes it
and names the limit: a time the clocks could not wait for (``inf`` made
``select`` overflow), a worker count or a game count that would exhaust the
machine, a ply limit whose records ``referee validate`` could not read.
"""

from __future__ import annotations

from typing import Any

from referee.records import MAX_MOVES

__all__ = [
    "MAX_GAMES",
    "MAX_JOBS",
    "MAX_PLY_LIMIT",
    "MAX_SECONDS",
    "MAX_SEED",
    "check_count",
    "check_seconds",
    "quoted",
]

#: Longest time limit, per move or per game, and longest start time (seconds):
#: a day. No match needs more, and a clock cannot wait for ``inf``.
MAX_SECONDS = 86_400.0
#: Highest ply limit (``max_plies``): a record holds at most this many moves
#: (``referee.records.MAX_MOVES``), so every record the arena writes can be read.
MAX_PLY_LIMIT = MAX_MOVES
#: Most games in one match (``games``, ``referee match -n``).
MAX_GAMES = 1_000_000
#: Most games played at once (``jobs``): each worker runs its own bot processes
#: (one per bot and seat rotation) and a thread.
MAX_JOBS = 64
#: Highest seed (a match's or a deal's): seeds are whole numbers of 64 bits,
#: like those :func:`~referee.arena.match_seed` draws.
MAX_SEED = 2**64 - 1


def quoted(value: Any) -> str:
    """``repr(value)``, short (a number of thousands of digits has no repr)."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number too long to print"
    return text if len(text) <= 40 else text[:37] + "..."


def check_count(name: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``, else a ``ValueError``.

    >>> check_count("jobs", 4, 1, MAX_JOBS)
    4
    >>> check_count("jobs", 10_000_000, 1, MAX_JOBS)
    Traceback (most recent call last):
    ...
    ValueError: jobs must be from 1 to 64, not 10000000
    >>> check_count("games", 2.0, 0, MAX_GAMES)
    Traceback (most recent call last):
    ...
    ValueError: games must be a whole number (from 0 to 1000000), not 2.0
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(
            f"{name} must be a whole number (from {low} to {high}), not {quoted(value)}"
        )
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}, not {quoted(value)}")
    return value


def check_seconds(name: str, value: Any) -> float:
    """``value`` as seconds if it is a number above 0 and at most :data:`MAX_SECONDS`,
    else a ``ValueError``.

    >>> check_seconds("move_time", 2)
    2.0
    >>> check_seconds("move_time", float("inf"))
    Traceback (most recent call last):
    ...
    ValueError: move_time must be more than 0 and at most 86400 seconds, not inf
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number of seconds, not {quoted(value)}")
    if not 0 < value <= MAX_SECONDS:  # NaN too
        raise ValueError(
            f"{name} must be more than 0 and at most {MAX_SECONDS:g} seconds, not {quoted(value)}"
        )
    return float(value)
