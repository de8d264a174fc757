"""Positions from random playouts for the bot tests (determinization, action spaces)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from referee.clans_and_glory import State, new_game

# (players, seed, plies): a random playout from new_game(players=players, seed=seed)
# choosing with random.Random(seed) puts a face-down card on the table at its
# last ply, mid-game. One ply earlier, only face-down moves are legal.
FACE_DOWN_POSITIONS = [(2, 465, 14), (3, 169, 21), (4, 91, 25), (4, 167, 27)]


def random_position(players: int, seed: int, plies: int) -> State:
    """The position after ``plies`` random legal moves (fewer if the game ends)."""
    rng = random.Random(seed)
    game = new_game(players=players, seed=seed)
    for _ in range(plies):
        if game.is_game_over():
            break
        game = game.play(rng.choice(game.generate_legal_moves()))
    return game


def face_down_position(index: int) -> State:
    """A running game with a face-down card on the table."""
    game = random_position(*FACE_DOWN_POSITIONS[index])
    assert not game.is_game_over()
    assert any(p is not None and not p.face_up for p in game.table)
    return game


def no_fit_position(index: int) -> State:
    """The position just before a face-down card was placed: no card fits anywhere."""
    players, seed, plies = FACE_DOWN_POSITIONS[index]
    game = random_position(players, seed, plies - 1)
    assert game.generate_legal_moves() and all(m.face_down for m in game.generate_legal_moves())
    return game


#: Random positions of 2-4 players, and the positions with a face-down card.
positions = st.one_of(
    st.builds(
        random_position,
        players=st.sampled_from([2, 3, 4]),
        seed=st.integers(0, 10_000),
        plies=st.integers(0, 40),
    ),
    st.builds(face_down_position, st.integers(0, len(FACE_DOWN_POSITIONS) - 1)),
    st.builds(no_fit_position, st.integers(0, len(FACE_DOWN_POSITIONS) - 1)),
)
