"""The game registry (:mod:`referee.games`): bundled games load on first use,
third-party games join through the ``referee.games`` entry point group with a
descriptor, records read formats through it, and nothing registers by import."""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import replace
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from referee import games
from referee.games import GameDescriptor, Lazy, descriptor_of, lazy
from referee.records import (
    ENTRY_POINT_GROUP,
    Record,
    RecordError,
    find_game,
    game_names,
    game_of,
    register,
    validate,
)

_GAMES = ("referee.schotten_totten", "referee.schotten_totten_2", "referee.clans_and_glory")

#: A whole third-party game in a few lines: one counter that player 1 raises to 3.
_FAKE_GAME = """
from referee.game import Outcome, Termination
from referee.games import GameDescriptor
from referee.records import RecordError


class CountState:
    num_players = 2

    def __init__(self, count=0):
        self.count = count

    def play(self, move):
        if move != "up":
            raise RecordError(f"not a move: {move!r}")
        return CountState(self.count + 1)

    @property
    def outcome(self):
        return Outcome(Termination.MOST_POINTS, 0) if self.count >= 3 else None


class CountFormat:
    name = "count-to-three"
    title = "Count to Three"
    has_claims = False

    def start(self, record):
        return CountState()

    def result_of(self, outcome):
        return {"winner": outcome.winner, "reason": outcome.termination.value}


FORMAT = CountFormat()
GAME = GameDescriptor(
    name="count-to-three", title="Count to Three", format=FORMAT, state_type=CountState,
    new_game=CountState,
)
"""


