"""Action spaces: numbered moves for programs that learn or search.

A game's action space numbers its moves ``0 .. num_actions - 1`` once and for
all (the same ids in every position, like pgx and OpenSpiel), maps each id to a
move and back, marks the legal ids of a position, and encodes what a player
sees as a flat tuple of small non-negative integers. This module knows no game:
each game provides an object with this shape (see
:mod:`referee.schotten_totten.actions`), and the optional environments
(``referee[env]``) wrap it without numpy ever entering the core.

    >>> from referee.schotten_totten.actions import ACTIONS
    >>> from referee.schotten_totten import new_game
    >>> isinstance(ACTIONS, ActionSpace)
    True
    >>> game = new_game(seed=1)
    >>> ids = legal_actions(ACTIONS, game)
    >>> sorted(str(ACTIONS.move_of(i)) for i in ids) == sorted(str(m) for m in game.legal_moves())
    True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

__all__ = ["ActionSpace", "legal_actions", "mask_of"]


@runtime_checkable
class ActionSpace(Protocol):
    """What a game's action space offers (states and moves typed as the game's own).

    ``action_of(move)`` raises ``ValueError`` for a move with no id (one that
    names hidden cards, say); ``move_of(id)`` raises ``ValueError`` for an id out
    of range. ``move_of(action_of(m))`` is ``m`` or, for moves whose order of
    parts carries no information, its canonical form; ``action_of(move_of(i))``
    is always ``i``.
    """

    #: How many action ids there are.
    num_actions: int
    #: Length of :meth:`observation`'s tuple.
    observation_size: int

    def action_of(self, move: Any) -> int:
        """The id of ``move``."""
        ...

    def move_of(self, action: int) -> Any:
        """The move with id ``action``."""
        ...

    def play(self, state: Any, action: int) -> Any:
        """The state after the move with id ``action`` (a chance ply's id plays
        what the state's deal gives)."""
        ...

    def legal_action_mask(self, state: Any) -> bytes:
        """One byte per id: 1 where the player to move may play it, else 0."""
        ...

    def observation(self, state: Any, player: int) -> tuple[int, ...]:
        """What ``player`` sees of ``state``, encoded (nothing it may not see)."""
        ...


def mask_of(space: ActionSpace, moves: Iterable[Any]) -> bytes:
    """The mask with a 1 at the id of each move in ``moves``.

    >>> from referee.schotten_totten.actions import ACTIONS
    >>> from referee.schotten_totten import parse_move
    >>> mask = mask_of(ACTIONS, [parse_move("pass")])
    >>> len(mask) == ACTIONS.num_actions, sum(mask)
    (True, 1)
    """
    mask = bytearray(space.num_actions)
    for move in moves:
        mask[space.action_of(move)] = 1
    return bytes(mask)


def legal_actions(space: ActionSpace, state: Any) -> list[int]:
    """The legal ids of ``state``, in increasing order."""
    mask = space.legal_action_mask(state)
    ids = []
    at = mask.find(1)  # a search in C: spaces may hold 100,000 ids and few legal ones
    while at >= 0:
        ids.append(at)
        at = mask.find(1, at + 1)
    return ids
