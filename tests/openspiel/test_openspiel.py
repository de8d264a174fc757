"""The OpenSpiel games (the ``openspiel`` extra): OpenSpiel's own checks, the
chance model against the library's games, what each player's strings and
tensors tell, and OpenSpiel's algorithms run on every game."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install 'referee[openspiel]')"
)

import numpy as np  # noqa: E402  (after the skip: numpy comes with OpenSpiel)

import referee.openspiel  # noqa: E402
from referee.games import find_game  # noqa: E402
from referee.openspiel._tables import HIDDEN  # noqa: E402

#: Every game and variant: OpenSpiel's name, the library's game and record rules.
CASES = [
    ("referee_schotten_totten", "schotten-totten", {}),
    ("referee_schotten_totten(tactics=True)", "schotten-totten", {"variants": ["tactics"]}),
    ("referee_schotten_totten(early_bird=True)", "schotten-totten", {"variants": ["early-bird"]}),
    ("referee_schotten_totten(edition=1999)", "schotten-totten", {"edition": "1999"}),
    ("referee_schotten_totten_2", "schotten-totten-2", {}),
    ("referee_schotten_totten_2(tactics=True)", "schotten-totten-2", {"variants": ["tactics"]}),
    ("referee_clans_and_glory", "clans-and-glory", {"players": 2}),
    ("referee_clans_and_glory(players=3)", "clans-and-glory", {"players": 3}),
    ("referee_clans_and_glory(players=4)", "clans-and-glory", {"players": 4}),
]
NAMES = [case[0] for case in CASES]


def _random_play(state: Any, rng: random.Random, decisions: int | None = None) -> Any:
    """``state`` played on at random (chance by its odds) until the end or until
    ``decisions`` players' moves are made and a player is to move."""
    made = 0
    while not state.is_terminal() and (
        decisions is None or made < decisions or state.is_chance_node()
    ):
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, odds)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
    return state


def test_importing_referee_imports_no_openspiel() -> None:
    code = "import sys, referee, referee.games; print('pyspiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_game_is_registered() -> None:
    assert set(referee.openspiel.GAMES) <= set(pyspiel.registered_names())
    referee.openspiel.register()  # a second time does nothing
    game = pyspiel.load_game("referee_clans_and_glory(players=4)")
    assert game.num_players() == 4
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    two = pyspiel.load_game("referee_schotten_totten_2")
    assert two.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (two.min_utility(), two.max_utility(), two.utility_sum()) == (-1.0, 1.0, 0.0)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("referee_schotten_totten(edition=2000)", "edition is 2024 or 1999, not 2000"),
        ("referee_schotten_totten(edition=1999,tactics=True)", "1999 edition has no variants"),
        ("referee_clans_and_glory(players=5)", "players is a whole number 2-4, not 5"),
        ("referee_schotten_totten_2(attacker=2)", "attacker is a whole number 0-1, not 2"),
    ],
)
def test_bad_parameters_are_refused(name: str, message: str) -> None:
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(name)


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_random_simulation(name: str) -> None:
    # OpenSpiel's own checks: legal actions, chance odds, clones, lengths,
    # returns within the bounds; serialization once per game (it is slow).
    game = pyspiel.load_game(name)
    serialize = "(" not in name
    pyspiel.random_sim_test(game, num_sims=1, serialize=serialize, verbose=False)


def _with(name: str, parameter: str) -> str:
    """The game ``name`` with one more parameter."""
    if name.endswith(")"):
        return f"{name[:-1]},{parameter})"
    return f"{name}({parameter})"


def _normal(state: Any) -> Any:
    """``state`` with its piles' order forgotten: the unseen part of a pile is
    ordered by the adapter, the library keeps its shuffle."""
    if not hasattr(state, "tactic_deck"):
        return state
    changes: dict[str, Any] = {
        "deck": tuple(sorted(state.deck, key=str)),
        "tactic_deck": tuple(sorted(state.tactic_deck, key=str)),
    }
    if hasattr(state, "chance_seed"):
        changes["chance_seed"] = 0
    return replace(state, **changes)


