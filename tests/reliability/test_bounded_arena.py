"""The referee stays bounded under an untrusted bot (issue #23).

Each case found by the audit, with its clean outcome:

* huge, distinct, parseable moves: refused unread past ``MAX_MOVE_CHARS``, the
  parse caches keep no such text, and the forfeit's detail is short;
* anything a bot sends that reaches a record (a move, a log, an invalid line, a
  crash message): cut, so that every record stays readable by ``validate``;
* a long match: streamed (``iter_match``), so that the referee's memory stays
  flat however many games, and its workers never run far ahead of the caller;
* every number a match takes: refused past its documented limit, at once, as a
  ``ValueError`` in Python and a usage error (exit 2) on the command line.

The memory checks use ``tracemalloc`` (the Python heap of this process), never
the wall clock.
"""

from __future__ import annotations

import gc
import itertools
import json
import sys
import threading
import tracemalloc
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import referee.clans_and_glory.moves as cg_moves
import referee.schotten_totten.moves as st_moves
import referee.schotten_totten_2.moves as st2_moves
from referee.arena import (
    MAX_DETAIL_CHARS,
    MAX_GAMES,
    MAX_JOBS,
    MAX_PLY_LIMIT,
    MAX_SECONDS,
    MAX_SEED,
    CommandBot,
    GameResult,
    iter_match,
    live_processes,
    match_game,
    play_game,
    play_match,
    random_bot,
    tally,
)
from referee.arena._bots import KEPT_LOG_CHARS, KEPT_LOGS, MAX_NAME_CHARS
from referee.cli import main
from referee.errors import InvalidMoveError
from referee.notation import REMEMBERED
from referee.records import MAX_DOCUMENT_BYTES, MAX_MOVE_CHARS, MAX_MOVES, Match, validate

HOSTILE = Path(__file__).parents[1] / "arena" / "hostile_bot.py"
RANDOM_PY = str(Path(__file__).parents[2] / "examples" / "bots" / "random_bot.py")

MOVES = {
    "schotten-totten": st_moves,
    "schotten-totten-2": st2_moves,
    "clans-and-glory": cg_moves,
}
#: The longest move text each game's rules allow (documented in the moves modules).
LONGEST = {
    "schotten-totten": "recruiter draw tactic tactic tactic return blind_mans_bluff shield_bearer",
    "schotten-totten-2": "exchange recruitment,desertion,explosion",
    "clans-and-glory": "G5@t99s99+down+shield",
}
RULES = {
    "schotten-totten": [{}, {"variants": ["tactics"]}, {"edition": "1999"}],
    "schotten-totten-2": [{}, {"variants": ["tactics"]}],
    "clans-and-glory": [{"players": 2}, {"players": 3}, {"players": 4}],
}


def _hostile(mode: str) -> list[str]:
    return [sys.executable, str(HOSTILE), mode, "bounded-arena-test"]


