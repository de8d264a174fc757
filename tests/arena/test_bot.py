"""A bot in a few lines: ``serve(choose)``, ``python -m referee.arena.bot``, and
``referee match`` taking ``FILE.py:FUNCTION`` and ``MODULE:FUNCTION`` bots.

The matches run the bots as every bot program runs: in the sandbox, importing
``referee`` read-only.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import referee
from referee.arena import as_bot, play_game, sandbox_problem
from referee.arena.bot import budget, load, main, serve
from referee.cli import main as referee_main
from referee.records import validate_source

ROOT = Path(__file__).parents[2]
BOTS = ROOT / "examples" / "bots"
GREEDY, MONTE_CARLO, RANDOM_PY = (
    str(BOTS / name) for name in ("greedy.py", "monte_carlo.py", "random_bot.py")
)
PACKAGE = Path(referee.__file__).resolve().parent

needs_sandbox = pytest.mark.skipif(
    sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}"
)

#: A bot file with one function per way a bot can go wrong (and one that plays).
FAULTY = '''
import os
import referee

def plays(view, rng, time_left):
    return rng.choice(list(view.legal_moves()))

def raises(view, rng, time_left):
    raise ValueError("no idea what to play")

def nothing(view, rng, time_left):
    return None

def illegal(view, rng, time_left):
    return "R99@12"

def writes(view, rng, time_left):
    """Plays only when the referee package cannot be written to."""
    try:
        with open(os.path.join(os.path.dirname(referee.__file__), "planted.py"), "w"):
            return "R99@12"
    except OSError:
        return rng.choice(list(view.legal_moves()))

NOT_A_FUNCTION = 3
'''


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """A temporary folder the sandboxed bot (another uid when the tests run as
    root) may read, as a user's bot folder is."""
    tmp_path.chmod(0o755)
    return tmp_path


@pytest.fixture
def faulty(tmp_path: Path) -> Path:
    path = tmp_path / "faulty.py"
    path.write_text(FAULTY)
    return path


def _match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str
) -> tuple[int, list[dict[str, Any]]]:
    """Run ``referee match`` in this process: its exit status and its records."""
    records = tmp_path / "games.jsonl"
    status = referee_main(["match", *args, "--seed", "5", "--records", str(records)])
    capsys.readouterr()
    if not records.exists():
        return status, []
    return status, [json.loads(line) for line in records.read_text().splitlines()]


# --- referee match with a function as a bot -------------------------------------------


@needs_sandbox
@pytest.mark.parametrize(
    "game",
    [
        ["--game", "schotten-totten"],
        ["--game", "schotten-totten", "--variant", "tactics"],
        ["--game", "schotten-totten-2", "--variant", "tactics"],
        ["--game", "clans-and-glory", "--rules", '{"players": 3}'],
    ],
    ids=["st", "st-tactics", "st2-tactics", "cg-3"],
)
def test_the_monte_carlo_function_plays_each_game_in_referee_match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: list[str]
) -> None:
    # The example as it is, with fewer playouts (the test is not about strength).
    code = Path(MONTE_CARLO).read_text()
    assert "\nPLAYOUTS = 20\n" in code
    bot = tmp_path / "monte_carlo.py"
    bot.write_text(code.replace("\nPLAYOUTS = 20\n", "\nPLAYOUTS = 1\n"))
    seats = [f"{bot}:choose", GREEDY]
    if "clans-and-glory" in game:
        seats.append(f"{GREEDY}:choose")
    status, records = _match(capsys, tmp_path, *seats, *game, "-n", "1", "--max-plies", "24")
    assert status == 0
    (record,) = records
    assert record["result"]["reason"] not in ("forfeit", "timeout", "resignation"), record
    assert record["players"][0] == "monte_carlo.py:choose"
    (report,) = validate_source(tmp_path / "games.jsonl")
    assert report.status == "legal", report.summary()


