"""Records of games the arena ended: resignation, timeout, forfeit, ply limit."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.arena import play_game, random_bot
from referee.cards import Card
from referee.clans_and_glory import Placement, Seat
from referee.records import validate


@pytest.fixture(scope="module")
def unfinished():  # type: ignore[no-untyped-def]
    """A Schotten Totten record cut after 10 plies."""
    return play_game([random_bot, random_bot], "schotten-totten", seed=1, max_plies=10).record


@pytest.mark.parametrize("reason", ["resignation", "timeout", "forfeit"])
def test_a_players_end_validates(unfinished, reason: str) -> None:  # type: ignore[no-untyped-def]
    record = replace(unfinished, result={"winner": 0, "reason": reason, "loser": 1})
    report = validate(record)
    assert report.legal, report.summary()
    assert report.outcome is not None and (report.outcome.winner, report.outcome.reason) == (
        0,
        reason,
    )
    assert "player 1 wins (" + reason + ")" in report.summary()


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (
            {"winner": 1, "reason": "forfeit", "loser": 1},
            "a forfeit by player 2 means player 1 wins",
        ),
        ({"winner": 0, "reason": "timeout"}, "names the losing player (0-1) as 'loser'"),
        ({"winner": 0, "reason": "resignation", "loser": 2}, "as 'loser'"),
        ({"winner": None, "reason": "ply_limit", "plies": 9}, "(here 10)"),
        ({"winner": 0, "reason": "ply_limit", "plies": 10}, "no winner"),
    ],
)
def test_a_wrong_arena_end_is_a_mismatch(unfinished, result, message) -> None:  # type: ignore[no-untyped-def]
    report = validate(replace(unfinished, result=result))
    assert not report.legal
    assert report.result_mismatch is not None and message in report.result_mismatch


def test_a_finished_game_cannot_be_forfeited() -> None:
    record = play_game([random_bot, random_bot], "schotten-totten", seed=1).record
    forfeited = replace(record, result={"winner": 0, "reason": "forfeit", "loser": 1})
    report = validate(forfeited)
    assert not report.legal
    assert report.result_mismatch is not None


def test_visible_moves_hide_hidden_cards() -> None:
    from referee.arena import arena_game
    from referee.schotten_totten import parse_move as st_move
    from referee.schotten_totten_2 import Shuffle

    st = arena_game("schotten-totten", {"variants": ["tactics"]})
    recruit = st_move("recruiter draw clan clan tactic return R7 spy")
    assert st.visible_text(recruit, 0, 0) == str(recruit)
    assert st.visible_text(recruit, 0, 1) == "recruiter draw clan clan tactic return clan tactic"
    back = st_move("return R7 spy")
    assert st.visible_text(back, 0, 0) == "return R7 spy"
    assert st.visible_text(back, 0, 1) == "return clan tactic"
    st2 = arena_game("schotten-totten-2", {"variants": ["tactics"]})
    assert st2.visible_text(Shuffle((3, 9)), 0, 1) == "shuffle"
    # the answering player does not see the offer (it learns the cards in its hand)
    from referee.schotten_totten_2 import parse_move as st2_move

    offer = st2_move("exchange R1,R2,spy")
    assert st2.visible_text(offer, 0, 0) == "exchange R1,R2,spy"
    assert st2.visible_text(offer, 0, 1) == "exchange ?,?,?"
    cag = arena_game("clans-and-glory", {"players": 3})
    down = Placement(Card("R", 3), Seat(1, 7), face_down=True)
    assert cag.visible_text(down, 0, 0) == "R3@t1s7+down"
    assert cag.visible_text(down, 0, 2) == "?@t1s7+down"
