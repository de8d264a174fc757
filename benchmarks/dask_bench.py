"""Validation on Dask against ``--jobs`` on one machine, and the client's memory.

Run from the repository root (needs ``pip install '.[dask]'``)::

    python benchmarks/dask_bench.py                  # 10,000 games; memory up to 100,000
    python benchmarks/dask_bench.py --large 1000000  # memory on a 1,000,000-game corpus
    python benchmarks/dask_bench.py --quick          # smaller corpora (a few minutes)

It prints, measured in one run on the same JSON Lines corpus of full Schotten
Totten records (every claim proved by the exact engine):

1. ``referee validate --quiet --jobs 2`` against ``--dask local:2``, the whole
   command, alternated so that a busy machine hurts both alike: games per
   second (wall clock) and CPU seconds of all the processes of the command
   (its workers included). The CPU ratio is the overhead; it hardly moves when
   other jobs share the machine, unlike the wall-clock ratio.
2. On a cluster already running (a long-lived cluster): the CPU of the workers
   and of the client (which here also hosts the scheduler) per game.
3. What the client spends on each game it receives (unpickling the partition's
   results, renumbering the lines): the most games per second one client can
   take in, which is where adding workers stops helping.
4. Peak memory (max RSS) of the client of ``referee validate --dask ADDRESS``
   against the running cluster, on a small and on a large corpus.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import pickle
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.schotten_totten.record import FORMAT


def write_corpus(path: Path, games: int, distinct: int = 200) -> int:
    """``games`` lines drawn from ``distinct`` full records; returns the bytes."""
    lines = [FORMAT.random_record(seed, {}).dumps() for seed in range(distinct)]
    rng = random.Random(0)
    with path.open("w", encoding="utf-8") as handle:
        for _ in range(games):
            handle.write(rng.choice(lines))
            handle.write("\n")
    return path.stat().st_size


def _cpu(who: int = resource.RUSAGE_SELF) -> float:
    use = resource.getrusage(who)
    return use.ru_utime + use.ru_stime


def _adopt_orphans() -> None:
    """Become the parent of this process's orphaned descendants (Linux), so
    that their CPU time counts when they are reaped: the workers of
    ``--dask local`` are forked by a forkserver process, which the command does
    not wait for when it exits."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


