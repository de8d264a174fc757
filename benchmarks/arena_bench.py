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
* what starting one bot costs, in the sandbox and without it;
* hostile bots (``--hostile``, or ``--hostile-only``): the referee's resident
  memory (RSS, and its peak) over a long match streamed as ``referee match``
  streams it (``iter_match``, results added up as they come): 10,000 games
  (``--hostile-games``) against an in-process bot that answers megabyte moves,
  megabyte garbage and megabyte exceptions, then a few hundred
  (``--hostile-programs``) against a bot program that sends near-megabyte
  moves and lines, over-long lines, log floods and chatter
  (``tests/arena/hostile_bot.py medley``); and, for contrast, what
  ``play_match`` keeps when it returns every result.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

from referee.arena import (
    GameResult,
    Sandbox,
    Turn,
    arena_game,
    iter_match,
    play_match,
    random_bot,
    sandbox_problem,
    tally,
)

ROOT = Path(__file__).resolve().parents[1]
RANDOM_BOT = str(ROOT / "examples" / "bots" / "random_bot.py")
HOSTILE_BOT = str(ROOT / "tests" / "arena" / "hostile_bot.py")
GOAL_HOSTILE_MB = 100
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


def _memory() -> tuple[float, float]:
    """This process's resident memory and its peak so far, in MB (VmRSS, VmHWM)."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


_MEGABYTE = 1 << 20
_CARDS = [f"{colour}{value}" for colour in "ROYGBP" for value in range(1, 10)]
_PUT_BACK = "return " + " ".join(_CARDS * (_MEGABYTE // 3 // len(_CARDS)))


def _hostile_in_process(turn: Turn) -> object:
    """A bot that, at each turn after the fourth ply, once in 43 answers a distinct,
    parseable move of a megabyte, a megabyte of garbage, or raises an exception
    whose message is a megabyte (each loses the game): about half its games end
    so, the others are played to the end."""
    kind = turn.rng.randrange(128) if turn.ply > 4 else 3
    if kind == 0:
        return _PUT_BACK + " " + " ".join(turn.rng.choices(_CARDS, k=20))
    if kind == 1:
        return "@" * _MEGABYTE + str(turn.rng.random())
    if kind == 2:
        raise RuntimeError("x" * _MEGABYTE)
    return turn.rng.choice(turn.legal_moves)


def _streamed(bots: list[object], games: int, seed: int, marks: tuple[int, ...]) -> None:
    """Play a match as ``referee match`` does and print the memory at each mark."""
    faults: dict[str, int] = {}
    began = time.perf_counter()

    def watched() -> Iterator[GameResult]:
        stream = iter_match(bots, "schotten-totten", games=games, seed=seed)  # type: ignore[arg-type]
        for index, result in enumerate(stream, start=1):
            if result.fault is not None:
                code = str(getattr(result.fault, "value", result.fault))
                faults[code] = faults.get(code, 0) + 1
            if index in marks:
                rss, peak = _memory()
                print(
                    f"  after {index:6,} games: RSS {rss:6.1f} MB, peak {peak:6.1f} MB "
                    f"({time.perf_counter() - began:6.1f} s)"
                )
            yield result

    standings = tally(watched(), len(bots))
    _, peak = _memory()
    verdict = "meets" if peak <= GOAL_HOSTILE_MB else "misses"
    print(f"  faults: {dict(sorted(faults.items()))}")
    print(
        f"  {standings[0].games:,} games counted; peak {peak:.1f} MB ({verdict} the goal of "
        f"{GOAL_HOSTILE_MB} MB)"
    )


def hostile(games: int, programs: int, seed: int) -> None:
    """The hostile-bot section: the referee's memory over long streamed matches."""
    print(
        f"\nhostile bots, streamed (iter_match, as referee match plays); at the start: "
        f"RSS {_memory()[0]:.1f} MB"
    )
    marks = tuple(sorted({games * k // 10 for k in (1, 2, 5, 7, 10)} - {0}))
    print(f"in-process hostile bot against a random bot, {games:,} games:")
    _streamed([_hostile_in_process, random_bot], games, seed, marks)
    where = "in the sandbox" if sandbox_problem() is None else "no sandbox here"
    print(f"bot program 'hostile_bot.py medley' against a random bot ({where}), {programs} games:")
    marks = tuple(sorted({programs // 3, 2 * programs // 3, programs} - {0}))
    command = [sys.executable, HOSTILE_BOT, "medley", "bench"]
    _streamed([command, random_bot], programs, seed, marks)
    kept = 2000
    tracemalloc.start()
    results = play_match([random_bot, random_bot], "schotten-totten", games=kept, seed=seed)
    holding = tracemalloc.get_traced_memory()[0]
    count = len(results)
    del results
    grown = (holding - tracemalloc.get_traced_memory()[0]) / 1e6
    tracemalloc.stop()
    print(
        f"for contrast, play_match keeps every result: {grown:.1f} MB of Python heap for "
        f"{count:,} random games ({grown * 1e3 / count:.1f} kB a game)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hostile", action="store_true", help="also the hostile-bot section")
    parser.add_argument("--hostile-only", action="store_true", help="only the hostile-bot section")
    parser.add_argument("--hostile-games", type=int, default=10_000)
    parser.add_argument("--hostile-programs", type=int, default=300)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    if args.hostile_only:
        print(f"arena benchmark, hostile bots: python {sys.version.split()[0]}, one core")
        hostile(args.hostile_games, args.hostile_programs, args.seed)
        return
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
    if args.hostile:
        hostile(args.hostile_games, args.hostile_programs, seed)


if __name__ == "__main__":
    main()
