"""The errors the library raises for bad input: all are ``ValueError`` subclasses.

Every refusal of a move carries a stable machine-readable ``reason`` code (for
programs) and a message that quotes the move and names the broken rule (for
people)::

    >>> error = IllegalMoveError("side_full", "illegal move 'R7@3': your side of stone 3 is full")
    >>> error.reason, str(error)
    ('side_full', "illegal move 'R7@3': your side of stone 3 is full")
    >>> isinstance(error, ValueError)
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.prover import ClaimVerdict

__all__ = [
    "ClaimRefusedError",
    "IllegalMoveError",
    "InvalidDealError",
    "InvalidMoveError",
    "RefereeError",
]


class RefereeError(ValueError):
    """Base class: input the referee refuses. ``reason`` is a stable code."""

    reason: str = "refused"

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class InvalidMoveError(RefereeError):
    """Move text that cannot be read at all (reason ``malformed_move``)."""

    def __init__(self, message: str) -> None:
        super().__init__("malformed_move", message)


class InvalidDealError(RefereeError):
    """A deal the referee cannot set up, in every game: a seed that is not an
    integer, a bad deck order, player count or table layout. ``reason`` names
    what is wrong: ``field_type`` (a value of the wrong kind, such as a seed that
    is not an integer), ``field_missing``, ``field_unknown``, ``not_a_permutation``,
    ``players`` or ``layout``; the message quotes the bad input.

        >>> InvalidDealError("field_type", "seed must be a whole number or None, not 1.0").reason
        'field_type'
    """


class IllegalMoveError(RefereeError):
    """A well-formed move that the rules do not allow in this position."""


class ClaimRefusedError(IllegalMoveError):
    """A claim the prover could not establish; ``verdict`` holds the evidence.

    ``verdict.witness`` is the opponent's beating completion when there is one.
    """

    def __init__(self, reason: str, message: str, verdict: ClaimVerdict | None) -> None:
        super().__init__(reason, message)
        self.verdict = verdict
