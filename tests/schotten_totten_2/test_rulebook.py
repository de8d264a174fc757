"""The examples printed in the Schotten Totten 2 rulebook, worked through."""

from __future__ import annotations

import pytest

from referee.errors import ClaimRefusedError
from referee.formations import Kind
from referee.schotten_totten_2 import SIEGE_CARDS, Phase, new_game

from .helpers import TACTICS, cards, deck_with, play_all, position, reason_of


def strength(tile_number: int, damaged: bool, text: str):
    tile = position(damaged=[tile_number] if damaged else []).tile(tile_number)
    return tile.rule.classify([SIEGE_CARDS.as_pair(c) for c in cards(text)])  # type: ignore[arg-type]


def test_gate_with_the_maximum_sum_21_is_claimable_though_the_defender_could_tie() -> None:
    # The attacker holds red 10 and 11 at the intact gate (2 cards, all kinds):
    # a colour run of 21. Another colour's 10 and 11 would only tie, and the
    # attacker completed first.
    state = position({4: ("R10 R11", "")}, phase=Phase.AFTER_PLAY)
    verdict = state.claim_verdict(4)
    assert verdict.holds
    assert verdict.claimant.strength == strength(4, False, "R10 R11")
    assert verdict.claimant.strength.kind is Kind.COLOR_RUN
    assert verdict.opponent_best is not None
    assert verdict.opponent_best.strength == verdict.claimant.strength  # a tie at best
    assert "completed first" in verdict.explain()
    after = state.play("control 4")
    gate = after.tile(4)
    assert gate.damaged and gate.sides == ((), ())
    assert set(after.discards) == set(cards("R10 R11"))
    assert after.outcome is None


def test_damaged_gate_lower_sum_wins_and_two_zeros_out_prevent_a_declaration() -> None:
    # Damaged gate: 4 cards, only the sum counts, the lower sum wins. The
    # attacker's 0-1-2-3 is a run, but here it is just a sum of 6. The defender
    # has 5 so far with two cards; two 0s (blue and purple) are still out.
    assert strength(4, True, "R0 Y1 G2 B3").kind is Kind.SUM
    state = position(
        {4: ("R0 Y1 G2 B3", "R1 B4")},
        damaged=[4],
        discards="Y0 G0",
        phase=Phase.AFTER_PLAY,
    )
    with pytest.raises(ClaimRefusedError) as refused:
        state.play("control 4")
    assert refused.value.reason == "claim_not_proven"
    witness = refused.value.verdict.witness  # type: ignore[union-attr]
    assert witness is not None
    assert sorted(witness.cards) == sorted(SIEGE_CARDS.as_pair(c) for c in cards("B0 P0"))  # type: ignore[arg-type]
    assert witness.strength.total == 5
    assert "B0 P0" in str(refused.value)
    # Once a third 0 is gone, the defender's best is 5 + 0 + 1 = 6: a tie, and
    # the attacker completed first.
    later = position(
        {4: ("R0 Y1 G2 B3", "R1 B4")},
        damaged=[4],
        discards="Y0 G0 B0",
        phase=Phase.AFTER_PLAY,
    )
    won = later.play("control 4")
    assert won.outcome is not None and won.outcome.winner == 0
    assert won.outcome.reason == "controlled_damaged_tile"


def test_retreat_example_the_attacker_abandons_a_low_colour() -> None:
    # The attacker's green 2, 5, 7 (a colour, sum 14) lures the defender into
    # building a higher colour; just before it is complete the attacker retreats.
    state = position({3: ("G2 G5 G7", "B8 B9")}, hands=("R1", "Y1"))
    after = state.play("retreat 3")
    assert after.tile(3).sides == ((), cards("B8 B9"))
    assert after.discards == cards("G2 G5 G7")
    assert after.phase is Phase.PLAY
    assert strength(3, False, "G2 G5 G7").kind is Kind.COLOR


def test_oil_example_discards_the_first_of_two_ones() -> None:
    # The attacker puts two 1s at a wall; the defender, fearing a third, pours
    # oil on the first one.
    game = new_game(deck=deck_with("R1 Y1 R5 R6 R7 R8", "B2 B3 B4 B5 B6 B7"))
    game = play_all(game, ["R1@6", "draw", "B2@1", "draw", "Y1@6", "draw"])
    assert game.tile(6).sides[0] == cards("R1 Y1")
    oiled = game.play("oil 6")
    assert oiled.tile(6).sides[0] == cards("Y1")
    assert oiled.discards == cards("R1")
    assert oiled.oil == 2
    assert reason_of(oiled, "oil 6") == "second_oil"


def test_a_stronger_kind_that_does_not_count_never_beats_a_weaker_one_that_does() -> None:
    # Damaged tile 3 counts colours and sums only: three of a kind is a sum there.
    three = strength(3, True, "R5 Y5 G5")
    colour = strength(3, True, "B1 B2 B4")
    assert three.kind is Kind.SUM and colour.kind is Kind.COLOR
    rule = position(damaged=[3]).tile(3).rule
    assert rule.beats(colour, three)


def test_formation_kinds_strongest_first_on_an_all_kinds_tile() -> None:
    ranked = ["R7 R8 R9", "R2 Y2 G2", "B0 B5 B11", "R4 Y5 G6", "G9 P8 B1"]
    kinds = [strength(3, False, t).kind for t in ranked]
    assert kinds == [Kind.COLOR_RUN, Kind.THREE_OF_A_KIND, Kind.COLOR, Kind.RUN, Kind.SUM]
    # a run may lie in any order
    assert strength(3, False, "R9 R7 R8") == strength(3, False, "R7 R8 R9")


def test_tactic_limit_example() -> None:
    # The opponent has played one tactic card, you two: no third until it plays a second.
    state = position(
        hands=("spy", "R3"),
        actions=("redeploy explosion", "desertion"),
        rules=TACTICS,
    )
    assert reason_of(state, "spy@1") == "tactic_limit"
    even = position(
        hands=("spy", "R3"), actions=("redeploy explosion", "desertion treason"), rules=TACTICS
    )
    assert even.play("spy@1").tactics_played == (3, 2)
