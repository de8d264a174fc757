"""The one game protocol (issue 14): every game implements it in full, and a
typed downstream script runs unchanged on all three games under ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee import clans_and_glory as cg
from referee import schotten_totten as st
from referee import schotten_totten_2 as st2
from referee.errors import IllegalMoveError
from referee.game import ClaimGame, GameState, History, LegalMoves, Outcome, Termination
from referee.records import (
    find_game,
    parse_record,
    replay,
    replay_steps,
    validate,
)
from tests.protocol import typed_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(typed_script.__file__)

GAMES: dict[str, Callable[..., Any]] = {
    "schotten-totten": st.new_game,
    "schotten-totten-2": st2.new_game,
    "clans-and-glory": cg.new_game,
}


@pytest.fixture(params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> Any:
    return GAMES[request.param](seed=5)


# --- the typed script -------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_typed_script_runs_unchanged_on_every_game(name: str, seed: int) -> None:
    line = typed_script.exercise(GAMES[name](seed=seed), seed)
    assert line.startswith(f"{name}: 12 plies, player ")


def test_typed_script_lookups_follow_the_readme() -> None:
    explained = typed_script.typed_lookups(str(ROOT / "examples/positions/blue-seven.json"))
    assert explained.startswith("claimable: three_of_a_kind (18) stands")


_MISTYPED = """
from referee.records import find_game, load_position
fmt = find_game("schotten-totten")
fmt.claimability("not a state")
find_game("clans-and-glory").claimability(fmt.load_position(load_position("p.json")))
"""


def test_typed_script_passes_mypy_strict_and_mistakes_do_not(tmp_path: Path) -> None:
    mistyped = tmp_path / "mistyped.py"
    mistyped.write_text(_MISTYPED)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", str(SCRIPT), str(mistyped)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert not [e for e in errors if "typed_script.py" in e], done.stdout
    assert [e.split(":")[1] for e in errors] == ["4", "5"], done.stdout
    assert 'incompatible type "str"' in errors[0]
    assert 'incompatible type "referee.schotten_totten.state.State"' in errors[1]


# --- every game implements the protocol --------------------------------------------


def test_every_state_implements_the_protocol(game: Any) -> None:
    assert isinstance(game, GameState)
    assert isinstance(game.legal_moves(), LegalMoves)
    assert game.num_players in (2, 3, 4) and game.to_move == 0
    assert game.history == () and game.outcome is None and not game.is_game_over()


def test_claims_exist_in_the_schotten_totten_games_only() -> None:
    assert isinstance(st.new_game(seed=1), ClaimGame)
    assert isinstance(st2.new_game(seed=1), ClaimGame)
    assert not isinstance(cg.new_game(seed=1), ClaimGame)


def test_a_move_by_the_wrong_player_is_refused_with_not_your_turn(game: Any) -> None:
    move = game.legal_moves()[0]
    with pytest.raises(IllegalMoveError, match=r"it is player 1's turn, not player 2's") as refused:
        game.play(move, player=1)
    assert refused.value.reason == "not_your_turn"
    assert not game.is_legal(move, player=1) and game.is_legal(move, player=0)
    assert game.play(move, player=0) == game.play(move)


def test_legal_moves_are_generated_once_and_only_when_asked() -> None:
    calls: list[int] = []

    def generate() -> list[str]:
        calls.append(1)
        return ["a", "b", "c"]

    moves = LegalMoves(generate)
    assert calls == []
    assert "b" in moves and len(moves) == moves.count() == 3 and moves
    assert list(moves) == ["a", "b", "c"] and moves[1:] == ["b", "c"] and moves.count("a") == 1
    assert calls == [1]
    assert not LegalMoves(list) and LegalMoves(list).count() == 0


def test_legal_moves_view_agrees_with_the_generated_list(game: Any) -> None:
    moves = game.legal_moves()
    assert moves == game.generate_legal_moves() and list(moves) == game.generate_legal_moves()
    assert all(move in moves for move in moves)


def test_history_is_shared_by_later_states_and_not_part_of_equality() -> None:
    start = st.new_game(seed=4)
    one = start.play(start.legal_moves()[0])
    two = one.play(one.legal_moves()[0])
    assert two.history[:1] == one.history and len(two.history) == 2
    assert two.past.parent is one.past  # one node per ply, the past is shared
    # the same position reached from a position file compares equal
    again = find_game("schotten-totten").load_position(
        find_game("schotten-totten").position_of(two)
    )
    assert again.history == () and again.view(None) == two.view(None)


def test_history_of_a_linked_list() -> None:
    past: History[str] = History.begin("start")
    longer = past.push("a").push("b")
    assert longer.moves() == ("a", "b") and past.moves() == ()
    assert longer.start == "start" and longer.parent is not None and longer.parent.moves() == ("a",)
    seen = longer.as_seen(str.upper, lambda start: f"hidden {start}")
    assert seen.moves() == ("A", "B") and len(seen) == 2 and seen.start is None
    assert seen.origin() == ("hidden start", True)
    # a history told for a viewer shares no node with the full one
    node: Any = seen
    while node is not None:
        assert node is not longer and node is not longer.parent and node is not past
        node = node[0]


def test_a_state_from_a_position_cannot_write_a_record() -> None:
    fmt = find_game("schotten-totten")
    loaded = fmt.load_position(fmt.position_of(st.new_game(seed=1)))
    with pytest.raises(ValueError, match="set up from a position"):
        loaded.to_record()


# --- views ---------------------------------------------------------------------------


def test_spectators_see_no_hand() -> None:
    assert st.new_game(seed=1).view(None).hands == (None, None)
    assert st2.new_game(seed=1).view(None).hands == (None, None)
    game = cg.new_game(players=3, seed=1)
    spectator = game.view(None)
    assert spectator.hands == (None, None, None) and not spectator.legal_moves()
    assert spectator.hand_sizes == game.hand_sizes and spectator.table == game.view(0).table
    assert "seen by a spectator" in str(spectator)


@pytest.mark.parametrize("module", [st, st2])
def test_a_players_view_writes_a_public_record(module: Any) -> None:
    game = module.new_game(seed=3)
    for _ in range(6):
        game = game.play(game.legal_moves()[0])
    record = game.view(0).to_record()
    assert record.is_public and record.moves == game.to_record().moves
    assert validate(record).legal
    assert not game.to_record().is_public


@pytest.mark.parametrize("player", [2, -1, True, "0"])
def test_a_view_of_a_player_that_is_not_there_is_refused(player: Any) -> None:
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        st.new_game(seed=1).view(player)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        st2.new_game(seed=1).view(player)


# --- referee's ends ------------------------------------------------------------------


@pytest.mark.parametrize("termination", ["resignation", "timeout", "forfeit"])
def test_a_referees_end_with_a_loser_is_recorded_and_replayed(game: Any, termination: str) -> None:
    moved = game.play(game.legal_moves()[0])
    ended = moved.end(Termination(termination), loser=1)
    winner = 0 if ended.num_players == 2 else None
    assert ended.outcome == Outcome(termination, winner, None, 1)
    assert ended.is_game_over() and not ended.legal_moves()
    record = ended.to_record()
    assert record.result == {"winner": winner, "reason": termination, "loser": 1}
    assert validate(record).legal
    assert replay(parse_record(record.to_json())).outcome == ended.outcome


def test_a_ply_limit_has_no_winner_and_counts_the_plies(game: Any) -> None:
    moved = game.play(game.legal_moves()[0])
    record = moved.end(Termination.PLY_LIMIT).to_record()
    assert record.result == {"winner": None, "reason": "ply_limit", "plies": 1}
    assert validate(record).legal


def test_resignation_in_a_four_player_game_has_no_winner() -> None:
    resigned = cg.new_game(players=4, seed=2).resign(3)
    assert resigned.outcome == Outcome(Termination.RESIGNATION, None, None, 3)
    assert resigned.is_game_over() and validate(resigned.to_record()).legal


def test_a_finished_game_cannot_be_ended_again(game: Any) -> None:
    resigned = game.resign(0)
    with pytest.raises(IllegalMoveError, match="the game is over") as refused:
        resigned.resign(1)
    assert refused.value.reason == "game_over"


@pytest.mark.parametrize(
    ("termination", "loser", "words"),
    [
        ("three_adjacent", 0, "not a referee's end"),
        ("timeout", None, "needs the losing player's index"),
        ("forfeit", 2, "needs the losing player's index (0-1)"),
        ("ply_limit", 0, "a ply limit has no loser"),
    ],
)
def test_a_wrong_referees_end_is_refused(termination: str, loser: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        st.new_game(seed=1).end(Termination(termination), loser=loser)


# --- outcomes and reason codes -------------------------------------------------------


def test_outcome_reads_a_termination_from_its_wire_value() -> None:
    outcome = Outcome("three_adjacent", 1)
    assert outcome.termination is Termination.THREE_ADJACENT and outcome.reason == "three_adjacent"
    assert type(outcome.reason) is str and outcome.result() == "player 2 wins (three_adjacent)"
    with pytest.raises(ValueError, match="'checkmate' is not a valid Termination"):
        Outcome("checkmate", 0)


def test_every_game_ends_with_a_termination_whose_value_is_the_old_reason(game: Any) -> None:
    final = typed_script.play_randomly(game, 7, 10_000)
    assert final.outcome is not None and isinstance(final.outcome.termination, Termination)
    assert validate(final.to_record()).to_json()["outcome"]["reason"] == final.outcome.reason


@pytest.mark.parametrize("module", [st, st2, cg])
def test_reason_codes_are_str_enums_with_their_old_values(module: Any) -> None:
    assert module.Reason.GAME_OVER == "game_over" and module.Reason("not_your_turn")
    assert all(isinstance(code, str) and code == code.value for code in module.Reason)


# --- records ------------------------------------------------------------------------


def test_replay_steps_yield_every_ply_then_raise_at_a_refused_move() -> None:
    record = parse_record({"game": "schotten-totten", "moves": ["R7@3", "draw", "R7@4"]}, "x")
    steps = replay_steps(record)
    first, second = next(steps), next(steps)
    assert (first.ply, first.move, second.ply) == (1, "R7@3", 2) and first.after is second.before
    with pytest.raises(IllegalMoveError) as refused:
        next(steps)
    assert refused.value.reason == "card_already_played"


def test_clans_and_glory_takes_its_player_count_as_a_keyword() -> None:
    assert cg.new_game(players=3, seed=1).num_players == 3
    assert cg.new_game(seed=1) == cg.new_game(players=2, seed=1)
    with pytest.raises(TypeError):
        cg.new_game(3, seed=1)  # type: ignore[misc]


def test_only_the_attacker_has_a_claim_verdict_in_schotten_totten_2() -> None:
    with pytest.raises(ValueError, match=r"only the attacker \(player 1\) declares control"):
        st2.new_game(seed=1).claim_verdict(1, player=1)


def test_a_result_mismatch_counts_players_from_one() -> None:
    record = st.new_game(seed=2).resign(0).to_record()
    wrong = parse_record(
        {**record.to_json(), "result": {**record.to_json()["result"], "winner": 0}}
    )
    assert validate(wrong).result_mismatch == (
        "the record says player 1 wins but a resignation by player 1 means player 2 wins"
    )


def test_typed_script_runs_as_a_program() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, cwd=ROOT, check=True
    )
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == sorted(GAMES, key=list(GAMES).index) * 2


def test_the_typed_scripts_conforming_states_are_every_game() -> None:
    states = typed_script.conforming(1)
    assert [type(s).__module__ for s in states] == [
        "referee.schotten_totten.state",
        "referee.schotten_totten_2.state",
        "referee.clans_and_glory.state",
    ]
    assert all(isinstance(s, GameState) for s in states)


@pytest.mark.parametrize("module", [st, st2, cg])
def test_a_state_keeps_its_history_through_pickle_and_copy(module: Any) -> None:
    import copy
    import pickle

    game = module.new_game(seed=1)
    game = game.play(game.legal_moves()[0])
    for state in (game, copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert state == game and state.history == game.history
        assert state.to_record() == game.to_record()
    if module is not cg:
        view = pickle.loads(pickle.dumps(game.view(0)))
        assert view.history == game.history and view.to_record().is_public


def _played_until(module: Any, rules: Any, wanted: str, seeds: range) -> Any:
    """A finished random game whose history has a move starting with ``wanted``."""
    import random

    for seed in seeds:
        state, rng = module.new_game(seed=seed, rules=rules), random.Random(seed)
        while state.outcome is None and state.ply < 400:
            state = state.play(rng.choice(list(state.legal_moves())))
        if any(str(m).startswith(wanted) for m in state.history):
            return state
    raise AssertionError(f"no {wanted!r} in the games tried")


def test_a_views_history_hides_what_the_viewer_cannot_see() -> None:
    # Found before landing: a view's history (and its public record) named the
    # opponent's face-down recruiter returns and where support's cards went.
    from referee import schotten_totten as st
    from referee import schotten_totten_2 as st2
    from referee.records import validate

    game = _played_until(st, st.Rules(tactics=True), "return", range(100))
    for viewer in (0, 1, None):
        view = game.view(viewer)
        for move in view.history:
            if type(move).__name__ == "PutBack":
                assert all(card in ("clan", "tactic") for card in move.cards), move
        assert validate(view.to_record()).legal
    assert any(
        type(m).__name__ == "PutBack" and any(c not in ("clan", "tactic") for c in m.cards)
        for m in game.history
    )  # the full state keeps them
    siege = _played_until(st2, st2.Rules(tactics=True), "shuffle", range(100))
    for viewer in (0, 1, None):
        shuffles = [str(m) for m in siege.view(viewer).history if str(m).startswith("shuffle")]
        assert shuffles and set(shuffles) == {"shuffle"}
        assert validate(siege.view(viewer).to_record()).legal
