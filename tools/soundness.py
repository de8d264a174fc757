"""Prover soundness at scale: the exact engine against CP-SAT on random positions.

``python tools/soundness.py`` (a test tool, not part of the installed package;
run from a checkout with ``referee`` importable) deals ``--count`` random claim questions for
every formation rule shape the games use (a Schotten Totten stone, Mud Fight,
Blind Man's Bluff and each Schotten Totten 2 tile side, lower-sum ones
included), on both decks (6 colours 1-9 and 5 colours 0-11), with wildcards on
either side. Each question goes to both engines; their verdicts and the
strength of the opponent's best reachable formation must agree, and each
engine's evidence is checked with plain code. It prints, per shape, the
questions checked, the disagreements (the first one in full), the questions
CP-SAT left undecided and the time each engine took, and exits 1 on any
disagreement (0 otherwise; 2 for a bad command line).

    >>> sorted(SHAPES)[:3]
    ['2-all', '2-three-of-a-kind', '3-all']
    >>> report = run(count=3, seed=1, shapes=["3-all"])
    >>> report.shapes[0].checked, report.disagreements
    (3, 0)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import IO

from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule, Kind, Strength
from referee.prover import ClaimVerdict, Completion, Engine, Piece, Verdict, Wildcard, decide_claim

__all__ = [
    "DECKS",
    "SHAPES",
    "Deck",
    "Disagreement",
    "Question",
    "Shape",
    "ShapeReport",
    "SoundnessReport",
    "check_question",
    "deal_question",
    "main",
    "run",
]

_Pair = tuple[int, int]


@dataclass(frozen=True)
class Shape:
    """One formation rule shape and the places of the games that use it."""

    name: str
    rule: FormationRule
    used_at: str


def _kinds(*kinds: Kind) -> frozenset[Kind]:
    return frozenset(kinds) | SUM_ONLY


#: Every rule shape of the family (RULINGS.md: Schotten Totten 4-6 and 10,
#: Schotten Totten 2 rules 2-3), by name.
SHAPES: dict[str, Shape] = {
    s.name: s
    for s in (
        Shape("3-all", FormationRule(3, ALL_KINDS), "Schotten Totten stone; ST2 tiles 3, 5 intact"),
        Shape("4-all", FormationRule(4, ALL_KINDS), "Mud Fight; ST2 tiles 2, 6 intact"),
        Shape("3-sum", FormationRule(3, SUM_ONLY), "Blind Man's Bluff; ST2 tile 1 intact"),
        Shape("2-all", FormationRule(2, ALL_KINDS), "ST2 tile 4 (gate) intact"),
        Shape(
            "2-three-of-a-kind",
            FormationRule(2, _kinds(Kind.THREE_OF_A_KIND)),
            "ST2 tiles 2, 6 damaged",
        ),
        Shape("3-color", FormationRule(3, _kinds(Kind.COLOR)), "ST2 tiles 3, 5 damaged"),
        Shape("3-run", FormationRule(3, _kinds(Kind.RUN)), "ST2 tiles 1, 7 damaged"),
        Shape(
            "3-sum-lower",
            FormationRule(3, SUM_ONLY, lower_sum_wins=True),
            "ST2 tile 7 intact",
        ),
        Shape(
            "4-sum-lower",
            FormationRule(4, SUM_ONLY, lower_sum_wins=True),
            "ST2 tile 4 (gate) damaged",
        ),
    )
}


@dataclass(frozen=True)
class Deck:
    """A deck (``colours`` x ``values``) and the wildcards its tactic cards make."""

    name: str
    colours: int
    values: range
    wildcards: tuple[Wildcard, ...]

    def cards(self) -> list[_Pair]:
        """Every card of the deck, in order."""
        return [(c, v) for c in range(self.colours) for v in self.values]


#: The two decks of the family with their elite troops (joker, spy, shield).
DECKS: tuple[Deck, ...] = (
    Deck(
        "6x1-9",
        6,
        range(1, 10),
        (
            Wildcard.any_of(range(1, 10), "joker"),
            Wildcard.exactly(7, "spy"),
            Wildcard.any_of((1, 2, 3), "shield_bearer"),
        ),
    ),
    Deck(
        "5x0-11",
        5,
        range(12),
        (
            Wildcard.any_of(range(12), "joker"),
            Wildcard.exactly(10, "spy"),
            Wildcard.any_of((1, 2, 3), "shield"),
        ),
    ),
)


@dataclass(frozen=True)
class Question:
    """One claim question: both sides, the pool, the rule and the tie-break."""

    shape: str
    deck: str
    rule: FormationRule
    colours: int
    claimant: tuple[Piece, ...]
    opponent: tuple[Piece, ...]
    pool: tuple[_Pair, ...]
    claimant_completed_first: bool

    def describe(self) -> str:
        """The whole instance, readable and reproducible."""
        return "\n".join(
            [
                f"  shape {self.shape} ({self.rule.describe()}), deck {self.deck}, "
                f"colours={self.colours}",
                f"  claimant: {_pieces(self.claimant)}",
                f"  opponent: {_pieces(self.opponent)}",
                f"  claimant_completed_first: {self.claimant_completed_first}",
                f"  pool ({len(self.pool)} cards): {sorted(self.pool)}",
            ]
        )


def _pieces(side: Sequence[Piece]) -> str:
    out = []
    for piece in side:
        if isinstance(piece, Wildcard):
            out.append(f"{piece.name}{sorted(piece.values)}")
        else:
            out.append(str((piece[0], piece[1])))
    return "[" + ", ".join(out) + "]"


def deal_question(rng: random.Random, shape: Shape, deck: Deck) -> Question:
    """A random claim question of ``shape`` on ``deck``.

    Half the questions are table-like (the pool is every card not visible,
    with a few more cards visible elsewhere); half are dense (the cards come
    from a few colours and nearby values, so strong formations are in reach).
    """
    rule = shape.rule
    every = deck.cards()
    if rng.random() < 0.5:
        source = every[:]
    else:
        colours = rng.sample(range(deck.colours), rng.randint(1, 3))
        centre = rng.choice(deck.values)
        near = [v for v in range(centre - 2, centre + 3) if v in deck.values]
        source = [(c, v) for c in colours for v in near]
        source += rng.sample(every, rng.randint(0, 4))
        source = sorted(set(source))
    rng.shuffle(source)

    def side(size: int, wild_most: int) -> list[Piece]:
        count = rng.randint(0, min(wild_most, size))
        wild: list[Piece] = list(rng.sample(deck.wildcards, min(count, len(deck.wildcards))))
        if wild and rng.random() < 0.05:
            wild[0] = deck.wildcards[0]  # now and then a second joker: stress, not realism
        cards: list[Piece] = [source.pop() for _ in range(min(size - len(wild), len(source)))]
        while len(cards) + len(wild) < size:
            wild.append(deck.wildcards[0])
        pieces = cards + wild
        rng.shuffle(pieces)
        return pieces

    claimant = side(rule.size, 2)
    opponent = side(rng.randint(0, rule.size), 2)
    # Some more cards are visible elsewhere; the rest may still come.
    hidden = rng.randint(0, min(25, len(source)))
    del source[:hidden]
    return Question(
        shape.name,
        deck.name,
        rule,
        deck.colours,
        tuple(claimant),
        tuple(opponent),
        tuple(sorted(source)),
        rng.random() < 0.5,
    )


@dataclass(frozen=True)
class Disagreement:
    """A question on which the engines (or the plain checks) disagree."""

    question: Question
    problem: str
    verdicts: tuple[ClaimVerdict | None, ...]

    def describe(self) -> str:
        """The instance and both answers, in full."""
        lines = [f"disagreement: {self.problem}", self.question.describe()]
        for engine, verdict in zip(_ENGINES, self.verdicts, strict=True):
            if verdict is None:
                lines.append(f"  {engine}: no verdict")
                continue
            lines.append(f"  {engine}: {verdict.explain()}")
            lines.append(f"    claimant {_completion(verdict.claimant)}")
            lines.append(f"    opponent_best {_completion(verdict.opponent_best)}")
        return "\n".join(lines)


def _completion(completion: Completion | None) -> str:
    if completion is None:
        return "None"
    return (
        f"{completion.strength} adding {list(completion.cards)} "
        f"wildcards as {list(completion.wildcards)}"
    )


_ENGINES: tuple[Engine, ...] = ("exact", "cpsat")


def check_question(
    question: Question, time_limit: float = 10.0
) -> tuple[str | None, bool, tuple[float, float]]:
    """Ask both engines; returns (the problem or ``None``, undecided?, engine times).

    Undecided (CP-SAT gave no proven optimum) is not a disagreement: it is no
    answer at all, and counted separately.
    """
    verdicts: list[ClaimVerdict] = []
    times: list[float] = []
    for engine in _ENGINES:
        start = time.perf_counter()
        verdict = decide_claim(
            question.claimant,
            question.opponent,
            question.pool,
            question.rule,
            colours=question.colours,
            claimant_completed_first=question.claimant_completed_first,
            engine=engine,
            time_limit=time_limit,
        )
        times.append(time.perf_counter() - start)
        verdicts.append(verdict)
    exact, cpsat = verdicts
    timing = (times[0], times[1])
    problem = _evidence_problem(question, exact)
    if problem is not None:
        return f"exact engine: {problem}", False, timing
    if exact.verdict is Verdict.UNDECIDED:
        return "the exact engine never leaves a question undecided", False, timing
    if cpsat.verdict is Verdict.UNDECIDED:
        return None, True, timing
    problem = _evidence_problem(question, cpsat)
    if problem is not None:
        return f"CP-SAT engine: {problem}", False, timing
    if exact.verdict is not cpsat.verdict:
        return (
            f"verdicts differ: exact {exact.verdict.value}, cpsat {cpsat.verdict.value}",
            False,
            timing,
        )
    best = [None if v.opponent_best is None else v.opponent_best.strength for v in verdicts]
    if best[0] != best[1]:
        return f"opponent's best differs: exact {best[0]}, cpsat {best[1]}", False, timing
    return None, False, timing


def _evidence_problem(question: Question, verdict: ClaimVerdict) -> str | None:
    """What is wrong with a verdict's evidence, checked with plain code."""
    if verdict.verdict is Verdict.UNDECIDED:
        return None
    rule, colours = question.rule, question.colours
    mine = _check_completion(question.claimant, (), rule, colours, verdict.claimant)
    if isinstance(mine, str):
        return f"claimant's formation: {mine}"
    best = verdict.opponent_best
    pool = frozenset(question.pool)
    if best is None:
        need = rule.size - len(question.opponent)
        if need <= len(pool):
            return "no opponent completion given, but the pool can complete the side"
        return None if verdict.holds else "refused without a witness"
    theirs = _check_completion(question.opponent, pool, rule, colours, best)
    if isinstance(theirs, str):
        return f"opponent's completion: {theirs}"
    first = question.claimant_completed_first or len(question.opponent) < rule.size
    beaten = rule.key(theirs) > rule.key(mine) or (rule.key(theirs) == rule.key(mine) and not first)
    if beaten == verdict.holds:
        return f"verdict {verdict.verdict.value} contradicts its own evidence"
    return None


