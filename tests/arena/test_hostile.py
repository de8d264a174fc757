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

from referee.arena import BotFault, live_processes, play_match, random_bot
from referee.records import validate

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


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie awaiting its reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _survivors(path: Path) -> list[int]:
    """The recorded processes still running once a killed process has had a few
    seconds to die (an orphan is reaped by init a moment after its SIGKILL)."""
    for _ in range(100):
        alive = [pid for pid in _pids(path) if _alive(pid)]
        if not alive:
            break
        time.sleep(0.05)
    return alive


def _pids(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _hostile(mode: str, tmp_path: Path) -> tuple[list[str], Path]:
    pidfile = tmp_path / f"{mode}.pids"
    return [sys.executable, str(HOSTILE), mode, str(pidfile)], pidfile


@pytest.mark.parametrize("mode", sorted(CASES))
def test_hostile_bot_loses_and_leaves_nothing(mode: str, tmp_path: Path) -> None:
    command, pidfile = _hostile(mode, tmp_path)
    # A short move time where the bot is meant to run out of it, a generous one
    # elsewhere, so that a busy machine cannot turn a forfeit into a timeout.
    move_time = 0.5 if CASES[mode][0] == "timeout" else 5.0
    results = play_match(
        [command, random_bot], "schotten-totten", games=2, seed=5, move_time=move_time
    )
    reason, fault = CASES[mode]
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
        report = validate(result.record)
        assert report.legal, report.summary()
        assert report.outcome is not None and report.outcome.reason == reason
    # The arena started a fresh bot for the second game.
    assert len(_pids(pidfile)) >= 2
    assert live_processes() == []
    assert _survivors(pidfile) == []


def test_bot_ignoring_the_end_forfeits_the_next_game(tmp_path: Path) -> None:
    command, pidfile = _hostile("ignore_end", tmp_path)
    results = play_match([command, random_bot], "schotten-totten", games=3, seed=2)
    first, second, third = results
    assert first.fault is None and first.record.result is not None
    assert first.record.result["reason"] in ("three_adjacent", "five_stones", "blocked")
    assert second.fault == "out_of_turn"
    assert second.plies == 0
    assert second.record.result == {
        **second.record.result,
        "reason": "forfeit",
        "loser": second.bots.index(0),
    }
    assert validate(second.record).legal
    assert third.fault is None  # a fresh copy of the bot plays on
    assert live_processes() == []
    assert _survivors(pidfile) == []


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


def test_game_time_limit_ends_in_timeout(tmp_path: Path) -> None:
    command, _ = _hostile("slow", tmp_path)
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


def test_stopping_the_referee_kills_its_bots(tmp_path: Path) -> None:
    command, pidfile = _hostile("hang_child", tmp_path)
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
        for _ in range(600):  # the bot and its child are both running
            if len(_pids(pidfile)) >= 2:
                break
            time.sleep(0.05)
        assert len(_pids(pidfile)) >= 2
        assert all(_alive(pid) for pid in _pids(pidfile))
        referee.send_signal(signal.SIGTERM)
        assert referee.wait(30) == 128 + signal.SIGTERM
    finally:
        referee.kill()
        referee.wait()
    assert _survivors(pidfile) == []


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
