"""``playout`` against the referee: move for move, outcome for outcome, and a
golden digest of seeded playouts so that speed work cannot change games silently.

After a deliberate change of the rules, write the digests again with::

    python -m tests.clans_and_glory.test_playout
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.actions import legal_actions
from referee.clans_and_glory import State, new_game, playout
from referee.clans_and_glory.actions import action_space
from referee.clans_and_glory.determinize import determinize
from referee.clans_and_glory.rules import Board
from referee.clans_and_glory.scoring import final_outcome
from tests.clans_and_glory.sampled import positions

GOLDEN = Path(__file__).with_name("golden_playouts.json")
#: Seeded playouts per player count in the golden digest.
GAMES = 20


def replayed(state: State, trace: Sequence[int]) -> State:
    """``state`` after the traced action ids, each played through the referee."""
    space = action_space(state)
    for action in trace:
        move = space.move_of(action)
        assert state.is_legal(move), f"playout played {move}, which the referee refuses"
        state = state.play(move)
    return state


def uniform(board: Board, legal: Sequence[int], rng: random.Random) -> int:
    return rng.choice(legal)


@settings(max_examples=40, deadline=None)
@given(game=positions, seed=st.integers(0, 2**32))
def test_a_playout_is_a_legal_game_move_for_move(game: State, seed: int) -> None:
    before = game.board
    trace: list[int] = []
    outcome = playout(game, random.Random(seed), trace=trace)
    assert game.board is before  # the state is not changed
    final = replayed(game, trace)
    assert final.outcome == outcome and final.is_game_over()
    # the same seed plays the same game
    again: list[int] = []
    assert playout(game, random.Random(seed), trace=again) == outcome and again == trace


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_default_playout_is_the_referees_game_of_random_choice(players: int) -> None:
    # rng.choice(state.legal_moves()) through State.play, seed for seed
    for seed in range(12):
        state, rng = new_game(players=players, seed=seed), random.Random(seed)
        played = []
        while not state.is_game_over():
            move = rng.choice(state.legal_moves())
            played.append(move)
            state = state.play(move)
        trace: list[int] = []
        outcome = playout(new_game(players=players, seed=seed), random.Random(seed), trace=trace)
        assert [action_space(state).move_of(a) for a in trace] == played
        assert outcome == state.outcome


@settings(max_examples=30, deadline=None)
@given(game=positions, seed=st.integers(0, 2**32))
def test_the_default_policy_is_a_uniform_choice_of_the_legal_ids(game: State, seed: int) -> None:
    default: list[int] = []
    chosen: list[int] = []
    one = playout(game, random.Random(seed), trace=default)
    two = playout(game, random.Random(seed), uniform, trace=chosen)
    assert one == two and default == chosen


@settings(max_examples=30, deadline=None)
@given(game=positions, seed=st.integers(0, 2**32))
def test_a_policy_gets_exactly_the_legal_ids_of_the_action_space(game: State, seed: int) -> None:
    space = action_space(game)
    seen: list[tuple[Board, list[int]]] = []

    def last(board: Board, legal: Sequence[int], rng: random.Random) -> int:
        seen.append((board, list(legal)))
        return legal[-1]

    trace: list[int] = []
    playout(game, random.Random(seed), last, trace=trace)
    state = game
    for (board, legal), action in zip(seen, trace, strict=True):
        assert board == state.board
        assert legal == legal_actions(space, state) == sorted(legal)
        assert [space.move_of(a) for a in legal] == state.legal_moves()
        state = state.play(space.move_of(action))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_policy_that_chooses_an_illegal_id_is_refused(players: int) -> None:
    game = new_game(players=players, seed=3)
    legal = legal_actions(action_space(game), game)
    illegal = next(a for a in range(action_space(game).num_actions) if a not in legal)
    for bad, words in (
        (illegal, f"chose action {illegal} "),
        (-1, "not an action id"),
        (True, "not an action id"),
        ("0", "not an action id"),
    ):
        with pytest.raises(ValueError, match=words):
            playout(game, random.Random(0), lambda board, ids, rng, bad=bad: bad)


def test_the_illegal_id_is_named_with_the_broken_rule() -> None:
    game = new_game(players=2, seed=1)
    space = action_space(game)
    down = space.action_of(game.parse_move("R3@t2s1+down"))
    with pytest.raises(ValueError, match="a card goes face down only when none fits"):
        playout(game, random.Random(0), lambda board, ids, rng: down)


def test_a_view_is_determinized_first() -> None:
    game = new_game(players=4, seed=5)
    with pytest.raises(ValueError, match="determinize"):
        playout(game.view(1), random.Random(0))
    full = determinize(game.view(1), random.Random(0))
    trace: list[int] = []
    outcome = playout(full, random.Random(0), trace=trace)
    assert replayed(full, trace).outcome == outcome


@settings(max_examples=60, deadline=None)
@given(game=positions)
def test_the_integer_score_is_the_score_sheets(game: State) -> None:
    board, layout = game.board, game.layout
    outcome = final_outcome(
        game.num_players, board.seat_cards, board.face_up, board.shields, layout.tableau_masks
    )
    assert outcome == game.score().outcome()
    assert outcome.winners == game.score().winners


# -- the golden digest ----------------------------------------------------------------------


def digest(players: int) -> dict[str, Any]:
    """The digest of ``GAMES`` seeded playouts (seed ``s`` deals the game and plays it)."""
    hashed = hashlib.sha256()
    plies = 0
    for seed in range(GAMES):
        trace: list[int] = []
        outcome = playout(new_game(players=players, seed=seed), random.Random(seed), trace=trace)
        hashed.update(json.dumps([seed, trace, repr(outcome), outcome.winners]).encode())
        plies += len(trace)
    return {"digest": hashed.hexdigest(), "plies": plies}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_golden_playouts_are_played_again_move_for_move(players: int) -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert digest(players) == golden[f"{players} players"], (
        f"{players} players: the seeded playouts changed; if the rules changed on purpose, "
        "write the file again (see this module's docstring)"
    )


if __name__ == "__main__":  # pragma: no cover - writes the golden file
    GOLDEN.write_text(
        json.dumps({f"{n} players": digest(n) for n in (2, 3, 4)}, indent=2) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {GOLDEN}", file=sys.stderr)
