"""Views from the wire: what a bot program receives, turned back into view objects.

For every game and variant, at every turn of random games played by the
referee, the view rebuilt from the messages one seat received (its ``game``
message and its ``turn`` messages, exactly the bytes sent) equals the view the
referee hands an in-process bot: ``==``, the same hands, the same history; and
``determinize`` and the action space accept it.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.actions import legal_actions
from referee.arena import (
    Bot,
    GameInfo,
    MessageError,
    SeenMove,
    Turn,
    play_game,
    view_from_message,
    view_reader,
)
from referee.games import find_game, game_names
from referee.records import validate

# Every game and variant the arena plays, with its number of seats.
SETUPS = [
    ("schotten-totten", {}, 2),
    ("schotten-totten", {"edition": "1999"}, 2),
    ("schotten-totten", {"variants": ["tactics"]}, 2),
    ("schotten-totten", {"variants": ["early-bird"]}, 2),
    ("schotten-totten", {"variants": ["tactics", "early-bird"]}, 2),
    ("schotten-totten", {"variants": ["clanfehde", "tactics"], "rounds": 2}, 2),
    ("schotten-totten", {"edition": "1999", "rounds": 2}, 2),
    ("schotten-totten-2", {}, 2),
    ("schotten-totten-2", {"variants": ["tactics"]}, 2),
    ("schotten-totten-2", {"variants": ["rache"]}, 2),
    ("schotten-totten-2", {"variants": ["tactics", "rache"]}, 2),
    ("clans-and-glory", {}, 2),
    ("clans-and-glory", {"players": 3}, 3),
    ("clans-and-glory", {"players": 4}, 4),
]

SETTINGS = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


class _Recording:
    """A session that keeps every message its seat was sent (as the bytes a
    program reads) beside the view object an in-process bot would get."""

    def __init__(self, log: list[tuple[str, Any, Any]]) -> None:
        self.name, self.logs, self.log_count, self.log = "recorder", [], 0, log

    def begin(self, info: GameInfo, deadline: float | None) -> None:
        self.log.append(("game", json.loads(json.dumps(info.to_json())), None))

    def ask(self, turn: Turn, deadline: float | None) -> Any:
        self.log.append(("turn", json.loads(turn.to_line()), turn.view))
        return turn.rng.choice(turn.legal_moves)

    def finish(self, result: Mapping[str, Any], seen: Sequence[SeenMove]) -> None:
        end = {"type": "end", "result": dict(result), "seen": [s.to_json() for s in seen]}
        self.log.append(("end", json.loads(json.dumps(end)), None))

    def close(self) -> None:
        pass

    abort = interrupt = close


class Recorder(Bot):
    """A random in-process bot whose sessions record what a program would read."""

    def __init__(self) -> None:
        self.name = "recorder"
        self.log: list[tuple[str, Any, Any]] = []

    def session(self, sandbox: Any = None, hide: Sequence[str] = ()) -> Any:
        return _Recording(self.log)


def _played(game: str, rules: dict[str, Any], seats: int, seed: int) -> list[Recorder]:
    bots = [Recorder() for _ in range(seats)]
    play_game(bots, game, rules=rules, seed=seed, max_plies=600)
    return bots


def _same(rebuilt: Any, given: Any) -> None:
    assert rebuilt == given
    assert type(rebuilt) is type(given)
    assert rebuilt.hands == given.hands
    assert list(map(str, rebuilt.history)) == list(map(str, given.history))
    assert rebuilt.history == given.history
    assert getattr(rebuilt, "exchange", None) == getattr(given, "exchange", None)


def _check_log(log: list[tuple[str, Any, Any]]) -> int:
    """Read one seat's messages as a bot would; the number of views checked."""
    reader = None
    turns: list[dict[str, Any]] = []
    checked = 0
    for kind, message, view in log:
        if kind == "game":
            game_message, reader, turns = message, view_reader(message), []
        elif kind == "turn":
            assert reader is not None
            rebuilt = reader.view(message)
            _same(rebuilt, view)
            if checked % 17 == 0:  # the stateless form, from the messages alone
                _same(view_from_message(game_message, message, earlier=turns), view)
            turns.append(message)
            checked += 1
            # What a search needs accepts it: the legal actions are the legal moves.
            game = find_game(game_message["game"])
            assert game.action_space is not None and game.determinize is not None
            space = game.action_space(rebuilt)
            offered = {space.action_of(rebuilt.parse_move(m)) for m in message["legal"]}
            assert legal_actions(space, rebuilt) == sorted(offered)
            world = game.determinize(rebuilt, random.Random(checked))
            assert world.view(message["seat"]) == rebuilt
            if game.playout is not None and checked % 5 == 0:
                outcome = game.playout(world, random.Random(checked), max_plies=2000)
                assert outcome is not None
        else:
            assert reader is not None
            reader.end(message)
            with pytest.raises(MessageError, match="after the end"):
                reader.view(turns[-1] if turns else {"type": "turn"})
    return checked


