"""Schotten Totten 2 views from the arena's messages (the descriptor's ``from_message``).

A bot program's reader replays the moves it was shown on the public start of
the game and puts its own hand in (see :class:`referee.arena.ReplayReader`):
the view is the one an in-process bot gets, history included. Two moves are
shown masked:

- a ``shuffle`` (where support's cards went into the deck) is bare, as every
  view's history writes it, and replays as it is;
- an exchange offer is ``exchange ?,?,?`` to the player who answers it. While
  the offer waits, that player's view shows the table after the offer but not
  the offer (``exchange`` is ``None``, the history ends before it), as
  :meth:`State.view <referee.schotten_totten_2.State.view>` does: the reader
  builds it by playing a stand-in offer of cards the offering hand may hold,
  which the view then hides. The answer's ``seen`` entry ``reveals`` the offer,
  whose cards have reached the answering hand, and the reader replays the two.

>>> from referee.arena import view_reader
>>> reader = view_reader({"type": "game", "game": "schotten-totten-2", "rules": {},
...                       "seat": 0, "players": 2, "first": 0})
>>> view = reader.view({"type": "turn", "ply": 1, "seat": 0, "seen": [],
...                     "view": {"to_move": 0, "hand": ["R1", "R2", "R3", "B4", "B5", "B6"]}})
>>> view.attacker, view.phase.value, len(view.hands[0]), view.hands[1]
(0, 'opening', 6, None)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from referee.arena import MessageError, ReplayReader
from referee.schotten_totten_2._game import GAME
from referee.schotten_totten_2.moves import Exchange, parse_move
from referee.schotten_totten_2.wall import TacticCard, parse_card

__all__ = ["HIDDEN_OFFER", "from_message"]

#: An exchange offer as the answering player is shown it.
HIDDEN_OFFER = "exchange ?,?,?"


class SchottenTotten2Reader(ReplayReader):
    """The reader of one Schotten Totten 2 game (see the module)."""

    def __init__(self, message: Mapping[str, Any]) -> None:
        super().__init__(GAME, message, parse_card)
        #: The ply of an offer shown as ``exchange ?,?,?``, until its answer reveals it.
        self.hidden_offer: int | None = None

    def _read(self, entry: Mapping[str, Any]) -> None:
        text = entry["move"]
        if text == HIDDEN_OFFER:
            if entry["seat"] == self.seat or self.hidden_offer is not None:
                raise MessageError(f"ply {entry['ply']}: an offer hidden from its own player")
            self.hidden_offer = entry["ply"]
            return
        if self.hidden_offer is not None:
            # The answer: it must reveal the offer it answers, which is played first.
            offer = entry.get("reveals")
            if (
                not isinstance(offer, Mapping)
                or offer.get("ply") != self.hidden_offer
                or not isinstance(offer.get("move"), str)
                or type(parse_move(offer["move"])) is not Exchange
            ):
                raise MessageError(
                    f"ply {entry['ply']} answers the offer of ply {self.hidden_offer} "
                    f"without revealing it: {entry!r:.200}"
                )
            self.state = self.state.play(offer["move"])
            self.hidden_offer = None
        self.state = self.state.play(text)

    def _view(self, view: Mapping[str, Any]) -> Any:
        if self.hidden_offer is None:
            return super()._view(view)
        # The offer waits, hidden from this seat: a stand-in offer makes the
        # table after it, and the view hides the offer (and ends its history
        # before it) as the referee's view does.
        state = self._with_hand(self.state, self._hand(view))
        stand_in = Exchange(_stand_in(state, 1 - self.seat))
        after = state.play(stand_in)
        return after.view(self.seat)


def _stand_in(state: Any, offerer: int) -> tuple[Any, Any, Any]:
    """Three cards the offerer's hidden hand may offer: siege cards first, as
    many as it holds, then tactic cards, none of them seen or in the other hand."""
    hand = state.hands[1 - offerer] or ()
    left = state.rules.all_cards - state.visible_cards() - Counter(hand)
    left[TacticCard.EXCHANGE] -= 1  # the card that makes the offer
    tactics = state.tactics_in_hand(offerer) - 1
    sieges = state.hand_sizes[offerer] - 1 - tactics
    pool = sorted(left.elements(), key=lambda card: (isinstance(card, TacticCard), str(card)))
    siege = [card for card in pool if not isinstance(card, TacticCard)][: min(3, sieges)]
    other = [card for card in pool if isinstance(card, TacticCard)][: 3 - len(siege)]
    chosen = siege + other
    if len(chosen) != 3:
        raise MessageError("an exchange offer that no hand consistent with the table can make")
    return (chosen[0], chosen[1], chosen[2])


def from_message(message: Mapping[str, Any]) -> ReplayReader:
    """The reader of the Schotten Totten 2 game the ``game`` ``message`` starts."""
    return SchottenTotten2Reader(message)
