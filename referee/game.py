"""What every game in the library has in common: outcomes and the state protocol.

Games are immutable states: :meth:`GameState.play` returns the next state and
leaves the old one untouched, so a refused move can never half-change a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Self, TypeVar, runtime_checkable

__all__ = ["GameState", "MoveText", "Outcome"]

MoveT = TypeVar("MoveT")


class MoveText:
    """Base of move values whose ``repr`` is the parse call, like python-chess.

    A move class defines ``__str__`` (its notation); ``repr(move)`` is then
    ``parse_move('...')``, which reads the same move back.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is the winning player's index (``None`` for a shared result);
    ``reason`` a stable code such as ``"three_adjacent"``; ``scores`` the final
    scores where the game keeps score.

        >>> Outcome(0, "five_stones")
        Outcome(winner=0, reason='five_stones', scores=None)
    """

    winner: int | None
    reason: str
    scores: tuple[int, ...] | None = None


@runtime_checkable
class GameState(Protocol[MoveT]):
    """The protocol every game's state follows (used by records and conformance)."""

    @property
    def to_move(self) -> int:
        """Index of the player whose decision it is."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""
        ...

    def legal_moves(self) -> list[MoveT]:
        """Every legal move for the player to move (empty once the game is over)."""
        ...

    def parse_move(self, text: str) -> MoveT:
        """Read a move in the game's notation (raises ``InvalidMoveError``)."""
        ...

    def play(self, move: MoveT | str) -> Self:
        """The state after ``move`` (raises ``IllegalMoveError`` if refused)."""
        ...
