"""Clans and Glory against careless or hostile callers (issues 12 point 14 and 13).

Everything a caller can pass is refused with one of the documented errors (all
``ValueError`` subclasses) and a message that quotes the input; nothing reachable
from a public object can be changed; a layout in a record is bounded.
"""

from __future__ import annotations

import copy
import itertools
import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

from referee.cards import Card
from referee.clans_and_glory import (
    CLAN_CARDS,
    MAX_SEATS_PER_TABLEAU,
    MAX_TABLEAUS,
    SETUPS,
    InvalidDealError,
    InvalidStateError,
    Layout,
    Placed,
    Placement,
    Seat,
    State,
    default_layout,
    new_game,
    parse_move,
    score_sheet,
    score_tableau,
    setup_for,
    state_from_deal,
)
from referee.clans_and_glory.record import FORMAT
from referee.cli import main
from referee.errors import InvalidMoveError
from referee.records import RecordError, parse_record, validate

# --- look-ups out of range (issue 12 point 14) -------------------------------------------


@pytest.mark.parametrize("tableau", [0, -1, 5, 99, True, 1.0, "1", None])
def test_shield_stack_of_a_tableau_that_is_not_there(tableau: Any) -> None:
    game = new_game(players=2, seed=1)
    with pytest.raises(ValueError, match=r"no tableau .* on this table \(tableaus 1-4\)"):
        game.shield_stack(tableau)
    assert game.shield_stack(4) == ()


@pytest.mark.parametrize("player", [-1, 3, True, 0.0, "0", None])
def test_shields_left_of_a_player_that_is_not_there(player: Any) -> None:
    game = new_game(players=3, seed=1)
    with pytest.raises(ValueError, match=re.escape(f"no player {player!r} in a 3-player game")):
        game.shields_left(player)
    if player is not None:  # view(None) is the spectator's view
        with pytest.raises(ValueError, match="no player"):
            game.view(player)
    assert game.shields_left(2) == 5


@pytest.mark.parametrize(
    "seat", [Seat(5, 1), Seat(1, 8), Seat(0, 0), Seat(-1, 2), (1, 9), "t1s2", None]
)
def test_seat_look_ups_off_the_table_are_value_errors(seat: Any) -> None:
    game = new_game(players=2, seed=1)
    layout = game.layout
    for look_up in (
        layout.index,
        layout.neighbours,
        layout.opposite,
        layout.touching,
        game.seat_card,
    ):
        with pytest.raises(ValueError, match=r"no seat .* on this table") as info:
            look_up(seat)
        assert not isinstance(info.value, KeyError)
    with pytest.raises(ValueError, match="no seat"):
        game.fits(Card("R", 3), seat)


def test_seats_of_an_unknown_tableau_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no tableau 7 on this table"):
        default_layout(4).seats_of(7)


# --- layouts (issue 12 point 14, issue 13) -------------------------------------------------


def test_layout_json_with_an_unknown_key_is_refused_like_a_deal() -> None:
    data = {**default_layout(2).to_json(), "colour": "red"}
    with pytest.raises(InvalidDealError, match="layout field 'colour' is unknown") as info:
        Layout.from_json(data)
    assert info.value.reason == "field_unknown"
    record = FORMAT.random_record(1, {}).to_json()
    record["deal"]["layout"] = data
    with pytest.raises(RecordError) as error:
        FORMAT.start(parse_record(record, "r.json"))
    assert error.value.field == "deal.layout" and "'colour' is unknown" in str(error.value)


