"""What Schotten Totten 2 still uses until it moves onto the kernel (issue #24).

Everything here is **used by Schotten Totten 2 until it moves onto the kernel**
and goes away then: a copier generated for a frozen, slotted dataclass
(:func:`copier`), bounded memos (:func:`remember`) and the scaffolding of a
state copied through them (:class:`LegacyLineState`). Schotten Totten no longer
uses any of it: its copies are hand-written and it keeps no memo.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Point:
...     x: int = 0
...     y: int = 0
>>> evolve = copier(Point)
>>> evolve(Point(1, 2), y=5)
Point(x=1, y=5)
>>> evolve(Point(1, 2), z=5)
Traceback (most recent call last):
...
TypeError: evolve() got an unexpected keyword argument 'z'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Self, TypeVar

from referee.line.state import LineState, MoveT

__all__ = ["MEMO_LIMIT", "LegacyLineState", "copier", "remember"]

_S = TypeVar("_S")

#: Entries a memo holds before it starts afresh (see :func:`remember`).
MEMO_LIMIT = 1 << 14


class _Keep:
    """The default of every keyword of a copier: keep the field as it is."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<keep>"


_KEEP = _Keep()


def copier(cls: type[_S], *changing: str) -> Callable[..., _S]:
    """A function that copies a ``cls`` (a frozen, slotted dataclass) with
    some fields changed (used by Schotten Totten 2 until it moves onto the kernel).

    Without ``changing``: ``evolve(state, **changes)``, each field a keyword,
    so a name that is not a field is a ``TypeError``, never silently ignored.
    With field names: ``evolve(state, *values)``, those fields changed in that
    order; a name that is not a field is refused here.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int = 0
    ...     y: int = 0
    >>> copier(Point, "y")(Point(1, 2), 7)
    Point(x=1, y=7)
    >>> copier(Point, "z")
    Traceback (most recent call last):
    ...
    TypeError: Point has no field 'z'
    """
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a slotted dataclass")
    names = [f.name for f in dataclasses.fields(cls)]
    for name in changing:
        if name not in names:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
    if len(set(changing)) != len(changing):
        raise TypeError(f"a field is named twice: {changing!r}")
    scope: dict[str, Any] = {
        "_new": object.__new__,
        "_cls": cls,
        "_draft": _draft_of(cls),
        "_KEEP": _KEEP,
    }
    if changing:
        head = f"def evolve(state, {', '.join(changing)}, /):"
    else:
        head = f"def evolve(state, /, *, {', '.join(f'{name}=_KEEP' for name in names)}):"
    lines = [head, "    new = _new(_draft)"]
    for name in names:
        if changing:
            value = name if name in changing else f"state.{name}"
        else:
            value = f"state.{name} if {name} is _KEEP else {name}"
        lines.append(f"    new.{name} = {value}")
    lines += ["    new.__class__ = _cls", "    return new"]
    exec("\n".join(lines), scope)
    evolve: Callable[..., _S] = scope["evolve"]
    evolve.__qualname__ = "evolve"
    evolve.__doc__ = f"A copy of a {cls.__name__} with fields changed."
    return evolve


def _draft_of(cls: type) -> type:
    """A mutable twin of the slotted class ``cls``: the same bases and the same
    slots in the same order, so an instance of it may become a ``cls``."""
    draft = type(f"_{cls.__name__}Draft", cls.__bases__, {"__slots__": cls.__dict__["__slots__"]})
    probe: Any = object.__new__(draft)
    probe.__class__ = cls  # refused at once if the layouts differ
    return draft


def remember(memo: dict[Any, Any], key: Any, value: Any) -> None:
    """Store ``value`` under ``key`` in a bounded memo: a full memo
    (:data:`MEMO_LIMIT` entries) starts afresh, so memory stays bounded.

    >>> memo: dict[str, int] = {}
    >>> remember(memo, "a", 1)
    >>> memo
    {'a': 1}
    """
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value


_COPIERS: dict[type, Callable[..., Any]] = {}


class LegacyLineState(LineState[MoveT]):
    """:class:`~referee.line.state.LineState` as Schotten Totten 2 still uses it
    (until it moves onto the kernel): the game defines ``_play_untracked(move,
    player)``, copies go through :func:`copier` and :meth:`play` writes the new
    state's history after the fact."""

    __slots__ = ()

    def _changed(self, **changes: Any) -> Self:
        """A copy with the named fields changed, through the class's :func:`copier`."""
        cls = type(self)
        evolve = _COPIERS.get(cls)
        if evolve is None:
            evolve = _COPIERS[cls] = copier(cls)
        changed: Self = evolve(self, **changes)
        return changed

    def play(self, move: MoveT | str, *, player: int | None = None) -> Self:
        """The state after ``move`` (see :meth:`LineState.play`)."""
        if isinstance(move, str):
            move = self._parse(move)
        after = self._play_untracked(move, player)
        past = self.past.push(move)  # type: ignore[arg-type]
        if after is self:
            return after._changed(past=past)
        _set(after, "past", past)
        return after


_set = object.__setattr__
