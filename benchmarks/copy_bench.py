"""The cost of copying a game state with a few fields changed, per representation.

Run from the repository root::

    python benchmarks/copy_bench.py

Compares, in one run, on a state of 19 fields (the size of Schotten Totten's):

* a ``NamedTuple`` copied through a list of its values and ``tuple.__new__``
  (how Schotten Totten's state was copied before the shared kernel);
* ``NamedTuple._replace``;
* a frozen, slotted dataclass copied slot by slot through
  :func:`referee.line.place.slot_writer` (the one representation of every
  game on the shared kernel, as their ``made`` modules copy it);
* ``dataclasses.replace`` on the same dataclass.

Figures are nanoseconds per copy (best of several repeats); printed, never asserted.
"""

from __future__ import annotations

import dataclasses
import timeit
from typing import Any, NamedTuple

from referee.line.place import slot_writer

_NAMES = [f"f{i}" for i in range(19)]


class Tupled(NamedTuple):
    f0: int = 0
    f1: int = 0
    f2: int = 0
    f3: int = 0
    f4: int = 0
    f5: int = 0
    f6: int = 0
    f7: int = 0
    f8: int = 0
    f9: int = 0
    f10: int = 0
    f11: int = 0
    f12: int = 0
    f13: int = 0
    f14: int = 0
    f15: int = 0
    f16: int = 0
    f17: int = 0
    f18: int = 0


Slotted = dataclasses.make_dataclass(
    "Slotted", [(name, int, 0) for name in _NAMES], frozen=True, slots=True
)
_AT = {name: i for i, name in enumerate(Tupled._fields)}
_WRITERS = tuple((name, slot_writer(Slotted, name)) for name in _NAMES)


def _tuple_evolve(state: Tupled, **changes: Any) -> Tupled:
    values = list(state)
    for name, value in changes.items():
        values[_AT[name]] = value
    new: Tupled = tuple.__new__(Tupled, values)
    return new


def _slot_evolve(state: Any, **changes: Any) -> Any:
    new = object.__new__(Slotted)
    for name, write in _WRITERS:
        write(new, changes[name] if name in changes else getattr(state, name))
    return new


def main() -> None:
    tupled, slotted = Tupled(), Slotted()
    evolve = _slot_evolve
    cases = {
        "NamedTuple, list + tuple.__new__": lambda: _tuple_evolve(tupled, f3=1, f12=2, f13=3),
        "NamedTuple._replace": lambda: tupled._replace(f3=1, f12=2, f13=3),
        "dataclass, slot writers": lambda: evolve(slotted, f3=1, f12=2, f13=3),
        "dataclasses.replace": lambda: dataclasses.replace(slotted, f3=1, f12=2, f13=3),
    }
    number = 100_000
    print("copy of a 19-field state with 3 fields changed (ns per copy, best of 5)")
    for name, call in cases.items():
        best = min(timeit.repeat(call, number=number, repeat=5)) / number
        print(f"  {name:<36}{best * 1e9:8.0f}")


if __name__ == "__main__":
    main()
