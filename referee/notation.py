"""Reading moves from text, the same way in every game: bounded, and remembered.

Each game writes its own notation (:mod:`referee.schotten_totten.moves`, ...);
what every game's reader does the same is here: text that is not a string, or
longer than :data:`MAX_MOVE_CHARS`, is refused before the notation is read
(so an untrusted bot's megabyte of text costs nothing), and a bounded memo
remembers the moves read so far by their text (moves are immutable values,
so a replay of many records shares them).

>>> from referee.errors import InvalidMoveError
>>> read = MoveReader(lambda text: text.upper(), example="R7@3")
>>> read("r7@3")
'R7@3'
>>> read("r" * 101)
Traceback (most recent call last):
...
referee.errors.InvalidMoveError: malformed move 'rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr'... (101 characters): a move is at most 100 characters
>>> read(7)
Traceback (most recent call last):
...
referee.errors.InvalidMoveError: malformed move 7: a move is text, like 'R7@3'
"""

from __future__ import annotations

from collections.abc import Callable, KeysView
from typing import Generic, TypeVar

from referee.errors import InvalidMoveError

__all__ = ["MAX_MOVE_CHARS", "REMEMBERED", "MoveReader"]

#: Longest move text read in any game (characters), the records' own limit
#: (``referee.records.MAX_MOVE_CHARS``). No move any game allows comes near it.
MAX_MOVE_CHARS = 100
#: Texts a reader remembers before it starts afresh.
REMEMBERED = 4096

MoveT = TypeVar("MoveT")


class MoveReader(Generic[MoveT]):
    """A game's move reader: ``reader(text)`` is the move ``parse(text)`` reads.

    ``parse`` reads one text of at most :data:`MAX_MOVE_CHARS` characters (and
    raises :class:`~referee.errors.InvalidMoveError` for what it cannot read);
    ``example`` is a move of the game, quoted when something that is not text
    is given. What was read is remembered by its text, at most
    :data:`REMEMBERED` texts (the memo starts afresh when full), never a text
    that was refused.
    """

    __slots__ = ("_example", "_parse", "_read")

    def __init__(self, parse: Callable[[str], MoveT], *, example: str) -> None:
        self._parse = parse
        self._example = example
        self._read: dict[str, MoveT] = {}

    @property
    def texts(self) -> KeysView[str]:
        """The texts remembered now (a live view)."""
        return self._read.keys()

    def forget(self) -> None:
        """Forget every text read."""
        self._read.clear()

    def __call__(self, text: str) -> MoveT:
        try:
            return self._read[text]
        except (KeyError, TypeError):  # not read yet, or not even text
            pass
        if not isinstance(text, str):
            raise InvalidMoveError(
                f"malformed move {text!r}: a move is text, like {self._example!r}"
            )
        if len(text) > MAX_MOVE_CHARS:
            raise InvalidMoveError(
                f"malformed move {text[:40]!r}... ({len(text)} characters): "
                f"a move is at most {MAX_MOVE_CHARS} characters"
            )
        move = self._parse(text)
        if type(text) is str:  # a str subclass may compare equal yet print otherwise
            if len(self._read) >= REMEMBERED:
                self._read.clear()
            self._read[text] = move
        return move
