"""Clans and Glory's action spaces: ids, masks and observations."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.actions import ActionSpace, legal_actions, mask_of
from referee.clans_and_glory import (
    CLAN_CARDS,
    Layout,
    Seat,
    State,
    default_layout,
    new_game,
    parse_move,
)
from referee.clans_and_glory.actions import (
    ACTIONS,
    OBSERVATION_LAYOUT,
    ClansAndGloryActions,
    actions_for,
)
from referee.clans_and_glory.determinize import determinize
from tests.clans_and_glory.sampled import (
    face_down_position,
    no_fit_position,
    positions,
    random_position,
)

PLAYERS = [2, 3, 4]


def block(space: ClansAndGloryActions, seen: tuple[int, ...], name: str) -> tuple[int, ...]:
    for title, start, length in space.observation_layout:
        if title.startswith(name):
            return seen[start : start + length]
    raise KeyError(name)


class TestActionIds:
    @pytest.mark.parametrize("players", PLAYERS)
    def test_the_space_follows_the_shared_protocol(self, players: int) -> None:
        assert isinstance(ACTIONS[players], ActionSpace)
        assert ACTIONS[players].num_actions == 42 * len(default_layout(players).seats) * 4

    @pytest.mark.parametrize("players", PLAYERS)
    def test_every_id_round_trips(self, players: int) -> None:
        space = ACTIONS[players]
        texts = set()
        for action in range(space.num_actions):
            move = space.move_of(action)
            assert space.action_of(move) == action
            assert space.action_of(parse_move(str(move))) == action
            texts.add(str(move))
        assert len(texts) == space.num_actions

    def test_the_id_formula(self) -> None:
        space = ACTIONS[4]
        seats = len(default_layout(4).seats)
        card = CLAN_CARDS.cards.index(CLAN_CARDS.parse("B6"))
        seat = default_layout(4).index(Seat(3, 5))
        assert space.action_of(parse_move("B6@t3s5+down")) == (card * seats + seat) * 4 + 2

    def test_ids_out_of_range_are_refused(self) -> None:
        space = ACTIONS[2]
        with pytest.raises(ValueError, match=r"no action 4368: ids are whole numbers 0-4367"):
            space.move_of(4368)
        for bad in (-1, True, 1.0, "3"):
            with pytest.raises(
                ValueError, match=rf"no action {bad!r}: ids are whole numbers 0-4367"
            ):
                space.move_of(bad)  # type: ignore[arg-type]

    def test_moves_off_the_table_have_no_id(self) -> None:
        with pytest.raises(ValueError, match=r"move 'G5@t5s1' has no action id: no seat t5s1"):
            ACTIONS[2].action_of(parse_move("G5@t5s1"))
        assert ACTIONS[3].move_of(ACTIONS[3].action_of(parse_move("G5@t5s1"))) == parse_move(
            "G5@t5s1"
        )
        with pytest.raises(ValueError, match=r"'G5@t1s1' is not a Clans and Glory move"):
            ACTIONS[2].action_of("G5@t1s1")

    @settings(max_examples=60, deadline=None)
    @given(game=positions)
    def test_the_mask_is_the_legal_moves(self, game: State) -> None:
        space = ACTIONS[game.num_players]
        mask = space.legal_action_mask(game)
        assert len(mask) == space.num_actions
        moves = game.generate_legal_moves()
        assert mask == mask_of(space, moves)
        assert [space.move_of(a) for a in legal_actions(space, game)] == sorted(
            moves, key=space.action_of
        )
        for action in legal_actions(space, game):
            game.play(space.move_of(action))  # every masked id is playable
        # A view gives its viewer's mask: the same for the mover, empty for the rest.
        for player in range(game.num_players):
            expected = mask if player == game.to_move else bytes(space.num_actions)
            assert space.legal_action_mask(game.view(player)) == expected

    @pytest.mark.parametrize("index", [0, 1, 2])
    def test_when_nothing_fits_only_face_down_ids_are_legal(self, index: int) -> None:
        game = no_fit_position(index)
        space = ACTIONS[game.num_players]
        ids = legal_actions(space, game)
        assert len(ids) == len(game.legal_moves()) and all(a % 4 >= 2 for a in ids)

    @pytest.mark.parametrize("players", PLAYERS)
    def test_a_finished_game_masks_everything(self, players: int) -> None:
        game = new_game(players=players, seed=1)
        assert sum(ACTIONS[players].legal_action_mask(game.resign(0))) == 0
        rng = random.Random(1)
        while not game.is_game_over():
            game = game.play(rng.choice(game.generate_legal_moves()))
        assert sum(ACTIONS[players].legal_action_mask(game)) == 0

    def test_a_space_refuses_another_tables_state(self) -> None:
        with pytest.raises(ValueError, match="for 2 players on its own layout; the state has 3"):
            ACTIONS[2].legal_action_mask(new_game(players=3, seed=1))
        with pytest.raises(ValueError, match=r"for 3 players .* on another layout"):
            ACTIONS[3].observation(new_game(players=3, seed=1, layout=_custom_layout()), 0)

    def test_a_custom_layout_gets_its_own_space(self) -> None:
        layout = _custom_layout()
        space = actions_for(3, layout)
        assert space is not ACTIONS[3] and actions_for(3) is ACTIONS[3]
        assert actions_for(3, default_layout(3)) is ACTIONS[3]
        game = new_game(players=3, seed=5, layout=layout)
        assert sum(space.legal_action_mask(game)) == len(game.legal_moves())
        with pytest.raises(ValueError, match="2 to 4 players, not 5"):
            actions_for(5)


def _custom_layout() -> Layout:
    starts = tuple(Seat(t, 1) for t in range(1, 6))
    return dataclasses.replace(default_layout(3), start_seats=starts)


class TestObservation:
    @pytest.mark.parametrize("players", PLAYERS)
    def test_the_layout_tiles_the_observation(self, players: int) -> None:
        space = ACTIONS[players]
        assert OBSERVATION_LAYOUT[players] == space.observation_layout
        at = 0
        for _name, start, length in space.observation_layout:
            assert start == at
            at += length
        assert at == space.observation_size == len(space.observation(new_game(players=players), 0))

    @settings(max_examples=60, deadline=None)
    @given(game=positions, data=st.data())
    def test_it_holds_nothing_the_player_may_not_see(
        self, game: State, data: st.DataObject
    ) -> None:
        player = data.draw(st.integers(0, game.num_players - 1))
        space = ACTIONS[game.num_players]
        seen = space.observation(game, player)
        assert seen == space.observation(game.view(player), player)
        # Two other deals of what this player cannot see look the same to it.
        view = game.view(player)
        for seed in data.draw(st.lists(st.integers(0, 1000), min_size=2, max_size=2)):
            assert space.observation(determinize(view, random.Random(seed)), player) == seen
        assert all(0 <= x <= space.observation_high for x in seen)

    def test_a_face_down_card_shows_only_to_its_owner(self) -> None:
        game = face_down_position(2)
        index, placed = next(
            (i, p) for i, p in enumerate(game.table) if p is not None and not p.face_up
        )
        assert placed.player is not None
        space = ACTIONS[4]
        card = CLAN_CARDS.cards.index(placed.card)
        for player in range(4):
            seen = space.observation(game, player)
            on_seat = block(space, seen, "card on each seat")[index * 42 : (index + 1) * 42]
            assert list(on_seat) == [int(player == placed.player and i == card) for i in range(42)]
            assert block(space, seen, "seat holds a face-down card")[index] == 1
            who = block(space, seen, "who placed")[index * 5 : index * 5 + 5]
            assert who.index(1) == 1 + (placed.player - player) % 4

    def test_players_are_counted_from_the_observer(self) -> None:
        game = random_position(3, 2, 7)  # players 1 and 2 have moved 2 times, player 3 once
        space = ACTIONS[3]
        for player in range(3):
            seen = space.observation(game, player)
            sizes = [len(game.hands[(player + k) % 3]) for k in range(3)]
            assert list(block(space, seen, "cards in hand")) == sizes
            assert list(block(space, seen, "my hand")).count(1) == sizes[0]
            assert list(block(space, seen, "my place in the turn order")) == [
                int(k == player) for k in range(3)
            ]
            assert block(space, seen, "it is my turn") == (int(game.to_move == player),)
            left = [game.shields_left((player + k) % 3) for k in range(3)]
            assert list(block(space, seen, "shields left")) == left

    def test_shield_stacks_keep_their_order(self) -> None:
        game = new_game(players=2, seed=3)
        moves = [m for m in game.legal_moves() if m.shield and m.tableau == 2]
        game = game.play(moves[0])
        game = game.play(next(m for m in game.legal_moves() if m.shield and m.tableau == 2))
        assert game.shield_stack(2) == (0, 1)
        space = ACTIONS[2]
        stack = 7 * 2  # places on a tableau × players
        for player, expected in ((0, [1, 0, 0, 1]), (1, [0, 1, 1, 0])):
            stacks = block(space, space.observation(game, player), "shield stack")
            assert list(stacks[stack : stack + 4]) == expected
            assert sum(stacks) == 2

    def test_only_a_seated_player_observes(self) -> None:
        game = new_game(players=3, seed=1)
        for bad in (None, 3, -1, True):
            with pytest.raises(ValueError, match=rf"no player {bad!r}: an observation is a player"):
                ACTIONS[3].observation(game, bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"no player None: an observation is a player"):
            ACTIONS[3].observation(game.view(None), None)  # type: ignore[arg-type]

    def test_a_view_of_another_player_is_refused(self) -> None:
        with pytest.raises(ValueError, match="a view of player 1 cannot be observed as 0"):
            ACTIONS[2].observation(new_game(players=2).view(1), 0)


class TestSearchFromAView:
    @settings(max_examples=15, deadline=None)
    @given(game=positions, seed=st.integers(0, 1000))
    def test_a_bot_determinizes_its_view_and_plays_ids_to_the_end(
        self, game: State, seed: int
    ) -> None:
        rng = random.Random(seed)
        space = ACTIONS[game.num_players]
        sample = determinize(game.view(game.to_move), rng)
        while not sample.is_game_over():
            ids = legal_actions(space, sample)
            assert ids
            sample = sample.play(space.move_of(rng.choice(ids)))
        assert sum(space.legal_action_mask(sample)) == 0
