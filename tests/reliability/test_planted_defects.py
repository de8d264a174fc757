"""Every check of the reliability suite can fail: each test here plants a defect
(by monkeypatching the game or the library) and asserts that the check catches it.

A check that passes on a planted defect proves nothing; this is how the
conformance check's position round trip was found to swallow every
``RecordError`` (issue 13). Prover soundness has its own planted defects in
``test_soundness.py`` (a flipped CP-SAT verdict, an undecided answer).
"""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

import tests.reliability.test_conformance as conformance
import tests.reliability.test_fuzz_records as fuzz
import tests.reliability.test_mutations as mutations
from referee.errors import RefereeError
from referee.records import RecordError, ValidationReport, find_game, validate
from tests.reliability._support import games, record_for, rule_sets

GAMES = games()


def _start(game: str) -> Any:
    return find_game(game).start(record_for(game, rule_sets(game)[0], 0))


def _with(state: Any, **changes: Any) -> Any:
    """A copy of an immutable state (a frozen dataclass) with fields changed,
    bypassing the state's own checks: a planted defect must reach the harness's
    check, even where the game's constructor would refuse it first."""
    assert dataclasses.is_dataclass(state)
    planted = copy.copy(state)
    for name, value in changes.items():
        object.__setattr__(planted, name, value)
    return planted


# --- conformance -------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_card_conservation_catches_a_doubled_card(game: str) -> None:
    state = _start(game)
    conformance.check_invariants(game, state)  # the real state passes
    hands = state.hands
    doubled = (hands[0] + (hands[1][0],), *hands[1:])
    with pytest.raises(AssertionError):
        conformance.check_invariants(game, _with(state, hands=doubled))


@pytest.mark.parametrize("game", GAMES)
def test_card_conservation_catches_a_lost_card(game: str) -> None:
    state = _start(game)
    hands = state.hands
    with pytest.raises(AssertionError):
        conformance.check_invariants(game, _with(state, hands=(hands[0][1:], *hands[1:])))


