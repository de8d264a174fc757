"""Malformed deal problems: every shape raises DealProblemError quoting the bad input.

Before, ``solve`` raised ``AttributeError`` or ``IndexError`` on such problems,
or answered them: player -1 was read as the last player. Nothing here is a
question about deals; each is refused before the solver starts.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.deals import (
    DealProblem,
    DealProblemError,
    Draw,
    Insert,
    Lacks,
    PutBack,
    Receive,
    Spend,
    solve,
)

PILES = {"a": ("a1", "a2", "a3"), "b": ("b1",)}
START = (Draw(0, 0, "a"), Draw(0, 1, "a"))


def _refused(problem: object, message: str) -> None:
    with pytest.raises(DealProblemError, match=message):
        solve(problem)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("problem", "message"),
    [
        (None, "expected a DealProblem, not None"),
        ({"piles": PILES}, r"expected a DealProblem, not \{'piles'"),
        (DealProblem(PILES, START, 0), "players must be a whole number >= 1, not 0"),
        (DealProblem(PILES, START, -2), "players must be a whole number >= 1, not -2"),
        (DealProblem(PILES, START, True), "players must be a whole number >= 1, not True"),
        (DealProblem(PILES, START, "2"), "players must be a whole number >= 1, not '2'"),  # type: ignore[arg-type]
        (DealProblem([("a", ("a1",))], START), r"piles must map pile names to cards, not \["),  # type: ignore[arg-type]
        (DealProblem({1: ("a1",)}, ()), "pile name 1 is not a non-empty string"),  # type: ignore[dict-item]
        (DealProblem({"": ("a1",)}, ()), "pile name '' is not a non-empty string"),
        (
            DealProblem({"a": "a1a2"}, ()),  # type: ignore[dict-item]
            "pile 'a': expected a collection of card names, not 'a1a2'",
        ),
        (DealProblem({"a": {"a1"}}, ()), r"pile 'a': expected a tuple of card names, not \{'a1'\}"),  # type: ignore[dict-item]
        (DealProblem({"a": ("a1", 7)}, ()), "pile 'a': card 7 is not a non-empty string"),  # type: ignore[dict-item]
        (DealProblem({"a": ("x",), "b": ("x",)}, ()), "card 'x' is in two piles: 'a' and 'b'"),
        (DealProblem(PILES, "events"), "events must be a tuple of events, not 'events'"),  # type: ignore[arg-type]
        (DealProblem(PILES, None), "events must be a tuple of events, not None"),  # type: ignore[arg-type]
    ],
    ids=lambda value: str(value)[:40] if isinstance(value, str) else None,
)
def test_a_malformed_problem_is_refused(problem: object, message: str) -> None:
    _refused(problem, message)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ("draw", "event 2: expected a Draw, Spend, PutBack, Receive, Insert or Lacks, not 'draw'"),
        (Draw(-1, 0, "a"), r"event 2 Draw\(ply=-1.*: ply must be a whole number >= 0, not -1"),
        (Draw(True, 0, "a"), r"ply must be a whole number >= 0, not True"),
        (Draw(1.0, 0, "a"), r"ply must be a whole number >= 0, not 1.0"),  # type: ignore[arg-type]
        # player -1 was read as the last player
        (
            Draw(1, -1, "a"),
            r"event 2 Draw\(ply=1, player=-1, pile='a'\): player -1 is not one "
            r"of the 2 players \(0-1\)",
        ),
        (Spend(1, 2, "a1"), "player 2 is not one of the 2 players"),
        (Receive(1, True, "a1"), "player True is not one of the 2 players"),
        (Lacks(1, None, frozenset()), "player None is not one of the 2 players"),  # type: ignore[arg-type]
        (PutBack(1, "0", "a"), "player '0' is not one of the 2 players"),  # type: ignore[arg-type]
        (Draw(1, 0, "c"), r"unknown pile 'c' \(piles: 'a', 'b'\)"),
        (PutBack(1, 0, "c"), "unknown pile 'c'"),
        (Insert(1, "c", ("a1",)), "unknown pile 'c'"),
        (Draw(1, 0, ["a"]), r"unknown pile \['a'\]"),  # type: ignore[arg-type]
        (Spend(1, 0, None), "card None is not a non-empty string"),  # type: ignore[arg-type]
        (Spend(1, 0, ""), "card '' is not a non-empty string"),
        (Receive(1, 0, "zz"), "'zz' is a card of no pile"),
        (PutBack(1, 0, "a", "b1"), "'b1' is not a card of the 'a' pile"),
        (PutBack(1, 0, "a", "zz"), "'zz' is not a card of the 'a' pile"),
        (PutBack(1, 0, "a", None, "a1"), "excluded: expected a collection of card names, not 'a1'"),  # type: ignore[arg-type]
        (PutBack(1, 0, "a", None, (3,)), "excluded: card 3 is not a non-empty string"),  # type: ignore[arg-type]
        (Insert(1, "a", ()), r"expected a non-empty tuple of cards, not \(\)"),
        (Insert(1, "a", {"a1"}), r"expected a tuple of cards, not \{'a1'\}"),  # type: ignore[arg-type]
        (Insert(1, "a", "a1"), "cards: expected a collection of card names, not 'a1'"),  # type: ignore[arg-type]
        (Insert(1, "a", ("b1",)), "'b1' is not a card of the 'a' pile"),
        (
            Insert(1, "a", ("a1",), (0,)),
            r"insert places \(0,\) do not fit 1 cards into a pile of 2",
        ),
        (
            Insert(1, "a", ("a1",), (3,)),
            r"insert places \(3,\) do not fit 1 cards into a pile of 2",
        ),
        (Insert(1, "a", ("a1", "a2"), (1, 1)), r"insert places \(1, 1\) do not fit 2 cards"),
        (Insert(1, "a", ("a1", "a2"), (1,)), r"insert places \(1,\) do not fit 2 cards"),
        (Insert(1, "a", ("a1",), (True,)), r"insert places \(True,\) do not fit"),
        (Insert(1, "a", ("a1",), 1), "insert places 1 do not fit"),  # type: ignore[arg-type]
        (Lacks(1, 0, "a1"), "cards: expected a collection of card names, not 'a1'"),  # type: ignore[arg-type]
        (Lacks(1, 0, frozenset({"a1"}), None), "doing must be a string, not None"),  # type: ignore[arg-type]
    ],
    ids=repr,
)
def test_a_malformed_event_is_refused(event: Any, message: str) -> None:
    _refused(DealProblem(PILES, (*START, event)), message)


def test_plies_must_not_go_back() -> None:
    _refused(
        DealProblem(PILES, (*START, Draw(3, 0, "a"), Spend(2, 0, "a1"))),
        r"event 3 Spend\(ply=2, player=0, card='a1'\): ply 2 comes after ply 3",
    )


def test_an_insert_place_counts_the_cards_drawn_and_put_back_before() -> None:
    # three cards, two drawn, one put back: an insert of one card makes a pile of 3
    events = (*START, PutBack(1, 0, "a", "a1"), Insert(2, "a", ("a2",), (3,)))
    assert solve(DealProblem(PILES, events)).fits  # place 3 of 3: fine
    _refused(
        DealProblem(PILES, (*START, PutBack(1, 0, "a", "a1"), Insert(2, "a", ("a2",), (4,)))),
        r"insert places \(4,\) do not fit 1 cards into a pile of 3",
    )


def test_lists_and_sets_are_read_as_tuples() -> None:
    # a problem written with lists (as JSON gives them) is the same problem
    as_lists = DealProblem(
        {"a": ["a1", "a2"]},  # type: ignore[dict-item]
        [Draw(0, 0, "a"), Lacks(1, 0, {"a2"}), Spend(1, 0, "a1")],  # type: ignore[arg-type]
    )
    as_tuples = DealProblem(
        {"a": ("a1", "a2")}, (Draw(0, 0, "a"), Lacks(1, 0, frozenset({"a2"})), Spend(1, 0, "a1"))
    )
    assert solve(as_lists) == solve(as_tuples)
    assert solve(as_tuples).deal == {"a": ("a1", "a2")}


def test_a_card_that_is_in_no_pile_is_a_question_when_played() -> None:
    # playing an unknown card is a move no deal fits, not a malformed problem
    answer = solve(DealProblem(PILES, (*START, Spend(1, 0, "zz"))))
    assert (answer.fits, answer.ply, answer.reason) == (False, 1, "card_never_held")
    assert answer.message == "no deal fits: zz is not in the game"


def test_drawing_from_an_empty_pile_is_a_question() -> None:
    answer = solve(DealProblem({"b": ("b1",)}, (Draw(0, 0, "b"), Draw(1, 1, "b"))))
    assert (answer.fits, answer.ply, answer.message) == (
        False,
        1,
        "no deal fits: the b pile is empty",
    )
