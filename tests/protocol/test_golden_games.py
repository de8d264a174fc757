"""Golden games: seeded random games of every game and variant, digested move by move.

The perft of these games (python-chess anchors its move generator on perft
counts): each case deals ``GAMES`` games from seeds 0, 1, ... and plays each to
its end with ``random.Random(seed)`` choosing among the legal moves, listed in
the order of their text (so the digest does not depend on the order in which a
game lists its moves, only on which moves are legal and what they do). The
digest of every move played and every outcome must stay what
``golden_games.json`` says: a change of representation or speed work cannot
change the games silently.

After a deliberate change of the rules, write the file again with::

    python -m tests.protocol.test_golden_games
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import referee.clans_and_glory as cg
import referee.schotten_totten as st
import referee.schotten_totten_2 as st2
from tests.golden import Golden, digested

FILE = Path(__file__).with_name("golden_games.json")
#: Games per case; plies past this many end a game early (no game comes near it).
GAMES = 25
MAX_PLIES = 3000

CASES: dict[str, Callable[[int], Any]] = {
    "schotten-totten 2024": lambda seed: st.new_game(seed=seed),
    "schotten-totten 1999": lambda seed: st.new_game(seed=seed, rules=st.Rules("1999")),
    "schotten-totten early bird": lambda seed: st.new_game(
        seed=seed, rules=st.Rules(early_bird=True)
    ),
    "schotten-totten tactics": lambda seed: st.new_game(seed=seed, rules=st.Rules(tactics=True)),
    "schotten-totten tactics early bird": lambda seed: st.new_game(
        seed=seed, rules=st.Rules(tactics=True, early_bird=True)
    ),
    "schotten-totten-2": lambda seed: st2.new_game(seed=seed),
    "schotten-totten-2 tactics": lambda seed: st2.new_game(
        seed=seed, rules=st2.Rules(tactics=True)
    ),
    "clans-and-glory 2": lambda seed: cg.new_game(players=2, seed=seed),
    "clans-and-glory 3": lambda seed: cg.new_game(players=3, seed=seed),
    "clans-and-glory 4": lambda seed: cg.new_game(players=4, seed=seed),
}


def digest(case: str) -> dict[str, Any]:
    """The digest of ``GAMES`` seeded random games of ``case``, with their plies."""

    def played(seed: int) -> tuple[int, list[str], object]:
        state, rng = CASES[case](seed), random.Random(seed)
        moves: list[str] = []
        while not state.is_game_over() and len(moves) < MAX_PLIES:
            move = rng.choice(sorted(state.legal_moves(), key=str))
            moves.append(str(move))
            state = state.play(move)
        return seed, moves, state.outcome

    return digested(played(seed) for seed in range(GAMES))


GOLDEN = Golden(
    FILE,
    CASES,
    digest,
    "the seeded random games changed; if the rules changed on purpose",
)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_golden_games_are_played_again_move_for_move(case: str) -> None:
    GOLDEN.check(case)


def test_every_case_has_a_golden_digest() -> None:
    GOLDEN.check_cases()


if __name__ == "__main__":  # pragma: no cover - writes the golden file
    GOLDEN.write()
