"""Every game is declared once, by its descriptor (issue 24, point 4).

For each bundled game: the descriptor is complete and agrees with itself (its
name round-trips through records, its states' games validate, its deal model
finds the deal of a public record, its arena adapter and the generic one play
it, its environment passes PettingZoo's ``api_test``, its picture renders,
its determinization and playout run). Then a game the library does not know,
``tests/protocol/race_game.py``, installed through a fake ``referee.games``
entry point, works end to end by its descriptor alone.
"""

from __future__ import annotations

import ast
import json
import random
import sys
from collections.abc import Iterator
from dataclasses import replace
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from referee import games
from referee.arena import ArenaGame, arena_game, play_game, random_bot
from referee.deals import check_record, witness
from referee.games import GameDescriptor, descriptor_of, find_game, game_names
from referee.records import Record, parse_record, replay, validate
from referee.svg import render_svg

BUNDLED = ("clans-and-glory", "schotten-totten", "schotten-totten-2")
ROOT = Path(__file__).resolve().parents[2]


def _finished(game: GameDescriptor[Any], seed: int, rules: dict[str, Any] | None = None) -> Any:
    """A game dealt by the descriptor and played to its end at random."""
    assert game.deal is not None
    rng = random.Random(seed)
    state = game.deal(rng, rules or {})
    while not state.is_game_over():
        if game.chance is not None and (move := game.chance(state, rng)) is not None:
            state = state.play(move)
            continue
        state = state.play(rng.choice(list(state.legal_moves())))
    return state


@pytest.fixture(params=BUNDLED)
def game(request: pytest.FixtureRequest) -> GameDescriptor[Any]:
    return find_game(request.param)


def test_the_bundled_games_are_the_registrys() -> None:
    assert set(BUNDLED) <= set(game_names())
    assert games.DEFAULT_GAME in BUNDLED


def test_a_bundled_descriptor_is_complete(game: GameDescriptor[Any]) -> None:
    for part in ("state_type", "new_game", "deal", "action_space", "determinize", "picture"):
        assert getattr(game, part) is not None, part
    assert game.arena is not None  # each bundled game writes its own view text
    assert game.observation_high > 0
    fewest, most = game.players
    assert 2 <= fewest <= most <= 4
    # A deal model exactly where the format reads public records.
    try:
        game.format.start(Record(game.name, ()))
        reads_public = True
    except ValueError:
        reads_public = False
    assert (game.deals is not None) == reads_public


def test_the_name_round_trips_through_records(game: GameDescriptor[Any]) -> None:
    assert game.format.name == game.name and find_game(game.name) is game
    assert game.new_game is not None
    state = game.new_game(seed=3)
    assert isinstance(state, game.state_type)  # type: ignore[arg-type]
    assert descriptor_of(state) is game and descriptor_of(state.view(1)) is game
    record = state.to_record()
    assert record.game == game.name
    again = parse_record(json.loads(json.dumps(record.to_json())), "x")
    assert find_game(again.game) is game and validate(again).legal


@pytest.mark.parametrize("seed", range(3))
def test_the_games_it_deals_validate(game: GameDescriptor[Any], seed: int) -> None:
    final = _finished(game, seed)
    assert descriptor_of(final) is game
    report = validate(final.to_record())
    assert report.legal and report.outcome == final.outcome


def test_every_variant_is_a_rule_of_its_records(game: GameDescriptor[Any]) -> None:
    for variant in game.variants:
        adapter = arena_game(game.name, {"variants": [variant]})
        assert variant in adapter.rules["variants"]
    with pytest.raises(ValueError, match=r"rules\.variants"):
        arena_game(game.name, {"variants": ["no-such-variant"]})


def test_the_deal_model_finds_a_public_records_deal(game: GameDescriptor[Any]) -> None:
    if game.deals is None:
        pytest.skip(f"{game.title} records are full records only")
    full = _finished(game, 5).to_record()
    public = replace(full, deal=None)  # the base game shows every move
    answer = check_record(public)
    assert answer is not None and answer.fits
    found = witness(public)
    assert found is not None and found.deal is not None and validate(found).legal


def test_its_arena_adapter_plays_a_game(game: GameDescriptor[Any]) -> None:
    players = game.players[0]
    result = play_game([random_bot] * players, game.name, seed=4)
    assert type(arena_game(game.name)) is not ArenaGame
    assert result.reason == result.record.result["reason"]  # type: ignore[index]
    assert validate(result.record).legal


def test_the_generic_adapter_plays_it_from_the_descriptor_alone(
    game: GameDescriptor[Any],
) -> None:
    try:
        register_plain = games.register(replace(game, arena=None))
        assert type(arena_game(game.name)) is ArenaGame
        result = play_game([random_bot] * game.players[0], game.name, seed=6)
        assert find_game(game.name) is register_plain
    finally:
        games.register(game)
    assert validate(result.record).legal and result.record.result is not None


def test_its_environment_passes_the_api_test(game: GameDescriptor[Any]) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from referee.env import game_env

    env = game_env(game.name)
    assert env.metadata["name"] == game.env_name
    api_test(env, num_cycles=20)


def test_its_picture_renders(game: GameDescriptor[Any]) -> None:
    state = _finished(game, 2)
    for shown in (state, state.view(0)):
        picture = render_svg(shown)
        assert picture.startswith("<svg") and "referee-position" in picture
        assert picture.count("<g") == picture.count("</g>")
    assert game.text(state) == str(state)


