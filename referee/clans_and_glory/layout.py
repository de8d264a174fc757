"""Seats and tableaus: where cards can go and which seats touch (ruling 2).

The printed tableaus are known only from pictures we lack, so the seat layout is
an assumption kept as data. The default: tableaus in a row, each with three seats
on each long side; seats in the top row are numbered 1-3 and those in the bottom
row 4-6, left to right, so seat 1 faces seat 4, 2 faces 5 and 3 faces 6. The two
end tableaus (campfire tableaus) have a seventh seat, the head seat at the end of
the table. Rows run on across tableau edges::

    >>> layout = default_layout(2)
    >>> layout.tableaus, len(layout.seats)
    (4, 26)
    >>> seat = Seat.parse("t1s3")
    >>> sorted(map(str, layout.neighbours(seat))), sorted(map(str, layout.opposite(seat)))
    (['t1s2', 't2s1'], ['t1s6'])

A head seat touches the two corner seats beside it; the two head seats face each other:

    >>> sorted(map(str, layout.neighbours(Seat(1, 7)))), sorted(map(str, layout.opposite(Seat(1, 7))))
    (['t1s1', 't1s4'], ['t4s7'])

A user with the printed game can describe another layout with :class:`Layout`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from types import MappingProxyType
from typing import NamedTuple

from referee.clans_and_glory.setup import InvalidDealError, setup_for
from referee.errors import InvalidMoveError

__all__ = [
    "HEAD_SEAT",
    "MAX_SEATS_PER_TABLEAU",
    "MAX_TABLEAUS",
    "Layout",
    "Seat",
    "default_layout",
]

_SEAT_TEXT = re.compile(r"t([0-9]{1,2})s([0-9]{1,2})")

#: The number of the head seat on the two campfire tableaus of the default layout.
HEAD_SEAT = 7

#: The most tableaus a layout may have (6, the 4-player table).
MAX_TABLEAUS = 6
#: The most seats a tableau may have; seats are numbered 1 to this.
MAX_SEATS_PER_TABLEAU = 20
#: The keys of a layout's JSON description.
_LAYOUT_FIELDS = ("tableaus", "seats", "neighbours", "opposite", "start_seats", "grid")


class Seat(NamedTuple):
    """A seat: a tableau (numbered from 1) and a seat on it (numbered from 1).

    >>> Seat.parse("t2s4")
    Seat(2, 4)
    >>> str(Seat(2, 4))
    't2s4'
    """

    tableau: int
    number: int

    def __str__(self) -> str:
        return f"t{self.tableau}s{self.number}"

    def __repr__(self) -> str:
        return f"Seat({self.tableau}, {self.number})"

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Read a seat from text like ``"t2s4"`` (shape only, not existence).

        >>> Seat.parse("2/4")
        Traceback (most recent call last):
        ...
        referee.errors.InvalidMoveError: malformed seat '2/4': expected a tableau and a seat, like 't2s4'
        """
        match = _SEAT_TEXT.fullmatch(text) if isinstance(text, str) else None
        if match is None or match.group(1).startswith("0") or match.group(2).startswith("0"):
            raise InvalidMoveError(
                f"malformed seat {text!r}: expected a tableau and a seat, like 't2s4'"
            )
        return cls(int(match.group(1)), int(match.group(2)))


def _bad_layout(why: str) -> InvalidDealError:
    return InvalidDealError("layout", f"invalid layout: {why}")


def _check_pairs(name: str, pairs: Iterable[tuple[Seat, Seat]], known: set[Seat]) -> None:
    """Each pair of a relation joins two distinct seats of the layout, once."""
    seen: set[frozenset[Seat]] = set()
    for a, b in pairs:
        if a not in known or b not in known:
            raise _bad_layout(f"{name} pair {a}-{b} names a seat that is not in the layout")
        if a == b:
            raise _bad_layout(f"{name} pair {a}-{b} joins a seat to itself")
        if frozenset((a, b)) in seen:
            raise _bad_layout(f"{name} pair {a}-{b} is listed twice")
        seen.add(frozenset((a, b)))


