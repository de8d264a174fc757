"""The exact engine: the best formation a side can still reach, kind by kind.

For each counting kind, strongest first, it asks directly whether the pool can
complete the side into that kind and with which best sum, without enumerating
completions. The first kind that is reachable is the best reachable formation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations

from referee.formations import FormationRule, Kind, Strength
from referee.prover._types import Completion, Pool, Wildcard

__all__ = ["best_completion"]

_Pair = tuple[int, int]
_Found = tuple[tuple[_Pair, ...], tuple[_Pair, ...], int] | None


def best_completion(
    cards: Sequence[_Pair],
    wildcards: Sequence[Wildcard],
    pool: Pool,
    rule: FormationRule,
    colours: int,
) -> Completion | None:
    """The strongest completion of a side, or ``None`` if it cannot be completed.

    ``cards`` are the side's concrete cards, ``wildcards`` its wildcards; the
    missing cards come from ``pool`` (distinct cards). Wildcards take any of the
    ``colours`` and any of their allowed values.
    """
    need = rule.size - len(cards) - len(wildcards)
    if need < 0:
        raise ValueError(f"a side holds {rule.size} cards at most")
    if need > pool.size:
        return None
    if need == 0 and not wildcards:
        # Nothing is left to choose: the side is what it is.
        return Completion((), (), rule.classify(cards))
    search = _Search(cards, wildcards, pool, rule, colours, need)
    for kind in rule.strongest_kinds():
        found = _FINDERS[kind](search)
        if found is not None:
            added, wild, total = found
            return Completion(added, wild, Strength(kind, total))
    return None  # pragma: no cover - the sum kind is always reachable here


class _Search:
    """One question's data, shared by the per-kind finders."""

    __slots__ = (
        "cards",
        "colours",
        "lower",
        "need",
        "pool",
        "real_colours",
        "real_distinct",
        "real_hi",
        "real_lo",
        "real_set",
        "real_sum",
        "real_values",
        "size",
        "wild",
        "wild_best",
    )

    def __init__(
        self,
        cards: Sequence[_Pair],
        wildcards: Sequence[Wildcard],
        pool: Pool,
        rule: FormationRule,
        colours: int,
        need: int,
    ) -> None:
        self.cards = cards
        self.wild = wildcards
        self.pool = pool
        self.colours = colours
        self.need = need
        self.size = rule.size
        self.lower = rule.lower_sum_wins
        self.real_colours = {c for c, _ in cards}
        self.real_values = [v for _, v in cards]
        self.real_set = set(self.real_values)
        self.real_distinct = len(self.real_set) == len(self.real_values)
        self.real_lo = min(self.real_values, default=0)
        self.real_hi = max(self.real_values, default=0)
        self.real_sum = sum(self.real_values)
        pick = min if self.lower else max
        self.wild_best = tuple(pick(w.values) for w in wildcards)

    def colour_candidates(self) -> Sequence[int]:
        if len(self.real_colours) > 1:
            return ()
        if self.real_colours:
            return tuple(self.real_colours)
        return range(self.colours)

    def value_span(self) -> tuple[int, int] | None:
        """The lowest and highest value any card of the side could have."""
        values = set(self.real_values)
        for w in self.wild:
            values |= w.values
        pool_sorted = self.pool.values_sorted
        if self.need and pool_sorted:
            values.add(pool_sorted[0][0])
            values.add(pool_sorted[-1][0])
        if not values:
            return None
        return min(values), max(values)

    def run_starts(self) -> Sequence[int]:
        span = self.value_span()
        if span is None:
            return ()
        lo, hi = span
        starts = range(lo, hi - self.size + 2)
        return starts if self.lower else starts[::-1]

    def cover(self, start: int, available: Callable[[int], bool]) -> tuple[_Pair, ...] | None:
        """Fill the run ``start..start+size-1`` around the real cards.

        Returns the values the wildcards take, as ``(-1, value)`` pairs whose
        colour the caller fills in, or ``None`` when the run cannot be filled;
        the window's other missing values come from the pool.
        """
        missing = self.missing(start)
        if missing is None:
            return None
        return _fill(missing, self.assignments(missing), available)

    def assignments(self, missing: Sequence[int]) -> list[tuple[int, ...]]:
        """The ways the wildcards can take distinct ``missing`` values, in search order."""
        wild = self.wild
        if not wild:
            return [()]
        if len(wild) == 1:
            allowed = wild[0].values
            return [(v,) for v in missing if v in allowed]
        return [
            chosen
            for chosen in permutations(missing, len(wild))
            if all(v in w.values for v, w in zip(chosen, wild, strict=True))
        ]

    def missing(self, start: int) -> list[int] | None:
        """The values of the run ``start..start+size-1`` that the real cards lack.

        ``None`` when the real cards cannot be part of that run.
        """
        end = start + self.size
        if not self.real_distinct or (
            self.real_values and (self.real_lo < start or self.real_hi >= end)
        ):
            return None
        real = self.real_set
        return [v for v in range(start, end) if v not in real]


