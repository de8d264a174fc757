"""Determinization: full Schotten Totten 2 states sampled from a player's view."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.schotten_totten_2 import Phase, Rules, State, new_game
from referee.schotten_totten_2.determinize import determinize
from referee.schotten_totten_2.state import _evolve
from tests.schotten_totten_2.helpers import TACTICS, cards, play_all, position

RULES = [Rules(), Rules(tactics=True)]


def random_position(rules: Rules, seed: int, plies: int) -> State:
    rng = random.Random(seed)
    game = new_game(seed=seed, rules=rules)
    for _ in range(plies):
        if game.is_game_over():
            break
        game = game.play(rng.choice(game.generate_legal_moves()))
    return game


def tactic_position(seed: int, wanted: Phase | str) -> State | None:
    """A random tactics game stopped where ``wanted`` (a phase or an action card) shows."""
    rng = random.Random(seed)
    game = new_game(seed=seed, rules=TACTICS)
    while not game.is_game_over():
        if game.phase is wanted or (
            isinstance(wanted, str) and any(str(c) == wanted for a in game.actions for c in a)
        ):
            return game
        moves = game.generate_legal_moves()
        tactic = [m for m in moves if type(m).__name__ not in ("PlayCard", "Retreat", "Oil")]
        game = game.play(rng.choice(tactic if tactic and rng.random() < 0.5 else moves))
    return None


class TestDeterminize:
    @settings(max_examples=60, deadline=None)
    @given(
        rules=st.sampled_from(RULES),
        seed=st.integers(0, 10_000),
        plies=st.integers(0, 200),
        player=st.sampled_from([0, 1, None]),
    )
    def test_view_of_determinized_state_is_the_view(
        self, rules: Rules, seed: int, plies: int, player: int | None
    ) -> None:
        game = random_position(rules, seed, plies)
        view = game.view(player)
        full = determinize(view, random.Random(seed))
        assert full.view(player) == view
        assert None not in full.hands
        assert full.deck is not None and len(full.deck) == full.deck_size
        assert full.tactic_deck is not None and len(full.tactic_deck) == full.tactic_deck_size
        replace(full)  # the full state passes every check of a built state

    @settings(max_examples=20, deadline=None)
    @given(rules=st.sampled_from(RULES), seed=st.integers(0, 10_000), plies=st.integers(0, 150))
    def test_random_playouts_from_a_determinization_stay_legal(
        self, rules: Rules, seed: int, plies: int
    ) -> None:
        game = random_position(rules, seed, plies)
        rng = random.Random(seed + 1)
        full = determinize(game.view(game.to_move), rng)
        for _ in range(3_000):
            if full.is_game_over():
                break
            moves = full.generate_legal_moves()
            assert moves, "a running game always has a legal move"
            full = full.play(rng.choice(moves))
        assert full.is_game_over()

    @pytest.mark.parametrize("wanted", [Phase.SHUFFLE, Phase.EXCHANGE, "exchange", "support"])
    def test_tactic_positions_determinize_for_both_players(self, wanted: Phase | str) -> None:
        found = 0
        for seed in range(60):
            game = tactic_position(seed, wanted)
            if game is None:
                continue
            found += 1
            for player in (0, 1, None):
                view = game.view(player)
                full = determinize(view, random.Random(seed))
                assert full.view(player) == view
                replace(full)
                rng = random.Random(seed)
                while not full.is_game_over():
                    full = full.play(rng.choice(full.generate_legal_moves()))
        assert found >= 5

    def test_hidden_cards_are_the_unseen_ones(self) -> None:
        game = new_game(seed=5, rules=TACTICS)
        full = determinize(game.view(0), random.Random(0))
        assert full.hands[0] == game.hands[0]
        assert game.hands[1] is not None and game.deck is not None
        assert Counter(full.hands[1]) + Counter(full.deck) == Counter(game.hands[1] + game.deck)
        assert full.chance_seed != game.view(0).chance_seed or full.chance_seed != 0

    def test_sampling_is_uniform_over_the_unseen_cards(self) -> None:
        view = new_game(seed=5).view(0)
        rng = random.Random(0)
        unseen = 60 - 6
        trials = 3000
        held: Counter[object] = Counter()
        hands = set()
        for _ in range(trials):
            full = determinize(view, rng)
            assert full.hands[1] is not None
            held.update(full.hands[1])
            hands.add(full.hands[1])
        assert len(hands) > trials * 0.99
        # each unseen card lands in the 6-card hidden hand with chance 6/54
        expected = trials * 6 / unseen
        assert len(held) == unseen
        chi2 = sum((n - expected) ** 2 / expected for n in held.values())
        assert chi2 < 2 * unseen

    def test_a_fresh_chance_seed_samples_supports_shuffle(self) -> None:
        state = position(discards="R5 Y6", hands=("support", ""), rules=TACTICS)
        supported = state.play("support R5,Y6")
        rng = random.Random(3)
        dealt = {determinize(supported.view(0), rng).legal_moves()[0] for _ in range(40)}
        assert len(dealt) > 30

    def test_cards_received_in_an_exchange_stay_in_the_hidden_hand(self) -> None:
        game = position(hands=("exchange R1 R2 R3 R4", "Y1 Y2 Y3 spy"), rules=TACTICS)
        game = replace(game, past=type(game.past).begin(game))
        game = play_all(game, ["exchange R1,R2,R3", "give Y1,Y2,spy", "draw"])
        view = game.view(0)
        assert view.hands[1] is None
        for seed in range(20):
            full = determinize(view, random.Random(seed))
            assert full.hands[1] is not None
            assert set(cards("R1 R2 R3")) <= set(full.hands[1])
            assert full.view(0) == view
        # once the opponent plays one of them, only the others are known
        game = play_all(game, ["R1@1", "draw"])
        full = determinize(game.view(0), random.Random(1))
        assert full.hands[1] is not None and set(cards("R2 R3")) <= set(full.hands[1])

    def test_the_answering_player_gets_some_offer_of_the_hidden_hand(self) -> None:
        game = position(hands=("exchange R1 R2 R3 R4", "Y1 Y2 Y3 spy"), rules=TACTICS)
        game = game.play("exchange R1,R2,R4")
        view = game.view(1)
        assert view.exchange is None and view.phase is Phase.EXCHANGE
        offers = set()
        for seed in range(30):
            full = determinize(view, random.Random(seed))
            assert full.exchange is not None and full.hands[0] is not None
            assert not Counter(full.exchange) - Counter(full.hands[0])
            assert full.view(1) == view
            offers.add(frozenset(full.exchange))
            full.play("give Y1,Y2,Y3")
        assert len(offers) > 1

    def test_supported_cards_are_in_the_deck_until_someone_draws(self) -> None:
        game = position(discards="R5 Y6", hands=("support B1", "G1 G2"), rules=TACTICS)
        game = replace(game, past=type(game.past).begin(game))
        game = play_all(game, ["support R5,Y6", "shuffle 1,2", "draw tactic"])
        # the deck's top two cards are R5 and Y6; player 1 has drawn none
        view = game.view(1)
        for seed in range(20):
            full = determinize(view, random.Random(seed))
            assert full.hands[0] is not None and full.deck is not None
            assert not set(cards("R5 Y6")) & set(full.hands[0])
            assert set(cards("R5 Y6")) <= set(full.deck)
            assert full.view(1) == view

    def test_impossible_counts_are_refused(self) -> None:
        view = new_game(seed=5).view(0)
        broken = _evolve(view, hand_sizes=(6, 60))  # State() itself refuses to build it
        with pytest.raises(
            ValueError, match="hidden hand holds 60 siege and 0 tactic cards, but only 54"
        ):
            determinize(broken, random.Random(0))
        with pytest.raises(
            ValueError, match="48 unseen siege cards are left for the deck, but it holds 53"
        ):
            determinize(_evolve(view, deck_size=53), random.Random(0))

    def test_a_supported_card_is_drawn_only_from_the_top_places(self) -> None:
        game = position(discards="R5 Y6", hands=("support B1", "G1 G2 G3 G4 G5 G6"), rules=TACTICS)
        game = replace(game, past=type(game.past).begin(game))
        game = play_all(game, ["support R5,Y6", "shuffle 1,2", "draw tactic", "G1@1", "draw"])
        view = game.view(0)  # player 2 drew one siege card since the shuffle
        size = view.deck_size + 1
        rng = random.Random(5)
        trials = 3000
        drawn = 0
        for _ in range(trials):
            full = determinize(view, rng)
            assert full.hands[1] is not None
            drawn += cards("R5")[0] in full.hands[1]
        # R5 lay at the top with chance 1/size (dealt like any unseen card it
        # would be in the 6-card hand 6 times as often)
        expected = trials / size
        assert abs(drawn - expected) < 4 * (expected**0.5)


def test_the_answerers_view_hides_the_offer_in_its_history_too() -> None:
    """Found by the bot loop: while an exchange waits for its answer, the answering
    player's view hid the offer but its history still named the cards, and a
    determinization (which samples the offer) then wrote a record whose later
    plays no deal could explain."""
    from referee.actions import legal_actions
    from referee.records import validate
    from referee.schotten_totten_2 import Rules, new_game
    from referee.schotten_totten_2.actions import action_space
    from referee.schotten_totten_2.moves import Exchange

    for seed, plies in ((2301, 17), (213, 33)):
        rng = random.Random(seed)
        game = new_game(seed=seed, rules=Rules(tactics=True))
        for _ in range(plies):
            game = game.play(rng.choice(game.generate_legal_moves()))
        assert isinstance(game.history[-1], Exchange)  # an offer waits
        answerer = game.to_move
        for viewer in (answerer, None):
            view = game.view(viewer)
            assert view.exchange is None
            assert view.history == game.history[:-1]
            assert validate(view.to_record()).legal
        offerer_view = game.view(1 - answerer)
        assert offerer_view.history == game.history  # the offerer knows its offer
        view = game.view(answerer)
        full = determinize(view, rng)
        assert full.view(answerer) == view
        assert full.history[-1] == Exchange(full.exchange)  # the sampled offer, played
        space = action_space(full)
        while not full.is_game_over():
            full = space.play(full, rng.choice(legal_actions(space, full)))
        assert validate(full.to_record()).legal
