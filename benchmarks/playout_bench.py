"""Random playouts per second for every game and variant, before and after.

Run from the repository root::

    python benchmarks/playout_bench.py                    # the working tree only
    python benchmarks/playout_bench.py --before main      # compare a revision with it
    python benchmarks/playout_bench.py --before HEAD~3 --after HEAD --quick

A playout deals a game from a seed and plays uniformly random legal moves
(``random.Random(seed).choice(state.legal_moves())``) until the game ends, so a
seed gives the same game on any code whose rules agree. For each game and
variant the report gives:

* games per second on one core (CPU time of one process, the best of the
  repeats, no timers inside the loop), against the goal of the issue;
* the cost per ply of ``legal_moves`` (with picking the move) and of ``play``,
  and the cost of dealing a game: the same games replayed with ``play`` alone,
  and dealt alone, on the CPU clock, and subtracted (no timer inside the loop,
  so a busy machine does not inflate them); the plies per game and the legal
  moves per ply;
* a digest of every move played: the same digest before and after means the
  same games were played, move for move (a speed change kept the rules).

A case with a ``playout`` expression measures a game's own playout function
instead (``playout(state, rng, trace=trace)``: to the end on the integer core,
no move objects, no history): the games are dealt before the clock starts,
each played with ``random.Random(seed)``, and the digest is of the action ids
traced. A revision without that function shows ``n/a``.

Every measurement runs in a fresh Python process whose ``PYTHONPATH`` points
at the code measured: the working tree, or a revision exported with
``git archive`` into a temporary directory. The revisions take turns, one
repeat each, so a busy machine slows both alike; the ratios are ``after /
before`` measured in the same run. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Plies after which a playout is cut short (a safety net; no game should need it).
MAX_PLIES = 5000


@dataclass(frozen=True)
class Case:
    """One game and variant to play out: how to deal it and how to tell the end."""

    name: str
    games: int  # games per repeat (``--quick`` divides it)
    goal: int | None  # games per second asked for (issues 15 and 24)
    deal: str  # Python expression of ``seed`` giving the first state
    #: Python expression of ``state``, ``rng`` and ``trace`` (a list the action
    #: ids go to) that plays ``state`` to its end: a playout row, not the loop.
    playout: str | None = None


CASES = [
    Case("Schotten Totten 2024", 120, 1000, "st.new_game(seed=seed)"),
    Case("Schotten Totten 1999", 120, 1000, "st.new_game(seed=seed, rules=st.Rules('1999'))"),
    Case(
        "Schotten Totten tactics", 80, None, "st.new_game(seed=seed, rules=st.Rules(tactics=True))"
    ),
    Case(
        "Schotten Totten early bird",
        120,
        None,
        "st.new_game(seed=seed, rules=st.Rules(early_bird=True))",
    ),
    Case("Schotten Totten 2", 120, 1000, "st2.new_game(seed=seed)"),
    Case(
        "Schotten Totten 2 tactics",
        80,
        None,
        "st2.new_game(seed=seed, rules=st2.Rules(tactics=True))",
    ),
    Case("Clans and Glory 2 players", 400, 4000, "cg.new_game(players=2, seed=seed)"),
    Case("Clans and Glory 3 players", 300, None, "cg.new_game(players=3, seed=seed)"),
    Case("Clans and Glory 4 players", 250, None, "cg.new_game(players=4, seed=seed)"),
    *(
        Case(
            f"Clans and Glory {n} playout",
            games,
            goal,
            f"cg.new_game(players={n}, seed=seed)",
            playout="cg.playout(state, rng, trace=trace)",
        )
        for n, games, goal in ((2, 2000, 10000), (3, 1500, None), (4, 1200, None))
    ),
]


# --- the worker: runs in a fresh process against the code on its PYTHONPATH ---------------


def _games() -> dict[str, Any]:
    """The game modules, imported from whatever ``referee`` is on the path."""
    import referee.clans_and_glory as cg
    import referee.schotten_totten as st
    import referee.schotten_totten_2 as st2

    return {"st": st, "st2": st2, "cg": cg}


def _is_over(state: Any) -> bool:
    # Clans and Glory before issue 24 computed its outcome from the score, and its
    # ``is_over`` was the cheap test; now every game keeps its outcome.
    over = getattr(state, "is_over", None)
    if isinstance(over, bool):
        return over
    return state.outcome is not None


def _dealer(case: Case) -> Callable[[int], Any]:
    namespace = _games()
    code = compile(case.deal, case.name, "eval")
    return lambda seed: eval(code, namespace, {"seed": seed})  # the deal texts are ours


def _player(case: Case) -> Callable[[Any, random.Random, list[Any]], Any]:
    """The case's playout, as a function of the state, the random source and the trace."""
    namespace = _games()
    assert case.playout is not None
    code = compile(case.playout, case.name, "eval")
    return lambda state, rng, trace: eval(
        code, namespace, {"state": state, "rng": rng, "trace": trace}
    )