def test_its_determinization_fills_a_view(game: GameDescriptor[Any]) -> None:
    assert game.determinize is not None
    state = game.new_game(seed=8) if game.new_game is not None else None
    view = state.view(0)
    full = game.determinize(view, random.Random(1))
    assert descriptor_of(full) is game
    assert full.hands[0] == state.hands[0] and all(h is not None for h in full.hands)


def test_its_commentary_has_words_for_every_move(game: GameDescriptor[Any]) -> None:
    words = game.commentary
    assert isinstance(words.load() if hasattr(words, "load") else words, games.Commentary)
    for seed in range(3):
        final = _finished(game, seed)
        for move in final.history:
            sentence = words.move_words(str(move), "Ada")
            assert sentence.startswith("Ada ") and sentence not in (f"Ada {move}", f"Ada: {move}")


#: Ends decided by the places a player holds, as the commentary's ``wins`` judges them.
_WON_BY_PLACES = {"three_adjacent", "five_stones", "fourth_tile_damaged", "controlled_damaged_tile"}


def test_its_commentary_knows_which_places_win(game: GameDescriptor[Any]) -> None:
    words = game.commentary
    if words.claim_move is None:
        pytest.skip(f"{game.title} has no claims")
    finals = [_finished(game, seed) for seed in range(8)]
    for path in sorted((ROOT / "examples" / "records" / game.name).glob("full-*.json")):
        record = parse_record(json.loads(path.read_text(encoding="utf-8")), str(path))
        finals.append(replay(record))
    checked = 0
    for final in finals:
        if final.outcome is None or final.outcome.reason not in _WON_BY_PLACES:
            continue
        winner = final.outcome.winner
        held = {place for place, owner in words.owners(final).items() if owner == winner}
        held |= {n for n in range(1, 10) if str(final.history[-1]) == words.claim_move.format(n)}
        assert words.wins(final, held), final.outcome
        checked += 1
    assert checked
    assert not words.wins(game.new_game(seed=1), set())  # nothing held at the start


def test_its_playout_runs(game: GameDescriptor[Any]) -> None:
    if game.playout is None:
        pytest.skip(f"{game.title} has no playout module yet (issue 24: the playout work)")
    state = game.new_game(seed=9)  # type: ignore[misc]
    outcome = game.playout(state, random.Random(3))
    assert outcome is not None and state.outcome is None


# --- a game the library does not know ------------------------------------------------


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """``race_game`` installed as a third-party package would be."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    point = EntryPoint("race-to-ten", "race_game:GAME", games.ENTRY_POINT_GROUP)
    monkeypatch.setattr(games, "entry_points", lambda *, group: [point])
    monkeypatch.delitem(games._GAMES, "race-to-ten", raising=False)
    yield "race-to-ten"
    games._GAMES.pop("race-to-ten", None)
    sys.modules.pop("race_game", None)


def test_a_third_party_game_is_known_by_name(race: str) -> None:
    assert race in game_names() and "race_game" not in sys.modules
    game = find_game(race)
    assert game.title == "Race to Ten" and type(game.format).__module__ == "race_game"


def test_a_third_party_games_records_validate(race: str) -> None:
    game = find_game(race)
    for seed in range(10):
        record = game.format.random_record(seed, {})
        again = parse_record(json.loads(json.dumps(record.to_json())), f"race:{seed}")
        assert validate(again).legal
    refused = validate(replace(record, moves=("play 7",)))
    assert refused.error is not None and refused.error.reason == "malformed_move"


def test_the_arena_plays_a_third_party_game(race: str) -> None:
    result = play_game([random_bot, random_bot], race, seed=5)
    assert result.record.game == race and validate(result.record).legal
    assert sorted(result.points) in ([0.0, 1.0], [0.5, 0.5])
    with pytest.raises(ValueError, match="no rules to choose"):
        arena_game(race, {"variants": ["tactics"]})


def test_a_third_party_game_gets_an_environment(race: str) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from referee.env import game_env

    env = game_env(race)
    assert env.metadata["name"] == "race_to_ten_v0"
    api_test(env, num_cycles=20)


def test_a_third_party_game_without_a_picture_is_drawn_as_text(race: str) -> None:
    game = find_game(race)
    assert game.picture is None and game.new_game is not None
    state = game.new_game(seed=1)
    picture = render_svg(state)
    assert picture.startswith("<svg") and 'class="referee-position text"' in picture
    assert "Race to Ten" in picture and "total 0, player 1 to move" in picture
    assert descriptor_of(state) is game


def test_a_game_without_deal_or_action_space_has_no_environment(race: str) -> None:
    pytest.importorskip("pettingzoo")
    from referee.env import GameEnv

    bare = replace(find_game(race), action_space=None)
    with pytest.raises(ValueError, match="Race to Ten has no action_space: no environment"):
        GameEnv(bare)


# --- shared code names no game -----------------------------------------------------------

#: The game packages (each declares its own game) and the registry's list.
_DECLARING = ("referee/schotten_totten", "referee/schotten_totten_2", "referee/clans_and_glory")
_ALLOWED = {"referee/games.py"}


def _game_name_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of ``path`` that are a bundled game's name. Docstrings
    (where doctests name games as users do) and ``Literal[...]`` types (which
    type what a name gives) do not count."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skipped.add(id(body[0].value))  # a docstring (or a bare expression)
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == "Literal"
        ):
            skipped.update(id(inner) for inner in ast.walk(node.slice))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in BUNDLED and id(node) not in skipped
    ]


def test_shared_code_names_no_game() -> None:
    found = []
    for path in sorted((ROOT / "referee").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(_DECLARING) or relative in _ALLOWED:
            continue
        found += [f"{relative}:{line}: {name!r}" for line, name in _game_name_strings(path)]
    assert found == []
