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

import operator
from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from referee.game import Outcome

__all__ = [
    "ActionSpace",
    "MoveSpace",
    "action_index",
    "check_game",
    "legal_actions",
    "mask_of",
    "observer_index",
    "rewards_of",
]


@runtime_checkable
class ActionSpace(Protocol):
    """What a game's action space offers (states and moves typed as the game's own).

    ``action_of(move)`` raises ``ValueError`` for a move with no id (one that
    names hidden cards, say); ``move_of(id)`` raises ``ValueError`` for an id out
    of range. ``move_of(action_of(m))`` is ``m`` or, for moves whose order of
    parts carries no information, its canonical form; ``action_of(move_of(i))``
    is always ``i``.

    Every method that takes a state refuses a state or view of another game (or
    anything else that is not its own game's) with one ``TypeError``, the same
    in every game: ``the <game> action space takes a <game> state or view, not
    <the type given>`` (see :func:`check_game`).
    """

    #: How many action ids there are.
    num_actions: int
    #: Length of :meth:`observation`'s tuple.
    observation_size: int
    #: The observation's blocks, in order: ``(name, start, length)``.
    observation_layout: tuple[tuple[str, int, int], ...]

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

    def rewards(self, state: Any) -> tuple[float, ...]:
        """Each player's reward: +1 to every winner and -1 to every other player
        once the game is over with a winner, all 0 before the end and for a game
        without one (a blocked game); see :func:`rewards_of`."""
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


def action_index(action: object, num_actions: int) -> int:
    """``action`` as an id of a space of ``num_actions`` ids, or ``ValueError``.

    Any integer is taken, numpy's too (``np.int64``, as ``np.flatnonzero(mask)``
    gives them); ``bool``, floats, strings and ``None`` are not ids.

    >>> action_index(3, 10)
    3
    >>> action_index(True, 10)
    Traceback (most recent call last):
    ...
    ValueError: no action True: ids are whole numbers 0-9
    >>> action_index(2.0, 10)
    Traceback (most recent call last):
    ...
    ValueError: no action 2.0: ids are whole numbers 0-9
    """
    if not isinstance(action, bool):
        try:
            index = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if 0 <= index < num_actions:
                return index
    raise ValueError(f"no action {action!r}: ids are whole numbers 0-{num_actions - 1}")


def observer_index(player: object, players: int) -> int:
    """``player`` as the index of an observing player, or ``ValueError`` (an
    observation is always some player's: a spectator has none).

    >>> observer_index(1, 2)
    1
    >>> observer_index(None, 2)
    Traceback (most recent call last):
    ...
    ValueError: no player None: an observation is a player's, 0-1
    """
    if not isinstance(player, bool):
        try:
            index = operator.index(player)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if 0 <= index < players:
                return index
    raise ValueError(f"no player {player!r}: an observation is a player's, 0-{players - 1}")


def check_game(state: object, kinds: tuple[type, ...], game: str) -> None:
    """Refuse ``state`` unless it is one of ``kinds`` (a game's state and view
    classes), with the ``TypeError`` every action space gives for a state of
    another game.

    >>> from referee.schotten_totten.actions import ACTIONS
    >>> from referee.schotten_totten_2 import new_game
    >>> ACTIONS.observation(new_game(seed=1), 0)
    Traceback (most recent call last):
    ...
    TypeError: the Schotten Totten action space takes a Schotten Totten state or view, not referee.schotten_totten_2.state.State
    """
    if not isinstance(state, kinds):
        kind = type(state)
        name = kind.__qualname__
        if kind.__module__ != "builtins":
            name = f"{kind.__module__}.{name}"
        raise TypeError(f"the {game} action space takes a {game} state or view, not {name}")


def rewards_of(
    outcome: Outcome | None, players: int, winners: Iterable[int] = ()
) -> tuple[float, ...]:
    """Each player's reward for ``outcome``: +1 to each winner (``outcome.winners``,
    or ``winners`` when it names none), -1 to each other player; all 0 while the game
    goes on or when nobody won. An end by the referee without a winner (a
    resignation with three or more players) gives its loser -1 and the others 0.

    >>> from referee.game import Outcome, Termination
    >>> rewards_of(Outcome(Termination.THREE_ADJACENT, 1), 2)
    (-1.0, 1.0)
    >>> rewards_of(Outcome(Termination.MOST_POINTS, None), 3, winners=(0, 2))
    (1.0, -1.0, 1.0)
    >>> rewards_of(Outcome(Termination.SHARED, None, winners=(1, 2)), 3)
    (-1.0, 1.0, 1.0)
    >>> rewards_of(None, 2), rewards_of(Outcome(Termination.BLOCKED, None), 2)
    ((0.0, 0.0), (0.0, 0.0))
    """
    if outcome is None:
        return (0.0,) * players
    won = set(outcome.winners or winners)
    if won:
        return tuple(1.0 if p in won else -1.0 for p in range(players))
    if outcome.loser is not None:
        return tuple(-1.0 if p == outcome.loser else 0.0 for p in range(players))
    return (0.0,) * players


class MoveSpace:
    """What an action space built on a game's moves shares, whatever the game:
    :meth:`play`, :meth:`rewards` and :meth:`legal_action_mask` from the
    subclass's ``action_of``, ``move_of`` and the state's protocol members
    (``generate_legal_moves``, ``outcome``, ``num_players``, ``hands`` and
    ``to_move``). A subclass sets ``num_actions``, ``observation_size``,
    ``observation_layout``, its ``game`` title and ``state_types`` (the classes
    of its states and views: any other is refused, see :func:`check_game`) and
    writes the game's own numbering.
    """

    num_actions: int
    observation_size: int
    observation_layout: tuple[tuple[str, int, int], ...]
    #: The game's title, as error messages name it.
    game: str
    #: The classes of the game's states and views.
    state_types: tuple[type, ...]

    def check(self, state: object) -> None:
        """Refuse a state or view of another game (``TypeError``, see :func:`check_game`)."""
        check_game(state, self.state_types, self.game)

    def action_of(self, move: Any) -> int:
        raise NotImplementedError

    def move_of(self, action: int) -> Any:
        raise NotImplementedError

    def play(self, state: Any, action: int) -> Any:
        """The state after the move with id ``action``."""
        self.check(state)
        return state.play(self.move_of(action))

    def rewards(self, state: Any) -> tuple[float, ...]:
        """+1 to the winner and -1 to the others once the game is over; all 0
        before and for a game without a winner (see :func:`rewards_of`)."""
        self.check(state)
        return rewards_of(state.outcome, state.num_players)

    def mover_decides(self, state: Any) -> bool:
        """Whether the mover's moves can be told from ``state``: its hand is
        known (a view of another player, or a spectator's, hides it)."""
        return state.hands[state.to_move] is not None

    def legal_action_mask(self, state: Any) -> bytes:
        """One byte per id: 1 where the player to move may play it; all 0 once
        the game is over and where :meth:`mover_decides` says the mover's moves
        are hidden (``legal_moves()`` of such a state lists what any hand could
        play)."""
        self.check(state)
        mask = bytearray(self.num_actions)
        if not self.mover_decides(state):
            return bytes(mask)
        for move in state.generate_legal_moves():
            mask[self.action_of(move)] = 1
        return bytes(mask)
