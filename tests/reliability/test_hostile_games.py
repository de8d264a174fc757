"""Issue 13, the cases that live in the games: anything a caller can pass gets one of
the documented errors, and nothing reachable from a public object can be changed.

The records layer and the command line have their cases in ``test_hostile_input.py``,
the prover's malformed questions in ``tests/prover/test_questions.py``; each game's
own folder has more detailed tests of the same points.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee import clans_and_glory as cg
from referee import schotten_totten as st
from referee import schotten_totten_2 as st2
from referee.cards import Card
from referee.errors import InvalidMoveError
from referee.records import find_game, validate

STARTS = {
    "schotten-totten": lambda: st.new_game(seed=1),
    "schotten-totten-2": lambda: st2.new_game(seed=1),
    "clans-and-glory": lambda: cg.new_game(players=2, seed=1),
}


@pytest.mark.parametrize("game", sorted(STARTS))
@pytest.mark.parametrize("move", [None, 3, 1.5, b"draw", ["draw"], object()])
def test_anything_that_is_not_a_move_is_an_invalid_move_error(game: str, move: Any) -> None:
    state = STARTS[game]()
    with pytest.raises(InvalidMoveError):
        state.play(move)
    assert not state.is_legal(move)


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("schotten-totten", "R7@05"),
        ("schotten-totten", "R09@3"),
        ("schotten-totten", "R7@３"),
        ("schotten-totten-2", "R7@04"),
        ("schotten-totten-2", "R07@4"),
    ],
)
def test_non_canonical_move_text_is_refused(game: str, text: str) -> None:
    with pytest.raises(InvalidMoveError, match=repr(text)):
        STARTS[game]().parse_move(text)


def test_move_objects_with_bad_fields_are_refused_when_built() -> None:
    with pytest.raises(InvalidMoveError, match="bogus"):
        st.moves.Draw("bogus")  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError, match="True"):
        st.moves.PlayCard(Card("R", 9), True)


@pytest.mark.parametrize(
    "start",
    [
        lambda: st.new_game(seed=1, first=1.0),  # type: ignore[arg-type]
        lambda: st.new_game(seed=1.0),  # type: ignore[arg-type]
        lambda: st2.new_game(seed=1, attacker=True),
        lambda: cg.new_game(players=5, seed=1),
        lambda: cg.new_game(players=2, seed=1.0),  # type: ignore[arg-type]
    ],
)
def test_bad_set_up_values_are_refused_at_once(start: Any) -> None:
    with pytest.raises(ValueError):
        start()


def test_the_shared_card_counts_of_schotten_totten_2_cannot_be_corrupted() -> None:
    # The documented pattern once corrupted every later validation in the process.
    state = st2.new_game(seed=1)
    left = state.rules.all_cards
    left -= state.visible_cards()
    assert sum(state.rules.all_cards.values()) == 60
    with pytest.raises(TypeError):
        state.rules.all_cards[Card("R", 1)] = 0  # type: ignore[index]
    record = find_game("schotten-totten-2").random_record(3, {})
    assert validate(record).legal


def test_a_clans_and_glory_layout_cannot_be_changed_through_the_state() -> None:
    state = cg.new_game(players=2, seed=1)
    layout = state.layout
    mutable = [
        name
        for name in dir(layout)
        if not name.startswith("_") and isinstance(getattr(layout, name), dict | list | set)
    ]
    assert mutable == []
    with pytest.raises((AttributeError, TypeError)):
        layout.seats = ()  # type: ignore[misc]


@pytest.mark.parametrize("game", sorted(STARTS))
@pytest.mark.parametrize("player", [-1, True, 99, 1.0, "0"])
def test_a_player_argument_that_is_no_player_is_refused(game: str, player: Any) -> None:
    state = STARTS[game]()
    with pytest.raises(ValueError, match="no player"):
        state.play(state.legal_moves()[0], player=player)


def test_a_claim_question_for_no_player_is_refused() -> None:
    from referee.records import load_position
    from referee.schotten_totten.record import FORMAT

    state = FORMAT.load_position(load_position("examples/positions/blue-seven.json"))
    assert state.claim_verdict(2, player=0).holds
    with pytest.raises(ValueError, match="no player 5"):
        state.claim_verdict(2, player=5)


def test_unwritable_outputs_and_missing_bots_exit_2_without_a_traceback(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.cli import main

    record = "examples/records/schotten-totten/full-2024.json"
    bots = ["examples/bots/random_bot.py", "examples/bots/greedy.py"]
    cases = [
        (["replay", record, "-o", str(tmp_path / "no" / "x.html")], "cannot write"),
        (["replay", record, "-o", str(tmp_path)], "cannot write"),
        (["replay", record, "--ply", "9999", "-o", str(tmp_path / "y.html")], "past the record"),
        (
            ["match", *bots, "-n", "2", "--records", str(tmp_path / "no" / "g.jsonl")],
            "cannot write",
        ),
        (["match", str(tmp_path / "missing.py"), bots[1], "-n", "2"], "no bot script"),
    ]
    for args, said in cases:
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err, (args, err)
