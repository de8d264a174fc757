"""Clans and Glory positions: written whole, read back, checked like ``status()``.

Issue 12 points 13 and 14: a position written by ``FORMAT.position_of`` loads
back (so ``referee show`` reads it); what can be derived is derived (the cards
removed at set-up, whose turn it is, the outcome); a position no game can reach
is refused with one ``RecordError`` listing every problem.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.clans_and_glory import Layout, Seat, State, default_layout, new_game
from referee.clans_and_glory.record import FORMAT
from referee.records import Position, RecordError, parse_position


def played(players: int, seed: int, plies: int) -> State:
    game = new_game(players=players, seed=seed)
    for move in FORMAT.random_record(seed, {"players": players}).moves[:plies]:
        game = game.play(move)
    return game


def position_data(state: State) -> dict[str, Any]:
    return FORMAT.position_of(state).to_json()


def load(data: dict[str, Any]) -> State:
    return FORMAT.load_position(parse_position(data, "p.json"))


def refusal(data: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as info:
        load(data)
    assert info.value.where == "p.json"
    return info.value


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), cut=st.floats(0, 1))
def test_every_position_of_a_game_loads_back_and_plays_on_alike(
    players: int, seed: int, cut: float
) -> None:
    total = len(FORMAT.random_record(seed, {"players": players}).moves)
    state = played(players, seed, round(cut * total))
    assert state.status() == ()
    loaded = load(position_data(state))
    assert FORMAT.position_of(loaded) == FORMAT.position_of(state)
    assert loaded.to_move == state.to_move and loaded.outcome == state.outcome
    assert loaded.legal_moves() == state.legal_moves()
    assert sorted(loaded.removed) == sorted(state.removed)
    # The derived deal deals this very position.
    dealt = new_game(players=players, deck=loaded.deal)
    assert dealt.removed == loaded.removed
    assert all(dealt.seat_card(s) == loaded.seat_card(s) for s in loaded.layout.start_seats)


def test_whose_turn_and_the_outcome_are_derived() -> None:
    state = played(3, 5, 7)
    data = position_data(state)
    del data["to_move"], data["hand_sizes"]
    assert load(data).to_move == state.to_move == 1
    end = played(3, 5, 24)
    data = position_data(end)
    del data["to_move"]
    loaded = load(data)
    assert loaded.outcome is not None and loaded.outcome == end.outcome


def test_a_custom_layout_travels_in_the_position() -> None:
    base = default_layout(3)
    starts = tuple(Seat(t, 1) for t in range(1, 6))
    layout = Layout(
        base.tableaus, base.seats, base.neighbour_pairs, base.opposite_pairs, starts, base.grid
    )
    state = new_game(players=3, seed=2, layout=layout)
    state = state.play(state.legal_moves()[0])
    data = position_data(state)
    assert "layout" in data
    assert load(data).layout == layout


def test_every_problem_is_reported_at_once() -> None:
    state = played(2, 3, 4)
    data = position_data(state)
    data["to_move"] = 1
    data["shields"][3] = [1, 1]
    moved = data["hands"][0].pop()
    data["hands"][1].append(moved)
    data["hand_sizes"] = [9, 9]
    error = refusal(data)
    text = str(error)
    assert text.startswith("p.json: field 'hand_sizes': ")
    for words in (
        "[9, 9] disagrees with the hands",
        "player 2 is to move, but 4 cards have been placed, so player 1 is",
        "player 1 holds 6 cards and placed 2, but was dealt 9",
        "player 2 holds 7 cards and placed 2, but was dealt 8",
        "player 2 has a shield on tableau 4 but placed only",
    ):
        assert words in text, text
    assert error.detail.startswith(f"{text.count('; ') + 1} problems: ")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        # a card no 2-player game uses
        (lambda d: d["hands"][0].__setitem__(0, "R8"), "not in play with 2 players: R8"),
        # a start card missing from a start seat
        (
            lambda d: d.__setitem__("seats", [s for s in d["seats"] if s["seat"] != "t2s2"]),
            "start seat t2s2 must hold a face-up start card",
        ),
        # a start card where no start card goes
        (
            lambda d: d["seats"].append(
                {"seat": "t4s7", "card": d["hands"][1].pop(), "player": None}
            ),
            "seat t4s7 holds a start card but is not a start seat",
        ),
        # a player ahead of the turn order
        (
            lambda d: d["seats"].append(
                {"seat": "t4s7", "card": d["hands"][1].pop(), "player": 1, "down": True}
            ),
            "player 2 placed 3 cards, but after 5 moves in turn order it must have placed 2",
        ),
        # a face-up card that matches nothing around it
        (
            lambda d: (
                d["hands"][1].remove("B5"),
                d["seats"].append({"seat": "t4s7", "card": "B5", "player": 1}),
            ),
            "B5 on t4s7 matches no face-up card beside or opposite it",
        ),
        # one card too many: the removed cards are derived, and must be 3
        (
            lambda d: d["hands"][1].append(d["hands"][1][0][0] + "X"),
            "malformed card",
        ),
    ],
)
def test_impossible_positions_are_refused(change: Any, words: str) -> None:
    game = new_game(players=2, seed=1)
    for move in ("G5@t1s1+shield", "W4@t4s3", "B4@t2s3", "R6@t3s4"):
        game = game.play(move)
    data = position_data(game)
    change(data)
    assert words in str(refusal(data))


def test_a_position_with_the_removed_cards_back_in_a_hand_is_refused() -> None:
    game = new_game(players=2, seed=1)
    data = position_data(game)
    data["hands"][1].extend(str(c) for c in game.removed)
    assert "0 cards removed at set-up, not 3" in str(refusal(data))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seats": {}}, "seats"),
        ({"hands": [[]]}, "hands"),
        ({"shields": [[0]]}, "shields"),
        ({"to_move": 2}, "to_move"),
        ({"to_move": True}, "to_move"),
        ({"colour": "red"}, "colour"),
        ({"layout": default_layout(3).to_json()}, "layout"),
        ({"layout": {"tableaus": 4}}, "layout"),
    ],
)
def test_bad_fields_are_named(change: dict[str, Any], field: str) -> None:
    data = {**position_data(new_game(players=2, seed=1)), **change}
    assert refusal(data).field == field


@pytest.mark.parametrize(
    ("item", "field"),
    [
        ({"seat": "t9s1", "card": "R3", "player": 0}, "seats[8].seat"),
        ({"seat": "t1s01", "card": "R3", "player": 0}, "seats[8].seat"),
        ({"seat": "t1s1", "player": 0, "down": True}, "seats[8].card"),
        ({"seat": "t1s1", "card": "R9", "player": 0}, "seats[8].card"),
        ({"seat": "t1s1", "card": "R3", "player": 2}, "seats[8].player"),
        ({"seat": "t1s1", "card": "R3", "player": 0, "down": 1}, "seats[8].down"),
        ({"seat": "t1s2", "card": "R3", "player": 0}, "seats[8].seat"),
        ({"seat": "t1s1", "card": "R3", "player": 0, "x": 1}, "seats[8].x"),
    ],
)
def test_bad_seat_entries_are_named(item: dict[str, Any], field: str) -> None:
    data = position_data(new_game(players=2, seed=1))
    data["seats"].append(item)
    assert refusal(data).field == field


def test_a_position_from_a_program_uses_the_same_checks() -> None:
    position = Position(
        "clans-and-glory", position_data(new_game(players=4, seed=3)), {"players": 9}
    )
    with pytest.raises(RecordError, match="2 to 4 players"):
        FORMAT.load_position(position)


@st.composite
def edited_positions(draw: st.DrawFn) -> dict[str, Any]:
    """A real position with one random edit of the kind a careless writer makes."""
    players = draw(st.sampled_from([2, 3, 4]))
    seed = draw(st.integers(0, 1000))
    state = played(players, seed, draw(st.integers(0, 12)))
    data = position_data(state)
    edit = draw(st.sampled_from(["place", "shield", "to_move", "swap", "drop", "down"]))
    hands = data["hands"]
    holder = draw(st.sampled_from([p for p in range(players) if hands[p]]))
    if edit == "place":
        free = [str(s) for s in state.free_seats()]
        data["seats"].append(
            {
                "seat": draw(st.sampled_from(free)),
                "card": hands[holder].pop(),
                "player": draw(st.sampled_from([None, *range(players)])),
                "down": draw(st.booleans()),
            }
        )
    elif edit == "shield":
        data["shields"][draw(st.integers(0, len(data["shields"]) - 1))].append(
            draw(st.integers(0, players - 1))
        )
    elif edit == "to_move":
        data["to_move"] = draw(st.integers(0, players - 1))
    elif edit == "swap":
        other = draw(st.integers(0, players - 1))
        hands[other].append(hands[holder].pop())
    elif edit == "drop":
        hands[holder].pop()
    elif data["seats"]:
        item = draw(st.sampled_from(data["seats"]))
        item["down"] = not item.get("down", False)
    data.pop("hand_sizes")
    return data


@settings(max_examples=60, deadline=None)
@given(data=edited_positions())
def test_an_edited_position_is_refused_or_consistent(data: dict[str, Any]) -> None:
    try:
        state = load(data)
    except RecordError as error:
        assert error.where == "p.json" and error.detail
        return
    # Whatever loads is a position some game can reach, and it round-trips.
    assert state.status() == ()
    again = FORMAT.position_of(state).to_json()
    assert load(again) == state
    for move in state.legal_moves()[:5]:
        state.play(move)


# --- sound: every position a legal game passes through loads back equal -----------------------


def random_game(players: int, seed: int) -> list[State]:
    """Every state of a random legal game (any move, shields and face-down cards included)."""
    rng = random.Random(seed)
    state = new_game(players=players, seed=seed)
    states = [state]
    while not state.is_game_over():
        state = state.play(rng.choice(list(state.legal_moves())))
        states.append(state)
    return states


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_every_ply_of_a_game_loads_back_equal_and_every_listed_move_plays(
    players: int, seed: int
) -> None:
    for state in random_game(players, seed):
        assert state.status() == ()
        loaded = load(position_data(state))
        assert loaded.status() == ()
        # equal (the deal and the history, which a position does not carry, aside)
        assert loaded == state and loaded.board == state.board
        assert loaded.removed == state.removed and loaded.history == ()
        for move in loaded.legal_moves():
            loaded.play(move)  # raises if refused


# --- complete: what no order of turns reaches is refused, each with its message ---------------


def _opened(seed: int) -> dict[str, Any]:
    return position_data(new_game(players=2, seed=seed))


def test_face_up_cards_that_match_only_one_another_are_refused() -> None:
    # Two cards, one per player, side by side: they share a colour or rank, but
    # neither matches a start card, so whichever came first matched nothing then.
    for seed in range(50):
        game = new_game(players=2, seed=seed)
        free = set(game.free_seats())
        for first, second in game.layout.neighbour_pairs:
            if not {first, second} <= free:
                continue
            for a in game.hands[0]:
                b = next(
                    (
                        c
                        for c in game.hands[1]
                        if (c.colour == a.colour or c.value == a.value)
                        and not game.fits(a, first)
                        and not game.fits(c, second)
                    ),
                    None,
                )
                if b is None:
                    continue
                data = _opened(seed)
                data["hands"][0].remove(str(a))
                data["hands"][1].remove(str(b))
                data["seats"] += [
                    {"seat": str(first), "card": str(a), "player": 0},
                    {"seat": str(second), "card": str(b), "player": 1},
                ]
                data.pop("hand_sizes")
                data["to_move"] = 0
                message = str(refusal(data))
                assert f"{a} on {first}, {b} on {second} match only one another" in message
                return
    raise AssertionError("no such pair of seats found")


def test_a_face_down_card_while_a_card_fitted_is_refused() -> None:
    game = new_game(players=2, seed=1)
    assert any(m.face_down is False for m in game.legal_moves())  # something fits
    card = game.hands[0][0]
    seat = game.free_seats()[0]
    data = position_data(game)
    data["hands"][0].remove(str(card))
    data["seats"].append({"seat": str(seat), "card": str(card), "player": 0, "down": True})
    data.pop("hand_sizes")
    data["to_move"] = 1
    message = str(refusal(data))
    assert f"{card} lies face down on {seat}, but when it was placed player 1 held" in message
    assert "(a card goes face down only when none fits)" in message


def test_shields_in_an_order_the_turns_do_not_allow_are_refused() -> None:
    # Player 1's first card (turn 0) and player 2's (turn 1) both on tableau 1,
    # each with a shield: player 2's shield cannot lie under player 1's.
    game = new_game(players=2, seed=1).play("G5@t1s1+shield")
    second = next(m for m in game.legal_moves() if m.shield and m.seat.tableau == 1)
    data = position_data(game.play(second))
    assert data["shields"][0] == [0, 1]
    assert load(data).status() == ()
    data["shields"][0] = [1, 0]
    message = str(refusal(data))
    assert "the shields on tableau 1 (players 2 1, first placed first) lie in an order" in message


def test_a_players_view_is_not_offered_as_a_position() -> None:
    with pytest.raises(
        ValueError, match="position_of takes a full Clans and Glory State, not a view"
    ):
        FORMAT.position_of(new_game(players=2, seed=1).view(0))
