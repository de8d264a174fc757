"""Contracts every game keeps, tested once for all of them (the bundled games
and Three Stones, the test game built on the kernel alone).

**States.** Every state, view and spectator's view keeps the ``GameState``
protocol (``status()`` and ``visible_cards()`` included), and a card in two
places never passes silently.

**Deals and determinization.** ``new_game`` refuses a seed that is not a whole
number, and a seed given with a card order, with an ``InvalidDealError``;
``determinize`` refuses what is not the game's view or state by type, and a
random source that is not a ``random.Random``.

**Playouts.** ``descriptor.playout(state, rng, policy=None, *, max_plies=None, trace=None)``
plays ``state`` to its end on the game's integer core (see docs/playout.md).
Every game answers it the same way: the same seed plays the same game and
leaves ``state`` as it was; a policy gets the legal ids in increasing order
and its pick is played, or refused when it is not legal; ``max_plies`` cuts
the game short with a ``ply_limit`` and no winner; a finished game is its
outcome; a view (hidden hands) is refused until determinized; a wrong
argument is refused by type, a bad ply limit by value. What each game plays
is checked move for move against its referee in its own ``test_playout.py``.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from referee.errors import InvalidDealError
from referee.game import GameState, Outcome, Termination
from referee.games import GameDescriptor, find_game
from tests.line_game.three_stones import GAME as THREE_STONES
from tests.played import random_plies

GAMES = [find_game(name) for name in ("schotten-totten", "schotten-totten-2", "clans-and-glory")]
ST, ST2, CG = GAMES
#: Every game under each of its rule sets (record rules, as ``deal`` takes them).
RULE_SETS: list[tuple[GameDescriptor[Any], dict[str, Any]]] = [
    *((ST, rules) for rules in ({}, {"edition": "1999"}, {"variants": ["tactics"]})),
    (ST, {"variants": ["early-bird"]}),
    (ST, {"variants": ["tactics", "early-bird"]}),
    *((ST2, rules) for rules in ({}, {"variants": ["tactics"]})),
    *((CG, {"players": players}) for players in (2, 3, 4)),
    (THREE_STONES, {}),
]


@pytest.fixture(params=[*GAMES, THREE_STONES], ids=lambda game: str(game.name))
def game(request: pytest.FixtureRequest) -> GameDescriptor[Any]:
    found: GameDescriptor[Any] = request.param
    assert found.playout is not None, f"{found.title} has no playout"
    return found


def _case_id(part: object) -> str:
    """A test id: a game's name, or its rules in short (``variants=tactics``)."""
    if isinstance(part, dict):
        return ",".join(f"{k}={'+'.join(v) if isinstance(v, list) else v}" for k, v in part.items())
    return str(getattr(part, "name", part))


def _position(
    game: GameDescriptor[Any], seed: int, plies: int, rules: dict[str, Any] | None = None
) -> Any:
    """A state ``plies`` random plies into a game the descriptor dealt (or its end)."""
    assert game.deal is not None
    rng = random.Random(seed)
    return random_plies(game.deal(rng, rules or {}), plies, rng, game.chance)


def _playout(game: GameDescriptor[Any], state: Any, *args: Any, **kwargs: Any) -> Outcome:
    assert game.playout is not None
    outcome = game.playout(state, *args, **kwargs)
    assert isinstance(outcome, Outcome)
    return outcome


@pytest.mark.parametrize(("game", "rules"), RULE_SETS, ids=_case_id)
@pytest.mark.parametrize(("seed", "plies"), [(1, 0), (2, 5), (3, 11)])
def test_the_same_seed_plays_the_same_game_and_leaves_the_state(
    game: GameDescriptor[Any], rules: dict[str, Any], seed: int, plies: int
) -> None:
    state = _position(game, seed, plies, rules)
    assert not state.is_game_over()
    before = pickle.dumps(state)
    first: list[int] = []
    again: list[int] = []
    outcome = _playout(game, state, random.Random(seed), trace=first)
    assert outcome == _playout(game, state, random.Random(seed), trace=again)
    assert first == again and first, "a game under way has plies left to play"
    assert outcome.termination is not Termination.PLY_LIMIT
    assert pickle.dumps(state) == before and state == pickle.loads(before)


def test_a_policy_gets_the_legal_ids_increasing_and_its_pick_is_played(
    game: GameDescriptor[Any],
) -> None:
    picks: list[int] = []

    def highest(core: object, legal: Sequence[int], rng: random.Random) -> int:
        assert list(legal) == sorted(set(legal)) and isinstance(rng, random.Random)
        picks.append(legal[-1])
        return legal[-1]

    trace: list[int] = []
    _playout(game, game.new_game(seed=4), random.Random(0), highest, trace=trace)  # type: ignore[misc]
    assert picks
    left = iter(trace)  # each pick was played, in order (chance plies between them aside)
    assert all(any(pick == played for played in left) for pick in picks)


