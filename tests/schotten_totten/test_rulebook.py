"""The examples printed in the Schotten Totten rulebooks (2024, 1999, English summary)."""

from __future__ import annotations

import pytest

from referee.errors import ClaimRefusedError
from referee.formations import Kind
from referee.schotten_totten import CLAN_CARDS, FORMATION, new_game

from .helpers import cards, deck_with, play_all, position


def strength(text: str):
    return FORMATION.classify([CLAN_CARDS.as_pair(c) for c in cards(text)])


def test_2024_claim_example_three_of_a_kind_completed_later_beats_a_sum() -> None:
    # Irina (player 1) completes green 7, purple 4, blue 3 at the edge stone first;
    # Thomas (player 2) has green 5 and red 5 there and then adds the blue 5.
    game = new_game(deck=deck_with("G7 P4 B3 R1 R2 R3", "G5 R5 B5 O1 O2 O3"))
    game = play_all(
        game,
        ["G7@9", "draw", "G5@9", "draw", "P4@9", "draw", "R5@9", "draw", "B3@9", "draw"],
    )
    assert game.stone(9).completed[0] is not None  # Irina completed first
    game = game.play("B5@9").play("claim 9")
    assert game.stone(9).owner == 1
    assert strength("G5 R5 B5").kind is Kind.THREE_OF_A_KIND
    assert strength("G7 P4 B3").kind is Kind.SUM


def test_formation_ranking_strongest_first() -> None:
    ranked = ["R7 R8 R9", "R2 O2 Y2", "B1 B5 B9", "R4 O5 Y6", "G9 P8 B1"]
    kinds = [strength(text).kind for text in ranked]
    assert kinds == [Kind.COLOR_RUN, Kind.THREE_OF_A_KIND, Kind.COLOR, Kind.RUN, Kind.SUM]
    # each beats every weaker kind, whatever the sums
    for i, stronger in enumerate(ranked):
        for weaker in ranked[i + 1 :]:
            assert FORMATION.beats(strength(stronger), strength(weaker)), (stronger, weaker)
    # a weaker kind with a larger sum still loses: the run 7-8-9 (24) loses to three 2s (6)
    assert FORMATION.beats(strength("R2 O2 Y2"), strength("Y7 G8 P9"))
    # order of play does not matter for runs
    assert strength("R9 R7 R8") == strength("R7 R8 R9")


def test_1999_thirteen_beats_eleven() -> None:
    # Two wild hordes: the higher sum (13) takes the stone.
    assert strength("R9 O3 Y1").total == 13 and strength("G6 B4 P1").total == 11
    state = position({4: ("R9 O3 Y1", "G6 B4 P1")}, first={4: 1})
    claimed = state.play("claim 4")
    assert claimed.stone(4).owner == 0
    # and the holder of 11 cannot claim it, though it completed first
    with pytest.raises(ClaimRefusedError) as refused:
        position({4: ("R9 O3 Y1", "G6 B4 P1")}, to_move=1, first={4: 1}).play("claim 4")
    assert refused.value.reason == "claim_not_proven"


def test_1999_blue_seven_already_played() -> None:
    # Three 6s against blue 8 and blue 9: the opponent could still make the
    # colour run 7-8-9 unless the blue 7 is already on the table.
    open_b7 = position({2: ("R6 O6 Y6", "B8 B9")})
    with pytest.raises(ClaimRefusedError) as refused:
        open_b7.play("claim 2")
    witness = refused.value.verdict.witness
    assert witness is not None and [str(CLAN_CARDS.from_pair(p)) for p in witness.cards] == ["B7"]
    assert witness.strength.kind is Kind.COLOR_RUN
    seen_b7 = position({2: ("R6 O6 Y6", "B8 B9"), 5: ("B7", "")})
    assert seen_b7.play("claim 2").stone(2).owner == 0


def test_1999_even_a_nine_only_reaches_the_same_sum() -> None:
    # The claimant's 20 against yellow 4 + green 7, which can only ever be a sum:
    # the best third card, a 9, ties at 20, and a tie goes to whoever completed first.
    state = position({6: ("R9 O6 B5", "Y4 G7")})
    verdict = state.claim_verdict(6)
    assert verdict.holds
    assert verdict.opponent_best is not None
    assert verdict.opponent_best.strength.total == 20
    assert state.play("claim 6").stone(6).owner == 0
