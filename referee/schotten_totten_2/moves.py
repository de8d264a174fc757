"""Schotten Totten 2 moves and their text notation.

A turn is a short sequence of moves, each one ply of a record. Tiles are
numbered 1-7 from the left; a card is a siege card like ``R7`` or a tactic card
by name (``joker``, ``spy``, ``shield``, ...).

==============================  ===================================  ===========================================
move                            text                                 meaning
==============================  ===================================  ===========================================
:class:`Retreat`                ``retreat 2,5``                      attacker's opening: discard own cards at 2 and 5
:class:`Oil`                    ``oil 4``                            defender's opening: oil the attacker's first card at 4
:class:`PlayCard`               ``R7@3``, ``joker@3``                put a siege card or elite troop on your side of tile 3
:class:`Control`                ``control 3``                        attacker declares control of tile 3
:class:`Pass`                   ``pass``                             play no card (only when none can be played)
:class:`Draw`                   ``draw``, ``draw tactic``            draw from the siege deck (or the tactic pile); ends the turn
:class:`EndTurn`                ``done``                             end the turn without drawing (nothing to draw, or after a pass)
:class:`Redeploy`               ``redeploy R3@2>5``                  tactic: move your R3 from 2 to 5 (``>discard``: discard it)
:class:`Recruitment`            ``recruitment R3@5``                 tactic: play the discarded R3 to tile 5
:class:`Desertion`              ``desertion R3@5``                   tactic: discard the opponent's R3 at tile 5
:class:`Treason`                ``treason R3@5>2``                   tactic: take the opponent's R3 at 5 onto your side of 2
:class:`Explosion`              ``explosion 3``                      tactic: discard every card at tile 3
:class:`Support`                ``support R3,B7``                    tactic: shuffle the discarded R3 and B7 into the deck
:class:`Shuffle`                ``shuffle 4,17``                     where the support cards ended up (1 = top card)
:class:`Exchange`               ``exchange R1,R2,spy``               tactic: offer your 3 cards in exchange
:class:`ExchangeReply`          ``give B4,B5,B6``                    the opponent's own ply: the 3 cards it gives back
==============================  ===================================  ===========================================

Every move's text round-trips without a position, and ``repr`` is the parse call::

    >>> move = parse_move("R7@3")
    >>> move
    parse_move('R7@3')
    >>> str(move), move.card, move.tile
    ('R7@3', Card('R', 7), 3)
    >>> texts = ["retreat 2,5", "oil 4", "joker@1", "control 3", "draw tactic", "done",
    ...          "redeploy spy@2>discard", "treason R3@5>2", "shuffle",
    ...          "exchange R1,R2,spy", "give B4,B5,B6", "support R3,B7", "shuffle 4,17"]
    >>> all(str(parse_move(t)) == t for t in texts)
    True
    >>> parse_move("R7 to 3")
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move 'R7 to 3': expected a move like 'R7@3', 'retreat 2,5', 'oil 4', 'control 3', 'draw' or 'done' (see referee.schotten_totten_2.moves)

Numbers are written in one way only (no leading zeros), so each move has one text:

    >>> parse_move("R7@03")
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move 'R7@03': numbers are written with no leading zeros, like 'R7@3'

Move values check their fields when built:

    >>> PlayCard(Card("R", 7), True)
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move: PlayCard.tile must be a whole number, not True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from referee.cards import Card, InvalidCardError
from referee.errors import InvalidMoveError
from referee.line.moves import CheckedMove
from referee.notation import MAX_MOVE_CHARS as NOTATION_LIMIT
from referee.notation import MoveReader
from referee.schotten_totten_2.wall import AnyCard, TacticCard, parse_card

__all__ = [
    "MAX_MOVE_CHARS",
    "Control",
    "Desertion",
    "Draw",
    "EndTurn",
    "Exchange",
    "ExchangeReply",
    "Explosion",
    "Move",
    "Oil",
    "Pass",
    "PlayCard",
    "Recruitment",
    "Redeploy",
    "Retreat",
    "Shuffle",
    "Support",
    "Treason",
    "parse_move",
]

#: Longest move text read (characters), the records' own limit
#: (``referee.records.MAX_MOVE_CHARS``); longer text is refused before it is
#: parsed, so the parse cache never keeps it. No move the rules allow is longer
#: than 40: ``exchange recruitment,desertion,explosion``.
MAX_MOVE_CHARS = NOTATION_LIMIT

_CARD = r"(?:[A-Z](?:0|[1-9]\d?)|[a-z]+)"
# One text per number: no leading zeros.
_N = r"(?:0|[1-9]\d?)"
_PATTERNS = {
    "play": re.compile(rf"({_CARD})@({_N})"),
    "retreat": re.compile(rf"retreat ({_N}(?:,{_N})*)"),
    "oil": re.compile(rf"oil ({_N})"),
    "control": re.compile(rf"control ({_N})"),
    "redeploy": re.compile(rf"redeploy ({_CARD})@({_N})>({_N}|discard)"),
    "recruitment": re.compile(rf"recruitment ({_CARD})@({_N})"),
    "desertion": re.compile(rf"desertion ({_CARD})@({_N})"),
    "treason": re.compile(rf"treason ({_CARD})@({_N})>({_N})"),
    "explosion": re.compile(rf"explosion ({_N})"),
    "support": re.compile(rf"support ({_CARD}),({_CARD})"),
    "shuffle": re.compile(rf"shuffle(?: ({_N}),({_N}))?"),
    "exchange": re.compile(rf"exchange ({_CARD}),({_CARD}),({_CARD})"),
    "give": re.compile(rf"give ({_CARD}),({_CARD}),({_CARD})"),
}
_OLD_EXCHANGE = re.compile(r"exchange .* for .*")
_LEADING_ZERO = re.compile(r"(?<!\d)0\d")


def _bad(move: object, why: str) -> InvalidMoveError:
    return InvalidMoveError(f"malformed move: {type(move).__name__}.{why}")


def _check_number(move: object, name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(move, f"{name} must be a whole number, not {value!r}")


def _check_card(move: object, name: str, value: object) -> None:
    if isinstance(value, TacticCard):
        return
    if (
        not isinstance(value, Card)
        or not isinstance(value.colour, str)
        or not re.fullmatch("[A-Z]", value.colour)
        or isinstance(value.value, bool)
        or not isinstance(value.value, int)
        or value.value < 0
    ):
        raise _bad(move, f"{name} must be a card (Card or TacticCard), not {value!r}")


def _check_cards(move: object, name: str, value: object, count: int) -> None:
    if not isinstance(value, tuple) or len(value) != count:
        raise _bad(move, f"{name} must be a tuple of {count} cards, not {value!r}")
    for card in value:
        _check_card(move, name, card)


class _Move(CheckedMove):
    """A Schotten Totten 2 move: its cards and tile numbers checked when made."""

    __slots__ = ()

    def _check_card(self, name: str, value: object) -> None:
        _check_card(self, name, value)

    def _check_number(self, name: str, value: object) -> None:
        _check_number(self, name, value)


@dataclass(frozen=True, slots=True, repr=False)
class _CardAt(_Move):
    """A move naming a ``card`` at ``tile``."""

    card: AnyCard
    tile: int


@dataclass(frozen=True, slots=True, repr=False)
class _TileMove(_Move):
    """A move naming a ``tile``."""

    tile: int


@dataclass(frozen=True, slots=True, repr=False)
class PlayCard(_CardAt):
    """Put ``card`` (a siege card or an elite troop) on the mover's side of ``tile``."""

    _TEXT = "{card}@{tile}"


