"""Random playouts for 2, 3 and 4 players keep every invariant (Hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card
from referee.clans_and_glory import (
    SHIELDS_PER_PLAYER,
    Placement,
    Seat,
    State,
    new_game,
    random_playout,
    state_from_deal,
)
from referee.errors import IllegalMoveError


def accounted(state: State) -> Counter[Card]:
    on_table = [p.card for p in state.table if p is not None]
    return Counter([*state.removed, *on_table, *(c for h in state.hands for c in h)])


def check_invariants(state: State) -> None:
    # every card in play is in exactly one place
    assert accounted(state) == Counter(state.setup.deck())
    assert sorted(state.deal, key=str) == sorted(state.setup.deck(), key=str)
    # at most five shields each, and every shield came with a move
    for player in range(state.num_players):
        assert 0 <= state.shields_left(player) <= SHIELDS_PER_PLAYER
    assert sum(map(len, state.shields)) == sum(m.shield for m in state.history)
    # turns go round in order
    assert state.to_move == len(state.history) % state.num_players


def an_illegal_move(state: State, rng: random.Random) -> Placement:
    taken = [s for s, p in zip(state.layout.seats, state.table, strict=True) if p is not None]
    others = [c for c in state.setup.deck() if c not in state.hands[state.to_move]]
    hand = state.hands[state.to_move] or others
    choices = [
        Placement(rng.choice(hand), rng.choice(taken)),
        Placement(rng.choice(others), rng.choice(state.free_seats() or taken)),
        Placement(rng.choice(hand), Seat(state.layout.tableaus + 1, 1)),
    ]
    return rng.choice(choices)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.randoms(use_true_random=False))
def test_random_playout_keeps_invariants(players: int, seed: int, choices: random.Random) -> None:
    game = new_game(players=players, seed=seed)
    assert game == new_game(players=players, seed=seed)
    setup = game.setup
    expected_moves = setup.hand_sizes[setup.last_player] * players
    start = game
    while game.outcome is None:
        check_invariants(game)
        assert len(game.history) < expected_moves
        moves = game.legal_moves()
        assert moves
        # face down only when nothing fits face up anywhere
        if any(m.face_down for m in moves):
            assert all(m.face_down for m in moves)
            assert not any(
                game.fits(c, s) for c in game.hands[game.to_move] for s in game.free_seats()
            )
        # a refused move leaves the state equal
        bad = an_illegal_move(game, choices)
        before = game.replace()
        with pytest.raises(IllegalMoveError):
            game.play(bad)
        assert game == before and hash(game) == hash(before)
        # the referee and the viewer agree on the moves
        assert game.view(game.to_move).legal_moves() == moves
        move = choices.choice(moves)
        assert game.is_legal(str(move))
        after = game.play(str(move))
        placed = after.seat_card(move.seat)
        assert placed is not None and placed.card == move.card
        assert placed.face_up is not move.face_down
        game = after
    # the game ends on time: when the last player has placed its last card
    check_invariants(game)
    assert len(game.history) == expected_moves
    assert game.hands[setup.last_player] == ()
    assert game.legal_moves() == []
    scores = game.outcome.scores
    assert scores is not None and len(scores) == players
    face_up_total = sum(p.card.value for p in game.table if p is not None and p.face_up)
    assert sum(scores) <= face_up_total
    if game.outcome.winner is not None:
        assert scores[game.outcome.winner] == max(scores)
    # the record replays exactly from the deal and the move texts
    replay = state_from_deal(players, start.deal_to_json())
    for move in game.history:
        replay = replay.play(str(move))
    assert replay == game and replay.outcome == game.outcome


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_same_seed_same_playout(players: int, seed: int) -> None:
    moves = random_playout(seed, players=players)
    assert moves == random_playout(seed, players=players)
    game = new_game(players=players, seed=seed)
    for text in moves:
        game = game.play(text)
    assert game.outcome is not None
