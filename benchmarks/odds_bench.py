"""Odds speed: counting beating completions versus walking value multisets
and versus listing completions, in one run.

Run from the repository root:

    python benchmarks/odds_bench.py            # the full report
    python benchmarks/odds_bench.py --quick    # fewer repeats, no slow walk

Each case is one claim question on a full table (the pool is every card not
visible). For each, the report times :func:`referee.prover.count_completions`
(counting by value sum, see ``referee/prover/_odds.py``) against the counter
this library had before (``walk``: every value multiset the pool can supply,
each valued once; kept here as :func:`walk_count`) and against enumerating
every completion (``itertools.combinations`` of the pool, each completion valued
with the exact engine, its wildcards at their best), checks that all give the
same numbers, and prints the ratios. A second section asks the largest
questions the prover accepts (64 colours, values 0-99), where listing is out
of reach and the walk takes seconds (its 4-card case is left out: minutes). A
last section measures what keeping the question on the verdict (for
``ClaimVerdict.odds()``) costs ``decide_claim``. The figures are measured,
never asserted: see ``docs/prover.md``.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule, Kind  # noqa: E402
from referee.prover import (  # noqa: E402
    ClaimQuestion,
    ClaimVerdict,
    Odds,
    Piece,
    Pool,
    Wildcard,
    count_completions,
    decide_claim,
)
from referee.prover._exact import best_completion  # noqa: E402
from referee.prover._odds import _split, _Valuer  # noqa: E402

Pair = tuple[int, int]

ST_VALUES, ST2_VALUES = range(1, 10), range(0, 12)
ST_JOKER = Wildcard.any_of(ST_VALUES, "joker")
ST2_JOKER = Wildcard.any_of(ST2_VALUES, "joker")
ST2_SHIELD = Wildcard.any_of((1, 2, 3), "shield")
_EMPTY = Pool(())


@dataclass(frozen=True)
class Case:
    """One claim question on a full table."""

    name: str
    group: str  # "typical" or "worst"
    rule: FormationRule
    colours: int
    values: range
    claimant: tuple[Piece, ...]
    opponent: tuple[Piece, ...]
    elsewhere: tuple[Pair, ...] = ()

    def pool(self) -> Pool:
        visible = {p for p in (*self.claimant, *self.opponent) if not isinstance(p, Wildcard)}
        visible |= set(self.elsewhere)
        return Pool(
            (c, v) for c in range(self.colours) for v in self.values if (c, v) not in visible
        )


def cases() -> list[Case]:
    st = FormationRule(3, ALL_KINDS)
    mud = FormationRule(4, ALL_KINDS)
    st2_4 = FormationRule(4, ALL_KINDS)
    gate = FormationRule(4, SUM_ONLY, lower_sum_wins=True)
    color_tile = FormationRule(3, frozenset({Kind.COLOR}))
    scattered = ((1, 1), (2, 4), (3, 2), (4, 5), (5, 8), (1, 6), (3, 3), (2, 7))
    return [
        Case("ST three 5s vs 2 cards", "typical", st, 6, ST_VALUES,
             ((1, 5), (2, 5), (3, 5)), ((4, 6), (4, 7)), scattered),
        Case("ST three 5s vs 1 card", "typical", st, 6, ST_VALUES,
             ((1, 5), (2, 5), (3, 5)), ((4, 6),), scattered),
        Case("ST colour 2-5-9 vs joker + 1", "typical", st, 6, ST_VALUES,
             ((0, 2), (0, 5), (0, 9)), (ST_JOKER, (1, 3)), scattered),
        Case("ST2 colour tile vs 1 card", "typical", color_tile, 5, ST2_VALUES,
             ((0, 2), (0, 5), (0, 9)), ((1, 4),), ((2, 11), (3, 0))),
        Case("ST2 gate lower sum vs 1 card", "typical", gate, 5, ST2_VALUES,
             ((0, 0), (1, 1), (2, 2), (3, 3)), ((4, 1),), ((2, 0),)),
        Case("ST 3 cards vs 0 cards", "worst", st, 6, ST_VALUES,
             ((1, 5), (2, 5), (3, 5)), (), scattered),
        Case("Mud Fight 4 cards vs 0 cards", "worst", mud, 6, ST_VALUES,
             ((0, 5), (1, 5), (2, 5), (3, 5)), (), scattered),
        Case("ST2 4 cards all kinds vs 0 cards", "worst", st2_4, 5, ST2_VALUES,
             ((0, 6), (1, 6), (2, 6), (3, 6)), (), ((1, 11), (2, 10))),
        Case("ST2 4 cards vs joker + shield", "worst", st2_4, 5, ST2_VALUES,
             ((0, 6), (1, 6), (2, 6), (3, 6)), (ST2_JOKER, ST2_SHIELD), ((1, 11),)),
        Case("ST2 gate 4 cards lower sum vs 0", "worst", gate, 5, ST2_VALUES,
             ((0, 0), (1, 1), (2, 2), (3, 3)), (), ((4, 1), (2, 0))),
    ]  # fmt: skip


def enumerate_odds(case: Case, pool: Pool) -> Odds:
    """The same numbers by listing every completion (the reference this report beats)."""
    rule = case.rule
    mine_cards = [p for p in case.claimant if not isinstance(p, Wildcard)]
    mine_wild = [p for p in case.claimant if isinstance(p, Wildcard)]
    mine = best_completion(mine_cards, mine_wild, _EMPTY, rule, case.colours)
    assert mine is not None
    threshold = rule.key(mine.strength)
    cards = [p for p in case.opponent if not isinstance(p, Wildcard)]
    wild = [p for p in case.opponent if isinstance(p, Wildcard)]
    beating = total = 0
    for added in combinations(pool.values_sorted, rule.size - len(case.opponent)):
        total += 1
        side = [*cards, *((c, v) for v, c in added)]
        if wild:
            best = best_completion(side, wild, _EMPTY, rule, case.colours)
            assert best is not None
            strength = best.strength
        else:
            strength = rule.classify(side)
        beating += rule.key(strength) > threshold
    return Odds(beating, total)


def walk_count(case: Case, pool: Pool) -> Odds:
    """The same numbers by the previous counter: every value multiset of the
    missing cards the pool can supply, its card sets counted with binomials,
    single-coloured ones per colour, each multiset valued twice at most."""
    rule = case.rule
    mine_cards, mine_wild = _split(case.claimant)
    against = _Valuer(mine_cards, mine_wild, rule).best(
        [v for _, v in mine_cards], len({c for c, _ in mine_cards}) <= 1
    )
    cards, wildcards = _split(case.opponent)
    need = rule.size - len(case.opponent)
    valuer = _Valuer(cards, wildcards, rule)
    real_values = [v for _, v in cards]
    real_colours = {c for c, _ in cards}
    if len(real_colours) > 1:
        mono_colours: list[int] = []
    elif real_colours:
        mono_colours = [c for c in real_colours if c in pool.by_colour]
    else:
        mono_colours = list(pool.by_colour)
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

    beating = 0
    cards_in_pool = pool.cards
    for multiset, ways in walk(0, need, [], 1):
        values = real_values + multiset
        mono = 0
        if mono_colours and len(set(multiset)) == len(multiset):
            mono = sum(all((c, v) in cards_in_pool for v in multiset) for c in mono_colours)
        if mono and valuer.beats(values, True, against, False):
            beating += mono
        if ways > mono and valuer.beats(values, False, against, False):
            beating += ways - mono
    return Odds(beating, comb(pool.size, need))


def _best_of(call: Callable[[], object], repeats: int) -> float:
    """The fastest of ``repeats`` calls, in seconds (garbage collector off, as timeit)."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            call()
            best = min(best, time.perf_counter() - start)
    finally:
        gc.enable()
    return best


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:10.3f}"


