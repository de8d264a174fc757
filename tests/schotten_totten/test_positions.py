"""Loaded positions are checked like python-chess's ``status()``: every problem at once.

``State.status()`` is sound (no position a legal game passes through is
refused: every ply of random games of every variant is written, loaded back
equal and found well formed) and refuses what no game can reach, each with its
own message (the completeness tests below).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.game import Outcome
from referee.records import Position, RecordError
from referee.schotten_totten import Phase, Rules, State, Stone, new_game
from referee.schotten_totten.moves import (
    Banshee,
    Claim,
    Draw,
    EndTurn,
    Move,
    Pass,
    PlayCard,
    PutBack,
    Recruit,
    Strategist,
    Traitor,
)
from referee.schotten_totten.record import FORMAT
from referee.schotten_totten.tactics import Tactic

from .helpers import cards

EMPTY = {"sides": [[], []]}
TACTICS = {"variants": ["tactics"]}
VARIANTS = [
    Rules(),
    Rules(edition="1999"),
    Rules(early_bird=True),
    Rules(tactics=True),
    Rules(tactics=True, early_bird=True),
]


def stones(**placed: dict[str, Any]) -> list[dict[str, Any]]:
    """Nine stones; ``s3={...}`` replaces stone 3."""
    return [placed.get(f"s{n}", EMPTY) for n in range(1, 10)]


def load(data: dict[str, Any], rules: dict[str, Any] | None = None) -> State:
    return FORMAT.load_position(Position("schotten-totten", data, rules or {}, "p.json"))


def problems_of(data: dict[str, Any], rules: dict[str, Any] | None = None) -> str:
    with pytest.raises(RecordError) as error:
        load(data, rules)
    assert "impossible position" in str(error.value)
    return str(error.value)


def won(colour: str, owner: int = 0, theirs: str = "") -> dict[str, Any]:
    mine = [f"{colour}7", f"{colour}8", f"{colour}9"]
    other = theirs.split()
    sides = [mine, other] if owner == 0 else [other, mine]
    # a colour run 7-8-9 cannot be beaten by anything
    return {"sides": sides, "owner": owner}


def laid(mine: str, theirs: str) -> dict[str, Any]:
    return {"sides": [mine.split(), theirs.split()]}


def three_won(extra: str = "") -> list[dict[str, Any]]:
    """Player 1 holds stones 1-3 (nine cards); player 2 has laid eight (and ``extra``)."""
    return stones(
        s1=won("R"),
        s2=won("O"),
        s3=won("Y"),
        s4=laid("", "R1 O1"),
        s5=laid("", "R2 O2"),
        s6=laid("", "R3 O3"),
        s7=laid("", "R4 O4"),
        s8=laid("", extra),
    )


def crowded() -> list[dict[str, Any]]:
    """24 cards a side on stones 1-8 (each completed first by player 1), 6 unseen."""
    mine = [f"{c}{n}" for c in "RO" for n in range(1, 10)] + [f"Y{n}" for n in range(1, 7)]
    theirs = [f"{c}{n}" for c in "GB" for n in range(1, 10)] + [f"P{n}" for n in range(1, 7)]
    table = [
        {"sides": [mine[3 * n : 3 * n + 3], theirs[3 * n : 3 * n + 3]], "first": 0}
        for n in range(8)
    ]
    return [*table, EMPTY]


# --- what can be derived is derived ----------------------------------------------------------


def test_the_outcome_is_derived_from_the_stones() -> None:
    state = load({"stones": three_won()})
    assert state.outcome == Outcome("three_adjacent", 0) and state.is_game_over()
    # the game ended at player 1's claim, right after its card (2024)
    assert (state.to_move, state.phase, state.blank_turns) == (0, Phase.AFTER_PLAY, -1)
    assert state.hand_sizes == (5, 6) and state.legal_moves() == []
    # player 2 holds five stones (15 cards), player 1 has laid 14
    five = load(
        {
            "stones": stones(
                **{
                    f"s{n}": won(colour, 1, f"G{n}")
                    for n, colour in zip((1, 3, 5, 7, 9), "ROYBP", strict=True)
                },
                s2=laid("R1 R2 O3", ""),
                s4=laid("R3 R4", ""),
                s6=laid("R5 R6", ""),
                s8=laid("O1 O2", ""),
            ),
        }
    )
    assert (five.to_move, five.phase) == (1, Phase.AFTER_PLAY)
    assert five.outcome == Outcome("five_stones", 1)
    # with Der frühe Vogel claims come first: the won position is at the start of the turn
    bird = load({"stones": three_won("P1")}, {"variants": ["early-bird"]})
    assert (bird.phase, bird.hand_sizes, bird.outcome) == (Phase.PLAY, (6, 6), state.outcome)
    assert load({"stones": stones(s1=won("R", 0, "G1 G2")), "to_move": 1}).outcome is None


def test_hand_sizes_are_derived_while_the_piles_have_cards() -> None:
    state = load({"stones": stones(s1=laid("R1", "")), "to_move": 1})
    assert state.hand_sizes == (6, 6) and state.deck_size == 41
    mid_turn = load({"stones": stones(s1=laid("R1", "")), "phase": "after_play"})
    assert mid_turn.hand_sizes == (5, 6)
    # once the piles may have run out the hands may be short: say how many
    with pytest.raises(RecordError, match="say how many cards each hand holds") as asked:
        load({"stones": crowded()})
    assert asked.value.field == "hand_sizes"
    assert load({"stones": crowded(), "hand_sizes": [3, 3]}).deck_size == 0


# --- every problem at once --------------------------------------------------------------------


def test_every_problem_is_reported_at_once() -> None:
    data = {
        "stones": stones(
            s1=won("R"),
            s2=won("O"),
            s3=won("Y"),
            s5=won("G", 1),
            s6=won("B", 1),
            s7=won("P", 1),
            s8={"sides": [["R1"], ["O1"]], "owner": 1},
            s9={"sides": [["R1", "R2", "R3"], []], "owner": 0},
        ),
        "hand_sizes": [3, 3],
    }
    message = problems_of(data)
    for problem in (
        "card R1 is used 2 times",
        "stone 8: player 2 holds it without a complete formation",
        "stone 9: player 1's claim cannot be proven from this table",
    ):
        assert problem in message
    both = problems_of(
        {
            "stones": stones(
                s1=won("R"),
                s2=won("O"),
                s3=won("Y"),
                s5=won("G", 1),
                s6=won("B", 1),
                s7=won("P", 1),
            )
        }
    )
    assert "both players hold three adjacent or five stones" in both


def test_tactic_counts_must_agree_with_the_table() -> None:
    spied = stones(s1={"sides": [["spy"], ["joker"]]}, s2={"sides": [[], []], "style": "mud_fight"})
    message = problems_of({"stones": spied, "tactics_played": [0, 0]}, TACTICS)
    assert "tactics played [0, 0] but 3 tactic cards are on the table" in message
    assert "player 1 has 1 tactic cards on its side but played 0" in message
    assert "one player is two ahead" in problems_of(
        {"stones": spied, "tactics_played": [0, 3]}, TACTICS
    )
    state = load({"stones": spied, "tactics_played": [1, 2]}, TACTICS)
    assert state.tactics_played == (1, 2)
    # jokers played are derived: player 2's joker lies on its side
    assert state.jokers_played == (False, True)
    assert state.status() == ()


def test_jokers_played_is_derived_or_must_be_given() -> None:
    # the banshee discarded a joker: whose joker, the table does not say
    thrown = {"stones": stones(), "discards": ["banshee", "joker"], "tactics_played": [1, 1]}
    with pytest.raises(RecordError, match="say who has played a joker"):
        load(thrown, TACTICS)
    state = load({**thrown, "jokers_played": [True, False]}, TACTICS)
    assert state.jokers_played == (True, False)
    # the second joker can then never be played by that player
    both = {
        "stones": stones(),
        "discards": ["banshee", "joker", "strategist", "joker"],
        "tactics_played": [2, 2],
    }
    assert load(both, TACTICS).jokers_played == (True, True)
    with pytest.raises(RecordError, match="jokers lie on the table"):
        load({**thrown, "jokers_played": [False, False]}, TACTICS)


def test_hand_sizes_and_a_tactic_free_table_are_checked() -> None:
    assert "a hand holds at most 6" in problems_of({"stones": stones(), "hand_sizes": [7, 6]})
    with pytest.raises(RecordError, match="combat style"):
        load({"stones": stones(s1={"sides": [[], []], "style": "mud_fight"})})


# --- completeness: what no game reaches is refused, each with its message --------------------


def test_short_hands_while_the_piles_have_cards_are_refused() -> None:
    # The audit's case: a hand of 3 with 43 cards still to draw.
    message = problems_of({"stones": stones(), "hand_sizes": [3, 6]})
    assert (
        "player 1 holds 3 cards but 45 cards are still to draw: a hand is refilled to 6 "
        "after every card played while a pile has cards"
    ) in message
    # mid-turn the mover holds one card fewer, never more
    assert "a hand holds at most 5 here" in problems_of(
        {"stones": stones(s1=laid("R1", "")), "phase": "after_play", "hand_sizes": [6, 6]}
    )


def test_cards_laid_must_agree_with_alternating_turns() -> None:
    # The audit's case: nine cards against none, every stone open, both hands full.
    nine = stones(**{f"s{n}": laid(f"R{n}", "") for n in range(1, 10)})
    message = problems_of({"stones": nine})
    assert "turns alternate, but player 1 (to move) has played 9 cards and player 2 0" in message
    assert (
        "player 2 never passed: it can lay a clan card now, and without tactic cards a "
        "player who once could not never can again"
    ) in message
    # two cards ahead is too many, one is fine for the player not to move
    assert "turns alternate" in problems_of({"stones": stones(s1=laid("R1 R2", "")), "to_move": 1})
    assert load({"stones": stones(s1=laid("R1", "")), "to_move": 1}).status() == ()
    # a player to move who has laid more than the other never moved first twice
    assert "turns alternate" in problems_of({"stones": stones(s1=laid("R1", ""))})


def test_a_player_who_passed_cannot_lay_a_card() -> None:
    message = problems_of(
        {"stones": stones(s1=laid("R1", "O1")), "to_move": 1, "phase": "after_pass"}
    )
    assert "player 2 has passed this turn, but it can lay a clan card" in message
    last = problems_of({"stones": stones(s1=laid("R1", "")), "to_move": 1, "blank_turns": 1})
    assert "blank_turns 1 says player 1 passed last turn, but it can lay a clan card" in last


def test_a_won_game_ends_at_the_winners_claim() -> None:
    message = problems_of({"stones": three_won(), "to_move": 1})
    assert "player 1 has won (three_adjacent) by claiming in its own turn" in message
    early = problems_of({"stones": three_won(), "phase": "play", "blank_turns": -1})
    assert "no stone is claimed in the play phase" in early
    assert "so blank_turns is -1, not 0" in problems_of({"stones": three_won(), "blank_turns": 0})


def test_a_blocked_game_needs_two_blank_turns_and_nothing_left_to_do() -> None:
    message = problems_of({"stones": stones(s1=laid("R1", "O1")), "blank_turns": 2})
    assert "the game is blocked, but player 1 can lay a clan card" in message
    assert "blank_turns 2 and the outcome" not in message  # derived: the game is over


def test_recruiter_phases_and_the_cards_under_the_piles() -> None:
    message = problems_of(
        {"stones": stones(), "phase": "recruit_return", "hand_sizes": [9, 7]}, TACTICS
    )
    assert "the recruit_return phase comes right after the recruiter" in message
    under = problems_of(
        {"stones": stones(), "under_piles": [[0, 1], [1]], "tactics_played": [0, 0]}, TACTICS
    )
    assert "the one recruiter puts back two, once" in under
    alone = problems_of({"stones": stones(), "under_piles": [[0], []]}, TACTICS)
    assert "player 1 put cards under the piles but has not played the recruiter" in alone


def test_only_the_banshee_and_the_strategist_discard_a_card() -> None:
    message = problems_of(
        {"stones": stones(), "discards": ["R1"], "to_move": 1, "tactics_played": [0, 0]}, TACTICS
    )
    assert "R1 lie on the discard pile, but only the banshee and the strategist" in message
    banished = problems_of(
        {"stones": stones(), "discards": ["banshee"], "tactics_played": [0, 1]}, TACTICS
    )
    assert "the banshee has been played, but no card it discarded lies on the pile" in banished


def test_after_the_piles_ran_out_the_plays_since_alternate() -> None:
    # 24 cards a side, 6 unseen: the piles are empty. Hands of 6 and 0 would
    # mean that player 2 laid six cards since the last draw while player 1,
    # who can still lay one at stone 9, laid none.
    message = problems_of({"stones": crowded(), "hand_sizes": [6, 0]})
    assert (
        "turns alternate, but player 1 (to move) has played since the piles ran out 0 cards "
        "and player 2 6"
    ) in message
    assert load({"stones": crowded(), "hand_sizes": [3, 3]}).status() == ()


# --- round trips and legal moves on loaded positions ------------------------------------------


def _order(done: tuple[int | None, ...]) -> tuple[int | None, ...]:
    known = sorted(d for d in done if d is not None)
    return tuple(None if d is None else known.index(d) for d in done)


def normal(state: State) -> State:
    """``state`` without what a position does not carry: its ply, and its
    completion times beyond which side completed first."""
    return replace(
        state,
        ply=0,
        stones=tuple(replace(s, completed=_order(s.completed)) for s in state.stones),
    )


def _pick(legal: list[Move], rng: random.Random, style: str) -> Move:
    """A move at random: uniformly, or a staller's (passing and ending turns,
    never claiming: blocked games), or a tactician's (ruses and tactic draws)."""
    if style == "stall":
        for kind in (Pass, EndTurn):
            options = [m for m in legal if isinstance(m, kind)]
            if options:
                return rng.choice(options)
        return rng.choice([m for m in legal if not isinstance(m, Claim)] or legal)
    if style == "tactics":
        ruses = (Recruit, PutBack, Strategist, Banshee, Traitor)
        options = [
            m
            for m in legal
            if isinstance(m, ruses) or (isinstance(m, PlayCard) and isinstance(m.card, Tactic))
        ]
        options = options or [m for m in legal if isinstance(m, Draw) and m.pile == "tactic"]
        if options and rng.random() < 0.7:
            return rng.choice(options)
    return rng.choice(legal)


