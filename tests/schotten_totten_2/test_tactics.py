"""The tactics variant: every tactic card, the piles, the tactic limit."""

from __future__ import annotations

from dataclasses import replace

from referee.schotten_totten_2 import (
    SIEGE_CARDS,
    Exchange,
    ExchangeReply,
    Phase,
    Shuffle,
    Support,
    TacticCard,
    new_game,
)

from .helpers import TACTICS, cards, emptied, position, reason_of


def test_elite_troops_are_played_like_siege_cards() -> None:
    state = position(hands=("joker spy shield", ""), rules=TACTICS)
    after = state.play("spy@4")
    assert after.tile(4).sides[0] == (TacticCard.SPY,)
    assert after.tactics_played == (1, 0) and after.actions == ((), ())
    assert reason_of(state, "redeploy@4") == "not_a_troop"


def test_draw_from_either_pile_and_an_empty_pile_cannot_be_chosen() -> None:
    game = new_game(seed=2, rules=TACTICS)
    played = game.play(game.legal_moves()[-1])
    assert {str(m) for m in played.legal_moves()} >= {"draw", "draw tactic"}
    top = played.tactic_deck[0]  # type: ignore[index]
    drawn = played.play("draw tactic")
    assert drawn.hands[game.to_move][-1] == top  # type: ignore[index]
    assert drawn.tactic_deck_size == 10 and drawn.deck_size == played.deck_size
    empty = emptied(position(hands=("R1", ""), rules=TACTICS), siege=False, tactics=True)
    assert reason_of(empty.play("R1@1"), "draw tactic") == "pile_empty"


def test_the_draw_is_owed_while_any_pile_has_cards() -> None:
    state = position(
        hands=("R1", ""),
        discards=" ".join(str(c) for c in SIEGE_CARDS.cards if str(c) != "R1"),
        rules=TACTICS,
    )
    assert state.deck_size == 0 and state.tactic_deck_size == 11
    played = state.play("R1@1")
    assert reason_of(played, "done") == "must_draw"
    assert reason_of(played, "draw") == "pile_empty"
    assert played.play("draw tactic").hand_sizes[0] == 1


def test_redeploy_moves_or_discards_one_of_your_cards() -> None:
    state = position({2: ("R3 Y4", "B1"), 5: ("G2", "")}, hands=("redeploy", ""), rules=TACTICS)
    moved = state.play("redeploy R3@2>5")
    assert moved.tile(2).sides[0] == cards("Y4") and moved.tile(5).sides[0] == cards("G2 R3")
    assert moved.actions[0] == (TacticCard.REDEPLOY,) and moved.phase is Phase.AFTER_PLAY
    dropped = state.play("redeploy Y4@2>discard")
    assert dropped.tile(2).sides[0] == cards("R3") and dropped.discards == cards("Y4")
    assert reason_of(state, "redeploy B1@2>5") == "card_not_there"
    assert reason_of(state, "redeploy R3@2>2") == "same_tile"
    assert reason_of(state, "redeploy R3@2>9") == "no_such_tile"
    full = position({2: ("R3", ""), 4: ("Y1 Y2", "")}, hands=("redeploy", ""), rules=TACTICS)
    assert reason_of(full, "redeploy R3@2>4") == "side_full"


def test_recruitment_plays_a_discarded_siege_card() -> None:
    state = position(discards="R5 joker", hands=("recruitment", ""), rules=TACTICS)
    after = state.play("recruitment R5@3")
    assert after.tile(3).sides[0] == cards("R5") and after.discards == cards("joker")
    assert reason_of(state, "recruitment R6@3") == "not_discarded"
    assert reason_of(state, "recruitment joker@3") == "not_a_siege_card"


def test_desertion_discards_an_opposing_card() -> None:
    state = position({6: ("R1", "Y1 shield")}, hands=("desertion", ""), rules=TACTICS)
    after = state.play("desertion shield@6")
    assert after.tile(6).sides[1] == cards("Y1") and after.discards == cards("shield")
    assert reason_of(state, "desertion R1@6") == "card_not_there"


