"""Random games per second for every game and variant, before and after.

Run from the repository root::

    python benchmarks/playout_bench.py                    # the working tree only
    python benchmarks/playout_bench.py --before main      # compare a revision with it
    python benchmarks/playout_bench.py --before HEAD~3 --after HEAD --quick

Two ways of playing a random game are measured for each game and variant:

* **the referee's loop**: a game dealt from a seed and played with uniformly
  random legal moves (``random.Random(seed).choice(state.legal_moves())``,
  then ``state.play(move)``) until it ends, so a seed gives the same game on
  any code whose rules agree;
* **the playout API** (issue #24): ``playout(state, random.Random(seed))`` of
  the game's ``playout`` module, from the same deals (dealt beforehand: the
  figure is the playouts alone), where the code measured has one.

For each the report gives games per second on one core (CPU time of one
process, the best of the repeats, no timers inside the loop) beside the
issue's goal, and the plies per game; for the referee's loop also the cost per
ply of ``legal_moves`` (with picking the move) and of ``play`` and the cost of
dealing a game (the same games replayed with ``play`` alone, and dealt alone,
timed and subtracted); and a digest of every move played: the same digest
before and after means the same games were played, move for move.

The sample is a fixed set of seeds, the same in ``--quick`` (which only has
fewer repeats): enough games that a repeat lasts about a second and that their
mean length is the game's (a short sample of short games flatters).

Every measurement runs in a fresh Python process whose ``PYTHONPATH`` points
at the code measured: the working tree, or a revision exported with
``git archive`` into a temporary directory. The revisions take turns, one
repeat each, so a busy machine slows both alike; the ratios are ``after /
before`` measured in the same run. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
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
#: Plies after which a game is cut short (a safety net; no game should need it).
MAX_PLIES = 5000


@dataclass(frozen=True)
class Case:
    """One game and variant: how to deal it, its samples and the goals of issue #24."""

    name: str
    deal: str  # Python expression of ``seed`` giving the first state
    games: int  # games of the referee's loop per repeat
    loop_goal: int | None  # games per second asked of the referee's loop
    playouts: int  # games of the playout API per repeat
    playout_goal: int | None  # games per second asked of playouts
    module: str  # the game's package (its ``playout`` module, if any)


