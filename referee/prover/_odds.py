"""Odds: how many of the opponent's completions beat a formation, counted exactly.

What is counted. The opposing side holds some concrete cards and wildcards and
still needs ``k`` cards. A *completion* is an unordered set of ``k`` distinct
pool cards; there are ``C(len(pool), k)`` of them (one, the empty set, when the
side is already complete; none when the pool is too small). Each completion is
valued as the game values it: the side's wildcards take the colours and values
that are best for the opponent. A completion *beats* the formation when that
best is strictly stronger, or equally strong when ties go to the opponent (a
complete opponent that completed first). ``beating / total`` is the share of
completions that beat the formation: the chance of losing the stone if the
missing cards were a uniformly random draw from the pool.

How it is counted, without listing completions. A completion's strength
depends only on the multiset of its values and on whether its cards, with the
side's own cards, share one colour. Most value multisets can make neither a run
(their values are not within one run's width) nor a same-value formation; for
those, the strength is the sum (a colour when single-coloured), so whether
they beat the formation depends only on the sum of their values. The counter
therefore counts the completions by the sum of their values, all of them and the
single-coloured ones, with generating functions (a polynomial per number of
cards taken, the coefficient of ``x**s`` counting the card sets of value sum
``s``, built value by value with binomials; the polynomials are big integers,
one fixed-width digit per coefficient). Then it corrects the few value
multisets that can make a run or a same-value formation (at most one per
value, plus the subsets of each run-wide window of values), each valued as the
game values it. The work grows with the number of distinct values and colours,
never with the number of completions: 4 cards from 64 colours of 100 values
(over 6 * 10**13 completions) take milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb, prod

from referee.formations import FormationRule, Kind, Strength
from referee.prover._types import Piece, Pool, Wildcard

__all__ = ["Odds", "count_beating", "count_completions"]

_Pair = tuple[int, int]


@dataclass(frozen=True)
class Odds:
    """How many of the opponent's completions beat a formation, of how many.

    >>> odds = Odds(beating=3, total=12)
    >>> odds.probability
    Fraction(1, 4)
    >>> str(odds)
    '3 of 12 completions beat it (1/4)'
    """

    beating: int
    total: int

    @property
    def probability(self) -> Fraction:
        """``beating / total`` as an exact fraction (0 when there is no completion)."""
        return Fraction(self.beating, self.total) if self.total else Fraction(0)

    def __str__(self) -> str:
        return f"{self.beating} of {self.total} completions beat it ({self.probability})"


def count_completions(
    claimant: Sequence[Piece],
    opponent: Sequence[Piece],
    pool: Pool | Iterable[_Pair],
    rule: FormationRule,
    *,
    colours: int,
    claimant_completed_first: bool = True,
) -> Odds:
    """Count the completions of ``opponent`` that beat ``claimant``'s formation.

    The arguments mean what they mean for :func:`~referee.prover.decide_claim`
    (wildcards take any of the ``colours``); the claim holds exactly when no
    completion beats it (``beating == 0``).

    >>> from referee.formations import FormationRule
    >>> pool = [(0, 4), (0, 9), (1, 9), (2, 2), (3, 6)]
    >>> odds = count_completions([(4, 8), (5, 8), (3, 8)], [(2, 9)], pool,
    ...                          FormationRule(3), colours=6)
    >>> odds.beating, odds.total
    (1, 10)

    Only the two nines make a stronger three of a kind; one completion of ten.
    """
    from referee.prover import _check_question  # the checks every question gets

    if len(claimant) != rule.size:
        raise ValueError(
            f"the claimant's formation must be complete ({rule.size} cards), not {len(claimant)}"
        )
    if len(opponent) > rule.size:
        raise ValueError(f"a side holds {rule.size} cards at most, not {len(opponent)}")
    ready = pool if isinstance(pool, Pool) else Pool(pool)
    _check_question(colours, ready, ("claimant", claimant), ("opponent", opponent))
    mine_cards, mine_wild = _split(claimant)
    cards, wildcards = _split(opponent)
    shared = ready.cards.intersection((*mine_cards, *cards))
    if shared:
        raise ValueError(f"card {min(shared)!r} is on the table and in the pool at once")
    mine = _Valuer(mine_cards, mine_wild, rule).best(
        [v for _, v in mine_cards], len({c for c, _ in mine_cards}) <= 1
    )
    ties_beat = len(opponent) == rule.size and not claimant_completed_first
    return count_beating(cards, wildcards, ready, rule, mine, ties_beat=ties_beat)


def count_beating(
    cards: Sequence[_Pair],
    wildcards: Sequence[Wildcard],
    pool: Pool,
    rule: FormationRule,
    against: Strength,
    *,
    ties_beat: bool = False,
) -> Odds:
    """Count the completions of a side (``cards`` + ``wildcards``) stronger than ``against``.

    With ``ties_beat``, completions exactly as strong count as beating too.
    """
    need = rule.size - len(cards) - len(wildcards)
    if need < 0:
        raise ValueError(f"a side holds {rule.size} cards at most")
    total = comb(pool.size, need)
    if total == 0:
        return Odds(0, 0)
    valuer = _Valuer(cards, wildcards, rule)
    real_values = [v for _, v in cards]
    real_colours = {c for c, _ in cards}

    def beats(values: list[int], mono: bool) -> bool:
        return valuer.beats(values, mono, against, ties_beat)

    if need == 0:
        return Odds(int(beats(real_values, len(real_colours) <= 1)), 1)
    mono_mask = _mono_colours(real_colours, pool)
    counts = {v: len(colours) for v, colours in pool.by_value.items()}
    masks = {v: sum(1 << c for c in colours) for v, colours in pool.by_value.items()}
    # A plain completion (no run, no same value within reach) is a sum, or a
    # colour when single-coloured: whether it beats depends on its value sum.
    base = sum(real_values) + valuer.wild_best
    mono_kind = Kind.COLOR if Kind.COLOR in valuer.kinds else Kind.SUM

    def plain(kind: Kind, value_sum: int) -> bool:
        return _beats(kind, base + value_sum, against, ties_beat, valuer.lower)

    width = 8 * (max(comb(pool.size, j) for j in range(need + 1)).bit_length() // 8 + 1)
    every = _sums(counts.items(), need, width)
    single = [0] * len(every)
    if mono_mask and mono_kind is Kind.COLOR and against.kind <= Kind.COLOR:
        single = _single_coloured(pool, mono_mask, need, width, len(every))
    beating = sum(
        single[s] * plain(mono_kind, s) + (every[s] - single[s]) * plain(Kind.SUM, s)
        for s in range(len(every))
    )
    # The value multisets that may make a run or a same-value formation: valued
    # one by one, replacing what the plain count said of them.
    for multiset in _special(real_values, counts, need, rule.size):
        value_sum = sum(multiset)
        ways = prod(comb(counts[v], multiset.count(v)) for v in set(multiset))
        mono = 0
        if mono_mask and len(set(multiset)) == len(multiset):
            common = mono_mask
            for v in multiset:
                common &= masks[v]
            mono = common.bit_count()
        values = real_values + list(multiset)
        if mono:
            beating += mono * (beats(values, True) - plain(mono_kind, value_sum))
        if ways > mono:
            beating += (ways - mono) * (beats(values, False) - plain(Kind.SUM, value_sum))
    return Odds(beating, total)


def _mono_colours(real_colours: set[int], pool: Pool) -> int:
    """The colours (a bit mask) a completion may share with the side: none if
    the side mixes colours, its colour if it has one, else any of the pool's."""
    if len(real_colours) > 1:
        return 0
    if real_colours:
        return sum(1 << c for c in real_colours if c in pool.by_colour)
    return sum(1 << c for c in pool.by_colour)


