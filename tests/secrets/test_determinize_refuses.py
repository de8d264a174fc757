"""``determinize`` refuses what is not a view or state of its own game, alike in
every game: a ``TypeError`` that names what it got (issue #22)."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

from referee import clans_and_glory as cg
from referee import schotten_totten as st
from referee import schotten_totten_2 as st2

GAMES: dict[str, Any] = {
    "Schotten Totten": (st, lambda: st.new_game(seed=1)),
    "Schotten Totten 2": (st2, lambda: st2.new_game(seed=1)),
    "Clans and Glory": (cg, lambda: cg.new_game(players=3, seed=1)),
}


def _determinize(module: Any) -> Any:
    return importlib.import_module(module.__name__ + ".determinize").determinize


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("other", sorted(GAMES))
def test_another_games_view_is_refused_by_name(game: str, other: str) -> None:
    module, _ = GAMES[game]
    other_module, deal = GAMES[other]
    determinize = _determinize(module)
    state = deal()
    if other == game:
        for viewer in (0, None):
            view = state.view(viewer)
            assert determinize(view, random.Random(1)).view(viewer) == view
        # a full state hides nothing: every card stays where it is
        assert determinize(state, random.Random(1)).hands == state.hands
        return
    for view in (state, state.view(0), state.view(None)):
        with pytest.raises(TypeError) as refused:
            determinize(view, random.Random(1))
        assert str(refused.value).startswith(f"determinize takes a {game} view")
        assert f"not a {type(view).__module__}.{type(view).__qualname__}" in str(refused.value)
        assert other_module.__name__ in str(refused.value)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("bad", [None, 7, "R7", {"hands": []}, object()])
def test_what_is_no_view_is_refused(game: str, bad: object) -> None:
    determinize = _determinize(GAMES[game][0])
    with pytest.raises(
        TypeError,
        match=rf"^determinize takes a {game} view \(state\.view\(player\)\) or state, not ",
    ):
        determinize(bad, random.Random(1))
