"""Three Stones, a line game written only here, works by its descriptor alone (issue 24, point 7).

``three_stones.py`` is installed as a third-party package would be (an entry
point of the ``referee.games`` group, its folder on the path) and then used by
name: its records validate, full and public (with the deal check), the arena
and ``referee match`` play it, its environment passes PettingZoo's
``api_test``, its pictures render, and its playout is the referee's game move
for move.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from dataclasses import replace
from importlib.metadata import EntryPoint
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from referee import games
from referee.actions import legal_actions
from referee.arena import play_game, play_match, random_bot
from referee.cli import main
from referee.deals import check_record, witness
from referee.errors import ClaimRefusedError
from referee.games import descriptor_of, find_game, game_names
from referee.records import parse_record, validate
from referee.svg import render_svg

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
NAME = "three-stones"


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """``three_stones`` installed through an entry point; the module it loads."""
    monkeypatch.syspath_prepend(str(HERE))
    point = EntryPoint(NAME, "three_stones:GAME", games.ENTRY_POINT_GROUP)
    monkeypatch.setattr(games, "entry_points", lambda *, group: [point])
    monkeypatch.delitem(games._GAMES, NAME, raising=False)
    assert NAME in game_names() and "three_stones" not in sys.modules
    find_game(NAME)
    yield sys.modules["three_stones"]
    games._GAMES.pop(NAME, None)
    sys.modules.pop("three_stones", None)


def _finished(module: ModuleType, seed: int) -> Any:
    """A game dealt by the descriptor and played to its end at random."""
    rng = random.Random(seed)
    state = find_game(NAME).deal(rng, {})  # type: ignore[misc]
    while not state.is_game_over():
        state = state.play(rng.choice(list(state.legal_moves())))
    return state


def test_it_is_known_by_name_and_owns_its_states(game: ModuleType) -> None:
    descriptor = find_game(NAME)
    assert descriptor is game.GAME and descriptor.env_name == "three_stones_v0"
    state = game.new_game(seed=3)
    assert descriptor_of(state) is descriptor and descriptor_of(state.view(1)) is descriptor


@pytest.mark.parametrize("seed", range(6))
def test_its_records_validate_full_and_public(game: ModuleType, seed: int) -> None:
    final = _finished(game, seed)
    record = parse_record(json.loads(json.dumps(final.to_record().to_json())), f"game {seed}")
    report = validate(record)
    assert report.legal and report.outcome == final.outcome
    public = replace(record, deal=None)
    assert validate(public).legal
    answer = check_record(public)
    assert answer is not None and answer.fits
    found = witness(public)
    assert found is not None and validate(found).legal and validate(found).outcome == final.outcome
    # The view's record is public: the deal is not in it.
    assert final.view(0).to_record().deal is None


def test_a_public_record_no_deal_fits_is_refused(game: ModuleType) -> None:
    final = _finished(game, 1)
    first = str(final.history[0])
    twice = replace(final.to_record(), deal=None, moves=(first, "pass", first), result=None)
    answer = check_record(twice)
    assert answer is not None and not answer.fits and answer.ply == 3


def test_a_claim_the_cards_do_not_prove_is_refused_with_evidence(game: ModuleType) -> None:
    # R1 R2 (a colour run) against an empty side: the other player can still get R4 R5.
    state = game.new_game(deck=_deck(game, "R1 R2 B1 B2"))
    state = state.play("R1@1").play("B1@2").play("R2@1").play("B2@2")
    assert state.to_move == 0 and not state.is_legal("claim 1")
    with pytest.raises(ClaimRefusedError, match="can still beat") as refused:
        state.play("claim 1")
    assert refused.value.verdict is not None and not refused.value.verdict.holds
    record = replace(state.to_record(), moves=(*state.to_record().moves, "claim 1"))
    report = validate(record)
    assert not report.legal and report.error is not None
    assert report.error.reason == "claim_not_proven"


def _deck(game: ModuleType, first: str) -> list[Any]:
    """A deck whose first cards are ``first`` (the rest in card order)."""
    head = [game.CARDS.parse(text) for text in first.split()]
    return head + [c for c in game.CARDS.cards if c not in head]


def test_the_referee_validates_the_records_it_writes(
    game: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    lines = []
    for seed in range(3):
        record = _finished(game, seed).to_record()
        lines += [record.to_json(), replace(record, deal=None).to_json()]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert main(["validate", str(path)]) == 0, capsys.readouterr()


def test_the_arena_plays_it(game: ModuleType) -> None:
    result = play_game([random_bot, random_bot], NAME, seed=5)
    assert result.record.game == NAME and validate(result.record).legal
    results = play_match([random_bot, random_bot], NAME, games=4, seed=2)
    assert len(results) == 4 and all(validate(r.record).legal for r in results)
    assert all(sorted(r.points) in ([0.0, 1.0], [0.5, 0.5]) for r in results)


def test_referee_match_plays_it_with_two_bot_programs(
    game: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = str(ROOT / "examples" / "bots" / "random_bot.py")
    records = tmp_path / "match.jsonl"
    arguments = ["--game", NAME, "-n", "2", "--seed", "4", "--no-sandbox", "--records"]
    assert main(["match", bot, bot, *arguments, str(records)]) == 0
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and all(json.loads(line)["game"] == NAME for line in lines)
    capsys.readouterr()
    assert main(["validate", str(records)]) == 0, capsys.readouterr()


def test_its_environment_passes_the_api_test(game: ModuleType) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from referee.env import game_env

    env = game_env(NAME)
    assert env.metadata["name"] == "three_stones_v0"
    api_test(env, num_cycles=30)


def test_its_pictures_render(game: ModuleType) -> None:
    state = _finished(game, 2)
    for shown in (game.new_game(seed=1), state, state.view(0), state.view(None)):
        picture = render_svg(shown, claims=True)
        assert picture.startswith("<svg") and "referee-position" in picture
        assert picture.count("<g") == picture.count("</g>")
        assert picture.count('class="stone"') == 3
    assert find_game(NAME).text(state) == str(state)
    assert str(state).splitlines()[0].startswith("Three Stones, ply ")


def test_the_action_space_numbers_the_legal_moves(game: ModuleType) -> None:
    actions = game.ACTIONS
    for seed in range(5):
        state, rng = game.new_game(seed=seed), random.Random(seed)
        while not state.is_game_over():
            ids = legal_actions(actions, state)
            moves = sorted(str(m) for m in state.legal_moves())
            assert sorted(str(actions.move_of(i)) for i in ids) == moves
            assert all(actions.action_of(actions.move_of(i)) == i for i in ids)
            state = actions.play(state, rng.choice(ids))


def _referee_game(module: ModuleType, state: Any, rng: random.Random) -> list[int]:
    """The playout's default policy played through ``State.play``: the lowest
    provable claim, else ``legal[int(rng.random() * len(legal))]``."""
    actions, trace = module.ACTIONS, []
    while not state.is_game_over():
        legal = legal_actions(actions, state)
        claims = [a for a in legal if module.CLAIM <= a < module.PASS]
        if claims:
            action = claims[0]
        else:
            action = legal[0] if len(legal) == 1 else legal[int(rng.random() * len(legal))]
        trace.append(action)
        state = state.play(actions.move_of(action))
    return trace


@pytest.mark.parametrize("seed", range(40))
def test_a_playout_is_the_referees_game_move_for_move(game: ModuleType, seed: int) -> None:
    state = game.new_game(seed=seed, first=seed % 2)
    trace: list[int] = []
    outcome = game.playout(state, random.Random(seed), trace=trace)
    assert find_game(NAME).playout is game.playout
    assert trace == _referee_game(game, state, random.Random(seed))
    replayed = state
    for action in trace:
        replayed = replayed.play(game.ACTIONS.move_of(action))
    assert replayed.outcome == outcome and state.outcome is None


def test_a_playout_from_a_view_a_policy_and_a_ply_limit(game: ModuleType) -> None:
    state, rng = game.new_game(seed=7), random.Random(1)
    with pytest.raises(ValueError, match="determinize a view first"):
        game.playout(state.view(0), rng)
    full = game.determinize(state.view(0), rng)
    assert full.hands[0] == state.hands[0] and sorted(full.hands[1] + full.deck) == sorted(
        state.hands[1] + state.deck
    )
    assert game.playout(full, rng).termination.value in {
        "adjacent_places",
        "places_held",
        "blocked",
    }
    assert game.playout(state, rng, max_plies=3).reason == "ply_limit"
    last = game.playout(state, rng, lambda table, legal, rng: legal[-1])
    assert last.reason in {"adjacent_places", "places_held", "blocked"}
    with pytest.raises(ValueError, match="not legal here"):
        game.playout(state, rng, lambda table, legal, rng: -1)


@pytest.mark.parametrize("seed", range(30))
def test_the_mask_proof_agrees_with_the_prover(game: ModuleType, seed: int) -> None:
    final = _finished(game, seed)
    states = [final.past.start]
    for move in final.history:
        states.append(states[-1].play(move))
    for state in states:
        for number, stone in enumerate(state.stones, 1):
            for player in (0, 1):
                if stone.owner is None and stone.complete(player):
                    verdict = state.claim_verdict(number, player=player)
                    assert state.holds(number, player) == verdict.holds, (state, number)


def test_nothing_in_the_library_names_it() -> None:
    found = [p for p in (ROOT / "referee").rglob("*.py") if "three" in p.read_text().lower()]
    assert [p for p in found if "three_stones" in p.read_text() or NAME in p.read_text()] == []


def test_status_names_every_problem_of_a_position_at_once(game: ModuleType) -> None:
    """The kernel's ``PlainState.status()``, branch by branch."""
    from referee.cards import Card

    state = game.new_game(seed=3)
    assert state.status() == ()
    hand, other = state.hands
    stone = game.Stone(((hand[0], *state.deck[:2]), ()), (None, None))  # three cards on a side
    owned = game.Stone(((), ()), (None, None), owner=1)  # owned, nothing on player 2's side
    odd = replace(
        state,
        stones=(stone, owned, state.stones[2]),
        hands=(hand, (*other, Card("G", 9))),  # a card the game does not have
        hand_sizes=(len(hand), 3),  # more than the hand of two
        deck_size=len(state.deck) + 1,
    )
    problems = odd.status()
    for words in (
        "place 1: player 1 has 3 cards there",
        "place 2 is owned by player 2, whose side is incomplete",
        "player 2 holds 3 cards, more than 2",
        f"the pile has {len(state.deck)} cards, not {len(state.deck) + 1}",
        "G9 is not a card of this game",
        f"{hand[0]} is in 2 places",
    ):
        assert any(words in problem for problem in problems), (words, problems)
    short = replace(state, deck=state.deck[1:], deck_size=len(state.deck) - 1)
    assert short.status() == ("1 of the game's cards is nowhere",)
    assert sum(state.visible_cards().values()) == 0