@needs_sandbox
def test_a_module_function_in_the_working_folder_is_a_bot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mybots").mkdir()
    (tmp_path / "mybots" / "__init__.py").write_text("")
    (tmp_path / "mybots" / "first.py").write_text(
        "def choose(view, rng, time_left):\n    return min(view.legal_moves(), key=str)\n"
    )
    monkeypatch.chdir(tmp_path)
    status, records = _match(
        capsys, tmp_path, "mybots.first:choose", RANDOM_PY, "-n", "2", "--move-time", "2"
    )
    assert status == 0
    assert len(records) == 2
    for record in records:
        assert "mybots.first:choose" in record["players"]
        assert record["result"]["reason"] not in ("forfeit", "timeout", "resignation"), record[
            "result"
        ]


@needs_sandbox
@pytest.mark.parametrize(
    ("function", "fault", "says"),
    [
        ("raises", "crash", r"choose raised ValueError at ply \d+: no idea what to play"),
        ("nothing", "malformed_move", "malformed move 'None'"),
        ("illegal", "no_such_stone", "illegal move 'R99@12'"),
        ("missing", "crash", "has no 'missing'"),
        ("NOT_A_FUNCTION", "crash", "is not a function, but 3"),
    ],
)
def test_a_function_that_goes_wrong_loses_by_forfeit_saying_why(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    faulty: Path,
    function: str,
    fault: str,
    says: str,
) -> None:
    status, records = _match(capsys, tmp_path, f"{faulty}:{function}", RANDOM_PY, "-n", "1")
    assert status == 0
    (record,) = records
    seat = record["players"].index(f"faulty.py:{function}")
    result = record["result"]
    assert (result["reason"], result["loser"], result["fault"]) == ("forfeit", seat, fault)
    assert re.search(says, result["detail"]), result["detail"]


