"""``legal_moves`` against its plain definition, at every ply of random games.

``legal_moves`` reads the integer board (each card's fitting seats as a bit
mask) and makes a move only when one is asked for; here its answer is compared
with the definition: every placement of a card in hand on a free seat, face up
or down, with or without a shield, that ``play`` accepts, in hand order, then
layout order. The mover's view lists the same moves, and so does a table with a
card turned face down; the legal action ids are the same moves again.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.clans_and_glory import Placement, State, new_game
from referee.clans_and_glory.actions import action_space


def reference_moves(state: State) -> list[Placement]:
    if state.is_game_over():
        return []
    return [
        Placement(card, seat, face_down=down, shield=shield)
        for card in state.hands[state.to_move]
        for seat in state.free_seats()
        for down in (False, True)
        for shield in (False, True)
        if state.is_legal(Placement(card, seat, face_down=down, shield=shield))
    ]


def with_a_card_turned_down(state: State, rng: random.Random) -> State:
    """``state`` with one card on the table face down (face-down cards are rare in
    random games: they are played only when nothing fits)."""
    placed = [i for i, p in enumerate(state.table) if p is not None]
    at = rng.choice(placed)
    table = list(state.table)
    card = table[at]
    assert card is not None
    table[at] = dataclasses.replace(card, face_up=False)
    return state.replace(table=tuple(table))


def play_out(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(players=players, seed=seed)
    while True:
        legal = state.legal_moves()
        assert legal == reference_moves(state)
        assert len(legal) == len(list(legal)) and all(legal[i] == m for i, m in enumerate(legal))
        space = action_space(state)
        assert [space.move_of(a) for a in space.legal_actions(state)] == legal
        turned = with_a_card_turned_down(state, rng)
        assert turned.legal_moves() == reference_moves(turned)
        for viewer in range(players):
            seen = state.view(viewer).legal_moves()
            assert seen == (legal if viewer == state.to_move else [])
        if state.is_game_over():
            return
        state = state.play(rng.choice(legal))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1))
def test_legal_moves_match_the_definition_at_every_ply(players: int, seed: int) -> None:
    play_out(players, seed)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1))
def test_a_dealt_game_is_what_the_checked_constructor_builds(players: int, seed: int) -> None:
    # new_game builds its state without the constructor's checks: it must pass them.
    game = new_game(players=players, seed=seed)
    built = State(
        num_players=players,
        layout=game.layout,
        table=game.table,
        hands=game.hands,
        shields=game.shields,
        to_move=game.to_move,
        removed=game.removed,
        deal=game.deal,
    )
    assert built == game and built.board == game.board
    assert game.status() == ()
