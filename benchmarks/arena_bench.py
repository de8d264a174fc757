"""Speed of the arena: games per second and the referee's own cost per move.

Run from the repository root::

    python benchmarks/arena_bench.py            # 200 games per measurement
    python benchmarks/arena_bench.py --games 50 # quicker

It pins itself (and so the bots it starts) to one core and prints, measured in
one run:

* random playouts of Schotten Totten with no referee around them (the game's own
  ``legal_moves`` / ``play`` loop), games per second (CPU time);
* the same games between two in-process random bots in the arena, and the
  referee's share of the time (goal: it adds at most 10%);
* games between two subprocess random bots (``examples/bots/random_bot.py``), wall
  clock on one core, against the goal of 100 games per second, with the
  referee's CPU time per move and the bots' CPU time per move: in the sandbox
  (the default) and without it (``--no-sandbox``), alternating, best of two each;
* what starting one bot costs, in the sandbox and without it.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from referee.arena import (
    GameResult,
    Sandbox,
    arena_game,
    play_match,
    random_bot,
    sandbox_problem,
)

ROOT = Path(__file__).resolve().parents[1]
RANDOM_BOT = str(ROOT / "examples" / "bots" / "random_bot.py")
GOAL_OVERHEAD = 0.10
GOAL_SUBPROCESS_GAMES = 100.0


def bare_playouts(games: int, seed: int) -> tuple[float, int]:
    """CPU seconds and plies of ``games`` random playouts on the same deals as the arena."""
    adapter = arena_game("schotten-totten")
    plies = 0
    start = time.process_time()
    for index in range(games):
        from referee.arena import game_seed

        rng = random.Random(game_seed(seed, index // 2))
        first, deal = adapter.deal(rng)
        state = adapter.start(first, deal)
        while state.outcome is None:
            state = state.play(rng.choice(state.legal_moves()))
            plies += 1
    return time.process_time() - start, plies


def arena_in_process(games: int, seed: int) -> tuple[float, int]:
    start = time.process_time()
    results = play_match([random_bot, random_bot], "schotten-totten", games=games, seed=seed)
    return time.process_time() - start, sum(r.plies for r in results)


def arena_subprocess(games: int, seed: int, sandbox: bool) -> tuple[float, float, float, int, int]:
    """Wall seconds, referee CPU seconds, bots' CPU seconds, plies, questions asked.

    The bots' CPU time is read from ``/proc`` when the last game ends (the bot
    processes live for the whole match): a sandboxed bot is not reaped by the
    referee, so the children's ``getrusage`` does not see it."""
    bots_cpu = 0.0

    def at_the_end(result: GameResult) -> None:
        nonlocal bots_cpu
        if result.round == games - 1:
            bots_cpu = _descendants_cpu()

    cpu = time.process_time()
    wall = time.perf_counter()
    results = play_match(
        [RANDOM_BOT, RANDOM_BOT],
        "schotten-totten",
        games=games,
        seed=seed,
        on_game=at_the_end,
        sandbox=sandbox,
    )
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    plies = sum(r.plies for r in results)
    asked = plies - sum(_forced(r.record) for r in results)
    return wall, cpu, bots_cpu, plies, asked


def _descendants_cpu() -> float:
    """CPU seconds used so far by this process's descendants (bwrap and bots)."""
    parents: dict[int, int] = {}
    used: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
            used[int(entry)] = int(fields[11]) + int(fields[12])  # utime, stime
    mine, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - mine
        mine |= frontier
    return sum(used[pid] for pid in mine) / os.sysconf("SC_CLK_TCK")


def start_up(sandbox: bool, times: int = 20) -> float:
    """Wall seconds to start a random bot, have its hello, and stop it."""
    argv = [sys.executable, RANDOM_BOT]
    env = None
    if sandbox:
        argv, env = Sandbox().command(argv)
    hello = b'{"type":"hello","protocol":"referee-arena/1"}\n'
    wall = time.perf_counter()
    for _ in range(times):
        subprocess.run(argv, env=env, input=hello, capture_output=True, check=True)
    return (time.perf_counter() - wall) / times