@dataclass(frozen=True, slots=True, repr=False)
class Retreat(_Move):
    """The attacker's opening action: discard all own cards at ``tiles``."""

    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.tiles, tuple) or not self.tiles:
            raise _bad(self, f"tiles must be a non-empty tuple of tile numbers, not {self.tiles!r}")
        for tile in self.tiles:
            _check_number(self, "tiles", tile)
        if len(set(self.tiles)) != len(self.tiles):
            raise _bad(self, f"tiles names a tile twice: {self.tiles!r}")

    def __str__(self) -> str:
        return "retreat " + ",".join(map(str, self.tiles))


@dataclass(frozen=True, slots=True, repr=False)
class Oil(_TileMove):
    """The defender's opening action: a cauldron on the attacker's first card at ``tile``."""

    _TEXT = "oil {tile}"


@dataclass(frozen=True, slots=True, repr=False)
class Control(_TileMove):
    """The attacker declares control of ``tile``."""

    _TEXT = "control {tile}"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(_Move):
    """Play no card this turn (allowed only when no card can be played)."""

    _TEXT = "pass"


@dataclass(frozen=True, slots=True, repr=False)
class Draw(_Move):
    """Draw the top card of the siege deck (or, with tactics, the tactic pile)."""

    pile: Literal["siege", "tactic"] = "siege"

    def __post_init__(self) -> None:
        if self.pile not in ("siege", "tactic"):
            raise _bad(self, f"pile must be 'siege' or 'tactic', not {self.pile!r}")

    def __str__(self) -> str:
        return "draw" if self.pile == "siege" else "draw tactic"


