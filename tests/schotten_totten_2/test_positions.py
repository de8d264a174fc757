"""Positions and states that cannot lie (issue 12 point 13, issue 13).

A state built from outside is checked like python-chess's ``status()``: every
problem at once, what can be derived is derived, the impossible is refused.
Positions written at any ply, mid-turn included, load back. Nothing reachable
from a public object can be changed in place.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card
from referee.cli import main
from referee.records import Position, RecordError, load_record, validate
from referee.schotten_totten_2 import (
    Phase,
    Rules,
    State,
    TacticCard,
    Tile,
    new_game,
)
from referee.schotten_totten_2.record import FORMAT, random_playout

from .helpers import TACTICS, cards, position

ROOT = Path(__file__).resolve().parents[2]


def _problems(**changes: object) -> str:
    with pytest.raises(ValueError) as error:
        replace(position(hands=("R1 R2", "Y1 Y2")), **changes)
    text = str(error.value)
    assert text.startswith("impossible Schotten Totten 2 position: ")
    return text


# --- State(...) is checked ------------------------------------------------------------------


def test_every_problem_of_a_state_is_reported_at_once() -> None:
    base = position(hands=("R1 R2", "Y1 Y2"))
    tiles = list(base.tiles)
    tiles[0] = Tile(1, sides=(cards("R0 B1 B2 B3"), cards("R11")))  # oversized, 0 facing 11
    tiles[1] = Tile(2, sides=(cards("R1"), ()))  # R1 is also in a hand
    text = _problems(tiles=tuple(tiles))
    assert "tile 1: player 1's side holds 4 cards, the tile takes 3" in text
    assert "tile 1: R0 faces R11 (both are discarded)" in text
    assert "R1 is in 2 places (the game has 1)" in text
    assert "the siege cards do not add up" in text


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"attacker": 1.0}, "attacker must be 0 or 1, not 1.0"),
        ({"to_move": True}, "to_move must be 0 or 1, not True"),
        ({"oil": 4}, "oil must be a count 0-3, not 4"),
        ({"hand_sizes": (2, 3)}, "player 2's hand holds 2 cards, hand_sizes says 3"),
        ({"deck_size": 3}, "deck_size says 3"),
        ({"phase": Phase.SHUFFLE}, "a support waits for its shuffle exactly in the shuffle phase"),
        ({"final_turn": True}, "final_turn: only once the last siege card has been drawn"),
        ({"late_control": True}, "late_control: only right after the attacker's draw"),
        (
            {"exhausted": True, "final_turn": True, "to_move": 1},
            "final_turn: only in the attacker's turn",
        ),
        ({"hands": (cards("R1 R2 joker"), cards("Y1 Y2"))}, "a tactic card in the base game"),
        ({"tactics_played": (3, 0)}, "nobody gets two tactic cards ahead"),
        ({"hand_tactics": (1, 0)}, "hand_tactics says player 1 holds 1 tactic cards"),
    ],
)
def test_impossible_states_are_refused(changes: dict, words: str) -> None:
    assert words in _problems(**changes)


def test_damage_and_outcome_must_agree_and_are_derived() -> None:
    four = position(damaged=[1, 2, 3, 5], hands=("R1", "Y1"))
    assert four.outcome is not None and (four.outcome.winner, four.outcome.reason) == (
        0,
        "fourth_tile_damaged",
    )
    assert four.legal_moves() == []
    with pytest.raises(ValueError, match="5 damaged tiles: the attacker wins on the fourth"):
        position(damaged=[1, 2, 3, 5, 6])


def test_the_attackers_last_turn_is_derived() -> None:
    state = replace(position(hands=("R1", "Y1")), exhausted=True)
    assert state.final_turn
    assert not replace(position(hands=("R1", "Y1"), to_move=1), exhausted=True).final_turn


def test_tactic_cards_in_hidden_hands_are_derived_or_asked_for() -> None:
    state = position(hands=("R1 joker", "Y1 spy"), rules=TACTICS)
    assert state.hand_tactics == (1, 1)
    one_hidden = replace(state, hands=(None, state.hands[1]), hand_tactics=None)
    assert one_hidden.hand_tactics == (1, 1)  # 11 - 0 played - 9 in the pile - 1 known
    with pytest.raises(ValueError, match=r"say how many tactic cards each hidden hand holds"):
        replace(state, hands=(None, None), deck=None, tactic_deck=None, hand_tactics=None)


def test_tactics_played_cannot_be_lower_than_the_tactic_cards_on_the_table() -> None:
    with pytest.raises(ValueError, match=r"counts fewer than the 1 tactic cards"):
        position({2: ("spy", "")}, rules=TACTICS, tactics_played=(0, 0))
    with pytest.raises(ValueError, match=r"has 2 action cards on its side"):
        position(actions=("desertion treason", ""), rules=TACTICS, tactics_played=(1, 2))


def test_every_state_reached_in_play_passes_the_check() -> None:
    for seed, rules in ((3, Rules()), (4, Rules(tactics=True))):
        state = new_game(seed=seed, rules=rules)
        for move in random_playout(state, random.Random(seed)):
            state = state.play(move)
            rebuilt = State(**{name: getattr(state, name) for name in State.__dataclass_fields__})
            assert rebuilt == state
            hidden = state.view(0)
            assert State(**{n: getattr(hidden, n) for n in State.__dataclass_fields__}) == hidden


# --- positions round-trip at every ply, mid-turn included -------------------------------------


def _round_trip(state: State) -> None:
    position_json = FORMAT.position_of(state).to_json()
    data = {k: v for k, v in position_json.items() if k not in ("format", "game", "rules")}
    loaded = FORMAT.load_position(Position(FORMAT.name, data, position_json.get("rules", {})))
    assert FORMAT.position_of(loaded).to_json() == position_json
    assert loaded.to_move == state.to_move and loaded.phase is state.phase
    assert [t.sides for t in loaded.tiles] == [t.sides for t in state.tiles]
    assert loaded.unseen_siege_cards() == state.unseen_siege_cards()
    assert loaded.final_turn == state.final_turn and loaded.late_control == state.late_control
    assert loaded.hand_tactics == state.hand_tactics
    # the loaded position offers the moves of the same position with hidden hands
    hidden = replace(state, hands=(None, None), deck=None, tactic_deck=None)
    assert loaded.legal_moves() == hidden.legal_moves()


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_a_position_written_at_any_ply_loads_back(seed: int, tactics: bool) -> None:
    rules = Rules(tactics=tactics)
    state = new_game(seed=seed, attacker=seed % 2, rules=rules)
    _round_trip(state)
    for move in random_playout(state, random.Random(seed)):
        state = state.play(move)
        if state.outcome is None:
            _round_trip(state)


def test_pending_support_and_exchange_positions_load_back() -> None:
    supported = position(discards="R5 Y6", hands=("support", ""), rules=TACTICS).play(
        "support R5,Y6"
    )
    _round_trip(supported)
    offered = position(hands=("exchange R1 R2 R3", "Y1 Y2 Y3"), rules=TACTICS)
    _round_trip(offered.play("exchange R1,R2,R3"))


def test_a_bad_position_is_reported_cleanly_by_show_and_claimable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sides = [{"sides": [["R0", "B1", "B2", "B3"], ["R11"]]}, {"sides": [["B1"], []]}] + [{}] * 5
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"format": "referee-position/1", "game": "schotten-totten-2", "tiles": sides})
    )
    for command in ("show", "claimable"):
        assert main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert "tile 1: player 1's side holds 4 cards, the tile takes 3" in err
        assert "tile 1: R0 faces R11" in err and "B1 is in 2 places" in err
    with pytest.raises(RecordError) as error:
        FORMAT.load_position(Position(FORMAT.name, {"tiles": sides}))
    assert error.value.field == "tiles[0].sides[0]"
    with pytest.raises(RecordError, match="unknown field"):
        FORMAT.load_position(Position(FORMAT.name, {"tiles": [{}] * 7, "bogus": 1}))


# --- nothing public is mutable ------------------------------------------------------------------


def test_all_cards_cannot_be_corrupted() -> None:
    # The pattern that corrupted every later validation in the process.
    public = ROOT / "examples" / "records" / "schotten-totten-2" / "public-base.json"
    state = new_game(seed=1)
    left = state.rules.all_cards
    left -= state.visible_cards() + Counter(SIEGE := [Card("R", 1), Card("R", 2)])
    assert left[SIEGE[0]] == 0 and state.rules.all_cards[SIEGE[0]] == 1
    assert sum(Rules().all_cards.values()) == 60
    assert validate(load_record(public)).legal
    with pytest.raises(TypeError):
        state.rules.all_cards[Card("R", 1)] = 5
    with pytest.raises(TypeError):
        state.rules.all_cards.update([Card("R", 1)])
    with pytest.raises(TypeError):
        Rules(tactics=True).all_cards.subtract([TacticCard.JOKER])
    assert Rules(tactics=True).all_cards[TacticCard.JOKER] == 2


def test_state_and_its_parts_are_immutable() -> None:
    state = new_game(seed=2)
    with pytest.raises(AttributeError):
        state.oil = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.rules.tactics = True  # type: ignore[misc]
    assert all(isinstance(part, tuple) for part in (state.tiles, state.hands, state.discards))
    assert isinstance(state.tiles[0].sides, tuple) and isinstance(state.hands[0], tuple)
    # visible_cards() is a fresh count: changing it changes nothing
    seen = state.visible_cards()
    seen[Card("R", 1)] += 3
    assert state.visible_cards() == Counter()


@pytest.mark.parametrize("number", [0, 8, True, 1.0, "1"])
def test_tile_numbers_are_checked(number: object) -> None:
    with pytest.raises(ValueError, match="tiles are numbered 1-7"):
        new_game(seed=1).tile(number)  # type: ignore[arg-type]
