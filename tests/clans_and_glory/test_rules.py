"""Placing cards and shields: the matching rule, face-down cards, every refusal,
the rulebook's FAQ answers, the end of the game, views and the text picture."""

from __future__ import annotations

import pytest

from referee.cards import Card
from referee.clans_and_glory import (
    Placed,
    Placement,
    Reason,
    Seat,
    State,
    new_game,
    parse_move,
    random_playout,
)
from referee.errors import IllegalMoveError, InvalidMoveError
from referee.game import GameState, Outcome

from .positions import position

# A red 5 face up on t2s2, a face-down green 6 on t3s5; player 1 holds R3 G5 B4.
OPENING = position(2, {"t2s2": "R5", "t3s5": "g6"}, ["R3 G5 B4", "Y4 W6"])


def refuse(state: State, move: str, reason: str, words: str, **kwargs: int) -> None:
    before = state.replace()
    with pytest.raises(IllegalMoveError, match=words) as info:
        state.play(move, **kwargs)
    assert info.value.reason == reason
    assert repr(move) in str(info.value)
    assert not state.is_legal(move, **kwargs)
    assert state == before and hash(state) == hash(before)


def test_state_follows_the_game_protocol() -> None:
    assert isinstance(new_game(players=2, seed=1), GameState)


# -- ruling 3: the matching rule --------------------------------------------------------


def test_same_colour_beside_is_a_fit() -> None:
    after = OPENING.play("R3@t2s1")
    assert after.seat_card(Seat(2, 1)) == Placed(Card("R", 3), 0, face_up=True)
    assert after.to_move == 1


def test_same_rank_opposite_is_a_fit() -> None:
    assert OPENING.is_legal("G5@t2s5")


def test_rank_beside_across_a_tableau_edge_is_a_fit() -> None:
    state = position(2, {"t2s3": "R5"}, ["G5", "B4"])
    assert state.is_legal("G5@t3s1")
    assert not state.is_legal("G5@t3s2")


def test_one_matching_card_is_enough() -> None:
    # t2s3 touches R5 (t2s2, fits) and B6 (t2s6, does not): one is enough
    state = position(2, {"t2s2": "R5", "t2s6": "B6"}, ["R3", "Y4"])
    assert state.is_legal("R3@t2s3")


def test_no_match_refused() -> None:
    refuse(OPENING, "B4@t2s1", Reason.NO_MATCH, "neither colour nor rank")
    # a card far from every face-up card does not fit either
    refuse(OPENING, "R3@t4s1", Reason.NO_MATCH, "beside or opposite t4s1")


def test_face_down_cards_never_match() -> None:
    # W6 would match a face-up 6, but the g6 on t3s5 is face down
    state = OPENING.replace(to_move=1)
    refuse(state, "W6@t3s4", Reason.NO_MATCH, "neither colour nor rank")


# -- face-down placement --------------------------------------------------------------

STUCK = position(2, {"t1s2": "R3"}, ["G4 B5", "Y6"])


def test_face_down_only_when_nothing_fits_anywhere() -> None:
    moves = STUCK.legal_moves()
    free = STUCK.free_seats()
    assert all(m.face_down for m in moves)
    assert {(m.card, m.seat) for m in moves} == {(c, s) for c in STUCK.hands[0] for s in free}
    after = STUCK.play("G4@t4s7+down")
    assert after.seat_card(Seat(4, 7)) == Placed(Card("G", 4), 0, face_up=False)


def test_face_down_while_a_fit_exists_refused() -> None:
    refuse(OPENING, "B4@t1s1+down", Reason.FACE_DOWN_WITH_FIT, "but R3 fits t2s1")


def test_face_up_when_nothing_fits_is_no_match() -> None:
    refuse(STUCK, "G4@t1s1", Reason.NO_MATCH, "neither colour nor rank")


def test_a_shield_may_go_with_a_face_down_card() -> None:
    after = STUCK.play("B5@t3s4+down+shield")
    assert after.shield_stack(3) == (0,)


def test_face_down_card_still_blocks_its_seat() -> None:
    after = STUCK.play("B5@t1s1+down")
    refuse(after, "Y6@t1s1+down", Reason.SEAT_TAKEN, "seat t1s1 is taken")


# -- every other refusal ----------------------------------------------------------------


def test_card_not_in_hand() -> None:
    refuse(OPENING, "Y4@t2s5", Reason.CARD_NOT_IN_HAND, "player 1 does not hold Y4")
    # a card removed from the game with 2 players (the 8s) is not in any hand
    refuse(OPENING, "R8@t2s1", Reason.CARD_NOT_IN_HAND, "does not hold R8")


