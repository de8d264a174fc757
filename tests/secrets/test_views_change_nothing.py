"""A view shares nothing the referee decides with: whatever a program does to
the objects of its view, the full state's verdicts and legal moves stay."""

from __future__ import annotations

import random
from typing import Any

import pytest

import referee.schotten_totten as st
import referee.schotten_totten_2 as st2

GAMES = {
    "schotten-totten": lambda seed: st.new_game(seed=seed),
    "schotten-totten tactics": lambda seed: st.new_game(seed=seed, rules=st.Rules(tactics=True)),
    "schotten-totten-2": lambda seed: st2.new_game(seed=seed),
}


def _places(state: Any) -> tuple[Any, ...]:
    return tuple(getattr(state, "tiles", None) or state.stones)


def _verdicts(state: Any) -> list[object]:
    """Every claim's verdict at every place (or why none can be given)."""
    out: list[object] = []
    for number in range(1, len(_places(state)) + 1):
        for player in (0, 1):
            try:
                out.append(state.claim_verdict(number, player=player).holds)
            except ValueError as error:
                out.append(str(error))
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_writing_to_a_view_changes_no_verdict_of_the_state(name: str) -> None:
    for seed in range(8):
        rng = random.Random(seed)
        state = GAMES[name](seed)
        for _ in range(40):
            if state.is_game_over():
                break
            state = state.play(rng.choice(list(state.legal_moves())))
        before = [str(m) for m in state.legal_moves()]
        verdicts = _verdicts(state)
        for viewer in (0, 1, None):
            view = state.view(viewer)
            assert not any(a is b for a in _places(view) for b in _places(state))
            for place in _places(view):  # a careless (or hostile) program
                place.kept.verdicts[:] = [(True, 0), (True, 0)]
                place.kept.ranks[:] = [10**9, 10**9]
        assert [str(m) for m in state.legal_moves()] == before
        assert _verdicts(state) == verdicts
