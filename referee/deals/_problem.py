"""The types of a deal question: the events a record shows, the problem, the answer.

>>> DealProblem({"deck": ("A", "B")}, (Draw(0, 0, "deck"), Spend(1, 0, "A"))).players
2
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = [
    "MAX_CASES",
    "DealAnswer",
    "DealProblem",
    "DealProblemError",
    "DealSearchLimitError",
    "Draw",
    "Event",
    "Insert",
    "Lacks",
    "PutBack",
    "Receive",
    "Spend",
]

#: The most combinations of hidden choices :func:`solve` tries for one pile: what
#: each hidden put-back put back (one card per group of cards no later event can
#: tell apart), which stretch between put-back cards each unrecorded insert joins,
#: and which copy of a card both dealt and shuffled in each later move used.
MAX_CASES = 256


class DealProblemError(ValueError):
    """A malformed :class:`DealProblem`; the message quotes the bad input.

    >>> solve(DealProblem({"deck": ("A",)}, (Draw(0, -1, "deck"),)))
    Traceback (most recent call last):
    ...
    referee.deals.DealProblemError: event 0 Draw(ply=0, player=-1, pile='deck'): player -1 is not one of the 2 players (0-1)
    """


class DealSearchLimitError(ValueError):
    """A problem with more than :data:`MAX_CASES` combinations of hidden choices
    in one pile, refused before any is tried; the message says how many hidden
    put-backs and unrecorded inserts it has."""


# Tracebacks and doctests name the public home of the errors.
DealProblemError.__module__ = "referee.deals"
DealSearchLimitError.__module__ = "referee.deals"


@dataclass(frozen=True)
class Draw:
    """``player`` takes the top card of ``pile``."""

    ply: int
    player: int
    pile: str


@dataclass(frozen=True)
class Spend:
    """The named ``card`` leaves ``player``'s hand (played or given away)."""

    ply: int
    player: int
    card: str


@dataclass(frozen=True)
class PutBack:
    """``player`` puts ``card`` (``None``: a hidden card of ``pile``) under ``pile``;
    a hidden card is none of ``excluded`` (cards the rules forbid to put back)."""

    ply: int
    player: int
    pile: str
    card: str | None = None
    excluded: tuple[str, ...] = ()


@dataclass(frozen=True)
class Receive:
    """The named ``card`` enters ``player``'s hand (it was seen leaving elsewhere)."""

    ply: int
    player: int
    card: str


@dataclass(frozen=True)
class Insert:
    """Named ``cards`` go into ``pile`` at ``positions`` (1 = top), in that order;
    ``None``: the places are not recorded."""

    ply: int
    pile: str
    cards: tuple[str, ...]
    positions: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Lacks:
    """``player``'s hand holds none of ``cards`` now (say, it passed, so it holds
    no card it could have played); ``doing`` names the move, for messages."""

    ply: int
    player: int
    cards: frozenset[str]
    doing: str = "passes"


#: Any visible event.
Event = Draw | Spend | PutBack | Receive | Insert | Lacks


@dataclass(frozen=True)
class DealProblem:
    """The piles as dealt (each a multiset of card names; its order is the unknown)
    and the visible events in record order."""

    piles: Mapping[str, tuple[str, ...]]
    events: tuple[Event, ...]
    players: int = 2


@dataclass(frozen=True)
class DealAnswer:
    """Whether a deal fits, and if so one that does.

    ``ply`` is the first ply that no deal fits (``None`` when one fits all),
    with a stable ``reason`` code (``card_never_held``: that card cannot be in
    that hand then, whatever the deal; ``no_consistent_deal``: each card could
    be, but not all of them at once) and a ``message`` for people. ``deal``
    gives each pile's order, top first; ``hidden`` the card chosen for each
    hidden :class:`PutBack` and ``positions`` the places chosen for each
    :class:`Insert` without recorded places (both by event index).
    """

    fits: bool
    ply: int | None = None
    reason: str | None = None
    message: str | None = None
    deal: dict[str, tuple[str, ...]] | None = None
    hidden: dict[int, str] = field(default_factory=dict)
    positions: dict[int, tuple[int, ...]] = field(default_factory=dict)
