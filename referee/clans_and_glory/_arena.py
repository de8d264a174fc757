"""Clans and Glory in the arena: 2 to 4 seats, the table as JSON, and another
player's face-down card hidden (the descriptor's ``arena``, see :mod:`referee.games`).

>>> from referee.arena import arena_game
>>> game = arena_game("clans-and-glory", {"players": 4})
>>> type(game).__name__, game.players, game.rules
('ClansAndGloryArena', 4, {'players': 4})
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.arena._games import ArenaGame

__all__ = ["ClansAndGloryArena"]


class ClansAndGloryArena(ArenaGame):
    """Clans and Glory as the arena plays it."""

    def _normalise(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        fmt: Any = self.format
        self.players = fmt.players_of(rules)
        data: dict[str, Any] = fmt.rules_json(self.players)
        return data

    def deal(self, rng: random.Random, first: int | None = None) -> tuple[int, dict[str, Any]]:
        from referee.clans_and_glory.dealing import new_game

        state = new_game(players=self.players, seed=rng.getrandbits(63))
        return 0, dict(state.deal_to_json())

    def view_json(self, state: Any, seat: int) -> dict[str, Any]:
        view = state.view(seat)
        seats: list[dict[str, Any]] = []
        for place, placed in zip(view.layout.seats, view.table, strict=True):
            if placed is None:
                continue
            item: dict[str, Any] = {"seat": str(place)}
            if placed.card is None:
                item["down"] = True
            else:
                item["card"] = str(placed.card)
                if not placed.face_up:
                    item["down"] = True
            item["player"] = placed.player
            seats.append(item)
        return {
            "seats": seats,
            "free": [str(s) for s in state.free_seats()],
            "shields": [list(stack) for stack in view.shields],
            "hand_sizes": list(view.hand_sizes),
            "to_move": view.to_move,
            "hand": [str(c) for c in view.hands[seat]],
        }

    def legal_moves(self, state: Any, rng: random.Random) -> list[Any]:
        # The mover's view lists the same moves (its hand and the face-up cards).
        moves: list[Any] = list(state.legal_moves())
        return moves

    def visible_text(self, move: Any, mover: int, seat: int) -> str:
        if move.face_down and seat != mover:
            # Another player's face-down card is hidden: only the seat and options show.
            return str(move).replace(str(move.card), "?", 1)
        return str(move)

    def winners(self, state: Any) -> tuple[int, ...]:
        if state.outcome is None:
            return ()
        return tuple(state.outcome.winners)
