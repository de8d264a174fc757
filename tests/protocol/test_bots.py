"""One bot loop for every game: view, determinize, search forward by action ids.

Issue 15's "done when": a bot takes its view, samples a full state from it, and
plays ids and masks forward to the end, the same way in every game. Each game's
package has ``determinize.determinize(view, rng)`` and ``actions.action_space(state)``,
and every action space has ``play(state, id)``.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.actions import ActionSpace, legal_actions
from referee.records import validate

# game package, how to deal a game from a seed
GAMES: dict[str, Any] = {
    "schotten-totten": lambda m, seed: m.new_game(seed=seed),
    "schotten-totten tactics": lambda m, seed: m.new_game(seed=seed, rules=m.Rules(tactics=True)),
    "schotten-totten-2": lambda m, seed: m.new_game(seed=seed),
    "schotten-totten-2 tactics": lambda m, seed: m.new_game(seed=seed, rules=m.Rules(tactics=True)),
    "clans-and-glory 2": lambda m, seed: m.new_game(players=2, seed=seed),
    "clans-and-glory 4": lambda m, seed: m.new_game(players=4, seed=seed),
}


def _package(case: str) -> str:
    return "referee." + case.split()[0].replace("-", "_")


def _is_over(state: Any) -> bool:
    return bool(state.is_game_over())


@pytest.mark.parametrize("case", sorted(GAMES))
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 60))
def test_a_bot_plays_from_its_view_by_ids_to_the_end(case: str, seed: int, plies: int) -> None:
    package = importlib.import_module(_package(case))
    actions = importlib.import_module(_package(case) + ".actions")
    determinize = importlib.import_module(_package(case) + ".determinize").determinize
    rng = random.Random(seed)
    game = GAMES[case](package, seed)
    for _ in range(plies):
        if _is_over(game):
            break
        game = game.play(rng.choice(game.generate_legal_moves()))
    if _is_over(game):
        return
    me = game.to_move
    view = game.view(me)
    space = actions.action_space(view)
    assert isinstance(space, ActionSpace)
    assert actions.action_space(game) is space
    full = determinize(view, rng)
    assert full.view(me) == view
    # The real game's legal ids are the sampled state's for the player to move:
    # they depend on its own hand and the table only.
    assert legal_actions(space, full) == legal_actions(space, game)
    for _ in range(3000):
        if _is_over(full):
            break
        ids = legal_actions(space, full)
        assert ids, "a running game has a legal id"
        full = space.play(full, rng.choice(ids))
    assert _is_over(full)
    # What was played is a legal game the validator accepts: a public record from
    # the view's history (Schotten Totten games), a full record from the deal
    # (Clans and Glory, whose views carry no history: only from the start).
    if case.startswith("clans-and-glory") and game.history:
        with pytest.raises(ValueError, match="cannot be written as a record"):
            full.to_record()
        return
    report = validate(full.to_record())
    assert report.legal, report.summary()


def _spaces() -> list[tuple[str, Any, Any]]:
    """(case, a running game, its action space) for every game."""
    out = []
    for case in sorted(GAMES):
        package = importlib.import_module(_package(case))
        actions = importlib.import_module(_package(case) + ".actions")
        game = GAMES[case](package, 3)
        out.append((case, game, actions.action_space(game)))
    return out


@pytest.mark.parametrize(("case", "game", "space"), _spaces(), ids=[c for c, _, _ in _spaces()])
def test_every_space_takes_the_same_ids_and_players(case: str, game: Any, space: Any) -> None:
    np = pytest.importorskip("numpy")
    ids = legal_actions(space, game)
    first = ids[0]
    # numpy integers are ids, as np.flatnonzero(mask) gives them
    assert space.move_of(np.int64(first)) == space.move_of(first)
    assert space.play(game, np.int64(first)) == space.play(game, first)
    for bad in (True, 1.0, "5", None, -1, space.num_actions):
        with pytest.raises(ValueError, match=rf"no action {bad!r}: ids are whole numbers"):
            space.move_of(bad)
    assert space.observation(game, np.int64(0)) == space.observation(game, 0)
    for bad in (None, True, -1, 7, "0"):
        with pytest.raises(ValueError, match=rf"no player {bad!r}: an observation is a player"):
            space.observation(game, bad)
    layout = space.observation_layout
    assert layout[0][1] == 0 and sum(length for _, _, length in layout) == space.observation_size
    assert isinstance(space, ActionSpace)


@pytest.mark.parametrize(("case", "game", "space"), _spaces(), ids=[c for c, _, _ in _spaces()])
def test_rewards_go_to_the_winners_at_the_end_only(case: str, game: Any, space: Any) -> None:
    players = game.num_players
    assert space.rewards(game) == (0.0,) * players
    rng = random.Random(1)
    while not game.is_game_over():
        game = space.play(game, rng.choice(legal_actions(space, game)))
    rewards = space.rewards(game)
    assert len(rewards) == players and set(rewards) <= {-1.0, 0.0, 1.0}
    winner = game.outcome.winner
    if winner is not None:
        assert rewards[winner] == 1.0 and sum(rewards) == 1.0 - (players - 1)
    resigned = GAMES[case](importlib.import_module(_package(case)), 4).resign(0)
    expected = (-1.0, 1.0) if players == 2 else (-1.0,) + (0.0,) * (players - 1)
    assert space.rewards(resigned) == expected


@pytest.mark.parametrize(("case", "game", "space"), _spaces(), ids=[c for c, _, _ in _spaces()])
def test_determinize_takes_a_random_and_a_full_state(case: str, game: Any, space: Any) -> None:
    determinize = importlib.import_module(_package(case) + ".determinize").determinize
    view = game.view(game.to_move)
    for bad in (7, None, "seed"):
        with pytest.raises(TypeError, match=r"expected a random\.Random"):
            determinize(view, bad)
    # A full state hides no card: the sample keeps every card where it is.
    full = determinize(game, random.Random(0))
    assert full.view(0) == game.view(0) and full.view(1) == game.view(1)
    assert space.observation(full, 0) == space.observation(game, 0)


@pytest.mark.parametrize(("case", "game", "space"), _spaces(), ids=[c for c, _, _ in _spaces()])
def test_only_the_mover_has_a_mask(case: str, game: Any, space: Any) -> None:
    """A state that hides the mover's hand (the other player's view, a
    spectator's) has an empty mask in every game: only the mover knows its moves."""
    mover = game.to_move
    assert space.legal_action_mask(game.view(mover)) == space.legal_action_mask(game)
    for other in (None, *(p for p in range(game.num_players) if p != mover)):
        assert not any(space.legal_action_mask(game.view(other)))


@pytest.mark.parametrize(("case", "game", "space"), _spaces(), ids=[c for c, _, _ in _spaces()])
def test_every_view_speaks_the_view_protocol(case: str, game: Any, space: Any) -> None:
    from referee.game import GameView

    over = game.resign(0)
    for state in (game, over):
        for viewer in (None, *range(state.num_players)):
            view = state.view(viewer)
            assert isinstance(view, GameView)
            assert view.is_game_over() == state.is_game_over()
            assert view.num_players == state.num_players
            assert view.outcome == state.outcome
