"""Missed claims, decided places and the settled result, checked against the prover.

The reference for "could have claimed" is the game's own ``legal_moves()``
(which lists a claim only when the prover proves it), gathered turn by turn;
the analysis finds claims by asking the prover through the record format and
trying the claim, so the two paths are independent.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.analysis import Analysis, analyze
from referee.cli import main
from referee.records import Match, Record, find_game, iter_records

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "examples" / "records"
CLAIMS = {"schotten-totten": "Claim", "schotten-totten-2": "Control"}


def bundled() -> list[Record]:
    games: list[Record] = []
    for path in sorted(RECORDS.rglob("*.json")):
        for item in iter_records(path):
            assert isinstance(item, (Record, Match)), item
            games.extend(item.games if isinstance(item, Match) else [item])
    return games


def in_a_match(record: Record) -> bool:
    """Whether a bundled game is one game of a match (and may carry its rules)."""
    return " game " in record.where


def states_of(record: Record, plies: int) -> list[Any]:
    state = find_game(record.game).start(record)
    states = [state]
    for move in record.moves[:plies]:
        state = state.play(move)
        states.append(state)
    return states


def reference_missed(record: Record, plies: int) -> set[tuple[int, int, int, int, int | None]]:
    """(first position, player, place, turns missed, the move that claimed it
    at last or None) of every chance to claim:
    a claim listed by ``legal_moves()`` during a turn and not made before the
    turn ended (the game going on), continued while each of that player's
    next turns lists it again."""
    states = states_of(record, plies)
    claim_class = CLAIMS.get(record.game)
    chances: dict[tuple[int, int], list[int]] = {}
    missed: set[tuple[int, int, int, int, int | None]] = set()
    available: dict[int, int] = {}
    claimed: dict[int, int] = {}
    for k, move in enumerate(record.moves[:plies]):
        state = states[k]
        for legal in state.legal_moves():
            place = getattr(legal, "stone", getattr(legal, "tile", None))
            if type(legal).__name__ == claim_class and place not in {*available, *claimed}:
                available[place] = k
        played = state.parse_move(move)
        if type(played).__name__ == claim_class:
            place = getattr(played, "stone", getattr(played, "tile", None))
            available.pop(place, None)
            claimed[place] = k + 1
        after = states[k + 1]
        if after.to_move != state.to_move or after.outcome is not None:
            mover = state.to_move
            for key in [key for key in chances if key[0] == mover]:
                if key[1] in claimed or key[1] not in available or after.outcome is not None:
                    first, turns = chances.pop(key)
                    missed.add((first, mover, key[1], turns, claimed.get(key[1])))
            if after.outcome is None:
                for place, ply in available.items():
                    first, turns = chances.get((mover, place), [ply, 0])
                    chances[(mover, place)] = [first, turns + 1]
            available, claimed = {}, {}
    if claimed:  # the record ends inside a turn that made claims
        mover = states[plies - 1].to_move
        for place, number in claimed.items():
            if (mover, place) in chances:
                first, turns = chances.pop((mover, place))
                missed.add((first, mover, place, turns, number))
    missed |= {(first, p, place, turns, None) for (p, place), (first, turns) in chances.items()}
    return missed


def check_against_prover(record: Record, analysis: Analysis) -> None:
    states = states_of(record, analysis.plies)
    assert analysis.plies == len(states) - 1
    found = {(m.ply, m.player, m.place, m.turns, m.claimed_at) for m in analysis.missed}
    assert found == reference_missed(record, analysis.plies), record.where
    assert len(found) == len(analysis.missed)  # each chance listed once
    for missed in analysis.missed:
        state = states[missed.ply]
        assert state.to_move == missed.player
        verdict = (
            state.claim_verdict(missed.place, player=missed.player)
            if record.game == "schotten-totten"
            else state.claim_verdict(missed.place)
        )
        assert verdict.holds and missed.explanation.startswith(verdict.explain())
    for event in analysis.decided:
        state = states[event.ply]
        answers = find_game(record.game).claimability(state)
        owner = (
            getattr(state.stones[event.place - 1], "owner", None)
            if hasattr(state, "stones")
            else None
        )
        proven = any(
            a.place == event.place and a.player == event.player and a.claimable for a in answers
        )
        assert owner == event.player or proven, (record.where, event)


@pytest.mark.parametrize("record", bundled(), ids=lambda r: f"{Path(r.where).name}")
def test_bundled_records_missed_claims_match_the_prover(record: Record) -> None:
    check_against_prover(record, analyze(record, in_match=in_a_match(record)))


def random_record(game: str, rules: dict[str, Any], seed: int) -> Record:
    """A game played by a random player that picks any legal move, so it skips
    most of the claims it could make."""
    fmt = find_game(game)
    dealt = fmt.random_record(seed, rules)
    state = fmt.start(dealt)
    rng = random.Random(seed)
    moves: list[str] = []
    while state.outcome is None and len(moves) < 400:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    return replace(dealt, moves=tuple(moves), result=None, where=f"random {game} {seed}")


PLAYOUTS = [
    ("schotten-totten", {}),
    ("schotten-totten", {"edition": "1999"}),
    ("schotten-totten", {"variants": ["early-bird"]}),
    ("schotten-totten", {"variants": ["tactics"]}),
    ("schotten-totten-2", {}),
    ("schotten-totten-2", {"variants": ["tactics"]}),
]


@pytest.mark.parametrize(("game", "rules"), PLAYOUTS)
def test_random_playouts_report_exactly_the_skipped_claims(
    game: str, rules: dict[str, Any]
) -> None:
    reported = 0
    for seed in range(1, 9):  # enough games that a random player skips some claim
        record = random_record(game, rules, seed)
        analysis = analyze(record)
        assert analysis.illegal is None
        check_against_prover(record, analysis)
        reported += len(analysis.missed)
    assert reported, "a random player skips claims: some must be reported"


def test_a_chance_is_listed_once_and_closed_by_its_claim() -> None:
    moves = ["R9@1", "draw", "O1@2", "draw", "R8@1", "draw", "O2@2", "draw", "R7@1", "draw"]
    moves += ["B1@3", "draw", "O3@2", "draw", "B2@3", "draw", "Y1@4", "claim 1"]
    record = Record("schotten-totten", tuple(moves))
    assert [(m.ply, m.turn_end, m.turns, m.claimed_at) for m in analyze(record).missed] == [
        (9, 10, 2, 18)
    ]
    check_against_prover(record, analyze(record))
    # Without the claim the chance stays open to the end of the record.
    unclaimed = Record("schotten-totten", tuple(moves[:-1]))
    assert [(m.turns, m.claimed_at) for m in analyze(unclaimed).missed] == [(2, None)]


def test_a_claim_made_at_once_is_not_missed_and_an_unprovable_one_never_is() -> None:
    record = Record(
        game="schotten-totten",
        moves=("R9@1", "draw", "O1@2", "draw", "R8@1", "draw", "O2@2", "draw", "R7@1", "claim 1"),
    )
    assert analyze(record).missed == ()
    # A run of 1-2-3 can still be beaten: completing it is no missed claim.
    weak = Record(
        game="schotten-totten",
        moves=("R1@1", "draw", "O9@2", "draw", "R2@1", "draw", "O8@2", "draw", "R3@1", "draw"),
    )
    report = analyze(weak)
    assert report.missed == () and report.decided == ()
    assert [a.claimable for a in report.answers[9]] == [False]


def winning(stones: set[int]) -> bool:
    """Schotten Totten's goal: five stones, or three adjacent ones."""
    return len(stones) >= 5 or any({n, n + 1, n + 2} <= stones for n in range(1, 8))