def _color_run(s: _Search) -> _Found:
    colours = s.colour_candidates()
    if not colours:
        return None
    cards = s.pool.cards
    for start in s.run_starts():
        missing = s.missing(start)
        if missing is None:
            continue
        options: list[tuple[int, ...]] | None = None
        for colour in colours:
            if not s.wild:
                # The common case, kept tight: every missing value in this colour.
                if all((colour, v) in cards for v in missing):
                    added = tuple((colour, v) for v in missing)
                    return added, (), _run_total(start, s.size)
                continue
            if options is None:
                options = s.assignments(missing)
                if not options:
                    break  # the wildcards cannot join this run in any colour
            wild = _fill(missing, options, _holds(cards, colour))
            if wild is None:
                continue
            used = {v for _, v in wild}
            added = tuple((colour, v) for v in missing if v not in used)
            return added, tuple((colour, v) for _, v in wild), _run_total(start, s.size)
    return None


def _three_of_a_kind(s: _Search) -> _Found:
    real = set(s.real_values)
    if len(real) > 1:
        return None
    if real:
        candidates: Sequence[int] = tuple(real)
    else:
        span = s.value_span()
        if span is None:
            return None
        candidates = range(span[0], span[1] + 1)
        if not s.lower:
            candidates = candidates[::-1]
    for value in candidates:
        if not all(value in w.values for w in s.wild):
            continue
        colours = s.pool.by_value.get(value, ())
        if len(colours) < s.need:
            continue
        added = tuple((c, value) for c in colours[: s.need])
        return added, tuple((0, value) for _ in s.wild), value * s.size
    return None


def _color(s: _Search) -> _Found:
    best: _Found = None
    for colour in s.colour_candidates():
        values = s.pool.by_colour.get(colour, ())
        if len(values) < s.need:
            continue
        chosen = values[: s.need] if s.lower else values[len(values) - s.need :]
        total = s.real_sum + sum(s.wild_best) + sum(chosen)
        if best is None or (total < best[2] if s.lower else total > best[2]):
            added = tuple((colour, v) for v in chosen)
            best = added, tuple((colour, v) for v in s.wild_best), total
    return best


def _run(s: _Search) -> _Found:
    by_value = s.pool.by_value
    for start in s.run_starts():
        wild = s.cover(start, by_value.__contains__)
        if wild is None:
            continue
        used = {v for _, v in wild}
        real = set(s.real_values)
        added = tuple(
            (by_value[v][0], v)
            for v in range(start, start + s.size)
            if v not in used and v not in real
        )
        return added, tuple((0, v) for _, v in wild), _run_total(start, s.size)
    return None


def _sum(s: _Search) -> _Found:
    ranked = s.pool.values_sorted
    chosen = ranked[: s.need] if s.lower else ranked[len(ranked) - s.need :]
    total = s.real_sum + sum(s.wild_best) + sum(v for v, _ in chosen)
    added = tuple((c, v) for v, c in chosen)
    return added, tuple((0, v) for v in s.wild_best), total


def _fill(
    missing: Sequence[int], options: Sequence[tuple[int, ...]], available: Callable[[int], bool]
) -> tuple[_Pair, ...] | None:
    """The first wildcard values in ``options`` that leave the pool only values it has."""
    absent = [v for v in missing if not available(v)]
    for chosen in options:
        if all(v in chosen for v in absent):
            return tuple((-1, v) for v in chosen)
    return None


def _holds(cards: frozenset[_Pair], colour: int) -> Callable[[int], bool]:
    """Whether the pool holds the value in ``colour``."""
    return lambda value: (colour, value) in cards


def _run_total(start: int, size: int) -> int:
    return size * start + size * (size - 1) // 2


_FINDERS: dict[Kind, Callable[[_Search], _Found]] = {
    Kind.COLOR_RUN: _color_run,
    Kind.THREE_OF_A_KIND: _three_of_a_kind,
    Kind.COLOR: _color,
    Kind.RUN: _run,
    Kind.SUM: _sum,
}