def report_counting(repeats: int) -> None:
    print(
        "Counting versus the previous counter (walk) and enumerating (ms, fastest of the repeats)"
    )
    print(f"{'case':38} {'group':8} {'completions':>11} {'beating':>8} "
          f"{'count':>10} {'walk':>10} {'enumerate':>10} {'walk/count':>10} "
          f"{'enum/count':>10}")  # fmt: skip
    for case in cases():
        pool = case.pool()

        def count(case: Case = case, pool: Pool = pool) -> Odds:
            return count_completions(
                case.claimant, case.opponent, pool, case.rule, colours=case.colours
            )

        odds = count()
        listed = enumerate_odds(case, pool)
        assert odds == listed == walk_count(case, pool), (case.name, odds, listed)
        assert odds.total == comb(pool.size, case.rule.size - len(case.opponent))
        counting = _best_of(count, repeats)
        walking = _best_of(lambda case=case, pool=pool: walk_count(case, pool), repeats)
        listing = _best_of(lambda case=case, pool=pool: enumerate_odds(case, pool), 1)
        print(
            f"{case.name:38} {case.group:8} {odds.total:11d} {odds.beating:8d} "
            f"{_ms(counting)} {_ms(walking)} {_ms(listing)} {walking / counting:9.1f}x "
            f"{listing / counting:9.0f}x"
        )
    print("(all three agree on every case; 'enumerate' is timed once, it is slow)")