@pytest.mark.parametrize("bad", [-1, 10**9, True, "0", "highest not legal"])
def test_a_policy_that_picks_an_illegal_id_is_refused(game: GameDescriptor[Any], bad: Any) -> None:
    state = game.new_game(seed=1)  # type: ignore[misc]
    assert game.action_space is not None
    ids = game.action_space(state).num_actions

    def policy(core: object, legal: Sequence[int], rng: random.Random) -> Any:
        if bad == "highest not legal":  # an action id of the game, but not legal here
            return next(a for a in range(ids - 1, -1, -1) if a not in legal)
        return bad

    with pytest.raises(ValueError, match="the policy chose"):
        _playout(game, state, random.Random(1), policy)


def test_max_plies_cuts_the_same_game_short_without_a_winner(game: GameDescriptor[Any]) -> None:
    state = game.new_game(seed=2)  # type: ignore[misc]
    cut: list[int] = []
    full: list[int] = []
    outcome = _playout(game, state, random.Random(2), max_plies=10, trace=cut)
    assert outcome == Outcome(Termination.PLY_LIMIT, None) and len(cut) == 10
    _playout(game, state, random.Random(2), trace=full)
    assert full[:10] == cut
    assert _playout(game, state, random.Random(2), max_plies=0).termination is Termination.PLY_LIMIT


@pytest.mark.parametrize("bad", [-1, True, 2.5, "3"])
def test_a_bad_ply_limit_is_refused(game: GameDescriptor[Any], bad: Any) -> None:
    with pytest.raises(ValueError, match=r"max_plies must be a whole number of plies or None"):
        _playout(game, game.new_game(seed=1), random.Random(1), max_plies=bad)  # type: ignore[misc]


def test_what_is_not_a_state_or_a_random_source_is_refused(game: GameDescriptor[Any]) -> None:
    with pytest.raises(TypeError, match=r"expected a random\.Random"):
        _playout(game, game.new_game(seed=1), 7)  # type: ignore[misc]
    with pytest.raises(TypeError, match="playout takes a"):
        _playout(game, "R7@3", random.Random(1))


def test_a_view_is_refused_until_determinized(game: GameDescriptor[Any]) -> None:
    state = game.new_game(seed=5)  # type: ignore[misc]
    with pytest.raises(ValueError, match="determinize"):
        _playout(game, state.view(1), random.Random(1))
    assert game.determinize is not None
    full = game.determinize(state.view(1), random.Random(1))
    assert _playout(game, full, random.Random(1)).termination is not Termination.PLY_LIMIT


def test_a_finished_game_is_its_outcome(game: GameDescriptor[Any]) -> None:
    ended = game.new_game(seed=5).resign(0)  # type: ignore[misc]
    trace: list[int] = []
    assert _playout(game, ended, random.Random(1), trace=trace) == ended.outcome
    assert trace == []


@pytest.mark.parametrize("bad", [1.0, "7", True, [1]])
def test_a_seed_that_is_not_a_whole_number_is_refused(game: GameDescriptor[Any], bad: Any) -> None:
    assert game.new_game is not None
    with pytest.raises(InvalidDealError, match="seed must be a whole number or None") as refused:
        game.new_game(seed=bad)
    assert refused.value.reason == "field_type"


def test_a_seed_and_a_card_order_together_are_refused(game: GameDescriptor[Any]) -> None:
    assert game.new_game is not None
    with pytest.raises(InvalidDealError, match=r"give a seed or .*, not both"):
        game.new_game(seed=1, deck=())


def test_determinize_refuses_what_is_not_the_games_view(game: GameDescriptor[Any]) -> None:
    assert game.determinize is not None and game.new_game is not None
    view = game.new_game(seed=1).view(0)
    with pytest.raises(TypeError, match=r"determinize takes a .* view \(state\.view\(player\)\)"):
        game.determinize("R7@3", random.Random(1))
    with pytest.raises(TypeError, match=r"expected a random\.Random"):
        game.determinize(view, 7)  # type: ignore[arg-type]


def test_every_state_keeps_the_game_state_protocol(game: GameDescriptor[Any]) -> None:
    final = _position(game, 6, 500)
    seen = final.visible_cards()
    assert isinstance(seen, Counter) and sum(seen.values()) > 0  # cards were played
    for state in (game.new_game(seed=6), final, final.view(0), final.view(None)):  # type: ignore[misc]
        assert isinstance(state, GameState)
        assert state.status() == ()
    # What every player sees is the same in every view of the position.
    assert final.view(0).visible_cards() == final.view(None).visible_cards() == seen


def test_a_card_in_two_places_never_passes_silently(game: GameDescriptor[Any]) -> None:
    """Status or constructor: Schotten Totten and the kernel's plain games take
    any position and ``status()`` names its problems (python-chess's model);
    Schotten Totten 2 and Clans and Glory also refuse, when a state is made,
    what cannot exist at all (their rulings), naming the same problems."""
    state = game.new_game(seed=6)  # type: ignore[misc]
    hands = list(state.hands)
    card = hands[0][0]
    hands[1] = (*hands[1][:-1], card)  # player 2 holds a card player 1 holds
    # Clans and Glory's state is not a dataclass: its ``replace`` goes through its constructor.
    remade = getattr(state, "replace", None) or partial(replace, state)
    try:
        changed = remade(hands=tuple(hands))
    except ValueError as refused:
        assert str(card) in str(refused)
    else:
        assert any(str(card) in problem for problem in changed.status()), changed.status()
