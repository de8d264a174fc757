"""The hostile-bot suite: each way a bot can misbehave ends as a recorded forfeit or
timeout, the match goes on with a fresh bot, and no process is left behind."""

from __future__ import annotations

import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import referee.arena._bots as bots_module
from referee.arena import BotFault, live_processes, play_match, random_bot
from referee.records import validate
from tests.arena.procs import marked, new_marker, survivors

HOSTILE = Path(__file__).with_name("hostile_bot.py")
RANDOM_PY = str(Path(__file__).parents[2] / "examples" / "bots" / "random_bot.py")

# mode -> (result reason, fault code)
CASES = {
    "hang": ("timeout", "timeout"),
    "hang_child": ("timeout", "timeout"),
    "slow": ("timeout", "timeout"),
    "crash_start": ("forfeit", "crash"),
    "crash_mid": ("forfeit", "crash"),
    "garbage": ("forfeit", "invalid_json"),
    "half_line": ("forfeit", "crash"),
    "enormous": ("forfeit", "line_too_long"),
    "flood": ("forfeit", "flood"),
    "illegal": ("forfeit", None),  # the game's own refusal code
    "wrong_player": ("forfeit", "wrong_player"),
    "close_stdout": ("forfeit", "closed"),
    "old_protocol": ("forfeit", "handshake"),
}
# In the sandbox, bwrap (outside and as the sandbox's init) holds the bot's output
# open too: a bot that closes it and lives on is caught by its clock.
SANDBOXED = {**CASES, "close_stdout": ("timeout", "timeout")}


