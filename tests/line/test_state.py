"""The shared kernel's state machinery: one representation for every game on a line."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from referee import schotten_totten as st
from referee import schotten_totten_2 as st2
from referee.line import check_viewer, illegal, not_your_turn, replaced


@pytest.mark.parametrize("game", [st, st2], ids=["schotten_totten", "schotten_totten_2"])
def test_every_state_is_a_frozen_slotted_dataclass_not_a_tuple(game: object) -> None:
    state = game.new_game(seed=3)  # type: ignore[attr-defined]
    assert dataclasses.is_dataclass(state) and not isinstance(state, tuple)
    assert not hasattr(state, "_replace") and not hasattr(state, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.ply = 5
    with pytest.raises(TypeError):
        state[3]
    # dataclasses.replace works (and checks the field names)
    later = dataclasses.replace(state, ply=7)
    assert later.ply == 7 and state.ply == 0
    with pytest.raises(TypeError):
        dataclasses.replace(state, plyy=7)
    # states survive pickling (process pools) equal, history apart
    after = state.play(state.legal_moves()[0])
    assert pickle.loads(pickle.dumps(after)) == after


def test_stones_and_tiles_are_dataclasses_too() -> None:
    stone = st.Stone(sides=((), ()), owner=1)
    assert dataclasses.is_dataclass(stone) and not isinstance(stone, tuple)
    assert dataclasses.replace(stone, owner=0).owner == 0
    tile = st2.Tile(4, damaged=True)
    assert dataclasses.is_dataclass(tile) and not isinstance(tile, tuple)
    side = (st2.parse_card("R7"),)
    changed = tile.with_side(0, side, 3)
    assert type(changed) is st2.Tile and changed.number == 4 and changed.damaged
    assert changed.sides == (side, ()) and tile.sides == ((), ())


def test_history_never_makes_states_unequal() -> None:
    game = st.new_game(seed=4)
    move = game.legal_moves()[0]
    played = game.play(move)
    untracked = game._play_untracked(move)
    assert played == untracked and hash(played) == hash(untracked)
    assert played.history == (move,) and untracked.history == ()


def test_replaced() -> None:
    assert replaced(("a", "b"), 0, "c") == ("c", "b")


def test_refusals_quote_the_move_and_carry_their_reason() -> None:
    error = illegal("claim 3", "stone_claimed", "stone 3 is already claimed")
    assert (error.reason, str(error)) == (
        "stone_claimed",
        "illegal move 'claim 3': stone 3 is already claimed",
    )
    turn = not_your_turn("draw", "not_your_turn", 1, 0)
    assert str(turn) == "illegal move 'draw': it is player 2's turn, not player 1's"
    for bad in (2, -1, True, "0"):
        with pytest.raises(ValueError, match=f"not {bad!r}"):
            check_viewer(bad)
    check_viewer(None)