def random_game(rules: Rules, seed: int, style: str, limit: int = 1500) -> list[State]:
    """Every state of a random legal game, from the deal to its end."""
    rng = random.Random(seed)
    state = new_game(seed=seed, rules=rules, first=seed % 2)
    states = [state]
    while state.outcome is None and len(states) < limit:
        state = state.play(_pick(list(state.legal_moves()), rng, style))
        states.append(state)
    return states


@settings(max_examples=40, deadline=None)
@given(
    rules=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32 - 1),
    style=st.sampled_from(["uniform", "stall", "tactics"]),
)
def test_every_position_of_a_legal_game_loads_back_equal(
    rules: Rules, seed: int, style: str
) -> None:
    for state in random_game(rules, seed, style):
        assert state.status() == ()
        loaded = FORMAT.load_position(FORMAT.position_of(state))
        assert loaded.status() == ()
        # equal to what a spectator sees (hands and piles hidden), ply aside
        assert normal(loaded) == normal(state.view(None))


def test_positions_between_the_recruiters_draws_and_returns_load_back() -> None:
    seen = 0
    for seed in range(200):
        for state in random_game(Rules(tactics=True), seed, "tactics"):
            if state.phase is Phase.RECRUIT_RETURN:
                assert state.hand_sizes[state.to_move] > 7
                loaded = FORMAT.load_position(FORMAT.position_of(state))
                assert normal(loaded) == normal(state.view(None))
                seen += 1
        if seen >= 10:
            break
    assert seen >= 10


