"""How the viewer and the pictures speak of Clans and Glory (the descriptor's
``commentary``, see :class:`referee.games.Commentary`).

>>> from referee.games import find_game
>>> find_game("clans-and-glory").commentary.move_words("R5@t1s2+down+shield", "Ada")
'Ada places R5 face down at t1s2 and puts a shield on tableau 1'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from referee.games import Commentary

__all__ = ["COMMENTARY", "ClansAndGloryCommentary"]


class ClansAndGloryCommentary(Commentary):
    """Placements (another player's face-down card hidden), points and shields."""

    def move_words(self, move: str, who: str) -> str:
        found = re.fullmatch(r"(\S+?)@(t(\d+)s\d+)((?:\+down|\+shield)*)", move)
        if not found:
            return f"{who}: {move}"
        card, seat, tableau, extras = found.groups()
        hidden = card in ("?", "??")
        if "+down" in extras:
            text = f"places {'a card' if hidden else card} face down at {seat}"
        else:
            text = f"places {card} at {seat}"
        if "+shield" in extras:
            text += f" and puts a shield on tableau {tableau}"
        return f"{who} {text}"

    def seen_moves(
        self, states: Sequence[Any], moves: Sequence[str], viewer: int
    ) -> list[str] | None:
        seen = []
        for state, move in zip(states, moves, strict=False):
            placement = state.parse_move(move)
            if placement.face_down and state.to_move != viewer:
                extra = "+shield" if placement.shield else ""
                seen.append(f"??@{placement.seat}+down{extra}")
            else:
                seen.append(move)
        return seen

    def score_lines(self, state: Any, proven: Callable[[int], int]) -> list[str]:
        from referee.clans_and_glory.picture import score_now
        from referee.clans_and_glory.setup import SHIELDS_PER_PLAYER

        points = score_now(state).points
        outcome = state.outcome
        if outcome is not None and outcome.scores is not None:
            points = outcome.scores
        return [
            f"{points[p]} point{'s' if points[p] != 1 else ''} · "
            f"{SHIELDS_PER_PLAYER - sum(st.count(p) for st in state.shields)} shields left · "
            f"{state.hand_sizes[p]} in hand"
            for p in range(state.num_players)
        ]

    def graph(self, states: Sequence[Any], proven: Callable[[int, int], int]) -> dict[str, Any]:
        from referee.clans_and_glory.picture import score_now

        series = [list(p) for p in zip(*(score_now(s).points for s in states), strict=True)]
        return {"title": "Points as the table stands", "series": series, "goal": None}


COMMENTARY = ClansAndGloryCommentary()
