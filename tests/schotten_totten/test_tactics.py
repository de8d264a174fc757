"""Tartan-Taktiken: every tactic card's legal uses and each way it is refused."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from referee.cards import Card
from referee.errors import ClaimRefusedError, IllegalMoveError
from referee.schotten_totten import Claim, Phase, Rules, new_game
from referee.schotten_totten.tactics import TACTIC_CARDS, Tactic

from .helpers import position

TACTICS = Rules(tactics=True)


def start(sides=None, hands=("", ""), **kw):
    kw.setdefault("phase", Phase.PLAY)
    return position(sides or {}, hands=hands, rules=TACTICS, **kw)


def refused(state, move: str) -> str:
    before = state
    with pytest.raises(IllegalMoveError) as error:
        state.play(move)
    assert state == before
    assert repr(move) in str(error.value)
    return error.value.reason


def test_setup_seven_cards_and_two_piles() -> None:
    game = new_game(seed=3, rules=TACTICS)
    assert game.hand_sizes == (7, 7) and game.deck_size == 54 - 14
    assert sorted(game.tactic_deck) == sorted(TACTIC_CARDS) and game.tactic_deck_size == 10
    with pytest.raises(ValueError, match="1999 edition"):
        Rules(edition="1999", tactics=True)


def test_rulebook_tactic_limit_example() -> None:
    # Irina (player 1) has played 1 tactic card, Thomas (player 2) 2: he may not play
    # another until she has played a second one.
    thomas = start(hands=("spy", "joker R1"), to_move=1, tactics_played=(1, 2))
    assert refused(thomas, "joker@3") == "tactic_limit"
    assert thomas.play("R1@3").stone(3).sides[1] == (Card("R", 1),)
    irina = start(hands=("spy", "joker R1"), to_move=0, tactics_played=(1, 2))
    after = irina.play("spy@4")
    assert after.tactics_played == (2, 2)
    assert after.play("draw clan").play("joker@3").tactics_played == (2, 3)


def test_tactic_cards_only_with_the_variant() -> None:
    base = position({}, hands=("R1", ""), phase=Phase.PLAY)
    assert refused(base, "joker@1") == "tactics_not_in_play"
    assert refused(base.play("R1@1"), "draw clan") == "tactics_not_in_play"
    tactical = start(hands=("R1", ""))
    assert refused(tactical.play("R1@1"), "draw") == "choose_pile"


def test_only_one_joker_per_player_even_after_the_first_is_gone() -> None:
    state = start({2: ("joker", "B5")}, hands=("joker R1", "banshee"), tactics_played=(1, 1))
    assert refused(state, "joker@3") == "second_joker"
    # the first joker is discarded by a banshee; the second still may not be played
    hit = state.play("R1@4").play("draw clan").play("banshee joker@2")
    assert Tactic("joker") in hit.discards and hit.stone(2).sides[0] == ()
    back = hit.play("draw clan")
    assert back.jokers_played == (True, False)
    assert refused(back, "joker@3") == "second_joker"


def test_elite_troops_take_their_best_values_when_claimed() -> None:
    # joker next to R8 R9 becomes R7: a colour run that nothing can beat except a tie
    joker = start({1: ("R8 R9 joker", "")}, phase=Phase.AFTER_PLAY)
    verdict = joker.claim_verdict(1)
    assert verdict.holds and verdict.claimant.strength.kind.label == "color_run"
    assert verdict.claimant.strength.total == 24
    # the spy is a 7 of any colour: with G7 O7 it is three 7s
    spy = start({2: ("G7 O7 spy", "B1 B2")}, phase=Phase.AFTER_PLAY)
    assert spy.claim_verdict(2).claimant.strength.kind.label == "three_of_a_kind"
    # the shield bearer is 1, 2 or 3: with Y1 Y2 it completes Y1 Y2 Y3
    shield = start({3: ("Y1 Y2 shield_bearer", "")}, phase=Phase.AFTER_PLAY)
    assert shield.claim_verdict(3).claimant.strength == (
        shield.claim_verdict(3).rule.classify([(2, 1), (2, 2), (2, 3)])
    )


def test_an_opposing_joker_counts_with_every_value() -> None:
    # three 8s against a joker and G9: the opponent may still reach G7 G8 G9? G8 is used,
    # but joker as G8 with G7 from the pool gives a colour run.
    state = start({4: ("R8 O8 Y8", "joker G9")}, phase=Phase.AFTER_PLAY)
    with pytest.raises(ClaimRefusedError) as error:
        state.play("claim 4")
    witness = error.value.verdict.witness
    assert witness is not None and witness.strength.kind.label == "color_run"


def test_unplayed_tactic_cards_are_ignored_by_proofs() -> None:
    # the opponent holds a joker in hand, but only played cards count
    state = start({5: ("G7 G8 G9", "R1")}, hands=("", "joker"), phase=Phase.AFTER_PLAY)
    assert state.play("claim 5").stone(5).owner == 0


def test_discarded_cards_are_visible_to_proofs() -> None:
    # B7 lies on the discard pile, so B8 B9 can no longer become a colour run
    state = start(
        {2: ("R6 O6 Y6", "B8 B9")},
        discards="B7 banshee",
        phase=Phase.AFTER_PLAY,
        tactics_played=(0, 1),
    )
    assert state.play("claim 2").stone(2).owner == 0


def test_blind_mans_bluff_counts_only_the_sum() -> None:
    state = start(
        {3: ("R9 O8 G8", "B1 B2 B3")},
        styles={3: "blind_mans_bluff"},
        phase=Phase.AFTER_PLAY,
        first={3: 1},
    )
    assert state.stone(3).rule.describe() == "3 cards, sum only"
    assert state.play("claim 3").stone(3).owner == 0
    assert (
        refused(
            start(
                {3: ("R9 O8 G8", "B1 B2 B3")},
                styles={3: "blind_mans_bluff"},
                phase=Phase.AFTER_PLAY,
                to_move=1,
            ),
            "claim 3",
        )
        == "claim_not_proven"
    )


def test_mud_fight_needs_four_cards_and_reopens_complete_sides() -> None:
    state = start({6: ("R1 R2 R3", "B7")}, hands=("mud_fight R4 R9", "G1"))
    assert state.stone(6).completed[0] is not None
    muddy = state.play("mud_fight@6")
    stone = muddy.stone(6)
    assert stone.style == Tactic("mud_fight") and stone.sides[0] == state.stone(6).sides[0]
    assert stone.completed == (None, None)  # three cards are no longer complete
    assert refused(muddy, "claim 6") == "formation_incomplete"
    four = muddy.play("draw clan").play("G1@1").play("draw clan").play("R4@6")
    assert four.stone(6).completed[0] is not None
    assert len(four.stone(6).sides[0]) == 4
    assert refused(four, "claim 6") == "claim_not_proven"  # B7 may still become B6-B9
    full = start({6: ("R1 R2 R3 R4", "")}, hands=("R9", ""), styles={6: "mud_fight"})
    assert refused(full, "R9@6") == "side_full"


def test_combat_styles_lie_on_the_stone_one_per_stone() -> None:
    state = start(
        {1: ("R1", ""), 2: ("", "")}, hands=("mud_fight blind_mans_bluff", ""), owners={2: 1}
    )
    assert refused(state, "mud_fight@2") == "stone_claimed"
    played = state.play("mud_fight@1")
    assert played.stone(1).sides == state.stone(1).sides  # not on a side
    again = start({1: ("R1", "")}, hands=("blind_mans_bluff", ""), styles={1: "mud_fight"})
    assert refused(again, "blind_mans_bluff@1") == "style_taken"
    # no ruse can touch a combat style
    banshee = start({1: ("R1", "")}, hands=("", "banshee"), styles={1: "mud_fight"}, to_move=1)
    assert refused(banshee, "banshee mud_fight@1") == "card_not_at_stone"


def test_recruiter_draws_three_and_returns_two_instead_of_drawing() -> None:
    state = start(hands=("recruiter R1 R2 R3 R4 R5 R6", ""))
    top_clan, top_tactic = state.deck[:2], state.tactic_deck[:1]
    assert top_tactic == (Tactic("banshee"),)
    after = state.play("recruiter draw clan clan tactic return R1 banshee")
    hand = after.hands[0]
    assert len(hand) == 7 and after.hand_sizes[0] == 7
    assert Card("R", 1) not in hand and top_clan[0] in hand and top_clan[1] in hand
    assert after.deck[-1] == Card("R", 1) and after.tactic_deck[-1] == Tactic("banshee")
    assert (
        after.deck_size == state.deck_size - 1 and after.tactic_deck_size == state.tactic_deck_size
    )
    assert after.discards[-1] == Tactic("recruiter") and after.tactics_played == (1, 0)
    assert refused(after, "draw clan") == "already_drew"
    assert after.play("done").to_move == 1
    assert refused(state, "recruiter draw clan clan return R1 R2") == "recruit_draws"
    assert refused(state, "recruiter draw clan clan clan return R1") == "recruit_returns"
    assert refused(state, "recruiter draw clan clan clan return R1 B9") == "card_not_in_hand"
    assert refused(state, "recruiter draw clan clan clan return R1 clan") == "recruit_returns"
    assert refused(state, "recruiter@3") == "ruse_notation"


def test_strategist_moves_or_discards_own_cards_on_open_stones() -> None:
    state = start(
        {1: ("R1 joker", "B1"), 2: ("G5", ""), 3: ("O1 O2 O3", "")},
        hands=("strategist", ""),
        owners={4: 0},
        tactics_played=(1, 1),
    )
    moved = state.play("strategist joker@1>2")
    assert moved.stone(1).sides[0] == (Card("R", 1),)
    assert moved.stone(2).sides[0] == (Card("G", 5), Tactic("joker"))
    discarded = state.play("strategist R1@1>discard")
    assert discarded.discards[-2:] == (Tactic("strategist"), Card("R", 1))
    assert refused(state, "strategist B1@1>2") == "card_not_at_stone"  # not yours
    assert refused(state, "strategist R1@1>1") == "same_stone"
    assert refused(state, "strategist R1@1>3") == "side_full"
    assert refused(state, "strategist R1@1>4") == "stone_claimed"
    assert refused(state, "strategist R1@1>10") == "no_such_stone"


def test_banshee_discards_an_opposing_card_and_resets_its_completion() -> None:
    # player 2 completed its run 4-5-6 first, so player 1 cannot claim the tie ...
    state = start({7: ("R4 O5 Y6", "G4 B5 P6")}, hands=("banshee R9", "R5"), first={7: 1})
    assert not state.claim_verdict(7, player=0).holds
    assert refused(state, "banshee R4@7") == "card_not_at_stone"  # own card
    # ... until a banshee takes B5 away and player 2 completes again, later
    hit = state.play("banshee B5@7")
    assert hit.stone(7).sides[1] == (Card("G", 4), Card("P", 6))
    assert hit.stone(7).completed[1] is None and Card("B", 5) in hit.discards
    again = hit.play("draw clan").play("R5@7").play("draw clan")
    assert again.stone(7).completed[1] > again.stone(7).completed[0]
    claimed = again.play("R9@1").play("claim 7")
    assert claimed.stone(7).owner == 0


def test_traitor_takes_an_opposing_clan_card_to_your_side() -> None:
    state = start(
        {1: ("R1", "B5 spy"), 2: ("G1 G2 G3", "")}, hands=("traitor", ""), tactics_played=(0, 1)
    )
    taken = state.play("traitor B5@1>1")  # the same stone is allowed
    assert taken.stone(1).sides == ((Card("R", 1), Card("B", 5)), (Tactic("spy"),))
    assert refused(state, "traitor spy@1>3") == "not_a_clan_card"
    assert refused(state, "traitor B5@1>2") == "side_full"
    assert refused(state, "traitor R1@1>3") == "card_not_at_stone"


def test_pass_allowed_with_only_tactic_cards_or_play_one() -> None:
    state = start(hands=("spy banshee", ""))
    passed = state.play("pass")
    assert passed.phase is Phase.AFTER_PASS
    assert state.play("spy@1").stone(1).sides[0] == (Tactic("spy"),)
    assert refused(start(hands=("spy R1", "")), "pass") == "pass_not_allowed"


def test_draw_from_either_pile_but_not_an_empty_one() -> None:
    state = start(hands=("R1", ""))
    played = state.play("R1@1")
    assert played.play("draw tactic").hands[0] == (state.tactic_deck[0],)

    empty_tactics = replace(played, tactic_deck=(), tactic_deck_size=0)
    assert refused(empty_tactics, "draw tactic") == "pile_empty"
    assert empty_tactics.play("draw clan").hand_sizes[0] == 1


def test_public_replay_with_tactics_checks_visible_copies() -> None:
    from referee.schotten_totten import public_game

    # Hands are dealt clan cards only: a tactic card is played only after one was drawn.
    game = public_game(rules=TACTICS).play("R1@1").play("draw tactic")
    game = game.play("B1@1").play("draw tactic")
    game = game.play("joker@2").play("draw tactic")
    game = game.play("spy@2").play("draw clan")
    assert game.stone(2).sides[1] == (Tactic("spy"),)
    assert refused(game, "joker@3") == "second_joker"  # one joker is still unseen
    assert refused(game, "spy@4") == "card_already_played"  # there is only one spy


def test_two_blank_turns_in_a_row_end_a_blocked_game() -> None:
    # Mud Fight needs a fourth card on each side, but no card is left to play:
    # neither player can ever claim stone 1, so two turns of pass-and-nothing end
    # the game without a winner (a ruling of ours: the rulebook never stalls).
    state = start({1: ("R1 R2 R3", "B1 B2 B3")}, styles={1: "mud_fight"})

    state = replace(state, deck=(), deck_size=0, tactic_deck=(), tactic_deck_size=0)
    once = state.play("pass").play("done")
    assert once.outcome is None and once.blank_turns == 1
    twice = once.play("pass").play("done")
    assert twice.outcome is not None and twice.outcome.winner is None
    assert twice.outcome.reason == "blocked"
    assert refused(twice, "pass") == "game_over"


def test_a_claim_or_a_played_card_breaks_the_blank_run() -> None:
    state = start({2: ("R7 R8 R9", "B1")}, styles={})
    state = replace(state, deck=(), deck_size=0, tactic_deck=(), tactic_deck_size=0)
    # player 1 can prove stone 2: a turn with a pass must claim it before it ends
    assert refused(state.play("pass"), "done") == "must_claim"
    assert state.play("pass").legal_moves() == [Claim(2)]
    claimed = state.play("pass").play("claim 2").play("done")
    assert claimed.blank_turns == 0 and claimed.outcome is None
    first = claimed.play("pass").play("done")
    assert first.blank_turns == 1 and first.outcome is None
    second = first.play("pass").play("done")
    assert second.outcome.reason == "blocked"


def test_recruiter_with_short_piles_draws_what_is_left() -> None:
    # Our decision: with fewer than three cards in the piles, the recruiter draws
    # them all; it always puts two back (or the whole hand, if smaller).
    state = start(hands=("recruiter R1", ""))
    short = replace(state, deck=state.deck[:1], deck_size=1, tactic_deck=(), tactic_deck_size=0)
    assert refused(short, "recruiter draw clan clan return R1") == "recruit_draws"
    after = short.play(f"recruiter draw clan return R1 {short.deck[0]}")
    assert after.hand_sizes[0] == 0 and after.deck_size == 2
    empty = replace(short, deck=(), deck_size=0)
    assert empty.play("recruiter return R1").hand_sizes[0] == 0


def test_public_record_pass_knows_the_clan_cards_in_a_hidden_hand() -> None:
    from referee.schotten_totten import public_game

    # Hands are dealt clan cards only and every tactic draw is visible: the number
    # of clan cards in a hidden hand is known at every ply (RULINGS, issue 13).
    game = public_game(rules=TACTICS)
    assert game.clans_in_hand(0) == 7 and game.tactics_in_hand(0) == 0
    assert refused(game, "pass") == "pass_not_allowed"
    assert refused(game, "spy@1") == "card_not_in_hand"  # no tactic card drawn yet
    clans = iter(["R1", "R2", "R3", "O1", "O2", "O3", "Y1", "Y2", "Y3", "G1", "G2", "G3", "B1"])
    for stone in range(1, 8):  # player 1 draws a tactic card seven times
        game = game.play(f"{next(clans)}@{stone}").play("draw tactic")
        game = game.play(f"{next(clans) if stone < 7 else 'B2'}@{stone}").play("draw clan")
    assert game.clans_in_hand(0) == 0 and game.tactics_in_hand(0) == 7
    assert game.clans_in_hand(1) == 7
    assert refused(game, "B3@8") == "card_not_in_hand"  # a hand of tactic cards only
    passed = game.play("pass").play("done")  # tactic cards never oblige a player to play
    assert refused(passed, "pass") == "pass_not_allowed"


def test_the_second_joker_stays_in_hand_the_recruiter_cannot_return_it() -> None:
    # RULINGS 14: once a player has played a joker, the second one stays in its hand
    state = start({2: ("joker", "B5")}, hands=("joker recruiter R1", "spy"), tactics_played=(1, 1))
    assert refused(state, "recruiter draw clan clan clan return joker R1") == "second_joker"
    ok = state.play(f"recruiter draw clan clan clan return R1 {state.deck[0]}")
    assert Tactic("joker") in ok.hands[0]
    listed = [m for m in state.legal_moves() if str(m).startswith("recruiter")]
    assert listed and all("joker" not in str(m) for m in listed)
    # before any joker is played, the joker may go back under the pile
    fresh = start(hands=("joker recruiter R1", "spy"))
    assert fresh.play("recruiter draw clan clan clan return joker R1").tactic_deck[-1] == Tactic(
        "joker"
    )


def test_the_hand_is_checked_before_the_tactic_limit() -> None:
    state = start(hands=("joker R1", "spy"), tactics_played=(1, 0))
    assert refused(state, "spy@3") == "card_not_in_hand"
    assert refused(state, "banshee R1@3") == "card_not_in_hand"
    assert refused(state, "joker@3") == "tactic_limit"


def test_blind_mans_bluff_with_equal_sums_first_completed_wins() -> None:
    # RULINGS 13: only the sum counts, and with equal sums the side completed first wins
    sides = {4: ("R9 O8 G1", "B7 B6 B5")}
    first = start(sides, styles={4: "blind_mans_bluff"}, phase=Phase.AFTER_PLAY, first={4: 0})
    assert first.play("claim 4").stone(4).owner == 0
    later = start(sides, styles={4: "blind_mans_bluff"}, phase=Phase.AFTER_PLAY, first={4: 1})
    assert refused(later, "claim 4") == "claim_not_proven"
    assert replace(later, to_move=1).play("claim 4").stone(4).owner == 1


def test_mud_fight_claim_may_be_proven_before_the_other_side_has_four_cards() -> None:
    # RULINGS 13: a proof against an incomplete side works at a Mud Fight stone too
    state = start({5: ("P6 P7 P8 P9", "B1")}, styles={5: "mud_fight"}, phase=Phase.AFTER_PLAY)
    claimed = state.play("claim 5")
    assert claimed.stone(5).owner == 0 and len(claimed.stone(5).sides[1]) == 1


def test_public_records_cannot_play_tactic_cards_never_drawn() -> None:
    # The audit's cases: a first move that is a tactic card, six tactic cards
    # played before any was drawn, and a recruiter returning a tactic card it
    # cannot hold. Each is illegal at the ply where it happens.
    from referee.records import Record, validate

    def public(moves: list[str]):
        record = Record("schotten-totten", tuple(moves), {"variants": ["tactics"]})
        return validate(record).error

    first = public(["spy@1"])
    assert (first.ply, first.reason) == (1, "card_not_in_hand")
    six = ["R1@1", "draw clan", "B1@1", "draw clan", "joker@2"]
    late = public(six)
    assert (late.ply, late.reason) == (5, "card_not_in_hand")
    back = public(
        [
            "R1@1",
            "draw tactic",
            "B1@1",
            "draw tactic",
            "recruiter draw clan clan clan return tactic clan",
        ]
    )
    assert (back.ply, back.reason) == (5, "card_not_in_hand")  # the recruiter was its only tactic
    assert (
        public(
            [
                "R1@1",
                "draw tactic",
                "B1@1",
                "draw tactic",
                "recruiter draw clan tactic clan return tactic clan",
                "done",
            ]
        )
        is None
    )


def test_recruiter_returns_are_listed_once_per_pair_and_both_orders_play() -> None:
    """The recruiter is two plies: its draws, then the cards it puts back, chosen
    with the drawn cards in hand. Which of two cards goes under a pile first is
    one decision, not two: the listed returns name each pair once (kind order),
    and a record may give either order (the pile then ends in that order)."""
    from itertools import combinations

    from referee.schotten_totten.moves import PutBack, Recruit

    state = start(hands=("recruiter R1 R2 R3 R4 R5 R6", ""))
    recruits = [m for m in state.legal_moves() if isinstance(m, Recruit)]
    assert [str(m) for m in recruits] == [
        "recruiter draw clan clan clan",
        "recruiter draw clan clan tactic",
        "recruiter draw clan tactic tactic",
        "recruiter draw tactic tactic tactic",
    ]
    for move in recruits:
        drawn = state.play(move)
        assert drawn.phase is Phase.RECRUIT_RETURN and drawn.to_move == 0
        assert drawn.hand_sizes[0] == 9  # 7 - recruiter + 3: two go back
        returns = [m for m in drawn.legal_moves() if isinstance(m, PutBack)]
        assert len(returns) == len(drawn.legal_moves())  # nothing else now
        pairs = {frozenset(m.cards) for m in returns}
        assert len(pairs) == len(returns)  # no pair twice
        assert pairs == {frozenset(p) for p in combinations(drawn.hands[0], 2)}
        assert refused(drawn, "claim 1") == "must_return"
        assert refused(drawn, "done") == "must_return"
    assert refused(state, "return R1 R2") == "not_recruiting"
    drawn = state.play("recruiter draw clan clan clan")
    clan_pair = drawn.play("return R2 R1")
    assert clan_pair.deck[-2:] == (Card("R", 2), Card("R", 1))
    listed = drawn.play("return R1 R2")
    assert listed.deck[-2:] == (Card("R", 1), Card("R", 2))
    names = [str(m) for m in drawn.legal_moves()]
    assert "return R1 R2" in names and "return R2 R1" not in names
    # the one-move form of older records plays the same, in one ply
    both = state.play("recruiter draw clan clan clan return R1 R2")
    assert both.ply == listed.ply - 1 and both.phase is Phase.AFTER_RECRUIT
    assert dataclasses.replace(both, ply=listed.ply) == listed
