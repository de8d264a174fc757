"""The shared kernel's state machinery: one representation for every game on a line."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from referee import schotten_totten as st
from referee import schotten_totten_2 as st2
from referee.line import check_viewer, copier, illegal, not_your_turn, remember, replaced
from referee.line.legacy import MEMO_LIMIT


@dataclasses.dataclass(frozen=True, slots=True)
class _Point:
    x: int = 0
    y: int = 0
    label: str = ""


def test_copier_changes_the_named_fields_and_keeps_the_rest() -> None:
    evolve = copier(_Point)
    start = _Point(1, 2, "a")
    moved = evolve(start, y=5)
    assert moved == _Point(1, 5, "a")
    assert start == _Point(1, 2, "a")  # the original is untouched
    assert evolve(start) == start and evolve(start) is not start
    # the copy is a true, frozen _Point (written through a mutable twin first)
    assert type(moved) is _Point and not hasattr(moved, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.x = 3  # type: ignore[misc]
    assert copier(_Point, "x")(moved, 4) == _Point(4, 5, "a")


def test_copier_refuses_a_misspelled_field_instead_of_ignoring_it() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'yy'"):
        copier(_Point)(_Point(), yy=3)
    with pytest.raises(TypeError, match="_Point has no field 'z'"):
        copier(_Point, "x", "z")
    with pytest.raises(TypeError, match="named twice"):
        copier(_Point, "x", "x")


def test_positional_copier_changes_fields_in_the_order_named() -> None:
    evolve = copier(_Point, "label", "x")
    assert evolve(_Point(1, 2, "a"), "b", 9) == _Point(9, 2, "b")
    with pytest.raises(TypeError):
        evolve(_Point(), "b")  # one value short


def test_copier_wants_a_slotted_dataclass() -> None:
    @dataclasses.dataclass(frozen=True)
    class Loose:
        x: int = 0

    with pytest.raises(TypeError, match="not a slotted dataclass"):
        copier(Loose)


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


def test_replaced_and_remember() -> None:
    assert replaced(("a", "b"), 0, "c") == ("c", "b")
    memo: dict[int, int] = {}
    for i in range(MEMO_LIMIT + 1):
        remember(memo, i, i)
    assert memo == {MEMO_LIMIT: MEMO_LIMIT}  # a full memo starts afresh


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
