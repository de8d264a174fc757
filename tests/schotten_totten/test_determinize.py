"""Determinization: full states sampled from a player's view."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.schotten_totten import Rules, new_game
from referee.schotten_totten.determinize import determinize
from referee.schotten_totten.state import State

RULES = [Rules(), Rules(tactics=True), Rules(edition="1999"), Rules(tactics=True, early_bird=True)]


def _random_position(rules: Rules, seed: int, plies: int) -> State:
    rng = random.Random(seed)
    game = new_game(seed=seed, rules=rules)
    for _ in range(plies):
        if game.is_game_over():
            break
        game = game.play(rng.choice(game.generate_legal_moves()))
    return game


class TestDeterminize:
    @settings(max_examples=40, deadline=None)
    @given(
        rules=st.sampled_from(RULES),
        seed=st.integers(0, 10_000),
        plies=st.integers(0, 120),
        player=st.sampled_from([0, 1, None]),
    )
    def test_view_of_determinized_state_is_the_view(
        self, rules: Rules, seed: int, plies: int, player: int | None
    ) -> None:
        game = _random_position(rules, seed, plies)
        view = game.view(player)
        full = determinize(view, random.Random(seed))
        assert full.view(player) == view
        assert None not in full.hands
        assert full.deck is not None and len(full.deck) == full.deck_size
        assert full.tactic_deck is not None and len(full.tactic_deck) == full.tactic_deck_size
        assert full.status() == ()

    @settings(max_examples=15, deadline=None)
    @given(rules=st.sampled_from(RULES), seed=st.integers(0, 10_000), plies=st.integers(0, 80))
    def test_random_playouts_from_a_determinization_stay_legal(
        self, rules: Rules, seed: int, plies: int
    ) -> None:
        game = _random_position(rules, seed, plies)
        rng = random.Random(seed + 1)
        full = determinize(game.view(game.to_move), rng)
        for _ in range(2_000):
            if full.is_game_over():
                break
            moves = full.generate_legal_moves()
            assert moves, "a running game always has a legal move"
            full = full.play(rng.choice(moves))
        assert full.is_game_over()

    def test_hidden_cards_are_the_unseen_ones(self) -> None:
        game = new_game(seed=5)
        full = determinize(game.view(0), random.Random(0))
        assert full.hands[0] == game.hands[0]
        assert sorted(full.hands[1] + full.deck) == sorted(game.hands[1] + game.deck)

    def test_sampling_is_spread_over_the_unseen_cards(self) -> None:
        game = new_game(seed=5)
        view = game.view(0)
        rng = random.Random(0)
        hands = {determinize(view, rng).hands[1] for _ in range(50)}
        assert len(hands) > 40

    def test_impossible_counts_are_refused(self) -> None:
        view = new_game(seed=5).view(0)
        broken = replace(view, hand_sizes=(6, 60))
        with pytest.raises(ValueError, match="hidden hand holds 60 clan"):
            determinize(broken, random.Random(0))
