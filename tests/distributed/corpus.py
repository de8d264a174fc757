"""Generated JSON Lines corpora for the Dask tests: legal, illegal and unreadable lines."""

from __future__ import annotations

import glob
import json
import os
import random
from pathlib import Path

import pytest

from referee.records import find_game

#: Lines no reader can turn into a record, each for a different reason.
UNREADABLE_LINES = (
    b"{oops",
    b"\xff\xfe not UTF-8",
    b"[1, 2, 3]",
    b'{"moves": ["pass"]}',
    b'{"game": "chess", "moves": []}',
    b'{"game": "schotten-totten", "moves": "R7@3"}',
)


def distinct_lines(count: int) -> list[bytes]:
    """``count`` legal records (three games in turn) and, for each, an illegal twin."""
    games = [
        find_game(name) for name in ("schotten-totten", "schotten-totten-2", "clans-and-glory")
    ]
    lines = []
    for seed in range(count):
        record = games[seed % 3].random_record(seed, {})
        data = record.to_json()
        lines.append(json.dumps(data).encode())
        # The illegal twin: two moves swapped, or the same move played twice.
        moves = list(data["moves"])
        at = 1 + seed % max(1, len(moves) - 2)
        if seed % 2:
            moves[at], moves[at + 1] = moves[at + 1], moves[at]
        else:
            moves.insert(at, moves[at])
        lines.append(json.dumps({**data, "moves": moves}).encode())
    return lines


def write_corpus(path: Path, games: int, *, distinct: int = 60, seed: int = 0) -> Path:
    """A corpus of ``games`` lines: mostly copies of a few legal and illegal
    records, about one line in 50 unreadable, some blank lines and CRLF endings,
    and no newline after the last line."""
    rng = random.Random(seed)
    pool = distinct_lines(distinct)
    with path.open("wb") as handle:
        for number in range(games):
            line = rng.choice(UNREADABLE_LINES) if rng.random() < 0.02 else rng.choice(pool)
            if rng.random() < 0.01:
                handle.write(b"\n" if rng.random() < 0.5 else b"   \n")
            ending = b"\r\n" if rng.random() < 0.05 else b"\n"
            handle.write(line + (ending if number < games - 1 else b""))
    return path


def line_starts(path: Path) -> list[int]:
    """The byte offset where each line of ``path`` starts (line 1 first)."""
    starts, position = [], 0
    for line in path.read_bytes().split(b"\n"):
        starts.append(position)
        position += len(line) + 1
    return starts


def unreadable_file(path: Path, games: int = 3_000) -> Path:
    """A ``.jsonl`` file at ``path`` that has a size but cannot be read.

    Without root, a corpus of ``games`` lines made unreadable. Root reads any
    file, so a link to a write-only kernel attribute (which has a size, 4096
    bytes, and refuses every reader) stands in for it.
    """
    if os.geteuid() != 0:
        write_corpus(path, games, seed=14)
        path.chmod(0)
        return path
    for candidate in sorted(glob.glob("/sys/bus/*/rescan") + glob.glob("/sys/class/*/*")):
        try:
            open(candidate, "rb").close()
        except PermissionError:
            if os.path.isfile(candidate) and os.path.getsize(candidate) > 0:
                path.symlink_to(candidate)
                return path
        except OSError:
            continue
    pytest.skip("no file here that root cannot read")
