"""What the arena does alike for every game on a line (see
:mod:`referee.arena`): the deal of a game (the main pile shuffled, with the
tactics variant the tactic pile too, and who starts) and the turn fields of a
seat's view (the phase of the turn and the piles' sizes). A game's adapter
subclasses :class:`LineArena` and says its :meth:`~LineArena.piles`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from referee.arena._games import ArenaGame

__all__ = ["LineArena"]


class LineArena(ArenaGame):
    """The arena's adapter for a game on a line, less the game's piles."""

    def piles(self) -> tuple[Sequence[object], Sequence[object]]:
        """The game's main cards and its tactic cards, in their order."""
        raise NotImplementedError

    def deal(self, rng: random.Random, first: int | None = None) -> tuple[int, dict[str, Any]]:
        cards, tactic_cards = self.piles()
        deck = [str(c) for c in cards]
        rng.shuffle(deck)
        deal: dict[str, Any] = {"deck": deck}
        if "tactics" in self.rules.get("variants", []):
            tactics = [str(t) for t in tactic_cards]
            rng.shuffle(tactics)
            deal["tactics"] = tactics
        chosen = rng.randrange(2)
        return chosen if first is None else first, deal

    def view_json(self, state: Any, seat: int) -> dict[str, Any]:
        data = super().view_json(state, seat)
        view = state.view(seat)
        data["phase"] = view.phase.value
        data.setdefault("deck_size", view.deck_size)
        if view.rules.tactics:
            data.setdefault("tactic_deck_size", view.tactic_deck_size)
        return data
