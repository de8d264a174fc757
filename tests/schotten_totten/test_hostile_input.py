"""Anything a caller can pass gets one of the documented errors, never a bare TypeError."""

from __future__ import annotations

import pytest

from referee.cards import Card, InvalidCardError
from referee.errors import InvalidMoveError
from referee.schotten_totten import Claim, Draw, PlayCard, Rules, new_game, parse_move, public_game
from referee.schotten_totten.moves import Banshee, Recruit, Strategist, Traitor
from referee.schotten_totten.tactics import Tactic


@pytest.mark.parametrize("move", [None, 3, b"draw", 2.5, ["R7@3"], object()])
def test_play_refuses_what_is_not_a_move(move: object) -> None:
    game = new_game(seed=1)
    with pytest.raises(InvalidMoveError) as error:
        game.play(move)  # type: ignore[arg-type]
    assert isinstance(error.value, ValueError)
    assert repr(move) in str(error.value) and error.value.reason == "malformed_move"
    assert not game.is_legal(move)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "build",
    [
        lambda: Draw("bogus"),
        lambda: Draw(1),  # type: ignore[arg-type]
        lambda: PlayCard(Card("R", 7), True),
        lambda: PlayCard(Card("R", 7), 3.0),  # type: ignore[arg-type]
        lambda: PlayCard("R7", 3),  # type: ignore[arg-type]
        lambda: PlayCard(Card("R", True), 3),  # type: ignore[arg-type]
        lambda: Claim(False),
        lambda: Claim("3"),  # type: ignore[arg-type]
        lambda: Banshee(Card("R", 7), None),  # type: ignore[arg-type]
        lambda: Traitor(Card("R", 7), 1, True),
        lambda: Strategist(Card("R", 7), 1, 2.0),  # type: ignore[arg-type]
        lambda: Recruit(("bogus",), ()),
        lambda: Recruit(("clan",), ("R7",)),  # type: ignore[arg-type]
    ],
)
def test_move_objects_with_bad_fields_are_refused(build) -> None:
    with pytest.raises(InvalidMoveError, match="malformed move"):
        build()


def test_unknown_tactic_card_objects_are_refused_at_play() -> None:
    game = new_game(seed=1, rules=Rules(tactics=True))
    assert not game.is_legal(PlayCard(Tactic("bogus"), 3))


@pytest.mark.parametrize(
    "keywords",
    [
        {"first": 1.0},
        {"first": True},
        {"first": 2},
        {"first": "0"},
        {"seed": "7"},
        {"seed": 1.5},
        {"rules": "1999"},
        {"rules": {"edition": "1999"}},
        {"deck": 5},
        {"deck": "R1 R2"},
        {"deck": [Card("R", True)] + [Card("R", 2)] * 53},
    ],
)
def test_new_game_refuses_bad_keywords_at_once(keywords: dict) -> None:
    with pytest.raises(ValueError):
        new_game(**keywords)


@pytest.mark.parametrize("keywords", [{"first": 1.0}, {"rules": "tactics"}])
def test_public_game_refuses_bad_keywords_at_once(keywords: dict) -> None:
    with pytest.raises(ValueError):
        public_game(**keywords)


@pytest.mark.parametrize(
    "keywords",
    [{"edition": 1999}, {"edition": "2024", "tactics": 1}, {"early_bird": "yes"}],
)
def test_rules_refuse_bad_values(keywords: dict) -> None:
    with pytest.raises(ValueError):
        Rules(**keywords)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("R7@05", "non-canonical stone number '05': write it as 5"),
        ("claim 03", "non-canonical stone number '03': write it as 3"),
        ("R09@3", "non-canonical card 'R09': write the card as 'R9'"),
        ("banshee R07@3", "write the card as 'R7'"),
        ("traitor R7@3>06", "write it as 6"),
        ("strategist R7@3>05", "write it as 5"),
        ("R\u0667@3", "expected a move like"),
    ],
)
def test_non_canonical_text_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        parse_move(text)
    assert repr(text) in str(error.value) and message in str(error.value)


def test_one_canonical_card_text_for_every_game() -> None:
    assert Card.parse("R0") == Card("R", 0) and Card.parse("P11") == Card("P", 11)
    for text in ("R00", "R011", "R\u0667", "R 7", "R+7"):
        with pytest.raises(InvalidCardError):
            Card.parse(text)
