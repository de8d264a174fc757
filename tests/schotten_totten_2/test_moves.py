"""Move notation and every refusal reason of the Schotten Totten 2 validator."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cards import Card
from referee.errors import ClaimRefusedError, IllegalMoveError, InvalidMoveError
from referee.schotten_totten_2 import (
    Control,
    Desertion,
    Draw,
    EndTurn,
    Exchange,
    ExchangeReply,
    Explosion,
    Oil,
    Pass,
    Phase,
    PlayCard,
    Reason,
    Recruitment,
    Redeploy,
    Retreat,
    Shuffle,
    Support,
    TacticCard,
    Treason,
    parse_move,
)

from .helpers import TACTICS, emptied, position, reason_of

numbers = st.integers(0, 99)
siege = st.builds(Card, st.sampled_from("RYGBP"), st.integers(0, 99))
any_card = st.one_of(siege, st.sampled_from(list(TacticCard)))
moves = st.one_of(
    st.builds(PlayCard, any_card, numbers),
    st.builds(Retreat, st.lists(numbers, min_size=1, max_size=7, unique=True).map(tuple)),
    st.builds(Oil, numbers),
    st.builds(Control, numbers),
    st.just(Pass()),
    st.builds(Draw, st.sampled_from(["siege", "tactic"])),
    st.just(EndTurn()),
    st.builds(Redeploy, any_card, numbers, st.one_of(st.none(), numbers)),
    st.builds(Recruitment, any_card, numbers),
    st.builds(Desertion, any_card, numbers),
    st.builds(Treason, any_card, numbers, numbers),
    st.builds(Explosion, numbers),
    st.builds(Support, st.tuples(any_card, any_card)),
    st.builds(
        Shuffle,
        st.one_of(st.none(), st.tuples(numbers, numbers).filter(lambda p: p[0] != p[1])),
    ),
    st.builds(Exchange, st.tuples(any_card, any_card, any_card)),
    st.builds(ExchangeReply, st.tuples(any_card, any_card, any_card)),
)


@given(moves)
def test_notation_round_trips(move: Any) -> None:
    text = str(move)
    assert parse_move(text) == move
    assert str(parse_move(text)) == text
    assert repr(move) == f"parse_move({text!r})"
    assert eval(repr(move)) == move


@pytest.mark.parametrize(
    "text",
    [
        "",
        "R7",
        "R7 @3",
        "r7@3",
        "R7@",
        "retreat",
        "retreat 2,2",
        "retreat 2,",
        "oil",
        "control three",
        "draw siege",
        "Done",
        "dragon@3",
        "redeploy R3@2>",
        "treason R3@5",
        "support R3",
        "shuffle 4,4",
        "exchange R1,R2 for B1,B2",
        "exchange R1,R2,R3 for B1,B2,B3",
        "give R1,R2",
        "R7@03",
        "R07@3",
        "retreat 02",
        "shuffle 01,4",
        "next",
    ],
)
def test_malformed_text_is_an_invalid_move_error(text: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        parse_move(text)
    assert error.value.reason == "malformed_move"
    assert repr(text) in str(error.value)
    with pytest.raises(InvalidMoveError):
        position().play(text)


def test_a_move_must_be_text() -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(7)  # type: ignore[arg-type]


# --- every refusal reason ----------------------------------------------------------------------


def _base() -> Any:
    return position({1: ("R1", "Y1"), 4: ("R10 R11", "")}, hands=("G1 G2", "B1 B2"))


def _after_play() -> Any:
    return _base().play("G1@2")


def _defender() -> Any:
    return position({1: ("R1", "")}, hands=("G1", "B1 B2"), to_move=1)


def _tactics() -> Any:
    return position(
        {1: ("R1", "Y1"), 3: ("", "spy")},
        hands=("redeploy recruitment support explosion desertion treason joker", "B1 B2 B3"),
        discards="P5",
        rules=TACTICS,
    )


def _won() -> Any:
    game = position({4: ("R10 R11", "")}, damaged=[1, 2, 3], phase=Phase.AFTER_PLAY)
    return game.play("control 4")


def _supported() -> Any:
    return position(discards="P5 Y9", hands=("support", ""), rules=TACTICS).play("support P5,Y9")


def _offered() -> Any:
    hands = ("exchange R1 R2 R3", "Y1 Y2 Y3")
    return position(hands=hands, rules=TACTICS).play("exchange R1,R2,R3")


CASES: list[tuple[str, Callable[[], Any], str, str]] = [
    (Reason.GAME_OVER, _won, "R1@1", "the game is over"),
    (Reason.NO_SUCH_TILE, _base, "G1@8", "there is no tile 8"),
    (Reason.UNKNOWN_CARD, _base, "G12@2", "not a Schotten Totten 2 card"),
    (Reason.CARD_NOT_IN_HAND, _base, "G3@2", "G3 is not in your hand"),
    (Reason.CARD_ALREADY_PLAYED, lambda: _base().view(1), "R10@2", "R10 cannot be in your hand"),
    (Reason.WRONG_ROLE, _base, "oil 1", "only the defender throws oil"),
    (Reason.WRONG_ROLE, _defender, "retreat 1", "only the attacker retreats"),
    (Reason.OPENING_TOO_LATE, _after_play, "retreat 1", "before playing a card"),
    (Reason.SECOND_OIL, lambda: _defender().play("oil 1"), "oil 1", "one oil cauldron per turn"),
    (Reason.SECOND_RETREAT, lambda: _base().play("retreat 1"), "retreat 4", "already retreated"),
    (Reason.NO_OIL_LEFT, lambda: replace(_defender(), oil=0), "oil 1", "all 3 oil"),
    (Reason.NOTHING_TO_OIL, _defender, "oil 2", "no cards at tile 2"),
    (Reason.NOTHING_TO_RETREAT, _base, "retreat 1,2", "no cards at tile 2"),
    (Reason.ALREADY_PLAYED, _after_play, "G2@3", "already played"),
    (Reason.SIDE_FULL, _base, "G1@4", "already has 2 cards"),
    (Reason.FORMATION_INCOMPLETE, _base, "control 1", "not complete (1 of 3 cards)"),
    (
        Reason.CLAIM_NOT_PROVEN,
        lambda: position({4: ("R1 Y2", "")}),
        "control 4",
        "the defender can still beat your run (3): adding R10 R11 makes color_run (21)",
    ),
    (Reason.PASS_NOT_ALLOWED, _base, "pass", "you can still play a card"),
    (Reason.MUST_PLAY_FIRST, _base, "done", "play a card (or pass) before ending"),
    (Reason.MUST_DRAW, _after_play, "done", "you must draw"),
    (
        Reason.NOTHING_TO_DRAW,
        lambda: emptied(_after_play()),
        "draw",
        "the siege deck is empty",
    ),
    (
        Reason.PILE_EMPTY,
        lambda: emptied(position(hands=("R1", ""), rules=TACTICS), siege=False, tactics=True).play(
            "R1@1"
        ),
        "draw tactic",
        "the tactic pile is empty",
    ),
    (
        Reason.PASS_DRAWS_NOTHING,
        lambda: replace(_base(), phase=Phase.AFTER_PASS),
        "draw",
        "a turn with a pass draws no card",
    ),
    (Reason.TACTICS_NOT_IN_PLAY, _base, "joker@2", "not in the base game"),
    (
        Reason.TACTIC_LIMIT,
        lambda: replace(_tactics(), tactics_played=(2, 1)),
        "joker@2",
        "you may not get two ahead",
    ),
    (Reason.NOT_A_TROOP, _tactics, "support@2", "support is an action card"),
    (Reason.NOT_A_SIEGE_CARD, _tactics, "recruitment spy@2", "takes a siege card"),
    (Reason.CARD_NOT_THERE, _tactics, "desertion R1@1", "not on your opponent's side"),
    (Reason.SAME_TILE, _tactics, "redeploy R1@1>1", "to another tile"),
    (Reason.NOT_DISCARDED, _tactics, "recruitment R9@2", "not in the discard pile"),
    (Reason.TOO_FEW_DISCARDS, _tactics, "support P5,R2", "the pile holds 1"),
    (Reason.NOTHING_TO_EXPLODE, _tactics, "explosion 7", "tile 7 has no cards"),
    (Reason.SHUFFLE_PENDING, _supported, "draw", "record where the support cards went"),
    (Reason.NO_SHUFFLE_PENDING, _tactics, "shuffle 1,2", "no support card is waiting"),
    (Reason.BAD_SHUFFLE, _supported, "shuffle 0,1", "give two different places"),
    (Reason.SHUFFLE_UNRECORDED, _supported, "shuffle", "the deck is known"),
    (Reason.EXCHANGE_PENDING, _offered, "Y1@2", "choose your 3 cards"),
    (Reason.NO_EXCHANGE_PENDING, _tactics, "give B1,B2,B3", "no exchange waits"),
    (Reason.OFFER_HIDDEN, lambda: _offered().view(1), "give Y1,Y2,Y3", "offered are hidden"),
    (
        Reason.TOO_FEW_CARDS,
        lambda: position(hands=("exchange R1 R2 R3", "Y1 Y2"), rules=TACTICS),
        "exchange R1,R2,R3",
        "an exchange takes 3 each",
    ),
]


@pytest.mark.parametrize(("reason", "make", "move", "words"), CASES, ids=[c[0] for c in CASES])
def test_every_refusal_has_its_reason_and_message(
    reason: str, make: Callable[[], Any], move: str, words: str
) -> None:
    state = make()
    before = state
    with pytest.raises(IllegalMoveError) as refused:
        state.play(move)
    assert refused.value.reason == reason
    assert str(refused.value).startswith(f"illegal move {move!r}: ")
    assert words in str(refused.value)
    assert state == before  # a refused move changes nothing
    assert reason_of(state, move) == reason


def test_every_reason_code_is_exercised() -> None:
    codes = {v for k, v in vars(Reason).items() if k.isupper()}
    # not_your_turn needs play(..., player=): tests/protocol/test_protocol.py
    assert codes - {Reason.NOT_YOUR_TURN} == {c[0] for c in CASES}


def test_claim_refusal_carries_the_verdict_and_witness() -> None:
    with pytest.raises(ClaimRefusedError) as refused:
        position({4: ("R1 Y2", "")}).play("control 4")
    verdict = refused.value.verdict
    assert verdict is not None and not verdict.holds
    assert verdict.witness is not None and len(verdict.witness.cards) == 2


# --- hostile input (issue 13) ---------------------------------------------------------------


@pytest.mark.parametrize("move", [None, 3, b"draw", 1.5, ["draw"], Card("R", 7)])
def test_anything_that_is_not_a_move_is_an_invalid_move_error(move: Any) -> None:
    state = position(hands=("R1", ""))
    with pytest.raises(InvalidMoveError) as error:
        state.play(move)
    assert error.value.reason == "malformed_move"
    assert repr(move) in str(error.value)
    assert not state.is_legal(move)


@pytest.mark.parametrize(
    ("build", "words"),
    [
        (lambda: PlayCard(Card("R", 7), True), "PlayCard.tile must be a whole number, not True"),
        (lambda: PlayCard("R7", 3), "PlayCard.card must be a card"),
        (lambda: PlayCard(Card("RR", 7), 3), "PlayCard.card must be a card"),
        (lambda: PlayCard(Card("R", -1), 3), "PlayCard.card must be a card"),
        (lambda: PlayCard(Card("R", 7), "3"), "PlayCard.tile must be a whole number, not '3'"),
        (lambda: Oil(4.0), "Oil.tile must be a whole number, not 4.0"),
        (lambda: Control(None), "Control.tile must be a whole number, not None"),
        (lambda: Retreat(()), "Retreat.tiles must be a non-empty tuple"),
        (lambda: Retreat((2, 2)), "Retreat.tiles names a tile twice"),
        (lambda: Retreat([2]), "Retreat.tiles must be a non-empty tuple"),
        (lambda: Draw("bogus"), "Draw.pile must be 'siege' or 'tactic', not 'bogus'"),
        (lambda: Redeploy(Card("R", 1), 2, "discard"), "Redeploy.target must be a whole number"),
        (lambda: Support((Card("R", 1),)), "Support.cards must be a tuple of 2 cards"),
        (lambda: Shuffle((1, 1)), "the two cards cannot lie at the same place"),
        (lambda: Exchange((Card("R", 1), Card("R", 2))), "Exchange.give must be a tuple of 3"),
        (lambda: ExchangeReply(("R1", "R2", "R3")), "ExchangeReply.give must be a card"),
    ],
)
def test_move_objects_with_bad_fields_are_refused(build: Callable[[], Any], words: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        build()
    assert words in str(error.value)


@pytest.mark.parametrize(
    "text", ["R7@03", "R07@3", "retreat 2,05", "oil 04", "shuffle 4,017", "give R01,R2,R3"]
)
def test_only_the_canonical_text_of_a_move_is_read(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="no leading zeros"):
        parse_move(text)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"attacker": 1.0}, "attacker must be 0 or 1, not 1.0"),
        ({"attacker": True}, "attacker must be 0 or 1, not True"),
        ({"attacker": 2}, "attacker must be 0 or 1, not 2"),
        ({"seed": 1.5}, "seed must be a whole number or None, not 1.5"),
        ({"seed": "7"}, "seed must be a whole number or None, not '7'"),
        ({"rules": {"tactics": True}}, "rules must be a Rules value"),
        ({"deck": 60}, "deck must be a sequence of cards, not 60"),
        ({"deck": [[1]] * 60}, "holds a card that does not belong there"),
    ],
)
def test_new_game_refuses_bad_keyword_values_at_once(kwargs: dict, words: str) -> None:
    from referee.schotten_totten_2 import new_game, public_game

    with pytest.raises(ValueError) as error:
        new_game(**kwargs)
    assert words in str(error.value)
    if set(kwargs) <= {"attacker", "rules"}:
        with pytest.raises(ValueError, match=words.split(",")[0]):
            public_game(**kwargs)


def test_rules_refuse_a_non_boolean_tactics_flag() -> None:
    from referee.schotten_totten_2 import Rules

    with pytest.raises(ValueError, match="tactics must be True or False, not 'yes'"):
        Rules(tactics="yes")  # type: ignore[arg-type]
