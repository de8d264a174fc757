"""PettingZoo's own conformance tests, for every game, variant and player count.

``api_test``, ``seed_test``, ``render_test``, ``state_test``, ``parallel_api_test``
and ``parallel_seed_test``, each with the action mask in the observation (the
classic environments' way) and in the info. Every warning they give fails the
test, but for the two that PettingZoo 1.27 gives any environment with a ``Dict``
observation whose name is not on its own list of classic environments (PettingZoo
has since removed both: Farama-Foundation/PettingZoo#1391).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test
from pettingzoo.test.state_test import state_test

from referee import schotten_totten as st
from referee import schotten_totten_2 as st2
from referee.env import clans_and_glory_v0, schotten_totten_2_v0, schotten_totten_v0

#: (module, its arguments): every game, variant and player count.
GAMES: dict[str, tuple[ModuleType, dict[str, Any]]] = {
    "schotten-totten 2024": (schotten_totten_v0, {}),
    "schotten-totten 1999": (schotten_totten_v0, {"rules": st.Rules(edition="1999")}),
    "schotten-totten tactics": (schotten_totten_v0, {"rules": st.Rules(tactics=True)}),
    "schotten-totten-2": (schotten_totten_2_v0, {}),
    "schotten-totten-2 tactics": (schotten_totten_2_v0, {"rules": st2.Rules(tactics=True)}),
    "clans-and-glory 2": (clans_and_glory_v0, {"players": 2}),
    "clans-and-glory 3": (clans_and_glory_v0, {"players": 3}),
    "clans-and-glory 4": (clans_and_glory_v0, {"players": 4}),
}
PLACES = ["observation", "info"]

#: What PettingZoo 1.27's api_test says of any Dict observation not on its list.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@contextmanager
def no_warnings(allowed: set[str] = frozenset()) -> Iterator[None]:  # type: ignore[assignment]
    """Fail on any warning raised inside, but those in ``allowed``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = sorted({str(w.message) for w in caught} - allowed)
    assert unexpected == []


def maker(game: str, place: str, **more: Any) -> Callable[..., Any]:
    module, arguments = GAMES[game]
    return lambda **given: module.env(action_mask_in=place, **arguments, **more, **given)


def parallel_maker(game: str, place: str, **more: Any) -> Callable[..., Any]:
    module, arguments = GAMES[game]
    return lambda **given: module.parallel_env(action_mask_in=place, **arguments, **more, **given)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_api_test(game: str, place: str) -> None:
    allowed = DICT_OBSERVATION_WARNINGS if place == "observation" else set()
    with no_warnings(allowed):
        api_test(maker(game, place)(), num_cycles=60)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("game", ["schotten-totten tactics", "clans-and-glory 3"])
def test_api_test_with_a_ply_limit(game: str, place: str) -> None:
    # api_test plays to the end of several games: with max_plies=9 each is cut
    allowed = DICT_OBSERVATION_WARNINGS if place == "observation" else set()
    with no_warnings(allowed):
        api_test(maker(game, place, max_plies=9)(), num_cycles=60)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_seed_test(game: str, place: str) -> None:
    with no_warnings():
        seed_test(maker(game, place), num_cycles=60)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_render_test(game: str) -> None:
    with no_warnings():
        render_test(maker(game, "observation"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_state_test(game: str) -> None:
    with no_warnings():
        state_test(maker(game, "observation")(), parallel_maker(game, "observation")())


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_parallel_api_test(game: str, place: str) -> None:
    with no_warnings():
        parallel_api_test(parallel_maker(game, place)(), num_cycles=400)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_parallel_api_test_with_a_ply_limit(game: str) -> None:
    with no_warnings():
        parallel_api_test(parallel_maker(game, "observation", max_plies=12)(), num_cycles=60)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_parallel_seed_test(game: str) -> None:
    with no_warnings():
        parallel_seed_test(parallel_maker(game, "observation"), num_cycles=60)