def test_treason_takes_an_opposing_card_onto_your_side() -> None:
    state = position({6: ("R1", "Y1 Y2"), 4: ("B3", "")}, hands=("treason", ""), rules=TACTICS)
    after = state.play("treason Y2@6>4")
    assert after.tile(6).sides[1] == cards("Y1") and after.tile(4).sides[0] == cards("B3 Y2")
    done = after.tile(4).completed[0]
    assert done is not None  # the gate's 2 cards are complete now
    assert reason_of(after, "treason Y1@6>6") == "already_played"
    full = position({4: ("B3 B4", "Y1")}, hands=("treason", ""), rules=TACTICS)
    assert reason_of(full, "treason Y1@4>4") == "side_full"


def test_explosion_discards_both_sides_of_a_tile() -> None:
    state = position({3: ("R1 R2", "Y9 joker")}, hands=("explosion", ""), rules=TACTICS)
    after = state.play("explosion 3")
    assert after.tile(3).sides == ((), ()) and not after.tile(3).damaged
    assert after.discards == cards("R1 R2 Y9 joker")
    assert reason_of(state, "explosion 2") == "nothing_to_explode"


def test_support_shuffles_two_discarded_cards_into_the_deck_at_recorded_places() -> None:
    state = position(discards="R5 Y6 joker", hands=("support", ""), rules=TACTICS)
    supported = state.play("support R5,Y6")
    assert supported.phase is Phase.SHUFFLE and supported.discards == cards("joker")
    assert reason_of(supported, "draw") == "shuffle_pending"
    assert reason_of(supported, "shuffle") == "shuffle_unrecorded"
    size = state.deck_size + 2
    assert reason_of(supported, f"shuffle 1,{size + 1}") == "bad_shuffle"
    legal = supported.legal_moves()  # chance: the one dealt shuffle is listed
    assert len(legal) == 1 and isinstance(legal[0], Shuffle) and legal[0].positions
    after = supported.play("shuffle 3,1")
    assert after.deck is not None and after.deck_size == size
    assert after.deck[0] == cards("Y6")[0] and after.deck[2] == cards("R5")[0]
    assert after.deck[1] == state.deck[0] and after.deck[3:] == state.deck[1:]  # type: ignore[index]
    assert after.phase is Phase.AFTER_PLAY
    assert reason_of(after, "shuffle 1,2") == "no_shuffle_pending"
    # at least two discarded siege cards are needed
    few = position(discards="R5 joker", hands=("support", ""), rules=TACTICS)
    assert reason_of(few, "support R5,joker") == "too_few_discards"
    assert Support((cards("R5")[0], cards("Y6")[0])) in state.legal_moves()  # type: ignore[arg-type]


def test_support_in_a_public_record_may_leave_the_places_unknown() -> None:
    state = position(discards="R5 Y6", hands=("support", ""), rules=TACTICS)
    hidden = state.view(1)
    assert hidden.deck is None
    supported = hidden.play("support R5,Y6")
    assert supported.legal_moves() == [Shuffle()]
    assert supported.play("shuffle").deck_size == state.deck_size + 2
    assert supported.play("shuffle 2,5").deck_size == state.deck_size + 2


