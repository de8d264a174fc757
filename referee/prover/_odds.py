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

How it is counted, without listing completions. Whether a completion beats the
formation depends only on the multiset of its values and on whether its cards,
with the side's own cards, share one colour. So the counter walks the value
multisets of size ``k`` the pool can supply (at most 1,365 for ``k = 4`` and
twelve values), and for each one counts the completions with those values as a
product of binomials ``C(n_v, m_v)`` (``n_v`` pool cards of value ``v``, ``m_v``
of them taken). Of those, the single-coloured ones are the colours holding every
value of the multiset once. Each multiset is valued twice at most (single colour
or not), with the wildcards at their best, kind by kind as the exact engine does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from math import comb

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
    if len(claimant) != rule.size:
        raise ValueError(
            f"the claimant's formation must be complete ({rule.size} cards), not {len(claimant)}"
        )
    if len(opponent) > rule.size:
        raise ValueError(f"a side holds {rule.size} cards at most, not {len(opponent)}")
    ready = pool if isinstance(pool, Pool) else Pool(pool)
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
    # The colours a completion may share with the side (none if the side mixes colours).
    if len(real_colours) > 1:
        mono_colours: list[int] = []
    elif real_colours:
        mono_colours = [c for c in real_colours if c in pool.by_colour]
    else:
        mono_colours = list(pool.by_colour)
    cards_in_pool = pool.cards
    beating = 0
    for multiset, ways in _value_multisets(pool, need):
        values = real_values + multiset
        mono = 0
        if mono_colours and len(set(multiset)) == len(multiset):
            mono = sum(all((c, v) in cards_in_pool for v in multiset) for c in mono_colours)
        if mono and beats(values, True):
            beating += mono
        if ways > mono and beats(values, False):
            beating += ways - mono
    return Odds(beating, total)


def _value_multisets(pool: Pool, need: int) -> Iterator[tuple[list[int], int]]:
    """Every multiset of ``need`` values the pool can supply, with its number of card sets."""
    counts = sorted((v, len(cs)) for v, cs in pool.by_value.items())

    def walk(i: int, left: int, chosen: list[int], ways: int) -> Iterator[tuple[list[int], int]]:
        if left == 0:
            yield list(chosen), ways
            return
        for j in range(i, len(counts)):
            value, n = counts[j]
            for m in range(1, min(n, left) + 1):
                chosen.extend([value] * m)
                yield from walk(j + 1, left - m, chosen, ways * comb(n, m))
                del chosen[-m:]

    return walk(0, need, [], 1)


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
        """Whether the wildcards can take the ``missing`` values, one each."""
        wild = self.wild
        if len(missing) != len(wild):
            return False
        if not wild:
            return True
        if len(wild) == 1:
            return missing[0] in wild[0]
        return any(
            all(v in w for v, w in zip(order, wild, strict=True)) for order in permutations(missing)
        )


def _split(side: Sequence[Piece]) -> tuple[list[_Pair], list[Wildcard]]:
    cards = [(p[0], p[1]) for p in side if not isinstance(p, Wildcard)]
    return cards, [p for p in side if isinstance(p, Wildcard)]
