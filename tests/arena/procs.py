"""Finding a test's bot processes among the machine's: by a marker on their command line.

A sandboxed bot sees the pids of its own namespace only, so it cannot tell the
test its pid; the tests give each bot a unique marker instead and look for it in
``/proc/*/cmdline`` (the machine's view).
"""

from __future__ import annotations

import os
import time
import uuid


def new_marker() -> str:
    """A word to put on a bot's command line (and its children's)."""
    return f"arena-test-{uuid.uuid4().hex}"


def marked(marker: str, *also: str) -> list[int]:
    """The running processes (zombies awaiting their reaper do not count) whose
    command line holds ``marker`` (and each of ``also``)."""
    needles = [marker.encode(), *(word.encode() for word in also)]
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                line = handle.read()
            if not all(needle in line for needle in needles):
                continue
            with open(f"/proc/{entry}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
        except OSError:
            continue
        found.append(int(entry))
    return found


def survivors(marker: str, wait: float = 5.0) -> list[int]:
    """The marked processes still running once killed ones have had ``wait``
    seconds to die (the kernel kills a namespace's processes a moment after its init)."""
    deadline = time.monotonic() + wait
    while True:
        alive = marked(marker)
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


def children() -> list[int]:
    """The pids of this process's living descendants."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    mine, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - mine
        mine |= frontier
    return sorted(mine)


def describe(pids: list[int]) -> list[str]:
    """What the processes ``pids`` are (for an assertion's message)."""
    found = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                line = handle.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open(f"/proc/{pid}/stat") as handle:
                parent = handle.read().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        found.append(f"{pid} (parent {parent}): {line[:160]}")
    return found


def children_since(before: list[int]) -> list[int]:
    """This process's living descendants that were not among ``before`` (what a
    test started: a worker's long-lived fixtures, a browser or a Dask cluster,
    are not the test's)."""
    known = set(before)
    return [pid for pid in children() if pid not in known]
