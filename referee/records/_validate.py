"""Replaying a record move by move and reporting the first illegal move."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Generic, Literal, NamedTuple, TypeVar

from referee.errors import ClaimRefusedError, RefereeError
from referee.game import GameState, Outcome, Termination
from referee.records._registry import GameFormat, find_game
from referee.records._shape import match_rules_problem, record_problem
from referee.records._stream import iter_records
from referee.records._types import Match, Record, RecordError

if TYPE_CHECKING:
    from referee.records._registry import AnyGameState

__all__ = [
    "IllegalPly",
    "ReplayStep",
    "ValidationReport",
    "replay",
    "replay_steps",
    "validate",
    "validate_source",
]

_S = TypeVar("_S")


@dataclass(frozen=True)
class IllegalPly:
    """The first move of a record that the rules refuse.

    ``ply`` counts moves from 1; ``reason`` is the stable code of the refusal.
    """

    ply: int
    move: str
    reason: str
    message: str
    evidence: dict[str, Any] | None = None
    #: In a match: which game (from 1) holds the illegal move.
    round: int | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        data: dict[str, Any] = {
            "round": self.round,
            "ply": self.ply,
            "move": self.move,
            "reason": self.reason,
            "message": self.message,
        }
        if self.evidence is not None:
            data["evidence"] = self.evidence
        return data


@dataclass(frozen=True)
class ValidationReport:
    """What replaying one record found.

    ``legal`` is true when every move is legal and the recorded result (if any)
    agrees with the replay. ``plies`` counts the moves checked and accepted.
    ``error`` is the first illegal move; ``result_mismatch`` says how a
    recorded result disagrees; ``input_error`` is set when the record could not
    be read at all (then nothing was replayed).
    """

    where: str
    game: str
    public: bool
    plies: int
    error: IllegalPly | None = None
    result_mismatch: str | None = None
    outcome: Outcome | None = None
    input_error: str | None = None
    #: For a match: how many games it holds, what is wrong with it as a match
    #: (rounds, starting players), and its result as replayed.
    games: int = 1
    match_error: str | None = None
    match_result: dict[str, Any] | None = None

    @property
    def legal(self) -> bool:
        """Readable, every move legal, and any recorded result confirmed."""
        return (
            self.input_error is None
            and self.error is None
            and self.result_mismatch is None
            and self.match_error is None
        )

    @property
    def status(self) -> Literal["legal", "illegal", "unreadable"]:
        """The verdict in one word: ``"unreadable"`` when the input could not be
        read, else ``"legal"`` or ``"illegal"`` (an illegal move, a wrong result
        or a wrong match). The command line's exit status follows it: 0, 1, 2.

        >>> from referee.records import Record
        >>> validate(Record("schotten-totten", ("R7@3", "draw", "R7@4"))).status
        'illegal'
        """
        if self.input_error is not None:
            return "unreadable"
        return "legal" if self.legal else "illegal"

    def summary(self) -> str:
        """One line for people: ok, or what is wrong and where."""
        kind = "public" if self.public else "full"
        if self.input_error is not None:
            return f"{self.where}: unreadable: {self.input_error}"
        if self.error is not None:
            e = self.error
            game = f"game {e.round}, " if e.round is not None else ""
            return (
                f"{self.where}: illegal at {game}ply {e.ply} {e.move!r} [{e.reason}]: {e.message}"
            )
        if self.match_error is not None:
            return f"{self.where}: illegal match: {self.match_error}"
        if self.result_mismatch is not None:
            return f"{self.where}: result mismatch: {self.result_mismatch}"
        if self.games > 1 or self.match_result is not None:
            end = "unfinished"
            if self.match_result is not None:
                winner = self.match_result.get("winner")
                reason = self.match_result.get("reason", "drawn")
                end = f"no winner ({reason})" if winner is None else f"player {winner + 1} wins"
                scores = self.match_result.get("scores")
                if isinstance(scores, list):
                    end += " " + "-".join(map(str, scores))
            return (
                f"{self.where}: ok ({self.game} match, {self.games} games, "
                f"{self.plies} plies, {end})"
            )
        end = "game over" if self.outcome is not None else "unfinished"
        winner = (
            f", player {self.outcome.winner + 1} wins ({self.outcome.reason})"
            if self.outcome is not None and self.outcome.winner is not None
            else ""
        )
        return f"{self.where}: ok ({self.game}, {kind} record, {self.plies} plies, {end}{winner})"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "where": self.where,
            "game": self.game,
            "public": self.public,
            "legal": self.legal,
            "plies": self.plies,
            "error": None if self.error is None else self.error.to_json(),
            "result_mismatch": self.result_mismatch,
            "input_error": self.input_error,
            "games": self.games,
            "match_error": self.match_error,
            "match_result": self.match_result,
            "outcome": None
            if self.outcome is None
            else {"winner": self.outcome.winner, "reason": self.outcome.reason},
        }


def replay(record: Record, upto: int | None = None) -> AnyGameState:
    """The state after the first ``upto`` moves (all by default).

    After all the moves, a referee's end that the record gives (resignation,
    timeout, forfeit, ply limit) is applied too, so a game written by
    ``to_record()`` replays to the same outcome.

    Raises :class:`RecordError` for unreadable set-up and the move's own
    ``IllegalMoveError`` / ``InvalidMoveError`` for a refused move.
    """
    fmt = find_game(record.game, record.where)
    state = fmt.start(record)
    moves = record.moves if upto is None else record.moves[:upto]
    if upto is not None and not 0 <= upto <= len(record.moves):
        raise RecordError(f"ply {upto} is outside 0-{len(record.moves)}", record.where, "ply")
    for move in moves:
        state = state.play(move)
    if len(moves) == len(record.moves) and state.outcome is None:
        result = record.result
        if result is not None and result.get("reason") in ARENA_ENDS:
            ended, mismatch = _arena_end(result, state, len(moves))
            if ended is not None and mismatch is None:
                state = state.end(ended.termination, loser=ended.loser)
    return state


class ReplayStep(NamedTuple, Generic[_S]):
    """One ply of a replay: the ``ply`` number (from 1), the ``move`` as
    recorded, and the states ``before`` and ``after`` it."""

    ply: int
    move: str
    before: _S
    after: _S


def replay_steps(record: Record) -> Iterator[ReplayStep[AnyGameState]]:
    """Replay ``record`` one ply at a time, lazily: a :class:`ReplayStep` per move.

    A refused move raises its ``IllegalMoveError`` when its step is reached
    (the steps before it have been yielded); unreadable set-up raises
    :class:`RecordError` at once.

    >>> from referee.records import parse_record
    >>> record = parse_record({"game": "schotten-totten", "moves": ["R7@3", "draw"]})
    >>> [(step.ply, step.move, step.after.to_move) for step in replay_steps(record)]
    [(1, 'R7@3', 0), (2, 'draw', 1)]
    """
    fmt = find_game(record.game, record.where)
    state = fmt.start(record)
    for ply, move in enumerate(record.moves, start=1):
        after = state.play(move)
        yield ReplayStep(ply, move, state, after)
        state = after


def validate(record: Record | Match | RecordError) -> ValidationReport:
    """Replay ``record`` (or every game of a match) and report the first illegal
    move, if any: the one verdict every command of the ``referee`` command line
    gives a document (see :attr:`ValidationReport.status`).

    Never raises for a bad record: unreadable set-up is reported as
    ``input_error``, and so is a :class:`RecordError` given instead of a record
    (what :func:`~referee.records.iter_records` yields for a document it cannot
    read), so every item a reader yields gets its report.

    >>> from referee.records import iter_records
    >>> import io
    >>> corpus = io.BytesIO(b'{"game": "schotten-totten", "moves": []}\\n{oops\\n')
    >>> [validate(item).status for item in iter_records(corpus)]
    ['legal', 'unreadable']
    """
    if isinstance(record, RecordError):
        return _unreadable(record.where or "<input>", "?", False, record)
    if isinstance(record, Match):
        return _validate_match(record)
    return _validate_game(record)[0]


def _validate_game(
    record: Record, in_match: bool = False
) -> tuple[ValidationReport, GameState[Any] | None]:
    where = record.where if isinstance(record.where, str) and record.where else "<record>"
    problem = record_problem(record)
    if problem is not None:
        return _unreadable(where, str(record.game), record.deal is None, problem), None
    try:
        fmt = find_game(record.game, record.where)
        state = fmt.start(record)
        _check_players(record, state)
        lone = None if in_match else match_rules_problem(record)
        if lone is not None:
            raise lone
    except RecordError as error:
        return _unreadable(where, str(record.game), record.is_public, error), None
    for ply, move in enumerate(record.moves, start=1):
        try:
            state = state.play(move)
        except RefereeError as error:
            evidence = None
            if isinstance(error, ClaimRefusedError) and error.verdict is not None:
                evidence = _evidence(fmt, state, error)
            illegal = IllegalPly(ply, move, str(error.reason), str(error), evidence)
            refused = _no_deal(record, ply - 1)  # an earlier ply no deal fits comes first
            report = ValidationReport(where, record.game, record.is_public, ply - 1, illegal)
            return refused or report, None
    refused = _no_deal(record, len(record.moves))
    if refused is not None:
        return refused, None
    outcome = state.outcome
    if outcome is None and record.result is not None and record.result.get("reason") in ARENA_ENDS:
        outcome, mismatch = _arena_end(record.result, state, len(record.moves))
    else:
        mismatch = _compare_result(record.result, fmt.result_of(outcome) if outcome else None)
    report = ValidationReport(
        where, record.game, record.is_public, len(record.moves), None, mismatch, outcome
    )
    return report, state


def _check_players(record: Record, state: GameState[Any]) -> None:
    # Canonical form: no names, or one name per player.
    count = state.num_players
    if record.players and len(record.players) != count:
        raise RecordError(
            f"{len(record.players)} names for a {count}-player game", record.where, "players"
        )


def _match_problem(match: Match) -> str | None:
    if not isinstance(match.games, tuple) or not match.games:
        return "field 'games': expected a non-empty tuple of records"
    for number, record in enumerate(match.games, start=1):
        if not isinstance(record, Record):
            return f"game {number}: expected a Record, got {type(record).__name__}"
    if not isinstance(match.game, str):
        return f"field 'game': expected a string, got {type(match.game).__name__}"
    if match.result is not None:
        problem = record_problem(Record(match.game, (), result=match.result, where="-"))
        if problem is not None:
            return f"field {problem.field!r}: {problem.detail}"
    return None


def _validate_match(match: Match) -> ValidationReport:
    where = match.where if isinstance(match.where, str) and match.where else "<match>"
    problem = _match_problem(match)
    if problem is not None:
        return ValidationReport(where, str(match.game), False, 0, input_error=problem)
    count = len(match.games)
    try:
        fmt: GameFormat[Any] = find_game(match.game, match.where)
    except RecordError as error:
        return _unreadable(where, str(match.game), match.is_public, error)
    finals: list[GameState[Any]] = []
    plies = 0
    for number, record in enumerate(match.games, start=1):
        report, final = _validate_game(record, in_match=True)
        plies += report.plies
        if report.input_error is not None:
            return replace(
                report, where=where, games=count, input_error=f"game {number}: {report.input_error}"
            )
        if report.error is not None:
            return replace(
                report,
                where=where,
                plies=plies,
                games=count,
                error=replace(report.error, round=number),
            )
        if report.result_mismatch is not None:
            return replace(
                report,
                where=where,
                plies=plies,
                games=count,
                result_mismatch=f"game {number}: {report.result_mismatch}",
            )
        assert final is not None
        finals.append(final)
    result, problem = fmt.match_result(match, finals)
    ended = match.games[-1].result or {}
    if problem is None and ended.get("reason") in ARENA_ENDS:
        # A referee's end of a game (resignation, timeout...) ends its match too.
        result = {k: ended[k] for k in ("winner", "reason", "loser", "plies") if k in ended}
    mismatch = None
    if problem is None:
        if result is None and match.result is not None:
            mismatch = (
                f"the record gives a result ({_show(match.result)}) but the match is not over"
            )
        else:
            mismatch = _compare_result(match.result, result)
    return ValidationReport(
        where,
        match.game,
        match.is_public,
        plies,
        None,
        mismatch,
        None,
        None,
        count,
        problem,
        result,
    )


#: Ends a referee gives a game that is still in play (the arena's results).
ARENA_ENDS = ("resignation", "timeout", "forfeit", "ply_limit")


def _arena_end(result: Any, state: Any, plies: int) -> tuple[Outcome | None, str | None]:
    """Check a referee's end of an unfinished game: ``resignation``, ``timeout`` or
    ``forfeit`` of the player ``loser`` (the other player wins a two-player game;
    with more players nobody does), or ``ply_limit`` after ``plies`` moves (a draw)."""
    reason, winner = result["reason"], result.get("winner")
    players = state.num_players
    if reason == "ply_limit":
        if result.get("plies") != plies or winner is not None:
            return None, f"a ply limit ends with no winner after 'plies' moves (here {plies})"
        return Outcome(Termination(reason), None), None
    loser = result.get("loser")
    if isinstance(loser, bool) or not isinstance(loser, int) or not 0 <= loser < players:
        return None, f"a {reason} result names the losing player (0-{players - 1}) as 'loser'"
    expected = 1 - loser if players == 2 else None
    if winner != expected:
        return (
            None,
            f"the record says {_who_wins(winner)} but a {reason} by player {loser + 1} "
            f"means {_who_wins(expected)}",
        )
    return Outcome(Termination(reason), expected, None, loser), None


def _no_deal(record: Record, plies: int) -> ValidationReport | None:
    """The report of a public record that no deal fits within its first
    ``plies`` moves (see :mod:`referee.deals`), or ``None``."""
    from referee.deals import check_record

    answer = check_record(record, plies)
    if answer is None or answer.fits or answer.ply is None:
        return None
    move = record.moves[answer.ply - 1]
    message = f"illegal move {move!r}: {answer.message}"
    illegal = IllegalPly(answer.ply, move, answer.reason or "no_consistent_deal", message)
    return ValidationReport(record.where or "<record>", record.game, True, answer.ply - 1, illegal)


def _unreadable(where: str, game: str, public: bool, error: RecordError) -> ValidationReport:
    detail = error.detail if not error.field else f"field {error.field!r}: {error.detail}"
    return ValidationReport(where, game, public, 0, input_error=detail)


def _evidence(fmt: Any, state: Any, error: ClaimRefusedError) -> dict[str, Any] | None:
    return dict(fmt.describe_verdict(state, error.verdict))


def _compare_result(recorded: Any, actual: dict[str, Any] | None) -> str | None:
    if recorded is None:
        return None
    if actual is None:
        return f"the record gives a result ({_show(recorded)}) but the game is not over"
    for key, value in recorded.items():
        if key not in actual:
            return f"the record gives {key}={value!r}, which this game's results do not have"
        if _typed(actual[key]) != _typed(value):
            if key == "winner":  # a sentence for people counts players from 1
                return f"the record says {_who_wins(value)} but the replay says {_who_wins(actual[key])}"
            return f"the record says {key}={value!r} but the replay gives {actual[key]!r}"
    # A result of a finished game says who won and why: {} says nothing.
    missing = [key for key in ("winner", "reason") if key in actual and key not in recorded]
    if missing:
        given = f"({_show(recorded)})" if recorded else "{}"
        return (
            f"the record's result {given} gives no {' and no '.join(missing)}, "
            f"but the game ended: {_show(actual)}"
        )
    return None


def _typed(value: Any) -> Any:
    # Equality as JSON sees it: true is not 1 and 1.0 is not 1.
    if isinstance(value, (list, tuple)):
        return [_typed(v) for v in value]
    return (type(value), value)


def _who_wins(winner: Any) -> str:
    """``"player 2 wins"`` for the JSON winner 1; ``"nobody wins"`` for null."""
    if winner is None:
        return "nobody wins"
    if isinstance(winner, int) and not isinstance(winner, bool):
        return f"player {winner + 1} wins"
    return f"the winner is {winner!r}"


def _show(result: Any) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in result.items())


def validate_source(source: str | Path | IO[str] | IO[bytes]) -> Iterator[ValidationReport]:
    """Validate every record in a JSON file or JSON Lines corpus, lazily."""
    for item in iter_records(source):
        if isinstance(item, RecordError) and not item.where:
            item = RecordError(item.detail, str(source), item.field)
        yield validate(item)
