"""Schotten Totten moves and their text notation.

A turn is a short sequence of moves, each one ply of a record:

========================  ==========  ==============================================
move                      text        meaning
========================  ==========  ==============================================
:class:`PlayCard`         ``R7@3``    put the red 7 on your side of stone 3 (1-9)
:class:`Claim`            ``claim 3`` claim stone 3
:class:`Pass`             ``pass``    play no card (only when none can be played)
:class:`Draw`             ``draw``    draw the top card and end the turn
:class:`EndTurn`          ``done``    end the turn without drawing
========================  ==========  ==============================================

Every move's text round-trips without a position, and ``repr`` is the parse call::

    >>> move = parse_move("R7@3")
    >>> move
    parse_move('R7@3')
    >>> str(move), move.card, move.stone
    ('R7@3', Card('R', 7), 3)
    >>> all(str(parse_move(t)) == t for t in ["claim 9", "pass", "draw", "done"])
    True
    >>> parse_move("R7 to 3")
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move 'R7 to 3': expected a card and a stone like 'R7@3', 'claim N', 'pass', 'draw' or 'done'
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass

from referee.cards import Card
from referee.errors import InvalidMoveError

__all__ = ["Claim", "Draw", "EndTurn", "Move", "Pass", "PlayCard", "parse_move"]

_PLAY = re.compile(r"([A-Z]\d{1,2})@(\d{1,2})")
_CLAIM = re.compile(r"claim (\d{1,2})")


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play ``card`` to the mover's side of ``stone`` (numbered 1-9)."""

    card: Card
    stone: int

    def __str__(self) -> str:
        return f"{self.card}@{self.stone}"

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim ``stone`` (numbered 1-9)."""

    stone: int

    def __str__(self) -> str:
        return f"claim {self.stone}"

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Pass:
    """Play no card this turn (allowed only when no card can be played)."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "parse_move('pass')"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the deck; this ends the turn."""

    def __str__(self) -> str:
        return "draw"

    def __repr__(self) -> str:
        return "parse_move('draw')"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn without drawing (after a pass, or when the deck is empty)."""

    def __str__(self) -> str:
        return "done"

    def __repr__(self) -> str:
        return "parse_move('done')"


#: Any Schotten Totten move.
Move = PlayCard | Claim | Pass | Draw | EndTurn

_WORDS: dict[str, Move] = {"pass": Pass(), "draw": Draw(), "done": EndTurn()}


def parse_move(text: str) -> Move:
    """Read a move from its text notation (no position needed).

    Only the shape is checked here: whether the card exists, the stone is on
    the board and the move is legal is the position's business.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"malformed move {text!r}: a move is text, like 'R7@3'")
    return _parse_text(text)


@lru_cache(maxsize=2048)
def _parse_text(text: str) -> Move:
    # Moves are immutable values, so a replay can share parsed moves freely.
    word = _WORDS.get(text)
    if word is not None:
        return word
    match = _PLAY.fullmatch(text)
    if match is not None:
        return PlayCard(Card.parse(match.group(1)), int(match.group(2)))
    match = _CLAIM.fullmatch(text)
    if match is not None:
        return Claim(int(match.group(1)))
    raise InvalidMoveError(
        f"malformed move {text!r}: expected a card and a stone like 'R7@3', "
        "'claim N', 'pass', 'draw' or 'done'"
    )