@pytest.mark.parametrize(("name", "game_name", "rules"), CASES)
def test_chance_model_is_the_librarys(name: str, game_name: str, rules: dict[str, Any]) -> None:
    # A game of the library, dealt and played at random, and the OpenSpiel game
    # given the same chance outcomes and moves: the same game at every ply.
    descriptor = find_game(game_name)
    for seed in range(2):
        rng = random.Random(seed)
        ref = descriptor.deal(rng, rules)
        if game_name == "schotten-totten-2":  # the deal draws the attacker too
            game = pyspiel.load_game(_with(name, f"attacker={ref.attacker}"))
        else:
            game = pyspiel.load_game(name)
        table = game.table
        state = game.new_initial_state()
        dealt = ref.deal if game_name == "clans-and-glory" else (*ref.hands[0], *ref.hands[1])
        for card in dealt:
            action = table.kind_id(card)
            assert action in dict(state.chance_outcomes())
            state.apply_action(action)
        space = table.space(ref)
        while not ref.is_game_over():
            assert _normal(state.game) == _normal(ref)
            assert state.game.history == ref.history
            if ref.is_chance_node():
                move = descriptor.chance(ref, rng)
                action = table.chance_id(move)
            else:
                # a move as its id names it (support's cards in their canonical order)
                action = space.action_of(rng.choice(ref.legal_moves()))
                move = space.move_of(action)
                assert state.current_player() == ref.to_move
                assert action in state.legal_actions()
                assert state.action_to_string(ref.to_move, action) == str(move)
            state.apply_action(action)
            while state.is_chance_node() and state.game.history == ref.history:
                pile_no, place = state._node.slots[0]
                card = getattr(ref, table.piles[pile_no])[place]
                odds = dict(state.chance_outcomes())
                assert table.kind_id(card) in odds
                assert sum(odds.values()) == pytest.approx(1.0)
                state.apply_action(table.kind_id(card))
            ref = ref.play(move)
        assert _normal(state.game) == _normal(ref)
        assert state.is_terminal()
        assert state.returns() == list(space.rewards(ref))


def test_a_draw_is_chance_over_the_unseen_cards() -> None:
    game = pyspiel.load_game("referee_schotten_totten")
    state = _random_play(game.new_initial_state(), random.Random(3), decisions=1)
    state.apply_action(state.legal_actions()[-1])  # the last id of the turn: its draw
    assert state.is_chance_node() and state.action_to_string(-1, 0).startswith("draw")
    outcomes = state.chance_outcomes()
    unseen = set(state.game.deck)
    assert {game.table.kinds[a] for a, _ in outcomes} == unseen
    assert all(p == pytest.approx(1 / len(unseen)) for _, p in outcomes)


def _dealt_to(game: Any, history: list[int], player: int) -> list[int]:
    slots = game.table.slots
    return [i for i, receiver in enumerate(slots) if receiver == player]


@pytest.mark.parametrize(
    "name",
    [
        "referee_schotten_totten",
        "referee_schotten_totten(tactics=True)",
        "referee_schotten_totten_2",
        "referee_clans_and_glory(players=3)",
    ],
)
def test_a_player_sees_nothing_it_may_not(name: str) -> None:
    # Two games that differ only in a card player 0 never saw (a card of
    # another hand swapped with an unseen card of the pile, or with a card
    # removed face down): every string and tensor of player 0 is the same.
    game = pyspiel.load_game(name)
    table = game.table
    for seed in range(2):
        a = _random_play(game.new_initial_state(), random.Random(seed), decisions=25)
        history = list(a.history())
        other = 1
        hand = set(a.game.hands[other])
        kept = [i for i in _dealt_to(game, history, other) if table.kinds[history[i]] in hand]
        swap = kept[0]
        if table.piles:  # a card still unseen in the pile
            unseen = a.game.deck[len(a.game.deck) // 2]
            swapped = [table.kind_id(unseen) if i == swap else h for i, h in enumerate(history)]
        else:  # a card removed face down
            removed = table.slots.index(HIDDEN)
            swapped = list(history)
            swapped[swap], swapped[removed] = history[removed], history[swap]
        b = game.new_initial_state()
        c = game.new_initial_state()
        for action_a, action_b in zip(history, swapped, strict=True):
            b.apply_action(action_a)
            c.apply_action(action_b)
            if b.is_chance_node():
                continue
            assert b.information_state_string(0) == c.information_state_string(0)
            assert b.observation_string(0) == c.observation_string(0)
            assert np.array_equal(b.information_state_tensor(0), c.information_state_tensor(0))
            assert np.array_equal(b.observation_tensor(0), c.observation_tensor(0))
        assert b.information_state_string(other) != c.information_state_string(other)
        assert b.observation_tensor(other) != c.observation_tensor(other)


def test_information_state_recalls_the_hands_seen() -> None:
    game = pyspiel.load_game("referee_schotten_totten")
    state = _random_play(game.new_initial_state(), random.Random(5), decisions=6)
    text = state.information_state_string(0)
    assert text.startswith("player 1\nhand: ")
    assert "| hand: " in text  # a draw changed the hand
    assert len(text.splitlines()) == 2 + len(state.game.history)


#: The games the information-set search is tested on: every game, both variants.
SEARCHED = [
    "referee_schotten_totten",
    "referee_schotten_totten(tactics=True)",
    "referee_schotten_totten_2",
    "referee_schotten_totten_2(tactics=True)",
    "referee_clans_and_glory",
    "referee_clans_and_glory(players=3)",
    "referee_clans_and_glory(players=4)",
]


def _strings(state: Any) -> list[str]:
    return [state.information_state_string(p) for p in range(state.num_players())]


@pytest.mark.parametrize("name", SEARCHED)
def test_resampled_state_is_one_the_player_cannot_tell_apart(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(name)
    for _ in range(2):
        state = _random_play(game.new_initial_state(), rng, decisions=rng.randrange(2, 30))
        if state.is_terminal():
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(rng.randrange(1 << 30), 0.0, 1.0)
        sample = state.resample_from_infostate(player, sampler)
        assert sample.current_player() == player
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(
            sample.information_state_tensor(player), state.information_state_tensor(player)
        )
        assert sample.observation_string(player) == state.observation_string(player)
        assert sample.legal_actions() == state.legal_actions()
        # every seen move is the real one; the other hands are drawn again
        assert sample.game.view(player) == state.game.view(player)
        _random_play(sample, rng)
        assert sample.is_terminal() and len(sample.returns()) == game.num_players()


def test_resampled_states_differ_where_the_player_saw_nothing() -> None:
    game = pyspiel.load_game("referee_schotten_totten")
    state = _random_play(game.new_initial_state(), random.Random(4), decisions=10)
    player = state.current_player()
    hands = set()
    for seed in range(5):
        sample = state.resample_from_infostate(
            player, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        )
        hands.add(tuple(sorted(map(str, sample.game.hands[1 - player]))))
        assert sample.game.hands[player] == state.game.hands[player]
    assert len(hands) == 5


def test_a_seeded_sampler_gives_the_same_state() -> None:
    game = pyspiel.load_game("referee_schotten_totten_2(tactics=True)")
    state = _random_play(game.new_initial_state(), random.Random(2), decisions=12)
    player = state.current_player()
    one, two = (
        state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(9, 0.0, 1.0))
        for _ in range(2)
    )
    assert one.history() == two.history()
    with pytest.raises(ValueError, match="no player 2 in a 2-player game"):
        state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(9, 0.0, 1.0))


