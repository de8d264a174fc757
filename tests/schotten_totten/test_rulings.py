"""Every RULINGS.md ruling for Schotten Totten that applies to the base game."""

from __future__ import annotations

import pytest

from referee.errors import ClaimRefusedError, IllegalMoveError
from referee.schotten_totten import (
    CLAN_CARDS,
    HAND_SIZE,
    STONES,
    Phase,
    Rules,
    new_game,
)

from .helpers import deck_with, play_all, position


def test_ruling_1_deck_stones_and_hands() -> None:
    game = new_game(seed=11)
    assert len(CLAN_CARDS.cards) == 54 and len(set(CLAN_CARDS.cards)) == 54
    assert {c.colour for c in CLAN_CARDS.cards} == set("ROYGBP")
    assert {c.value for c in CLAN_CARDS.cards} == set(range(1, 10))
    assert len(game.stones) == STONES == 9
    assert [len(h or ()) for h in game.hands] == [HAND_SIZE, HAND_SIZE] == [6, 6]
    assert game.deck_size == 54 - 12


def test_ruling_2_turn_order_play_then_claims_then_draw() -> None:
    state = position({1: ("R7 R8 R9", "O1")}, hands=("Y1", "Y2"), phase=Phase.PLAY)
    with pytest.raises(IllegalMoveError) as early:
        state.play("claim 1")
    assert early.value.reason == "claim_not_now"
    after = state.play("Y1@2").play("claim 1")
    assert after.stone(1).owner == 0
    with pytest.raises(IllegalMoveError) as twice:
        after.play("G1@3")
    assert twice.value.reason == "already_played"
    drawn = after.play("draw")
    assert drawn.to_move == 1 and drawn.phase is Phase.PLAY
    assert len(drawn.hands[0] or ()) == 1


def test_ruling_2_side_limit_and_claimed_stone() -> None:
    state = position(
        {1: ("R1 R2 R3", ""), 2: ("", "O1")}, hands=("Y1", ""), phase=Phase.PLAY, owners={2: 1}
    )
    with pytest.raises(IllegalMoveError) as full:
        state.play("Y1@1")
    assert full.value.reason == "side_full"
    with pytest.raises(IllegalMoveError) as claimed:
        state.play("Y1@2")
    assert claimed.value.reason == "stone_claimed"


def test_ruling_2_early_bird_claims_only_at_start() -> None:
    rules = Rules(early_bird=True)
    start = position({1: ("R7 R8 R9", "O1")}, hands=("Y1", ""), phase=Phase.PLAY, rules=rules)
    assert start.play("claim 1").stone(1).owner == 0
    after = start.play("Y1@2")
    with pytest.raises(IllegalMoveError) as late:
        after.play("claim 1")
    assert late.value.reason == "claim_not_now"


def test_ruling_3_pass_only_when_no_card_can_be_played_and_draws_nothing() -> None:
    with_card = position({}, hands=("Y1", ""), phase=Phase.PLAY)
    with pytest.raises(IllegalMoveError) as refused:
        with_card.play("pass")
    assert refused.value.reason == "pass_not_allowed"
    empty = position({1: ("R7 R8 R9", "O1")}, hands=("", "Y5"), phase=Phase.PLAY)
    passed = empty.play("pass")
    # claims are still allowed in a turn with a pass
    claimed = passed.play("claim 1")
    assert claimed.stone(1).owner == 0
    with pytest.raises(IllegalMoveError) as draw:
        claimed.play("draw")
    assert draw.value.reason == "pass_draws_nothing"
    ended = claimed.play("done")
    assert (
        ended.to_move == 1 and ended.hand_sizes == (0, 1) and ended.deck_size == claimed.deck_size
    )