@pytest.mark.parametrize(("game", "rules", "seats"), SETUPS)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_the_view_from_the_wire_is_the_in_process_view(
    game: str, rules: dict[str, Any], seats: int, seed: int
) -> None:
    bots = _played(game, rules, seats, seed)
    for bot in bots:
        assert _check_log(bot.log) > 0


def test_every_bundled_game_rebuilds_its_views() -> None:
    for name in game_names():
        assert find_game(name).from_message is not None, name
    assert {game for game, _, _ in SETUPS} == set(game_names())
    for name in game_names():
        variants = {
            v for game, rules, _ in SETUPS if game == name for v in rules.get("variants", [])
        }
        assert variants == set(find_game(name).variants), name


def _exchanges(seed: int) -> tuple[int, list[tuple[str, Any, Any]]]:
    """How many turns in a Schotten Totten 2 game with tactics answer a hidden offer."""
    bots = _played("schotten-totten-2", {"variants": ["tactics"]}, 2, seed)
    hidden = 0
    for bot in bots:
        for kind, message, _ in bot.log:
            if kind == "turn" and any(s["move"] == "exchange ?,?,?" for s in message["seen"]):
                hidden += 1
    return hidden, [entry for bot in bots for entry in bot.log]


def test_a_hidden_exchange_offer_is_rebuilt_then_revealed() -> None:
    found = 0
    for seed in range(40):
        hidden, log = _exchanges(seed)
        if not hidden:
            continue
        found += hidden
        reveals = [
            s
            for kind, message, _ in log
            if kind in ("turn", "end")
            for s in message["seen"]
            if "reveals" in s
        ]
        # Each answer revealed its offer to the answering seat, and only there.
        assert reveals and all(s["move"].startswith("give ") for s in reveals)
        assert all(s["reveals"]["move"].startswith("exchange ") for s in reveals)
        assert all("?" not in s["reveals"]["move"] for s in reveals)
        assert all(s["reveals"]["ply"] == s["ply"] - 1 for s in reveals)
        if found >= 3:
            break
    assert found >= 3


def _game_message(game: str = "schotten-totten", **fields: Any) -> dict[str, Any]:
    message = {
        "type": "game",
        "game": game,
        "rules": {},
        "seat": 1,
        "players": 2,
        "first": 0,
        "seed": 1,
    }
    message.update(fields)
    return message


def _first_turns(seed: int = 3) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    bots = _played("schotten-totten", {}, 2, seed)
    log = bots[1].log
    return log[0][1], [message for kind, message, _ in log if kind == "turn"]


def test_a_reader_refuses_messages_out_of_order_and_keeps_its_place() -> None:
    game, turns = _first_turns()
    reader = view_reader(game)
    view = reader.view(turns[0])
    assert turns[1]["seen"]  # its own move at least
    with pytest.raises(MessageError, match="turn for ply"):
        reader.view(turns[2])  # the moves of turns[1] were never read
    with pytest.raises(MessageError, match="turn for ply"):
        reader.view(turns[0])  # read twice
    assert reader.view(turns[1]) != view


def test_a_bad_message_changes_nothing() -> None:
    game, turns = _first_turns()
    reader = view_reader(game)
    reader.view(turns[0])
    bad = json.loads(json.dumps(turns[1]))
    bad["seen"][-1]["move"] = "R99@12"
    with pytest.raises(MessageError, match=r"ply \d+ \('R99@12'\)"):
        reader.view(bad)
    short = json.loads(json.dumps(turns[1]))
    short["view"]["hand"] = short["view"]["hand"][:-1]
    with pytest.raises(MessageError, match="the view's hand holds"):
        reader.view(short)
    odd = json.loads(json.dumps(turns[1]))
    odd["view"]["hand"] = ["nonsense"]
    with pytest.raises(MessageError, match="the view's hand"):
        reader.view(odd)
    again = view_reader(game)
    again.view(turns[0])
    assert reader.view(turns[1]) == again.view(turns[1])  # as if nothing bad came


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ({"type": "turn"}, "expected a 'game' message"),
        ("game", "expected a 'game' message"),
        (_game_message("chess"), "unknown game 'chess'"),
        (_game_message(seat=2), "'seat' is 2"),
        (_game_message(seat=True), "'seat' is True"),
        (_game_message(first="0"), "'first' is '0'"),
        (_game_message(players=3), "played by 2 to 2, not 3"),
        (_game_message(rules={"variants": ["chess"]}), "rules"),
        (_game_message("clans-and-glory", players=5), "played by 2 to 4, not 5"),
    ],
)
def test_a_game_message_it_cannot_read_is_refused(message: Any, says: str) -> None:
    with pytest.raises(MessageError, match=says) as error:
        view_reader(message)
    assert error.value.reason == "bad_message"


def test_a_turn_for_another_seat_or_game_is_refused() -> None:
    game, turns = _first_turns()
    reader = view_reader(game)
    with pytest.raises(MessageError, match="read by seat 1"):
        reader.view({**turns[0], "seat": 0})
    with pytest.raises(MessageError, match="expected a 'turn' message"):
        reader.view({**turns[0], "type": "end"})
    with pytest.raises(MessageError, match="'view' is None"):
        reader.view({**turns[0], "view": None})