def _check_completion(
    side: Sequence[Piece],
    pool: Collection[_Pair],
    rule: FormationRule,
    colours: int,
    completion: Completion,
) -> Strength | str:
    """The completion's strength, or what is wrong with it."""
    cards = [(p[0], p[1]) for p in side if not isinstance(p, Wildcard)]
    wildcards = [p for p in side if isinstance(p, Wildcard)]
    added = completion.cards
    if len(added) != rule.size - len(side):
        return f"adds {len(added)} cards to a side of {len(side)}"
    if len(set(added)) != len(added):
        return "adds a pool card twice"
    if any(card not in pool for card in added):
        return "adds a card that is not in the pool"
    if len(completion.wildcards) != len(wildcards):
        return "values the wrong number of wildcards"
    for (colour, value), wildcard in zip(completion.wildcards, wildcards, strict=True):
        if not 0 <= colour < colours or value not in wildcard.values:
            return f"gives a {wildcard.name} the impossible value {(colour, value)}"
    strength = rule.classify([*cards, *added, *completion.wildcards])
    if strength != completion.strength:
        return f"reports {completion.strength}, but it is {strength}"
    return strength


@dataclass
class ShapeReport:
    """What the run found for one shape."""

    shape: Shape
    checked: int = 0
    undecided: int = 0
    disagreements: int = 0
    exact_seconds: float = 0.0
    cpsat_seconds: float = 0.0
    first_disagreement: Disagreement | None = None
    first_undecided: Question | None = None


