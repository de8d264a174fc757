"""What a recorded game shows once the prover has looked at every position.

:func:`analyze` replays a record and, at every position, asks the prover
about every complete formation on the table. From the answers it reports:

- **missed claims**: stones (Schotten Totten) or tiles (Schotten Totten 2)
  that the player to move could have claimed during a turn, and did not
  claim before the turn ended (a turn that ended the game does not count);
- **decided places**: the ply at which each stone or tile became decided on
  the table (a claim on it was proven, or it was claimed);
- **when the result was settled**: for a finished game with a winner, the
  first ply from which the winner's decided places already made a win at
  every later position, so nothing on the table could change the result.

>>> from referee.analysis import analyze
>>> from referee.records import parse_record
>>> record = parse_record({"game": "schotten-totten", "moves": [
...     "R9@1", "draw", "O1@2", "draw", "R8@1", "draw", "O2@2", "draw",
...     "R7@1", "draw", "O3@2", "draw"]}, "example")
>>> report = analyze(record)
>>> [(d.label, d.player, d.ply) for d in report.decided]
[('stone 1', 0, 9)]
>>> [(m.label, m.player, m.ply, m.turn_end) for m in report.missed]
[('stone 1', 0, 9, 10)]

Clans and Glory has no claims: its analysis lists no missed claims and no
decided places. Positions count moves: position ``k`` is the table after the
first ``k`` moves of the record, and move ``k + 1`` is played from it.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee import games
from referee._commands import EXIT_STATUS, add_document_option, document_of, error
from referee.errors import RefereeError
from referee.game import GameState, Outcome
from referee.games import Commentary
from referee.records import (
    ClaimAnswer,
    GameFormat,
    IllegalPly,
    Match,
    Record,
    RecordError,
    find_game,
    validate,
)
from referee.records._validate import _validate_game

__all__ = [
    "Analysis",
    "Decided",
    "MissedClaim",
    "add_parser",
    "analyze",
    "analyze_match",
    "analyze_positions",
    "run",
]


@dataclass(frozen=True)
class MissedClaim:
    """A chance to claim that the player to move left unused.

    A chance is listed once, however many turns it lasted: it opens at the
    first position (``ply``) at which the claim was legal during a turn of
    ``player``, and is missed when that turn ends without the claim (at move
    ``turn_end``). It stays the same chance while the claim is legal in each of
    that player's later turns; ``turns`` counts the turns that ended without
    it, and ``claimed_at`` is the number of the move that finally made the
    claim (``None`` when it never came: the game ended, or the claim stopped
    being legal).
    """

    ply: int
    player: int
    place: int
    label: str
    explanation: str
    turn_end: int
    turns: int = 1
    claimed_at: int | None = None

    def __str__(self) -> str:
        left = "1 turn" if self.turns == 1 else f"{self.turns} turns"
        later = "" if self.claimed_at is None else f", claimed at move {self.claimed_at}"
        return (
            f"ply {self.ply}: player {self.player + 1} could claim {self.label} "
            f"(turn ended at move {self.turn_end}; left for {left}{later}): {self.explanation}"
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "ply": self.ply,
            "player": self.player,
            "place": self.place,
            "label": self.label,
            "explanation": self.explanation,
            "turn_end": self.turn_end,
            "turns": self.turns,
            "claimed_at": self.claimed_at,
        }


@dataclass(frozen=True)
class Decided:
    """A place became decided on the table for ``player`` at position ``ply``."""

    place: int
    label: str
    player: int
    ply: int

    def __str__(self) -> str:
        return f"{self.label}: decided for player {self.player + 1} at ply {self.ply}"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"place": self.place, "label": self.label, "player": self.player, "ply": self.ply}


@dataclass(frozen=True)
class Analysis:
    """The analysis of one recorded game.

    ``answers[k]`` holds the prover's answers at position ``k`` (only the
    complete formations, whose answer is not ``None``); ``missed_at(k)`` the
    chances to claim that opened there and were missed; ``tables[k]`` the
    places decided at position ``k``, each with the player it is decided for
    (claimed, or a claim on it proven). ``plies`` counts the legal moves
    analysed; ``illegal`` is the refused move of an illegal record.
    """

    game: str
    where: str
    plies: int
    answers: tuple[tuple[ClaimAnswer, ...], ...]
    missed: tuple[MissedClaim, ...]
    decided: tuple[Decided, ...]
    settled_at: int | None
    outcome: Outcome | None
    illegal: IllegalPly | None = None
    tables: tuple[Mapping[int, int], ...] = ()

    def missed_at(self, ply: int) -> list[MissedClaim]:
        """The missed chances to claim that opened at position ``ply``."""
        return [m for m in self.missed if m.ply == ply]

    def decided_count(self, ply: int, player: int) -> int:
        """How many places were decided for ``player`` at position ``ply``.

        >>> from referee.records import Record
        >>> report = analyze(Record("schotten-totten", ("R9@1", "draw", "O1@2", "draw",
        ...     "R8@1", "draw", "O2@2", "draw", "R7@1", "claim 1")))
        >>> report.decided_count(8, 0), report.decided_count(9, 0), report.decided_count(10, 0)
        (0, 1, 1)
        """
        if not 0 <= ply < len(self.tables):
            return 0
        return sum(1 for owner in self.tables[ply].values() if owner == player)

    def __str__(self) -> str:
        lines = [f"{self.where or '<record>'}: {self.game}, {self.plies} moves, {_result(self)}"]
        lines.append(f"missed claims: {len(self.missed)}")
        lines.extend(f"  {m}" for m in self.missed)
        lines.append("decided on the table:" if self.decided else "decided on the table: none")
        lines.extend(f"  {d}" for d in self.decided)
        if self.settled_at is not None:
            lines.append(f"result settled on the table from ply {self.settled_at}")
        if self.illegal is not None:
            lines.append(
                f"illegal at ply {self.illegal.ply} {self.illegal.move!r} "
                f"[{self.illegal.reason}]: {self.illegal.message}"
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        outcome = self.outcome
        return {
            "where": self.where,
            "game": self.game,
            "plies": self.plies,
            "outcome": None
            if outcome is None
            else {"winner": outcome.winner, "reason": outcome.reason},
            "missed": [m.to_json() for m in self.missed],
            "decided": [d.to_json() for d in self.decided],
            "settled_at": self.settled_at,
            "illegal": None if self.illegal is None else self.illegal.to_json(),
        }


def _result(analysis: Analysis) -> str:
    outcome = analysis.outcome
    if outcome is None:
        return "illegal" if analysis.illegal is not None else "unfinished"
    if outcome.winner is None:
        return f"shared result ({outcome.reason})"
    return f"player {outcome.winner + 1} wins ({outcome.reason})"


# --- the analysis ------------------------------------------------------------------------


def analyze(record: Record, *, in_match: bool = False) -> Analysis:
    """Replay ``record`` and report its missed claims, decided places and the
    ply from which its result was settled on the table (see the module doc).

    An illegal record is analysed up to its refused move, which is reported
    as ``illegal``. ``in_match``: the record is a game of a match, so it may
    carry the match's rules (see :func:`analyze_match`).
    """
    fmt: GameFormat[Any] = find_game(record.game, record.where)
    report = _validate_game(record, in_match)[0]
    if report.input_error is not None:
        raise RefereeError("record_unreadable", f"{record.where}: {report.input_error}")
    state: GameState[Any] = fmt.start(record)
    moves = record.moves[: report.plies]
    states = [state]
    for move in moves:
        state = state.play(move)
        states.append(state)
    return analyze_positions(record.game, states, moves, where=record.where, illegal=report.error)


def analyze_positions(
    game: str,
    states: Sequence[Any],
    moves: Sequence[str],
    *,
    where: str = "",
    illegal: IllegalPly | None = None,
) -> Analysis:
    """The analysis of a game given as its positions: ``states[k]`` the table
    after the first ``k`` of ``moves`` (one more state than moves).

    The states may be one player's views (``state.view(p)``): the analysis
    then holds only what the prover can tell from that player's side of the
    table, which is what a page made for one player shows (see
    :mod:`referee.replay`). ``illegal`` is the refused move that follows
    the last position, if any.
    """
    if len(states) != len(moves) + 1:
        raise ValueError(f"{len(moves)} moves need {len(moves) + 1} positions, not {len(states)}")
    described = games.find_game(game, where)
    fmt: GameFormat[Any] = described.format
    rules = described.commentary
    answers = [tuple(a for a in fmt.claimability(s) if a.claimable is not None) for s in states]
    missed: list[MissedClaim] = []
    decided: list[Decided] = []
    tables: list[dict[int, int]] = [{} for _ in states]
    settled_at = None
    final = states[-1].outcome
    if rules.claim_move is not None:  # a game with claims
        missed = _missed(states, moves, answers, rules)
        decided, tables = _decided(states, answers, rules)
        if final is not None and final.winner is not None and illegal is None:
            winner = final.winner
            for k in range(len(states) - 1, -1, -1):
                mine = {p for p, owner in tables[k].items() if owner == winner}
                if not rules.wins(states[k], mine):
                    break
                settled_at = k
    return Analysis(
        game=game,
        where=where,
        plies=len(moves),
        answers=tuple(answers),
        missed=tuple(missed),
        decided=tuple(decided),
        settled_at=settled_at,
        outcome=final if illegal is None else None,
        illegal=illegal,
        tables=tuple(tables),
    )


def analyze_match(match: Match) -> list[Analysis]:
    """The analysis of each game of a match, in order."""
    return [analyze(game, in_match=True) for game in match.games]


def _missed(
    states: Sequence[GameState[Any]],
    moves: Sequence[str],
    answers: Sequence[tuple[ClaimAnswer, ...]],
    rules: Commentary,
) -> list[MissedClaim]:
    """Chances to claim left unused, each listed once (see :class:`MissedClaim`).

    During a turn, a place the player to move could claim (the prover proves
    it and the claim is legal at that point of the turn) is *available*; a
    turn that ends without claiming it misses it, and the player's next turns
    that still offer it continue the same chance.
    """
    chances = _Chances(rules.claim_move or "")
    for k, move in enumerate(moves):
        state = states[k]
        mover = state.to_move
        chances.offer(state, k, answers[k])
        chances.take(move, k)
        after = states[k + 1]
        if after.to_move == mover and after.outcome is None:
            continue  # the turn goes on
        chances.end_turn(mover, k, game_over=after.outcome is not None)
    if moves:  # the record ends inside a turn: its claims still close their chances
        chances.close_claimed(states[len(moves) - 1].to_move)
    return chances.close_all()


class _Chances:
    """The chances to claim of one game, followed move by move by :func:`_missed`."""

    def __init__(self, claim: str) -> None:
        self.claim = claim
        self.found: list[MissedClaim] = []
        # (player, place) -> the chance so far: first position, its answer, first
        # missed turn end, turns missed
        self.open: dict[tuple[int, int], tuple[int, ClaimAnswer, int, int]] = {}
        # This turn's places the mover could claim (from position, answer), and
        # those it claimed (at move number).
        self.available: dict[int, tuple[int, ClaimAnswer]] = {}
        self.claimed: dict[int, int] = {}

    def offer(self, state: GameState[Any], k: int, answers: Sequence[ClaimAnswer]) -> None:
        """Mark available what the mover may claim at position ``k`` (``state``)."""
        mover = state.to_move
        for answer in answers:
            if answer.player != mover or not answer.claimable:
                continue
            if answer.place in self.available or answer.place in self.claimed:
                continue
            try:
                state.play(self.claim.format(answer.place))
            except RefereeError:
                continue  # proven, but not a moment when claims may be made
            self.available[answer.place] = (k, answer)

    def take(self, move: str, k: int) -> None:
        """Move ``k + 1`` (``move``) claims an available place, if it is such a claim."""
        for place in list(self.available):
            if move == self.claim.format(place):
                del self.available[place]
                self.claimed[place] = k + 1

    def end_turn(self, mover: int, k: int, *, game_over: bool) -> None:
        """The turn of ``mover`` ended with move ``k + 1``: each chance of the mover
        continues, opens or closes."""
        self.close_claimed(mover)
        for key in [key for key in self.open if key[0] == mover and key[1] not in self.available]:
            if key[1] not in self.claimed:
                self.close(key, None)  # no longer available: the chance has passed
        if not game_over:
            for place, (ply, answer) in self.available.items():
                key = (mover, place)
                if key in self.open:
                    first, first_answer, turn_end, turns = self.open[key]
                    self.open[key] = (first, first_answer, turn_end, turns + 1)
                else:
                    self.open[key] = (ply, answer, k + 1, 1)
        self.available, self.claimed = {}, {}

    def close_claimed(self, mover: int) -> None:
        """Close the chances of ``mover`` that this turn's claims took."""
        for place, move_number in self.claimed.items():
            if (mover, place) in self.open:
                self.close((mover, place), move_number)

    def close(self, key: tuple[int, int], claimed_at: int | None) -> None:
        ply, answer, turn_end, turns = self.open.pop(key)
        player, place, label = answer.player, answer.place, answer.label
        self.found.append(
            MissedClaim(ply, player, place, label, answer.explanation, turn_end, turns, claimed_at)
        )

    def close_all(self) -> list[MissedClaim]:
        """Close every chance still open; every chance found, in order of position."""
        for key in list(self.open):
            self.close(key, None)
        self.found.sort(key=lambda m: (m.ply, m.place, m.player))
        return self.found


