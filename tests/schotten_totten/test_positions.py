"""Loaded positions are checked like python-chess's ``status()``: every problem at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main
from referee.game import Outcome
from referee.records import Position, RecordError
from referee.schotten_totten import Rules, new_game
from referee.schotten_totten.record import FORMAT

EMPTY = {"sides": [[], []]}


def stones(**placed: dict) -> list[dict]:
    """Nine stones; ``s3={...}`` replaces stone 3."""
    return [placed.get(f"s{n}", EMPTY) for n in range(1, 10)]


def load(data: dict, rules: dict | None = None):
    return FORMAT.load_position(Position("schotten-totten", data, rules or {}, "p.json"))


def problems_of(data: dict, rules: dict | None = None) -> str:
    with pytest.raises(RecordError) as error:
        load(data, rules)
    assert "impossible position" in str(error.value)
    return str(error.value)


def won(colour: str, owner: int = 0) -> dict:
    mine = [f"{colour}7", f"{colour}8", f"{colour}9"]
    sides = [mine, []] if owner == 0 else [[], mine]
    # the opponent has nothing: a colour run 7-8-9 cannot be beaten by anything
    return {"sides": sides, "owner": owner}


def test_the_outcome_is_derived_from_the_stones() -> None:
    state = load({"stones": stones(s1=won("R"), s2=won("O"), s3=won("Y"))})
    assert state.outcome == Outcome("three_adjacent", 0) and state.is_game_over()
    assert state.legal_moves() == []
    five = load(
        {
            "stones": stones(
                **{f"s{n}": won(c, 1) for n, c in zip((1, 3, 5, 7, 9), "ROYGB", strict=True)}
            )
        }
    )
    assert five.outcome == Outcome("five_stones", 1)
    assert load({"stones": stones(s1=won("R"))}).outcome is None


def test_every_problem_is_reported_at_once() -> None:
    data = {
        "stones": stones(
            s1=won("R"),
            s2=won("O"),
            s3=won("Y"),
            s5=won("G", 1),
            s6=won("B", 1),
            s7=won("P", 1),
            s8={"sides": [["R1"], ["O1"]], "owner": 1},
            s9={"sides": [["R1", "R2", "R3"], []], "owner": 0},
        ),
        "hand_sizes": [3, 3],
    }
    message = problems_of(data)
    for problem in (
        "card R1 is used 2 times",
        "both players hold three adjacent or five stones",
        "stone 8: player 2 holds it without a complete formation",
        "stone 9: player 1's claim cannot be proven from this table",
    ):
        assert problem in message


def test_tactic_counts_must_agree_with_the_table() -> None:
    tactics = {"variants": ["tactics"]}
    spied = stones(s1={"sides": [["spy"], ["joker"]]}, s2={"sides": [[], []], "style": "mud_fight"})
    message = problems_of({"stones": spied, "tactics_played": [0, 0]}, tactics)
    assert "tactics played [0, 0] but 3 tactic cards are on the table" in message
    assert "player 1 has 1 tactic cards on its side but played 0" in message
    assert "one player is two ahead" in problems_of(
        {"stones": spied, "tactics_played": [0, 3]}, tactics
    )
    state = load({"stones": spied, "tactics_played": [1, 2]}, tactics)
    assert state.tactics_played == (1, 2)
    # jokers played are derived: player 2's joker lies on its side
    assert state.jokers_played == (False, True)
    assert state.status() == ()


def test_jokers_played_is_derived_or_must_be_given() -> None:
    tactics = {"variants": ["tactics"]}
    thrown = {"stones": stones(), "discards": ["joker"], "tactics_played": [1, 0]}
    with pytest.raises(RecordError, match="say who has played a joker"):
        load(thrown, tactics)
    state = load({**thrown, "jokers_played": [True, False]}, tactics)
    assert state.jokers_played == (True, False)
    # the second joker can then never be played by that player
    both = {"stones": stones(), "discards": ["joker", "joker"], "tactics_played": [1, 1]}
    assert load(both, tactics).jokers_played == (True, True)
    with pytest.raises(RecordError, match="jokers lie on the table"):
        load({**thrown, "jokers_played": [False, False]}, tactics)


def test_hand_sizes_and_a_tactic_free_table_are_checked() -> None:
    assert "a hand holds at most 6" in problems_of({"stones": stones(), "hand_sizes": [7, 6]})
    with pytest.raises(RecordError, match="combat style"):
        load({"stones": stones(s1={"sides": [[], []], "style": "mud_fight"})})


def test_positions_written_by_the_format_load_back() -> None:
    import random

    from referee.schotten_totten.record import random_playout

    for seed in range(6):
        rules = Rules(tactics=seed % 2 == 1)
        state = new_game(seed=seed, rules=rules)
        for move in random_playout(state, random.Random(seed))[: 40 + 7 * seed]:
            state = state.play(move)
        again = FORMAT.load_position(FORMAT.position_of(state))
        assert all(
            a.sides == b.sides and a.owner == b.owner and a.style == b.style
            for a, b in zip(again.stones, state.stones, strict=True)
        )
        assert again.status() == ()
        assert again.tactics_played == state.tactics_played
        assert again.jokers_played == state.jokers_played
        assert again.hand_tactics == (state.tactics_in_hand(0), state.tactics_in_hand(1))
        assert again.outcome == state.outcome


def test_show_and_claimable_report_an_impossible_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "impossible.json"
    data = {
        "format": "referee-position/1",
        "game": "schotten-totten",
        "stones": stones(s8={"sides": [["R1"], ["O1"]], "owner": 1}, s9={"sides": [["R1"], []]}),
    }
    path.write_text(json.dumps(data))
    for command in ("show", "claimable"):
        assert main([command, str(path)]) == 2
        _, err = capsys.readouterr()
        assert "Traceback" not in err
        assert "impossible position" in err and "card R1 is used 2 times" in err
        assert "stone 8: player 2 holds it without a complete formation" in err


def test_show_reports_a_won_position_as_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "won.json"
    data = {
        "format": "referee-position/1",
        "game": "schotten-totten",
        "stones": stones(s1=won("R"), s2=won("O"), s3=won("Y")),
    }
    path.write_text(json.dumps(data))
    assert main(["show", str(path)]) == 0
    out, _ = capsys.readouterr()
    assert "game over: player 1 wins (three_adjacent)" in out


def test_an_unknown_stone_field_is_refused() -> None:
    # Found by a newcomer's review: {"claimed": 5} (meant as "owner") was ignored.
    from referee.records import RecordError, json_schema, parse_position
    from referee.schotten_totten.record import FORMAT

    stones: list[dict[str, object]] = [{"sides": [[], []]} for _ in range(9)]
    stones[4] = {"sides": [[], []], "claimed": 5}
    data = {"game": "schotten-totten", "stones": stones}
    with pytest.raises(RecordError, match="unknown field") as refused:
        FORMAT.load_position(parse_position(data, "p.json"))
    assert refused.value.field == "stones[4].claimed"
    jsonschema = pytest.importorskip("jsonschema")
    assert not jsonschema.Draft202012Validator(json_schema("position")).is_valid(data)