@dataclass
class SoundnessReport:
    """What the whole run found."""

    shapes: list[ShapeReport] = field(default_factory=list)

    @property
    def disagreements(self) -> int:
        """Disagreements over every shape."""
        return sum(s.disagreements for s in self.shapes)


def run(
    count: int,
    seed: int = 0,
    shapes: Sequence[str] | None = None,
    time_limit: float = 10.0,
) -> SoundnessReport:
    """Check ``count`` random questions per shape (both decks, alternating)."""
    report = SoundnessReport()
    for name in shapes if shapes is not None else list(SHAPES):
        shape = SHAPES[name]
        rng = random.Random(f"{seed} {name}")
        found = ShapeReport(shape)
        for index in range(count):
            question = deal_question(rng, shape, DECKS[index % len(DECKS)])
            problem, undecided, (exact_s, cpsat_s) = check_question(question, time_limit)
            found.checked += 1
            found.exact_seconds += exact_s
            found.cpsat_seconds += cpsat_s
            if undecided:
                found.undecided += 1
                if found.first_undecided is None:
                    found.first_undecided = question
            if problem is not None:
                found.disagreements += 1
                if found.first_disagreement is None:
                    found.first_disagreement = _disagreement(question, problem, time_limit)
        report.shapes.append(found)
    return report