def test_ruling_3_pass_when_every_own_side_is_full_or_claimed() -> None:
    full = {n: ("", "") for n in range(1, 10)}
    colours = "ROYGBP"
    for n in range(1, 10):
        c = colours[(n - 1) % 6]
        v = 1 + 3 * ((n - 1) // 6)
        full[n] = (f"{c}{v} {c}{v + 1} {c}{v + 2}", "")
    state = position(full, hands=("", ""), phase=Phase.PLAY)
    # the hand is empty too; with cards in hand but no room, a pass is also allowed
    assert state.play("pass").phase is Phase.AFTER_PASS


def test_ruling_4_claim_needs_complete_formation() -> None:
    state = position({1: ("R1 R2", "")})
    with pytest.raises(IllegalMoveError) as refused:
        state.play("claim 1")
    assert refused.value.reason == "formation_incomplete"
    assert "2 of 3" in str(refused.value)


def test_ruling_4_equal_kind_and_sum_completed_first_wins() -> None:
    # Both runs 4-5-6 (15); player 2 completed first.
    state = position({3: ("R4 O5 Y6", "G4 B5 P6")}, first={3: 1})
    with pytest.raises(ClaimRefusedError):
        state.play("claim 3")
    other = position({3: ("R4 O5 Y6", "G4 B5 P6")}, first={3: 1}, to_move=1)
    assert other.play("claim 3").stone(3).owner == 1


def test_ruling_4_completion_order_comes_from_play() -> None:
    game = new_game(deck=deck_with("R4 O5 Y6 R1 R2 R3", "G4 B5 P6 O1 O2 O3"))
    game = play_all(
        game,
        ["R4@1", "draw", "G4@1", "draw", "O5@1", "draw", "B5@1", "draw", "Y6@1", "draw", "P6@1"],
    )
    # player 2 completed later, so it cannot claim the tie ...
    with pytest.raises(ClaimRefusedError):
        game.play("claim 1")
    # ... but player 1 can, on its next turn
    game = game.play("draw").play("R1@2").play("claim 1")
    assert game.stone(1).owner == 0


def test_ruling_5_own_hand_is_not_evidence() -> None:
    # Player 1 holds the blue 7 the opponent would need, but may not use it as proof.
    state = position({2: ("R6 O6 Y6", "B8 B9")}, hands=("B7", ""))
    with pytest.raises(ClaimRefusedError) as refused:
        state.play("claim 2")
    assert refused.value.verdict is not None
    assert refused.value.verdict.witness is not None


def test_ruling_5_tie_does_not_beat_an_earlier_complete_formation() -> None:
    # G9 G8 G7 is the best formation there is; the opponent could tie it only.
    state = position({5: ("G7 G8 G9", "")})
    assert state.play("claim 5").stone(5).owner == 0


def test_ruling_5_visible_cards_include_both_sides_and_claimed_stones() -> None:
    # The opponent's only colour run needs P7, which lies on a claimed stone.
    state = position(
        {1: ("R5 O5 Y5", "P8 P9"), 2: ("P7 O1 R2", "G1 B2 Y3")},
        owners={2: 1},
    )
    verdict = state.claim_verdict(1)
    assert verdict.holds
    assert verdict.opponent_best is not None
    assert verdict.opponent_best.strength.kind.label == "color"


@pytest.mark.parametrize(
    ("held", "reason"),
    [([1, 2, 3], "three_adjacent"), ([1, 3, 5, 7, 9], "five_stones")],
)
def test_ruling_7_game_ends_at_three_adjacent_or_five(held: list[int], reason: str) -> None:
    owners = dict.fromkeys(held[:-1], 0)
    last = held[-1]
    state = position({last: ("R7 R8 R9", "")}, owners=owners)
    ended = state.play(f"claim {last}")
    assert ended.outcome is not None
    assert (ended.outcome.winner, ended.outcome.reason) == (0, reason)
    with pytest.raises(IllegalMoveError) as over:
        ended.play("draw")
    assert over.value.reason == "game_over"
    assert ended.legal_moves() == []


def test_ruling_7_four_scattered_stones_do_not_end_the_game() -> None:
    state = position({7: ("R7 R8 R9", "")}, owners={1: 0, 3: 0, 5: 0})
    assert state.play("claim 7").outcome is None


def _every_stone_complete(to_move: int):
    from referee.schotten_totten import Rules as _Rules

    sides = {
        1: ("O7 O8 O9", "R1 R2 R4"),
        2: ("G7 G8 G9", "R3 R5 R6"),
        3: ("O1 O2 O4", "B7 B8 B9"),
        4: ("P7 P8 P9", "O3 O5 O6"),
        5: ("Y7 Y8 Y9", "G1 G2 G4"),
        6: ("G3 G5 G6", "B4 B5 B6"),
        7: ("Y4 Y5 Y6", "P4 P5 P6"),
        8: ("B1 B2 B3", "P1 P2 P3"),
        9: ("R7 R8 R9", "Y1 Y2 Y3"),
    }
    owners = {1: 0, 2: 0, 3: 1, 4: 0, 5: 0, 6: 1, 7: 1}
    return position(
        sides,
        hands=("spy banshee", "traitor strategist"),
        owners=owners,
        first={7: 1, 8: 1, 9: 0},
        rules=_Rules(tactics=True),
        phase=Phase.PLAY,
        to_move=to_move,
    )


def test_ruling_14_blocked_only_when_nothing_can_change() -> None:
    # The audit's case: every stone complete on both sides, stone 9's R7 R8 R9
    # completed before Y1 Y2 Y3, hands of tactic cards only. A pass is allowed,
    # but the turn may not end while a claim is provable, so the game cannot end
    # blocked with a stone still provable; the same in a view and a public replay.
    for to_move, stone in ((0, 9), (1, 8)):
        state = _every_stone_complete(to_move)
        for seen in (state, state.view(1 - to_move)):
            assert not seen.can_play_card() and seen.tactics_in_hand(to_move) == 2
            passed = seen.play("pass")
            with pytest.raises(IllegalMoveError) as error:
                passed.play("done")
            assert error.value.reason == "must_claim"
            assert [str(m) for m in passed.legal_moves()] == [f"claim {stone}"]
            won = passed.play(f"claim {stone}")
            assert won.outcome is not None and won.outcome.winner == to_move