_ST, _ST2, _CG = "referee.schotten_totten", "referee.schotten_totten_2", "referee.clans_and_glory"
CASES = [
    Case("Schotten Totten 2024", "st.new_game(seed=seed)", 500, 2000, 3000, 6000, _ST),
    Case(
        "Schotten Totten 1999",
        "st.new_game(seed=seed, rules=st.Rules('1999'))",
        500,
        None,
        3000,
        None,
        _ST,
    ),
    Case(
        "Schotten Totten tactics",
        "st.new_game(seed=seed, rules=st.Rules(tactics=True))",
        200,
        None,
        600,
        2000,
        _ST,
    ),
    Case(
        "Schotten Totten early bird",
        "st.new_game(seed=seed, rules=st.Rules(early_bird=True))",
        500,
        None,
        3000,
        None,
        _ST,
    ),
    Case("Schotten Totten 2", "st2.new_game(seed=seed)", 500, 2000, 3000, 6000, _ST2),
    Case(
        "Schotten Totten 2 tactics",
        "st2.new_game(seed=seed, rules=st2.Rules(tactics=True))",
        200,
        None,
        600,
        2000,
        _ST2,
    ),
    Case(
        "Clans and Glory 2 players",
        "cg.new_game(players=2, seed=seed)",
        2000,
        4000,
        6000,
        10000,
        _CG,
    ),
    Case(
        "Clans and Glory 3 players",
        "cg.new_game(players=3, seed=seed)",
        1500,
        None,
        4000,
        None,
        _CG,
    ),
    Case(
        "Clans and Glory 4 players",
        "cg.new_game(players=4, seed=seed)",
        1200,
        None,
        3000,
        None,
        _CG,
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
    over: bool = state.is_game_over()
    return over


def _dealer(case: Case) -> Callable[[int], Any]:
    namespace = _games()
    code = compile(case.deal, case.name, "eval")
    return lambda seed: eval(code, namespace, {"seed": seed})  # the deal texts are ours


def _plain_pass(case: Case, games: int, first: int = 0) -> float:
    """CPU seconds for ``games`` games of the referee's loop, no timer inside."""
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


def _playouts(case: Case, games: int) -> dict[str, Any] | None:
    """Games per second of the game's ``playout`` (``None`` where it has none),
    from states dealt beforehand, and the plies per game."""
    try:
        module = importlib.import_module(f"{case.module}.playout")
    except ImportError:
        return None
    playout = getattr(module, "playout", None)
    if playout is None:
        return None
    deal = _dealer(case)
    states = [deal(seed) for seed in range(10**6, 10**6 + max(1, games // 10))]
    for seed, state in enumerate(states):  # warm up, on other deals
        playout(state, random.Random(seed))
    states = [deal(seed) for seed in range(games)]
    start = time.process_time()
    for seed, state in enumerate(states):
        playout(state, random.Random(seed))
    seconds = time.process_time() - start
    plies = 0
    for seed, state in enumerate(states[: max(1, games // 5)]):
        trace: list[int] = []
        playout(state, random.Random(seed), trace=trace)
        plies += len(trace)
    return {"playouts_per_s": games / seconds, "playout_plies": plies / max(1, games // 5)}


def worker(names: list[str], scale: float) -> None:
    """Measure the named cases once and print one JSON line each."""
    import gc

    import referee

    for case in CASES:
        if case.name not in names:
            continue
        games = max(1, round(case.games * scale))
        _plain_pass(case, max(1, games // 10), first=10**6)  # warm up, on other deals
        gc.collect()
        seconds = _plain_pass(case, games)
        result = {"case": case.name, "games_per_s": games / seconds, "code": referee.__file__}
        result.update(_split_pass(case, games, seconds))
        gc.collect()
        result["playout"] = _playouts(case, max(1, round(case.playouts * scale)))
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
    """The fastest repeat's throughputs, with the per-ply costs of the fastest timed pass."""
    fastest = max(runs, key=lambda r: r["games_per_s"])
    timed = min(runs, key=lambda r: r["legal_us"] + r["play_us"] + r["deal_us"] / r["plies"])
    digests = {r["digest"] for r in runs}
    playouts = [r["playout"] for r in runs if r["playout"] is not None]
    best_playout = max(playouts, key=lambda p: p["playouts_per_s"]) if playouts else None
    return dict(
        timed,
        games_per_s=fastest["games_per_s"],
        digest="/".join(sorted(digests)),
        playout=best_playout,
    )


def _ratio(after: float | None, before: float | None) -> str:
    return f"{after / before:5.2f}×" if after and before else "   - "


def _goal(figure: float | None, goal: int | None) -> str:
    """A goal beside its figure: ``≥2,000 ok`` or ``≥2,000 -35%``."""
    if goal is None:
        return ""
    if figure is None:
        return f"≥{goal:,} -"
    if figure >= goal:
        return f"≥{goal:,} ok"
    return f"≥{goal:,} {figure / goal - 1:+.1%}"


def report(
    results: dict[str, dict[str, dict[str, Any]]], labels: list[str], names: list[str]
) -> None:
    """Print the two tables: the referee's loop, then the playouts."""
    compare = len(labels) == 2
    print()
    print("The referee's loop: random.choice(state.legal_moves()), state.play(move)")
    head = f"{'game and variant':28}"
    sub = f"{'':28}"
    for label in labels:
        head += f"| {label[:24]:^44} "
        sub += f"| {'games/s':>8} {'legal µs':>9} {'play µs':>8} {'deal µs':>8} {'plies':>6} "
    head += f"| {'goal':^16}"
    sub += f"| {'':16}"
    if compare:
        head += "| after/before (speed)"
        sub += f"| {'games/s':>7} {'legal':>6} {'play':>6}  same games"
    print(head)
    print(sub)
    print("-" * len(sub))
    for name in names:
        case = next(c for c in CASES if c.name == name)
        rows = [results[label][name] for label in labels]
        line = f"{name:28}"
        for row in rows:
            line += (
                f"| {row['games_per_s']:>8,.0f} {row['legal_us']:>9.1f} {row['play_us']:>8.1f} "
                f"{row['deal_us']:>8.0f} {row['plies']:>6.1f} "
            )
        line += f"| {_goal(rows[-1]['games_per_s'], case.loop_goal):16}"
        if compare:
            before, after = rows
            same = "yes" if before["digest"] == after["digest"] else "NO: games differ"
            line += (
                f"| {_ratio(after['games_per_s'], before['games_per_s']):>7} "
                f"{_ratio(before['legal_us'], after['legal_us']):>6} "
                f"{_ratio(before['play_us'], after['play_us']):>6}  {same}"
            )
        print(line)
    print()
    print("The playout API: playout(state, random.Random(seed)) from dealt states")
    head = f"{'game and variant':28}"
    for label in labels:
        head += f"| {label[:24]:^18} "
    head += f"| {'goal':^16}"
    if compare:
        head += "| vs the referee's loop before"
    print(head)
    sub = f"{'':28}" + "".join(f"| {'games/s':>8} {'plies':>8} " for _ in labels) + f"| {'':16}"
    print(sub)
    print("-" * len(sub))
    for name in names:
        case = next(c for c in CASES if c.name == name)
        rows = [results[label][name] for label in labels]
        line = f"{name:28}"
        for row in rows:
            found = row["playout"]
            if found is None:
                line += f"| {'-':>8} {'-':>8} "
            else:
                line += f"| {found['playouts_per_s']:>8,.0f} {found['playout_plies']:>8.1f} "
        found = rows[-1]["playout"]
        line += f"| {_goal(found and found['playouts_per_s'], case.playout_goal):16}"
        if compare and found is not None:
            line += f"| {_ratio(found['playouts_per_s'], rows[0]['games_per_s']):>7}"
        print(line)
    print()
    print(
        "games/s: CPU time of one process, best repeat. legal µs / play µs: mean CPU cost of\n"
        "one call per ply (legal: with picking a move); deal µs: setting up one game.\n"
        "plies: mean plies per game. Goals (issue #24) are for the last column's code; ok or\n"
        "how far below. Ratios > 1 mean faster after. Why the line games' referee loop is\n"
        "below its goal, and which loop to search with: docs/playout.md, and\n"
        "benchmarks/loop_floor.py for what a checked ply costs before any rule runs."
    )
    for label in labels:
        rows = [results[label][n] for n in names]
        listed = ", ".join(f"{r['moves']:.0f}" for r in rows)
        cut = sum(r["cut"] for r in rows)
        print(f"{label}: legal moves per ply {listed}; games cut at {MAX_PLIES} plies: {cut}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="a git revision to compare with (e.g. main, HEAD~2)")
    parser.add_argument(
        "--after", help="a git revision to measure instead of the working tree (with --before)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="repeats per revision (best kept)")
    parser.add_argument("--quick", action="store_true", help="one repeat, the same games")
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
    repeats = 1 if args.quick and args.repeats == 3 else args.repeats
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
                for result in _measure(code, names, args.scale):
                    runs[label].setdefault(result["case"], []).append(result)
        results = {
            label: {name: _best(found) for name, found in cases.items()}
            for label, cases in runs.items()
        }
    print(f"Random games on one core: {', '.join(codes)}; best of {repeats}.")
    report(results, list(codes), names)


if __name__ == "__main__":
    main()