def _disagreement(question: Question, problem: str, time_limit: float) -> Disagreement:
    verdicts = tuple(
        decide_claim(
            question.claimant,
            question.opponent,
            question.pool,
            question.rule,
            colours=question.colours,
            claimant_completed_first=question.claimant_completed_first,
            engine=engine,
            time_limit=time_limit,
        )
        for engine in _ENGINES
    )
    return Disagreement(question, problem, verdicts)


def print_report(report: SoundnessReport, out: IO[str]) -> None:
    """The per-shape table, then every shape's first disagreement in full."""
    header = (
        f"{'shape':<19}{'rule':<42}{'checked':>8}{'disagree':>9}{'undecided':>10}"
        f"{'exact ms':>10}{'cpsat ms':>10}"
    )
    print(header, file=out)
    for s in report.shapes:
        per = max(1, s.checked)
        print(
            f"{s.shape.name:<19}{s.shape.rule.describe():<42}{s.checked:>8}{s.disagreements:>9}"
            f"{s.undecided:>10}{1000 * s.exact_seconds / per:>10.2f}"
            f"{1000 * s.cpsat_seconds / per:>10.2f}",
            file=out,
        )
    total = sum(s.checked for s in report.shapes)
    undecided = sum(s.undecided for s in report.shapes)
    exact = sum(s.exact_seconds for s in report.shapes)
    cpsat = sum(s.cpsat_seconds for s in report.shapes)
    print(
        f"{total} questions: {report.disagreements} disagreements, {undecided} undecided; "
        f"exact {exact:.1f}s, cpsat {cpsat:.1f}s in all",
        file=out,
    )
    for s in report.shapes:
        if s.first_disagreement is not None:
            print(f"\n[{s.shape.name}] first of {s.disagreements}", file=out)
            print(s.first_disagreement.describe(), file=out)
        if s.first_undecided is not None:
            print(f"\n[{s.shape.name}] first undecided question", file=out)
            print(s.first_undecided.describe(), file=out)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python tools/soundness.py",
        description="Cross-check the exact claim engine against CP-SAT on random positions.",
    )
    parser.add_argument(
        "--count", type=int, default=200, help="questions per shape (default: %(default)s)"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: %(default)s)")
    parser.add_argument(
        "--shapes",
        nargs="+",
        choices=sorted(SHAPES),
        metavar="SHAPE",
        help="only these shapes (default: all): " + ", ".join(SHAPES),
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="CP-SAT time limit per question (default: %(default)s)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (1 on any disagreement)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    if args.count < 0:
        print("python tools/soundness.py: --count must be at least 0", file=sys.stderr)
        return 2
    report = run(args.count, args.seed, args.shapes, args.time_limit)
    print_report(report, sys.stdout)
    return 1 if report.disagreements else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
