"""A contested place (a stone, a wall tile): both sides' cards in play order,
the ply at which each side became complete, and what was last proved there.

A game's place is a frozen, slotted dataclass that subclasses :class:`Place`
and says its formation rule; the kernel derives the rest when it is made:
``masks`` (each side's plain cards as a bit mask, see
:mod:`referee.line.cards`), ``size`` (the cards of a complete side) and
``kept`` (the verdicts last proved there, see
:class:`~referee.line.claims.Kept`). None of them takes part in equality,
``repr`` or pickles. Sides change through :meth:`Place.with_card` and
:meth:`Place.without_card`, which keep the completion plies as the rules say:
a side that becomes complete is stamped with the ply, an incomplete side has
none, an unchanged side keeps its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from referee.formations import FormationRule
from referee.line.cards import CardIndex
from referee.line.claims import Kept

__all__ = ["Place", "slot_writer"]


@dataclass(frozen=True, slots=True)
class Place:
    """A contested place: both sides' cards in play order and when each became
    complete (``None`` while incomplete). A game subclasses it, sets
    ``_INDEX`` (its :class:`~referee.line.cards.CardIndex`) and defines
    :attr:`rule` and :meth:`_remade`."""

    sides: tuple[tuple[Any, ...], ...] = ((), ())
    completed: tuple[int | None, ...] = (None, None)
    #: each side's plain cards as a mask (derived)
    masks: tuple[int, int] = field(default=(0, 0), init=False, compare=False, repr=False)
    #: the cards a complete side holds here (derived from :attr:`rule`)
    size: int = field(default=0, init=False, compare=False, repr=False)
    #: the verdicts last proved here (see :class:`~referee.line.claims.Kept`)
    kept: Kept = field(default_factory=Kept, init=False, compare=False, repr=False)

    _INDEX: ClassVar[CardIndex]

    def __post_init__(self) -> None:
        ids = self._INDEX.ids
        masks = []
        for side in self.sides:
            mask = 0
            for card in side:
                at = ids.get(card)
                if at is not None:
                    mask |= 1 << at
            masks.append(mask)
        # The one place where a made place's derived fields are written.
        _MASKS(self, (masks[0], masks[1]) if len(masks) == 2 else (0, 0))
        _SIZE(self, self.rule.size)

    @property
    def rule(self) -> FormationRule:
        """How formations form and compare here."""
        raise NotImplementedError

    def _remade(
        self,
        sides: tuple[tuple[Any, ...], ...],
        completed: tuple[int | None, ...],
        masks: tuple[int, int],
    ) -> Self:
        """This place with its sides, completion plies and masks replaced (the
        game's constructor helper: nothing checked, the rules made them)."""
        raise NotImplementedError

    def room(self, player: int) -> bool:
        """Whether ``player`` may still add a card here."""
        return len(self.sides[player]) < self.size

    def complete(self, player: int) -> bool:
        """Whether ``player``'s formation here is complete."""
        return len(self.sides[player]) == self.size

    def with_card(self, player: int, card: Any, ply: int, at: int | None = -1) -> Self:
        """This place with ``card`` added last to ``player``'s side at ``ply``
        (``at``: the card's id if the caller knows it, ``None`` for a card of
        no id, such as a tactic card)."""
        if at is not None and at < 0:
            at = self._INDEX.ids.get(card)
        bit = 0 if at is None else 1 << at
        side = (*self.sides[player], card)
        done = ply if len(side) == self.size else None
        masks, sides, completed = self.masks, self.sides, self.completed
        if player == 0:
            return self._remade((side, sides[1]), (done, completed[1]), (masks[0] | bit, masks[1]))
        return self._remade((sides[0], side), (completed[0], done), (masks[0], masks[1] | bit))

    def without_card(self, player: int, card: Any, ply: int) -> Self:
        """This place with the first ``card`` taken off ``player``'s side at ``ply``."""
        kept = list(self.sides[player])
        kept.remove(card)
        side = tuple(kept)
        at = self._INDEX.ids.get(card)
        bit = 0 if at is None else 1 << at
        done = ply if len(side) == self.size else None
        masks, sides, completed = self.masks, self.sides, self.completed
        if player == 0:
            return self._remade((side, sides[1]), (done, completed[1]), (masks[0] & ~bit, masks[1]))
        return self._remade((sides[0], side), (completed[0], done), (masks[0], masks[1] & ~bit))


def slot_writer(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The writer of the slot ``name`` of a frozen, slotted dataclass ``cls``:
    what a game's one documented constructor helper uses to fill a new
    instance (the frozen class refuses plain assignment).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int = 0
    >>> point = object.__new__(Point)
    >>> slot_writer(Point, "x")(point, 3)
    >>> point
    Point(x=3)
    """
    for klass in cls.__mro__:
        slot = klass.__dict__.get(name)
        if slot is not None:
            writer: Callable[[Any, Any], None] = slot.__set__
            return writer
    raise TypeError(f"{cls.__name__} has no slot {name!r}")


_MASKS = slot_writer(Place, "masks")
_SIZE = slot_writer(Place, "size")
