"""Schotten Totten moves and their text notation.

A turn is a short sequence of moves, each one ply of a record:

==================  ==================================================  =====================================
move                text                                                meaning
==================  ==================================================  =====================================
:class:`PlayCard`   ``R7@3``, ``joker@3``, ``mud_fight@5``              put a card at stone 3 (stones 1-9)
:class:`Claim`      ``claim 3``                                         claim stone 3
:class:`Pass`       ``pass``                                            play no card
:class:`Draw`       ``draw``, ``draw clan``, ``draw tactic``            draw, ending the turn
:class:`EndTurn`    ``done``                                            end the turn without drawing
:class:`Recruit`    ``recruiter draw clan clan tactic``                 the recruiter ruse: its draws
:class:`PutBack`    ``return R7 spy``                                   then the cards it puts back
:class:`Strategist` ``strategist R7@3>5``, ``strategist R7@3>discard``  move or discard one of your cards
:class:`Banshee`    ``banshee B5@4``                                    discard an opposing card
:class:`Traitor`    ``traitor B5@4>6``                                  take an opposing clan card
==================  ==================================================  =====================================

Every move's text round-trips without a position, and ``repr`` is the parse call::

    >>> move = parse_move("R7@3")
    >>> move
    parse_move('R7@3')
    >>> str(move), move.card, move.stone
    ('R7@3', Card('R', 7), 3)
    >>> texts = ["claim 9", "pass", "draw", "draw tactic", "done", "banshee joker@2",
    ...          "recruiter draw clan tactic clan", "return R7 clan", "strategist P2@1>discard",
    ...          "recruiter draw clan tactic clan return R7 clan"]
    >>> all(str(parse_move(t)) == t for t in texts)
    True
    >>> parse_move("R7 to 3")
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move 'R7 to 3': expected a move like 'R7@3', 'claim 3', 'pass', 'draw' or 'done' (or a ruse such as 'banshee B5@4')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.cards import Card, InvalidCardError
from referee.errors import InvalidMoveError
from referee.line.moves import CheckedMove
from referee.notation import MAX_MOVE_CHARS as NOTATION_LIMIT
from referee.notation import MoveReader
from referee.schotten_totten.cards import AnyCard, Tactic, parse_card

__all__ = [
    "MAX_MOVE_CHARS",
    "PILES",
    "Banshee",
    "Claim",
    "Draw",
    "EndTurn",
    "Move",
    "Pass",
    "PlayCard",
    "PutBack",
    "Recruit",
    "Strategist",
    "Traitor",
    "parse_move",
]

#: The draw piles of the tactics variant.
PILES = ("clan", "tactic")
#: Longest move text read (characters), the records' own limit
#: (``referee.records.MAX_MOVE_CHARS``); longer text is refused before it is
#: parsed, so the parse cache never keeps it. No move the rules allow is longer
#: than 73: ``recruiter draw tactic tactic tactic return blind_mans_bluff shield_bearer``.
MAX_MOVE_CHARS = NOTATION_LIMIT

# ASCII digits only; a leading zero is refused with its own message (see _number).
_NUMBER = r"(?:[0-9]{1,2})"
_CARD = rf"([A-Z]{_NUMBER}|[a-z_]+)"
_STONE = rf"({_NUMBER})"
_PLAY = re.compile(rf"{_CARD}@{_STONE}")
_CLAIM = re.compile(rf"claim {_STONE}")
_DRAW = re.compile(r"draw (clan|tactic)")
_STRATEGIST = re.compile(rf"strategist {_CARD}@{_STONE}>({_NUMBER}|discard)")
_BANSHEE = re.compile(rf"banshee {_CARD}@{_STONE}")
_TRAITOR = re.compile(rf"traitor {_CARD}@{_STONE}>{_STONE}")
_PUT_BACK = re.compile(r"return ([^ ]+(?: [^ ]+)*)")
_RECRUIT = re.compile(
    r"recruiter(?: draw ((?:clan|tactic)(?: (?:clan|tactic))*))?(?: return ([^ ]+(?: [^ ]+)*))?"
)


def _bad(move: object, why: str) -> InvalidMoveError:
    return InvalidMoveError(f"malformed move {move.__class__.__name__}: {why}")


def _check_card(move: object, card: object) -> None:
    if type(card) is Card:
        if type(card.colour) is str and type(card.value) is int:
            return
    elif type(card) is Tactic and type(card.name) is str:
        return
    raise _bad(move, f"card must be a Card or a Tactic, not {card!r}")


class _Move(CheckedMove):
    """A Schotten Totten move: its cards and stone numbers checked when made."""

    __slots__ = ()

    def _check_card(self, name: str, value: object) -> None:
        _check_card(self, value)

    def _check_number(self, name: str, value: object) -> None:
        # bool is an int subclass, but True is not a stone number
        if type(value) is not int:
            raise _bad(self, f"{name} must be an int, not {value!r}")


@dataclass(frozen=True, slots=True, repr=False)
class PlayCard(_Move):
    """Play ``card`` at ``stone`` (1-9): a clan card or elite troop goes on the
    mover's side, a combat style on the stone itself."""

    card: AnyCard
    stone: int
    _TEXT = "{card}@{stone}"