def _reap() -> None:
    """Wait for every child left (the adopted forkserver among them)."""
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def command(corpus: Path, *options: str, reap: bool = False) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the command and all its processes, peak
    RSS in KiB of the command's own process) of ``referee validate``. With
    ``reap``, the processes it leaves behind are waited for and counted (only
    when no other child process runs)."""
    code = (
        "import resource, sys\n"
        "from referee.cli import main\n"
        f"status = main(['validate', '--quiet', *{list(options)!r}, {str(corpus)!r}])\n"
        "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    cpu = _cpu(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if reap:
        _reap()
    cpu = _cpu(resource.RUSAGE_CHILDREN) - cpu
    if done.returncode != 0:
        raise SystemExit(
            f"validate {options} failed ({done.returncode}): {done.stdout[-500:]}{done.stderr[-500:]}"
        )
    return seconds, cpu, int(done.stderr.split("PEAK")[-1].split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller corpora")
    parser.add_argument("--games", type=int, default=10_000, help="corpus for the speed ratio")
    parser.add_argument("--large", type=int, default=100_000, help="corpus for the memory figure")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each command")
    args = parser.parse_args()
    if args.quick:
        args.games, args.large, args.rounds = 3_000, 20_000, 2

    from distributed import Client, LocalCluster

    from referee.distributed import _Ledger, plan_partitions, read_partition, validate_on_dask

    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "corpus.jsonl"
        size = write_corpus(corpus, args.games)
        plan = plan_partitions([corpus], threads=2)
        print(f"corpus: {args.games:,} full Schotten Totten records, {size / 2**20:.1f} MiB")
        print(f"on 2 workers: {len(plan)} partitions of {plan[0].end / 2**10:.0f} KiB")

        # 1. The two whole commands, alternated.
        runs: dict[str, list[tuple[float, float, int]]] = {"jobs": [], "dask": []}
        _adopt_orphans()
        for _ in range(args.rounds):
            runs["jobs"].append(command(corpus, "--jobs", "2", reap=True))
            runs["dask"].append(command(corpus, "--dask", "local:2", reap=True))
        wall = {k: min(r[0] for r in v) for k, v in runs.items()}
        cpu = {k: min(r[1] for r in v) for k, v in runs.items()}
        print(f"\n1. whole command (best of {args.rounds}, alternated)")
        for key, label in (("jobs", "--jobs 2      "), ("dask", "--dask local:2")):
            print(
                f"  {label} {args.games / wall[key]:6.0f} games/s  wall "
                f"{', '.join(f'{r[0]:.1f}' for r in runs[key])} s;  CPU "
                f"{', '.join(f'{r[1]:.1f}' for r in runs[key])} s"
            )
        print(
            f"  Dask / --jobs: wall {wall['dask'] / wall['jobs']:.2f}, "
            f"CPU {cpu['dask'] / cpu['jobs']:.2f} (goal: at most 1.15); extra CPU "
            f"{cpu['dask'] - cpu['jobs']:.1f} s"
        )

        with (
            LocalCluster(
                n_workers=2,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,
        ):
            # 2. A cluster already running: no start-up in the figures.
            list(validate_on_dask(client, [corpus]))  # warm: imports on the workers
            best = None
            for _ in range(args.rounds):
                workers, here = sum(client.run(_cpu).values()), _cpu()
                start = time.perf_counter()
                count = sum(1 for _ in validate_on_dask(client, [corpus]))
                seconds = time.perf_counter() - start
                workers = sum(client.run(_cpu).values()) - workers
                here = _cpu() - here
                assert count == args.games
                if best is None or seconds < best[0]:
                    best = (seconds, workers, here)
            assert best is not None
            seconds, workers, here = best
            print("\n2. validate_on_dask on a running local cluster of 2 workers")
            print(
                f"  {args.games / seconds:.0f} games/s; CPU per game: workers "
                f"{workers / args.games * 1e6:.0f} us, client and scheduler "
                f"{here / args.games * 1e6:.0f} us"
            )

            # 3. The client's own work per game received.
            result = read_partition(plan[0])
            blob = pickle.dumps(result, protocol=5)
            repeat, sink = 20, io.StringIO()
            start = time.process_time()
            for _ in range(repeat):
                list(_Ledger().reports(pickle.loads(blob)))
            per_game = (time.process_time() - start) / repeat / len(result.games)
            start = time.process_time()
            for _ in range(repeat):
                for report in _Ledger().reports(pickle.loads(blob)):
                    print(report.summary(), file=sink)
                sink.seek(0)
                sink.truncate()
            printed = (time.process_time() - start) / repeat / len(result.games)
            print("\n3. the client's work per game received")
            print(
                f"  unpickle and renumber: {per_game * 1e6:.1f} us "
                f"({len(blob) / len(result.games):.0f} bytes on the wire), "
                f"at most {1 / per_game:,.0f} games/s for one client"
            )
            print(
                f"  ... and print every game's line: {printed * 1e6:.1f} us, "
                f"at most {1 / printed:,.0f} games/s"
            )

            # 4. The client's memory against the running cluster.
            address = cluster.scheduler_address
            print(f"\n4. peak RSS of the client (referee validate --quiet --dask {address})")
            for games in (args.games, args.large):
                path = corpus if games == args.games else Path(folder) / "large.jsonl"
                if path != corpus:
                    write_corpus(path, games)
                seconds, _, peak = command(path, "--dask", address)
                print(
                    f"  {games:>9,} games: {peak / 1024:4.0f} MiB  "
                    f"({games / seconds:.0f} games/s, {seconds:.0f} s)"
                )
                if path != corpus:
                    path.unlink()


if __name__ == "__main__":
    main()