def _forced(record: object) -> int:
    """How many plies of a record had a single legal move (the referee plays those)."""
    adapter = arena_game("schotten-totten")
    state = adapter.start(record.first, record.deal)  # type: ignore[attr-defined]
    forced = 0
    for move in record.moves:  # type: ignore[attr-defined]
        if len(adapter.legal_moves(state, random.Random(0))) == 1:
            forced += 1
        state = state.play(move)
    return forced


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    games, seed = args.games, args.seed
    print(f"arena benchmark: Schotten Totten, {games} games per measurement, one core")
    print(f"python {sys.version.split()[0]}")

    arena_in_process(10, seed + 1)  # warm up
    # Best of three, alternating, so that a busy machine hurts both sides alike.
    bare_cpu, arena_cpu = float("inf"), float("inf")
    for _ in range(3):
        cpu, bare_plies = bare_playouts(games, seed)
        bare_cpu = min(bare_cpu, cpu)
        cpu, arena_plies = arena_in_process(games, seed)
        arena_cpu = min(arena_cpu, cpu)
    print(
        f"\nbare random playouts:      {games / bare_cpu:8.1f} games/s  ({bare_plies / games:.0f} plies a game)"
    )
    print(
        f"arena, in-process bots:    {games / arena_cpu:8.1f} games/s  ({arena_plies / games:.0f} plies a game)"
    )
    per_ply_bare = bare_cpu / bare_plies
    per_ply_arena = arena_cpu / arena_plies
    overhead = per_ply_arena / per_ply_bare - 1
    verdict = "meets" if overhead <= GOAL_OVERHEAD else "misses"
    print(
        f"referee overhead:          {overhead:+8.1%} per ply "
        f"({(per_ply_arena - per_ply_bare) * 1e6:.1f} us a ply; {verdict} the goal of "
        f"{GOAL_OVERHEAD:.0%})"
    )

    modes = [False] if sandbox_problem() is not None else [True, False]
    if len(modes) == 1:
        print(f"\n(no sandbox here: {sandbox_problem()})")
    best: dict[bool, tuple[float, float, float, int, int]] = {}
    for _ in range(2):  # alternating, best of two, so that a busy machine hurts both alike
        for sandbox in modes:
            run = arena_subprocess(games, seed, sandbox)
            if sandbox not in best or run[0] < best[sandbox][0]:
                best[sandbox] = run
    for sandbox in modes:
        wall, cpu, bots, plies, asked = best[sandbox]
        verdict = "meets" if games / wall >= GOAL_SUBPROCESS_GAMES else "misses"
        label = "in the sandbox" if sandbox else "no sandbox"
        print(
            f"\narena, subprocess bots, {label + ':':16}{games / wall:8.1f} games/s wall clock "
            f"({verdict} the goal of {GOAL_SUBPROCESS_GAMES:.0f})"
        )
        print(
            f"  plies {plies}, of which the bots were asked {asked} (the others had one legal move)"
        )
        print(
            f"  referee CPU per ply:     {cpu / plies * 1e6:8.1f} us  "
            f"({cpu / max(asked, 1) * 1e6:.1f} us per question)"
        )
        print(
            f"  bots' CPU per question:  {bots / max(asked, 1) * 1e6:8.1f} us  "
            "(both bots, read from /proc)"
        )
        busy = cpu + bots
        print(
            f"  CPU-bound estimate:      {games / busy:8.1f} games/s on one idle core "
            f"(referee {cpu / busy:.0%} of the CPU time, bots {bots / busy:.0%})"
        )
    if len(modes) == 2:
        ratio = best[False][0] / best[True][0]
        print(f"\nsandboxed / unsandboxed games per second: {ratio:.2f}")
        plain, boxed = start_up(False), start_up(True)
        print(
            f"starting a bot: {plain * 1e3:.1f} ms without the sandbox, {boxed * 1e3:.1f} ms "
            f"in it (+{(boxed - plain) * 1e3:.1f} ms; a match starts one per bot and seat "
            "rotation, and again after a fault)"
        )


if __name__ == "__main__":
    main()