@dataclass(frozen=True, slots=True, repr=False)
class Claim(_Move):
    """Claim ``stone`` (1-9)."""

    stone: int
    _TEXT = "claim {stone}"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(_Move):
    """Play no card this turn (allowed only when no clan card can be played)."""

    _TEXT = "pass"


@dataclass(frozen=True, slots=True, repr=False)
class Draw(_Move):
    """Draw a card, ending the turn: from the only pile (base game) or the named
    pile (``"clan"`` or ``"tactic"``, tactics variant)."""

    pile: str | None = None

    def __post_init__(self) -> None:
        if self.pile is not None and (type(self.pile) is not str or self.pile not in PILES):
            raise _bad(self, f"pile must be None, 'clan' or 'tactic', not {self.pile!r}")

    def __str__(self) -> str:
        return "draw" if self.pile is None else f"draw {self.pile}"


@dataclass(frozen=True, slots=True, repr=False)
class EndTurn(_Move):
    """End the turn without drawing (after a pass or a recruiter, or with empty piles)."""

    _TEXT = "done"


@dataclass(frozen=True, slots=True, repr=False)
class Recruit(_Move):
    """Play the recruiter: draw from ``draws`` (pile names, in order). The cards
    it puts back are the next ply, a :class:`PutBack`, chosen once the drawn
    cards are in hand.

    A record may also write both steps as one move, with ``returns`` (the older
    form, still read): ``recruiter draw clan clan tactic return R7 spy``. A
    returned card hidden from the record may be written as its pile name
    (``"clan"`` or ``"tactic"``).
    """

    draws: tuple[str, ...]
    returns: tuple[AnyCard | str, ...] = ()

    def __post_init__(self) -> None:
        if type(self.draws) is not tuple or not all(
            type(p) is str and p in PILES for p in self.draws
        ):
            raise _bad(self, f"draws must be a tuple of pile names, not {self.draws!r}")
        if type(self.returns) is not tuple:
            raise _bad(self, f"returns must be a tuple, not {self.returns!r}")
        for item in self.returns:
            if not (type(item) is str and item in PILES):
                _check_card(self, item)

    def __str__(self) -> str:
        text = "recruiter"
        if self.draws:
            text += " draw " + " ".join(self.draws)
        if self.returns:
            text += " return " + " ".join(map(str, self.returns))
        return text


@dataclass(frozen=True, slots=True, repr=False)
class PutBack(_Move):
    """The recruiter's second step: put ``cards`` (two, or what the hand holds)
    under their piles, the first named above the second. A card hidden from the
    record may be written as its pile name (``"clan"`` or ``"tactic"``).

    >>> str(PutBack((Card("R", 7), Tactic("spy"))))
    'return R7 spy'
    """

    cards: tuple[AnyCard | str, ...]

    def __post_init__(self) -> None:
        if type(self.cards) is not tuple or not self.cards:
            raise _bad(self, f"cards must be a tuple of at least one card, not {self.cards!r}")
        for item in self.cards:
            if not (type(item) is str and item in PILES):
                _check_card(self, item)

    def __str__(self) -> str:
        return "return " + " ".join(map(str, self.cards))