def _single_coloured(pool: Pool, colours: int, need: int, width: int, size: int) -> list[int]:
    """How many sets of ``need`` pool cards of one of ``colours`` (a bit mask)
    have each value sum (``size`` sums, as :func:`_sums` counts them)."""
    single = [0] * size
    for colour, values in pool.by_colour.items():
        if colours >> colour & 1:
            for value_sum, n in enumerate(_sums(((v, 1) for v in values), need, width)):
                single[value_sum] += n
    return single


def _beats(kind: Kind, total: int, against: Strength, ties_beat: bool, lower: bool) -> bool:
    """Whether a formation of ``kind`` and ``total`` beats ``against`` (as
    :meth:`_Valuer.beats` decides)."""
    if kind != against.kind:
        return kind > against.kind
    if total == against.total:
        return ties_beat
    return total < against.total if lower else total > against.total


def _sums(items: Iterable[tuple[int, int]], need: int, width: int) -> list[int]:
    """How many sets of ``need`` cards have each value sum, from ``(value,
    number of cards with that value)`` pairs: element ``s`` counts the sets
    whose values add up to ``s``.

    The generating function ``prod((1 + y * x**value) ** number)``, its
    coefficient of ``y**need``; each polynomial in ``x`` is a big integer with
    one ``width``-bit digit per coefficient (``width`` bounds every count).
    """
    polys = [1] + [0] * need  # polys[j]: the sets of j cards, by value sum
    for value, number in items:
        shift = width * value
        for j in range(need, 0, -1):
            grown = polys[j]
            for m in range(1, min(number, j) + 1):
                grown += comb(number, m) * (polys[j - m] << (m * shift))
            polys[j] = grown
    poly = polys[need]
    step = width // 8
    raw = poly.to_bytes(max(1, (poly.bit_length() + 7) // 8), "little")
    return [int.from_bytes(raw[i : i + step], "little") for i in range(0, len(raw), step)]


def _special(
    real: Sequence[int], counts: dict[int, int], need: int, size: int
) -> set[tuple[int, ...]]:
    """The value multisets of ``need`` pool cards that may, with the side's own
    ``real`` values, make a same-value formation (every value equal) or a run
    (distinct values within one run's width): the only ones whose strength is
    not their sum (or colour)."""
    found: set[tuple[int, ...]] = set()
    values = sorted(counts)
    if len(set(real)) <= 1:
        for value in real[:1] or values:
            if counts.get(value, 0) >= need:
                found.add((value,) * need)
    if len(set(real)) == len(real):
        have = set(real)
        if real:
            starts = range(max(real) - size + 1, min(real) + 1)
        else:
            starts = range(values[0] - size + 1, values[-1] + 1)
        for start in starts:
            window = [v for v in range(start, start + size) if v not in have and v in counts]
            found.update(combinations(window, need))
    return found


class _Valuer:
    """The best strength of a side's values, its wildcards at their owner's best."""

    __slots__ = (
        "kinds",
        "lower",
        "rule",
        "size",
        "wild",
        "wild_best",
        "wild_common",
        "wild_span",
    )

    def __init__(
        self, cards: Sequence[_Pair], wildcards: Sequence[Wildcard], rule: FormationRule
    ) -> None:
        self.rule = rule
        self.kinds = rule.strongest_kinds()
        self.size = rule.size
        self.lower = rule.lower_sum_wins
        self.wild = [w.values for w in wildcards]
        pick = min if self.lower else max
        self.wild_best = sum(pick(w) for w in self.wild)
        common = frozenset.intersection(*self.wild) if self.wild else frozenset()
        self.wild_common = sorted(common, reverse=not self.lower)
        every = frozenset().union(*self.wild)
        self.wild_span = (min(every), max(every)) if every else (0, -1)

    def best(self, values: list[int], mono: bool) -> Strength:
        """The strongest formation of ``values`` plus the wildcards.

        ``mono``: the concrete cards share one colour (wildcards take any colour).
        """
        for kind in self.kinds:
            total = self._total(kind, values, mono)
            if total is not None:
                return Strength(kind, total)
        raise AssertionError("the sum kind always counts")  # pragma: no cover

    def beats(self, values: list[int], mono: bool, against: Strength, ties_beat: bool) -> bool:
        """Whether the best formation of ``values`` beats ``against`` (or ties, with ``ties_beat``).

        Only the kinds from ``against``'s kind up are valued: weaker ones cannot beat it.
        """
        for kind in self.kinds:
            if kind < against.kind:
                return False
            total = self._total(kind, values, mono)
            if total is None:
                continue
            if kind > against.kind:
                return True
            if total == against.total:
                return ties_beat
            return total < against.total if self.lower else total > against.total
        return False  # pragma: no cover - the sum kind always counts

    def _total(self, kind: Kind, values: list[int], mono: bool) -> int | None:
        if kind is Kind.SUM or (kind is Kind.COLOR and mono):
            return sum(values) + self.wild_best
        if kind is Kind.COLOR_RUN:
            return self._run(values) if mono else None
        if kind is Kind.RUN:
            return self._run(values)
        if kind is Kind.THREE_OF_A_KIND:
            return self._same(values)
        return None

    def _same(self, values: list[int]) -> int | None:
        if values:
            value = values[0]
            if any(v != value for v in values) or any(value not in w for w in self.wild):
                return None
            return value * self.size
        return self.wild_common[0] * self.size if self.wild_common else None

    def _run(self, values: list[int]) -> int | None:
        size = self.size
        present = set(values)
        if len(present) != len(values):
            return None
        if values:
            first, last = max(values) - size + 1, min(values)
        else:
            first, last = self.wild_span[0] - size + 1, self.wild_span[1]
        starts = range(first, last + 1)
        for start in starts if self.lower else reversed(starts):
            missing = [v for v in range(start, start + size) if v not in present]
            if self._fits(missing):
                return size * start + size * (size - 1) // 2
        return None

    def _fits(self, missing: list[int]) -> bool:
        """Whether the wildcards can take the ``missing`` values, one each (a
        bipartite matching: many wildcards are not tried in every order)."""
        wild = self.wild
        if len(missing) != len(wild):
            return False
        if not wild:
            return True
        if len(wild) == 1:
            return missing[0] in wild[0]
        taken: dict[int, int] = {}  # missing value index -> wildcard

        def place(w: int, seen: set[int]) -> bool:
            for i, value in enumerate(missing):
                if i not in seen and value in wild[w]:
                    seen.add(i)
                    if i not in taken or place(taken[i], seen):
                        taken[i] = w
                        return True
            return False

        return all(place(w, set()) for w in range(len(wild)))


def _split(side: Sequence[Piece]) -> tuple[list[_Pair], list[Wildcard]]:
    cards = [(p[0], p[1]) for p in side if not isinstance(p, Wildcard)]
    return cards, [p for p in side if isinstance(p, Wildcard)]
