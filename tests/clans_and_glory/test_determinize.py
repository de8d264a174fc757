"""Determinization: full Clans and Glory states sampled from a player's view."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card
from referee.clans_and_glory import InvalidStateError, Placed, State, new_game
from referee.clans_and_glory.determinize import determinize
from tests.clans_and_glory.sampled import face_down_position, positions, random_position


def hidden_from(game: State, viewer: int | None) -> Counter[Card]:
    """The cards ``viewer`` cannot see: other hands, others' face-down cards, removed."""
    cards = [c for p, hand in enumerate(game.hands) if p != viewer for c in hand]
    cards += [p.card for p in game.table if p is not None and not p.face_up and p.player != viewer]
    return Counter([*cards, *game.removed])


def sampling_only(full: State, viewer: int | None) -> list[str]:
    """The problems of ``full`` but those a determinization leaves by design.

    It samples the cards the viewer did not see, not what could be deduced
    (docs: Rulings, Clans and Glory): a hidden face-down card sampled may be one
    its player could have placed face up, which ``status()`` refuses in a
    position. Every other problem is a real one."""
    left = []
    for problem in full.status():
        deduced = re.match(
            r"\S+ lies face down on \S+, but when it was placed player (\d)", problem
        )
        if deduced is None or int(deduced.group(1)) - 1 == viewer:
            left.append(problem)
    return left


class TestDeterminize:
    @settings(max_examples=60, deadline=None)
    @given(game=positions, data=st.data())
    def test_view_of_determinized_state_is_the_view(self, game: State, data: st.DataObject) -> None:
        viewer = data.draw(st.sampled_from([None, *range(game.num_players)]))
        view = game.view(viewer)
        full = determinize(view, random.Random(data.draw(st.integers(0, 1000))))
        assert full.view(viewer) == view
        assert sampling_only(full, viewer) == []
        # the constructor's own checks accept it too
        assert full.replace() == full
        assert hidden_from(full, viewer) == hidden_from(game, viewer)
        assert full.outcome == game.outcome
        assert not any(p is not None and p.card is None for p in full.table)

    @settings(max_examples=30, deadline=None)
    @given(game=positions, seed=st.integers(0, 1000))
    def test_random_playouts_from_a_determinization_stay_legal(
        self, game: State, seed: int
    ) -> None:
        rng = random.Random(seed)
        viewer = game.to_move
        full = determinize(game.view(viewer), rng)
        while not full.is_game_over():
            mover = full.to_move
            moves = full.generate_legal_moves()
            assert moves, "a running game always has a legal move"
            assert list(full.view(mover).legal_moves()) == moves
            full = full.play(rng.choice(moves), player=mover)
            assert sampling_only(full, viewer) == []
        assert full.outcome is not None

    def test_the_viewers_own_cards_are_kept(self) -> None:
        game = face_down_position(0)
        owner = next(p.player for p in game.table if p is not None and not p.face_up)
        assert owner is not None
        full = determinize(game.view(owner), random.Random(0))
        assert full.hands[owner] == game.hands[owner]
        assert full.table == game.table  # its own face-down card, and all else on the table
        other = 1 - owner
        full = determinize(game.view(other), random.Random(0))
        assert full.hands[other] == game.hands[other]
        assert [p is None or p.face_up for p in full.table] == [
            p is None or p.face_up for p in game.table
        ]

    def test_a_referee_end_is_kept(self) -> None:
        game = random_position(3, 5, 7).resign(1)
        full = determinize(game.view(0), random.Random(0))
        assert full.outcome == game.outcome and full.is_game_over()
        assert full.view(0) == game.view(0)

    def test_the_deal_deals_the_sampled_state(self) -> None:
        game = random_position(4, 8, 13)
        full = determinize(game.view(2), random.Random(3))
        dealt = new_game(players=4, deck=full.deal)
        assert dealt.removed == full.removed
        start_seats = set(full.layout.start_seats)
        assert [p for s, p in zip(full.layout.seats, dealt.table, strict=True) if p] == [
            p for s, p in zip(full.layout.seats, full.table, strict=True) if s in start_seats
        ]
        for player in range(4):
            placed = [p.card for p in full.table if p is not None and p.player == player]
            assert sorted(dealt.hands[player], key=str) == sorted(
                [*full.hands[player], *placed], key=str
            )

    def test_impossible_counts_are_refused(self) -> None:
        view = new_game(players=2, seed=5).view(0)
        with pytest.raises(
            ValueError,
            match="11 cards are unseen, but the hidden hands, face-down cards and removed cards hold 33",
        ):
            determinize(view.replace(hand_sizes=(9, 30)), random.Random(0))
        # a view whose counts disagree with the viewer's hand cannot even be built
        with pytest.raises(InvalidStateError, match=r"hand_sizes \(3, 8\) disagree with the hands"):
            view.replace(hand_sizes=(3, 8))

    def test_a_full_state_hides_nothing(self) -> None:
        game = new_game(players=2, seed=5)
        assert determinize(game, random.Random(0)) is game
        with pytest.raises(TypeError, match=r"takes a Clans and Glory view .* not tuple"):
            determinize(game.view(0).hands[0], random.Random(0))  # type: ignore[arg-type]


def test_every_unseen_card_lands_in_every_hidden_place_evenly() -> None:
    # A fixed seed: the check is deterministic, never flaky. Each unseen card
    # goes to each hidden place (a hand, the face-down seat, the removed
    # cards) in proportion to the place's size; bounds at about 5 sigma.
    game = face_down_position(3)
    viewer = next(p.player for p in game.table if p is not None and not p.face_up)
    assert viewer is not None
    viewer = (viewer + 1) % game.num_players
    view = game.view(viewer)
    rng = random.Random(2024)
    samples = 4000
    counts: Counter[tuple[Card, str]] = Counter()
    for _ in range(samples):
        full = determinize(view, rng)
        for player, hand in enumerate(full.hands):
            if player != viewer:
                counts.update((card, f"hand {player}") for card in hand)
        for placed, seen in zip(full.table, view.table, strict=True):
            if seen is not None and seen.card is None:
                assert isinstance(placed, Placed) and placed.card is not None
                counts[placed.card, "face down"] += 1
        counts.update((card, "removed") for card in full.removed)
    places = Counter(place for _card, place in counts.elements())
    unseen = {card for card, _place in counts}
    assert len(unseen) == sum(places.values()) // samples
    for place, filled in places.items():
        share = filled / samples / len(unseen)  # chance that a card lands there
        expected = samples * share
        spread = 5 * (samples * share * (1 - share)) ** 0.5
        for card in unseen:
            assert abs(counts[card, place] - expected) <= spread, (card, place)
