"""The reference bots (referee.bots): legal moves in every game and variant,
deterministic for a seed, blind to what their player cannot see, and budgets
refused clearly."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path
from typing import Any

import pytest

from referee.arena import Turn, arena_game, play_match, tally
from referee.bots import MCTS, Choose, TurnBot, greedy_bot, mcts_bot, random_bot, turn_bot
from referee.bots import greedy as greedy_module
from referee.bots import mcts as mcts_module
from referee.bots import random as random_module
from referee.games import find_game

ROOT = Path(__file__).resolve().parents[2]

#: Every game and variant a bot plays game by game: (game, record rules).
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("schotten-totten", {}),
    ("schotten-totten", {"variants": ["tactics"]}),
    ("schotten-totten", {"variants": ["early-bird"]}),
    ("schotten-totten", {"edition": "1999"}),
    ("schotten-totten-2", {}),
    ("schotten-totten-2", {"variants": ["tactics"]}),
    ("clans-and-glory", {"players": 2}),
    ("clans-and-glory", {"players": 3}),
    ("clans-and-glory", {"players": 4}),
]
IDS = [
    f"{name}-{'-'.join(f'{k}={v}' for k, v in rules.items()) or 'base'}" for name, rules in GAMES
]


def position(name: str, rules: dict[str, Any], seed: int) -> tuple[Any, Any]:
    """A random position of a random game where a player decides: ``(adapter,
    state)``; ``seed`` picks the deal and how far the game has gone."""
    adapter = arena_game(name, rules)
    rng = random.Random(seed)
    first, deal = adapter.deal(rng)
    state = adapter.start(first, deal)
    wanted = rng.randrange(60)
    seen: Any = None
    plies = 0
    while state.outcome is None:
        chance = adapter.chance(state, rng) if adapter.has_chance else None
        if chance is not None:
            state = state.play(chance)
            continue
        seen = state
        if plies >= wanted:
            break
        state = state.play(rng.choice(adapter.legal_moves(state, rng)))
        plies += 1
    return adapter, seen


CHOOSERS: dict[str, Choose] = {
    "random": random_module.choose,
    "greedy": greedy_module.choose,
    "mcts": MCTS(iterations=6).choose,
}


@pytest.mark.parametrize(("name", "rules"), GAMES, ids=IDS)
def test_every_bot_returns_a_legal_move_in_random_positions(
    name: str, rules: dict[str, Any]
) -> None:
    for seed in range(5):
        adapter, state = position(name, rules, seed)
        legal = adapter.legal_moves(state, random.Random(0))
        view = state.view(state.to_move)
        for bot, choose in CHOOSERS.items():
            move = choose(view, random.Random(seed), None)
            assert move in legal, (bot, seed, str(move))
            state.play(move)  # the referee accepts it


@pytest.mark.parametrize(("name", "rules"), GAMES, ids=IDS)
def test_the_search_plays_whole_games_in_the_arena_without_a_fault(
    name: str, rules: dict[str, Any]
) -> None:
    players = find_game(name).players[0] if "players" not in rules else rules["players"]
    everyone: list[TurnBot] = [MCTS(iterations=3), greedy_bot, random_bot, greedy_bot]
    bots = everyone[:players]
    results = play_match(bots, name, rules=rules, games=players, seed=3, sandbox=False)
    assert all(r.fault is None for r in results)
    assert all(r.reason not in ("forfeit", "timeout", "ply_limit") for r in results)
    assert tally(results, players)[0].name == "mcts"


@pytest.mark.parametrize(("name", "rules"), GAMES, ids=IDS)
def test_the_search_is_deterministic_for_a_seed_and_an_iteration_budget(
    name: str, rules: dict[str, Any]
) -> None:
    _, state = position(name, rules, 11)
    view = state.view(state.to_move)
    first = [MCTS(iterations=20).choose(view, random.Random(s), None) for s in range(2)]
    again = [MCTS(iterations=20).choose(view, random.Random(s), None) for s in range(2)]
    assert first == again


def turn_of(adapter: Any, state: Any, seed: int) -> Turn:
    """The turn the arena would hand the player to move in ``state``."""
    legal = adapter.legal_moves(state, random.Random(0))
    return Turn(
        adapter.name, state.to_move, 1, adapter, state, legal, (0, 0), None, random.Random(seed)
    )


@pytest.mark.parametrize(("name", "rules"), GAMES, ids=IDS)
def test_no_bot_sees_hidden_cards(name: str, rules: dict[str, Any]) -> None:
    # Two full states that differ only in what the player to move cannot see
    # (two deals of its view's unseen cards): every bot plays the same move in
    # both, given the same seed, through the arena's turn.
    game = find_game(name)
    assert game.determinize is not None
    bots: list[TurnBot] = [random_bot, greedy_bot, MCTS(iterations=12)]
    compared = 0
    for seed in range(4):
        adapter, state = position(name, rules, seed)
        view = state.view(state.to_move)
        one, other = (game.determinize(view, random.Random(s)) for s in (1, 2))
        assert one.view(state.to_move) == other.view(state.to_move) == view
        if one == other:
            continue  # nothing hidden in this position
        compared += 1
        for bot in bots:
            assert bot(turn_of(adapter, one, seed)) == bot(turn_of(adapter, other, seed))
    assert compared


def test_a_turn_bot_asks_choose_with_the_view_rng_and_clock() -> None:
    asked = []

    def first(view: Any, rng: random.Random, time_left: float | None) -> Any:
        asked.append((type(view).__name__, isinstance(rng, random.Random), time_left))
        return view.legal_moves()[0]

    bot = turn_bot(first)
    assert bot.__name__ == "first"
    play_match([bot, random_bot], "schotten-totten-2", games=1, seed=1, sandbox=False, game_time=60)
    assert asked
    assert all(kind == "State" and rng and left is not None for kind, rng, left in asked)
    with pytest.raises(TypeError, match="turn_bot takes a function"):
        turn_bot("greedy")  # type: ignore[arg-type]


def test_random_is_uniform_over_the_legal_moves_of_the_view() -> None:
    _, state = position("schotten-totten", {"variants": ["tactics"]}, 4)
    view = state.view(state.to_move)
    legal = list(view.legal_moves())
    for seed in range(20):
        assert random_module.choose(view, random.Random(seed)) == random.Random(seed).choice(legal)


def example_greedy() -> Any:
    spec = importlib.util.spec_from_file_location(
        "greedy_example", ROOT / "examples/bots/greedy.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("name", "rules"), GAMES, ids=IDS)
def test_greedy_chooses_as_the_example_program_does(name: str, rules: dict[str, Any]) -> None:
    # The reference: examples/bots/greedy.py, the same scoring written for a
    # bot author on the view object (docs/bots.md).
    example = example_greedy()
    for seed in range(6):
        _, state = position(name, rules, seed)
        view = state.view(state.to_move)
        expected = example.choose(view, random.Random(seed), None)
        assert str(greedy_module.choose(view, random.Random(seed))) == str(expected)


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        ({"iterations": 0}, "iterations must be a whole number of at least 1, not 0"),
        ({"iterations": -3}, "not -3"),
        ({"iterations": 2.5}, "not 2.5"),
        ({"iterations": "100"}, "not '100'"),
        ({"iterations": True}, "not True"),
        ({"seconds": 0}, "seconds must be a number of seconds above 0 and at most 86400, not 0"),
        ({"seconds": -0.5}, "not -0.5"),
        ({"seconds": math.nan}, "not nan"),
        ({"seconds": math.inf}, "not inf"),
        ({"seconds": "fast"}, "not 'fast'"),
        ({"iterations": 10, "seconds": None, "exploration": -1}, "exploration must be"),
        ({"name": ""}, "a bot's name"),
    ],
)
def test_a_bad_budget_is_a_clear_value_error(budget: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        MCTS(**budget)


def test_bad_arguments_to_choose_are_refused() -> None:
    deal = find_game("schotten-totten").deal
    assert deal is not None
    view = deal(random.Random(1), {}).view(0)
    for choose in CHOOSERS.values():
        with pytest.raises(ValueError, match="time_left must be a number of seconds or None"):
            choose(view, random.Random(0), "soon")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"expected a random\.Random"):
            choose(view, 7, None)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="a bot takes a game's view"):
            choose("R7", random.Random(0), None)


def test_a_forced_move_is_played_without_a_search() -> None:
    adapter = arena_game("schotten-totten", {})
    state = adapter.start(*adapter.deal(random.Random(2)))
    state = state.play(adapter.legal_moves(state, random.Random(0))[0])  # now only "draw"
    view = state.view(state.to_move)
    assert len(view.legal_moves()) == 1
    bot = MCTS(iterations=50)
    rng = random.Random(9)
    assert bot.choose(view, rng, None) == view.legal_moves()[0]
    assert bot.last_iterations == 0 and rng.getstate() == random.Random(9).getstate()


def test_the_budget_is_spent_and_the_clock_respected() -> None:
    _, state = position("clans-and-glory", {"players": 3}, 1)
    view = state.view(state.to_move)
    bot = MCTS(iterations=25)
    bot.choose(view, random.Random(0), None)
    assert bot.last_iterations == 25
    # A tiny clock: the search stops after its first iteration (time, not count).
    bot = MCTS(iterations=10_000)
    bot.choose(view, random.Random(0), 1e-9)
    assert bot.last_iterations == 1
    assert mcts_bot.seconds == mcts_module.DEFAULT_SECONDS and mcts_bot.iterations is None


def test_the_search_draws_chance_plies_it_meets() -> None:
    # Schotten Totten 2 with tactics: once support is played, where its two cards
    # land in the deck is chance. A search that expands every move meets it
    # in the tree and in playouts, and still answers a legal move, the same
    # for the same seed.
    adapter = arena_game("schotten-totten-2", {"variants": ["tactics"]})
    rng = random.Random(0)
    state = adapter.start(*adapter.deal(rng))
    while True:
        chance = adapter.chance(state, rng)
        if chance is not None:
            state = state.play(chance)
            continue
        legal = adapter.legal_moves(state, rng)
        if any(str(m).startswith("support") for m in legal):
            break
        state = state.play(rng.choice(legal))
    view = state.view(state.to_move)
    support = next(m for m in legal if str(m).startswith("support"))
    assert state.play(support).is_chance_node()
    bot = MCTS(iterations=3 * len(legal))
    move = bot.choose(view, random.Random(4), None)
    assert move in legal and move == bot.choose(view, random.Random(4), None)


def test_a_clock_must_be_a_function() -> None:
    with pytest.raises(TypeError, match="clock must be a function"):
        MCTS(iterations=5, clock=0.5)  # type: ignore[arg-type]
