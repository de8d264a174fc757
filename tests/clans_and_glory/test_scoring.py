"""Scoring: the rulebook's example and tips, ruling 5, ties."""

from __future__ import annotations

from referee.cards import Card
from referee.clans_and_glory import Award, score_sheet, score_tableau
from referee.game import Outcome

from .positions import position


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def test_rulebook_example_54_points() -> None:
    # 8+8+7+7+7+6+6+5 = 54. The picture is missing; this spread over three tableaus
    # is ours: player 1's first shield on t1 takes the 5, its second the 6s; its shield
    # on t2 the 7s; on t3 player 2's first shield takes the 3 and player 1's the 8s.
    t1 = score_tableau(1, cards("R5 G6 B6"), shields=(0, 0))
    t2 = score_tableau(2, cards("R7 G7 Y7"), shields=(0,))
    t3 = score_tableau(3, cards("R3 R8 G8"), shields=(1, 0))
    sheet = score_sheet(2, [t1, t2, t3])
    collected = sorted(
        (c.value for t in sheet.tableaus for a in t.awards if a.player == 0 for c in a.cards),
        reverse=True,
    )
    assert collected == [8, 8, 7, 7, 7, 6, 6, 5]
    assert sheet.points == (54, 3) and sheet.cards == (8, 1)
    assert sheet.outcome() == Outcome("most_points", 0, (54, 3))
    assert "totals: player 1 54 points (8 cards), player 2 3 points (1 card)" in str(sheet)


def test_rulebook_example_54_points_on_the_table() -> None:
    state = position(
        3,
        {
            "t1s1": "R5", "t1s2": "G6", "t1s3": "B6",
            "t2s1": "R7", "t2s4": "G7", "t2s6": "Y7",
            "t3s1": "R3", "t3s5": "R8", "t3s6": "G8",
        },
        ["", "", ""],
        shields={1: [0, 0], 2: [0], 3: [1, 0]},
    )  # fmt: skip
    assert state.is_game_over()
    assert state.outcome == Outcome("most_points", 0, (54, 3, 0))


def test_first_shield_placed_takes_the_lowest_rank() -> None:
    score = score_tableau(4, cards("B8 R4 G4 Y6"), shields=(2, 0, 1))
    assert score.awards == (
        Award(2, 4, (Card("R", 4), Card("G", 4))),
        Award(0, 6, (Card("Y", 6),)),
        Award(1, 8, (Card("B", 8),)),
    )
    assert score.unclaimed == ()


def test_more_shields_than_ranks_the_last_take_nothing() -> None:
    score = score_tableau(1, cards("R5 G5"), shields=(1, 0, 0))
    assert [a.player for a in score.awards] == [1]
    assert score.points(0) == 0 and score.points(1) == 10


def test_more_ranks_than_shields_go_to_nobody() -> None:
    score = score_tableau(1, cards("R3 G5 B8"), shields=(0,))
    assert score.points(0) == 3
    assert score.unclaimed == (Card("G", 5), Card("B", 8))
    assert "nobody takes the 8s: B8" in str(score)


def test_tableau_without_shields_scores_nothing() -> None:
    score = score_tableau(1, cards("R3 G5"), shields=())
    assert score.awards == () and len(score.unclaimed) == 2


def test_tip_a_three_on_the_last_free_seat_takes_the_sixes_from_everyone() -> None:
    # t2: 4s and 6s, two shields, t2s6 the last free seat; B3 fits the B6 opposite
    state = position(
        2,
        {"t2s1": "R4", "t2s2": "G4", "t2s3": "B6", "t2s4": "Y6", "t2s5": "W6"},
        ["B3", "P4"],
        shields={2: [0, 1]},
    )
    before = state.score().tableaus[1]
    assert (before.points(0), before.points(1)) == (8, 18)
    after = state.play("B3@t2s6").score().tableaus[1]
    assert (after.points(0), after.points(1)) == (3, 8)
    assert sorted(c.value for c in after.unclaimed) == [6, 6, 6]


def test_tip_four_threes_beat_two_fours() -> None:
    score = score_tableau(1, cards("R3 G3 B3 Y3 R4 G4"), shields=(0, 1))
    assert score.points(0) == 12 and score.points(1) == 8


def test_face_down_cards_score_nothing_and_take_no_rank() -> None:
    # the face-down 3 is removed before scoring: the only shield takes the 5s
    state = position(2, {"t1s1": "r3", "t1s2": "R5", "t1s3": "G5"}, ["", ""], shields={1: [1]})
    score = state.score().tableaus[0]
    assert score.awards == (Award(1, 5, (Card("R", 5), Card("G", 5))),)
    assert score.face_down == (Card("R", 3),)
    assert "face down, worth nothing: R3" in str(score)


def test_tie_on_points_broken_by_more_cards() -> None:
    # 3+3+3+3 = 12 with four cards beats 6+6 = 12 with two
    t1 = score_tableau(1, cards("R3 G3 B3 Y3 R6 G6"), shields=(0, 1))
    sheet = score_sheet(2, [t1])
    assert sheet.points == (12, 12) and sheet.cards == (4, 2)
    assert sheet.winners == (0,)
    assert sheet.outcome() == Outcome("most_cards", 0, (12, 12))


def test_tie_on_points_broken_by_cards_across_tableaus() -> None:
    t1 = score_tableau(1, cards("R3 G3 R4 B5 G5"), shields=(0, 1, 2))  # 6 (2), 4 (1), 10 (2)
    t2 = score_tableau(2, cards("Y4 W4 Y3"), shields=(1, 0))  # player 1 +8 (2), player 2 +3 (1)
    t3 = score_tableau(3, cards("R6 B6"), shields=(2,))  # player 3 +12 (2)
    t4 = score_tableau(4, cards("G8"), shields=(0,))  # player 1 +8 (1)
    sheet = score_sheet(3, [t1, t2, t3, t4])
    assert sheet.points == (22, 7, 22) and sheet.cards == (5, 2, 4)
    assert sheet.outcome() == Outcome("most_cards", 0, (22, 7, 22))


def test_tie_on_points_and_cards_is_shared() -> None:
    t1 = score_tableau(1, cards("R3 G4"), shields=(0,))
    t2 = score_tableau(2, cards("B3 Y4"), shields=(1,))
    shared = score_sheet(2, [t1, t2])
    assert shared.points == (3, 3) and shared.cards == (1, 1)
    assert shared.winners == (0, 1)
    assert shared.outcome() == Outcome("shared", None, (3, 3), winners=(0, 1))
    assert shared.outcome().winners == (0, 1) and shared.outcome().winner is None
