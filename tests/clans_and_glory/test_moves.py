"""The move notation: round trip, repr as the parse call, malformed text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cards import Card
from referee.clans_and_glory import CLAN_CARDS, Placement, Seat, parse_move
from referee.errors import InvalidMoveError

moves = st.builds(
    Placement,
    st.sampled_from(CLAN_CARDS.cards),
    st.builds(Seat, st.integers(1, 99), st.integers(1, 99)),
    st.booleans(),
    st.booleans(),
)


@given(moves)
def test_text_round_trips(move: Placement) -> None:
    text = str(move)
    assert parse_move(text) == move
    assert str(parse_move(text)) == text
    assert eval(repr(move), {"parse_move": parse_move}) == move
    assert hash(parse_move(text)) == hash(move)


@pytest.mark.parametrize(
    ("text", "card", "seat", "down", "shield"),
    [
        ("G5@t2s4", "G5", "t2s4", False, False),
        ("G5@t2s4+shield", "G5", "t2s4", False, True),
        ("W8@t6s7+down", "W8", "t6s7", True, False),
        ("R3@t1s1+down+shield", "R3", "t1s1", True, True),
    ],
)
def test_examples(text: str, card: str, seat: str, down: bool, shield: bool) -> None:
    move = parse_move(text)
    assert move == Placement(Card.parse(card), Seat.parse(seat), down, shield)
    assert repr(move) == f"parse_move({text!r})"
    assert move.tableau == Seat.parse(seat).tableau


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "expected a card and a seat"),
        ("G5", "expected a card and a seat"),
        ("G5@2", "expected a card and a seat"),
        ("G5 @t2s4", "expected a card and a seat"),
        ("g5@t2s4", "expected a card and a seat"),
        ("G5@t2s4+shield+down", "in this order"),
        ("G5@t2s4+shield+shield", "expected a card and a seat"),
        ("G5@t2s4+Shield", "expected a card and a seat"),
        ("G5@t2s4+shield@t3", "a shield always goes on the tableau just played to"),
        ("X5@t2s4", "colour 'X' is not one of R, O, Y, G, B, P, W"),
        ("G9@t2s4", "value 9 is outside 3-8"),
        ("G05@t2s4", "write the card as 'G5'"),
        ("G5@t0s4", "malformed seat 't0s4'"),
        ("pass", "expected a card and a seat"),
    ],
)
def test_malformed_text(text: str, words: str) -> None:
    with pytest.raises(InvalidMoveError, match=words) as info:
        parse_move(text)
    assert info.value.reason == "malformed_move"
    assert repr(text) in str(info.value)


def test_non_text_refused() -> None:
    with pytest.raises(InvalidMoveError, match="a move is text"):
        parse_move(5)  # type: ignore[arg-type]
