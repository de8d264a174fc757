"""``legal_moves`` against its plain definition, at every ply of random games.

``legal_moves`` reads the table through ready-made values (each move built
once, the layout's seats kept as indices); here its answer is compared with the
definition: every placement of a card in hand on a free seat, face up or down,
with or without a shield, that ``play`` accepts, in hand order, then layout
order. The mover's view lists the same moves, and so does a table with a card
turned face down.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import referee.clans_and_glory.state as state_module
from referee.clans_and_glory import Placement, State, new_game


def reference_moves(state: State) -> list[Placement]:
    if state.is_over:
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
    return dataclasses.replace(state, table=tuple(table))


def play_out(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(players, seed=seed)
    while True:
        legal = state.legal_moves()
        assert legal == reference_moves(state)
        turned = with_a_card_turned_down(state, rng)
        assert turned.legal_moves() == reference_moves(turned)
        for viewer in range(players):
            seen = state.view(viewer).legal_moves()
            assert seen == (legal if viewer == state.to_move else [])
        if state.is_over:
            return
        state = state.play(rng.choice(legal))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1))
def test_legal_moves_match_the_definition_at_every_ply(players: int, seed: int) -> None:
    play_out(players, seed)


def test_legal_moves_match_with_tiny_memos(monkeypatch: pytest.MonkeyPatch) -> None:
    # The memos clear themselves when full: a tiny limit clears them all the time.
    monkeypatch.setattr(state_module, "_MEMO_LIMIT", 2)
    for players in (2, 3, 4):
        play_out(players, seed=players)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1))
def test_a_dealt_game_is_what_the_checked_constructor_builds(players: int, seed: int) -> None:
    # new_game builds its state without the constructor's checks: it must pass them.
    game = new_game(players, seed=seed)
    fields = {f.name: getattr(game, f.name) for f in dataclasses.fields(State)}
    assert State(**fields) == game
    assert game.status() == ()