def _playout_pass(case: Case, games: int, first: int = 0) -> float:
    """CPU seconds for ``games`` playouts of games dealt before the clock starts."""
    deal, play = _dealer(case), _player(case)
    states = [deal(seed) for seed in range(first, first + games)]
    start = time.process_time()
    for seed, state in enumerate(states, start=first):
        play(state, random.Random(seed), None)
    return time.process_time() - start


def _playout_digest(case: Case, games: int) -> dict[str, Any]:
    """The plies and a digest of the action ids the playouts chose."""
    deal, play = _dealer(case), _player(case)
    digest = hashlib.sha256()
    plies = 0
    for seed in range(games):
        trace: list[Any] = []
        outcome = play(deal(seed), random.Random(seed), trace)
        plies += len(trace)
        digest.update((json.dumps(trace) + repr(outcome) + "\n").encode())
    return {
        "legal_us": 0.0,
        "play_us": 0.0,
        "deal_us": 0.0,
        "plies": plies / games,
        "moves": 0.0,
        "cut": 0,
        "digest": digest.hexdigest()[:12],
    }


def _plain_pass(case: Case, games: int, first: int = 0) -> float:
    """CPU seconds for ``games`` playouts with no timer inside the loop."""
    deal = _dealer(case)
    start = time.process_time()
    for seed in range(first, first + games):
        state, choose = deal(seed), random.Random(seed).choice
        plies = 0
        while not _is_over(state) and plies < MAX_PLIES:
            state = state.play(choose(state.legal_moves()))
            plies += 1
    return time.process_time() - start


def _split_pass(case: Case, games: int, seconds: float) -> dict[str, Any]:
    """Where the plain pass's CPU time went, and a digest of the moves played.

    The games are played again recording each move; then replayed from their
    deals with ``play`` alone, and dealt alone, each timed on the CPU clock. The
    differences give the cost of ``legal_moves`` (with picking a move), of
    ``play`` and of the deal, without a timer inside the loop.
    """
    deal = _dealer(case)
    records = []
    plies = moves_listed = cut = 0
    digest = hashlib.sha256()
    for seed in range(games):
        state, choose = deal(seed), random.Random(seed).choice
        played = []
        while not _is_over(state) and len(played) < MAX_PLIES:
            legal = state.legal_moves()
            move = choose(legal)
            state = state.play(move)
            moves_listed += len(legal)
            played.append(move)
        cut += len(played) >= MAX_PLIES
        plies += len(played)
        records.append((seed, played))
        digest.update(("\n".join(map(str, played)) + "\n\n").encode())
    start = time.process_time()
    for seed, played in records:
        state = deal(seed)
        for move in played:
            state = state.play(move)
    replay = time.process_time() - start
    start = time.process_time()
    for seed in range(games):
        deal(seed)
    dealing = time.process_time() - start
    return {
        "legal_us": max(seconds - replay, 0.0) * 1e6 / max(plies, 1),
        "play_us": max(replay - dealing, 0.0) * 1e6 / max(plies, 1),
        "deal_us": dealing * 1e6 / games,
        "plies": plies / games,
        "moves": moves_listed / max(plies, 1),
        "cut": cut,
        "digest": digest.hexdigest()[:12],
    }


def worker(names: list[str], scale: float) -> None:
    """Measure the named cases once and print one JSON line each."""
    import gc

    import referee

    for case in CASES:
        if case.name not in names:
            continue
        games = max(1, round(case.games * scale))
        timed = _plain_pass if case.playout is None else _playout_pass
        try:
            timed(case, max(1, games // 10), first=10**6)  # warm up, on other deals
        except AttributeError:  # a revision without the case's playout function
            print(json.dumps({"case": case.name, "missing": True}), flush=True)
            continue
        gc.collect()
        seconds = timed(case, games)
        result = {"case": case.name, "games_per_s": games / seconds, "code": referee.__file__}
        if case.playout is None:
            result.update(_split_pass(case, games, seconds))
        else:
            result.update(_playout_digest(case, games))
        print(json.dumps(result), flush=True)


# --- the driver: exports revisions, runs workers in turn, prints the report -------------------


def _export(revision: str, into: Path) -> Path:
    """The package of ``revision`` unpacked under ``into`` (``git archive``)."""
    into.mkdir(parents=True)
    archive = into / "code.tar"
    with archive.open("wb") as out:
        subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "referee"],
            stdout=out,
            check=True,
        )
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def _measure(code: Path, names: list[str], scale: float) -> Iterator[dict[str, Any]]:
    env = dict(os.environ, PYTHONPATH=str(code), PYTHONHASHSEED="0")
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", "--scale", str(scale)]
    command += [arg for name in names for arg in ("--case", name)]
    output = subprocess.run(command, env=env, cwd=code, capture_output=True, text=True, check=False)
    if output.returncode != 0:
        raise SystemExit(f"the benchmark failed on {code}:\n{output.stderr}")
    for line in output.stdout.splitlines():
        yield json.loads(line)


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The fastest repeat's throughput, with the per-ply costs of the fastest timed pass."""
    if any(r.get("missing") for r in runs):
        return {"missing": True}
    fastest = max(runs, key=lambda r: r["games_per_s"])
    timed = min(runs, key=lambda r: r["legal_us"] + r["play_us"] + r["deal_us"] / r["plies"])
    digests = {r["digest"] for r in runs}
    return dict(timed, games_per_s=fastest["games_per_s"], digest="/".join(sorted(digests)))