def limit_cases() -> list[tuple[Case, bool]]:
    """The largest questions the prover accepts: 64 colours, values 0-99; with
    whether the walk is timed too (not for 4 cards: minutes)."""
    values = range(0, 100)
    joker = Wildcard.any_of(values, "joker")
    found = []
    for need in (2, 3, 4):
        rule = FormationRule(need, ALL_KINDS)
        mine = tuple((c, 60) for c in range(need))
        found.append((Case(f"limits, {need} cards vs 0 cards", "limits", rule, 64, values,
                           mine, ()), need < 4))  # fmt: skip
        bigger = FormationRule(need + 1, ALL_KINDS)
        mine = tuple((c, 60) for c in range(need + 1))
        found.append((Case(f"limits, {need} cards vs joker", "limits", bigger, 64, values,
                           mine, (joker,)), need < 3))  # fmt: skip
    return found


def report_limits(repeats: int, walk: bool) -> None:
    print()
    print("At the documented limits: 64 colours, values 0-99 (ms)")
    print(f"{'case':38} {'completions':>16} {'count':>10} {'walk':>12} {'walk/count':>10}")
    for case, feasible in limit_cases():
        pool = case.pool()

        def count(case: Case = case, pool: Pool = pool) -> Odds:
            return count_completions(
                case.claimant, case.opponent, pool, case.rule, colours=case.colours
            )

        odds = count()
        counting = _best_of(count, repeats)
        if walk and feasible:
            start = time.perf_counter()
            assert walk_count(case, pool) == odds, case.name
            walking = time.perf_counter() - start
            shown, ratio = _ms(walking), f"{walking / counting:9.0f}x"
        else:
            shown, ratio = f"{'-':>10}", f"{'-':>10}"
        print(f"{case.name:38} {odds.total:16d} {_ms(counting)} {shown:>12} {ratio}")
    print("(walk timed once; '-': left out, it takes too long)")


def report_hot_path(repeats: int) -> None:
    """What keeping the question on each verdict costs decide_claim, measured in one run."""
    questions = [(case, case.pool()) for case in cases()]

    def decide() -> None:
        for case, pool in questions:
            decide_claim(case.claimant, case.opponent, pool, case.rule, colours=case.colours)

    sample = decide_claim(
        questions[0][0].claimant, questions[0][0].opponent, questions[0][1],
        questions[0][0].rule, colours=6,
    )  # fmt: skip
    fields = (
        sample.verdict,
        sample.rule,
        sample.claimant,
        sample.opponent_best,
        sample.opponent_complete,
        sample.claimant_completed_first,
        sample.engine,
    )

    def keep_question() -> None:
        # The only work decide_claim does for the odds: build the question and store it.
        for case, pool in questions:
            ClaimVerdict(*fields, question=ClaimQuestion(tuple(case.opponent), pool, 6))

    def without_question() -> None:
        for _case, _pool in questions:
            ClaimVerdict(*fields)

    n = len(questions)
    whole = _best_of(decide, repeats) / n
    extra = (_best_of(keep_question, repeats) - _best_of(without_question, repeats)) / n
    print()
    print("decide_claim's hot path (per question, the cases above)")
    print(f"  decide_claim:                      {whole * 1e6:8.2f} us")
    print(f"  of which keeping the question:     {extra * 1e6:8.2f} us ({extra / whole:.1%})")
    print("  the odds themselves are counted only when asked (ClaimVerdict.odds())")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else 15
    report_counting(repeats)
    report_limits(repeats, walk=not args.quick)
    report_hot_path(repeats * 20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
