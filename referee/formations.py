"""Formations: classifying a complete set of cards and comparing two of them.

Generic over the number of cards (2, 3 or 4), over which formation kinds count,
and over whether the lower sum wins. Cards are ``(colour, value)`` pairs of
integers; this module knows no particular game.

    >>> rule = FormationRule(size=3)
    >>> rule.classify([(0, 7), (0, 8), (0, 9)])
    Strength(kind=<Kind.COLOR_RUN: 4>, total=24)
    >>> rule.classify([(0, 5), (1, 5), (2, 5)]).kind.label
    'three_of_a_kind'
    >>> rule.beats(rule.classify([(0, 5), (1, 5), (2, 5)]), rule.classify([(3, 7), (4, 4), (5, 3)]))
    True

A tile that counts only colours and sums classifies a colour run as a colour:

    >>> FormationRule(3, frozenset({Kind.COLOR, Kind.SUM})).classify([(1, 2), (1, 3), (1, 4)])
    Strength(kind=<Kind.COLOR: 2>, total=9)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import pairwise
from typing import NamedTuple

__all__ = ["ALL_KINDS", "SUM_ONLY", "FormationRule", "Kind", "Strength"]


class Kind(IntEnum):
    """Formation kinds, weakest first: a larger value is a stronger kind."""

    SUM = 0
    RUN = 1
    COLOR = 2
    THREE_OF_A_KIND = 3
    COLOR_RUN = 4

    @property
    def label(self) -> str:
        """The kind's stable identifier, as used in records and messages."""
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> Kind:
        """The kind named by :attr:`label`.

        >>> Kind.from_label("color_run")
        <Kind.COLOR_RUN: 4>
        """
        try:
            return cls[label.upper()]
        except KeyError:
            raise ValueError(f"unknown formation kind {label!r}") from None


ALL_KINDS: frozenset[Kind] = frozenset(Kind)
SUM_ONLY: frozenset[Kind] = frozenset({Kind.SUM})


class Strength(NamedTuple):
    """What a complete formation is worth: its kind and the sum of its values."""

    kind: Kind
    total: int

    def __str__(self) -> str:
        return f"{self.kind.label} ({self.total})"


@dataclass(frozen=True)
class FormationRule:
    """How formations are formed and compared at one place (stone or tile).

    ``size`` cards make a complete formation; ``kinds`` are the kinds that count
    (a formation is classified as the strongest of them that it satisfies, else
    as a sum); with ``lower_sum_wins``, of two formations of one kind the lower
    sum is stronger.
    """

    size: int = 3
    kinds: frozenset[Kind] = ALL_KINDS
    lower_sum_wins: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.size <= 9:
            raise ValueError(f"formation size must be 1-9, not {self.size}")
        if Kind.SUM not in self.kinds:
            object.__setattr__(self, "kinds", frozenset(self.kinds) | SUM_ONLY)

    def key(self, strength: Strength) -> tuple[int, int]:
        """A sort key: the stronger formation has the larger key."""
        return (strength.kind, -strength.total if self.lower_sum_wins else strength.total)

    def beats(self, a: Strength, b: Strength) -> bool:
        """Whether ``a`` is strictly stronger than ``b`` (no tie-break)."""
        return self.key(a) > self.key(b)

    def classify(self, cards: Sequence[tuple[int, int]]) -> Strength:
        """The strength of a complete formation of concrete cards."""
        if len(cards) != self.size:
            raise ValueError(f"a complete formation has {self.size} cards, not {len(cards)}")
        values = [v for _, v in cards]
        total = sum(values)
        one_colour = len({c for c, _ in cards}) == 1
        ordered = sorted(values)
        run = all(b - a == 1 for a, b in pairwise(ordered))
        kinds = self.kinds
        if one_colour and run and Kind.COLOR_RUN in kinds:
            return Strength(Kind.COLOR_RUN, total)
        if ordered[0] == ordered[-1] and Kind.THREE_OF_A_KIND in kinds:
            return Strength(Kind.THREE_OF_A_KIND, total)
        if one_colour and Kind.COLOR in kinds:
            return Strength(Kind.COLOR, total)
        if run and Kind.RUN in kinds:
            return Strength(Kind.RUN, total)
        return Strength(Kind.SUM, total)

    def strongest_kinds(self) -> list[Kind]:
        """The counting kinds, strongest first."""
        return sorted(self.kinds, reverse=True)

    def describe(self) -> str:
        """A short human description, e.g. ``'3 cards, all kinds'``.

        >>> FormationRule(4, SUM_ONLY, lower_sum_wins=True).describe()
        '4 cards, sum only, lower sum wins'
        """
        if self.kinds == ALL_KINDS:
            kinds = "all kinds"
        elif self.kinds == SUM_ONLY:
            kinds = "sum only"
        else:
            kinds = " + ".join(k.label for k in self.strongest_kinds())
        text = f"{self.size} cards, {kinds}"
        return text + (", lower sum wins" if self.lower_sum_wins else "")