def _wide_layout(tableaus: int, per_tableau: int) -> dict[str, Any]:
    seats = [f"t{t}s{n}" for t in range(1, tableaus + 1) for n in range(1, per_tableau + 1)]
    return {
        "tableaus": tableaus,
        "seats": seats,
        "neighbours": [],
        "opposite": [],
        "start_seats": seats[:8],
        "grid": None,
    }


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        (_wide_layout(7, 6), f"1 to {MAX_TABLEAUS} tableaus, not 7"),
        (_wide_layout(4, 21), f"seats are numbered 1-{MAX_SEATS_PER_TABLEAU}"),
        ({**_wide_layout(4, 6), "tableaus": 2**70}, "tableaus"),
        (_wide_layout(5, 6), "2 players play on 4 tableaus, not 5"),
        ({**_wide_layout(4, 6), "seats": ["t1s1"] * 121}, "at most 120 seats, not 121"),
        ({**_wide_layout(4, 6), "opposite": [["t1s1", "t1s2"]] * 7141}, "at most 7140 pairs"),
    ],
)
def test_a_layout_in_a_record_is_bounded(layout: dict[str, Any], words: str) -> None:
    record = FORMAT.random_record(1, {}).to_json()
    record["deal"]["layout"] = layout
    report = validate(parse_record(record, "big.json"))
    assert report.input_error is not None
    assert "field 'deal.layout'" in report.input_error and words in report.input_error


def test_the_largest_layout_is_still_small_to_show(tmp_path: Path) -> None:
    # 6 tableaus of 20 seats, every pair of seats both neighbours and opposite,
    # grid cells at the far corners: the most a record can ask for.
    seats = [Seat(t, n) for t in range(1, 7) for n in range(1, MAX_SEATS_PER_TABLEAU + 1)]
    pairs = tuple(itertools.combinations(seats, 2))
    limit = 2 * len(seats)
    grid = tuple((limit * (i % 2), 2 * i) for i in range(len(seats)))
    starts = tuple(Seat(t, 1) for t in range(1, 7))
    layout = Layout(6, tuple(seats), pairs, pairs, starts, grid)
    game = new_game(players=4, seed=1, layout=layout)
    record = FORMAT.random_record(1, {"players": 4}).to_json()
    record["deal"] = game.deal_to_json()
    record["moves"] = [str(game.legal_moves()[0])]
    del record["result"]
    path = tmp_path / "largest.json"
    path.write_text(json.dumps(record))
    assert validate(parse_record(record)).legal
    assert main(["show", str(path)]) == 0
    assert main(["show", "--svg", str(path)]) == 0


def test_bad_layout_fields_are_refused_not_crashed_on() -> None:
    base = default_layout(2)
    for fields in (
        {"seats": None},
        {"seats": "t1s1"},
        {"seats": ((1, 2, 3),)},
        {"seats": ((1.0, 2),)},
        {"neighbour_pairs": ((Seat(1, 1),),)},
        {"grid": ((0, "a"),) * len(base.seats)},
    ):
        args: dict[str, Any] = {
            "tableaus": base.tableaus,
            "seats": base.seats,
            "neighbour_pairs": base.neighbour_pairs,
            "opposite_pairs": base.opposite_pairs,
            "start_seats": base.start_seats,
            "grid": base.grid,
            **fields,
        }
        with pytest.raises(InvalidDealError, match="invalid layout"):
            Layout(**args)


# --- immutability (issue 13) ---------------------------------------------------------------


def test_a_layouts_lookups_cannot_be_changed() -> None:
    layout = default_layout(2)
    with pytest.raises(TypeError):
        layout._index[Seat(9, 9)] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        layout._neighbours[Seat(1, 1)] = frozenset()  # type: ignore[index]
    with pytest.raises(TypeError):
        layout._opposite[Seat(1, 1)] = frozenset()  # type: ignore[index]
    with pytest.raises(AttributeError):
        layout.tableaus = 5  # type: ignore[misc]
    assert isinstance(layout.seats, tuple) and isinstance(layout.neighbour_pairs, tuple)


def test_changing_what_a_public_attribute_returns_cannot_corrupt_later_games() -> None:
    game = new_game(players=2, seed=1)
    expected = str(new_game(players=2, seed=1))
    with pytest.raises(TypeError):
        SETUPS[2] = SETUPS[4]  # type: ignore[index]
    # What is handed out is either immutable or a fresh copy.
    deal = game.deal_to_json()
    deal["deck"].reverse()  # type: ignore[attr-defined]
    layout_json = game.layout.to_json()
    layout_json["seats"].clear()  # type: ignore[attr-defined]
    position = FORMAT.position_of(game)
    position.data["hands"][0].clear()
    record = FORMAT.random_record(1, {})
    assert isinstance(record.moves, tuple)
    for value in (game.table, game.hands, game.shields, game.deal, game.removed, game.history):
        assert isinstance(value, tuple)
    assert all(isinstance(hand, tuple) for hand in game.hands)
    assert str(new_game(players=2, seed=1)) == expected and str(game) == expected
    assert default_layout(2).to_json() == new_game(players=2, seed=1).layout.to_json()
    assert FORMAT.position_of(game).data["hands"][0]


