"""``State.legal_moves()`` at a plain turn's start is the lazy ``Plays``
itself, a ``LegalMoves`` that answers as the list of the legal moves does."""

from __future__ import annotations

import random

import pytest

from referee.game import LegalMoves
from referee.schotten_totten import Rules, new_game
from referee.schotten_totten.legal import Plays
from referee.schotten_totten.moves import Draw


@pytest.mark.parametrize(
    "rules", [Rules(), Rules("1999"), Rules(early_bird=True), Rules(tactics=True)]
)
def test_the_view_answers_as_the_list_at_every_ply(rules: Rules) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(seed=seed, rules=rules)
        while not state.is_game_over():
            view, listed = state.legal_moves(), state.generate_legal_moves()
            assert isinstance(view, LegalMoves)
            assert len(view) == view.count() == len(listed) and bool(view) == bool(listed)
            assert view == listed and list(view) == listed
            assert [view[i] for i in range(-len(listed), len(listed))] == listed + listed
            assert view[1:4] == listed[1:4]
            assert all(move in view and view.count(move) == 1 for move in listed[:5])
            assert repr(view) == f"<LegalMoves ({', '.join(map(str, listed))})>"
            with pytest.raises(IndexError):
                view[len(listed)]
            state = state.play(rng.choice(view))


def test_a_plain_turns_start_gives_the_plays_themselves() -> None:
    state = new_game(seed=5)
    assert type(state.legal_moves()) is Plays
    assert type(state.play(state.legal_moves()[0]).legal_moves()) is LegalMoves
    assert type(new_game(seed=5, rules=Rules(tactics=True)).legal_moves()) is LegalMoves
    assert Draw() not in state.legal_moves() and state.legal_moves()[0] in state.legal_moves()
