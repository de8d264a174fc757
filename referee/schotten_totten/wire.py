"""Schotten Totten views from the arena's messages (the descriptor's ``from_message``).

A bot program's reader replays the moves it was shown on the public start of
the game and puts its own hand in (see :class:`referee.arena.ReplayReader`):
the view is the one an in-process bot gets, history included. The recruiter's
cards put back under the piles are shown to their player alone.

>>> from referee.arena import view_reader
>>> reader = view_reader({"type": "game", "game": "schotten-totten", "rules": {},
...                       "seat": 1, "players": 2, "first": 0})
>>> turn = {"type": "turn", "ply": 3, "seat": 1, "seen": [
...     {"ply": 1, "seat": 0, "move": "R7@3"}, {"ply": 2, "seat": 0, "move": "draw"}],
...     "view": {"to_move": 1, "hand": ["B1", "B2", "B3", "G4", "O5", "Y6"]}}
>>> view = reader.view(turn)
>>> [str(c) for c in view.hands[1]], view.hands[0], [str(m) for m in view.history]
(['B1', 'B2', 'B3', 'G4', 'O5', 'Y6'], None, ['R7@3', 'draw'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.arena import ReplayReader
from referee.schotten_totten._game import GAME
from referee.schotten_totten.tactics import parse_card

__all__ = ["from_message"]


def from_message(message: Mapping[str, Any]) -> ReplayReader:
    """The reader of the Schotten Totten game the ``game`` ``message`` starts."""
    return ReplayReader(GAME, message, parse_card)
