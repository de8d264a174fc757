"""Golden playouts: seeded playouts of every variant, digested action by action.

The perft of the playout API (python-chess anchors its move generator on perft
counts): each case deals ``GAMES`` games from seeds 0, 1, ... and plays each
with ``playout(state, random.Random(seed), trace=...)``. The digest of every
action played and every outcome must stay what ``golden_playouts.json`` says,
so speed work on the integer core cannot change the games silently.

After a deliberate change of the rules or of the default policy, write the
file again with::

    python -m tests.schotten_totten.test_golden_playouts
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.schotten_totten import Rules, new_game
from referee.schotten_totten.playout import playout
from tests.golden import Golden, digested

FILE = Path(__file__).with_name("golden_playouts.json")
#: Playouts per case.
GAMES = 20

CASES: dict[str, Rules] = {
    "2024": Rules(),
    "1999": Rules("1999"),
    "early bird": Rules(early_bird=True),
    "tactics": Rules(tactics=True),
    "tactics early bird": Rules(tactics=True, early_bird=True),
}


def digest(case: str) -> dict[str, Any]:
    """The digest of ``GAMES`` seeded playouts of ``case``, with their plies."""

    def played(seed: int) -> tuple[int, list[int], object]:
        trace: list[int] = []
        outcome = playout(new_game(seed=seed, rules=CASES[case]), random.Random(seed), trace=trace)
        return seed, trace, outcome

    return digested(played(seed) for seed in range(GAMES))


GOLDEN = Golden(
    FILE,
    CASES,
    digest,
    "the seeded playouts changed; if the rules or the default policy changed on purpose",
)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_golden_playouts_are_played_again_action_for_action(case: str) -> None:
    GOLDEN.check(case)


def test_every_case_has_a_golden_digest() -> None:
    GOLDEN.check_cases()


if __name__ == "__main__":  # pragma: no cover - writes the golden file
    GOLDEN.write()