@needs_sandbox
def test_a_function_bot_reads_referee_but_cannot_write_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, faulty: Path
) -> None:
    status, records = _match(capsys, tmp_path, f"{faulty}:writes", RANDOM_PY, "-n", "1")
    assert status == 0
    assert records[0]["result"]["reason"] != "forfeit"
    assert not (PACKAGE / "planted.py").exists()


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("nowhere.py:choose", "no bot file 'nowhere.py'"),
        ("no_such_bot_module:choose", "no module 'no_such_bot_module'"),
    ],
)
def test_a_function_bot_that_is_nowhere_is_refused_before_the_match(spec: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        as_bot(spec)


def test_a_function_spec_runs_the_bot_module_under_this_python() -> None:
    bot: Any = as_bot(f"{GREEDY}:choose")
    assert bot.argv == [sys.executable, "-m", "referee.arena.bot", f"{GREEDY}:choose"]
    assert bot.name == "greedy.py:choose"
    assert as_bot(GREEDY).name == "greedy.py"  # a file alone is still a program


# --- serve and load, in this process ------------------------------------------------


def _lines(*messages: dict[str, Any]) -> io.StringIO:
    return io.StringIO("".join(json.dumps(m) + "\n" for m in messages))


def _messages(game: str, seed: int) -> list[dict[str, Any]]:
    """Seat 0's game message and each of its turn messages, from a real game."""
    turns: list[dict[str, Any]] = []

    def keep(turn: Any) -> Any:
        if turn.seat == 0:
            turns.append(json.loads(turn.to_line()))
        return turn.rng.choice(turn.legal_moves)

    result = play_game([keep, keep], game, seed=seed, max_plies=40)
    record: Any = result.record
    info = {
        "type": "game",
        "game": game,
        "rules": dict(record.rules),
        "seat": 0,
        "players": 2,
        "seed": 9,
        "first": record.first,
        "limits": {"move": 5.0, "game": None, "plies": 40},
    }
    return [info, *turns]


def test_serve_hands_choose_the_view_and_sends_its_move() -> None:
    messages = _messages("schotten-totten-2", seed=3)
    calls: list[tuple[Any, float | None]] = []

    def choose(view: Any, rng: Any, time_left: float | None) -> Any:
        calls.append((view, time_left))
        return max(view.legal_moves(), key=str)  # a move object

    out = io.StringIO()
    serve(choose, stdin=_lines({"type": "hello"}, *messages, {"type": "quit"}), stdout=out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"type": "hello", "protocol": "referee-arena/1", "name": "choose"}
    assert answers[1] == {"type": "ready"}
    turns = messages[1:]
    assert len(calls) == len(turns) == len(answers) - 2
    for turn, (view, left), answer in zip(turns, calls, answers[2:], strict=True):
        assert sorted(map(str, view.legal_moves())) == sorted(turn["legal"])
        assert answer == {"type": "move", "move": max(turn["legal"]), "ply": turn["ply"]}
        assert left == budget(5.0, None) or (left is not None and left <= budget(5.0, None))


def test_serve_says_when_choose_returns_no_legal_move() -> None:
    game, turn = _messages("schotten-totten", seed=1)[:2]
    out, err = io.StringIO(), io.StringIO()
    serve(lambda view, rng, left: None, stdin=_lines(game, turn), stdout=out, stderr=err)
    log, ready_or_move = (json.loads(line) for line in out.getvalue().splitlines()[1:])
    assert log == {
        "type": "log",
        "text": f"choose returned None at ply 1, not one of the {len(turn['legal'])} legal moves",
    }
    assert ready_or_move == {"type": "move", "move": "None", "ply": 1}
    assert "choose returned None" in err.getvalue()


def test_serve_ends_the_program_when_choose_raises() -> None:
    game, turn = _messages("schotten-totten", seed=1)[:2]

    def choose(view: Any, rng: Any, left: Any) -> Any:
        raise KeyError("oops")

    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        serve(choose, stdin=_lines(game, turn), stdout=out, stderr=err)
    assert exit_.value.code == 1
    assert out.getvalue().splitlines() == ['{"type": "ready"}']
    assert err.getvalue().rstrip().endswith("bot: choose raised KeyError at ply 1: 'oops'")
    assert "Traceback" in err.getvalue()


def test_serve_resigns_a_turn_whose_view_it_cannot_rebuild() -> None:
    game, turn = _messages("schotten-totten", seed=1)[:2]
    bad = {**turn, "view": {**turn["view"], "hand": ["nonsense"]}}
    out = io.StringIO()
    serve(lambda v, r, t: "draw", stdin=_lines(game, bad), stdout=out, stderr=io.StringIO())
    log, answer = (json.loads(line) for line in out.getvalue().splitlines()[1:])
    assert log["type"] == "log" and "cannot rebuild the view at ply 1" in log["text"]
    assert answer == {"type": "resign"}


def test_load_finds_files_modules_and_says_what_is_wrong(faulty: Path) -> None:
    assert load(f"{faulty}:plays").__name__ == "plays"
    assert load("json:dumps").__name__ == "dumps"
    with pytest.raises(ValueError, match="has no 'missing'"):
        load(f"{faulty}:missing")
    with pytest.raises(ValueError, match="is not a function, but 3"):
        load(f"{faulty}:NOT_A_FUNCTION")
    with pytest.raises(ValueError, match=r"expected MODULE:FUNCTION or FILE\.py:FUNCTION"):
        load("faulty")
    with pytest.raises(ValueError, match="no bot file"):
        load("nowhere.py:choose")


def test_the_module_command_exits_2_saying_why(
    faulty: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([f"{faulty}:missing"]) == 2
    assert "has no 'missing'" in capsys.readouterr().err
    broken = faulty.with_name("broken.py")
    broken.write_text("raise RuntimeError('at import')\n")
    assert main([f"{broken}:choose"]) == 2
    err = capsys.readouterr().err
    assert "RuntimeError: at import" in err and "cannot load" in err


def test_python_m_referee_arena_bot_plays_a_game_over_pipes() -> None:
    messages = _messages("clans-and-glory", seed=2)
    script = "\n".join(json.dumps(m) for m in [{"type": "hello"}, *messages, {"type": "quit"}])
    run = subprocess.run(
        [sys.executable, "-m", "referee.arena.bot", f"{GREEDY}:choose", "--name", "g"],
        input=script + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert answers[0]["name"] == "g"
    moves = [a for a in answers if a["type"] == "move"]
    turns = messages[1:]
    assert len(moves) == len(turns)
    assert all(a["move"] in t["legal"] for a, t in zip(moves, turns, strict=True))


def test_docs_bots_md_shows_the_monte_carlo_example_as_it_is() -> None:
    """The page walks through the example bot, which the tests above play."""
    assert Path(MONTE_CARLO).read_text() in (ROOT / "docs" / "bots.md").read_text()
