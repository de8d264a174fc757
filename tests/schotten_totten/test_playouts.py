"""Random legal playouts keep every invariant at every ply."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.records import validate
from referee.schotten_totten import CLAN_CARDS, Claim, State, new_game, parse_move
from referee.schotten_totten.record import FORMAT, random_playout


def check_invariants(state: State, previous: State | None) -> None:
    # every one of the 54 cards is in exactly one place
    places: Counter = Counter()
    for hand in state.hands:
        places.update(hand or ())
    places.update(state.deck or ())
    for stone in state.stones:
        for side in stone.sides:
            places.update(side)
            assert len(side) <= 3
    assert set(places) == set(CLAN_CARDS.cards) and set(places.values()) == {1}
    assert state.hand_sizes == tuple(len(h or ()) for h in state.hands)
    assert state.deck_size == len(state.deck or ())
    assert all(size <= 6 for size in state.hand_sizes)
    if previous is not None:
        for before, after in zip(previous.stones, state.stones, strict=True):
            if before.owner is not None:  # nothing changes at a claimed stone
                assert after == before


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_playouts_keep_invariants(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(seed=seed, first=seed % 2)
    check_invariants(state, None)
    plies = 0
    while state.outcome is None:
        legal = state.legal_moves()
        assert legal, "a live game always has a legal move"
        for move in legal:
            assert parse_move(str(move)) == move  # notation round-trips
        claims = [m for m in legal if isinstance(m, Claim)]
        move = claims[0] if claims and rng.random() < 0.9 else rng.choice(legal)
        # a refused move leaves the state as it was
        bogus = rng.choice(["claim 1", "pass", "draw", "done", "R1@1", "P9@9"])
        before = state
        try:
            state.play(bogus)
        except ValueError:
            assert state == before
        nxt = state.play(move)
        check_invariants(nxt, state)
        state = nxt
        plies += 1
        assert plies < 1000, "the game always ends"
    assert state.outcome.winner in (0, 1)
    assert state.outcome.reason in ("three_adjacent", "five_stones")


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_recorded_playouts_replay_and_validate(seed: int) -> None:
    record = FORMAT.random_record(seed, {})
    report = validate(record)
    assert report.legal, report.summary()
    assert report.plies == len(record.moves)
    # the same seed gives the same game
    assert FORMAT.random_record(seed, {}) == record
    # the public record (no deal) of the same game is legal too
    public = type(record)(
        game=record.game, moves=record.moves, first=record.first, result=record.result
    )
    assert validate(public).legal


def test_random_playout_reaches_the_end() -> None:
    state = new_game(seed=99)
    moves = random_playout(state, random.Random(1))
    for move in moves:
        state = state.play(move)
    assert state.outcome is not None
