"""Validation speed and memory for Schotten Totten records.

Run from the repository root::

    python benchmarks/records_bench.py            # full report (about 3-4 minutes)
    python benchmarks/records_bench.py --quick    # a smaller corpus (about 30 seconds)

It prints, measured in one run:

* games validated per second on one core (CPU time of this process; full records,
  every claim proved by the exact engine), against the target of 1,000;
* games per second through ``referee validate --jobs 1`` and ``--jobs 2`` on a JSON
  Lines corpus (wall-clock time, whole command);
* peak memory (max RSS) of ``referee validate`` on a small and on a large corpus
  (100,000 games by default), showing that a corpus is streamed.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.records import validate
from referee.schotten_totten.record import FORMAT

TARGET_GAMES_PER_SECOND = 1000


def distinct_records(count: int) -> list:
    return [FORMAT.random_record(seed, {}) for seed in range(count)]


def write_corpus(path: Path, lines: list[str], games: int) -> None:
    rng = random.Random(0)
    with path.open("w", encoding="utf-8") as handle:
        for i in range(games):
            handle.write(lines[i % len(lines)] if i < len(lines) else rng.choice(lines))
            handle.write("\n")


def one_core(records: list) -> float:
    for record in records[:20]:  # warm up caches
        validate(record)
    start = time.process_time()
    for record in records:
        assert validate(record).legal
    return len(records) / (time.process_time() - start)


def command(corpus: Path, jobs: int) -> tuple[float, int]:
    """(wall seconds, peak RSS in KiB) of ``referee validate`` in a fresh process."""
    code = (
        "import resource, sys\n"
        "from referee.cli import main\n"
        f"status = main(['validate', '--quiet', '--jobs', '{jobs}', {str(corpus)!r}])\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print('PEAK', max(peak, kids), file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"validate failed ({done.returncode}): {done.stdout[-500:]}{done.stderr[-500:]}"
        )
    peak = int(done.stderr.split("PEAK")[-1].split()[0])
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller corpora")
    parser.add_argument("--distinct", type=int, default=300, help="distinct games generated")
    parser.add_argument("--large", type=int, default=100_000, help="games in the large corpus")
    args = parser.parse_args()
    distinct = 100 if args.quick else args.distinct
    large = 10_000 if args.quick else args.large
    small = 1_000

    records = distinct_records(distinct)
    plies = sum(len(r.moves) for r in records) / len(records)
    claims = sum(m.startswith("claim") for r in records for m in r.moves) / len(records)
    rate = one_core(records)

    lines = [r.dumps() for r in records]
    with tempfile.TemporaryDirectory() as folder:
        small_path, large_path = Path(folder) / "small.jsonl", Path(folder) / "large.jsonl"
        write_corpus(small_path, lines, small)
        write_corpus(large_path, lines, large)
        size_mb = large_path.stat().st_size / 1e6
        small_time, small_peak = command(small_path, 1)
        one_time, one_peak = command(large_path, 1)
        two_time, two_peak = command(large_path, 2)

    print("Schotten Totten record validation (full records, every claim proved)")
    print(f"  games: {distinct} distinct, {plies:.0f} plies and {claims:.1f} claims on average")
    print()
    print(f"  {'measure':<44}{'value':>14}{'target':>12}")
    print(
        f"  {'games/s, one core (CPU time, in-process)':<44}{rate:>14.0f}"
        f"{TARGET_GAMES_PER_SECOND:>12}"
    )
    print(f"  {'games/s, referee validate --jobs 1':<44}{large / one_time:>14.0f}")
    print(f"  {'games/s, referee validate --jobs 2':<44}{large / two_time:>14.0f}")
    print(f"  {'speed-up of --jobs 2 over --jobs 1':<44}{one_time / two_time:>13.2f}x")
    print()
    print(f"  {'peak memory (max RSS)':<44}{'KiB':>14}")
    print(f"  {f'{small:,} games, --jobs 1':<44}{small_peak:>14,}")
    print(f"  {f'{large:,} games ({size_mb:.0f} MB), --jobs 1':<44}{one_peak:>14,}")
    print(f"  {f'{large:,} games, --jobs 2 (largest process)':<44}{two_peak:>14,}")
    print(f"  {'growth from small to large corpus':<44}{one_peak / small_peak:>13.2f}x")
    print(
        f"\n  (measured in one run; this process peaked at "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss:,} KiB)"
    )
    del small_time


if __name__ == "__main__":
    main()
