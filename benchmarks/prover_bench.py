"""Claim-prover speed: the exact engine, the CP-SAT engine and brute force.

Run from the repository root:

    python benchmarks/prover_bench.py            # the full suite
    python benchmarks/prover_bench.py --quick    # fewer repeats, a rough look

Each case is one claim question (``decide_claim``) that the claimant wins, so
that no engine can stop early on a beating completion: the opponent holds 0 or
1 cards, the pool is every card not visible on the table. Every case is timed
with :func:`time.perf_counter` for the three deciders in the same run; the
table shows the median and worst time per decision, and the last lines compare
the exact engine with brute force on the cases where brute force is slowest.
The figures are measured, never asserted: see ``docs/prover.md``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule  # noqa: E402
from referee.prover import Piece, Pool, Wildcard, decide_claim  # noqa: E402
from tests.prover.brute import brute_claim_holds  # noqa: E402

Pair = tuple[int, int]

ST_COLOURS, ST_VALUES = 6, range(1, 10)
ST2_COLOURS, ST2_VALUES = 5, range(0, 12)
ST_JOKER = Wildcard.any_of(ST_VALUES, "joker")
ST_SPY = Wildcard.exactly(7, "spy")
ST_SHIELD = Wildcard.any_of((1, 2, 3), "shield_bearer")
ST2_JOKER = Wildcard.any_of(ST2_VALUES, "joker")
ST2_SHIELD = Wildcard.any_of((1, 2, 3), "shield")


@dataclass(frozen=True)
class Case:
    """One claim question: both sides, the other visible cards, the rule."""

    name: str
    rule: FormationRule
    colours: int
    values: range
    claimant: tuple[Piece, ...]
    opponent: tuple[Piece, ...]
    elsewhere: tuple[Pair, ...] = ()

    def pool(self) -> Pool:
        """Every card of the deck that is not visible on the table."""
        visible = {p for p in (*self.claimant, *self.opponent) if not isinstance(p, Wildcard)}
        visible |= set(self.elsewhere)
        return Pool(
            (c, v) for c in range(self.colours) for v in self.values if (c, v) not in visible
        )


def _every_third(colours: int) -> tuple[Pair, ...]:
    """Cards 3, 6 and 9 of every colour: no colour run of 3 is left anywhere."""
    return tuple((c, v) for c in range(colours) for v in (3, 6, 9))


def suite() -> list[Case]:
    """The fixed hard cases."""
    st = FormationRule(3, ALL_KINDS)
    mud = FormationRule(4, ALL_KINDS)
    bluff = FormationRule(3, SUM_ONLY)
    gate = FormationRule(4, SUM_ONLY, lower_sum_wins=True)
    st2_all = FormationRule(3, ALL_KINDS)
    blocked = _every_third(ST_COLOURS)
    nines = ((0, 9), (1, 9), (2, 9))
    others = tuple(c for c in blocked if c not in nines)
    scattered = ((1, 1), (2, 4), (3, 2), (4, 5), (5, 8), (1, 6), (3, 3), (2, 7))
    return [
        Case(
            "ST colour run 7-8-9 vs 0 cards",
            st,
            6,
            ST_VALUES,
            ((0, 7), (0, 8), (0, 9)),
            (),
            scattered,
        ),
        Case(
            "ST colour run 7-8-9 vs 1 card",
            st,
            6,
            ST_VALUES,
            ((0, 7), (0, 8), (0, 9)),
            ((1, 9),),
            scattered,
        ),
        Case("ST three 9s, runs blocked, vs 0", st, 6, ST_VALUES, nines, (), others),
        Case("ST three 9s, runs blocked, vs 1", st, 6, ST_VALUES, nines, ((3, 1),), others),
        Case(
            "ST 3-card sum only (bluff) vs 0",
            bluff,
            6,
            ST_VALUES,
            ((0, 9), (1, 9), (2, 9)),
            (),
            ((3, 9), (4, 9), (5, 9), (0, 8)),
        ),
        Case(
            "Mud Fight colour run 6-9 vs 0",
            mud,
            6,
            ST_VALUES,
            ((0, 6), (0, 7), (0, 8), (0, 9)),
            (),
            scattered,
        ),
        Case(
            "Mud Fight four 9s, runs blocked, vs 0",
            mud,
            6,
            ST_VALUES,
            ((0, 9), (1, 9), (2, 9), (3, 9)),
            (),
            tuple(c for c in _every_third(ST_COLOURS) if c[1] != 9 or c[0] > 3)
            + tuple((c, 4) for c in range(ST_COLOURS)),
        ),
        Case(
            "ST2 gate 4 cards lower sum vs 0",
            gate,
            5,
            ST2_VALUES,
            ((0, 0), (1, 0), (2, 1), (3, 1)),
            (),
            ((4, 1), (2, 0)),
        ),
        Case(
            "ST2 gate 4 cards lower sum vs 1",
            gate,
            5,
            ST2_VALUES,
            ((0, 0), (1, 0), (2, 1), (3, 1)),
            ((4, 5),),
            ((4, 1), (2, 0)),
        ),
        Case(
            "ST wildcards: joker side vs spy",
            st,
            6,
            ST_VALUES,
            (ST_JOKER, (0, 8), (0, 9)),
            (ST_SPY,),
            scattered,
        ),
        Case(
            "ST wildcards: vs joker + 1 card",
            st,
            6,
            ST_VALUES,
            ((0, 7), (0, 8), (0, 9)),
            (ST_JOKER, (1, 2)),
            scattered,
        ),
        Case("ST wildcards: vs spy, runs blocked", st, 6, ST_VALUES, nines, (ST_SPY,), others),
        Case(
            "ST2 3 cards: joker side vs shield",
            st2_all,
            5,
            ST2_VALUES,
            (ST2_JOKER, (0, 10), (0, 11)),
            (ST2_SHIELD,),
            ((1, 11), (2, 11)),
        ),
        Case(
            "ST2 4 cards all kinds vs 0",
            FormationRule(4, ALL_KINDS),
            5,
            ST2_VALUES,
            ((0, 8), (0, 9), (0, 10), (0, 11)),
            (),
            ((1, 11), (2, 10)),
        ),
    ]


def _time(call: Callable[[], object], repeats: int) -> list[float]:
    """Seconds per call, one figure per call, with the garbage collector off (as timeit)."""
    times = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return times


def _fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def run(cases: Sequence[Case], repeats: tuple[int, int, int]) -> None:
    """Time every case with every decider and print the table."""
    exact_n, cpsat_n, brute_n = repeats
    rows = []
    all_exact: list[float] = []
    all_cpsat: list[float] = []
    for case in cases:
        pool = case.pool()
        cards = sorted(pool.cards)

        def exact(case: Case = case, pool: Pool = pool) -> bool:
            return decide_claim(
                case.claimant, case.opponent, pool, case.rule, colours=case.colours
            ).holds

        def cpsat(case: Case = case, pool: Pool = pool) -> bool:
            return decide_claim(
                case.claimant,
                case.opponent,
                pool,
                case.rule,
                colours=case.colours,
                engine="cpsat",
            ).holds

        def brute(case: Case = case, cards: list[Pair] = cards) -> bool:
            return brute_claim_holds(case.claimant, case.opponent, cards, case.rule, case.colours)

        answers = {exact(), cpsat(), brute()}
        if answers != {True}:
            raise SystemExit(f"{case.name}: the deciders disagree or the claim fails: {answers}")
        times = _time(exact, exact_n), _time(cpsat, cpsat_n), _time(brute, brute_n)
        all_exact += times[0]
        all_cpsat += times[1]
        rows.append((case, len(pool), times))

    med = statistics.median
    head = f"{'case':38} {'pool':>4}  {'exact med':>9} {'p99':>8} {'max':>8}  "
    head += f"{'cpsat med':>9} {'max':>8}  {'brute med':>9}  {'brute/exact':>11}"
    print(head)
    print("-" * len(head))
    for case, size, (ex, cp, br) in rows:
        print(
            f"{case.name:38} {size:>4}  {_fmt(med(ex)):>9} {_fmt(_p99(ex)):>8} "
            f"{_fmt(max(ex)):>8}  {_fmt(med(cp)):>9} {_fmt(max(cp)):>8}  "
            f"{_fmt(med(br)):>9}  {med(br) / med(ex):>10.0f}×"
        )
    print("-" * len(head))
    print(f"\n{'over all decisions':38} {'exact':>10} {'cpsat':>10}")
    print(f"{'median':38} {_fmt(med(all_exact)):>10} {_fmt(med(all_cpsat)):>10}")
    slow_exact = max(med(times[0]) for _, _, times in rows)
    slow_cpsat = max(med(times[1]) for _, _, times in rows)
    print(f"{'slowest case (its median)':38} {_fmt(slow_exact):>10} {_fmt(slow_cpsat):>10}")
    print(f"{'99th percentile':38} {_fmt(_p99(all_exact)):>10} {_fmt(_p99(all_cpsat)):>10}")
    print(f"{'worst single decision':38} {_fmt(max(all_exact)):>10} {_fmt(max(all_cpsat)):>10}")
    print(
        "(targets: exact median <= 50 µs and worst <= 1 ms; CP-SAT worst <= 20 ms; "
        "exact >= 100× brute force on the worst cases. A single decision's wall time\n"
        " also counts any moment the operating system gave the core to another process.)"
    )
    hardest = sorted(rows, key=lambda row: med(row[2][2]), reverse=True)[:3]
    print("\nexact vs brute force on the cases where brute force is slowest:")
    for case, _, (ex, _, br) in hardest:
        print(
            f"  {case.name}: brute {_fmt(med(br))}, exact median {_fmt(med(ex))}, "
            f"p99 {_fmt(_p99(ex))}: {med(br) / med(ex):.0f}× faster "
            f"({med(br) / _p99(ex):.0f}× against the p99)"
        )
    case, _, (ex, _, br) = max(rows, key=lambda row: med(row[2][0]))
    print(
        f"  exact's slowest case, {case.name}: brute {_fmt(med(br))}, "
        f"exact median {_fmt(med(ex))}, p99 {_fmt(_p99(ex))}: "
        f"{med(br) / med(ex):.0f}× faster ({med(br) / _p99(ex):.0f}× against the p99)"
    )


def _p99(times: Sequence[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args(argv)
    repeats = (200, 10, 1) if args.quick else (2000, 50, 3)
    # Warm up imports and caches (CP-SAT loads its library on first use).
    case = suite()[0]
    decide_claim(case.claimant, case.opponent, case.pool(), case.rule, colours=6, engine="cpsat")
    run(suite(), repeats)


if __name__ == "__main__":
    main()
