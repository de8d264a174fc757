"""Malformed questions are refused before any engine answers, by both engines alike."""

from __future__ import annotations

import pytest

from referee.formations import ALL_KINDS, FormationRule
from referee.prover import (
    MAX_COLOURS,
    Engine,
    InvalidQuestionError,
    Pool,
    Wildcard,
    best_reachable,
    decide_claim,
)

ENGINES: list[Engine] = ["exact", "cpsat"]
ST = FormationRule(3, ALL_KINDS)
CLAIMANT = [(0, 7), (0, 8), (0, 9)]


def pool(*visible: tuple[int, int]) -> list[tuple[int, int]]:
    return [(c, v) for c in range(6) for v in range(1, 10) if (c, v) not in visible]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_colour_outside_the_colours_is_refused(engine: Engine) -> None:
    with pytest.raises(
        InvalidQuestionError,
        match=r"card \(9, 5\) of the opponent has colour 9, but colours=6 allows 0-5",
    ):
        decide_claim(CLAIMANT, [(9, 5)], pool(*CLAIMANT), ST, colours=6, engine=engine)
    with pytest.raises(InvalidQuestionError, match=r"card \(6, 1\) in the pool has colour 6"):
        decide_claim(CLAIMANT, [], [*pool(*CLAIMANT), (6, 1)], ST, colours=6, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("value", [-1, 100, 10**9])
def test_a_value_outside_the_deck_is_refused(engine: Engine, value: int) -> None:
    with pytest.raises(
        InvalidQuestionError,
        match=rf"card \(1, {value}\) of the opponent has value {value}, outside the deck's 0-99",
    ):
        decide_claim(CLAIMANT, [(1, value)], pool(*CLAIMANT), ST, colours=6, engine=engine)
    with pytest.raises(
        InvalidQuestionError, match=rf"wildcard 'joker' of the side may take {value}"
    ):
        best_reachable(
            [Wildcard(frozenset({1, value}), "joker")], pool(), ST, colours=6, engine=engine
        )


@pytest.mark.parametrize("engine", ENGINES)
def test_the_same_card_three_times_is_refused(engine: Engine) -> None:
    with pytest.raises(
        InvalidQuestionError, match=r"card \(0, 7\) is twice on the claimant's side"
    ):
        decide_claim([(0, 7), (0, 7), (0, 7)], [], pool((0, 7)), ST, colours=6, engine=engine)
    with pytest.raises(
        InvalidQuestionError, match=r"card \(0, 7\) is on the opponent's side and on the claimant's"
    ):
        decide_claim(CLAIMANT, [(0, 7)], pool(*CLAIMANT), ST, colours=6, engine=engine)
    with pytest.raises(
        InvalidQuestionError, match=r"card \(0, 7\) is on the table and in the pool at once"
    ):
        decide_claim(CLAIMANT, [], pool(), ST, colours=6, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("colours", [0, -3, MAX_COLOURS + 1, 10**6, True, 6.0])
def test_a_number_of_colours_outside_1_to_64_is_refused(engine: Engine, colours: object) -> None:
    # colours=0 used to be "claimable" (exact) and a KeyError (CP-SAT); 10**6 exhausted memory
    with pytest.raises(
        InvalidQuestionError, match=f"colours must be a whole number from 1 to 64, not {colours!r}"
    ):
        decide_claim(CLAIMANT, [], [], ST, colours=colours, engine=engine)  # type: ignore[arg-type]
    with pytest.raises(InvalidQuestionError, match="colours must be"):
        best_reachable([], [], ST, colours=colours, engine=engine)  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", ENGINES)
def test_an_empty_wildcard_is_refused(engine: Engine) -> None:
    # built directly, bypassing Wildcard.any_of: it used to fail inside max()
    empty = Wildcard(frozenset(), "joker")
    with pytest.raises(
        InvalidQuestionError, match="wildcard 'joker' of the opponent has no value it may take"
    ):
        decide_claim(CLAIMANT, [empty], pool(*CLAIMANT), ST, colours=6, engine=engine)
    with pytest.raises(InvalidQuestionError, match="wildcard 'joker' of the claimant has no value"):
        decide_claim(
            [(0, 7), (0, 8), empty], [], pool((0, 7), (0, 8)), ST, colours=6, engine=engine
        )


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("bad", [(1,), (1, 2, 3), ("R", 7), (1.0, 7), (True, 7), [1, 7]])
def test_a_card_that_is_not_a_pair_of_whole_numbers_is_refused(engine: Engine, bad: object) -> None:
    with pytest.raises(InvalidQuestionError, match="expected a card as a"):
        decide_claim(CLAIMANT, [bad], pool(*CLAIMANT), ST, colours=6, engine=engine)  # type: ignore[list-item]
    with pytest.raises(InvalidQuestionError, match="expected pool cards as"):
        Pool([bad])  # type: ignore[list-item]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_well_formed_question_is_still_answered(engine: Engine) -> None:
    shared = Pool(pool(*CLAIMANT))
    assert decide_claim(
        CLAIMANT, [(1, 9)], [c for c in shared.cards if c != (1, 9)], ST, colours=6, engine=engine
    ).holds
    # a shared pool checked once answers again, and is checked again for other colours
    assert best_reachable([], shared, ST, colours=6, engine=engine) is not None
    with pytest.raises(InvalidQuestionError, match="has colour 5, but colours=5"):
        best_reachable([], shared, ST, colours=5, engine=engine)