@dataclass(frozen=True, slots=True, repr=False)
class EndTurn(_Move):
    """End the turn without drawing (after a pass, or when nothing can be drawn)."""

    _TEXT = "done"


@dataclass(frozen=True, slots=True, repr=False)
class Redeploy(_Move):
    """Tactic: move the mover's ``card`` from ``source`` to ``target`` (``None``: discard it)."""

    card: AnyCard
    source: int
    target: int | None

    def __str__(self) -> str:
        to = "discard" if self.target is None else str(self.target)
        return f"redeploy {self.card}@{self.source}>{to}"


@dataclass(frozen=True, slots=True, repr=False)
class Recruitment(_CardAt):
    """Tactic: play the discarded siege ``card`` to the mover's side of ``tile``."""

    _TEXT = "recruitment {card}@{tile}"


@dataclass(frozen=True, slots=True, repr=False)
class Desertion(_CardAt):
    """Tactic: discard the opponent's ``card`` at ``tile``."""

    _TEXT = "desertion {card}@{tile}"


@dataclass(frozen=True, slots=True, repr=False)
class Treason(_Move):
    """Tactic: take the opponent's ``card`` at ``source`` onto the mover's side of ``target``."""

    card: AnyCard
    source: int
    target: int
    _TEXT = "treason {card}@{source}>{target}"


@dataclass(frozen=True, slots=True, repr=False)
class Explosion(_TileMove):
    """Tactic: discard every card on both sides of ``tile``."""

    _TEXT = "explosion {tile}"


@dataclass(frozen=True, slots=True, repr=False)
class Support(_Move):
    """Tactic: shuffle two discarded siege cards into the siege deck.

    The next ply is a :class:`Shuffle` saying where they ended up.
    """

    cards: tuple[AnyCard, AnyCard]

    def __post_init__(self) -> None:
        _check_cards(self, "cards", self.cards, 2)

    def __str__(self) -> str:
        return f"support {self.cards[0]},{self.cards[1]}"


@dataclass(frozen=True, slots=True, repr=False)
class Shuffle(_Move):
    """Where the two support cards lie in the deck afterwards (1 = top), in the
    order the support named them; ``None`` when unknown (public records only).
    """

    positions: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.positions is None:
            return
        if not isinstance(self.positions, tuple) or len(self.positions) != 2:
            raise _bad(self, f"positions must be None or 2 places, not {self.positions!r}")
        for place in self.positions:
            _check_number(self, "positions", place)
        if self.positions[0] == self.positions[1]:
            raise _bad(self, "positions: the two cards cannot lie at the same place")

    def __str__(self) -> str:
        if self.positions is None:
            return "shuffle"
        return f"shuffle {self.positions[0]},{self.positions[1]}"


@dataclass(frozen=True, slots=True, repr=False)
class Exchange(_Move):
    """Tactic: the mover offers ``give`` (3 cards of its hand) in exchange.

    The opponent's choice is its own ply, an :class:`ExchangeReply`; then the
    hands swap the two sets of three and the mover draws.
    """

    give: tuple[AnyCard, AnyCard, AnyCard]

    def __post_init__(self) -> None:
        _check_cards(self, "give", self.give, 3)

    def __str__(self) -> str:
        return f"exchange {','.join(map(str, self.give))}"


@dataclass(frozen=True, slots=True, repr=False)
class ExchangeReply(_Move):
    """The opponent's half of an exchange: the 3 cards of its hand it gives."""

    give: tuple[AnyCard, AnyCard, AnyCard]

    def __post_init__(self) -> None:
        _check_cards(self, "give", self.give, 3)

    def __str__(self) -> str:
        return f"give {','.join(map(str, self.give))}"


