"""Golden playouts: seeded Schotten Totten 2 playouts, digested action by action.

The perft of the playout API (as ``tests/schotten_totten/test_golden_playouts.py``
for Schotten Totten): each case deals ``GAMES`` games from seeds 0, 1, ...
(the attacker alternating) and plays each with ``playout(state,
random.Random(seed), trace=...)``. The digest of every action played and every
outcome must stay what ``golden_playouts.json`` says, so speed work on the
integer core cannot change the games silently.

After a deliberate change of the rules or of the default policy, write the
file again with::

    python -m tests.schotten_totten_2.test_golden_playouts
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.schotten_totten_2 import Rules, new_game
from referee.schotten_totten_2.playout import playout
from tests.golden import Golden, digested

FILE = Path(__file__).with_name("golden_playouts.json")
#: Playouts per case.
GAMES = 20

CASES: dict[str, Rules] = {"base": Rules(), "tactics": Rules(tactics=True)}


def digest(case: str) -> dict[str, Any]:
    """The digest of ``GAMES`` seeded playouts of ``case``, with their plies."""

    def played(seed: int) -> tuple[int, list[int], object]:
        state = new_game(seed=seed, attacker=seed % 2, rules=CASES[case])
        trace: list[int] = []
        outcome = playout(state, random.Random(seed), trace=trace)
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
