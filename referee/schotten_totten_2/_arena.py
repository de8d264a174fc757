"""Schotten Totten 2 in the arena: its deal, a Rache match, and the moves as each
seat may see them (the descriptor's ``arena``, see :mod:`referee.games`).

>>> from referee.arena import arena_game
>>> game = arena_game("schotten-totten-2", {"variants": ["rache"]})
>>> type(game).__name__, game.rounds, game.has_chance
('SchottenTotten2Arena', 2, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from referee.line.arena import LineArena

__all__ = ["SchottenTotten2Arena"]


class SchottenTotten2Arena(LineArena):
    """Schotten Totten 2 as the arena plays it (a Rache match is two games)."""

    def _normalise(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        fmt: Any = self.format
        data: dict[str, Any] = fmt.rules_json(fmt.rules_of(rules))
        if "rache" in rules.get("variants", []):
            # A Rache match: two games with the roles swapped.
            self.rounds = 2
            data = {"variants": [*data.get("variants", []), "rache"], "rounds": 2}
        return data

    def piles(self) -> tuple[Sequence[object], Sequence[object]]:
        from referee.schotten_totten_2.wall import SIEGE_CARDS, TACTIC_CARDS

        return SIEGE_CARDS.cards, TACTIC_CARDS

    def legal_moves(self, state: Any, rng: random.Random) -> list[Any]:
        # On the mover's view: an exchange names only the mover's own cards, and
        # the opponent answers it in its own ply without seeing the offer.
        moves: list[Any] = list(state.view(state.to_move).legal_moves())
        return moves

    reveals = True

    def revealed(self, played: Sequence[tuple[int, Any]], index: int, seat: int) -> int | None:
        from referee.schotten_totten_2.moves import Exchange, ExchangeReply

        # The answering player learns the offer once its cards reach its hand:
        # its own answer's entry shows the offer in full.
        mover, move = played[index]
        answers = type(move) is ExchangeReply and mover == seat and index > 0
        return index - 1 if answers and type(played[index - 1][1]) is Exchange else None

    def visible_text(self, move: Any, mover: int, seat: int) -> str:
        from referee.schotten_totten_2.moves import Exchange
        from referee.schotten_totten_2.state import as_seen_in_a_view

        # The answering player chooses its three cards without seeing the offer
        # (it learns them when they reach its hand; its view's history ends
        # before the offer, which a list of plies cannot do, hence the marks).
        if isinstance(move, Exchange) and seat != mover:
            return "exchange ?,?,?"
        # Otherwise as every view shows it (a shuffle without its places).
        return str(as_seen_in_a_view(move))
