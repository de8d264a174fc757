"""Clans and Glory views from the arena's messages (the descriptor's ``from_message``).

A Clans and Glory view has no history: it is the table, the shields, the hand
sizes, whose move it is and the seat's own hand, and the ``view`` JSON of a
turn holds all of it (another player's face-down card as ``down`` without its
``card``; the seat's own face-down cards with theirs). The reader builds the
view with the public :class:`~referee.clans_and_glory.State` constructor, which
checks it; the ``seen`` moves are only counted.

>>> from referee.arena import view_reader
>>> from referee.clans_and_glory import new_game
>>> from referee.clans_and_glory._arena import ClansAndGloryArena
>>> from referee.games import find_game
>>> game = new_game(players=3, seed=5)
>>> game = game.play(game.legal_moves()[0])
>>> adapter = ClansAndGloryArena(find_game("clans-and-glory"), {"players": 3})
>>> reader = view_reader({"type": "game", "game": "clans-and-glory", "rules": {"players": 3},
...                       "seat": 1, "players": 3, "first": 0})
>>> turn = {"type": "turn", "ply": 2, "seat": 1, "view": adapter.view_json(game, 1),
...         "seen": [{"ply": 1, "seat": 0, "move": str(game.history[0])}]}
>>> reader.view(turn) == game.view(1)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.arena import MessageError, ViewReader
from referee.clans_and_glory._game import GAME
from referee.clans_and_glory.layout import Seat, default_layout
from referee.clans_and_glory.placed import Placed
from referee.clans_and_glory.setup import CLAN_CARDS
from referee.clans_and_glory.state import State
from referee.errors import RefereeError

__all__ = ["ClansAndGloryReader", "from_message"]


class ClansAndGloryReader(ViewReader):
    """The reader of one Clans and Glory game (see the module)."""

    def _view(self, view: Mapping[str, Any]) -> State:
        try:
            return self._built(view)
        except (RefereeError, ValueError, TypeError, KeyError) as error:
            if isinstance(error, MessageError):
                raise
            raise MessageError(f"a Clans and Glory view that cannot be: {error}") from None

    def _built(self, view: Mapping[str, Any]) -> State:
        players = self.players
        layout = default_layout(players)  # the arena deals on the usual table
        table: list[Placed | None] = [None] * len(layout.seats)
        for item in _list(view, "seats"):
            seat = layout.index(Seat.parse(item["seat"]))
            if table[seat] is not None:
                raise MessageError(f"seat {item['seat']!r} is listed twice")
            down = item.get("down", False) is True
            text = item.get("card")
            card = None if text is None else CLAN_CARDS.parse(text)
            table[seat] = Placed(card, item.get("player"), not down)
        hands: list[Any] = [None] * players
        hands[self.seat] = [CLAN_CARDS.parse(text) for text in _list(view, "hand")]
        return State(
            num_players=players,
            layout=layout,
            table=table,
            hands=hands,
            hand_sizes=_list(view, "hand_sizes"),
            shields=_list(view, "shields"),
            to_move=view["to_move"],
            removed=None,
        )


def _list(view: Mapping[str, Any], name: str) -> list[Any]:
    value = view.get(name)
    if not isinstance(value, list):
        raise MessageError(f"the view's {name!r} is {value!r:.100}")
    return value


def from_message(message: Mapping[str, Any]) -> ClansAndGloryReader:
    """The reader of the Clans and Glory game the ``game`` ``message`` starts."""
    return ClansAndGloryReader(GAME, message)
