"""Every RULINGS.md ruling for Schotten Totten 2, and the decisions of our docs page."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.errors import ClaimRefusedError
from referee.formations import ALL_KINDS, SUM_ONLY, Kind
from referee.records import Record, validate
from referee.schotten_totten_2 import (
    GATE,
    HAND_SIZE,
    OIL_CAULDRONS,
    SIEGE_CARDS,
    TACTIC_CARDS,
    TACTICS_HAND_SIZE,
    TILES,
    WALL,
    Control,
    Phase,
    Rules,
    TacticCard,
    new_game,
    parse_move,
)

from .helpers import TACTICS, cards, deck_with, play_all, position, reason_of


def everything_else(*used: str) -> str:
    """Every siege card not named in ``used``, as text (to discard them all)."""
    taken = {str(c) for text in used for c in cards(text)}
    return " ".join(str(c) for c in SIEGE_CARDS.cards if str(c) not in taken)


# --- ruling 1: material and set-up -------------------------------------------------------


def test_ruling_1_deck_hands_oil_and_attacker_first() -> None:
    assert len(SIEGE_CARDS.cards) == 60 == len(set(SIEGE_CARDS.cards))
    assert SIEGE_CARDS.colours == "RYGBP"
    assert {c.value for c in SIEGE_CARDS.cards} == set(range(12))
    for attacker in (0, 1):
        game = new_game(seed=5, attacker=attacker)
        assert game.to_move == attacker and game.defender == 1 - attacker
        assert game.hand_sizes == (HAND_SIZE, HAND_SIZE) == (6, 6)
        assert game.deck_size == 48 and game.oil == OIL_CAULDRONS == 3
    tactics = new_game(seed=5, rules=TACTICS)
    assert tactics.hand_sizes == (TACTICS_HAND_SIZE, TACTICS_HAND_SIZE) == (7, 7)
    assert tactics.tactic_deck_size == 11 and len(TACTIC_CARDS) == 11
    assert TACTIC_CARDS.count(TacticCard.JOKER) == 2


# --- rulings 2 and 3: the wall and classification ----------------------------------------


def test_ruling_2_the_wall_table() -> None:
    expected = [  # (size, kinds, lower sum wins) intact, damaged
        ((3, SUM_ONLY, False), (3, {Kind.RUN, Kind.SUM}, False)),
        ((4, ALL_KINDS, False), (2, {Kind.THREE_OF_A_KIND, Kind.SUM}, False)),
        ((3, ALL_KINDS, False), (3, {Kind.COLOR, Kind.SUM}, False)),
        ((2, ALL_KINDS, False), (4, SUM_ONLY, True)),
        ((3, ALL_KINDS, False), (3, {Kind.COLOR, Kind.SUM}, False)),
        ((4, ALL_KINDS, False), (2, {Kind.THREE_OF_A_KIND, Kind.SUM}, False)),
        ((3, SUM_ONLY, True), (3, {Kind.RUN, Kind.SUM}, False)),
    ]
    assert TILES == 7 and GATE == 4
    actual = [tuple((r.size, set(r.kinds), r.lower_sum_wins) for r in pair) for pair in WALL]
    assert actual == [tuple((s, set(k), low) for s, k, low in pair) for pair in expected]
    # the state reads its rules from that one table
    state = position(damaged=[2])
    assert state.tile(2).rule is WALL[1][1] and state.tile(3).rule is WALL[2][0]


def test_ruling_3_a_colour_run_is_classified_by_the_kinds_that_count() -> None:
    run = [SIEGE_CARDS.as_pair(c) for c in cards("B3 B4 B5")]  # type: ignore[arg-type]
    assert WALL[2][1].classify(run).kind is Kind.COLOR  # damaged tile 3: colour + sum
    assert WALL[0][1].classify(run).kind is Kind.RUN  # damaged tile 1: run + sum
    assert WALL[0][0].classify(run).kind is Kind.SUM  # intact tile 1: sum only
    pair = [SIEGE_CARDS.as_pair(c) for c in cards("R6 G6")]  # type: ignore[arg-type]
    assert WALL[1][1].classify(pair).kind is Kind.THREE_OF_A_KIND  # two of a kind on 2 cards


# --- ruling 4: the turn -----------------------------------------------------------------


def test_ruling_4_opening_then_play_then_draw() -> None:
    state = position({1: ("R1", ""), 2: ("Y1", "")}, hands=("G1 G2", "B1 B2"))
    retreated = state.play("retreat 1,2")
    assert retreated.tile(1).sides[0] == () and retreated.tile(2).sides[0] == ()
    assert retreated.discards == cards("R1 Y1") and retreated.phase is Phase.PLAY
    assert reason_of(retreated, "retreat 1") == "second_retreat"
    assert reason_of(retreated, "draw") == "must_play_first"
    played = retreated.play("G1@3")
    assert reason_of(played, "G2@3") == "already_played"
    assert reason_of(played, "retreat 3") == "opening_too_late"
    drawn = played.play("draw")
    assert drawn.to_move == 1 and drawn.phase is Phase.OPENING
    assert drawn.hand_sizes == (2, 2)
    # the opening action is optional
    assert drawn.play("B1@3").phase is Phase.AFTER_PLAY


def test_ruling_4_oil_takes_the_earliest_placed_card_and_at_most_one_per_turn() -> None:
    state = position({5: ("R3 Y4 G5", "")}, hands=("", "B1"), to_move=1, oil=2)
    oiled = state.play("oil 5")
    assert oiled.tile(5).sides[0] == cards("Y4 G5") and oiled.oil == 1
    assert reason_of(oiled, "oil 5") == "second_oil"
    assert reason_of(oiled.play("B1@5"), "oil 5") == "opening_too_late"
    assert reason_of(position({5: ("R3", "")}, hands=("", "B1"), to_move=1, oil=0), "oil 5") == (
        "no_oil_left"
    )
    assert reason_of(state, "oil 4") == "nothing_to_oil"


def test_ruling_4_the_attacker_declares_control_at_any_point_of_its_turn() -> None:
    base = position({4: ("R10 R11", ""), 1: ("G1", "")}, hands=("Y1", "B1"))
    for moves in ([], ["retreat 1"], ["Y1@2"], ["retreat 1", "Y1@2"]):
        state = play_all(base, moves)
        assert Control(4) in state.legal_moves()
        assert state.play("control 4").tile(4).damaged
    # after its draw too, until the defender's first move (issue 12, point 10)
    drawn = play_all(base, ["Y1@2", "draw"])
    assert drawn.to_move == 1 and drawn.late_control
    assert drawn.play("control 4").tile(4).damaged
    # never once the defender has moved, and never by the defender
    defending = play_all(base, ["Y1@2", "draw", "oil 1"])
    assert reason_of(defending, "control 4") == "wrong_role"


# --- ruling 5: chicken against cook --------------------------------------------------------


def test_ruling_5_zero_and_eleven_of_a_colour_opposite_each_other_are_both_discarded() -> None:
    state = position({3: ("R11 Y2", "G4")}, hands=("P0", "R0"), to_move=1)
    after = state.play("R0@3")
    assert after.tile(3).sides == (cards("Y2"), cards("G4"))
    assert after.discards == cards("R0 R11")
    # and the other way round: an 11 played opposite the 0
    state = position({3: ("B0", "")}, hands=("", "B11"), to_move=1)
    assert state.play("B11@3").discards == cards("B11 B0")
    # a 0 of another colour stays
    assert position({3: ("R11", "")}, hands=("", "Y0"), to_move=1).play("Y0@3").discards == ()


def test_ruling_5_the_card_limit_holds_before_the_discard() -> None:
    state = position({4: ("R11", "Y1 Y2")}, hands=("", "R0"), to_move=1)
    assert reason_of(state, "R0@4") == "side_full"


def test_ruling_5_proofs_ignore_chicken_against_cook() -> None:
    # The defender's only beating card is R11, which would be discarded with the
    # attacker's R0 at once; the proof ignores that and refuses the declaration.
    table = {1: ("R0 Y10 G10", "B10 P10")}
    state = position(
        table, discards=everything_else("R0 Y10 G10 B10 P10 R11"), phase=Phase.AFTER_PLAY
    )
    assert [str(c) for c in state.unseen_siege_cards()] == ["R11"]
    with pytest.raises(ClaimRefusedError) as refused:
        state.play("control 1")
    assert refused.value.verdict is not None
    assert refused.value.verdict.witness is not None
    assert refused.value.verdict.witness.cards == (SIEGE_CARDS.as_pair(cards("R11")[0]),)  # type: ignore[arg-type]


# --- ruling 6: declaring control --------------------------------------------------------------


def test_ruling_6_the_formation_must_be_complete() -> None:
    state = position({2: ("R1 R2 R3", "")}, phase=Phase.AFTER_PLAY)
    assert reason_of(state, "control 2") == "formation_incomplete"


def test_ruling_6_the_pool_is_every_siege_card_not_on_a_tile_and_not_discarded() -> None:
    # The attacker's own hand is no evidence: Y10 in its hand still counts as
    # reachable for the defender.
    table = {1: ("R0 Y0 G0", "B10 P10")}
    state = position(
        table,
        hands=("Y10", ""),
        discards=everything_else("R0 Y0 G0 B10 P10 Y10"),
        phase=Phase.AFTER_PLAY,
    )
    assert reason_of(state, "control 1") == "claim_not_proven"
    # once Y10 is discarded the defender cannot complete at all
    gone = position(table, discards=everything_else("R0 Y0 G0 B10 P10"), phase=Phase.AFTER_PLAY)
    after = gone.play("control 1")
    assert after.tile(1).damaged and after.tile(1).sides == ((), ())
    assert set(cards("R0 Y0 G0 B10 P10")) <= set(after.discards)


def test_ruling_6_both_complete_ties_go_to_whoever_completed_first() -> None:
    tie = {4: ("R5 Y6", "G5 B6")}
    first = position(tie, first={4: 0}, phase=Phase.AFTER_PLAY)
    assert first.play("control 4").tile(4).damaged
    later = position(tie, first={4: 1}, phase=Phase.AFTER_PLAY)
    assert reason_of(later, "control 4") == "claim_not_proven"


def test_ruling_6_completion_times_reset_when_a_card_leaves() -> None:
    # The attacker completes the gate first; oil removes a card; the attacker
    # completes again later than the defender and so loses the tie.
    game = new_game(deck=deck_with("R5 Y6 P5 P1 P2 P3", "G5 B6 B1 B2 B3 B4", top="R1 B7 R2"))
    game = play_all(game, ["R5@4", "draw", "G5@4", "draw", "Y6@4", "draw"])
    assert game.tile(4).completed[0] is not None
    game = play_all(game, ["oil 4", "B6@4", "draw"])
    assert game.tile(4).sides[0] == cards("Y6") and game.tile(4).completed[0] is None
    game = game.play("P5@4")
    done = game.tile(4).completed
    assert done[0] is not None and done[1] is not None and done[1] < done[0]
    assert reason_of(game, "control 4") == "claim_not_proven"


# --- ruling 7: the end of the game -----------------------------------------------------------


def test_ruling_7_controlling_a_damaged_tile_wins() -> None:
    # damaged tile 2: 2 cards, three of a kind + sum; a pair of 11s can only be tied
    state = position({2: ("R11 Y11", "")}, damaged=[2], phase=Phase.AFTER_PLAY)
    after = state.play("control 2")
    assert after.outcome is not None and after.outcome.winner == 0
    assert after.outcome.reason == "controlled_damaged_tile"
    assert reason_of(after, "draw") == "game_over"
    assert after.legal_moves() == []


def test_ruling_7_damaging_a_fourth_tile_wins() -> None:
    state = position({4: ("R10 R11", "")}, damaged=[1, 2, 3], phase=Phase.AFTER_PLAY)
    after = state.play("control 4")
    assert after.damaged_tiles() == [1, 2, 3, 4]
    assert after.outcome is not None and after.outcome.reason == "fourth_tile_damaged"
    three = position({4: ("R10 R11", "")}, damaged=[1, 2], phase=Phase.AFTER_PLAY)
    assert three.play("control 4").outcome is None


@pytest.mark.parametrize("last_drawer", ["defender", "attacker"])
def test_ruling_7_after_the_last_card_the_attacker_has_exactly_one_more_turn(
    last_drawer: str,
) -> None:
    # Deck of 1 card: whoever draws it, the attacker's next turn is its last.
    attacker_draws = last_drawer == "attacker"
    state = position(
        hands=("R1 R2 R3", "Y1 Y2 Y3"),
        discards=everything_else("R1 R2 R3 Y1 Y2 Y3 B5"),
        to_move=0 if attacker_draws else 1,
    )
    assert state.deck_size == 1
    state = play_all(state, ["R1@1" if attacker_draws else "Y1@1", "draw"])
    assert state.exhausted and state.deck_size == 0
    if attacker_draws:
        # the defender's turn comes first and draws nothing
        assert not state.final_turn
        assert reason_of(state.play("Y1@1"), "draw") == "nothing_to_draw"
        state = play_all(state, ["Y1@1", "done"])
    assert state.to_move == 0 and state.final_turn
    state = state.play("R2@2")
    assert state.outcome is None  # the last turn is still under way
    end = state.play("done")
    assert end.outcome is not None and end.outcome.winner == 1
    assert end.outcome.reason == "siege_held"
    assert reason_of(end, "Y2@2") == "game_over"


def test_ruling_7_the_attacker_can_still_win_in_its_last_turn() -> None:
    state = position(
        {4: ("R10", "")},
        hands=("R11 R1", "Y1 Y2"),
        discards=everything_else("R10 R11 R1 Y1 Y2 B5"),
        damaged=[1, 2, 3],
        to_move=1,
    )
    state = play_all(state, ["Y1@5", "draw", "R11@4"])
    assert state.final_turn
    won = state.play("control 4")
    assert won.outcome is not None and won.outcome.winner == 0


# --- ruling 8: tactics (the cards themselves are in test_tactics.py) ---------------------------


def test_ruling_8_elite_troops_are_valued_as_wildcards_when_control_is_declared() -> None:
    # The defender's joker could still be a 10 or 11 of any colour: no proof.
    state = position({4: ("R9 R10", "joker")}, rules=TACTICS, phase=Phase.AFTER_PLAY)
    with pytest.raises(ClaimRefusedError) as refused:
        state.play("control 4")
    assert refused.value.verdict is not None and not refused.value.verdict.holds
    # the attacker's own joker takes its best value: with R10 it makes R10-R11
    mine = position({4: ("R10 joker", "")}, rules=TACTICS, phase=Phase.AFTER_PLAY)
    verdict = mine.claim_verdict(4)
    assert verdict.claimant.strength.kind is Kind.COLOR_RUN and verdict.holds
    # spy is a 10 of any colour; shield a 1-3 of any colour
    spy = position({2: ("spy Y10", "")}, damaged=[2], rules=TACTICS, phase=Phase.AFTER_PLAY)
    assert spy.claim_verdict(2).claimant.strength.total == 20
    shield = position({2: ("shield G3", "")}, damaged=[2], rules=TACTICS, phase=Phase.AFTER_PLAY)
    assert shield.claim_verdict(2).claimant.strength.total == 6


def test_ruling_8_action_cards_stay_on_the_players_side_and_count() -> None:
    state = position({3: ("", "R5")}, hands=("desertion", ""), rules=TACTICS)
    after = state.play("desertion R5@3")
    assert after.actions == ((TacticCard.DESERTION,), ())
    assert after.tactics_played == (1, 0)
    assert after.discards == cards("R5")


# --- our decisions (docs page, "Rulings") -----------------------------------------------------


def test_decision_control_before_or_after_the_draw() -> None:
    # The rulebook's order: play, draw, then declare (issue 12, point 10).
    game = new_game(deck=deck_with("R10 R11 G5 G1 G2 G3", "Y1 B1 B2 B3 B4 B9"))
    moves = ["R10@4", "draw", "Y1@1", "draw", "R11@4", "draw"]
    drawn = play_all(game, moves)
    assert drawn.to_move == 1 and drawn.late_control
    # accepted from a record, but not listed: legal_moves lists the decisions
    # of the player to move only (the defender's), and the control proves the
    # same before the draw
    assert drawn.is_legal("control 4")
    assert Control(4) not in drawn.legal_moves()
    assert all(not isinstance(m, Control) for m in drawn.legal_moves())
    after = drawn.play("control 4")
    assert after.tile(4).damaged and after.to_move == 1 and after.late_control
    # the same declaration before the draw gives the same position
    before = play_all(game, [*moves[:-1], "control 4", "draw"])
    assert before.tiles == after.tiles and before.discards == after.discards
    # the defender's first move closes the attacker's turn
    moved = after.play("B1@2")
    assert not moved.late_control
    assert reason_of(moved, "control 3") == "wrong_role"
    # a record in that order validates
    record = Record(
        game="schotten-totten-2",
        moves=(*moves, "control 4", "B1@2"),
        first=0,
        deal={"deck": [str(c) for c in deck_with("R10 R11 G5 G1 G2 G3", "Y1 B1 B2 B3 B4 B9")]},
    )
    assert validate(record).legal, validate(record).summary()


def test_decision_pass_only_when_no_card_fits() -> None:
    # The defender's 22 places are all taken.
    sides = [
        "R1 R2 R3",
        "R4 R5 R6 R7",
        "R8 R9 R10",
        "Y1 Y2",
        "Y3 Y4 Y5",
        "Y6 Y7 Y8 Y9",
        "Y10 G1 G2",
    ]
    full = {n: ("", side) for n, side in enumerate(sides, start=1)}
    state = position(full, hands=("", "R0 Y0"), to_move=1, phase=Phase.OPENING)
    assert parse_move("pass") in state.legal_moves()
    passed = state.play("pass")
    assert passed.phase is Phase.AFTER_PASS
    assert reason_of(passed, "draw") == "pass_draws_nothing"
    assert passed.play("done").to_move == 0
    assert reason_of(position(hands=("R1", "")), "pass") == "pass_not_allowed"


def test_decision_a_hidden_hand_may_pass_unless_it_surely_holds_a_siege_card() -> None:
    # A tactics player whose sides are all full but for one tile, holding only
    # tactic cards it may not play (tactic limit): a public replay accepts the pass.
    sides = ["R1 R2 R3", "R4 R5 R6 R7", "R8 R9 R10", "Y1 Y2", "Y3 Y4 Y5", "Y6 Y7 Y8 Y9", "Y10 G1"]
    full = {n: ("", side) for n, side in enumerate(sides, start=1)}
    state = position(full, hands=("", "joker spy"), to_move=1, rules=TACTICS, tactics_played=(0, 1))
    assert state.play("pass").phase is Phase.AFTER_PASS
    hidden = state.view(0)
    assert hidden.hands[1] is None and parse_move("pass") in hidden.legal_moves()
    assert hidden.play("pass").phase is Phase.AFTER_PASS
    # with a siege card certainly in hand (more cards than unseen tactic cards) it may not
    base = position(full, hands=("", "G3 G4"), to_move=1).view(0)
    assert reason_of(base, "pass") == "pass_not_allowed"


def test_decision_chicken_against_cook_also_when_a_tactic_moves_a_card() -> None:
    state = position({2: ("R0", ""), 5: ("", "R11")}, hands=("redeploy", ""), rules=TACTICS)
    after = state.play("redeploy R0@2>5")
    assert after.tile(5).sides == ((), ()) and after.discards == cards("R0 R11")
    treason = position({2: ("", "Y0"), 6: ("", "Y11")}, hands=("treason", ""), rules=TACTICS)
    taken = treason.play("treason Y11@6>2")
    assert taken.tile(2).sides == ((), ()) and taken.discards == cards("Y11 Y0")


def test_decision_support_does_not_undo_the_last_turn_countdown() -> None:
    state = position(
        {1: ("R1", "")},
        hands=("support", "Y1"),
        discards=everything_else("R1 Y1"),
        rules=TACTICS,
        tactics_played=(0, 0),
    )
    assert state.deck_size == 0
    state = replace(state, exhausted=True, final_turn=True)
    state = play_all(state, ["support R2,R3", "shuffle 1,2"])
    assert state.deck_size == 2 and state.final_turn
    end = state.play("draw")
    assert end.outcome is not None and end.outcome.reason == "siege_held"


def test_decision_no_one_joker_limit_in_schotten_totten_2() -> None:
    state = position(
        {1: ("joker", "spy")}, hands=("joker", ""), rules=TACTICS, tactics_played=(1, 1)
    )
    assert state.play("joker@2").tile(2).sides[0] == (TacticCard.JOKER,)


def test_decision_tactic_cards_keep_counting_for_whoever_played_them() -> None:
    state = position(
        {3: ("", "spy")}, hands=("treason", "R1"), rules=TACTICS, tactics_played=(0, 1)
    )
    after = state.play("treason spy@3>3")
    assert after.tile(3).sides == ((TacticCard.SPY,), ())
    assert after.tactics_played == (1, 1)


def test_decision_the_base_game_has_no_tactic_cards() -> None:
    state = position(hands=("R1", ""), rules=Rules())
    assert reason_of(state, "joker@1") == "tactics_not_in_play"
    assert reason_of(state.play("R1@1"), "draw tactic") == "tactics_not_in_play"