@pytest.mark.parametrize("seat", ["t5s1", "t2s7", "t1s8", "t3s9"])
def test_no_such_seat(seat: str) -> None:
    refuse(OPENING, f"R3@{seat}", Reason.NO_SUCH_SEAT, f"no seat {seat}")


def test_seat_taken() -> None:
    refuse(OPENING, "R3@t2s2", Reason.SEAT_TAKEN, "seat t2s2 is taken")


def test_not_your_turn() -> None:
    refuse(OPENING, "R3@t2s1", Reason.NOT_YOUR_TURN, "player 1's turn, not player 2's", player=1)
    assert OPENING.is_legal("R3@t2s1", player=0)


def test_no_shields_left() -> None:
    state = position(2, {"t2s2": "R5"}, ["R3 G5", "Y4"], shields={1: [0, 0, 0], 4: [1, 0, 0]})
    assert state.shields_left(0) == 0 and state.shields_left(1) == 4
    refuse(state, "R3@t2s1+shield", Reason.NO_SHIELDS_LEFT, "player 1 has no shields left")
    assert state.legal_moves() and not any(m.shield for m in state.legal_moves())
    assert state.is_legal("R3@t2s1")


def test_game_over() -> None:
    moves = random_playout(8, players=2)
    game = new_game(players=2, seed=8)
    for text in moves:
        game = game.play(text)
    card = game.hands[0][0]
    free = game.free_seats()[0]
    refuse(game, f"{card}@{free}", Reason.GAME_OVER, "the game is over")
    assert game.legal_moves() == []


def test_malformed_move_refused_without_change() -> None:
    before = OPENING.replace()
    with pytest.raises(InvalidMoveError) as info:
        OPENING.play("R3 to t2s1")
    assert info.value.reason == Reason.MALFORMED_MOVE
    with pytest.raises(InvalidMoveError):
        OPENING.play(3)  # type: ignore[arg-type]
    assert before == OPENING


def test_refusal_order_reports_the_first_broken_rule() -> None:
    # not in hand and seat missing: the card is reported first
    refuse(OPENING, "Y4@t9s1", Reason.CARD_NOT_IN_HAND, "does not hold Y4")


# -- the rulebook's frequent questions ------------------------------------------------------


def test_faq_a_card_must_be_placed_every_turn() -> None:
    for seed in range(5):
        game = new_game(players=3, seed=seed)
        while game.outcome is None:
            moves = game.legal_moves()
            assert moves, "a player always has a placement"
            game = game.play(moves[seed % len(moves)])
    with pytest.raises(InvalidMoveError):
        new_game(players=2, seed=1).play("pass")


def test_faq_a_shield_is_optional() -> None:
    moves = OPENING.legal_moves()
    plain = {(m.card, m.seat) for m in moves if not m.shield}
    shielded = {(m.card, m.seat) for m in moves if m.shield}
    assert plain == shielded and plain
    assert OPENING.play("R3@t2s1").shield_stack(2) == ()


def test_faq_shields_stack_and_a_player_may_add_another() -> None:
    state = position(2, {"t2s2": "R5"}, ["R3 R4", "R6 G5"])
    state = state.play("R3@t2s1+shield")
    state = state.play("G5@t2s5+shield")
    state = state.play("R4@t2s3+shield")
    assert state.shield_stack(2) == (0, 1, 0)
    assert state.shields_left(0) == 3 and state.shields_left(1) == 4


def test_faq_the_shield_goes_on_the_tableau_just_played_to() -> None:
    state = position(2, {"t2s3": "R5"}, ["R3", "Y4"])
    after = state.play("R3@t3s1+shield")
    assert after.shield_stack(3) == (0,) and after.shield_stack(2) == ()
    with pytest.raises(InvalidMoveError, match="tableau just played to"):
        state.play("R3@t3s1+shield@t2")


def test_faq_head_seat_fits_by_its_corner_neighbours() -> None:
    state = position(2, {"t1s4": "B5", "t4s3": "Y6"}, ["B3 G6", "W4"])
    assert state.is_legal("B3@t1s7")
    assert state.is_legal("G6@t4s7")
    assert not state.is_legal("G6@t1s7")