def _decided(
    states: Sequence[GameState[Any]],
    answers: Sequence[tuple[ClaimAnswer, ...]],
    rules: Commentary,
) -> tuple[list[Decided], list[dict[int, int]]]:
    """Each moment a place became decided, and every position's decided places."""
    events: list[Decided] = []
    tables: list[dict[int, int]] = []
    before: dict[int, int] = {}
    for k, state in enumerate(states):
        table = dict(rules.owners(state))
        labels = {}
        for answer in answers[k]:
            labels[answer.place] = answer.label
            if answer.claimable and answer.place not in table:
                table[answer.place] = answer.player
        for place, player in sorted(table.items()):
            if before.get(place) != player:
                label = labels.get(place) or f"stone {place}"
                events.append(Decided(place, label, player, k))
        tables.append(table)
        before = table
    return events, tables


# --- command line -------------------------------------------------------------------


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``analyze`` command to the ``referee`` command line's subparsers."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "analyze", help="missed claims, decided places and when the result was settled"
    )
    parser.add_argument(
        "path", metavar="RECORD", help="a record or match file, a JSON Lines corpus, or -"
    )
    add_document_option(parser)
    parser.add_argument("--json", action="store_true", help="JSON output (one object per game)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Print the analysis of each legal game; returns the exit status.

    Each document is judged first by :func:`referee.records.validate`, as on
    every command: one that is not legal is not analysed, its verdict goes to
    standard error (``referee: `` and the summary ``referee validate`` prints),
    and the status is 1 (illegal) or 2 (unreadable), the worse of all documents.
    """
    from referee.replay import read_documents  # the viewer's module imports this one

    status = EXIT_STATUS["legal"]
    for document in read_documents(args.path, document=document_of(args)):
        report = validate(document)
        if not report.legal:
            error(report.summary())
            status = max(status, EXIT_STATUS[report.status])
            continue
        assert not isinstance(document, RecordError)
        games = analyze_match(document) if isinstance(document, Match) else [analyze(document)]
        for analysis in games:
            if args.json:
                print(json.dumps(analysis.to_json(), ensure_ascii=False))
            else:
                print(analysis)
    return status