@pytest.mark.parametrize("name", ["full-2024.json", "full-1999.json", "full-2024-tactics.json"])
def test_settled_result_is_the_first_ply_the_winners_decided_stones_always_win(name: str) -> None:
    record = next(r for r in bundled() if r.where.endswith(name))
    analysis = analyze(record)
    assert analysis.outcome is not None and analysis.outcome.winner is not None
    winner = analysis.outcome.winner
    fmt = find_game(record.game)
    wins = []
    for state in states_of(record, analysis.plies):
        mine = {n for n, s in enumerate(state.stones, 1) if s.owner == winner}
        mine |= {a.place for a in fmt.claimability(state) if a.claimable and a.player == winner}
        wins.append(winning(mine))
    assert wins[-1]
    first = max(k for k, won in enumerate(wins) if not won) + 1 if not all(wins) else 0
    assert analysis.settled_at == first
    # Every stone the winner holds at the end was reported decided for it.
    final = states_of(record, analysis.plies)[-1]
    owned = {n for n, s in enumerate(final.stones, 1) if s.owner == winner}
    assert owned <= {d.place for d in analysis.decided if d.player == winner}


def test_analyze_command_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = (
        ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-claim-not-proven.json"
    )
    assert main(["analyze", str(path)]) == 1  # refused with validate's verdict, not analysed
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"referee: {path}: illegal at ply 24 'claim 4' [claim_not_proven]: " + (
        "illegal move 'claim 4': the opponent can still beat your sum (11): "
        "adding B8 makes color (18)\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee",
            "analyze",
            "--json",
            str(RECORDS / "schotten-totten-2" / "match-rache.json"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    games = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(games) == 2 and all(g["game"] == "schotten-totten-2" for g in games)
    assert all(set(g) >= {"missed", "decided", "settled_at", "plies"} for g in games)
    assert main(["analyze", str(RECORDS / "nothing.json")]) == 2


def test_analyze_reads_a_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [
        RECORDS / "schotten-totten" / "public-2024.json",
        RECORDS / "schotten-totten-2" / "match-rache.json",
        ROOT / "examples" / "illegal-records" / "schotten-totten" / "illegal-claim-not-proven.json",
    ]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        "".join(json.dumps(json.loads(p.read_text(encoding="utf-8"))) + "\n" for p in paths),
        encoding="utf-8",
    )
    assert main(["analyze", "--json", str(corpus)]) == 1  # the third is illegal
    out, err = capsys.readouterr()
    games = [json.loads(line) for line in out.splitlines()]
    assert [g["game"] for g in games] == [
        "schotten-totten",
        "schotten-totten-2",
        "schotten-totten-2",
    ]
    assert err.startswith(f"referee: {corpus}:3: illegal at ply 24 'claim 4' [claim_not_proven]")
    assert main(["analyze", "--json", "--document", "2", str(corpus)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert main(["analyze", "--json", "--game", "2", str(corpus)]) == 0  # the old spelling
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 2 and "--game N is deprecated here" in err
