"""Schotten Totten 2's action space: ids, masks and observations."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.actions import ActionSpace, legal_actions, mask_of
from referee.schotten_totten_2 import (
    Exchange,
    ExchangeReply,
    Move,
    Phase,
    Retreat,
    Rules,
    Shuffle,
    State,
    Support,
    new_game,
    parse_move,
)
from referee.schotten_totten_2.actions import ACTIONS, KINDS, OBSERVATION_LAYOUT, play_action
from referee.schotten_totten_2.determinize import determinize
from tests.schotten_totten_2.helpers import TACTICS, position
from tests.schotten_totten_2.test_determinize import random_position, tactic_position

RULES = [Rules(), Rules(tactics=True)]


def _canonical(move: Move) -> str:
    """A move's text with the order of its unordered parts made canonical."""
    if isinstance(move, Retreat):
        return str(Retreat(tuple(sorted(move.tiles))))
    if isinstance(move, Support):
        a, b = sorted(move.cards, key=KINDS.index)
        return str(Support((a, b)))
    if isinstance(move, (Exchange, ExchangeReply)):
        a, b, c = sorted(move.give, key=KINDS.index)
        return str(type(move)((a, b, c)))
    if isinstance(move, Shuffle):
        return "shuffle"
    return str(move)


def _check_mask(game: State) -> None:
    mask = ACTIONS.legal_action_mask(game)
    assert len(mask) == ACTIONS.num_actions
    moves = game.generate_legal_moves()
    assert mask == mask_of(ACTIONS, moves)
    ids = legal_actions(ACTIONS, game)
    assert len(ids) == len({_canonical(m) for m in moves})
    assert {_canonical(m) for m in moves} == {str(ACTIONS.move_of(a)) for a in ids}
    if game.phase is Phase.EXCHANGE and game.exchange is None:
        return  # the answering player's view: answered on the full state
    for action in ids:
        play_action(game, action)  # every masked id is playable


class TestActionIds:
    def test_the_space_follows_the_shared_protocol(self) -> None:
        assert isinstance(ACTIONS, ActionSpace)

    def test_every_id_round_trips(self) -> None:
        texts = set()
        for action in range(ACTIONS.num_actions):
            move = ACTIONS.move_of(action)
            assert ACTIONS.action_of(move) == action
            assert ACTIONS.action_of(parse_move(str(move))) == action
            texts.add(str(move))
        assert len(texts) == ACTIONS.num_actions

    def test_ids_out_of_range_are_refused(self) -> None:
        with pytest.raises(ValueError, match=r"no action 114764: ids are whole numbers 0-114763"):
            ACTIONS.move_of(ACTIONS.num_actions)
        with pytest.raises(ValueError, match=r"no action -1"):
            ACTIONS.move_of(-1)
        with pytest.raises(ValueError, match=r"no action True"):
            ACTIONS.move_of(True)

    @pytest.mark.parametrize(
        ("text", "why"),
        [
            ("redeploy@1", "redeploy is not a card that lies at a tile"),
            ("R1@8", "there is no tile 8"),
            ("recruitment joker@1", "joker is not a siege card"),
            ("support R1,R1", "support takes two different cards"),
            ("exchange R1,R1,R2", "a card named twice"),
            ("give joker,joker,joker", "a card named twice"),
            ("give R1,R2,exchange", "the exchange card is never exchanged"),
        ],
    )
    def test_moves_that_cannot_happen_have_no_id(self, text: str, why: str) -> None:
        with pytest.raises(ValueError, match=f"move {text!r} has no action id: {why}"):
            ACTIONS.action_of(parse_move(text))

    def test_orders_that_carry_no_information_are_one_id(self) -> None:
        pairs = [
            ("retreat 5,2,7", "retreat 2,5,7"),
            ("support B7,R3", "support R3,B7"),
            ("exchange spy,B4,joker", "exchange B4,joker,spy"),
            ("give joker,R1,joker", "give R1,joker,joker"),
            ("give joker,support,joker", "give joker,joker,support"),
            ("shuffle 4,17", "shuffle"),
        ]
        for text, canonical in pairs:
            action = ACTIONS.action_of(parse_move(text))
            assert str(ACTIONS.move_of(action)) == canonical
            assert ACTIONS.action_of(parse_move(canonical)) == action

    @settings(max_examples=40, deadline=None)
    @given(rules=st.sampled_from(RULES), seed=st.integers(0, 10_000), plies=st.integers(0, 200))
    def test_the_mask_is_the_legal_moves(self, rules: Rules, seed: int, plies: int) -> None:
        _check_mask(random_position(rules, seed, plies))

    @pytest.mark.parametrize("wanted", [Phase.SHUFFLE, Phase.EXCHANGE, "exchange", "support"])
    def test_the_mask_is_the_legal_moves_around_tactics(self, wanted: Phase | str) -> None:
        found = 0
        for seed in range(40):
            game = tactic_position(seed, wanted)
            if game is not None:
                found += 1
                _check_mask(game)
                _check_mask(game.view(game.to_move))
        assert found >= 5

    def test_a_chance_ply_masks_the_shuffle_id_and_plays_the_dealt_places(self) -> None:
        state = position(discards="R5 Y6", hands=("support", ""), rules=TACTICS)
        supported = state.play("support R5,Y6")
        ids = legal_actions(ACTIONS, supported)
        assert ids == [ACTIONS.action_of(Shuffle())]
        after = play_action(supported, ids[0])
        assert after == supported.play(supported.legal_moves()[0])
        view = supported.view(0)
        assert play_action(view, ids[0]) == view.play("shuffle")

    def test_a_finished_game_masks_everything(self) -> None:
        assert sum(ACTIONS.legal_action_mask(new_game(seed=1).resign(0))) == 0


