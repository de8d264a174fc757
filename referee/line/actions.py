"""Numbered moves of games on a line (see :mod:`referee.actions`): what
every game's action space builds the same way (its observation's layout, the
start of an observation, who completed a place first), and the whole space of
a plain game (:class:`PlaceActions`): card ``c`` (its id in the game's
:class:`~referee.line.cards.CardIndex`) to place ``p`` (from 0) is
``c * places + p``, then one claim per place, then the pass; its observation
says where each card is as its player sees it, who holds each place and how
many cards the pile still has.

>>> from referee.cards import CardSet
>>> from referee.line.cards import CardIndex
>>> from referee.line.moves import Claim, Play
>>> cards = CardSet("RB", ("red", "blue"), range(1, 6))
>>> actions = PlaceActions("Game", CardIndex(cards), 3, ())
>>> actions.num_actions, actions.action_of(Play(cards.parse("R2"), 3)), actions.move_of(31)
(34, 5, parse_move('claim 2'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.actions import MoveSpace, observer_index
from referee.line.cards import CardIndex
from referee.line.moves import Claim, Pass, PlainMove, Play

__all__ = ["PlaceActions", "first_complete", "laid_out", "observed"]


def laid_out(blocks: Sequence[tuple[str, int]]) -> tuple[tuple[str, int, int], ...]:
    """An observation's layout: its ``blocks`` (name, length) one after the
    other, as ``(name, start, length)``.

    >>> laid_out([("hand", 3), ("pile", 1)])
    (('hand', 0, 3), ('pile', 3, 1))
    """
    layout, start = [], 0
    for name, length in blocks:
        layout.append((name, start, length))
        start += length
    return tuple(layout)


def observed(
    space: MoveSpace, state: Any, player: object, kind_of: Mapping[Any, int]
) -> tuple[Any, int, int, list[int]]:
    """The start of ``player``'s observation of ``state`` in ``space``: its view
    (an observation holds nothing else), the player as an index, the
    opponent, and the observation's numbers with the player's hand counted
    by kind (``kind_of``) from 0."""
    space.check(state)
    me = observer_index(player, 2)
    view = state.view(me)
    out = [0] * space.observation_size
    for card in view.hands[me] or ():
        out[kind_of[card]] += 1
    return view, me, 1 - me, out


def first_complete(completed: Sequence[int | None], player: int) -> tuple[int, int]:
    """Whether ``player``'s side, and whether the other side, was completed
    first (``completed``: each side's completion ply, ``None`` while open).

    >>> first_complete((4, None), 0), first_complete((4, 2), 0), first_complete((3, 3), 1)
    ((1, 0), (0, 1), (0, 0))
    """
    mine, theirs = completed[player], completed[1 - player]
    if mine is not None and (theirs is None or mine < theirs):
        return 1, 0
    if theirs is not None and (mine is None or theirs < mine):
        return 0, 1
    return 0, 0


class PlaceActions(MoveSpace):
    """The action ids of :mod:`referee.line.moves`' plain moves at ``places``
    places; the observation: each card (0 unseen, 1 in the player's hand,
    ``2 + 2p`` on its own side of place ``p``, ``3 + 2p`` on the other), each
    place's owner (0 none, 1 the player, 2 the other), the pile's size. The
    state's places are its attribute ``field``."""

    def __init__(
        self,
        game: str,
        index: CardIndex,
        places: int,
        state_types: tuple[type, ...],
        field: str = "stones",
    ) -> None:
        self.game, self.index, self.places, self.state_types = game, index, places, state_types
        self.field = field
        count = len(index.cards)
        #: the first claim's id, and the pass's
        self.claim = count * places
        self.pass_ = self.claim + places
        self.num_actions = self.pass_ + 1
        self.observation_size = count + places + 1
        self.observation_layout = (
            ("cards", 0, count),
            ("owners", count, places),
            ("pile", count + places, 1),
        )

    def action_of(self, move: Any) -> int:
        if type(move) is Play:
            return self.index.ids[move.card] * self.places + move.place - 1
        return self.claim + move.place - 1 if type(move) is Claim else self.pass_

    def move_of(self, action: int) -> PlainMove:
        if type(action) is not int or not 0 <= action <= self.pass_:
            raise ValueError(f"no action {action!r}: ids are 0-{self.pass_}")
        if action < self.claim:
            return Play(self.index.cards[action // self.places], action % self.places + 1)
        return Claim(action - self.claim + 1) if action < self.pass_ else Pass()

    def observation(self, state: Any, player: int) -> tuple[int, ...]:
        """What ``player`` sees of ``state``, as numbers."""
        self.check(state)
        ids = self.index.ids
        where = [0] * len(self.index.cards)
        for card in state.hands[player] or ():
            where[ids[card]] = 1
        places = getattr(state, self.field)
        for p, place in enumerate(places):
            for side, cards in enumerate(place.sides):
                for card in cards:
                    where[ids[card]] = 2 + 2 * p + (side != player)
        owners = [0 if s.owner is None else 1 + (s.owner != player) for s in places]
        return (*where, *owners, state.deck_size)
