"""Clans and Glory moves and their text notation.

A turn is one move: place a card from your hand on a free seat, face up (the
normal case) or face down (only when no card in hand fits any free seat face
up), and optionally put one of your shields on the tableau just played to.

=======================  ===================================================
text                     meaning
=======================  ===================================================
``G5@t2s4``              green 5 face up on seat 4 of tableau 2
``G5@t2s4+shield``       the same, and a shield on tableau 2's stack
``G5@t2s4+down``         green 5 face down on that seat
``G5@t2s4+down+shield``  face down, and a shield on tableau 2
=======================  ===================================================

The text round-trips without a position, and ``repr`` is the parse call::

    >>> move = parse_move("G5@t2s4+shield")
    >>> move
    parse_move('G5@t2s4+shield')
    >>> move.card, move.seat, move.face_down, move.shield
    (Card('G', 5), Seat(2, 4), False, True)
    >>> parse_move(str(move)) == move
    True

The shield always goes on the tableau just played to, so the notation cannot
name another one:

    >>> parse_move("G5@t2s4+shield@t3")
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move 'G5@t2s4+shield@t3': a shield always goes on the tableau just played to, so it takes no tableau of its own
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.cards import Card, InvalidCardError
from referee.clans_and_glory.layout import Seat
from referee.clans_and_glory.setup import CLAN_CARDS
from referee.errors import InvalidMoveError
from referee.notation import MAX_MOVE_CHARS as NOTATION_LIMIT
from referee.notation import MoveReader

__all__ = ["MAX_MOVE_CHARS", "Placement", "parse_move"]

#: Longest move text read (characters), the records' own limit
#: (``referee.records.MAX_MOVE_CHARS``): longer text is refused unread, and its
#: message quotes only its start. No move is longer than 21 characters
#: (``G5@t99s99+down+shield``: tableaux and seats have at most two digits).
MAX_MOVE_CHARS = NOTATION_LIMIT

_MOVE_TEXT = re.compile(r"([A-Z][0-9]{1,2})@(t[0-9]{1,2}s[0-9]{1,2})(\+down)?(\+shield)?")
_SHIELD_ELSEWHERE = re.compile(r".*\+shield@.*")


@dataclass(frozen=True, slots=True)
class Placement:
    """Place ``card`` on ``seat``; ``face_down`` and ``shield`` are the options.

    >>> str(Placement(Card("R", 3), Seat(1, 7), face_down=True))
    'R3@t1s7+down'

    Every field is checked, so a move that has no text cannot be built:

    >>> Placement(Card("R", 3), Seat(1, 7), face_down=1)
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move: face_down must be True or False, not 1
    """

    card: Card
    seat: Seat
    face_down: bool = False
    shield: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card) or self.card not in CLAN_CARDS:
            raise InvalidMoveError(
                f"malformed move: the card must be a Clans and Glory Card, not {self.card!r}"
            )
        seat = self.seat
        if (
            not isinstance(seat, Seat)
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in seat)
            or not (1 <= seat.tableau <= 99 and 1 <= seat.number <= 99)
        ):
            raise InvalidMoveError(
                f"malformed move: the seat must be a Seat with numbers 1-99, not {seat!r}"
            )
        for name in ("face_down", "shield"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise InvalidMoveError(
                    f"malformed move: {name} must be True or False, not {value!r}"
                )

    def __str__(self) -> str:
        down = "+down" if self.face_down else ""
        shield = "+shield" if self.shield else ""
        return f"{self.card}@{self.seat}{down}{shield}"

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"

    @property
    def tableau(self) -> int:
        """The tableau played to (and the one a shield goes on)."""
        return self.seat.tableau

    @classmethod
    def _of(cls, card: Card, seat: Seat, face_down: bool, shield: bool) -> Placement:
        """The move of values the rules made themselves (a card of the set, a seat
        of the layout, two bools), without the constructor's checks: the one
        place a move is built field by field, so listing legal moves stays cheap."""
        move = object.__new__(cls)
        _set(move, "card", card)
        _set(move, "seat", seat)
        _set(move, "face_down", face_down)
        _set(move, "shield", shield)
        return move


_set = object.__setattr__


def parse_move(text: str) -> Placement:
    """Read a move from its text (shape and card only; legality is the state's business).

    Options come in a fixed order (``+down`` before ``+shield``), so each move
    has exactly one text.

    >>> parse_move("G5@t2s4+shield+down")
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move 'G5@t2s4+shield+down': expected a card and a seat with options in this order, like 'G5@t2s4', 'G5@t2s4+shield' or 'G5@t2s4+down+shield'
    >>> parse_move("G9@t2s4")
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move 'G9@t2s4': unknown card 'G9': value 9 is outside 3-8
    """
    return _READ(text)


def _parse_text(text: str) -> Placement:
    match = _MOVE_TEXT.fullmatch(text)
    if match is None:
        if _SHIELD_ELSEWHERE.fullmatch(text):
            raise InvalidMoveError(
                f"malformed move {text!r}: a shield always goes on the tableau just "
                "played to, so it takes no tableau of its own"
            )
        raise InvalidMoveError(
            f"malformed move {text!r}: expected a card and a seat with options in this "
            "order, like 'G5@t2s4', 'G5@t2s4+shield' or 'G5@t2s4+down+shield'"
        )
    try:
        card = CLAN_CARDS.parse(match.group(1))
    except InvalidCardError as error:
        raise InvalidMoveError(f"malformed move {text!r}: {error}") from None
    if str(card) != match.group(1):
        raise InvalidMoveError(f"malformed move {text!r}: write the card as {str(card)!r}")
    try:
        seat = Seat.parse(match.group(2))
    except InvalidMoveError as error:
        raise InvalidMoveError(f"malformed move {text!r}: {error}") from None
    return Placement(card, seat, face_down=match.group(3) is not None, shield=bool(match.group(4)))


#: The game's reader: bounded, remembering what it read (:mod:`referee.notation`).
_READ: MoveReader[Placement] = MoveReader(_parse_text, example="G5@t2s4")
