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
    "clans-and-glory 2": lambda m, seed: m.new_game(2, seed=seed),
    "clans-and-glory 4": lambda m, seed: m.new_game(4, seed=seed),
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
    if case.startswith("clans-and-glory") and game.moves:
        with pytest.raises(ValueError, match="cannot be written as a record"):
            full.to_record()
        return
    report = validate(full.to_record())
    assert report.legal, report.summary()
