"""What lies on a seat, as users see it, and the error of a state that cannot exist.

A :class:`Placed` is a card on a seat with who placed it and which way up; a
state's ``table`` holds one per seat (``None`` for a free seat), made from the
integer board when asked for (:func:`table_of`).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import Card
from referee.clans_and_glory.cards import CARDS
from referee.clans_and_glory.rules import FREE, HIDDEN, START, Board
from referee.clans_and_glory.setup import CLAN_CARDS
from referee.errors import RefereeError

__all__ = ["InvalidStateError", "Placed", "is_int", "table_of"]


class InvalidStateError(RefereeError):
    """A Clans and Glory state that cannot exist (reason ``invalid_state``).

    The message lists every problem found, not just the first.
    """

    def __init__(self, message: str) -> None:
        super().__init__("invalid_state", message)


@dataclass(frozen=True, slots=True)
class Placed:
    """A card on a seat: who placed it (``None`` for a start card) and which way up.

    ``card`` is ``None`` only in a view, for a face-down card whose face the
    viewer does not see.

    >>> Placed(Card("G", 9))
    Traceback (most recent call last):
    ...
    referee.clans_and_glory.placed.InvalidStateError: a placed card must be one of the 42 Clans and Glory cards, not Card('G', 9)
    """

    card: Card | None
    player: int | None = None
    face_up: bool = True

    def __post_init__(self) -> None:
        if self.card is None and self.face_up is not False:
            raise InvalidStateError("only a face-down card can be hidden (card None)")
        if self.card is not None and (
            not isinstance(self.card, Card) or self.card not in CLAN_CARDS
        ):
            raise InvalidStateError(
                f"a placed card must be one of the 42 Clans and Glory cards, not {self.card!r}"
            )
        if self.player is not None and not (is_int(self.player) and 0 <= self.player < 4):
            raise InvalidStateError(
                f"who placed a card is a player index 0-3 (None for a start card), "
                f"not {self.player!r}"
            )
        if not isinstance(self.face_up, bool):
            raise InvalidStateError(f"face_up must be True or False, not {self.face_up!r}")


def is_int(value: object) -> bool:
    """Whether ``value`` is an int (a bool is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def table_of(board: Board) -> tuple[Placed | None, ...]:
    """What lies on each seat of a board (``None`` when free)."""
    face_up = board.face_up
    return tuple(
        None
        if card == FREE
        else Placed(
            None if card == HIDDEN else CARDS[card],
            None if placer == START else placer,
            bool(face_up >> seat & 1),
        )
        for seat, (card, placer) in enumerate(
            zip(board.seat_cards, board.seat_placers, strict=True)
        )
    )


def check_player(player: object, players: int) -> int:
    """``player`` if it is a player of a game of ``players``, else a ``ValueError``.

    >>> check_player(3, 3)
    Traceback (most recent call last):
    ...
    ValueError: no player 3 in a 3-player game (players are 0-2)
    """
    if not is_int(player) or not 0 <= player < players:  # type: ignore[operator]
        raise ValueError(
            f"no player {player!r} in a {players}-player game (players are 0-{players - 1})"
        )
    assert isinstance(player, int)
    return player
