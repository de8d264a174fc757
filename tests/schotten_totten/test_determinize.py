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


def _after_recruits(seed: int) -> State:
    """A tactics game played at random until both players have put cards under
    the piles with the recruiter (the recruiter is taken whenever it is legal)."""
    from referee.schotten_totten.moves import Recruit

    for attempt in range(seed, seed + 400):
        rng = random.Random(attempt)
        game = new_game(seed=attempt, rules=Rules(tactics=True))
        while not game.is_game_over():
            moves = game.generate_legal_moves()
            recruits = [m for m in moves if isinstance(m, Recruit)]
            game = game.play(rng.choice(recruits or moves))
            if any(game.under_piles) and game.to_move == 0 and game.phase.name == "PLAY":
                return game
    raise AssertionError("no game with a recruiter found")


class TestRecruiterReturns:
    """A player knows the cards it put under a pile: a determinization keeps
    them where they lie, and samples only those the opponent put back."""

    @pytest.mark.parametrize("seed", [0, 7, 50])
    def test_own_returns_stay_at_the_bottom(self, seed: int) -> None:
        game = _after_recruits(seed)
        assert game.deck is not None and game.tactic_deck is not None
        for player in (0, 1):
            view = game.view(player)
            for pile, (named, real) in enumerate(
                zip(view.under_piles, game.under_piles, strict=True)
            ):
                assert [p for p, _ in named] == [p for p, _ in real]
                for (p, shown), (_, card) in zip(named, real, strict=True):
                    assert shown == (card if p == player else ("clan", "tactic")[pile])
            for k in range(20):
                full = determinize(view, random.Random(k))
                assert full.view(player) == view
                for pile, order in ((0, full.deck), (1, full.tactic_deck)):
                    under = game.under_piles[pile]
                    assert order is not None
                    tail = order[len(order) - len(under) :] if under else ()
                    for (p, card), sampled in zip(under, tail, strict=True):
                        if p == player:
                            assert sampled == card

    def test_opponents_returns_are_sampled(self) -> None:
        game = _after_recruits(3)
        pile = 0 if game.under_piles[0] else 1
        owner = game.under_piles[pile][-1][0]
        view = game.view(1 - owner)  # the other player did not see that card
        samples = {determinize(view, random.Random(k)).under_piles[pile][-1][1] for k in range(60)}
        assert len(samples) > 1  # the opponent's card is not known, so it varies

    def test_a_position_whose_piles_disagree_is_refused(self) -> None:
        game = _after_recruits(11)
        pile = 0 if game.under_piles[0] else 1
        (owner, card), *rest = game.under_piles[pile]
        wrong = "tactic" if pile == 0 else "clan"
        bad = replace(
            game,
            under_piles=tuple(
                ((owner, wrong), *rest) if k == pile else game.under_piles[k] for k in (0, 1)
            ),
        )
        assert any("under the" in problem for problem in bad.status())
        moved = replace(
            game,
            under_piles=tuple(
                (*game.under_piles[k], (owner, card)) if k == pile else game.under_piles[k]
                for k in (0, 1)
            ),
        )
        assert any("does not end with" in p or "cards lie under" in p for p in moved.status())