#: Any Schotten Totten 2 move.
Move = (
    PlayCard
    | Retreat
    | Oil
    | Control
    | Pass
    | Draw
    | EndTurn
    | Redeploy
    | Recruitment
    | Desertion
    | Treason
    | Explosion
    | Support
    | Shuffle
    | Exchange
    | ExchangeReply
)

_WORDS: dict[str, Move] = {
    "pass": Pass(),
    "draw": Draw(),
    "draw tactic": Draw("tactic"),
    "done": EndTurn(),
    "shuffle": Shuffle(),
}


def parse_move(text: str) -> Move:
    """Read a move from its text notation (no position needed).

    Only the shape is checked here: whether a card exists, a tile is on the
    wall and the move is legal is the position's business.

    >>> parse_move("retreat 5,5")
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move 'retreat 5,5': a tile is named twice

    Text longer than :data:`MAX_MOVE_CHARS` is refused unread (and never cached):

    >>> parse_move("retreat " + ",".join(map(str, range(99))))
    Traceback (most recent call last):
    ...
    referee.errors.InvalidMoveError: malformed move 'retreat 0,1,2,3,4,5,6,7,8,9,10,11,12,13,'... (294 characters): a move is at most 100 characters
    """
    return _READ(text)


def _parse_text(text: str) -> Move:
    word = _WORDS.get(text)
    if word is not None:
        return word
    head = text.split(" ", 1)[0] if " " in text else "play"
    pattern = _PATTERNS.get(head)
    match = None if pattern is None else pattern.fullmatch(text)
    if match is None and _OLD_EXCHANGE.fullmatch(text):
        raise InvalidMoveError(
            f"malformed move {text!r}: each player chooses its own 3 cards: write "
            "'exchange R1,R2,spy' and then the opponent's own ply 'give B4,B5,B6'"
        )
    if match is None and _LEADING_ZERO.search(text):
        raise InvalidMoveError(
            f"malformed move {text!r}: numbers are written with no leading zeros, like 'R7@3'"
        )
    if match is None:
        raise InvalidMoveError(
            f"malformed move {text!r}: expected a move like 'R7@3', 'retreat 2,5', 'oil 4', "
            "'control 3', 'draw' or 'done' (see referee.schotten_totten_2.moves)"
        )
    try:
        return _build(head, match.groups(), text)
    except (InvalidCardError, ValueError) as error:
        if isinstance(error, InvalidMoveError):
            raise
        raise InvalidMoveError(f"malformed move {text!r}: {error}") from None


def _build(head: str, groups: tuple[str | None, ...], text: str) -> Move:
    g = [x or "" for x in groups]
    if head == "play":
        return PlayCard(parse_card(g[0]), int(g[1]))
    if head == "retreat":
        tiles = tuple(int(n) for n in g[0].split(","))
        if len(set(tiles)) != len(tiles):
            raise ValueError("a tile is named twice")
        return Retreat(tiles)
    if head == "oil":
        return Oil(int(g[0]))
    if head == "control":
        return Control(int(g[0]))
    if head == "explosion":
        return Explosion(int(g[0]))
    if head == "redeploy":
        return Redeploy(parse_card(g[0]), int(g[1]), None if g[2] == "discard" else int(g[2]))
    if head == "recruitment":
        return Recruitment(parse_card(g[0]), int(g[1]))
    if head == "desertion":
        return Desertion(parse_card(g[0]), int(g[1]))
    if head == "treason":
        return Treason(parse_card(g[0]), int(g[1]), int(g[2]))
    if head == "support":
        return Support((parse_card(g[0]), parse_card(g[1])))
    if head == "shuffle":
        first, second = int(g[0]), int(g[1])
        if first == second:
            raise ValueError("the two cards cannot lie at the same place")
        return Shuffle((first, second))
    cards = [parse_card(x) for x in g]
    trio = (cards[0], cards[1], cards[2])
    if head == "give":
        return ExchangeReply(trio)
    assert head == "exchange"
    return Exchange(trio)


#: The game's reader: bounded, remembering what it read (:mod:`referee.notation`).
_READ: MoveReader[Move] = MoveReader(_parse_text, example="R7@3")