@pytest.mark.parametrize("game", GAMES)
def test_the_refusal_check_catches_a_legal_move_that_is_not_listed(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _start(game)
    legal = state.legal_moves()
    monkeypatch.setitem(conformance.POOLS, game, [str(legal[0])])
    conformance._try_refusals(game, state, set(legal), random.Random(0))  # passes as listed
    with pytest.raises(AssertionError, match="accepted but not listed"):
        conformance._try_refusals(game, state, set(), random.Random(0))


@pytest.mark.parametrize("game", GAMES)
def test_the_refusal_check_catches_a_listed_move_that_is_refused(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _start(game)
    legal = set(state.legal_moves())
    refused = next(
        m
        for text in conformance.POOLS[game]
        if (m := _parsed(state, text)) is not None and m not in legal and _refused(state, m)
    )
    monkeypatch.setitem(conformance.POOLS, game, [str(refused)])
    with pytest.raises(AssertionError, match="listed as legal but refused"):
        conformance._try_refusals(game, state, legal | {refused}, random.Random(0))


@pytest.mark.parametrize("game", GAMES)
def test_the_refusal_check_catches_an_undocumented_reason(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _start(game)
    legal = set(state.legal_moves())
    refused = next(
        m
        for text in conformance.POOLS[game]
        if (m := _parsed(state, text)) is not None and _refused(state, m)
    )
    monkeypatch.setitem(conformance.POOLS, game, [str(refused)])
    monkeypatch.setattr(conformance, "reason_codes", lambda state: {"malformed_move"})
    with pytest.raises(AssertionError, match="undocumented reason"):
        conformance._try_refusals(game, state, legal, random.Random(0))


def _parsed(state: Any, text: str) -> Any:
    try:
        return state.parse_move(text)
    except RefereeError:
        return None


def _refused(state: Any, move: Any) -> bool:
    try:
        state.play(move)
    except RefereeError:
        return True
    return False


@pytest.mark.parametrize("game", sorted(conformance.LOADS_POSITIONS & set(GAMES)))
def test_the_position_check_does_not_swallow_a_record_error(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fmt = find_game(game)
    state = _start(game)
    conformance._check_position(game, state)  # the real round trip passes

    def refuse(position: Any) -> Any:
        raise RecordError("planted: this position cannot be read", position.where)

    monkeypatch.setattr(type(fmt), "load_position", lambda self, position: refuse(position))
    with pytest.raises(RecordError, match="planted"):
        conformance._check_position(game, state)


@pytest.mark.parametrize("game", sorted(conformance.LOADS_POSITIONS & set(GAMES)))
def test_the_position_check_catches_a_position_read_back_wrong(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fmt = find_game(game)
    record = record_for(game, rule_sets(game)[0], 0)
    start = fmt.start(record)
    later = start.play(record.moves[0])
    real = type(fmt).load_position
    monkeypatch.setattr(
        type(fmt), "load_position", lambda self, position: real(self, position) and start
    )
    with pytest.raises(AssertionError):
        conformance._check_position(game, later)


@pytest.mark.parametrize("game", GAMES)
def test_the_playout_catches_a_move_whose_text_does_not_round_trip(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _start(game)
    move_type = type(state.legal_moves()[0])
    monkeypatch.setattr(move_type, "__str__", lambda self: "not a move")
    with pytest.raises((AssertionError, RefereeError)):
        conformance.play_out(game, rule_sets(game)[0], 0)


def test_the_playout_catches_a_replay_that_reaches_another_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = GAMES[0]
    monkeypatch.setattr(conformance, "replay", lambda record: _start(game))
    with pytest.raises(AssertionError):
        conformance.play_out(game, rule_sets(game)[0], 0)


# --- reader fuzzing -------------------------------------------------------------------------


def test_the_report_check_catches_an_error_at_the_wrong_ply() -> None:
    game = GAMES[0]
    record = dataclasses.replace(record_for(game, rule_sets(game)[0], 0), result=None)
    moves = (*record.moves[:5], "no such move", *record.moves[6:])
    bad = dataclasses.replace(record, moves=moves)
    report = validate(bad)
    fuzz.check_report(report, bad)  # the real report passes
    assert report.error is not None
    shifted = dataclasses.replace(report, error=dataclasses.replace(report.error, ply=5))
    with pytest.raises(AssertionError):
        fuzz.check_report(shifted, bad)
    undocumented = dataclasses.replace(
        report, error=dataclasses.replace(report.error, reason="no_such_reason")
    )
    with pytest.raises(AssertionError, match="undocumented reason"):
        fuzz.check_report(undocumented, bad)


def test_the_report_check_catches_a_report_without_a_location() -> None:
    report = ValidationReport("", "?", False, 0, input_error="planted")
    with pytest.raises(AssertionError):
        fuzz.check_report(report, None)


def test_the_command_line_check_catches_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def crash(argv: list[str]) -> int:
        print("Traceback (most recent call last):")
        return 2

    monkeypatch.setattr(fuzz.cli, "main", crash)
    with pytest.raises(AssertionError):
        fuzz._run_cli(["validate", "x.json"], capsys)


# --- mutations ------------------------------------------------------------------------------


def test_the_mutation_check_catches_a_validator_naming_the_wrong_ply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = GAMES[0]
    generic = mutations.GENERIC[0]
    assert mutations.mutate(game, generic, rule_sets(game)[0], 0)  # the real validator passes

    def off_by_one(record: Any) -> ValidationReport:
        report = validate(record)
        if report.error is None:
            return report
        return dataclasses.replace(
            report, error=dataclasses.replace(report.error, ply=report.error.ply + 1)
        )

    monkeypatch.setattr(mutations, "validate", off_by_one)
    with pytest.raises(AssertionError):
        mutations.mutate(game, generic, rule_sets(game)[0], 0)


def test_the_mutation_check_catches_a_validator_that_accepts_everything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = GAMES[0]
    generic = mutations.GENERIC[0]
    monkeypatch.setattr(
        mutations,
        "validate",
        lambda record: ValidationReport(record.where, record.game, False, len(record.moves)),
    )
    with pytest.raises(AssertionError, match="accepted"):
        mutations.mutate(game, generic, rule_sets(game)[0], 0)


# --- one verdict and foreign states -----------------------------------------------------------


@pytest.mark.parametrize("command", ["show", "claimable"])
def test_the_verdict_check_catches_a_command_that_skips_the_verdict(
    command: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Any,
) -> None:
    import referee.cli._positions
    import tests.reliability.test_one_verdict as one_verdict

    # A command that judges only the moves it replays, as show once did.
    monkeypatch.setattr(referee.cli._positions, "require_legal", lambda item: validate(item))
    with pytest.raises(AssertionError):
        one_verdict.test_every_illegal_record_is_refused_as_validate_refuses_it(
            capsys, tmp_path, command
        )


def test_the_verdict_check_catches_a_replay_that_calls_everything_legal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    import referee.replay._command
    import referee.replay._data
    import tests.reliability.test_one_verdict as one_verdict

    def legal(item: Any) -> ValidationReport:
        return dataclasses.replace(validate(item), result_mismatch=None, match_error=None)

    # A wrong result shown as a game: the page's verdicts and the command's exit status.
    monkeypatch.setattr(referee.replay._data, "validate", legal)
    monkeypatch.setattr(referee.replay._command, "validate", legal)
    with pytest.raises(AssertionError):
        one_verdict.test_every_illegal_record_is_refused_as_validate_refuses_it(
            capsys, tmp_path, "replay"
        )


def test_the_foreign_state_check_catches_a_space_that_answers_for_another_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import referee.actions
    import tests.reliability.test_foreign_states as foreign

    monkeypatch.setattr(referee.actions, "check_game", lambda state, kinds, game: None)
    with pytest.raises(pytest.fail.Exception, match="DID NOT RAISE"):
        foreign.test_another_games_state_or_view_is_refused_with_one_type_error(
            "schotten-totten", "schotten-totten-2", "rewards"
        )


def test_the_foreign_state_check_catches_a_message_of_another_shape(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import referee.actions
    import tests.reliability.test_foreign_states as foreign

    def vague(state: object, kinds: tuple[type, ...], game: str) -> None:
        if not isinstance(state, kinds):
            raise TypeError(f"not a {game} state")

    monkeypatch.setattr(referee.actions, "check_game", vague)
    with pytest.raises(AssertionError):
        foreign.test_another_games_state_or_view_is_refused_with_one_type_error(
            "schotten-totten-2", "clans-and-glory", "observation"
        )
