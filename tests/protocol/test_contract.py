"""One contract, tested once for every game and variant (issue 24, point 6).

Every game spells each concept one way (``num_players``, ``is_game_over()``,
``history``, ``outcome``), takes ``new_game`` arguments as keywords, gives views
that are states of its own type, checks positions with ``status()``, names every
winner in ``outcome.winners``, refuses a bad seed with the same error, answers
``refusal()``, ``chance_outcomes()``, ``is_chance_node()`` and ``visible_cards()``
(a ``Counter``) alike, and keeps ``legal_moves()``, ``is_legal()``, ``play()``,
``history`` and ``to_record()`` in agreement.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from referee import clans_and_glory as cg
from referee import schotten_totten as st
from referee import schotten_totten_2 as st2
from referee.clans_and_glory.actions import action_space
from referee.errors import IllegalMoveError, InvalidDealError, InvalidMoveError
from referee.game import ClaimGame, GameState, Outcome, Termination
from referee.records import parse_record, replay, validate

#: Every game and variant: how to deal it from keywords.
VARIANTS: dict[str, Callable[..., Any]] = {
    "schotten-totten 2024": lambda **kw: st.new_game(**kw),
    "schotten-totten 1999": lambda **kw: st.new_game(rules=st.Rules("1999"), **kw),
    "schotten-totten tactics": lambda **kw: st.new_game(rules=st.Rules(tactics=True), **kw),
    "schotten-totten early bird": lambda **kw: st.new_game(rules=st.Rules(early_bird=True), **kw),
    "schotten-totten-2": lambda **kw: st2.new_game(**kw),
    "schotten-totten-2 tactics": lambda **kw: st2.new_game(rules=st2.Rules(tactics=True), **kw),
    "clans-and-glory 2": lambda **kw: cg.new_game(players=2, **kw),
    "clans-and-glory 3": lambda **kw: cg.new_game(players=3, **kw),
    "clans-and-glory 4": lambda **kw: cg.new_game(players=4, **kw),
}
MODULES = {"schotten-totten": st, "schotten-totten-2": st2, "clans-and-glory": cg}


def module_of(variant: str) -> Any:
    return MODULES[variant.split()[0]]


def states_of(variant: str, seed: int, plies: int = 400) -> list[Any]:
    """A game of ``variant`` dealt from ``seed``, every state of it (random legal moves)."""
    state, rng = VARIANTS[variant](seed=seed), random.Random(seed)
    states = [state]
    while not state.is_game_over() and len(states) <= plies:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


variants = pytest.mark.parametrize("variant", sorted(VARIANTS))


# --- names -------------------------------------------------------------------------------


@variants
def test_one_name_per_concept(variant: str) -> None:
    state = VARIANTS[variant](seed=1)
    assert isinstance(state, GameState)
    assert isinstance(state.num_players, int) and isinstance(state.to_move, int)
    assert state.is_game_over() is False and state.outcome is None and state.history == ()
    for second_spelling in ("is_over", "moves", "ended", "players", "hand", "viewer"):
        assert not hasattr(state, second_spelling), second_spelling
    module = module_of(variant)
    assert not hasattr(module, "View") and not hasattr(module, "HiddenCard")


@pytest.mark.parametrize("module", [st, st2, cg])
def test_new_game_takes_keywords_and_refuses_a_bad_seed_alike(module: Any) -> None:
    assert module.new_game(seed=3) == module.new_game(seed=3)
    with pytest.raises(TypeError):
        module.new_game(3)
    for seed in (1.5, "7", True):
        with pytest.raises(InvalidDealError) as refused:
            module.new_game(seed=seed)
        assert type(refused.value) is InvalidDealError and isinstance(refused.value, ValueError)
        assert repr(seed) in str(refused.value)


# --- views and positions -----------------------------------------------------------------


@variants
@pytest.mark.parametrize("seed", [1, 2])
def test_views_are_states_of_the_same_type(variant: str, seed: int) -> None:
    for state in states_of(variant, seed)[::7]:
        players = state.num_players
        for viewer in (*range(players), None):
            view = state.view(viewer)
            assert type(view) is type(state)
            hands = view.hands
            assert [hands[p] is None for p in range(players)] == [
                p != viewer for p in range(players)
            ]
            assert view.num_players == players and view.to_move == state.to_move
            assert view.outcome == state.outcome and view.is_game_over() == state.is_game_over()
            assert view.status() == () and view.view(viewer) == view
            if viewer == state.to_move and not state.is_chance_node():
                # the mover sees all it needs to list its moves
                assert list(view.legal_moves()) == list(state.legal_moves())


@variants
def test_every_state_of_a_game_passes_status(variant: str) -> None:
    for state in states_of(variant, 3)[::3]:
        assert state.status() == () and isinstance(state.status(), tuple)


# --- the end -----------------------------------------------------------------------------


@variants
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_outcome_winners_names_every_winner(variant: str, seed: int) -> None:
    final = states_of(variant, seed)[-1]
    outcome = final.outcome
    assert isinstance(outcome, Outcome) and isinstance(outcome.winners, tuple)
    if outcome.winner is not None:
        assert outcome.winners == (outcome.winner,)
    else:
        assert len(outcome.winners) != 1
    assert set(outcome.winners) <= set(range(final.num_players))
    if outcome.scores is not None and outcome.winners:
        best = max(outcome.scores)
        assert all(outcome.scores[p] == best for p in outcome.winners)


@variants
def test_a_referees_end_names_its_winners(variant: str) -> None:
    game = VARIANTS[variant](seed=1)
    resigned = game.resign(0)
    assert resigned.outcome.winners == ((1,) if game.num_players == 2 else ())
    assert game.end(Termination.PLY_LIMIT).outcome.winners == ()


@pytest.mark.parametrize(("variant", "seed"), [("clans-and-glory 3", 21), ("clans-and-glory 4", 5)])
def test_a_shared_clans_and_glory_win_names_every_winner(variant: str, seed: int) -> None:
    final = states_of(variant, seed)[-1]
    assert final.outcome.termination is Termination.SHARED and final.outcome.winner is None
    sheet = final.score()
    assert final.outcome.winners == sheet.winners and len(sheet.winners) >= 2
    rewards = action_space(final).rewards(final)
    assert [p for p, r in enumerate(rewards) if r > 0] == list(sheet.winners)


# --- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize("module", [st, st2])
@pytest.mark.parametrize("player", ["x", 2, -1, True, 1.0])
def test_claim_verdict_refuses_a_player_that_is_not_there(module: Any, player: Any) -> None:
    game = module.new_game(seed=1)
    assert isinstance(game, ClaimGame)
    with pytest.raises(ValueError, match="no player"):
        game.claim_verdict(1, player=player)


# --- chance, visible cards, refusals ------------------------------------------------------


@variants
def test_chance_methods_and_visible_cards(variant: str) -> None:
    for state in states_of(variant, 7)[::5]:
        chance = state.is_chance_node()
        assert chance is False or chance is True
        outcomes = state.chance_outcomes()
        assert isinstance(outcomes, list) and (outcomes == []) is (not chance)
        if outcomes:
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        seen = state.visible_cards()
        assert type(seen) is Counter and all(n >= 1 for n in seen.values())
        assert state.view(None).visible_cards() == seen  # what every player sees


@variants
@pytest.mark.parametrize("seed", [8, 9])
def test_legal_moves_is_legal_play_and_refusal_agree(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    for state in states_of(variant, seed)[::4]:
        legal = state.legal_moves()
        listed = list(legal)
        assert len(legal) == legal.count() == len(listed) == len(state.generate_legal_moves())
        assert listed == state.generate_legal_moves() and bool(legal) == bool(listed)
        for move in rng.sample(listed, min(len(listed), 5)):
            assert move in legal and state.is_legal(move) and state.is_legal(str(move))
            assert state.refusal(move) is None and state.refusal(str(move)) is None
            assert state.play(str(move)) == state.play(move)
        if not state.is_game_over():
            other = (state.to_move + 1) % state.num_players
            refused = state.refusal(listed[0], player=other)
            assert isinstance(refused, IllegalMoveError) and refused.reason == "not_your_turn"
            assert not state.is_legal(listed[0], player=other)
        else:
            assert listed == []
        # a move of the right shape that is not legal: the refusal is the error play raises
        for text in _candidates(state, listed):
            try:
                refused = state.refusal(text)
            except InvalidMoveError:  # not even a move of this game
                continue
            if refused is None:
                continue
            assert not state.is_legal(text)
            with pytest.raises(IllegalMoveError) as raised:
                state.play(text)
            assert (raised.value.reason, str(raised.value)) == (refused.reason, str(refused))
        with pytest.raises(InvalidMoveError):
            state.refusal("not a move at all")
        assert state.is_legal("not a move at all") is False


def _candidates(state: Any, legal: list[Any]) -> list[str]:
    """Move texts near the legal ones: another place, options changed."""
    out = []
    for move in legal[:3]:
        text = str(move)
        out += [text.replace("@1", "@2"), text.replace("@t1", "@t2"), text + "+shield"]
        out += [text.replace("+down", ""), text.replace("s1", "s2")]
    out += ["draw", "done", "pass", "claim 1", "control 1"]
    return out


# --- history and records -----------------------------------------------------------------


@variants
@pytest.mark.parametrize("seed", [10, 11])
def test_history_and_records_round_trip(variant: str, seed: int) -> None:
    states = states_of(variant, seed)
    for state in (states[len(states) // 2], states[-1]):
        record = state.to_record()
        assert record.moves == tuple(str(m) for m in state.history)
        assert validate(record).legal
        again = replay(parse_record(record.to_json()))
        assert again.history == state.history and again.outcome == state.outcome
        for player in range(state.num_players):  # the same position for every player
            assert again.view(player) == state.view(player)
