"""How the viewer, the pictures and the analysis speak of Schotten Totten (the
descriptor's ``commentary``, see :class:`referee.games.Commentary`).

>>> from referee.games import find_game
>>> words = find_game("schotten-totten").commentary
>>> words.move_words("claim 4", "Irina"), words.match_name({"edition": "1999", "rounds": 3})
('Irina claims stone 4', '1999 match')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee._words import line_move_words
from referee.games import Commentary

__all__ = ["COMMENTARY", "SchottenTottenCommentary"]


class SchottenTottenCommentary(Commentary):
    """Stones, claims, Clanfehde matches scored game by game."""

    claim_move = "claim {}"
    running_score = True
    faces = True

    def move_words(self, move: str, who: str) -> str:
        return f"{who} {line_move_words(move, 'stone')}"

    def match_name(self, rules: Mapping[str, Any]) -> str:
        return "1999 match" if rules.get("edition") == "1999" else "Clanfehde"

    def owners(self, state: Any) -> dict[int, int]:
        return {n: s.owner for n, s in enumerate(state.stones, start=1) if s.owner is not None}

    def wins(self, state: Any, places: set[int]) -> bool:
        """Three adjacent stones, or five."""
        held = [n in places for n in range(1, len(state.stones) + 1)]
        adjacent = any(all(held[i : i + 3]) for i in range(len(held) - 2))
        return adjacent or sum(held) >= 5

    def score_lines(self, state: Any, proven: Callable[[int], int]) -> list[str]:
        out = []
        for p in range(2):
            held = sum(1 for s in state.stones if s.owner == p)
            more = proven(p) - held
            line = f"{held} stone{'s' if held != 1 else ''} held"
            if more > 0:
                line += f", {more} more proven"
            line += f" · {state.hand_sizes[p]} in hand"
            out.append(line)
        return out

    def graph(self, states: Sequence[Any], proven: Callable[[int, int], int]) -> dict[str, Any]:
        series = [[proven(k, p) for k in range(len(states))] for p in range(2)]
        return {
            "title": "Stones held or proven (5 win, or 3 adjacent)",
            "series": series,
            "goal": 5,
        }


COMMENTARY = SchottenTottenCommentary()
