"""The claim prover: can the opponent still beat a complete formation?

The question is game-agnostic. Cards are ``(colour, value)`` integer pairs,
wildcards are :class:`Wildcard` values, and the formation rule is a
:class:`~referee.formations.FormationRule`. Two engines answer it: ``"exact"``
(the default, which computes the opponent's best reachable formation kind by
kind) and ``"cpsat"`` (an OR-Tools CP-SAT model of the same question).

A claim that holds, with the opponent's best reachable formation as evidence:

    >>> from referee.formations import FormationRule
    >>> rule = FormationRule(size=3)
    >>> table = {(0, 7), (0, 8), (0, 9), (1, 9), (1, 5), (2, 5), (3, 5), (4, 6)}
    >>> pool = [(c, v) for c in range(6) for v in range(1, 10) if (c, v) not in table]
    >>> verdict = decide_claim([(0, 7), (0, 8), (0, 9)], [(1, 9)], pool, rule, colours=6)
    >>> verdict.holds
    True
    >>> print(verdict.explain())
    claimable: color_run (24) stands; the opponent's best is color_run (24), a tie, and the claimant completed first

A claim that fails carries the opponent's beating completion:

    >>> verdict = decide_claim([(1, 5), (2, 5), (3, 5)], [(4, 6)], pool, rule, colours=6)
    >>> verdict.holds, verdict.witness.strength
    (False, Strength(kind=<Kind.COLOR_RUN: 4>, total=21))
    >>> verdict.witness.cards
    ((4, 7), (4, 8))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from referee.formations import FormationRule
from referee.prover._exact import best_completion as _exact_best
from referee.prover._odds import Odds, count_completions
from referee.prover._types import (
    ClaimQuestion,
    ClaimVerdict,
    Completion,
    InvalidQuestionError,
    Piece,
    Pool,
    Verdict,
    Wildcard,
)

__all__ = [
    "MAX_COLOURS",
    "MAX_VALUE",
    "ClaimQuestion",
    "ClaimVerdict",
    "Completion",
    "Engine",
    "InvalidQuestionError",
    "Odds",
    "Piece",
    "Pool",
    "UndecidedError",
    "Verdict",
    "Wildcard",
    "best_reachable",
    "count_completions",
    "decide_claim",
]

#: The engines that can answer a claim question.
Engine = Literal["exact", "cpsat"]


class UndecidedError(RuntimeError):
    """An engine gave no answer (CP-SAT hit its time limit): never a proof."""


#: The most colours a question may have (every game has 5 to 7).
MAX_COLOURS = 64
#: Card and wildcard values lie in ``0..MAX_VALUE`` (every game uses 0-11).
MAX_VALUE = 99


def best_reachable(
    side: Sequence[Piece],
    pool: Pool | Iterable[tuple[int, int]],
    rule: FormationRule,
    *,
    colours: int,
    engine: Engine = "exact",
    time_limit: float = 10.0,
) -> Completion | None:
    """The strongest formation ``side`` can still be completed into.

    Returns ``None`` when the pool holds too few cards to complete the side.
    Raises :class:`UndecidedError` when the CP-SAT engine runs out of time.

    >>> from referee.formations import FormationRule, SUM_ONLY
    >>> best_reachable([(0, 3)], [(1, 0), (2, 0), (1, 9)], FormationRule(3, SUM_ONLY, True),
    ...                colours=5).strength.total
    3
    """
    ready = pool if isinstance(pool, Pool) else Pool(pool)
    _check_question(colours, ready, ("side", side))
    return _best(side, ready, rule, colours, engine, time_limit)


def _best(
    side: Sequence[Piece],
    ready: Pool,
    rule: FormationRule,
    colours: int,
    engine: Engine,
    time_limit: float,
) -> Completion | None:
    cards, wildcards = _split(side)
    if len(side) > rule.size:
        raise ValueError(f"a side holds {rule.size} cards at most, not {len(side)}")
    if engine == "exact":
        return _exact_best(cards, wildcards, ready, rule, colours)
    if engine == "cpsat":
        from referee.prover._cpsat import best_completion as _cpsat_best

        return _cpsat_best(cards, wildcards, ready, rule, colours, time_limit)
    raise ValueError(f"unknown engine {engine!r}: use 'exact' or 'cpsat'")


def decide_claim(
    claimant: Sequence[Piece],
    opponent: Sequence[Piece],
    pool: Pool | Iterable[tuple[int, int]],
    rule: FormationRule,
    *,
    colours: int,
    claimant_completed_first: bool = True,
    engine: Engine = "exact",
    time_limit: float = 10.0,
) -> ClaimVerdict:
    """Decide whether ``claimant``'s complete formation can still be beaten.

    ``opponent`` is the opposing side (0 to ``rule.size`` pieces) and ``pool``
    every card the opponent may still receive. When the opponent is incomplete
    the claimant completed first, so a completion that only ties does not beat
    the claim; when both are complete, ``claimant_completed_first`` breaks ties.
    Each side's wildcards take their owner's best values.
    """
    if len(claimant) != rule.size:
        raise ValueError(
            f"the claimant's formation must be complete ({rule.size} cards), not {len(claimant)}"
        )
    ready = pool if isinstance(pool, Pool) else Pool(pool)
    _check_question(colours, ready, ("claimant", claimant), ("opponent", opponent))
    claimant_cards, claimant_wild = _split(claimant)
    opponent_cards, opponent_wild = _split(opponent)
    if ready.size and not ready.cards.isdisjoint((*claimant_cards, *opponent_cards)):
        shared = sorted(ready.cards.intersection((*claimant_cards, *opponent_cards)))
        raise InvalidQuestionError(f"card {shared[0]!r} is on the table and in the pool at once")
    opponent_complete = len(opponent) == rule.size
    question = ClaimQuestion(tuple(opponent), ready, colours)  # for ClaimVerdict.odds()
    # The claimant's own strength is a plain valuation of its wildcards.
    mine = _valued(claimant_cards, claimant_wild, rule, colours)
    try:
        if opponent_complete and engine == "exact":
            best: Completion | None = _valued(opponent_cards, opponent_wild, rule, colours)
        else:
            best = _best(opponent, ready, rule, colours, engine, time_limit)
    except UndecidedError as error:
        return ClaimVerdict(
            Verdict.UNDECIDED,
            rule,
            mine,
            None,
            opponent_complete,
            claimant_completed_first,
            engine,
            str(error),
            question,
        )
    first = claimant_completed_first or not opponent_complete
    if best is None:
        holds = True
    else:
        mine_key, their_key = rule.key(mine.strength), rule.key(best.strength)
        holds = mine_key > their_key or (mine_key == their_key and first)
    return ClaimVerdict(
        Verdict.CLAIMABLE if holds else Verdict.NOT_CLAIMABLE,
        rule,
        mine,
        best,
        opponent_complete,
        first,
        engine,
        question=question,
    )


_EMPTY_POOL = Pool(())


def _check_question(colours: object, pool: Pool, *sides: tuple[str, Sequence[Piece]]) -> None:
    """Refuse a malformed question before any engine sees it."""
    if isinstance(colours, bool) or not isinstance(colours, int) or not 1 <= colours <= MAX_COLOURS:
        raise InvalidQuestionError(
            f"colours must be a whole number from 1 to {MAX_COLOURS}, not {colours!r}"
        )
    seen: dict[tuple[int, int], str] = {}
    for whose, side in sides:
        if isinstance(side, str | bytes) or not isinstance(side, Sequence):
            raise InvalidQuestionError(f"the {whose} must be a sequence of cards, not {side!r}")
        for piece in side:
            if isinstance(piece, Wildcard):
                _check_wildcard(piece, whose)
                continue
            card = _check_card(piece, colours, f"of the {whose}")
            if card in seen:
                raise InvalidQuestionError(
                    f"card {card!r} is on the {whose}'s side and on the {seen[card]}'s: "
                    "each card is in the deck once"
                    if seen[card] != whose
                    else f"card {card!r} is twice on the {whose}'s side: each card is in the deck once"
                )
            seen[card] = whose
    if pool.checked_colours != colours:
        for card in pool.cards:
            _check_card(card, colours, "in the pool")
        pool.checked_colours = colours


def _check_card(card: object, colours: int, where: str) -> tuple[int, int]:
    if (
        not isinstance(card, tuple)
        or len(card) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in card)
    ):
        raise InvalidQuestionError(
            f"expected a card as a (colour, value) pair of whole numbers {where}, got {card!r}"
        )
    colour, value = card
    if not 0 <= colour < colours:
        raise InvalidQuestionError(
            f"card {card!r} {where} has colour {colour}, but colours={colours} allows 0-{colours - 1}"
        )
    if not 0 <= value <= MAX_VALUE:
        raise InvalidQuestionError(
            f"card {card!r} {where} has value {value}, outside the deck's 0-{MAX_VALUE}"
        )
    return colour, value


def _check_wildcard(wildcard: Wildcard, whose: str) -> None:
    values = wildcard.values
    if not isinstance(values, frozenset | set) or not values:
        raise InvalidQuestionError(
            f"wildcard {wildcard.name!r} of the {whose} has no value it may take"
        )
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_VALUE:
            raise InvalidQuestionError(
                f"wildcard {wildcard.name!r} of the {whose} may take {value!r}, outside the "
                f"deck's 0-{MAX_VALUE}"
            )


def _valued(
    cards: list[tuple[int, int]], wildcards: list[Wildcard], rule: FormationRule, colours: int
) -> Completion:
    """A complete side's strength, its wildcards at their best."""
    if not wildcards:
        return Completion((), (), rule.classify(cards))
    best = _exact_best(cards, wildcards, _EMPTY_POOL, rule, colours)
    assert best is not None
    return best


def _split(side: Sequence[Piece]) -> tuple[list[tuple[int, int]], list[Wildcard]]:
    cards: list[tuple[int, int]] = []
    wildcards: list[Wildcard] = []
    for piece in side:
        if isinstance(piece, Wildcard):
            wildcards.append(piece)
        else:
            cards.append((piece[0], piece[1]))
    return cards, wildcards