class TestObservation:
    def test_the_layout_tiles_the_observation(self) -> None:
        at = 0
        for _name, start, length in OBSERVATION_LAYOUT:
            assert start == at
            at += length
        assert at == ACTIONS.observation_size == len(ACTIONS.observation(new_game(seed=1), 0))

    @settings(max_examples=40, deadline=None)
    @given(
        rules=st.sampled_from(RULES),
        seed=st.integers(0, 10_000),
        plies=st.integers(0, 200),
        player=st.sampled_from([0, 1]),
    )
    def test_it_holds_nothing_the_player_may_not_see(
        self, rules: Rules, seed: int, plies: int, player: int
    ) -> None:
        game = random_position(rules, seed, plies)
        seen = ACTIONS.observation(game, player)
        assert seen == ACTIONS.observation(game.view(player), player)
        # Any other deal of the unseen cards looks the same to this player.
        other = determinize(game.view(player), random.Random(seed))
        assert ACTIONS.observation(other, player) == seen
        assert all(0 <= x <= 60 for x in seen)

    def test_the_answering_player_does_not_see_the_offer(self) -> None:
        game = position(hands=("exchange R1 R2 R3 R4", "Y1 Y2 Y3 spy"), rules=TACTICS)
        one = game.play("exchange R1,R2,R3")
        two = game.play("exchange R2,R3,R4")
        assert ACTIONS.observation(one, 1) == ACTIONS.observation(two, 1)
        assert ACTIONS.observation(one, 0) != ACTIONS.observation(two, 0)
        starts = {name: start for name, start, _length in OBSERVATION_LAYOUT}
        offer = starts["the exchange offer, when I see it: copies of each kind"]
        assert ACTIONS.observation(one, 0)[offer + KINDS.index(parse_move("R1@1").card)] == 1

    def test_it_shows_my_hand_and_my_role(self) -> None:
        game = new_game(seed=1, attacker=1)
        seen = ACTIONS.observation(game, 0)
        _name, start, length = OBSERVATION_LAYOUT[0]
        assert sum(seen[start : start + length]) == 6
        assert all(seen[start + KINDS.index(card)] == 1 for card in game.hands[0] or ())
        starts = {name: start for name, start, _length in OBSERVATION_LAYOUT}
        assert seen[starts["I am the attacker"]] == 0
        assert ACTIONS.observation(game, 1)[starts["I am the attacker"]] == 1

    def test_it_shows_the_card_oil_would_take(self) -> None:
        game = position({2: ("R1 R2", "")}, to_move=1)
        starts = {name: start for name, start, _length in OBSERVATION_LAYOUT}
        first = starts[
            "attacker's first card at each tile (what oil takes): tile-major, one-hot kind"
        ]
        seen = ACTIONS.observation(game, 1)
        block = seen[first + 63 : first + 2 * 63]  # tile 2
        assert block[KINDS.index(parse_move("R1@1").card)] == 1 and sum(block) == 1


class TestSearchFromAView:
    @settings(max_examples=10, deadline=None)
    @given(rules=st.sampled_from(RULES), seed=st.integers(0, 10_000), plies=st.integers(0, 150))
    def test_a_bot_determinizes_its_view_and_plays_ids_to_the_end(
        self, rules: Rules, seed: int, plies: int
    ) -> None:
        game = random_position(rules, seed, plies)
        rng = random.Random(seed)
        sample = determinize(game.view(game.to_move), rng)
        while not sample.is_game_over():
            ids = legal_actions(ACTIONS, sample)
            assert ids
            sample = play_action(sample, rng.choice(ids))
        assert sum(ACTIONS.legal_action_mask(sample)) == 0
