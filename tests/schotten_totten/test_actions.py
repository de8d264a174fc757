"""Schotten Totten's action space: ids, masks and observations."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.actions import ActionSpace, legal_actions, mask_of
from referee.schotten_totten import Rules, new_game, parse_move
from referee.schotten_totten.actions import ACTIONS, KINDS, OBSERVATION_LAYOUT
from referee.schotten_totten.determinize import determinize
from referee.schotten_totten.moves import PutBack, Recruit
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


def _canonical(move: object) -> str:
    if isinstance(move, Recruit):
        return str(Recruit(tuple(sorted(move.draws))))
    if isinstance(move, PutBack):
        return str(PutBack(tuple(sorted(move.cards, key=KINDS.index))))  # type: ignore[arg-type]
    return str(move)


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
        with pytest.raises(ValueError, match=r"no action 13281: ids are whole numbers 0-13280"):
            ACTIONS.move_of(ACTIONS.num_actions)
        with pytest.raises(ValueError, match=r"no action -1"):
            ACTIONS.move_of(-1)

    def test_hidden_recruiter_returns_have_no_id(self) -> None:
        move = parse_move("return clan clan")
        with pytest.raises(ValueError, match=r"'return clan clan' has no action id"):
            ACTIONS.action_of(move)

    def test_the_one_move_recruiter_of_old_records_has_no_id(self) -> None:
        move = parse_move("recruiter draw clan clan clan return R1 R2")
        with pytest.raises(ValueError, match="the recruiter is two moves"):
            ACTIONS.action_of(move)

    def test_the_recruiters_order_is_one_decision(self) -> None:
        draws = parse_move("recruiter draw tactic clan")
        assert str(ACTIONS.move_of(ACTIONS.action_of(draws))) == "recruiter draw clan tactic"
        one, two = parse_move("return R7 joker"), parse_move("return joker R7")
        assert ACTIONS.action_of(one) == ACTIONS.action_of(two)
        assert str(ACTIONS.move_of(ACTIONS.action_of(one))) == "return R7 joker"

    @settings(max_examples=40, deadline=None)
    @given(rules=st.sampled_from(RULES), seed=st.integers(0, 10_000), plies=st.integers(0, 150))
    def test_the_mask_is_the_legal_moves(self, rules: Rules, seed: int, plies: int) -> None:
        game = _random_position(rules, seed, plies)
        mask = ACTIONS.legal_action_mask(game)
        assert len(mask) == ACTIONS.num_actions
        moves = game.generate_legal_moves()
        assert mask == mask_of(ACTIONS, moves)
        assert {_canonical(m) for m in moves} == {
            str(ACTIONS.move_of(a)) for a in legal_actions(ACTIONS, game)
        }
        for action in legal_actions(ACTIONS, game):
            game.play(ACTIONS.move_of(action))  # every masked id is playable

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
        plies=st.integers(0, 150),
        player=st.sampled_from([0, 1]),
    )
    def test_it_holds_nothing_the_player_may_not_see(
        self, rules: Rules, seed: int, plies: int, player: int
    ) -> None:
        game = _random_position(rules, seed, plies)
        seen = ACTIONS.observation(game, player)
        assert seen == ACTIONS.observation(game.view(player), player)
        # Any other deal of the unseen cards looks the same to this player.
        other = determinize(game.view(player), random.Random(seed))
        assert ACTIONS.observation(other, player) == seen
        assert all(0 <= x <= 60 for x in seen)

    def test_it_shows_my_hand(self) -> None:
        game = new_game(seed=1)
        seen = ACTIONS.observation(game, 0)
        _name, start, length = OBSERVATION_LAYOUT[0]
        assert sum(seen[start : start + length]) == 6
        assert all(seen[start + KINDS.index(card)] == 1 for card in game.hands[0] or ())

    def test_it_shows_who_completed_a_side_first(self) -> None:
        from referee.schotten_totten import CLAN_CARDS

        game = new_game(deck=CLAN_CARDS.cards)
        for text in ["R1@1", "draw", "R7@1", "draw", "R2@1", "draw", "R8@1", "draw", "R3@1"]:
            game = game.play(text)
        starts = {name: start for name, start, _length in OBSERVATION_LAYOUT}
        mine = starts["my side completed first (ties go to it)"]
        theirs = starts["opponent's side completed first"]
        seen0, seen1 = ACTIONS.observation(game, 0), ACTIONS.observation(game, 1)
        assert (seen0[mine], seen0[theirs]) == (1, 0)
        assert (seen1[mine], seen1[theirs]) == (0, 1)


class TestSearchFromAView:
    @settings(max_examples=10, deadline=None)
    @given(rules=st.sampled_from(RULES), seed=st.integers(0, 10_000), plies=st.integers(0, 100))
    def test_a_bot_determinizes_its_view_and_plays_ids_to_the_end(
        self, rules: Rules, seed: int, plies: int
    ) -> None:
        game = _random_position(rules, seed, plies)
        rng = random.Random(seed)
        sample = determinize(game.view(game.to_move), rng)
        while not sample.is_game_over():
            ids = legal_actions(ACTIONS, sample)
            assert ids
            sample = sample.play(ACTIONS.move_of(rng.choice(ids)))
        assert sum(ACTIONS.legal_action_mask(sample)) == 0