@dataclass(frozen=True, slots=True, repr=False)
class Strategist(_Move):
    """Play the strategist: move your ``card`` from ``source`` to stone ``target``,
    or discard it (``target`` is ``None``)."""

    card: AnyCard
    source: int
    target: int | None

    def __str__(self) -> str:
        to = "discard" if self.target is None else str(self.target)
        return f"strategist {self.card}@{self.source}>{to}"


@dataclass(frozen=True, slots=True, repr=False)
class Banshee(_Move):
    """Play the banshee: discard the opponent's ``card`` at ``stone``."""

    card: AnyCard
    stone: int
    _TEXT = "banshee {card}@{stone}"


@dataclass(frozen=True, slots=True, repr=False)
class Traitor(_Move):
    """Play the traitor: take the opponent's clan ``card`` at ``source`` to your
    side of ``target``."""

    card: AnyCard
    source: int
    target: int
    _TEXT = "traitor {card}@{source}>{target}"


#: Any Schotten Totten move.
Move = PlayCard | Claim | Pass | Draw | EndTurn | Recruit | PutBack | Strategist | Banshee | Traitor

_WORDS: dict[str, Move] = {"pass": Pass(), "draw": Draw(), "done": EndTurn()}


def parse_move(text: str) -> Move:
    """Read a move from its text notation (no position needed).

    Only the shape is checked here: whether the card exists, the stone is on
    the board and the move is legal is the position's business. Text longer
    than :data:`MAX_MOVE_CHARS` is refused unread (and never cached):

    >>> parse_move("return " + " ".join(["R7"] * 40))
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move 'return R7 R7 R7 R7 R7 R7 R7 R7 R7 R7 R7 '... (126 characters): a move is at most 100 characters
    """
    return _READ(text)


def _parse_text(text: str) -> Move:
    try:
        move = _parse_words(text)
    except InvalidCardError as error:
        raise InvalidMoveError(f"malformed move {text!r}: {error}") from None
    if move is None:
        raise InvalidMoveError(
            f"malformed move {text!r}: expected a move like 'R7@3', 'claim 3', 'pass', "
            "'draw' or 'done' (or a ruse such as 'banshee B5@4')"
        )
    return move


def _number(text: str, digits: str) -> int:
    """A stone number, written in one way only: ``5``, never ``05``."""
    value = int(digits)
    if str(value) != digits:
        raise InvalidMoveError(
            f"malformed move {text!r}: non-canonical stone number {digits!r}: write it as {value}"
        )
    return value


def _parse_words(text: str) -> Move | None:
    word = _WORDS.get(text)
    if word is not None:
        return word
    if match := _PLAY.fullmatch(text):
        return PlayCard(parse_card(match.group(1)), _number(text, match.group(2)))
    if match := _CLAIM.fullmatch(text):
        return Claim(_number(text, match.group(1)))
    if match := _DRAW.fullmatch(text):
        return Draw(match.group(1))
    if match := _STRATEGIST.fullmatch(text):
        to = match.group(3)
        target = None if to == "discard" else _number(text, to)
        return Strategist(parse_card(match.group(1)), _number(text, match.group(2)), target)
    if match := _BANSHEE.fullmatch(text):
        return Banshee(parse_card(match.group(1)), _number(text, match.group(2)))
    if match := _TRAITOR.fullmatch(text):
        source, target = _number(text, match.group(2)), _number(text, match.group(3))
        return Traitor(parse_card(match.group(1)), source, target)
    if match := _PUT_BACK.fullmatch(text):
        words = match.group(1).split(" ")
        return PutBack(tuple(w if w in PILES else parse_card(w) for w in words))
    if match := _RECRUIT.fullmatch(text):
        draws = tuple(match.group(1).split(" ")) if match.group(1) else ()
        words = match.group(2).split(" ") if match.group(2) else []
        return Recruit(draws, tuple(w if w in PILES else parse_card(w) for w in words))
    return None


#: The game's reader: bounded, remembering what it read (:mod:`referee.notation`).
_READ: MoveReader[Move] = MoveReader(_parse_text, example="R7@3")
