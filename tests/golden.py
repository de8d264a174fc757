"""Golden digests, perft-style, as the golden tests share them: seeded games
digested move by move, the digest of each case kept in a JSON file beside its
test, checked by the test and written again by running the test module.

>>> digested([(0, ["a", "b"], "draw")])["plies"]
2
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Golden", "digested"]


def digested(games: Iterable[tuple[int, Sequence[Any], object]]) -> dict[str, Any]:
    """The digest of ``(seed, moves, outcome)`` games, in order, and their plies."""
    hashed = hashlib.sha256()
    plies = 0
    for seed, moves, outcome in games:
        hashed.update(json.dumps([seed, list(moves), str(outcome)]).encode())
        plies += len(moves)
    return {"digest": hashed.hexdigest(), "plies": plies}


@dataclass(frozen=True)
class Golden:
    """The golden file ``path`` of ``cases``, each digested by ``digest``;
    ``changed`` says what a mismatch means and what to do."""

    path: Path
    cases: Iterable[str]
    digest: Callable[[str], dict[str, Any]]
    changed: str

    def check(self, case: str) -> None:
        """``case`` digests as the file says."""
        golden = json.loads(self.path.read_text(encoding="utf-8"))
        assert self.digest(case) == golden[case], (
            f"{case}: {self.changed}, write the file again (see the test module's docstring)"
        )

    def check_cases(self) -> None:
        """The file has a digest for every case and nothing else."""
        assert sorted(json.loads(self.path.read_text(encoding="utf-8"))) == sorted(self.cases)

    def write(self) -> None:  # pragma: no cover - after a deliberate change only
        """Write the file again from the code as it is."""
        digests = {case: self.digest(case) for case in sorted(self.cases)}
        self.path.write_text(json.dumps(digests, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {self.path}", file=sys.stderr)
