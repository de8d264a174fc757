"""The arena end to end: the example bots play every game through real processes."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.arena import (
    GameResult,
    Turn,
    arena_game,
    live_processes,
    match_game,
    play_game,
    play_match,
    random_bot,
    render_table,
    seating,
    tally,
)
from referee.records import Match, parse_document, validate, validate_source

BOTS = Path(__file__).parents[2] / "examples" / "bots"
RANDOM_PY, GREEDY_PY, RANDOM_JS = (
    str(BOTS / n) for n in ("random_bot.py", "greedy.py", "random_bot.js")
)

# Every game and variant the arena plays, with one bot per seat.
SETUPS = [
    ("schotten-totten", {}, [RANDOM_PY, GREEDY_PY]),
    ("schotten-totten", {"edition": "1999"}, [GREEDY_PY, RANDOM_JS]),
    ("schotten-totten", {"variants": ["tactics"]}, [RANDOM_PY, GREEDY_PY]),
    ("schotten-totten", {"variants": ["early-bird"]}, [RANDOM_JS, GREEDY_PY]),
    ("schotten-totten", {"variants": ["tactics", "early-bird"]}, [GREEDY_PY, RANDOM_PY]),
    ("schotten-totten-2", {}, [RANDOM_PY, GREEDY_PY]),
    ("schotten-totten-2", {"variants": ["tactics"]}, [GREEDY_PY, RANDOM_JS]),
    ("clans-and-glory", {}, [RANDOM_PY, GREEDY_PY]),
    ("clans-and-glory", {"players": 3}, [RANDOM_PY, GREEDY_PY, RANDOM_JS]),
    ("clans-and-glory", {"players": 4}, [RANDOM_PY, GREEDY_PY, RANDOM_JS, RANDOM_PY]),
]


def _signature(results: list[GameResult]) -> list[tuple[object, ...]]:
    return [(r.record.moves, json.dumps(r.record.result), r.names) for r in results]


@pytest.mark.parametrize(("game", "rules", "bots"), SETUPS)
def test_example_bots_play_every_game(game: str, rules: dict[str, object], bots: list[str]) -> None:
    if RANDOM_JS in bots and shutil.which("node") is None:
        pytest.skip("node is not installed (the CI installs it: apt-get install nodejs)")
    results = play_match(bots, game, rules=rules, games=len(bots), seed=11)
    assert len(results) == len(bots)
    for result in results:
        assert result.fault is None, result.record.result
        report = validate(result.record)
        assert report.legal, report.summary()
        assert report.outcome is not None
        assert not report.public
    # Every bot sat in every seat once, on the same deal.
    assert sorted(r.bots for r in results) == sorted(
        seating(i, len(bots)) for i in range(len(bots))
    )
    assert len({json.dumps(r.record.deal) for r in results}) == 1
    assert live_processes() == []


def test_results_are_deterministic_for_a_seed() -> None:
    bots = [RANDOM_PY, GREEDY_PY]
    once = play_match(bots, "schotten-totten", games=4, seed=3)
    again = play_match(bots, "schotten-totten", games=4, seed=3, jobs=2)
    other = play_match(bots, "schotten-totten", games=4, seed=4)
    assert _signature(once) == _signature(again)
    assert _signature(once) != _signature(other)
    assert [r.seed for r in once] == [r.seed for r in again]
    alone = match_game(bots, "schotten-totten", 3, seed=3)  # one game, played elsewhere
    assert _signature([alone]) == _signature(once[3:])
    assert alone.bots == once[3].bots == (1, 0)


def test_in_process_and_subprocess_random_bots_agree_on_the_deal() -> None:
    inside = play_game([random_bot, random_bot], "schotten-totten-2", seed=9)
    outside = play_game([RANDOM_PY, RANDOM_PY], "schotten-totten-2", seed=9)
    assert inside.record.deal == outside.record.deal
    assert inside.record.first == outside.record.first
    assert validate(outside.record).legal
    assert live_processes() == []  # play_game stops its bots


def test_records_file_holds_every_game_in_order(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    results = play_match(
        [random_bot, random_bot], "clans-and-glory", games=6, seed=1, jobs=3, records=out
    )
    lines = out.read_text().splitlines()
    assert [json.loads(line)["meta"]["round"] for line in lines] == list(range(6))
    assert [json.loads(line)["moves"] for line in lines] == [list(r.record.moves) for r in results]
    assert all(report.legal for report in validate_source(out))


def test_views_never_show_what_the_seat_may_not_see() -> None:
    seen: list[tuple[int, set[str], set[str]]] = []
    import referee.arena._match as match_module

    def spy(turn: object) -> object:
        from referee.arena import Turn

        assert isinstance(turn, Turn)
        data = json.dumps(turn.view_json())
        words = set(re.findall(r"[A-Za-z_]+\d*", data))
        offered = {w for m in turn.legal_moves for w in re.findall(r"[A-Za-z_]+\d*", str(m))}
        seen.append((turn.seat, words, offered))
        return turn.rng.choice(turn.legal_moves)

    assert match_module  # the spy checks what the referee hands a bot
    for game, rules in (
        ("schotten-totten", {"variants": ["tactics"]}),
        ("schotten-totten-2", {"variants": ["tactics"]}),
    ):
        adapter = arena_game(game, rules)
        import random

        first, deal = adapter.deal(random.Random(5))
        state = adapter.start(first, deal)
        rng = random.Random(1)
        while state.outcome is None and state.ply < 300:
            chance = adapter.chance(state, rng)
            if chance is None:
                seat = state.to_move
                hidden = {str(c) for c in state.hands[1 - seat]} - {
                    str(c) for c in state.hands[seat]
                }
                hidden -= {t for t in hidden if not re.fullmatch(r"[A-Z]\d+", t)}
                data = json.dumps(adapter.view_json(state, seat))
                shown = set(re.findall(r"[A-Za-z_]+\d*", data))
                offered = {
                    w
                    for m in adapter.legal_moves(state, rng)
                    for w in re.findall(r"[A-Za-z_]+\d*", str(m))
                }
                assert not hidden & shown, (game, hidden & shown)
                assert not hidden & offered, (game, hidden & offered)
                chance = rng.choice(adapter.legal_moves(state, rng))
            state = state.play(chance)
    play_game([spy, spy], "schotten-totten", seed=2)
    assert seen and all(offered for _, _, offered in seen)


def test_results_table_counts_every_game() -> None:
    results = play_match([random_bot, random_bot, random_bot], "clans-and-glory", games=6, seed=2)
    standings = tally(results, 3)
    assert [s.games for s in standings] == [6, 6, 6]
    assert sum(s.wins for s in standings) == sum(1 for r in results if r.winner is not None)
    for s in standings:
        assert s.wins + s.losses + s.draws == s.games
        assert s.rate_low <= s.rate <= s.rate_high
        assert s.elo_low <= s.elo <= s.elo_high
    table = render_table(standings)
    assert table.splitlines()[0].startswith("bot")
    assert len(table.splitlines()) == 4


def test_wrong_number_of_bots_is_refused() -> None:
    with pytest.raises(ValueError, match="2 players sit at 'schotten-totten'"):
        play_match([random_bot] * 3, "schotten-totten", games=1)


def test_cli_match_prints_a_table_and_writes_records(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee",
            "match",
            RANDOM_PY,
            GREEDY_PY,
            "--game",
            "schotten-totten",
            "-n",
            "6",
            "--jobs",
            "2",
            "--seed",
            "1",
            "--records",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split()[:6] == ["bot", "games", "wins", "losses", "draws", "score"]
    assert lines[1].startswith("random_bot.py") and lines[2].startswith("greedy.py")
    assert "games (" not in run.stderr  # no progress bar when not on a terminal
    check = subprocess.run(
        [sys.executable, "-m", "referee", "validate", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout
    assert "6 legal" in check.stdout


def test_cli_match_refuses_unknown_game() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "referee", "match", RANDOM_PY, RANDOM_PY, "--game", "chess"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "unknown game 'chess'" in run.stderr


def test_cli_match_draws_a_progress_bar_when_asked() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee",
            "match",
            RANDOM_PY,
            RANDOM_PY,
            "--game",
            "clans-and-glory",
            "-n",
            "2",
            "--progress",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "[###" in run.stderr and "2/2 games" in run.stderr
    standings = json.loads(run.stdout)
    assert [s["games"] for s in standings] == [2, 2]


@pytest.mark.parametrize(
    ("game", "rules", "games"),
    [
        ("schotten-totten", {"variants": ["clanfehde"], "rounds": 3}, 3),
        ("schotten-totten-2", {"variants": ["tactics", "rache"]}, 2),
    ],
)
def test_matches_are_played_and_validate(game: str, rules: dict[str, object], games: int) -> None:
    results = play_match([RANDOM_PY, GREEDY_PY], game, rules=rules, games=2, seed=4)
    for result in results:
        match = result.record
        assert isinstance(match, Match)
        assert len(match.games) == games
        firsts = [g.first for g in match.games]
        assert all(b == 1 - a for a, b in itertools.pairwise(firsts))  # the opener alternates
        document = parse_document(json.loads(match.dumps()))
        report = validate(document)
        assert report.legal, report.summary()
        assert report.match_result == {
            k: v for k, v in (match.result or {}).items() if k in report.match_result
        }
    assert [r.bots for r in results] == [(0, 1), (1, 0)]


def test_a_resignation_ends_the_match() -> None:
    def resign_late(turn: Turn) -> object:
        return "resign" if turn.ply > 30 else turn.rng.choice(turn.legal_moves)

    result = play_match(
        [resign_late, random_bot],
        "schotten-totten",
        rules={"variants": ["clanfehde"]},
        games=1,
        seed=3,
    )[0]
    assert isinstance(result.record, Match)
    assert len(result.record.games) == 1
    assert result.record.result == {"winner": 1, "reason": "resignation", "loser": 0}
    assert result.points == (0.0, 1.0)
    assert validate(parse_document(json.loads(result.record.dumps()))).legal


def test_in_process_bots_get_their_own_view_only() -> None:
    checked: list[int] = []

    def spy(turn: Turn) -> object:
        view = turn.view
        hidden = [hand is None for hand in view.hands]
        assert hidden == [p != turn.seat for p in range(len(view.hands))]
        if turn.game == "clans-and-glory":
            assert view.deal is None and view.removed is None
        else:
            assert view.deck is None
        assert all(s.ply < turn.ply for s in turn.seen)
        checked.append(turn.ply)
        return turn.rng.choice(turn.legal_moves)

    for game in ("schotten-totten", "schotten-totten-2", "clans-and-glory"):
        result = play_game([spy, spy], game, seed=6)
        assert result.fault is None
    assert len(checked) > 50


def test_schotten_totten_2_exchange_asks_each_player_for_its_own_cards() -> None:
    # Random bots offer the exchange when they hold it; the opponent is asked
    # for its answer in a turn of its own, and the record validates.
    answered = 0
    for seed in range(40):
        result = play_game(
            [random_bot, random_bot],
            "schotten-totten-2",
            rules={"variants": ["tactics"]},
            seed=seed,
        )
        moves = list(result.record.moves)
        offers = [k for k, m in enumerate(moves) if m.startswith("exchange ")]
        for k in offers:
            assert moves[k + 1].startswith("give ")
        answered += len(offers)
        assert validate(result.record).legal
        if answered >= 2:
            break
    assert answered >= 2


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("schotten-totten", {}),
        ("schotten-totten", {"variants": ["tactics"]}),
        ("schotten-totten", {"edition": "1999"}),
        ("schotten-totten-2", {"variants": ["tactics"]}),
        ("clans-and-glory", {"players": 3}),
    ],
)
def test_turn_lines_are_the_json_of_the_turn(game: str, rules: dict[str, object]) -> None:
    # The referee writes a turn piece by piece (remembered stone, card and move
    # texts); the line must be exactly the compact JSON of the turn message.
    lines: list[tuple[bytes, bytes]] = []

    def spy(turn: Turn) -> object:
        expected = (json.dumps(turn.to_json(), separators=(",", ":")) + "\n").encode()
        lines.append((turn.to_line(), expected))
        return turn.rng.choice(turn.legal_moves)

    players = 3 if game == "clans-and-glory" else 2
    for seed in range(4):
        # With a game clock every other seed, so that time_left is a number.
        clock = 600.0 if seed % 2 else None
        play_game([spy] * players, game, rules=rules, seed=seed, game_time=clock)
    assert len(lines) > 50
    assert any(b'"time_left":null' not in line for line, _ in lines)
    for line, expected in lines:
        assert line == expected


def test_schotten_totten_view_text_is_the_json_of_the_view() -> None:
    import random

    checked = 0
    for rules in ({}, {"variants": ["tactics"]}):
        adapter = arena_game("schotten-totten", rules)
        for seed in range(6):
            rng = random.Random(seed)
            first, deal = adapter.deal(rng)
            state = adapter.start(first, deal)
            while state.outcome is None:
                for seat in (0, 1):
                    expected = json.dumps(adapter.view_json(state, seat), separators=(",", ":"))
                    assert adapter.view_text(state, seat) == expected
                    checked += 1
                state = state.play(rng.choice(adapter.legal_moves(state, rng)))
    assert checked > 1000


def test_a_bot_command_line_is_split_and_a_missing_script_refused(tmp_path: Path) -> None:
    from referee.arena import as_bot

    assert as_bot("python3 examples/bots/random_bot.py").argv == [
        "python3",
        "examples/bots/random_bot.py",
    ]
    assert as_bot("examples/bots/random_bot.py").argv == [
        sys.executable,
        "examples/bots/random_bot.py",
    ]
    with pytest.raises(ValueError, match="no bot script"):
        as_bot(str(tmp_path / "missing.js"))
    assert shutil.which("node"), "the README's test command installs Node.js (.ci/setup)"
    results = play_match(["node examples/bots/random_bot.js", random_bot], games=2, seed=1)
    assert all(r.fault is None for r in results)
