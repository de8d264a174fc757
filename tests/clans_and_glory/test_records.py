"""Clans and Glory in records and on the command line (issue #7)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.clans_and_glory import Layout, Seat, State, default_layout, new_game
from referee.clans_and_glory.record import FORMAT, ClansAndGloryFormat
from referee.cli import main
from referee.records import (
    Position,
    RecordError,
    find_game,
    json_schema,
    load_record,
    parse_record,
    replay,
    validate,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "records" / "clans-and-glory"
ILLEGAL = ROOT / "examples" / "illegal-records" / "clans-and-glory"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def record_json(seed: int = 3, players: int = 2, **changes: Any) -> dict[str, Any]:
    data = FORMAT.random_record(seed, {"players": players}).to_json()
    data.update(changes)
    return data


def start_error(data: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as error:
        FORMAT.start(parse_record(data, "cg.json"))
    return error.value


# --- registration and round trip ---------------------------------------------------------


def test_importing_referee_registers_the_game() -> None:
    fmt = find_game("clans-and-glory")
    assert fmt is FORMAT and fmt.title == "Clans and Glory"
    assert ClansAndGloryFormat.has_claims is False


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_record_round_trips_through_json_and_is_legal(players: int) -> None:
    record = FORMAT.random_record(11, {"players": players})
    again = parse_record(json.loads(record.dumps()), "again.json")
    assert again == record
    jsonschema.validate(record.to_json(), json_schema("record"))
    report = validate(again)
    assert report.legal, report.summary()
    assert report.plies == len(record.moves) == {2: 16, 3: 24, 4: 28}[players]
    assert record.rules == {"players": players} and len(record.players) == players
    assert record.result is not None and len(record.result["scores"]) == players


def test_same_seed_same_record_and_the_deal_is_deal_to_json() -> None:
    one = FORMAT.random_record(5, {"players": 3})
    assert one == FORMAT.random_record(5, {"players": 3})
    assert one != FORMAT.random_record(6, {"players": 3})
    assert one.deal == new_game(players=3, seed=5).deal_to_json()
    assert FORMAT.start(one) == new_game(players=3, seed=5)


def test_players_default_to_two() -> None:
    record = FORMAT.random_record(2, {})
    assert record.rules == {"players": 2} and len(record.moves) == 16
    data = record.to_json()
    del data["rules"]
    assert FORMAT.start(parse_record(data)).num_players == 2


def test_result_holds_winner_reason_and_scores() -> None:
    record = FORMAT.random_record(7, {"players": 4})
    final = replay(record)
    assert final.outcome is not None
    assert record.result == {
        "winner": final.outcome.winner,
        "reason": final.outcome.reason,
        "scores": list(final.score().points),
    }


def test_a_shared_win_has_no_winner() -> None:
    from referee.game import Outcome

    assert FORMAT.result_of(Outcome("shared", None, (10, 10))) == {
        "winner": None,
        "reason": "shared",
        "scores": [10, 10],
    }


def test_wrong_recorded_scores_are_a_mismatch() -> None:
    data = record_json(4)
    data["result"]["scores"] = [0, 0]
    report = validate(parse_record(data))
    assert report.error is None and not report.legal
    assert report.result_mismatch is not None and "scores" in report.result_mismatch


def test_a_custom_layout_travels_in_the_deal() -> None:
    base = default_layout(2)
    layout = Layout(
        tableaus=base.tableaus,
        seats=base.seats,
        neighbour_pairs=base.neighbour_pairs,
        opposite_pairs=base.opposite_pairs[:-1],  # the head seats do not face each other
        start_seats=base.start_seats,
    )
    game = new_game(players=2, seed=3, layout=layout)
    data = record_json(3)
    data["deal"] = game.deal_to_json()
    data["moves"] = [str(game.legal_moves()[0])]
    del data["result"]
    start = FORMAT.start(parse_record(data))
    assert start.layout == layout and start == game
    assert validate(parse_record(data)).legal


# --- set-up errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "field", "words"),
    [
        ({"players": 5}, "rules.players", "2 to 4 players, not 5"),
        ({"players": 1}, "rules.players", "not 1"),
        ({"players": "3"}, "rules.players", "not '3'"),
        ({"players": True}, "rules.players", "not True"),
        ({"players": 2, "edition": "2024"}, "rules.edition", "unknown rule 'edition'"),
    ],
)
def test_bad_rules_name_the_field(rules: dict[str, Any], field: str, words: str) -> None:
    error = start_error(record_json(rules=rules))
    assert error.field == field and words in str(error)
    assert str(error).startswith("cg.json")


def test_random_record_refuses_bad_rules() -> None:
    with pytest.raises(RecordError) as error:
        FORMAT.random_record(1, {"players": 7})
    assert error.value.field == "rules.players"


def deal_with(**changes: Any) -> dict[str, Any]:
    deal = dict(new_game(players=2, seed=3).deal_to_json())
    deal.update(changes)
    return {k: v for k, v in deal.items() if v is not None}


@pytest.mark.parametrize(
    ("deal", "field", "words"),
    [
        (deal_with(deck="R3 R4"), "deal.deck", "must be a list of card texts"),
        (deal_with(deck=None), "deal.deck", "'deck' is missing"),
        (deal_with(deck=["R3", 4]), "deal.deck[1]", "expected a card"),
        (deal_with(deck=["R3", "Q5"]), "deal.deck[1]", "unknown card"),
        (deal_with(deck=["R3", "R9"]), "deal.deck[1]", "outside 3-8"),
        (deal_with(players=3), "deal.players", "'players' is 3, but the game has 2"),
        (deal_with(game="schotten-totten"), "deal.game", "must be 'clans_and_glory'"),
        (deal_with(seed=4), "deal.seed", "'seed' is unknown"),
        (deal_with(layout=[]), "deal.layout", "must be an object"),
        (deal_with(layout={"tableaus": "four"}), "deal.layout", "'tableaus' must be an integer"),
    ],
)
def test_bad_deal_names_the_field(deal: dict[str, Any], field: str, words: str) -> None:
    error = start_error(record_json(deal=deal))
    assert error.field == field and words in str(error), str(error)


def test_a_deck_that_is_not_a_permutation() -> None:
    deck = [str(card) for card in new_game(players=2, seed=3).deal]
    for broken, words in (
        ([*deck[:-1], deck[0]], "repeated"),
        (deck[:-1], "missing"),
        ([*deck[:-1], "R8"], "not in play R8"),  # no 8s with two players
    ):
        error = start_error(record_json(deal=deal_with(deck=broken)))
        assert error.field == "deal.deck" and "exactly once" in str(error) and words in str(error)


def test_public_records_are_refused_with_a_reason() -> None:
    data = record_json()
    del data["deal"]
    error = start_error(data)
    assert error.field == "deal" and "public records" in str(error)
    report = validate(parse_record(data, "public.json"))
    assert report.public and report.input_error is not None
    assert "not supported for Clans and Glory" in report.input_error


def test_first_must_be_player_zero_and_names_must_fit() -> None:
    error = start_error(record_json(first=1))
    assert error.field == "first" and "always moves first" in str(error)
    data = record_json()
    data["players"] = ["Ada", "Bruno", "Chiara"]
    error = start_error(data)
    assert error.field == "players" and "3 names for a 2-player game" in str(error)


def test_illegal_moves_report_ply_and_reason() -> None:
    data = record_json(3)
    after = replay(parse_record(data), 3)
    assert isinstance(after, State)
    taken = data["moves"][2].split("@")[1].split("+")[0]
    data["moves"] = [*data["moves"][:3], f"{after.hands[after.to_move][0]}@{taken}"]
    del data["result"]
    report = validate(parse_record(data))
    assert report.error is not None
    assert (report.error.ply, report.error.reason) == (4, "seat_taken")
    data["moves"] = ["G5@t2s4+shield@t3"]
    report = validate(parse_record(data))
    assert report.error is not None and report.error.reason == "malformed_move"


# --- positions and claims -----------------------------------------------------------------


def test_position_shows_the_whole_table_and_every_hand() -> None:
    record = load_record(EXAMPLES / "full-3-players.json")
    state = replay(record)
    assert isinstance(state, State)
    position = FORMAT.position_of(state)
    assert position.game == "clans-and-glory" and position.rules == {"players": 3}
    data = position.data
    assert data["hand_sizes"] == [1, 1, 0] and data["to_move"] == state.to_move
    assert data["hands"] == [[str(c) for c in hand] for hand in state.hands]
    assert [list(s) for s in state.shields] == data["shields"]
    seats = {item["seat"]: item for item in data["seats"]}
    assert len(seats) == sum(p is not None for p in state.table) == 5 + 24
    down = [m for m in record.moves if "+down" in m]
    assert down
    for move in down:
        seat = move.split("@")[1].split("+")[0]
        assert seats[seat]["down"] is True and seats[seat]["card"] == move.split("@")[0]
    start_cards = [item for item in data["seats"] if item["player"] is None]
    assert len(start_cards) == 5 and all("down" not in item for item in start_cards)
    assert "layout" not in data
    json.dumps(position.to_json())


def test_a_position_without_hands_cannot_be_loaded() -> None:
    state = replay(FORMAT.random_record(1, {}), 4)
    data = dict(FORMAT.position_of(state).data)
    del data["hands"]
    with pytest.raises(RecordError, match="needs every hand") as error:
        FORMAT.load_position(Position("clans-and-glory", data, {}, "p"))
    assert error.value.where == "p" and error.value.field == "hands"


def test_there_is_nothing_to_claim() -> None:
    state = replay(FORMAT.random_record(1, {"players": 4}), 9)
    assert FORMAT.claimability(state) == []


# --- bundled examples -------------------------------------------------------------------------


def test_bundled_examples_cover_each_player_count_and_refusal() -> None:
    paths = sorted([*EXAMPLES.glob("*.json"), *ILLEGAL.glob("*.json")])
    reports = {p.name: validate(load_record(p)) for p in paths}
    assert {n for n, r in reports.items() if r.legal} == {
        "full-2-players.json",
        "full-3-players.json",
        "full-4-players.json",
    }
    reasons = {r.error.reason for r in reports.values() if r.error is not None}
    assert reasons >= {"no_match", "face_down_with_fit", "no_shields_left", "card_not_in_hand"}
    assert reports["illegal-wrong-result.json"].result_mismatch is not None
    for name in ("full-2-players.json", "full-3-players.json", "full-4-players.json"):
        assert any("+down" in m for m in load_record(EXAMPLES / name).moves)


# --- the command line ----------------------------------------------------------------------


def test_cli_validate_legal_and_illegal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(EXAMPLES / "full-4-players.json"))
    assert code == 0
    assert "ok (clans-and-glory, full record, 28 plies, game over" in out
    code, out, _ = run(capsys, "validate", str(EXAMPLES))
    assert code == 0
    assert out.strip().splitlines()[-1] == "3 records: 3 legal, 0 illegal, 0 unreadable"
    code, out, _ = run(capsys, "validate", str(ILLEGAL))
    assert code == 1
    assert "illegal at ply 11 'W3@t4s1+shield' [no_shields_left]" in out
    assert out.strip().splitlines()[-1] == "5 records: 0 legal, 5 illegal, 0 unreadable"


def test_cli_validate_public_record_is_unreadable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = record_json()
    del data["deal"]
    path = tmp_path / "public.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 2 and "unreadable" in out and "public records" in out


def test_cli_show_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "full-2-players.json")
    code, out, _ = run(capsys, "show", "--ply", "0", path)
    assert code == 0
    assert out.startswith("Clans and Glory, 2 players: player 1 to move")
    assert out == str(new_game(players=2, seed=4)) + "\n"
    code, out, _ = run(capsys, "show", path)
    assert code == 0 and "game over, player 1 wins (most_points)" in out


def test_cli_show_before_an_illegal_ply_and_after_it(capsys: pytest.CaptureFixture[str]) -> None:
    # The verdict is about the record: refused at ply 6 too (docs/records.md).
    path = str(ILLEGAL / "illegal-no-match.json")
    code, out, err = run(capsys, "show", "--ply", "6", path)
    assert code == 1 and out == "" and "illegal at ply 7 'O3@t1s1' [no_match]" in err
    code, _, err = run(capsys, "show", path)
    assert code == 1 and "illegal at ply 7 'O3@t1s1' [no_match]" in err


def test_cli_demo_four_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "demo", "--game", "clans-and-glory", "--rules", '{"players": 4}', "--seed", "3"
    )
    assert code == 0
    data = json.loads(out)
    assert data == FORMAT.random_record(3, {"players": 4}).to_json()
    assert data["rules"] == {"players": 4} and len(data["moves"]) == 28
    jsonschema.validate(data, json_schema("record"))
    assert validate(parse_record(data)).legal


def test_cli_demo_bad_rules_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "demo", "--game", "clans-and-glory", "--rules", '{"players": 9}')
    assert code == 2 and "rules.players" in err and "not 9" in err


def test_cli_claimable_says_there_are_no_claims(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "full-3-players.json")
    code, out, _ = run(capsys, "claimable", "--ply", "5", path)
    assert (code, out) == (0, "Clans and Glory has no claims to prove\n")
    code, out, _ = run(capsys, "claimable", "--json", path)
    assert code == 0
    assert json.loads(out) == {"game": "clans-and-glory", "to_move": 0, "answers": []}


def test_cli_show_and_claimable_read_a_written_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Issue 12 point 14: a position written by position_of is readable by show.
    state = replay(FORMAT.random_record(2, {}), 3)
    assert isinstance(state, State)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(FORMAT.position_of(state).to_json()))
    code, out, _ = run(capsys, "show", str(path))
    assert (code, out) == (0, str(state) + "\n")
    code, out, _ = run(capsys, "show", "--svg", str(path))
    assert code == 0 and out.startswith("<svg")
    code, out, _ = run(capsys, "claimable", str(path))
    assert (code, out) == (0, "Clans and Glory has no claims to prove\n")


def test_cli_show_refuses_an_impossible_position_with_every_problem(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = replay(FORMAT.random_record(2, {}), 3)
    data = FORMAT.position_of(state).to_json()
    data["to_move"] = 0
    data["hands"][0].append(data["hands"][1].pop())
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "show", str(path))
    assert code == 2
    assert "problems:" in err and "is to move" in err and "but was dealt 9" in err


# --- property ----------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]))
def test_random_records_validate_and_replay_gives_the_played_score(seed: int, players: int) -> None:
    record = FORMAT.random_record(seed, {"players": players})
    report = validate(parse_record(json.loads(record.dumps())))
    assert report.legal, report.summary()
    direct = new_game(players=players, seed=seed)
    for move in record.moves:
        direct = direct.play(move)
    replayed = replay(record)
    assert isinstance(replayed, State)
    assert replayed.score() == direct.score()
    assert replayed == direct
    assert direct.outcome is not None and report.outcome == direct.outcome
    assert record.result == FORMAT.result_of(direct.outcome)
    assert all(Seat.parse(m.split("@")[1].split("+")[0]) in direct.layout for m in record.moves)


def test_a_state_without_its_first_moves_writes_no_record() -> None:
    """A loaded position (or a determinization) lacks the moves that placed its
    cards: its deal would replay to another table, so no record is written."""
    from referee.clans_and_glory import new_game
    from referee.clans_and_glory.record import FORMAT
    from referee.records import validate

    game = new_game(players=2, seed=4)
    game = game.play(game.legal_moves()[0])
    assert validate(game.to_record()).legal  # a game from its deal: fine
    loaded = FORMAT.load_position(FORMAT.position_of(game))
    with pytest.raises(ValueError, match="1 cards were placed before"):
        loaded.to_record()
    with pytest.raises(ValueError, match="cannot be written as a record"):
        loaded.play(loaded.legal_moves()[0]).to_record()