def _huge_return(index: int, size: int = 1 << 20) -> str:
    """A distinct Schotten Totten move text of about ``size`` characters that the
    parser would read (a recruiter's put-back of many cards)."""
    return ("return " + "R7 " * (size // 3))[: size - 8] + f" B{index % 9 + 1}"


def _hostile_callable(size: int = 1 << 20) -> Callable[[Any], Any]:
    """An in-process bot that plays a few plies, then answers a huge, distinct,
    parseable move."""
    counter = itertools.count()

    def bot(turn: Any) -> Any:
        if turn.ply > 4:
            return _huge_return(next(counter), size)
        return turn.rng.choice(turn.legal_moves)

    return bot


# --- the move parsers -----------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(MOVES))
def test_the_limit_is_the_records_and_above_every_legal_move(game: str) -> None:
    moves = MOVES[game]
    assert moves.MAX_MOVE_CHARS == MAX_MOVE_CHARS  # a record can hold every move read
    longest = LONGEST[game]
    assert str(moves.parse_move(longest)) == longest
    seen = 0

    def widest(turn: Any) -> Any:
        nonlocal seen
        seen = max([seen, *(len(str(m)) for m in turn.legal_moves)])
        return turn.rng.choice(turn.legal_moves)

    for rules in RULES[game]:
        players = int(rules.get("players", 2))
        for seed in range(4):
            play_game([widest] * players, game, rules=rules, seed=seed, ask_forced=True)
    assert 0 < seen <= len(longest) < MAX_MOVE_CHARS


@pytest.mark.parametrize("game", sorted(MOVES))
def test_over_long_move_text_is_refused_unread(game: str) -> None:
    parse = MOVES[game].parse_move
    text = _huge_return(1) if game == "schotten-totten" else "R7@3" * 250_000
    with pytest.raises(InvalidMoveError) as refused:
        parse(text)
    message = str(refused.value)
    assert refused.value.reason == "malformed_move"
    assert f"({len(text)} characters): a move is at most {MAX_MOVE_CHARS} characters" in message
    assert len(message) < 200
    # One character past the limit is refused, the limit itself is read as usual.
    with pytest.raises(InvalidMoveError, match="at most 100 characters"):
        parse("x" * (MAX_MOVE_CHARS + 1))
    with pytest.raises(InvalidMoveError, match="expected"):
        parse("x" * MAX_MOVE_CHARS)


def _distinct_moves(moves: Any) -> Iterator[str]:
    """Distinct, short, readable move texts of the game of ``moves``, without end."""
    if moves is st_moves:
        cards = [f"{colour}{value}" for colour in "ROYGBP" for value in range(1, 10)]
        for first, second, third in itertools.product(cards, repeat=3):
            yield f"return {first} {second} {third}"
    else:
        for first, second in itertools.permutations(range(1, 99), 2):
            yield f"shuffle {first},{second}"


@pytest.mark.parametrize(
    "moves", [st_moves, st2_moves], ids=["schotten-totten", "schotten-totten-2"]
)
def test_the_parse_cache_keeps_no_long_text_and_stays_bounded(moves: Any) -> None:
    moves._READ.forget()
    texts = list(itertools.islice(_distinct_moves(moves), 100))
    for text in texts:
        moves.parse_move(text)
    assert set(texts) <= set(moves._READ.texts)  # the cache works
    for index in range(300):
        with pytest.raises(InvalidMoveError):
            moves.parse_move(_huge_return(index, 10_000))
    # Distinct short texts: the cache is emptied when full, never grows past its size.
    most = 0
    for text in itertools.islice(_distinct_moves(moves), REMEMBERED + 500):
        moves.parse_move(text)
        most = max(most, len(moves._READ.texts))
    assert most == REMEMBERED
    assert len(moves._READ.texts) < REMEMBERED
    assert max(map(len, moves._READ.texts)) <= MAX_MOVE_CHARS


def test_huge_parseable_moves_through_play_keep_nothing() -> None:
    """Once, 2 MB texts through ``play()`` kept 621 MB alive in the parse cache."""
    from referee.schotten_totten import new_game

    state = new_game(seed=1)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for index in range(40):
            with pytest.raises(InvalidMoveError) as refused:
                state.play(_huge_return(index, 2 << 20))
            assert len(str(refused.value)) < 200
        del refused  # its traceback holds the last text
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 1 << 20, f"{kept} bytes kept after 40 texts of 2 MB"
    assert max(map(len, st_moves._READ.texts), default=0) <= MAX_MOVE_CHARS


# --- what a bot sends, in results and records -------------------------------------------


def _valid_file(path: Path) -> None:
    """``referee validate`` reads every line of ``path`` as a legal record."""
    assert main(["validate", str(path), "--quiet"]) == 0
    for line in _lines(path):
        assert len(line.encode()) <= MAX_DOCUMENT_BYTES


def _lines(path: Path) -> list[str]:
    """The JSON lines of ``path`` (split at newlines only: a record may hold U+2028)."""
    return path.read_text(encoding="utf-8").removesuffix("\n").split("\n")


def test_an_in_process_bot_with_megabyte_moves_and_messages_gets_short_details(
    tmp_path: Path,
) -> None:
    def raiser(turn: Any) -> Any:
        if turn.ply > 4:
            raise RuntimeError("\ud800 boom " * 200_000)
        return turn.legal_moves[0]

    path = tmp_path / "games.jsonl"
    results = play_match(
        [_hostile_callable(), raiser], games=4, seed=3, records=path, sandbox=False
    )
    for result in results:
        end = result.record.result or {}
        assert end["reason"] == "forfeit"
        assert result.fault in ("malformed_move", "crash")
        assert 0 < len(end["detail"]) <= MAX_DETAIL_CHARS
        assert "\ud800" not in end["detail"]
        assert validate(result.record).legal
    _valid_file(path)


@pytest.mark.parametrize(
    ("mode", "fault"), [("huge_move", "malformed_move"), ("huge_invalid", "invalid_json")]
)
def test_a_near_megabyte_line_is_a_short_forfeit_in_a_valid_record(
    mode: str, fault: str, tmp_path: Path
) -> None:
    """Once, a near-1 MiB move copied into ``result.detail`` made records that
    ``validate`` called unreadable."""
    path = tmp_path / "games.jsonl"
    results = play_match([_hostile(mode), random_bot], games=2, seed=4, records=path)
    assert [r.fault for r in results] == [fault, fault]
    for result in results:
        detail = (result.record.result or {})["detail"]
        assert 0 < len(detail) <= MAX_DETAIL_CHARS
        assert len(result.record.dumps()) < 10_000
    _valid_file(path)
    assert live_processes() == []


def test_logs_and_names_are_cut_and_a_match_keeps_one_games_logs(tmp_path: Path) -> None:
    """A bot that logs more and longer lines than kept, full of control characters
    and lone surrogates: each game keeps at most KEPT_LOGS lines of at most
    KEPT_LOG_CHARS per seat, and a match of several games (one document) the same."""
    path = tmp_path / "games.jsonl"
    lone = play_match([_hostile("chatty"), random_bot], games=2, seed=5, records=path)
    match = play_match(
        [_hostile("chatty"), random_bot],
        "schotten-totten",
        rules={"variants": ["clanfehde"], "rounds": 5},
        games=1,
        seed=5,
        records=tmp_path / "match.jsonl",
    )[0]
    for result in lone:
        seat = result.bots.index(0)
        logs = result.record.meta["logs"][seat]
        assert len(logs) == KEPT_LOGS
        assert all(len(line) <= KEPT_LOG_CHARS for line in logs)
        assert all("\ud800" not in line for line in logs)
        assert result.logs[seat] == tuple(logs)
    assert isinstance(match.record, Match)
    assert len(match.record.games) == 5
    seat = match.bots.index(0)
    kept = [line for game in match.record.games for line in game.meta.get("logs", [[], []])[seat]]
    assert len(kept) == KEPT_LOGS  # not KEPT_LOGS per game: the match is one document
    _valid_file(path)
    _valid_file(tmp_path / "match.jsonl")


def test_a_name_a_bot_gives_itself_is_short_and_printable() -> None:
    from referee.arena._bots import _ProcessSession

    session = _ProcessSession(CommandBot(_hostile("chatty")), None, ())
    try:
        assert 0 < len(session.name) <= MAX_NAME_CHARS
        assert session.name.isprintable()
        assert session.name.startswith("hostile-chatty?")
    finally:
        session.abort()


# --- a long match keeps the referee's memory flat ---------------------------------------


def _traced(stream: Iterator[GameResult], marks: tuple[int, ...]) -> dict[int, int]:
    """The Python heap in use after each game number of ``marks``, and the peak."""
    gc.collect()
    tracemalloc.start()
    try:
        used = {}
        for index, _ in enumerate(stream):
            if index in marks:
                gc.collect()
                used[index] = tracemalloc.get_traced_memory()[0]
        used[-1] = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return used


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_long_match_against_a_hostile_bot_keeps_memory_flat(jobs: int) -> None:
    """Megabyte moves every game: the referee's heap is the same after 100 games
    as after 600 (it once grew by a megabyte a game), and its peak is a few
    of those moves."""
    games = 600
    for _ in iter_match([_hostile_callable(), random_bot], games=20, seed=6):
        pass  # warm the games' own caches up
    used = _traced(
        iter_match([_hostile_callable(), random_bot], games=games, seed=7, jobs=jobs),
        (100, games - 1),
    )
    assert used[games - 1] - used[100] < 256 << 10, used
    assert used[-1] < 16 << 20, used


def test_tally_reads_a_stream_and_keeps_no_result() -> None:
    alive: list[weakref.ref[GameResult]] = []

    def watched() -> Iterator[GameResult]:
        for result in iter_match([random_bot, random_bot], games=40, seed=8):
            alive.append(weakref.ref(result))
            yield result

    standings = tally(watched(), 2)
    gc.collect()
    assert [s.games for s in standings] == [40, 40]
    assert len(alive) == 40
    assert sum(ref() is not None for ref in alive) == 0


def test_workers_wait_for_a_caller_that_stops_taking_results() -> None:
    """With ``jobs`` workers, at most (2 x jobs + 1) x bots finished results wait for
    the caller: a caller that stops taking them stops the match from running ahead."""
    jobs, bots = 2, 2
    window = (2 * jobs + 1) * bots
    finished = itertools.count(1)
    ran_ahead = threading.Event()
    bound = 3 * window  # what the workers may have finished at most (see below)

    def counted(result: GameResult) -> None:
        if next(finished) > bound:
            ran_ahead.set()

    stream = iter_match([random_bot, random_bot], games=10_000, seed=9, jobs=jobs, on_game=counted)
    try:
        first = next(stream)  # the caller takes one result, then none
        # The first hand-over takes at most a window's results; the workers may then
        # finish another window and the games they had taken: far below 10,000. A
        # match that ran ahead would pass the bound long before the wait ends.
        assert not ran_ahead.wait(3.0)
        assert first.round == 0
    finally:
        stream.close()
    assert live_processes() == []


def test_closing_a_stream_early_stops_the_match(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    stream = iter_match([RANDOM_PY, RANDOM_PY], games=50, seed=10, records=path)
    first = next(stream)
    assert live_processes() != []  # the bots play on while the caller holds the stream
    stream.close()
    assert live_processes() == []
    lines = _lines(path)
    assert len(lines) == 2  # the first deal, written before its first result came
    assert json.loads(lines[0])["meta"]["round"] == first.round == 0
    _valid_file(path)


def test_hostile_program_bots_keep_the_referee_flat(tmp_path: Path) -> None:
    """Huge moves, huge invalid lines, over-long lines, floods and chatter from a bot
    program, one per game: every game ends cleanly, every record validates, and the
    referee's heap does not grow from game to game."""
    path = tmp_path / "games.jsonl"
    games = 24
    used = _traced(
        iter_match([_hostile("medley"), random_bot], games=games, seed=11, records=path),
        (6, games - 1),
    )
    # (the games' own bounded memos still fill a little from its full games)
    assert used[games - 1] - used[6] < 512 << 10, used
    assert used[-1] < 16 << 20, used
    _valid_file(path)
    faults = {json.loads(line)["result"].get("fault") for line in _lines(path)}
    assert {"malformed_move", "invalid_json", "line_too_long", "flood"} <= faults
    assert live_processes() == []


# --- every number has a limit ---------------------------------------------------------


def _never(turn: Any) -> Any:
    raise AssertionError("a bot was asked to play despite a refused argument")


BAD_ARGUMENTS: list[tuple[dict[str, Any], str]] = [
    ({"games": -1}, "games must be from 0 to 1000000, not -1"),
    ({"games": MAX_GAMES + 1}, "games must be from 0 to 1000000, not 1000001"),
    ({"games": 2.0}, "games must be a whole number"),
    ({"jobs": 0}, "jobs must be from 1 to 64, not 0"),
    ({"jobs": 10_000_000}, "jobs must be from 1 to 64, not 10000000"),
    ({"seed": -1}, "seed must be from 0 to 18446744073709551615, not -1"),
    ({"seed": MAX_SEED + 1}, "seed must be from 0 to 18446744073709551615"),
    ({"seed": 10**5000}, "not a number too long to print"),
    ({"move_time": float("inf")}, "move_time must be more than 0 and at most 86400 seconds"),
    ({"move_time": 1e308}, "at most 86400 seconds, not 1e+308"),
    ({"move_time": float("nan")}, "at most 86400 seconds, not nan"),
    ({"move_time": 0}, "move_time must be more than 0"),
    ({"move_time": "10"}, "move_time must be a number of seconds, not '10'"),
    ({"game_time": MAX_SECONDS * 2}, "game_time must be more than 0 and at most 86400"),
    ({"max_plies": 0}, "max_plies must be from 1 to 10000, not 0"),
    ({"max_plies": MAX_PLY_LIMIT + 1}, "max_plies must be from 1 to 10000, not 10001"),
    ({"max_plies": 2.5}, "max_plies must be a whole number"),
    ({"records": 7}, "records must be a path or a text file, not 7"),
]


@pytest.mark.parametrize(("options", "message"), BAD_ARGUMENTS)
def test_a_number_past_its_limit_is_refused_at_once(
    options: dict[str, Any], message: str, tmp_path: Path
) -> None:
    records = tmp_path / "games.jsonl"
    options = {"records": records, **options}
    for play in (iter_match, play_match):
        with pytest.raises(ValueError) as refused:
            play([_never, _never], **options)  # type: ignore[operator]
        assert message in str(refused.value)
        assert len(str(refused.value)) < 200
    assert not records.exists()  # nothing half-done


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: play_game([_never, _never], seed=-1), "seed must be from 0"),
        (lambda: play_game([_never, _never], round=-1), "round must be from 0 to 999999"),
        (lambda: play_game([_never, _never], move_time=float("inf")), "move_time must be"),
        (lambda: match_game([_never, _never], index=MAX_GAMES), "index must be from 0"),
        (lambda: match_game([_never, _never], max_plies=MAX_MOVES + 1), "max_plies must be"),
        (lambda: CommandBot(["bot"], start_time=float("inf")), "start_time must be more than"),
    ],
)
def test_single_games_and_bots_refuse_numbers_past_their_limits(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--move-time", "inf"),
        ("--move-time", "1e308"),
        ("--move-time", "nan"),
        ("--move-time", "86401"),
        ("--game-time", "86401"),
        ("--max-plies", "10001"),
        ("--max-plies", "0"),
        ("-n", "-1"),
        ("-n", "1000001"),
        ("--jobs", "10000000"),
        ("--jobs", "0"),
        ("--seed", "-5"),
        ("--seed", "18446744073709551616"),
        ("--seed", "9" * 5000),
        ("--sandbox-memory", "99999999999999"),
        ("--rules", "[" * 100_000),
    ],
)
def test_the_match_command_refuses_numbers_past_their_limits(
    option: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "games.jsonl"
    status = main(["match", RANDOM_PY, RANDOM_PY, "--records", str(records), option, value])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("usage: referee match")
    assert f"argument {option}" in err or f"/{option}" in err
    assert "Traceback" not in err
    assert len(err.splitlines()[-1]) < 300
    assert not records.exists()
    assert live_processes() == []


def test_the_limits_are_the_documented_ones() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "reliability.md").read_text(encoding="utf-8")
    assert (MAX_GAMES, MAX_JOBS, MAX_PLY_LIMIT, MAX_SECONDS) == (1_000_000, 64, MAX_MOVES, 86_400)
    assert MAX_SEED == 2**64 - 1
    for name in ("MAX_GAMES", "MAX_JOBS", "MAX_PLY_LIMIT", "MAX_SECONDS", "MAX_SEED"):
        assert f"`{name}`" in doc
    assert "`MAX_DETAIL_CHARS`" in doc and MAX_DETAIL_CHARS == 300