def _hostile(mode: str) -> tuple[list[str], str]:
    marker = new_marker()
    return [sys.executable, str(HOSTILE), mode, marker], marker


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The command lines of the bot processes the arena starts."""
    started: list[list[str]] = []

    class Counted(bots_module.BotProcess):
        def __init__(self, argv: list[str], **options: object) -> None:
            started.append(list(argv))
            super().__init__(argv, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(bots_module, "BotProcess", Counted)
    return started


@pytest.mark.parametrize(
    ("mode", "sandbox"),
    [(mode, True) for mode in sorted(CASES)]
    + [("hang_child", False), ("crash_mid", False), ("close_stdout", False)],
)
def test_hostile_bot_loses_and_leaves_nothing(
    mode: str, sandbox: bool, starts: list[list[str]]
) -> None:
    command, marker = _hostile(mode)
    reason, fault = (SANDBOXED if sandbox else CASES)[mode]
    # A short move time where the bot is meant to run out of it, a generous one
    # elsewhere, so that a busy machine cannot turn a forfeit into a timeout.
    move_time = 0.5 if reason == "timeout" else 5.0
    results = play_match(
        [command, random_bot],
        "schotten-totten",
        games=3,
        seed=5,
        move_time=move_time,
        sandbox=sandbox,
    )
    for result in results:
        hostile_seat = result.bots.index(0)
        assert result.record.result is not None
        assert result.record.result["reason"] == reason, result.record.result
        assert result.record.result["loser"] == hostile_seat
        assert result.record.result["winner"] == 1 - hostile_seat
        assert result.record.result["detail"]
        if fault is not None:
            assert result.fault == fault, result.record.result
        else:
            assert result.fault not in (None, "timeout", "crash")
        if mode not in ("crash_start", "old_protocol"):  # these break before any turn
            said = f"about to break the protocol: {mode}"
            assert said in result.logs[hostile_seat]
            assert said in result.record.meta["logs"][hostile_seat]
        report = validate(result.record)
        assert report.legal, report.summary()
        assert report.outcome is not None and report.outcome.reason == reason
    # A fresh bot for every game: game 2 is played by game 0's rotation, after its fault.
    assert len(starts) == 3
    assert all((marker in argv) and (("bwrap" in argv[0]) is sandbox) for argv in starts)
    assert live_processes() == []
    assert survivors(marker) == []


def test_bot_ignoring_the_end_forfeits_the_next_game() -> None:
    command, marker = _hostile("ignore_end")
    # Games 0 and 2 are played by the same processes (one seat rotation).
    results = play_match([command, random_bot], "schotten-totten", games=3, seed=2)
    first, second, third = results
    assert first.fault is None and first.record.result is not None
    assert first.record.result["reason"] in ("three_adjacent", "five_stones", "blocked")
    assert second.fault is None  # another process: it has not been told an end yet
    assert third.fault == "out_of_turn"
    assert third.plies == 0
    assert third.record.result == {
        **third.record.result,
        "reason": "forfeit",
        "loser": third.bots.index(0),
    }
    assert validate(third.record).legal
    assert live_processes() == []
    assert survivors(marker) == []


def test_missing_program_forfeits_every_game() -> None:
    results = play_match([["/nonexistent/bot"], random_bot], "schotten-totten", games=2, seed=1)
    assert [r.fault for r in results] == ["crash", "crash"]
    assert all("cannot start" in (r.record.result or {})["detail"] for r in results)
    assert live_processes() == []


def test_resignation_is_recorded_and_validates() -> None:
    def resigner(turn: object) -> str:
        return "resign"

    result = play_match([resigner, random_bot], "schotten-totten-2", games=1, seed=4)[0]
    assert result.record.result == {"winner": 1, "reason": "resignation", "loser": 0}
    assert result.fault is None
    assert validate(result.record).legal


def test_in_process_bot_that_raises_forfeits() -> None:
    def broken(turn: object) -> str:
        raise KeyError("oops")

    result = play_match([random_bot, broken], "clans-and-glory", games=1, seed=4)[0]
    assert result.fault == "crash"
    assert "KeyError" in (result.record.result or {})["detail"]


def test_game_time_limit_ends_in_timeout() -> None:
    command, _ = _hostile("slow")
    result = play_match([command, random_bot], "schotten-totten", games=1, seed=3, game_time=0.5)[0]
    assert result.record.result is not None
    assert result.record.result["reason"] == "timeout"
    assert "for the game" in result.record.result["detail"]
    assert live_processes() == []


def test_ply_limit_ends_a_game_as_a_draw() -> None:
    result = play_match([random_bot, random_bot], "schotten-totten", games=1, max_plies=10)[0]
    assert result.record.result == {"winner": None, "reason": "ply_limit", "plies": 10}
    assert result.points == (0.5, 0.5)
    report = validate(result.record)
    assert report.legal and report.plies == 10


def test_forfeit_with_three_players_has_no_winner() -> None:
    def broken(turn: object) -> str:
        return "not a move"

    result = play_match([random_bot, broken, random_bot], "clans-and-glory", games=1, seed=1)[0]
    assert result.record.result is not None
    assert result.record.result["winner"] is None
    assert result.record.result["loser"] == 1
    assert result.fault == "malformed_move"
    assert result.points == (0.5, 0.0, 0.5)
    assert validate(result.record).legal


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_stopping_the_referee_kills_its_bots(how: signal.Signals) -> None:
    """SIGTERM: the referee kills its bots on the way out. SIGKILL: the referee
    cannot, and the sandbox does (each bwrap dies with its parent, and each
    sandbox's init with its bwrap)."""
    command, marker = _hostile("hang_child")
    referee = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "referee",
            "match",
            shlex.join(command),
            RANDOM_PY,
            "--move-time",
            "60",
            "-n",
            "1",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):  # the bot's child is running
            if marked(marker, "sleep(600)"):
                break
            time.sleep(0.05)
        assert marked(marker, "sleep(600)")
        referee.send_signal(how)
        expected = 128 + signal.SIGTERM if how == signal.SIGTERM else -signal.SIGKILL
        assert referee.wait(30) == expected
    finally:
        referee.kill()
        referee.wait()
    assert survivors(marker) == []


def test_endless_error_output_costs_a_bounded_tail(tmp_path: Path) -> None:
    """A bot that writes megabytes to its standard error: the referee keeps only the
    end of it (no file or buffer grows with it), and a crash still reports its last words."""
    from referee.arena._process import STDERR_KEPT, BotProcess

    script = (
        "import sys\n"
        "for _ in range(512): sys.stderr.write('x' * 65535 + '\\n')\n"
        "sys.stderr.write('the last words')\n"
        "sys.exit(4)\n"
    )
    process = BotProcess([sys.executable, "-c", script], max_line=1 << 10)
    try:
        with pytest.raises(BotFault) as caught:
            process.readline(time.monotonic() + 30)
        assert caught.value.fault == "crash"
        assert "the last words" in caught.value.detail
        assert "exit status 4" in caught.value.detail
        everything = process.stderr_tail(size=1 << 30)
        assert everything.endswith("the last words")
        assert len(everything.encode()) <= STDERR_KEPT
    finally:
        process.kill()
    assert process.pid not in live_processes()