@pytest.mark.parametrize(
    "name",
    [
        "referee_schotten_totten",
        "referee_schotten_totten(tactics=True)",
        "referee_schotten_totten_2",
        "referee_clans_and_glory(players=3)",
    ],
)
def test_resampling_reads_nothing_the_player_may_not(name: str) -> None:
    # Two real games that differ only in a card player 0 never saw (as in
    # test_a_player_sees_nothing_it_may_not), resampled for player 0 with the
    # same sampler: the same game comes out, so nothing of the real unseen
    # cards reaches the sample.
    game = pyspiel.load_game(name)
    table = game.table
    for seed in range(2):
        a = _random_play(game.new_initial_state(), random.Random(seed), decisions=24)
        history = list(a.history())
        other = 1
        hand = set(a.game.hands[other])
        kept = [i for i in _dealt_to(game, history, other) if table.kinds[history[i]] in hand]
        swap = kept[0]
        if table.piles:
            unseen = a.game.deck[len(a.game.deck) // 2]
            swapped = [table.kind_id(unseen) if i == swap else h for i, h in enumerate(history)]
        else:
            removed = table.slots.index(HIDDEN)
            swapped = list(history)
            swapped[swap], swapped[removed] = history[removed], history[swap]
        b = game.new_initial_state()
        for action in swapped:
            b.apply_action(action)
        assert a.game != b.game
        samples = [
            state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
            for state in (a, b)
        ]
        assert samples[0].history() == samples[1].history()
        assert _strings(samples[0]) == _strings(samples[1])


def test_mcts_bot_searches_the_true_state() -> None:
    # OpenSpiel's MCTSBot runs on the games, but it searches the state it is
    # given, hands included: a full-information player, not a fair one (see
    # the ISMCTS tests below for the fair search).
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("referee_schotten_totten")
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=evaluator, random_state=rng)
    state = _random_play(game.new_initial_state(), random.Random(1), decisions=0)
    action = bot.step(state)
    assert action in state.legal_actions()


def _ismcts(game: Any, seed: int) -> Any:
    from open_spiel.python.algorithms import ismcts, mcts

    class Bot(ismcts.ISMCTSBot):  # type: ignore[misc]
        # evaluate_bots tells every bot the moves; this one searches afresh each move
        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player: int, action: int) -> None:
            pass

    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = Bot(game, evaluator, uct_c=2.0, max_simulations=20, max_world_samples=3, random_state=rng)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


@pytest.mark.parametrize("name", SEARCHED)
def test_ismcts_bot_plays_moves(name: str) -> None:
    # OpenSpiel's information-set search: every simulation starts from a
    # resampled state (it asserts that the information state is the same).
    game = pyspiel.load_game(name)
    bot = _ismcts(game, 1)
    state = _random_play(game.new_initial_state(), random.Random(1), decisions=3)
    for _ in range(2):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        _random_play(state, random.Random(2), decisions=0)
        if state.is_terminal():
            break


def test_evaluate_bots_ismcts_against_random() -> None:
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("referee_clans_and_glory")
    bots = [_ismcts(game, 3), pyspiel.make_uniform_random_bot(1, 5)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert len(returns) == 2 and max(returns) == 1.0


@pytest.mark.parametrize("name", NAMES)
def test_evaluate_bots_with_random_bots(name: str) -> None:
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, p + 7) for p in range(game.num_players())]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert len(returns) == game.num_players()
    assert all(r in (-1.0, 0.0, 1.0) for r in returns)
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sum(returns) == 0
    else:
        assert max(returns) == 1.0  # somebody won
