"""What the deal check costs a public record.

Run from the repository root::

    python benchmarks/deals_bench.py            # 200 games per kind (about a minute)
    python benchmarks/deals_bench.py --quick    # 40 games per kind

For each kind of game it prints, measured in one run on one core (CPU time of
this process):

* the deal check alone (:func:`referee.deals.check_record`: extracting the
  visible events by a replay, then the solver), per game;
* validating the public record whole (the rules' replay plus the deal check),
  per game, and the share of that time the deal check takes;
* the witness (:func:`referee.deals.witness`), per game;
* the worst single game, for each;
* records with hidden choices: the recruiter's returns written as bare pile
  names (Schotten Totten) and the support's shuffle without places (Schotten
  Totten 2), legal and with one impossible tactic card played near the end
  (the solver must then rule out every choice).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from referee.deals import check_record, witness
from referee.errors import RefereeError
from referee.records import Record, find_game, validate

KINDS: list[tuple[str, dict[str, Any]]] = [
    ("schotten-totten", {}),
    ("schotten-totten", {"variants": ["tactics"]}),
    ("schotten-totten-2", {}),
    ("schotten-totten-2", {"variants": ["tactics"]}),
]
_ST_TACTICS = {"joker", "spy", "shield_bearer", "blind_mans_bluff", "mud_fight"}
_ST_TACTICS |= {"recruiter", "strategist", "banshee", "traitor"}


def public(record: Record) -> Record:
    return dataclasses.replace(record, deal=None, result=None)


def hide(record: Record) -> Record:
    """The public record with the recruiter's returns and the shuffle's places hidden."""
    moves = []
    for text in record.moves:
        if text.startswith("recruiter") and " return " in text:
            head, back = text.split(" return ")
            names = ["tactic" if w in _ST_TACTICS else "clan" for w in back.split()]
            text = f"{head} return {' '.join(names)}"
        elif text.startswith("shuffle "):
            text = "shuffle"
        moves.append(text)
    return dataclasses.replace(public(record), moves=tuple(moves))


def spoil(record: Record) -> Record | None:
    """The record with a joker or spy played late by a player who cannot hold it."""
    fmt = find_game(record.game)
    state = fmt.start(record)
    places = 9 if record.game == "schotten-totten" else 7
    states = []
    for text in record.moves:
        states.append(state)
        state = state.play(text)
    for ply in range(len(record.moves) - 1, len(record.moves) // 2, -1):
        for name in ("joker", "spy"):
            for place in range(1, places + 1):
                text = f"{name}@{place}"
                try:
                    states[ply].play(text)
                except RefereeError:
                    continue
                mutant = dataclasses.replace(
                    record, moves=(*record.moves[:ply], text, *record.moves[ply + 1 :])
                )
                report = validate(mutant)
                if report.error is not None and report.error.reason in (
                    "card_never_held",
                    "no_consistent_deal",
                ):
                    return mutant
    return None


def timed(action: Callable[[Record], object], records: list[Record]) -> tuple[float, float]:
    """(mean, worst) CPU milliseconds per record."""
    worst, total = 0.0, 0.0
    for record in records:
        start = time.process_time()
        action(record)
        spent = time.process_time() - start
        total += spent
        worst = max(worst, spent)
    return 1000 * total / max(1, len(records)), 1000 * worst


def kind_name(game: str, rules: dict[str, Any]) -> str:
    return game + (" + tactics" if rules.get("variants") else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 games per kind")
    games = 40 if parser.parse_args().quick else 200
    print(f"Deal check of public records, {games} random games per kind, CPU time on one core")
    print()
    header = f"{'kind':<32}{'check':>14}{'validate':>16}{'share':>8}{'witness':>14}"
    print(header)
    print(f"{'':<32}{'mean / worst ms':>14}{'mean / worst ms':>16}{'':>8}{'mean / worst ms':>14}")
    hidden_cases: list[tuple[str, list[Record], list[Record]]] = []
    for game, rules in KINDS:
        fmt = find_game(game)
        records = [public(fmt.random_record(seed, rules)) for seed in range(games)]
        for record in records[:5]:
            validate(record)
        check = timed(check_record, records)
        whole = timed(validate, records)
        found = timed(witness, records)
        share = 100 * check[0] / whole[0]
        print(
            f"{kind_name(game, rules):<32}{check[0]:6.1f} /{check[1]:6.1f}"
            f"{whole[0]:8.1f} /{whole[1]:6.1f}{share:7.0f}%{found[0]:6.1f} /{found[1]:6.1f}"
        )
        if rules.get("variants"):
            full = [fmt.random_record(seed, rules) for seed in range(games)]
            chosen = [
                hide(r)
                for r in full
                if any(m.startswith(("recruiter", "shuffle")) for m in r.moves)
            ]
            spoiled = [s for s in (spoil(r) for r in chosen[: max(5, games // 10)]) if s]
            hidden_cases.append((kind_name(game, rules), chosen, spoiled))
    print()
    print("Hidden choices (recruiter returns as pile names, shuffles without places):")
    for name, legal, spoiled in hidden_cases:
        ok = timed(validate, legal)
        bad = timed(validate, spoiled)
        assert all(validate(r).legal for r in legal)
        assert not any(validate(r).legal for r in spoiled)
        print(
            f"  {name:<30} {len(legal):4} legal games {ok[0]:6.1f} ms mean, {ok[1]:6.1f} worst; "
            f"{len(spoiled):3} impossible ones {bad[0]:6.1f} ms mean, {bad[1]:6.1f} worst"
        )


if __name__ == "__main__":
    main()
