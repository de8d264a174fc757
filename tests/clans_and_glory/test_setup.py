"""Set-up for 2, 3 and 4 players (ruling 1), deals and their JSON form."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.cards import Card
from referee.clans_and_glory import (
    CLAN_CARDS,
    InvalidDealError,
    Layout,
    Seat,
    default_layout,
    new_game,
    setup_for,
    state_from_deal,
)
from referee.errors import RefereeError


@pytest.mark.parametrize(
    ("players", "tableaus", "ranks", "removed", "starts", "hands"),
    [
        (2, 4, {3, 4, 5, 6}, 3, 8, [9, 8]),
        (3, 5, {3, 4, 5, 6, 7}, 4, 5, [9, 9, 8]),
        (4, 6, {3, 4, 5, 6, 7, 8}, 5, 6, [8, 8, 8, 7]),
    ],
)
def test_ruling_1_setup_per_player_count(
    players: int, tableaus: int, ranks: set[int], removed: int, starts: int, hands: list[int]
) -> None:
    game = new_game(players=players, seed=42)
    assert game.layout.tableaus == tableaus
    assert len(game.removed) == removed
    on_table = [p.card for p in game.table if p is not None]
    assert len(on_table) == starts
    assert all(p.face_up and p.player is None for p in game.table if p is not None)
    assert [len(h) for h in game.hands] == hands
    everything = [*game.removed, *on_table, *(c for h in game.hands for c in h)]
    assert Counter(everything) == Counter(c for c in CLAN_CARDS.cards if c.value in ranks)
    # the player with fewest cards moves last, player 0 first
    assert game.to_move == 0
    assert min(hands) == hands[-1] < hands[0]
    # start cards lie on the documented start seats
    assert [s for s in game.layout.seats if game.seat_card(s) is not None] == sorted(
        game.layout.start_seats, key=game.layout.index
    )


def test_forty_two_cards_ranks_3_to_8_seven_colours() -> None:
    assert len(CLAN_CARDS.cards) == 42
    assert {c.value for c in CLAN_CARDS.cards} == set(range(3, 9))
    assert CLAN_CARDS.colours == "ROYGBPW"


def test_two_players_use_every_remaining_card_with_eight_start_cards() -> None:
    # the summary box's 8 (not the list's 5) is what uses up the 25 cards left
    setup = setup_for(2)
    assert len(setup.deck()) - setup.random_removals == setup.start_cards + sum(setup.hand_sizes)
    assert setup.start_cards == 8


def test_deck_order_deals_removed_then_start_cards_then_hands() -> None:
    deck = list(setup_for(2).deck())
    game = new_game(players=2, deck=deck)
    assert game.removed == tuple(deck[:3])
    starts = [game.seat_card(s) for s in default_layout(2).start_seats]
    assert [p.card for p in starts if p is not None] == deck[3:11]
    assert set(game.hands[0]) == set(deck[11:20])
    assert set(game.hands[1]) == set(deck[20:28])


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    assert new_game(players=3, seed=9) == new_game(players=3, seed=9)
    assert new_game(players=3, seed=9).deal != new_game(players=3, seed=10).deal


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_json_round_trip(players: int) -> None:
    game = new_game(players=players, seed=123)
    data = game.deal_to_json()
    assert data["players"] == players
    assert state_from_deal(players, data) == game


@pytest.mark.parametrize("players", [1, 5, "2", True, None])
def test_player_count_refused(players: object) -> None:
    with pytest.raises(InvalidDealError, match="2 to 4 players") as info:
        new_game(players=players)  # type: ignore[arg-type]
    assert info.value.reason == "players"


def test_seed_and_deck_together_refused() -> None:
    with pytest.raises(InvalidDealError, match="seed or a deck"):
        new_game(players=2, seed=1, deck=setup_for(2).deck())


@pytest.mark.parametrize(
    ("deck", "words"),
    [
        (list(setup_for(2).deck())[:-1], "missing W6"),
        ([*setup_for(2).deck()[:-1], Card("R", 3)], "repeated R3"),
        ([*setup_for(2).deck()[:-1], Card("W", 8)], "not in play W8"),
    ],
)
def test_deck_not_a_permutation(deck: list[Card], words: str) -> None:
    with pytest.raises(InvalidDealError, match=words) as info:
        new_game(players=2, deck=deck)
    assert info.value.reason == "not_a_permutation"
    assert "'deck'" in str(info.value)


@pytest.mark.parametrize(
    ("deal", "reason", "field"),
    [
        ({"players": 2}, "field_missing", "'deck'"),
        ({"deck": "R3 R4"}, "field_type", "'deck'"),
        ({"deck": [3, 4]}, "field_type", "'deck'"),
        ({"deck": ["X3"]}, "field_type", "'deck'"),
        ({"deck": ["R3"] * 28}, "not_a_permutation", "'deck'"),
        ({"deck": [], "players": 3}, "players", "'players'"),
        ({"deck": [], "players": True}, "players", "'players'"),
        ({"deck": [], "game": "schotten_totten"}, "field_type", "'game'"),
        ({"deck": [], "seed": 3}, "field_unknown", "'seed'"),
        ({"deck": [], "layout": [1]}, "field_type", "'layout'"),
        ({"deck": [], "layout": {"tableaus": "4"}}, "field_type", "'tableaus'"),
    ],
)
def test_bad_deal_names_the_field(deal: dict[str, object], reason: str, field: str) -> None:
    with pytest.raises(InvalidDealError) as info:
        state_from_deal(2, deal)
    assert isinstance(info.value, RefereeError)
    assert info.value.reason == reason
    assert field in str(info.value)


def test_deal_that_is_not_a_mapping_refused() -> None:
    with pytest.raises(InvalidDealError, match="JSON object"):
        state_from_deal(2, ["R3"])  # type: ignore[arg-type]


def _layout_with_start_seats(players: int, starts: tuple[Seat, ...]) -> Layout:
    base = default_layout(players)
    return Layout(
        base.tableaus, base.seats, base.neighbour_pairs, base.opposite_pairs, starts, base.grid
    )


def test_custom_layout_travels_in_the_deal() -> None:
    starts = tuple(Seat(t, 1) for t in range(1, 6))
    layout = _layout_with_start_seats(3, starts)
    game = new_game(players=3, seed=5, layout=layout)
    assert all(game.seat_card(s) is not None for s in starts)
    data = game.deal_to_json()
    assert "layout" in data
    assert state_from_deal(3, data) == game
    assert "layout" not in new_game(players=3, seed=5).deal_to_json()


def test_layout_with_wrong_number_of_start_seats_refused() -> None:
    with pytest.raises(InvalidDealError, match="need 5 start seats, not 1") as info:
        new_game(players=3, seed=5, layout=_layout_with_start_seats(3, (Seat(1, 1),)))
    assert info.value.reason == "layout"


def test_layout_too_small_refused() -> None:
    base = default_layout(2)
    small = Layout(4, base.seats[:20], (), (), base.start_seats[:6])
    with pytest.raises(InvalidDealError, match="need 8 start seats"):
        new_game(players=2, seed=1, layout=small)
    seats = tuple(Seat(t, n) for t in range(1, 5) for n in range(1, 7))[:23]
    tight = Layout(4, seats, (), (), seats[:8])
    with pytest.raises(InvalidDealError, match="at least 24 seats, not 23"):
        new_game(players=2, seed=1, layout=tight)


@pytest.mark.parametrize(("players", "tableaus"), [(2, 4), (3, 5), (4, 6)])
def test_layout_tableau_count_must_fit_the_player_count(players: int, tableaus: int) -> None:
    # Ruling 1: 4, 5 or 6 tableaus for 2, 3 or 4 players; a layout for another
    # count is refused even when it has enough seats and start seats.
    for other in {4, 5, 6} - {tableaus}:
        layout = default_layout({4: 2, 5: 3, 6: 4}[other])
        seats = list(layout.seats)
        wanted = setup_for(players).start_cards
        starts = tuple(s for s in seats if s.number in (1, 2, 3, 4, 5, 6))[:wanted]
        custom = Layout(layout.tableaus, layout.seats, (), (), starts)
        with pytest.raises(
            InvalidDealError, match=f"{players} players play on {tableaus} tableaus, not {other}"
        ) as info:
            new_game(players=players, seed=1, layout=custom)
        assert info.value.reason == "layout"