@settings(max_examples=12, deadline=None)
@given(rules=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_every_move_listed_on_a_loaded_position_plays(rules: Rules, seed: int) -> None:
    for state in random_game(rules, seed, "tactics" if rules.tactics else "uniform", 300):
        loaded = FORMAT.load_position(FORMAT.position_of(state))
        for move in loaded.legal_moves():
            loaded.play(move)  # raises if refused


# --- the command line -------------------------------------------------------------------------


def test_show_and_claimable_report_an_impossible_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "impossible.json"
    data = {
        "format": "referee-position/1",
        "game": "schotten-totten",
        "stones": stones(s8={"sides": [["R1"], ["O1"]], "owner": 1}, s9={"sides": [["R1"], []]}),
    }
    path.write_text(json.dumps(data))
    for command in ("show", "claimable"):
        assert main([command, str(path)]) == 2
        _, err = capsys.readouterr()
        assert "Traceback" not in err
        assert "impossible position" in err and "card R1 is used 2 times" in err
        assert "stone 8: player 2 holds it without a complete formation" in err


def test_show_reports_a_won_position_as_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "won.json"
    data = {"format": "referee-position/1", "game": "schotten-totten", "stones": three_won()}
    path.write_text(json.dumps(data))
    assert main(["show", str(path)]) == 0
    out, _ = capsys.readouterr()
    assert "game over: player 1 wins (three_adjacent)" in out


def test_an_unknown_field_is_refused() -> None:
    # Found by a newcomer's review: {"claimed": 5} (meant as "owner") was ignored.
    from referee.records import json_schema, parse_position

    rows: list[dict[str, object]] = [{"sides": [[], []]} for _ in range(9)]
    rows[4] = {"sides": [[], []], "claimed": 5}
    data = {"game": "schotten-totten", "stones": rows}
    with pytest.raises(RecordError, match="unknown field") as refused:
        FORMAT.load_position(parse_position(data, "p.json"))
    assert refused.value.field == "stones[4].claimed"
    with pytest.raises(RecordError, match="unknown field") as top:
        load({"stones": stones(), "hands": [[], []]})
    assert top.value.field == "hands"
    jsonschema = pytest.importorskip("jsonschema")
    assert not jsonschema.Draft202012Validator(json_schema("position")).is_valid(data)


def test_a_state_built_in_code_is_checked_too() -> None:
    done = Stone((cards("R1 R2 R3"), ()), (None, None))
    problems = State(
        stones=(done, *[Stone()] * 8),
        hands=(None, None),
        hand_sizes=(6, 6),
        deck=None,
        deck_size=45,
    ).status()
    assert "stone 1: player 1's side is complete but its completion time is None" in problems
    assert any(
        p.startswith("the clan cards do not add up: 54 in the game, 3 on the table")
        for p in problems
    )
