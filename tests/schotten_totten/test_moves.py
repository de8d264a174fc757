"""Move notation and every refusal reason of the Schotten Totten validator."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cards import Card
from referee.errors import ClaimRefusedError, IllegalMoveError, InvalidMoveError
from referee.schotten_totten import (
    Claim,
    Draw,
    EndTurn,
    Pass,
    Phase,
    PlayCard,
    new_game,
    parse_move,
    public_game,
)

from .helpers import position

moves = st.one_of(
    st.builds(
        PlayCard, st.builds(Card, st.sampled_from("ROYGBP"), st.integers(0, 99)), st.integers(0, 99)
    ),
    st.builds(Claim, st.integers(0, 99)),
    st.just(Pass()),
    st.just(Draw()),
    st.just(EndTurn()),
)


@given(moves)
def test_notation_round_trips(move: object) -> None:
    text = str(move)
    assert parse_move(text) == move
    assert eval(repr(move), {"parse_move": parse_move}) == move  # repr is the parse call


@pytest.mark.parametrize(
    "text",
    [
        "",
        "R7",
        "@3",
        "R7@",
        "r7@3",
        "R7@3 ",
        "claim",
        "claim x",
        "Claim 3",
        "PASS",
        "R100@3",
        "draw deck",
        "R7@3@4",
        "\u00e97@3",
    ],
)
def test_malformed_text_is_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        parse_move(text)
    assert error.value.reason == "malformed_move"
    assert repr(text) in str(error.value)


def test_non_text_is_invalid() -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(37)  # type: ignore[arg-type]


def refusal(state, move: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as error:
        state.play(move)
    assert repr(move) in str(error.value), "the message quotes the move"
    return error.value


def test_each_refusal_reason_and_nothing_changes() -> None:
    start = position(
        {1: ("R7 R8 R9", "O1"), 2: ("", "O5 O6 O7"), 3: ("G1 G2", "")},
        hands=("Y1 Y2", "B1"),
        phase=Phase.PLAY,
        owners={2: 1},
    )
    cases = {
        "no_such_stone": (start, "Y1@10"),
        "unknown_card": (start, "X1@3"),
        "card_not_in_hand": (start, "Y3@3"),
        "stone_claimed": (start, "Y1@2"),
        "side_full": (start, "Y1@1"),
        "claim_not_now": (start, "claim 1"),
        "pass_not_allowed": (start, "pass"),
        "must_play_first": (start, "draw"),
    }
    after = start.play("Y1@4")
    cases |= {
        "already_played": (after, "Y2@5"),
        "formation_incomplete": (after, "claim 3"),
        "must_draw": (after, "done"),
    }
    for reason, (state, move) in cases.items():
        before = state
        snapshot = (state.stones, state.hands, state.deck, state.phase, state.ply)
        assert refusal(state, move).reason == reason, move
        assert (state.stones, state.hands, state.deck, state.phase, state.ply) == snapshot
        assert state == before


def test_unknown_card_value() -> None:
    state = position({}, hands=("Y1", ""), phase=Phase.PLAY)
    assert refusal(state, "Y0@1").reason == "unknown_card"


def test_claim_of_a_claimed_stone_and_stone_out_of_range() -> None:
    state = position({1: ("R7 R8 R9", "O1")}, owners={1: 0})
    assert refusal(state, "claim 1").reason == "stone_claimed"
    assert refusal(state, "claim 0").reason == "no_such_stone"


def test_claim_not_proven_carries_the_beating_completion() -> None:
    state = position({1: ("R1 O2 Y4", "G8 G9")})
    with pytest.raises(ClaimRefusedError) as error:
        state.play("claim 1")
    refused = error.value
    assert refused.reason == "claim_not_proven"
    witness = refused.verdict.witness
    assert witness is not None and witness.strength.kind.label == "color_run"
    assert "G7" in str(refused)


def test_nothing_to_draw_and_done_with_empty_deck() -> None:
    state = position({}, hands=("Y1", "Y2"), phase=Phase.PLAY)
    drained = replace(state, deck=(), deck_size=0)
    played = drained.play("Y1@1")
    assert refusal(played, "draw").reason == "nothing_to_draw"
    assert played.play("done").to_move == 1


def test_public_replay_checks_visible_cards_only() -> None:
    game = public_game().play("R7@3").play("draw")
    assert game.hand_sizes == (6, 6) and game.hands == (None, None)
    assert refusal(game, "R7@4").reason == "card_already_played"
    # any unseen card may be in a hidden hand
    assert game.play("B2@4").stone(4).sides[1] == (Card("B", 2),)


def test_view_hides_the_opponent_hand_and_deck() -> None:
    game = new_game(seed=5)
    view = game.view(0)
    assert view.hands[0] == game.hands[0] and view.hands[1] is None and view.deck is None
    assert view.hand_sizes == game.hand_sizes and view.deck_size == game.deck_size
    # the opponent's moves are judged by the visible cards
    played = view.play(view.legal_moves()[0]).play("draw")
    assert played.hands[0] is None  # the drawn card is not known from a view either
    unseen = played.unseen_cards()
    assert played.play(PlayCard(unseen[0], 5)).stone(5).sides[1] == (unseen[0],)


def test_new_game_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="seed or the piles"):
        new_game(seed=1, deck=[])
    with pytest.raises(ValueError, match="each of the 54"):
        new_game(deck=[Card("R", 1)] * 54)
    with pytest.raises(ValueError, match="not clan cards"):
        new_game(deck=[Card("X", 1)])
    with pytest.raises(ValueError, match="first"):
        new_game(first=2)
    assert new_game(seed=3) == new_game(seed=3)
    assert new_game(seed=3) != new_game(seed=4)
