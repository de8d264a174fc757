"""Chance is explicit: where support's two cards land is dealt, not chosen."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from referee.schotten_totten_2 import SIEGE_CARDS, Phase, Shuffle, State, new_game
from tests.schotten_totten_2.helpers import TACTICS, position


def _supported(chance_seed: int = 0) -> State:
    state = position(discards="R5 Y6 joker", hands=("support", ""), rules=TACTICS)
    return replace(state, chance_seed=chance_seed).play("support R5,Y6")


def test_support_lists_one_dealt_shuffle_and_play_accepts_every_place() -> None:
    supported = _supported(chance_seed=7)
    size = supported.deck_size + 2
    legal = supported.legal_moves()
    assert len(legal) == 1
    dealt = legal[0]
    assert isinstance(dealt, Shuffle) and dealt.positions is not None
    assert supported.is_chance_node()
    # the deal decides: the same seed and ply give the same places
    assert _supported(chance_seed=7).legal_moves()[0] == dealt
    # a record's own places are still accepted (the record is the deal)
    outcomes = supported.chance_outcomes()
    assert len(outcomes) == size * (size - 1)
    assert sum(p for _m, p in outcomes) == pytest.approx(1.0)
    assert len({p for _m, p in outcomes}) == 1
    assert dealt in [m for m, _p in outcomes]
    for move, _p in outcomes[:: size + 3]:
        assert supported.is_legal(move)
        assert supported.play(move).deck_size == size
    assert supported.play(dealt).phase is Phase.AFTER_PLAY


def test_the_dealt_places_are_spread_uniformly_over_seeds() -> None:
    supported = _supported()
    size = supported.deck_size + 2
    firsts: Counter[int] = Counter()
    trials = 4000
    for seed in range(trials):
        move = replace(supported, chance_seed=seed).legal_moves()[0]
        assert isinstance(move, Shuffle) and move.positions is not None
        first, second = move.positions
        assert first != second and 1 <= first <= size and 1 <= second <= size
        firsts[first] += 1
    assert set(firsts) == set(range(1, size + 1))
    expected = trials / size
    chi2 = sum((firsts[k] - expected) ** 2 / expected for k in range(1, size + 1))
    assert chi2 < 2 * size  # a broken deal (constant, or skewed) is far above


def test_a_view_lists_the_bare_shuffle_and_hides_the_seed() -> None:
    supported = _supported(chance_seed=7)
    view = supported.view(1)
    assert view.chance_seed == 0
    assert view.legal_moves() == [Shuffle()]
    assert view.chance_outcomes() == [(Shuffle(), 1.0)]


def test_outside_a_chance_ply_there_are_no_outcomes() -> None:
    game = new_game(seed=3, rules=TACTICS)
    assert not game.is_chance_node() and game.chance_outcomes() == []
    assert not game.resign(0).is_chance_node()


def test_new_game_draws_the_seed_from_its_rng() -> None:
    assert new_game(seed=3).chance_seed == new_game(seed=3).chance_seed
    assert new_game(seed=3).chance_seed != new_game(seed=4).chance_seed
    assert new_game(deck=SIEGE_CARDS.cards).chance_seed == 0  # given piles: no rng


def test_a_bad_seed_is_refused() -> None:
    with pytest.raises(ValueError, match="chance_seed must be a whole number >= 0, not -1"):
        replace(new_game(seed=1), chance_seed=-1)
