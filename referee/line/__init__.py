"""The shared kernel of games on a line of contested places: the stones of
Schotten Totten, the wall tiles of Schotten Totten 2.

It knows no game. Each game keeps only its own rules and builds on:

* :mod:`referee.line.state`: one state representation (a frozen, slotted
  dataclass copied by a generated :func:`~referee.line.state.copier`), the
  shared base of the states (:class:`~referee.line.state.LineState`), small
  tuple updates, bounded memos, refusals with evidence;
* :mod:`referee.line.claims`: proofs through the prover, a position's pool;
* :mod:`referee.line.records`, :mod:`referee.line.deals`,
  :mod:`referee.line.picture`: the shared parts of records, deal questions
  and pictures.
"""

from __future__ import annotations

from referee.line.state import (
    MEMO_LIMIT,
    LineState,
    check_viewer,
    copier,
    illegal,
    not_your_turn,
    place_at,
    remember,
    replaced,
)

__all__ = [
    "MEMO_LIMIT",
    "LineState",
    "check_viewer",
    "copier",
    "illegal",
    "not_your_turn",
    "place_at",
    "remember",
    "replaced",
]