@pytest.fixture
def fake_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Install ``count-to-three`` as if a package declared it in its pyproject.toml
    (and two broken entry points beside it)."""
    (tmp_path / "count_game.py").write_text(_FAKE_GAME, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [
        EntryPoint("count-to-three", "count_game:GAME", ENTRY_POINT_GROUP),
        EntryPoint("misnamed-game", "count_game:GAME", ENTRY_POINT_GROUP),
        EntryPoint("not-a-game", "count_game:CountState", ENTRY_POINT_GROUP),
    ]

    def entry_points(*, group: str) -> list[EntryPoint]:
        return [point for point in points if point.group == group]

    monkeypatch.setattr(games, "entry_points", entry_points)
    monkeypatch.delitem(games._GAMES, "count-to-three", raising=False)
    yield "count-to-three"
    games._GAMES.pop("count-to-three", None)
    sys.modules.pop("count_game", None)


def test_third_party_game_is_found_through_its_entry_point(fake_game: str) -> None:
    assert fake_game in game_names()
    assert "count_game" not in sys.modules  # listed, not imported
    game = games.find_game(fake_game)
    assert isinstance(game, GameDescriptor) and type(game.format).__module__ == "count_game"
    assert game.title == "Count to Three"
    assert find_game(fake_game) is game.format  # records read the same registry
    assert games.find_game(fake_game) is game


def test_third_party_game_starts_from_a_record(fake_game: str) -> None:
    fmt = find_game(fake_game)
    state = fmt.start(Record(fake_game, ()))
    for _ in range(3):
        state = state.play("up")
    assert state.outcome is not None
    assert fmt.result_of(state.outcome) == {"winner": 0, "reason": "most_points"}
    assert game_of(state) == fake_game  # found from its state, through its package


def test_third_party_records_validate(fake_game: str) -> None:
    result = {"winner": 0, "reason": "most_points"}
    assert validate(Record(fake_game, ("up", "up", "up"), result=result)).legal
    refused = validate(Record(fake_game, ("up", "down")))
    assert refused.error is not None and refused.error.ply == 2


def test_an_older_entry_point_giving_a_bare_format_still_works_with_a_warning(
    fake_game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = [EntryPoint(fake_game, "count_game:FORMAT", ENTRY_POINT_GROUP)]
    monkeypatch.setattr(games, "entry_points", lambda *, group: old)
    with pytest.warns(DeprecationWarning, match="bare GameFormat"):
        game = games.find_game(fake_game)
    assert game.name == fake_game and game.state_type is None
    result = {"winner": 0, "reason": "most_points"}
    assert validate(Record(fake_game, ("up",) * 3, result=result)).legal


def test_entry_point_naming_another_game_is_refused(fake_game: str) -> None:
    with pytest.raises(RecordError) as caught:
        find_game("misnamed-game")
    message = str(caught.value)
    assert "'misnamed-game'" in message and "'count-to-three'" in message
    assert "count-to-three" not in games._GAMES


def test_entry_point_giving_something_else_is_refused(fake_game: str) -> None:
    with pytest.raises(TypeError, match=r"'not-a-game' of 'referee\.games' gives <class"):
        games.find_game("not-a-game")
    assert "not-a-game" not in games._GAMES


def test_unknown_game_names_every_known_one() -> None:
    with pytest.raises(RecordError) as caught:
        find_game("schotten-totten-3", "here.json")
    assert caught.value.field == "game" and caught.value.where == "here.json"
    assert "unknown game 'schotten-totten-3'" in str(caught.value)
    for name in ("schotten-totten", "schotten-totten-2", "clans-and-glory"):
        assert name in str(caught.value)
    with pytest.raises(RecordError, match="unknown game 7"):
        find_game(7)  # type: ignore[call-overload]


def test_bundled_games_are_typed_and_named() -> None:
    from referee import clans_and_glory as cg
    from referee import schotten_totten as st
    from referee import schotten_totten_2 as st2

    assert find_game("schotten-totten").has_claims
    assert find_game("schotten-totten-2").has_claims
    assert not find_game("clans-and-glory").has_claims
    assert game_of(st.new_game(seed=1)) == "schotten-totten"
    assert game_of(st2.new_game(seed=1)) == "schotten-totten-2"
    state = cg.new_game(seed=1)
    assert game_of(state) == "clans-and-glory"
    assert game_of(state.view(0)) == "clans-and-glory"
    assert game_of(object()) is None and descriptor_of(3) is None


def test_register_takes_a_descriptor_and_replaces_a_game_of_its_name() -> None:
    base = games.find_game("schotten-totten")
    try:
        changed = register(replace(base, players=(2, 2), variants=()))
        assert games.find_game("schotten-totten") is changed is not base
        assert find_game("schotten-totten") is base.format
    finally:
        register(base)
    assert games.find_game("schotten-totten") is base


def test_register_still_takes_a_bare_format_with_a_warning() -> None:
    class Tiny:
        name, title = "tiny-game", "Tiny"

        def start(self, record: Record) -> None:
            return None

    try:
        with pytest.warns(DeprecationWarning, match="register\\(\\) gives a bare GameFormat"):
            game = register(Tiny())  # type: ignore[arg-type]
        assert isinstance(game, GameDescriptor) and "tiny-game" in game_names()
        assert find_game("tiny-game").title == "Tiny"
    finally:
        games._GAMES.pop("tiny-game", None)
    with pytest.raises(TypeError, match="register\\(\\) gives 'chess'"):
        register("chess")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "Schotten Totten"}, "lower-case words joined by hyphens, not 'Schotten Totten'"),
        (
            {"name": "schotten-totten-copy"},
            "has name 'schotten-totten', not 'schotten-totten-copy'",
        ),
        ({"title": " "}, "a game needs a title, not ' '"),
        ({"title": "Schotten"}, "has title 'Schotten Totten', not 'Schotten'"),
        ({"players": (3, 2)}, "players must be (fewest, most), not (3, 2)"),
        ({"players": (2,)}, "players must be (fewest, most), not (2,)"),
        ({"players": (True, 2)}, "players must be (fewest, most), not (True, 2)"),
    ],
)
def test_a_descriptor_that_contradicts_itself_is_refused(
    change: dict[str, object], message: str
) -> None:
    base = games.find_game("schotten-totten")
    with pytest.raises(ValueError) as caught:
        replace(base, **change)  # type: ignore[arg-type]
    assert str(caught.value).endswith(message)


def test_lazy_references_import_on_use_and_copy_as_references() -> None:
    reference = lazy("referee.schotten_totten_2.picture:draw")
    assert copy.copy(reference) == reference == pickle.loads(pickle.dumps(reference))
    assert reference.load().__name__ == "draw"
    assert lazy("referee.no_such:thing", optional=True) is None
    assert lazy("no_such_package.module:thing", optional=True) is None
    assert isinstance(lazy("json:dumps", optional=True), Lazy)
    with pytest.raises(ModuleNotFoundError):
        lazy("referee.no_such:thing")()
    with pytest.raises(ValueError, match="not 'a b'"):
        lazy("a b")
    with pytest.raises(AttributeError):
        lazy("json").__wrapped__  # noqa: B018 (dunders are the reference's own)


def _imported_after(code: str) -> list[str]:
    """The game packages imported once ``code`` runs in a fresh interpreter."""
    probe = textwrap.dedent(f"""
        import json, sys
        {code}
        print(json.dumps(sorted(m for m in {_GAMES!r} if m in sys.modules)))
    """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded: list[str] = json.loads(done.stdout)
    return loaded


@pytest.mark.parametrize(
    "code",
    [
        "import referee",
        "import referee.records",
        "import referee.svg",
        "import referee.game",
        "import referee.games; referee.games.game_names()",
        "import referee.deals",
    ],
)
def test_importing_the_library_imports_no_game(code: str) -> None:
    assert _imported_after(code) == []


def test_a_game_is_imported_when_first_used_and_alone() -> None:
    loaded = _imported_after(
        "from referee.records import find_game; find_game('schotten-totten-2')"
    )
    assert loaded == ["referee.schotten_totten_2"]
    loaded = _imported_after(
        "import referee; from referee.svg import render_svg;"
        " render_svg(referee.schotten_totten.new_game(seed=1))"
    )
    assert loaded == ["referee.schotten_totten"]
    loaded = _imported_after(
        "from referee.games import descriptor_of; import referee.clans_and_glory as cg;"
        " assert descriptor_of(cg.new_game(seed=1)).name == 'clans-and-glory'"
    )
    assert loaded == ["referee.clans_and_glory"]


def test_finding_a_game_leaves_its_picture_deals_and_arena_unimported() -> None:
    probe = (
        "import sys; from referee.games import find_game; find_game('schotten-totten');"
        "print(sorted(m for m in sys.modules if m.startswith('referee.schotten_totten.')"
        " or m.startswith('referee.arena') or m == 'referee.svg'))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = done.stdout.strip()
    for part in ("picture", "deals", "_arena", "referee.arena", "referee.svg"):
        assert part not in loaded
