"""Every action space refuses another game's state or view with one TypeError.

For every pair of games (and a few things that are no game's state at all),
``observation``, ``rewards``, ``legal_action_mask`` and ``play`` raise the same
``TypeError``: ``the <game> action space takes a <game> state or view, not
<type>``. Before, ``observation`` raised ``KeyError`` or ``AttributeError``
and ``rewards`` answered for the other game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from referee import clans_and_glory, schotten_totten, schotten_totten_2
from referee.actions import ActionSpace
from referee.clans_and_glory.actions import ACTIONS as CLANS_ACTIONS
from referee.schotten_totten.actions import ACTIONS as ST_ACTIONS
from referee.schotten_totten_2.actions import ACTIONS as ST2_ACTIONS

#: Each game: its title, its action space, and a state part-way through a game.
GAMES: dict[str, tuple[str, ActionSpace, Callable[[], Any]]] = {
    "schotten-totten": ("Schotten Totten", ST_ACTIONS, lambda: schotten_totten.new_game(seed=3)),
    "schotten-totten-2": (
        "Schotten Totten 2",
        ST2_ACTIONS,
        lambda: schotten_totten_2.new_game(seed=3),
    ),
    "clans-and-glory": (
        "Clans and Glory",
        CLANS_ACTIONS[2],
        lambda: clans_and_glory.new_game(players=2, seed=3),
    ),
}


def played(state: Any, plies: int = 6) -> Any:
    """``state`` after a few legal moves (the first legal move each time)."""
    for _ in range(plies):
        if state.outcome is not None:
            break
        state = state.play(state.legal_moves()[0])
    return state


def samples(game: str) -> list[tuple[str, Any]]:
    """States and views of ``game``: at the start, part-way, and a player's view."""
    state = played(GAMES[game][2]())
    return [
        ("start", GAMES[game][2]()),
        ("played", state),
        ("view of player 1", state.view(0)),
        ("view of player 2", state.view(1)),
    ]


CALLS: dict[str, Callable[[ActionSpace, Any], object]] = {
    "observation": lambda space, state: space.observation(state, 0),
    "rewards": lambda space, state: space.rewards(state),
    "legal_action_mask": lambda space, state: space.legal_action_mask(state),
    "play": lambda space, state: space.play(state, 0),
}

PAIRS = [(space, other) for space in GAMES for other in GAMES if space != other]


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize(("space_game", "state_game"), PAIRS)
def test_another_games_state_or_view_is_refused_with_one_type_error(
    space_game: str, state_game: str, call: str
) -> None:
    title, space, _ = GAMES[space_game]
    for label, state in samples(state_game):
        kind = type(state)
        message = (
            f"the {title} action space takes a {title} state or view, "
            f"not {kind.__module__}.{kind.__qualname__}"
        )
        with pytest.raises(TypeError) as raised:
            CALLS[call](space, state)
        assert str(raised.value) == message, label
        assert not isinstance(raised.value, (KeyError, AttributeError, ValueError))


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("space_game", GAMES)
@pytest.mark.parametrize("thing", [None, 3, "R7@3", {"hands": [[], []]}, object()])
def test_what_is_no_games_state_is_refused_the_same_way(
    space_game: str, call: str, thing: object
) -> None:
    title, space, _ = GAMES[space_game]
    with pytest.raises(TypeError, match=re.escape(f"the {title} action space takes a {title}")):
        CALLS[call](space, thing)


@pytest.mark.parametrize("space_game", GAMES)
def test_the_games_own_states_and_views_are_taken(space_game: str) -> None:
    _, space, _ = GAMES[space_game]
    for label, state in samples(space_game):
        assert len(space.observation(state, 0 if label != "view of player 2" else 1)) == (
            space.observation_size
        )
        assert len(space.rewards(state)) == state.num_players
        assert len(space.legal_action_mask(state)) == space.num_actions
