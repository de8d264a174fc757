"""Moves every game on a line writes the same way: a card put at a place, a
claim, a pass; and what their values check when they are made
(:class:`CheckedMove`, the base of a game's move classes).

The three moves of a plain game (one without tactic cards) are
:class:`Play` (``R3@2``), :class:`Claim` (``claim 2``) and :class:`Pass`
(``pass``); :func:`plain_reader` reads them for a game's cards. Places are
numbered from 1, written without leading zeros.

>>> from referee.cards import CardSet
>>> read = plain_reader(CardSet("RB", ("red", "blue"), range(1, 6)))
>>> read("R3@2"), read("claim 2").place, str(read("pass"))
(parse_move('R3@2'), 2, 'pass')
>>> read("R3@02")
Traceback (most recent call last):
...
referee.errors.InvalidMoveError: malformed move 'R3@02': write a move like R3@2, claim 2 or pass
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from operator import attrgetter
from string import Formatter
from typing import Any, ClassVar

from referee.cards import Card, CardSet, InvalidCardError
from referee.errors import InvalidMoveError
from referee.game import MoveText
from referee.notation import MoveReader

__all__ = ["CheckedMove", "Claim", "Pass", "PlainMove", "Play", "plain_reader"]

#: What a field of a move holds, read from its annotation: a card, a place
#: number, a place number or ``None``.
_KINDS = {"AnyCard": "card", "int": "number", "int | None": "number or None"}


class CheckedMove(MoveText):
    """The base of a game's move values (frozen, slotted dataclasses): each
    field is checked when the move is made, by its annotation: an ``AnyCard``
    by the game's :meth:`_check_card`, an ``int`` (or ``int | None``, when not
    ``None``) that is not of type ``int`` by its :meth:`_check_number`; a
    field of another type is the
    class's own ``__post_init__``'s business. A class whose text is its
    fields in a pattern sets ``_TEXT`` (``"banshee {card}@{stone}"``).

    >>> from dataclasses import dataclass
    >>> class Checked(CheckedMove):
    ...     __slots__ = ()
    ...     def _check_number(self, name: str, value: object) -> None:
    ...         if type(value) is not int:
    ...             raise ValueError(f"{name} is not a number")
    >>> @dataclass(frozen=True, slots=True, repr=False)
    ... class Explode(Checked):
    ...     place: int
    ...     _TEXT = "explode {place}"
    >>> Explode(3), Explode("3")
    Traceback (most recent call last):
    ...
    ValueError: place is not a number
    >>> str(Explode(3))
    'explode 3'
    """

    __slots__ = ()
    #: each checked field and what it holds (from the annotations)
    _CHECKED: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: the move's text as a pattern of its fields
    _TEXT: ClassVar[str] = ""
    #: the pattern with its fields in order (``_FORMAT``), read by ``_VALUES``
    _FORMAT: ClassVar[str] = ""
    _VALUES: ClassVar[attrgetter[Any] | None] = None
    _ONE: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        notes = inspect.get_annotations(cls)
        checked = tuple((name, _KINDS[kind]) for name, kind in notes.items() if kind in _KINDS)
        if checked:
            cls._CHECKED = checked
        text = cls.__dict__.get("_TEXT")
        if text is not None:
            parts = list(Formatter().parse(text))
            names = [name for _, name, _, _ in parts if name]
            cls._FORMAT = "".join(
                literal.replace("{", "{{").replace("}", "}}") + ("{}" if name else "")
                for literal, name, _, _ in parts
            )
            cls._VALUES = attrgetter(*names) if names else None
            cls._ONE = len(names) == 1

    def __post_init__(self) -> None:
        for name, kind in self._CHECKED:
            value = getattr(self, name)
            if kind == "card":
                self._check_card(name, value)
            elif type(value) is not int and (value is not None or kind == "number"):
                # an int is a place number in every game; the game judges the rest
                self._check_number(name, value)

    def _check_card(self, name: str, value: object) -> None:
        """Refuse a ``value`` that is not one of the game's cards."""

    def _check_number(self, name: str, value: object) -> None:
        """Refuse a ``value`` that is not a place number."""

    def __str__(self) -> str:
        values = self._VALUES
        if values is None:
            return self._FORMAT
        if self._ONE:
            return self._FORMAT.format(values(self))
        return self._FORMAT.format(*values(self))


@dataclass(frozen=True, slots=True, repr=False)
class Play(MoveText):
    """Put ``card`` on the mover's side of ``place`` (from 1)."""

    card: Card
    place: int

    def __str__(self) -> str:
        return f"{self.card}@{self.place}"


@dataclass(frozen=True, slots=True, repr=False)
class Claim(MoveText):
    """Claim ``place`` (from 1)."""

    place: int

    def __str__(self) -> str:
        return f"claim {self.place}"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(MoveText):
    """Play no card (when none can be played)."""

    def __str__(self) -> str:
        return "pass"


#: A move of a plain game.
PlainMove = Play | Claim | Pass

_PLAIN = re.compile(r"([A-Z][0-9]+)@([1-9][0-9]?)|claim ([1-9][0-9]?)|pass")


def plain_reader(cards: CardSet) -> MoveReader[PlainMove]:
    """The move reader of a plain game of ``cards`` (bounded and remembering,
    see :class:`referee.notation.MoveReader`)."""

    def parse(text: str) -> PlainMove:
        found = _PLAIN.fullmatch(text)
        if found is None:
            raise InvalidMoveError(
                f"malformed move {text!r}: write a move like R3@2, claim 2 or pass"
            )
        card, place, claimed = found.groups()
        if claimed is not None:
            return Claim(int(claimed))
        if place is None:
            return Pass()
        try:
            return Play(cards.parse(card), int(place))
        except InvalidCardError as error:
            raise InvalidMoveError(f"malformed move {text!r}: {error}") from None

    return MoveReader(parse, example="R3@2")