def _ratio(after: float, before: float) -> str:
    return f"{after / before:5.2f}×" if before else "   - "


def report(
    results: dict[str, dict[str, dict[str, Any]]], labels: list[str], names: list[str]
) -> None:
    """Print the table: one row per case, one column group per revision."""
    compare = len(labels) == 2
    print()
    head = f"{'game and variant':28}{'goal':>6} "
    for label in labels:
        head += f"| {label[:24]:^44} "
    if compare:
        head += "| after/before (speed)"
    print(head)
    sub = f"{'':28}{'':>6} "
    for _ in labels:
        sub += f"| {'games/s':>8} {'legal µs':>9} {'play µs':>8} {'deal µs':>8} {'plies':>6} "
    if compare:
        sub += f"| {'games/s':>7} {'legal':>6} {'play':>6}  same games"
    print(sub)
    print("-" * len(sub))
    for name in names:
        case = next(c for c in CASES if c.name == name)
        goal = f"{case.goal:,}" if case.goal else ""
        line = f"{name:28}{goal:>6} "
        rows = [results[label][name] for label in labels]
        for row in rows:
            line += _cells(row)
        if compare and not any(row.get("missing") for row in rows):
            before, after = rows
            same = "yes" if before["digest"] == after["digest"] else "NO: games differ"
            line += (
                f"| {_ratio(after['games_per_s'], before['games_per_s']):>7} "
                f"{_ratio(before['legal_us'], after['legal_us']):>6} "
                f"{_ratio(before['play_us'], after['play_us']):>6}  {same}"
            )
        print(line)
    print()
    print(
        "games/s: CPU time of one process, best repeat. legal µs / play µs: mean CPU cost of\n"
        "one call per ply (legal: with picking a move); deal µs: setting up one game.\n"
        "plies: mean plies per game. "
        "Ratios > 1 mean faster after."
    )
    print("Playout rows: the game's playout function on games dealt before the clock starts.")
    for label in labels:
        rows = [results[label][n] for n in names]
        rows = [r for r in rows if not r.get("missing") and r["moves"]]
        listed = ", ".join(f"{r['moves']:.0f}" for r in rows)
        cut = sum(r["cut"] for r in rows)
        print(f"{label}: legal moves per ply {listed}; games cut at {MAX_PLIES} plies: {cut}")


def _cells(row: dict[str, Any]) -> str:
    """One revision's columns of a row (``n/a`` where it lacks the case)."""
    if row.get("missing"):
        return f"| {'n/a':>8} {'':>9} {'':>8} {'':>8} {'':>6} "
    if not row["legal_us"]:  # a playout row: no split of the time
        return f"| {row['games_per_s']:>8,.0f} {'-':>9} {'-':>8} {'-':>8} {row['plies']:>6.1f} "
    return (
        f"| {row['games_per_s']:>8,.0f} {row['legal_us']:>9.1f} {row['play_us']:>8.1f} "
        f"{row['deal_us']:>8.0f} {row['plies']:>6.1f} "
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="a git revision to compare with (e.g. main, HEAD~2)")
    parser.add_argument(
        "--after", help="a git revision to measure instead of the working tree (with --before)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="repeats per revision (best kept)")
    parser.add_argument("--quick", action="store_true", help="a quarter of the games, 2 repeats")
    parser.add_argument(
        "--only", default="", help="measure only cases whose name contains this text"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--case", action="append", default=[], help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=float, default=1.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.case, args.scale)
        return
    names = [c.name for c in CASES if args.only.lower() in c.name.lower()]
    if not names:
        raise SystemExit(f"no case matches {args.only!r}")
    scale = 0.25 if args.quick else 1.0
    repeats = 2 if args.quick and args.repeats == 3 else args.repeats
    with tempfile.TemporaryDirectory(prefix="playout-bench-") as tmp:
        codes: dict[str, Path] = {}
        if args.before:
            codes[f"before: {args.before}"] = _export(args.before, Path(tmp, "before"))
        if args.after:
            codes[f"after: {args.after}"] = _export(args.after, Path(tmp, "after"))
        else:
            codes["after: working tree" if args.before else "working tree"] = ROOT
        runs: dict[str, dict[str, list[dict[str, Any]]]] = {label: {} for label in codes}
        for repeat in range(repeats):
            for label, code in codes.items():
                print(f"repeat {repeat + 1}/{repeats}: {label} ...", file=sys.stderr, flush=True)
                for result in _measure(code, names, scale):
                    runs[label].setdefault(result["case"], []).append(result)
        results = {
            label: {name: _best(found) for name, found in cases.items()}
            for label, cases in runs.items()
        }
    print(f"Random playouts on one core: {', '.join(codes)}; best of {repeats}.")
    report(results, list(codes), names)


if __name__ == "__main__":
    main()