def test_a_state_built_from_lists_holds_tuples() -> None:
    game = new_game(players=2, seed=1)
    table = list(game.table)
    hands = [list(h) for h in game.hands]
    state = State(
        num_players=2,
        layout=game.layout,
        deal=list(game.deal),
        removed=[],
        table=table,
        hands=hands,
        shields=[[], [], [], []],
    )
    table[0] = Placed(Card("W", 3))
    hands[0].clear()
    assert isinstance(state.table, tuple) and state.table == game.table
    assert all(isinstance(h, tuple) for h in state.hands) and state.hands == game.hands
    assert all(isinstance(s, tuple) for s in state.shields)


def test_states_and_layouts_survive_copy_and_pickle() -> None:
    game = new_game(players=3, seed=2).play(new_game(players=3, seed=2).legal_moves()[0])
    assert copy.deepcopy(game) == game
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.legal_moves() == game.legal_moves()


# --- moves (issue 13) ----------------------------------------------------------------------


@pytest.mark.parametrize("move", [None, 3, b"G5@t1s1", 1.5, ["G5@t1s1"], Card("G", 5)])
def test_play_of_something_that_is_not_a_move_is_an_invalid_move_error(move: Any) -> None:
    game = new_game(players=2, seed=1)
    for call in (game.play, game.refusal):
        with pytest.raises(InvalidMoveError, match=re.escape(f"malformed move {move!r}")) as info:
            call(move)
        assert info.value.reason == "malformed_move" and isinstance(info.value, ValueError)
    # is_legal answers, as in every game: anything that is not a move is not legal
    assert game.is_legal(move) is False


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("G05@t1s1", "card"),
        ("G5@t01s1", "leading zero"),
        ("G5@t1s01", "leading zero"),
        ("G5@t\u0661s1", "Arabic-Indic digit"),
        ("G\u0665@t1s1", "Arabic-Indic digit"),
        ("G5@t1s1 ", "space"),
        (" G5@t1s1", "space"),
        ("g5@t1s1", "lower case"),
        ("G5@T1S1", "upper case"),
        ("G5@t1s1+shield+down", "option order"),
        ("G5@t1s1+down+down", "repeated option"),
        ("G5@t1s1+", "empty option"),
        ("G5@t1s1\n", "newline"),
    ],
)
def test_non_canonical_move_text_is_refused(text: str, why: str) -> None:
    with pytest.raises(InvalidMoveError, match="malformed move"):
        parse_move(text)


@pytest.mark.parametrize(
    "fields",
    [
        {"card": "G5"},
        {"card": Card("G", 9)},
        {"card": ("G", 5)},
        {"seat": (2, 4)},
        {"seat": "t2s4"},
        {"seat": Seat(0, 1)},
        {"seat": Seat(2, 100)},
        {"seat": Seat(True, 1)},
        {"face_down": 1},
        {"face_down": "yes"},
        {"shield": None},
    ],
)
def test_placements_with_bad_fields_are_refused(fields: dict[str, Any]) -> None:
    values: dict[str, Any] = {"card": Card("G", 5), "seat": Seat(2, 4), **fields}
    with pytest.raises(InvalidMoveError, match="malformed move"):
        Placement(**values)


