"""The game registry: bundled games load on first use, third-party games join
through the ``referee.games`` entry point group, and nothing registers by import."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from referee.records import (
    ENTRY_POINT_GROUP,
    Record,
    RecordError,
    _registry,
    find_game,
    game_names,
    game_of,
)

_GAMES = ("referee.schotten_totten", "referee.schotten_totten_2", "referee.clans_and_glory")

#: A whole third-party game in a few lines: one counter that player 1 raises to 3.
_FAKE_GAME = """
from referee.game import Outcome, Termination
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
"""


@pytest.fixture
def fake_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Install ``count-to-three`` as if a package declared it in its pyproject.toml."""
    (tmp_path / "count_game.py").write_text(_FAKE_GAME, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [
        EntryPoint("count-to-three", "count_game:FORMAT", ENTRY_POINT_GROUP),
        EntryPoint("misnamed-game", "count_game:FORMAT", ENTRY_POINT_GROUP),
    ]

    def entry_points(*, group: str) -> list[EntryPoint]:
        return [point for point in points if point.group == group]

    monkeypatch.setattr(_registry, "entry_points", entry_points)
    monkeypatch.delitem(_registry._GAMES, "count-to-three", raising=False)
    yield "count-to-three"
    _registry._GAMES.pop("count-to-three", None)
    sys.modules.pop("count_game", None)


def test_third_party_game_is_found_through_its_entry_point(fake_game: str) -> None:
    assert fake_game in game_names()
    assert "count_game" not in sys.modules  # listed, not imported
    fmt = find_game(fake_game)
    assert fmt.title == "Count to Three"
    assert type(fmt).__module__ == "count_game"
    assert find_game(fake_game) is fmt


def test_third_party_game_starts_from_a_record(fake_game: str) -> None:
    fmt = find_game(fake_game)
    state = fmt.start(Record(fake_game, ()))
    for _ in range(3):
        state = state.play("up")
    assert state.outcome is not None
    assert fmt.result_of(state.outcome) == {"winner": 0, "reason": "most_points"}


def test_third_party_records_validate(fake_game: str) -> None:
    from referee.records import validate

    result = {"winner": 0, "reason": "most_points"}
    assert validate(Record(fake_game, ("up", "up", "up"), result=result)).legal
    refused = validate(Record(fake_game, ("up", "down")))
    assert refused.error is not None and refused.error.ply == 2


def test_entry_point_naming_another_game_is_refused(fake_game: str) -> None:
    with pytest.raises(RecordError) as caught:
        find_game("misnamed-game")
    message = str(caught.value)
    assert "'misnamed-game'" in message and "'count-to-three'" in message
    assert "count-to-three" not in _registry._GAMES


def test_unknown_game_names_every_known_one() -> None:
    with pytest.raises(RecordError) as caught:
        find_game("schotten-totten-3")
    assert caught.value.field == "game"
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
    assert game_of(object()) is None


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
    ["import referee", "import referee.records", "import referee.svg", "import referee.game"],
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