@dataclass(frozen=True)
class Layout:
    """The seats of the table and which seats are neighbours or opposite.

    ``neighbour_pairs`` and ``opposite_pairs`` list each relation once; both
    relations are symmetric. ``start_seats`` are the seats that receive the
    start cards, in dealing order. ``grid`` optionally gives each seat a
    ``(row, column)`` for the text picture (same order as ``seats``).

        >>> tiny = Layout(
        ...     tableaus=1,
        ...     seats=(Seat(1, 1), Seat(1, 2), Seat(1, 3)),
        ...     neighbour_pairs=((Seat(1, 1), Seat(1, 2)),),
        ...     opposite_pairs=((Seat(1, 2), Seat(1, 3)),),
        ...     start_seats=(Seat(1, 1),),
        ... )
        >>> sorted(tiny.touching(Seat(1, 2)))
        [Seat(1, 1), Seat(1, 3)]
        >>> Layout(1, (Seat(1, 1),), ((Seat(1, 1), Seat(1, 2)),), (), ())
        Traceback (most recent call last):
        ...
        referee.errors.InvalidDealError: invalid layout: neighbour pair t1s1-t1s2 names a seat that is not in the layout
    """

    tableaus: int
    seats: tuple[Seat, ...]
    neighbour_pairs: tuple[tuple[Seat, Seat], ...]
    opposite_pairs: tuple[tuple[Seat, Seat], ...]
    start_seats: tuple[Seat, ...]
    grid: tuple[tuple[int, int], ...] | None = None
    _index: Mapping[Seat, int] = field(init=False, repr=False, compare=False)
    _neighbours: Mapping[Seat, frozenset[Seat]] = field(init=False, repr=False, compare=False)
    _opposite: Mapping[Seat, frozenset[Seat]] = field(init=False, repr=False, compare=False)
    _touching: Mapping[Seat, frozenset[Seat]] = field(init=False, repr=False, compare=False)
    #: Per seat index: the bit mask of the indices of the seats touching it.
    touch_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: Per seat index: its tableau's index (from 0).
    seat_tableaus: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: Per tableau index (from 0): the bit mask of its seats' indices.
    tableau_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: The indices of the start seats, in dealing order.
    start_indices: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Normalise to tuples of Seats so equal layouts compare equal.
        seats = _seat_tuple(self.seats, "seats")
        object.__setattr__(self, "seats", seats)
        object.__setattr__(
            self, "neighbour_pairs", _pair_tuple(self.neighbour_pairs, "neighbour_pairs")
        )
        object.__setattr__(
            self, "opposite_pairs", _pair_tuple(self.opposite_pairs, "opposite_pairs")
        )
        object.__setattr__(self, "start_seats", _seat_tuple(self.start_seats, "start_seats"))
        if self.grid is not None:
            object.__setattr__(self, "grid", _grid_tuple(self.grid))
        self._check()
        # Read-only views: nothing reachable from a layout can be changed.
        index = MappingProxyType({seat: i for i, seat in enumerate(seats)})
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_neighbours", _relation(seats, self.neighbour_pairs))
        object.__setattr__(self, "_opposite", _relation(seats, self.opposite_pairs))
        touching = {seat: self._neighbours[seat] | self._opposite[seat] for seat in seats}
        object.__setattr__(self, "_touching", MappingProxyType(touching))
        # The same relations over seat indices, as the rules read them (bit masks).
        masks = tuple(sum(1 << index[other] for other in touching[seat]) for seat in seats)
        object.__setattr__(self, "touch_masks", masks)
        object.__setattr__(self, "seat_tableaus", tuple(seat.tableau - 1 for seat in seats))
        object.__setattr__(self, "start_indices", tuple(index[s] for s in self.start_seats))
        object.__setattr__(
            self,
            "tableau_masks",
            tuple(
                sum(1 << i for i, seat in enumerate(seats) if seat.tableau == tableau)
                for tableau in range(1, self.tableaus + 1)
            ),
        )

    def _check(self) -> None:
        """Refuse a layout no table can have, at the first problem, in this order:
        the tableaus, the seats, the pairs, the start seats, the grid."""
        self._check_tableaus()
        known = self._known_seats()
        for name, pairs in (("neighbour", self.neighbour_pairs), ("opposite", self.opposite_pairs)):
            _check_pairs(name, pairs, known)
        for seat in self.start_seats:
            if seat not in known:
                raise _bad_layout(f"start seat {seat} is not in the layout")
        if len(set(self.start_seats)) != len(self.start_seats):
            raise _bad_layout("a start seat is listed twice")
        missing = set(range(1, self.tableaus + 1)) - {seat.tableau for seat in self.seats}
        if missing:
            raise _bad_layout(f"tableau {min(missing)} has no seat")
        self._check_grid()

    def _check_tableaus(self) -> None:
        if isinstance(self.tableaus, bool) or not isinstance(self.tableaus, int):
            raise _bad_layout("the number of tableaus must be an integer")
        if not 1 <= self.tableaus <= MAX_TABLEAUS:
            raise _bad_layout(
                f"there must be 1 to {MAX_TABLEAUS} tableaus, not {self.tableaus}"
                if self.tableaus >= 1
                else "there must be at least one tableau"
            )
        if self.tableaus > len(self.seats):
            raise _bad_layout(
                f"{self.tableaus} tableaus but only {len(self.seats)} seats: every tableau needs seats"
            )

    def _known_seats(self) -> set[Seat]:
        known: set[Seat] = set()
        for seat in self.seats:
            if not 1 <= seat.tableau <= self.tableaus:
                raise _bad_layout(f"seat {seat} is outside tableaus 1-{self.tableaus}")
            if not 1 <= seat.number <= MAX_SEATS_PER_TABLEAU:
                raise _bad_layout(
                    f"seat {seat}: seats are numbered 1-{MAX_SEATS_PER_TABLEAU} on each tableau"
                )
            if seat in known:
                raise _bad_layout(f"seat {seat} is listed twice")
            known.add(seat)
        return known

    def _check_grid(self) -> None:
        if self.grid is None:
            return
        if len(self.grid) != len(self.seats) or len(set(self.grid)) != len(self.grid):
            raise _bad_layout("the grid needs one distinct (row, column) per seat")
        limit = 2 * len(self.seats)
        if any(not (0 <= row <= limit and 0 <= column <= limit) for row, column in self.grid):
            raise _bad_layout(f"grid cells must lie in rows and columns 0-{limit}")

    def __reduce__(self) -> tuple[type[Layout], tuple[object, ...]]:
        # Pickle and copy through the constructor: the read-only lookups are rebuilt.
        return (
            Layout,
            (
                self.tableaus,
                self.seats,
                self.neighbour_pairs,
                self.opposite_pairs,
                self.start_seats,
                self.grid,
            ),
        )

    def __contains__(self, seat: object) -> bool:
        return seat in self._index

    def index(self, seat: Seat) -> int:
        """The position of ``seat`` in :attr:`seats` (a ``ValueError`` if it is not there).

        >>> default_layout(2).index(Seat(9, 1))
        Traceback (most recent call last):
        ...
        ValueError: no seat Seat(9, 1) on this table (tableaus 1-4)
        """
        try:
            return self._index[seat]
        except (KeyError, TypeError):
            raise self._no_seat(seat) from None

    def find(self, seat: object) -> int:
        """The position of ``seat`` in :attr:`seats`, or -1 if it is not there.

        >>> default_layout(2).find(Seat(1, 2)), default_layout(2).find(Seat(9, 1))
        (1, -1)
        """
        try:
            found: int = self._index.get(seat, -1)  # type: ignore[call-overload]
        except TypeError:  # not hashable: no seat
            return -1
        return found

    def _no_seat(self, seat: object) -> ValueError:
        return ValueError(f"no seat {seat!r} on this table (tableaus 1-{self.tableaus})")

    def neighbours(self, seat: Seat) -> frozenset[Seat]:
        """The seats beside ``seat``."""
        return self._look_up(self._neighbours, seat)

    def opposite(self, seat: Seat) -> frozenset[Seat]:
        """The seats facing ``seat``."""
        return self._look_up(self._opposite, seat)

    def touching(self, seat: Seat) -> frozenset[Seat]:
        """The seats whose face-up cards a card on ``seat`` must match one of."""
        return self._look_up(self._touching, seat)

    def _look_up(self, table: Mapping[Seat, frozenset[Seat]], seat: Seat) -> frozenset[Seat]:
        try:
            return table[seat]
        except (KeyError, TypeError):
            raise self._no_seat(seat) from None

    def check_tableau(self, tableau: object) -> int:
        """``tableau`` if this table has it, else a ``ValueError`` naming the range.

        >>> default_layout(3).check_tableau(0)
        Traceback (most recent call last):
        ...
        ValueError: no tableau 0 on this table (tableaus 1-5)
        """
        if (
            isinstance(tableau, bool)
            or not isinstance(tableau, int)
            or not 1 <= tableau <= self.tableaus
        ):
            raise ValueError(f"no tableau {tableau!r} on this table (tableaus 1-{self.tableaus})")
        return tableau

    def seats_of(self, tableau: int) -> tuple[Seat, ...]:
        """The seats on ``tableau``, in layout order (a ``ValueError`` for no such tableau).

        >>> [str(s) for s in default_layout(3).seats_of(5)]
        ['t5s1', 't5s2', 't5s3', 't5s4', 't5s5', 't5s6', 't5s7']
        """
        self.check_tableau(tableau)
        return tuple(s for s in self.seats if s.tableau == tableau)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready description (seats as text such as ``"t2s4"``).

        >>> Layout.from_json(default_layout(4).to_json()) == default_layout(4)
        True
        """
        return {
            "tableaus": self.tableaus,
            "seats": [str(s) for s in self.seats],
            "neighbours": [[str(a), str(b)] for a, b in self.neighbour_pairs],
            "opposite": [[str(a), str(b)] for a, b in self.opposite_pairs],
            "start_seats": [str(s) for s in self.start_seats],
            "grid": None if self.grid is None else [list(p) for p in self.grid],
        }

    @classmethod
    def from_json(cls, data: object) -> Layout:
        """Read :meth:`to_json` output back, checking every field; unknown fields are refused.

        >>> Layout.from_json({**default_layout(2).to_json(), "colour": "red"})
        Traceback (most recent call last):
        ...
        referee.errors.InvalidDealError: layout field 'colour' is unknown (known: tableaus, seats, neighbours, opposite, start_seats, grid)
        """
        if not isinstance(data, Mapping):
            raise InvalidDealError("field_type", "deal field 'layout' must be an object")
        unknown = sorted(str(k) for k in data if k not in _LAYOUT_FIELDS)
        if unknown:
            raise InvalidDealError(
                "field_unknown",
                f"layout field {unknown[0]!r} is unknown (known: {', '.join(_LAYOUT_FIELDS)})",
            )
        tableaus = data.get("tableaus")
        if isinstance(tableaus, bool) or not isinstance(tableaus, int):
            raise InvalidDealError("field_type", "layout field 'tableaus' must be an integer")
        grid = data.get("grid")
        grid_cells: tuple[tuple[int, int], ...] | None = None
        if grid is not None:
            if not isinstance(grid, list) or not all(
                isinstance(p, list)
                and len(p) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in p)
                for p in grid
            ):
                raise InvalidDealError(
                    "field_type", "layout field 'grid' must be a list of [row, column] pairs"
                )
            grid_cells = tuple((p[0], p[1]) for p in grid)
        return cls(
            tableaus=tableaus,
            seats=tuple(_json_seats(data, "seats")),
            neighbour_pairs=tuple(_json_pairs(data, "neighbours")),
            opposite_pairs=tuple(_json_pairs(data, "opposite")),
            start_seats=tuple(_json_seats(data, "start_seats")),
            grid=grid_cells,
        )


def _json_seats(data: Mapping[str, object], name: str) -> list[Seat]:
    value = data.get(name)
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise InvalidDealError("field_type", f"layout field {name!r} must be a list of seats")
    if len(value) > _MAX_SEATS:
        raise _bad_layout(f"{name} may list at most {_MAX_SEATS} seats, not {len(value)}")
    try:
        return [Seat.parse(s) for s in value]
    except InvalidMoveError as error:
        raise InvalidDealError("field_type", f"layout field {name!r}: {error}") from None


def _json_pairs(data: Mapping[str, object], name: str) -> list[tuple[Seat, Seat]]:
    value = data.get(name)
    if not isinstance(value, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(s, str) for s in p) for p in value
    ):
        raise InvalidDealError(
            "field_type", f"layout field {name!r} must be a list of [seat, seat] pairs"
        )
    if len(value) > _MAX_PAIRS:
        raise _bad_layout(f"{name} may list at most {_MAX_PAIRS} pairs, not {len(value)}")
    try:
        return [(Seat.parse(a), Seat.parse(b)) for a, b in value]
    except InvalidMoveError as error:
        raise InvalidDealError("field_type", f"layout field {name!r}: {error}") from None


def _relation(
    seats: Iterable[Seat], pairs: Sequence[tuple[Seat, Seat]]
) -> Mapping[Seat, frozenset[Seat]]:
    linked: dict[Seat, set[Seat]] = {seat: set() for seat in seats}
    for a, b in pairs:
        linked[a].add(b)
        linked[b].add(a)
    return MappingProxyType({seat: frozenset(others) for seat, others in linked.items()})


def _is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat_of(value: object, name: str) -> Seat:
    """``value`` as a Seat, if it is a pair of integers (a Seat or a plain tuple)."""
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != 2:
        raise _bad_layout(f"{name}: {value!r} is not a seat (a tableau and a seat number)")
    tableau, number = value
    if not (_is_number(tableau) and _is_number(number)):
        raise _bad_layout(f"{name}: seat {value!r} must be two integers")
    return Seat(tableau, number)


def _items(value: object, name: str, limit: int) -> Sequence[object]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise _bad_layout(f"{name} must be a sequence, not {type(value).__name__}")
    if len(value) > limit:
        raise _bad_layout(f"{name} may list at most {limit} items, not {len(value)}")
    return value


#: The most seats a layout can have, and so the most items of any of its lists.
_MAX_SEATS = MAX_TABLEAUS * MAX_SEATS_PER_TABLEAU
_MAX_PAIRS = _MAX_SEATS * (_MAX_SEATS - 1) // 2


def _seat_tuple(value: object, name: str) -> tuple[Seat, ...]:
    return tuple(_seat_of(s, name) for s in _items(value, name, _MAX_SEATS))


def _pair_tuple(value: object, name: str) -> tuple[tuple[Seat, Seat], ...]:
    pairs = []
    for pair in _items(value, name, _MAX_PAIRS):
        if isinstance(pair, str) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise _bad_layout(f"{name}: {pair!r} is not a pair of seats")
        pairs.append((_seat_of(pair[0], name), _seat_of(pair[1], name)))
    return tuple(pairs)


def _grid_tuple(value: object) -> tuple[tuple[int, int], ...]:
    cells = []
    for cell in _items(value, "grid", _MAX_SEATS):
        if (
            isinstance(cell, str)
            or not isinstance(cell, Sequence)
            or len(cell) != 2
            or not all(_is_number(x) for x in cell)
        ):
            raise _bad_layout(f"grid cell {cell!r} must be a (row, column) pair of integers")
        row, column = cell
        assert isinstance(row, int) and isinstance(column, int)
        cells.append((row, column))
    return tuple(cells)


def default_layout(players: int) -> Layout:
    """The assumed layout for ``players`` players (ruling 2).

    Start cards go on the middle seat of each tableau's top row (seat 2); with
    2 players also on the middle seat of the bottom row (seat 5), so 8 in all.

    >>> [str(s) for s in default_layout(3).start_seats]
    ['t1s2', 't2s2', 't3s2', 't4s2', 't5s2']
    >>> [str(s) for s in default_layout(2).start_seats]
    ['t1s2', 't1s5', 't2s2', 't2s5', 't3s2', 't3s5', 't4s2', 't4s5']
    """
    setup = setup_for(players)
    count = setup.tableaus
    seats: list[Seat] = []
    grid: list[tuple[int, int]] = []
    for tableau in range(1, count + 1):
        for number in range(1, 7):
            seats.append(Seat(tableau, number))
            row, column = (0, number) if number <= 3 else (2, number - 3)
            grid.append((row, 3 * (tableau - 1) + column))
        if tableau in (1, count):
            seats.append(Seat(tableau, HEAD_SEAT))
            grid.append((1, 0 if tableau == 1 else 3 * count + 1))
    top = [Seat(t, n) for t in range(1, count + 1) for n in (1, 2, 3)]
    bottom = [Seat(t, n) for t in range(1, count + 1) for n in (4, 5, 6)]
    neighbour_pairs = [(a, b) for row in (top, bottom) for a, b in pairwise(row)]
    neighbour_pairs += [
        (Seat(1, HEAD_SEAT), Seat(1, 1)),
        (Seat(1, HEAD_SEAT), Seat(1, 4)),
        (Seat(count, HEAD_SEAT), Seat(count, 3)),
        (Seat(count, HEAD_SEAT), Seat(count, 6)),
    ]
    opposite_pairs = list(zip(top, bottom, strict=True))
    opposite_pairs.append((Seat(1, HEAD_SEAT), Seat(count, HEAD_SEAT)))
    per_tableau = (2, 5) if setup.start_cards == 2 * count else (2,)
    start = tuple(Seat(t, n) for t in range(1, count + 1) for n in per_tableau)
    return Layout(
        tableaus=count,
        seats=tuple(seats),
        neighbour_pairs=tuple(neighbour_pairs),
        opposite_pairs=tuple(opposite_pairs),
        start_seats=start,
        grid=tuple(grid),
    )
