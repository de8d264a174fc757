"""How the viewer, the pictures and the analysis speak of Schotten Totten 2 (the
descriptor's ``commentary``, see :class:`referee.games.Commentary`).

>>> from referee.games import find_game
>>> words = find_game("schotten-totten-2").commentary
>>> words.move_words("control 4", "Thomas"), words.match_name({"variants": ["rache"]})
('Thomas takes control of tile 4', 'Rache')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee._words import line_move_words
from referee.games import Commentary

__all__ = ["COMMENTARY", "SchottenTotten2Commentary"]


class SchottenTotten2Commentary(Commentary):
    """Wall tiles, controls, the attacker's count of damaged tiles, Rache matches."""

    claim_move = "control {}"
    faces = True

    def move_words(self, move: str, who: str) -> str:
        return f"{who} {line_move_words(move, 'tile')}"

    def match_name(self, rules: Mapping[str, Any]) -> str:
        return "Rache"

    def wins(self, state: Any, places: set[int]) -> bool:
        """A damaged tile controlled, or four damaged tiles."""
        damaged = {t.number for t in state.tiles if t.damaged}
        return bool(places & damaged) or len(damaged | places) >= 4

    def score_lines(self, state: Any, proven: Callable[[int], int]) -> list[str]:
        damaged = sum(1 for t in state.tiles if t.damaged)
        attacker, defender = state.attacker, state.defender
        more = proven(attacker)
        lines = ["", ""]
        lines[attacker] = f"attacker: {damaged} of 4 tiles damaged" + (
            f", {more} more proven" if more else ""
        )
        lines[defender] = f"defender: {state.oil} oil left · {state.deck_size} siege cards to go"
        return lines

    def graph(self, states: Sequence[Any], proven: Callable[[int, int], int]) -> dict[str, Any]:
        attacker = states[0].attacker
        values = [
            sum(1 for t in s.tiles if t.damaged) + proven(k, attacker) for k, s in enumerate(states)
        ]
        series: list[list[int]] = [[], []]
        series[attacker] = values
        return {
            "title": "Tiles damaged or proven for the attacker (4 win)",
            "series": series,
            "goal": 4,
        }


COMMENTARY = SchottenTotten2Commentary()