# --- set-up (issue 12 point 14, issue 13) --------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": 1}, "2 to 4 players, not 1"),
        ({"players": 5}, "2 to 4 players, not 5"),
        ({"players": 2.0}, "2 to 4 players, not 2.0"),
        ({"players": True}, "2 to 4 players, not True"),
        ({"players": 2, "seed": 1.0}, "seed must be a whole number or None, not 1.0"),
        ({"players": 2, "seed": "1"}, "seed must be a whole number or None, not '1'"),
        ({"players": 2, "seed": True}, "seed must be a whole number or None, not True"),
        ({"players": 2, "deck": "R3 R4"}, "deck must be a sequence of cards, not str"),
        ({"players": 2, "deck": 7}, "deck must be a sequence of cards, not int"),
        ({"players": 2, "layout": default_layout(2).to_json()}, "layout must be a Layout"),
        ({"players": 3, "layout": default_layout(2)}, "3 players play on 5 tableaus, not 4"),
    ],
)
def test_new_game_refuses_bad_arguments_at_once(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidDealError, match=re.escape(words)) as info:
        new_game(**kwargs)
    assert isinstance(info.value, ValueError)


def test_a_deck_of_card_texts_gets_a_message_that_says_so() -> None:
    texts = [str(c) for c in setup_for(2).deck()]
    with pytest.raises(InvalidDealError) as info:
        new_game(players=2, deck=texts)  # type: ignore[arg-type]
    message = str(info.value)
    assert "not 'R3'" in message and "CLAN_CARDS.parse" in message
    assert "not in play" not in message and "missing" not in message
    cards = [CLAN_CARDS.parse(t) for t in texts]
    assert new_game(players=2, deck=cards) == state_from_deal(2, {"deck": texts})


def test_record_names_of_the_wrong_length_and_a_first_that_is_not_zero() -> None:
    for changes, field in (
        ({"first": 1.0}, "first"),
        ({"first": 0.0}, "first"),
        ({"first": False}, "first"),
        ({"players": ["a", "b", "c"]}, "players"),
        ({"players": ["a"]}, "players"),
    ):
        data = {**FORMAT.random_record(1, {}).to_json(), **changes}
        with pytest.raises(RecordError) as info:
            FORMAT.start(parse_record(data, "r.json"))
        assert info.value.field == field


# --- states (issue 12 point 13) ------------------------------------------------------------


def test_a_state_that_cannot_exist_is_refused_with_every_problem() -> None:
    game = new_game(players=2, seed=1)
    hands = (game.hands[0] + (game.hands[1][0],), game.hands[1])
    with pytest.raises(InvalidStateError) as info:
        State(
            num_players=2,
            layout=game.layout,
            deal=game.deal,
            removed=game.removed,
            table=game.table[:-1],
            hands=hands,
            shields=((0,) * 6, (), ()),
            to_move=2,
        )
    message = str(info.value)
    for words in (
        "the table has 25 entries for 26 seats",
        "3 shield stacks for 4 tableaus",
        "player 1 has 6 shields out, but only 5",
        "to_move must be a player 0-1, not 2",
        "a card lies in two places",
    ):
        assert words in message
    assert info.value.reason == "invalid_state"


@pytest.mark.parametrize(("players", "layout_players"), [(2, 3), (3, 4), (4, 2)])
def test_a_state_on_the_wrong_number_of_tableaus_is_refused(
    players: int, layout_players: int
) -> None:
    game = new_game(players=players, seed=1)
    layout = default_layout(layout_players)
    with pytest.raises(InvalidStateError, match=f"{players} players play on"):
        State(
            num_players=players,
            layout=layout,
            deal=game.deal,
            removed=game.removed,
            table=(None,) * len(layout.seats),
            hands=game.hands,
            shields=((),) * layout.tableaus,
        )


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: score_tableau(0, [], ()), "numbered from 1, not 0"),
        (lambda: score_tableau(1, ["R5"], (0,)), "not 'R5'"),
        (lambda: score_tableau(1, [Card("R", 9)], (0,)), "not Card('R', 9)"),
        (lambda: score_tableau(1, [], (0, -1)), "players 0-3"),
        (lambda: score_tableau(1, [], "01"), "players 0-3"),
        (lambda: score_sheet(0, []), "2 to 4 players, not 0"),
        (lambda: score_sheet(2, [None]), "TableauScores"),
        (
            lambda: score_sheet(2, [score_tableau(1, [Card("R", 5)], (3,))]),
            "belongs to player 3",
        ),
    ],
)
def test_scoring_refuses_what_no_table_holds(call: Any, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        call()