def test_faq_head_seats_fit_by_each_other() -> None:
    state = position(3, {"t1s7": "B5"}, ["G5 G6", "W4", "Y3"])
    assert state.is_legal("G5@t5s7")
    refuse(state, "G6@t5s7", Reason.NO_MATCH, "beside or opposite t5s7")


def test_faq_nothing_fits_means_face_down() -> None:
    assert STUCK.legal_moves() and all(m.face_down for m in STUCK.legal_moves())


# -- ruling 5: the end -------------------------------------------------------------------


def test_game_ends_when_fewest_cards_player_places_its_last() -> None:
    # player 2 (fewest cards) moves last; player 1 still holds a card at the end
    state = position(2, {"t2s2": "R5", "t3s2": "R6"}, ["R3 R4", "G5"], to_move=0)
    state = state.play("R3@t2s1+shield")
    assert state.outcome is None
    state = state.play("G5@t2s5")
    assert state.is_game_over() and state.hands == ((Card("R", 4),), ())
    # the held R4 is not scored; R3 goes to player 1's shield
    assert state.outcome == Outcome("most_points", 0, (3, 0))


@pytest.mark.parametrize(("players", "moves", "free"), [(2, 16, 2), (3, 24, 3), (4, 28, 4)])
def test_game_length_and_leftovers(players: int, moves: int, free: int) -> None:
    texts = random_playout(21, players=players)
    assert len(texts) == moves
    game = new_game(players=players, seed=21)
    for text in texts:
        game = game.play(text)
    assert game.outcome is not None
    assert len(game.free_seats()) == free
    # everyone but the last player keeps one unplayed card, which is out of the game
    assert game.hand_sizes == (1,) * (players - 1) + (0,)


# -- views and pictures --------------------------------------------------------------------


def test_view_hides_other_hands_and_their_face_down_cards() -> None:
    state = STUCK.play("G4@t4s7+down")
    state = state.play("Y6@t1s1+down")
    for viewer, other in ((0, 1), (1, 0)):
        view = state.view(viewer)
        assert view.hands[viewer] == state.hands[viewer] and view.hands[other] is None
        assert view.hand_sizes == state.hand_sizes
        text = str(view)
        assert "hidden" in text and f"seen by player {viewer + 1}" in text
        for card in state.hands[other]:
            assert str(card) not in text
    assert state.view(1).table[state.layout.index(Seat(4, 7))] == Placed(None, 0, face_up=False)
    own = state.view(0).table[state.layout.index(Seat(4, 7))]
    assert own == Placed(Card("G", 4), 0, face_up=False)
    assert "g4" in str(state.view(0)) and "g4" not in str(state.view(1))
    assert "##" in str(state.view(1))


def test_view_legal_moves_match_the_referee() -> None:
    game = new_game(players=4, seed=3)
    for _ in range(6):
        assert game.view(game.to_move).legal_moves() == game.legal_moves()
        assert game.view((game.to_move + 1) % 4).legal_moves() == []
        game = game.play(game.legal_moves()[-1])


def test_view_of_unknown_player_refused() -> None:
    with pytest.raises(ValueError, match="no player 2"):
        new_game(players=2, seed=1).view(2)


def test_picture_of_the_table() -> None:
    state = position(2, {"t1s2": "R5", "t4s7": "b3"}, ["R3 G5", "Y4"], shields={1: [1, 0]})
    text = str(state)
    lines = text.splitlines()
    assert lines[0] == "Clans and Glory, 2 players: player 1 to move"
    assert lines[1].split() == ["t1", "t2", "t3", "t4"]
    assert lines[2].split()[:3] == ["--", "R5", "--"]
    assert lines[3].split() == ["--", "b3"]  # head seats; face down in lower case
    assert "t1: 2 1" in text
    assert "player 1: 2 cards (R3 G5), 4 shields left" in text
    assert "player 2: 1 card (Y4), 4 shields left" in text


def test_picture_of_a_finished_game_names_the_winner() -> None:
    game = new_game(players=2, seed=8)
    for text in random_playout(8, players=2):
        game = game.play(text)
    assert game.outcome is not None
    assert str(game).splitlines()[0].startswith("Clans and Glory, 2 players: game over")


def test_legal_moves_are_all_legal_and_complete() -> None:
    game = new_game(players=3, seed=4)
    legal = set(game.legal_moves())
    for card in game.hands[0]:
        for seat in game.layout.seats:
            for down in (False, True):
                for shield in (False, True):
                    move = Placement(card, seat, down, shield)
                    assert (move in legal) == game.is_legal(move)
    assert parse_move(str(next(iter(legal)))) in legal