def test_a_game_message_without_first_means_seat_0_moves_first() -> None:
    bots = _played("schotten-totten", {}, 2, seed=8)
    for bot in bots:
        log = bot.log
        if log[0][1]["first"] != 0:
            continue
        del log[0][1]["first"]  # as an older referee sent it
        assert _check_log(log) > 0


def test_the_game_message_says_who_moves_first() -> None:
    for seed in range(6):
        bots = [Recorder(), Recorder()]
        result = play_game(bots, "schotten-totten-2", seed=seed, max_plies=4)
        record: Any = result.record
        for bot in bots:
            assert bot.log[0][1]["first"] == record.first


def test_turn_lines_with_reveals_are_their_json() -> None:
    lines = 0
    turns: list[Turn] = []

    def keep(turn: Turn) -> Any:
        turns.append(turn)
        return turn.rng.choice(turn.legal_moves)

    for seed in range(40):
        turns.clear()
        play_game([keep, keep], "schotten-totten-2", rules={"variants": ["tactics"]}, seed=seed)
        for turn in turns:
            line = turn.to_line()
            assert line == (json.dumps(turn.to_json(), separators=(",", ":")) + "\n").encode()
            lines += b'"reveals"' in line
        if lines >= 2:
            break
    assert lines >= 2


def test_the_rare_moves_are_among_those_checked() -> None:
    """The random games above reach the moves a reader treats apart: Schotten
    Totten 2's hidden exchange offer, support's shuffle and recruitment, and
    the recruiter of Schotten Totten's tactics (cards put back, hidden)."""
    wanted = {
        ("schotten-totten-2", "exchange ?,?,?"),
        ("schotten-totten-2", "shuffle"),
        ("schotten-totten-2", "recruitment"),
        ("schotten-totten-2", "support"),
        ("schotten-totten", "recruiter"),
    }
    found: set[tuple[str, str]] = set()
    for seed in range(20):
        for game in ("schotten-totten-2", "schotten-totten"):
            for bot in _played(game, {"variants": ["tactics"]}, 2, seed):
                for _kind, message, _ in bot.log:
                    words = {s["move"] for s in message.get("seen", ())}
                    words |= {w.split()[0] for w in words}
                    found |= {(game, w) for w in words} & wanted
                assert _check_log(bot.log) > 0
        if found == wanted:
            break
    assert found == wanted


# --- tampered and malformed messages --------------------------------------------------

#: Values a tampered field may be given.
JUNK: list[Any] = [None, True, -1, 0, 7, 10**9, 1.5, "", "x", "R7", "R7@3", "?", [], [None],
                   {}, {"ply": 1}, ["R1"] * 9, "exchange ?,?,?", "draw"]  # fmt: skip


@cache
def _logs(setup: int) -> list[list[tuple[str, Any, Any]]]:
    game, rules, seats = SETUPS[setup]
    return [bot.log for bot in _played(game, rules, seats, seed=setup)]


def _tampered(message: Any, path: list[int], junk: Any, delete: bool) -> Any:
    """``message`` with the field ``path`` leads to (indices taken modulo) replaced
    by ``junk`` or deleted."""
    message = copy.deepcopy(message)
    node = message
    for step in path:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = keys[step % len(keys)]
        if isinstance(node[key], (dict, list)) and node[key] and step % 3:
            node = node[key]
            continue
        if delete and isinstance(node, dict):
            del node[key]
        else:
            node[key] = junk
        break
    return message


@pytest.mark.parametrize("setup", range(len(SETUPS)))
@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seat=st.integers(0, 3),
    turn=st.integers(0, 10_000),
    path=st.lists(st.integers(0, 1000), min_size=1, max_size=5),
    junk=st.sampled_from(JUNK),
    delete=st.booleans(),
)
def test_a_tampered_message_is_a_message_error_or_a_view(
    setup: int, seat: int, turn: int, path: list[int], junk: Any, delete: bool
) -> None:
    log = _logs(setup)[seat % SETUPS[setup][2]]
    log = log[: [kind for kind, _, _ in log].index("end")]  # a match's first game
    turns = [message for kind, message, _ in log if kind == "turn"]
    cut = turn % len(turns)
    reader = view_reader(log[0][1])
    for message in turns[:cut]:
        reader.view(message)
    before = dict(reader.__dict__)
    try:
        reader.view(_tampered(turns[cut], path, junk, delete))
    except MessageError as error:
        assert error.reason == "bad_message" and str(error)
        assert reader.__dict__ == before  # nothing half-read
    with contextlib.suppress(MessageError):
        view_reader(_tampered(log[0][1], path, junk, delete))


@pytest.mark.parametrize("seed", range(3))
def test_a_1999_match_lets_each_game_s_winner_start_the_next(seed: int) -> None:
    result = play_game(
        [Recorder(), Recorder()],
        "schotten-totten",
        rules={"edition": "1999", "rounds": 3},
        seed=seed,
    )
    match: Any = result.record
    assert validate(match).legal
    games = match.games
    assert len(games) >= 2
    for before, after in itertools.pairwise(games):
        winner = before.result["winner"]
        assert after.first == (1 - before.first if winner is None else winner)
