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
  (the solver must then rule out every choice);
* public records that keep their result, among them games that end in a failed
  siege (the public replay ends them where the record does);
* problems built through the API with more hidden choices than any game has:
  many shuffle-ins without places and many hidden put-backs, legal and with an
  impossible last move, and one beyond :data:`referee.deals.MAX_CASES`
  (refused before any choice is tried). The column ``cases`` is how many
  combinations of hidden choices the solver had to consider.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections.abc import Callable
from typing import Any

from referee.deals import (
    MAX_CASES,
    DealProblem,
    DealSearchLimitError,
    Draw,
    Event,
    Insert,
    Lacks,
    PutBack,
    Spend,
    _check,
    _match,
    _sim,
    _solve,
    check_record,
    solve,
    witness,
)
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


def shuffle_problem(seed: int, supports: int, spoiled: bool) -> DealProblem:
    """A Schotten Totten 2-like siege pile played from a random deal: each turn
    a card is played and one drawn; ``supports`` times two discarded cards are
    shuffled back in at places the problem does not give. ``spoiled``: the
    last move plays a card that lies discarded (no deal fits it)."""
    rng = random.Random(seed)
    cards = [f"{c}{v}" for c in "RGBYP" for v in range(12)]
    deck = list(cards)
    rng.shuffle(deck)
    hands: list[list[str]] = [[], []]
    events: list[Event] = []
    for player in (0, 1):
        for _ in range(7):
            hands[player].append(deck.pop(0))
            events.append(Draw(0, player, "siege"))
    discard: list[str] = []
    at = set(rng.sample(range(4, 40), supports))
    ply = 0
    for turn in range(60):
        player = turn % 2
        if not deck:
            break
        ply += 1
        card = rng.choice(hands[player])
        hands[player].remove(card)
        discard.append(card)
        events.append(Spend(ply, player, card))
        if turn in at and len(discard) >= 2:
            chosen = rng.sample(discard, 2)
            for card in chosen:
                discard.remove(card)
            size = len(deck) + 2
            placed = dict(zip(rng.sample(range(1, size + 1), 2), chosen, strict=True))
            rest = iter(deck)
            deck = [placed[i] if i in placed else next(rest) for i in range(1, size + 1)]
            ply += 1
            events.append(Insert(ply, "siege", tuple(chosen)))
        ply += 1
        hands[player].append(deck.pop(0))
        events.append(Draw(ply, player, "siege"))
    if spoiled:
        events.append(Spend(ply + 1, 0, discard[0]))
    return DealProblem({"siege": tuple(cards)}, tuple(events))


def put_back_problem(seed: int, returns: int, spoiled: bool) -> DealProblem:
    """A pile played from a random deal where a player puts ``returns`` cards
    back hidden, some refused (``excluded``), and says now and then which cards
    it lacks (so its cards fall into groups a hidden put-back must tell apart)."""
    rng = random.Random(seed)
    cards = [f"c{i}" for i in range(30)]
    deck = list(cards)
    rng.shuffle(deck)
    hands: list[list[str]] = [[], []]
    events: list[Event] = []
    for player in (0, 1):
        for _ in range(5):
            hands[player].append(deck.pop(0))
            events.append(Draw(0, player, "pile"))
    played: list[str] = []
    for ply in range(1, 4 * returns + 1):
        player = ply % 2
        hand = hands[player]
        if ply % 4 == 1:
            excluded = (rng.choice(cards),)
            card = rng.choice([c for c in hand if c not in excluded])
            hand.remove(card)
            deck.append(card)
            events.append(PutBack(ply, player, "pile", None, excluded))
        elif ply % 4 == 3:
            absent = [c for c in cards if c not in hand]
            events.append(Lacks(ply, player, frozenset(rng.sample(absent, 8))))
        else:
            card = rng.choice(hand)
            hand.remove(card)
            played.append(card)
            events.append(Spend(ply, player, card))
        hand.append(deck.pop(0))
        events.append(Draw(ply, player, "pile"))
    if spoiled:
        events.append(Spend(4 * returns + 1, 0, played[0]))
    return DealProblem({"pile": tuple(cards)}, tuple(events))


def cases_of(problem: DealProblem) -> int:
    """How many combinations of hidden choices the solver considers (all piles)."""
    found = 0
    for part, _ in _solve._by_pile(_check._checked(problem)):
        (pile,) = part.piles
        lacks = _sim._Lacking(part.events, part.players)
        for sim in _sim._cases(part, pile, lacks):
            found += len(_match._Matcher(part, pile, sim, lacks).assignments())
    return found


def report_api() -> None:
    print()
    print("API problems with many hidden choices (CPU ms, best of 3 per problem, 3 seeds):")
    print(f"  {'problem':<44}{'cases':>7}{'fits':>8}{'no fit':>10}")
    rows = [(f"{n} shuffle-ins without places", shuffle_problem, n) for n in (1, 2, 4, 8, 16)]
    rows += [(f"{n} hidden put-backs, lacks between", put_back_problem, n) for n in (1, 2, 4, 6)]
    for name, build, n in rows:
        times = []
        for spoiled in (False, True):
            worst = 0.0
            for seed in range(3):
                problem = build(seed, n, spoiled)
                best = float("inf")
                for _ in range(3):
                    start = time.process_time()
                    try:
                        answer = solve(problem)
                        assert answer.fits != spoiled, (name, seed, answer)
                    except DealSearchLimitError:
                        pass
                    best = min(best, time.process_time() - start)
                worst = max(worst, best)
            times.append(worst)
        try:
            cases = str(max(cases_of(build(seed, n, False)) for seed in range(3)))
        except DealSearchLimitError:
            cases = f">{MAX_CASES}"
        print(f"  {name:<44}{cases:>7}{1000 * times[0]:8.1f}{1000 * times[1]:10.1f}")
    print(f"  (more than {MAX_CASES} cases: refused with DealSearchLimitError before any is tried)")


def report_results(games: int) -> None:
    print()
    print("Public records that keep their result (ms per game):")
    for game, rules in KINDS:
        fmt = find_game(game)
        records = [
            dataclasses.replace(fmt.random_record(s, rules), deal=None) for s in range(games)
        ]
        found = timed(validate, records)
        assert all(validate(r).legal and not validate(r).result_mismatch for r in records)
        print(f"  {kind_name(game, rules):<30} {found[0]:6.1f} mean, {found[1]:6.1f} worst")
    fmt = find_game("schotten-totten-2")
    failed = [
        dataclasses.replace(fmt.random_record(seed, {"variants": ["tactics"]}), deal=None)
        for seed in (791, 3285)
    ]
    found = timed(validate, failed)
    assert all(validate(r).legal and not validate(r).result_mismatch for r in failed)
    print(f"  {'failed sieges (seeds 791, 3285)':<30} {found[0]:6.1f} mean, {found[1]:6.1f} worst")


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
    report_results(games // 4)
    report_api()


if __name__ == "__main__":
    main()