def test_exchange_swaps_three_cards_each() -> None:
    state = position(hands=("exchange R1 R2 R3 R4", "Y1 Y2 Y3 spy"), rules=TACTICS)
    offered = state.play("exchange R1,R2,R3")
    # the opponent's choice is its own ply: it is the one to move
    assert offered.phase is Phase.EXCHANGE and offered.to_move == 1
    answers = offered.legal_moves()
    assert all(isinstance(m, ExchangeReply) for m in answers) and len(answers) == 4
    assert reason_of(offered, "draw") == "exchange_pending"
    after = offered.play("give Y1,spy,Y3")
    assert after.hands == (cards("R4 Y1 spy Y3"), cards("Y2 R1 R2 R3"))
    assert after.hand_sizes == (4, 4) and after.hand_tactics == (1, 0)
    assert after.to_move == 0 and after.phase is Phase.AFTER_PLAY  # the mover draws next
    assert reason_of(offered, "give Y1,Y2,R4") == "card_not_in_hand"
    assert reason_of(state, "exchange R1,R2,Y9") == "card_not_in_hand"
    assert reason_of(state, "exchange exchange,R2,R3") == "card_not_in_hand"
    assert reason_of(state, "give Y1,Y2,Y3") == "no_exchange_pending"
    moves = [m for m in state.legal_moves() if isinstance(m, Exchange)]
    assert len(moves) == 4  # 3 of the 4 other cards; the opponent chooses its own
    short = position(hands=("exchange R1 R2", "Y1 Y2 Y3"), rules=TACTICS)
    assert reason_of(short, "exchange R1,R2,R2") == "card_not_in_hand"
    poor = position(hands=("exchange R1 R2 R3", "Y1 Y2"), rules=TACTICS)
    assert reason_of(poor, "exchange R1,R2,R3") == "too_few_cards"


def test_exchange_the_answering_player_does_not_see_the_offer() -> None:
    state = position(hands=("exchange R1 R2 R3 R4", "Y1 Y2 Y3 spy"), rules=TACTICS)
    offered = state.play("exchange R1,R2,R3")
    chooser = offered.view(1)
    # both choose without seeing the other's cards: the offer is hidden from the chooser
    assert chooser.exchange is None and chooser.phase is Phase.EXCHANGE
    assert chooser.hands[0] is None and "R1" not in {str(c) for c in chooser.hands[1] or ()}
    assert sorted(map(str, chooser.legal_moves())) == sorted(map(str, offered.legal_moves()))
    assert reason_of(chooser, "give Y1,Y2,Y3") == "offer_hidden"
    # the offering player sees its own offer
    assert offered.view(0).exchange == offered.exchange


def test_exchange_in_a_public_replay_names_both_choices() -> None:
    state = position(hands=("exchange R1 R2 R3 R4", "Y1 Y2 Y3 spy"), rules=TACTICS)
    hidden = replace(state, hands=(None, None), deck=None, tactic_deck=None)
    assert hidden.hand_tactics == (1, 1)
    offered = hidden.play("exchange R1,R2,R3")
    # the offered cards are seen now: the other hand cannot give them back
    assert reason_of(offered, "give R1,Y2,Y3") == "card_already_played"
    # the chooser holds one tactic card, so it cannot give two
    assert reason_of(offered, "give joker,spy,Y3") == "card_not_in_hand"
    after = offered.play("give Y1,spy,Y3")
    assert after.hand_tactics == (1, 0) and after.to_move == 0


def test_the_tactic_limit_counts_every_tactic_card_played() -> None:
    state = position(hands=("spy desertion", "R1"), rules=TACTICS, tactics_played=(1, 0))
    assert reason_of(state, "spy@1") == "tactic_limit"
    assert reason_of(state, "desertion R1@1") == "tactic_limit"
    assert all("spy" not in str(m) and "desertion" not in str(m) for m in state.legal_moves())


def test_exchange_lists_each_choice_of_cards_once_with_both_jokers() -> None:
    # Two equal cards (the jokers) apart in a hand gave the same three cards in
    # two orders: two legal moves with one action id, offered and answered.
    from referee.schotten_totten_2.actions import ACTIONS

    state = position(hands=("joker exchange R1 joker R2", "Y1 Y2 Y3 spy"), rules=TACTICS)
    offers = [m for m in state.legal_moves() if str(m).startswith("exchange ")]
    ids = [ACTIONS.action_of(m) for m in offers]
    assert len(ids) == len(set(ids)) == 3  # {j,j,R1} {j,j,R2} {j,R1,R2}, once each
    state = position(hands=("exchange R1 R2 R3", "joker Y1 joker Y2"), rules=TACTICS)
    answers = list(state.play("exchange R1,R2,R3").legal_moves())
    assert len({ACTIONS.action_of(m) for m in answers}) == len(answers) == 3
