"""The position checks both line games share (:mod:`referee.line.records`):
an unknown field and an unknown phase are refused alike, naming the field
and what is known, through each game's ``load_position``."""

from __future__ import annotations

from typing import Any

import pytest

from referee.line.records import read_phase, refuse_unknown
from referee.records import Position, RecordError
from referee.schotten_totten.record import FORMAT as ST
from referee.schotten_totten.state import Phase as STPhase
from referee.schotten_totten_2.record import FORMAT as ST2
from referee.schotten_totten_2.state import Phase as ST2Phase

EMPTY: dict[str, dict[str, Any]] = {ST.name: {"stones": [{}] * 9}, ST2.name: {"tiles": [{}] * 7}}
PHASES = {ST.name: STPhase, ST2.name: ST2Phase}


def _refusal(game: Any, data: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as caught:
        game.load_position(Position(game.name, data, {}))
    return caught.value


@pytest.mark.parametrize("game", [ST, ST2], ids=lambda g: g.name)
def test_an_empty_table_loads_and_writes_back(game: Any) -> None:
    state = game.load_position(Position(game.name, EMPTY[game.name], {}))
    again = game.load_position(game.position_of(state))
    assert again == state and state.hand_sizes == (6, 6)


@pytest.mark.parametrize("game", [ST, ST2], ids=lambda g: g.name)
def test_an_unknown_field_is_named_with_the_known_ones(game: Any) -> None:
    error = _refusal(game, {**EMPTY[game.name], "weather": "rain", "colour": 1})
    assert error.field == "colour"
    assert "unknown field (known: " in str(error) and "to_move" in str(error)
    assert "format" not in str(error) and "rules" not in str(error)


@pytest.mark.parametrize("game", [ST, ST2], ids=lambda g: g.name)
def test_an_unknown_phase_is_refused_with_the_games_phases(game: Any) -> None:
    error = _refusal(game, {**EMPTY[game.name], "phase": "lunch"})
    names = ", ".join(p.value for p in PHASES[game.name])
    assert error.field == "phase"
    assert str(error) == f"field 'phase': expected a phase ({names}), got 'lunch'"


def test_a_stones_unknown_field_is_named_by_its_path() -> None:
    stones: list[dict[str, Any]] = [{}] * 8 + [{"sides": [[], []], "colour": "R"}]
    error = _refusal(ST, {"stones": stones})
    assert error.field == "stones[8].colour"
    assert "(known: first, owner, sides, style)" in str(error)


def test_the_helpers_accept_what_is_known() -> None:
    refuse_unknown({"a": 1}, {"a", "b"}, "")
    assert read_phase(ST2Phase, "opening", "") is ST2Phase.OPENING
    with pytest.raises(RecordError, match=r"field 'x.c': unknown field \(known: a, b\)"):
        refuse_unknown(["a", "c"], ("b", "a"), "", "x.")
