"""The prover's values: wildcards, pools, completions and verdicts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, NamedTuple

from referee.cards import CardSet
from referee.formations import FormationRule, Strength

if TYPE_CHECKING:
    from referee.prover._odds import Odds

__all__ = [
    "ClaimQuestion",
    "ClaimVerdict",
    "Completion",
    "InvalidQuestionError",
    "Piece",
    "Pool",
    "Verdict",
    "Wildcard",
]


class InvalidQuestionError(ValueError):
    """A malformed question: a card outside the deck, a card twice, no colours,
    a wildcard with no value; the message quotes the offending input.

    >>> from referee.prover import decide_claim
    >>> rule = FormationRule(size=3)
    >>> decide_claim([(0, 7), (0, 8), (9, 9)], [], [], rule, colours=6)
    Traceback (most recent call last):
    ...
    referee.prover.InvalidQuestionError: card (9, 9) of the claimant has colour 9, but colours=6 allows 0-5
    """


# Raised and documented as part of referee.prover.
InvalidQuestionError.__module__ = "referee.prover"


class Wildcard(NamedTuple):
    """A card of any colour whose value its owner picks from ``values``.

    >>> Wildcard.any_of(range(1, 10)).values == frozenset(range(1, 10))
    True
    >>> Wildcard.exactly(7)
    Wildcard(values=frozenset({7}), name='wildcard')
    """

    values: frozenset[int]
    name: str = "wildcard"

    @classmethod
    def any_of(cls, values: Iterable[int], name: str = "wildcard") -> Wildcard:
        """A wildcard that may take any of ``values`` (and any colour)."""
        allowed = frozenset(values)
        if not allowed:
            raise ValueError("a wildcard needs at least one allowed value")
        return cls(allowed, name)

    @classmethod
    def exactly(cls, value: int, name: str = "wildcard") -> Wildcard:
        """A wildcard with one fixed value and a free colour (like a spy)."""
        return cls(frozenset({value}), name)


#: A card on a side: a concrete ``(colour, value)`` pair or a wildcard.
Piece = tuple[int, int] | Wildcard


class Pool:
    """The cards an opponent may still receive, indexed for the exact engine.

    Build it once and pass it to several :func:`~referee.prover.decide_claim`
    calls when many stones are checked against the same visible table.
    """

    __slots__ = ("by_colour", "by_value", "cards", "checked_colours", "size", "values_sorted")

    def __init__(self, cards: Iterable[tuple[int, int]]) -> None:
        #: the ``colours`` the cards were last checked against (by the prover)
        self.checked_colours: int | None = None
        items = list(cards)
        for card in items:
            if (
                not isinstance(card, tuple)
                or len(card) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in card)
            ):
                raise InvalidQuestionError(
                    f"expected pool cards as (colour, value) pairs of whole numbers, got {card!r}"
                )
        self.cards: frozenset[tuple[int, int]] = frozenset(items)
        self.size = len(self.cards)
        by_colour: dict[int, list[int]] = {}
        by_value: dict[int, list[int]] = {}
        for colour, value in self.cards:
            by_colour.setdefault(colour, []).append(value)
            by_value.setdefault(value, []).append(colour)
        for values in by_colour.values():
            values.sort()
        for colours in by_value.values():
            colours.sort()
        #: colour -> its values in the pool, ascending
        self.by_colour = by_colour
        #: value -> the colours holding it in the pool, ascending
        self.by_value = by_value
        #: every pool card as ``(value, colour)``, ascending
        self.values_sorted = sorted((v, c) for c, v in self.cards)

    def __len__(self) -> int:
        return self.size

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __repr__(self) -> str:
        return f"Pool({sorted(self.cards)!r})"


class Verdict(Enum):
    """The answer to "can the opponent still beat this formation?"."""

    CLAIMABLE = "claimable"
    NOT_CLAIMABLE = "not_claimable"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class Completion:
    """One way a side's formation ends up: the cards added and wildcard values.

    ``cards`` are the pool cards added to the side; ``wildcards`` the
    ``(colour, value)`` each of the side's wildcards takes, in the side's order.
    """

    cards: tuple[tuple[int, int], ...]
    wildcards: tuple[tuple[int, int], ...]
    strength: Strength


class ClaimQuestion(NamedTuple):
    """What a verdict was asked about, kept so its odds can be counted on request."""

    opponent: tuple[Piece, ...]
    pool: Pool
    colours: int


@dataclass(frozen=True)
class ClaimVerdict:
    """The prover's answer, with its evidence.

    ``claimant`` is the claimant's formation (its wildcards valued at their
    best). ``opponent_best`` is the opponent's best reachable completion: when
    the claim fails it is the witness that beats the claim; when the claim holds
    it is the best the opponent can still do (``None`` if the opponent can never
    complete the formation). ``question`` keeps the opposing side and the pool
    for :meth:`odds`.
    """

    verdict: Verdict
    rule: FormationRule
    claimant: Completion
    opponent_best: Completion | None
    opponent_complete: bool
    claimant_completed_first: bool
    engine: str
    detail: str = field(default="", compare=False)
    question: ClaimQuestion | None = field(default=None, compare=False, repr=False)

    @property
    def holds(self) -> bool:
        """True only when the claim is proven."""
        return self.verdict is Verdict.CLAIMABLE

    @property
    def witness(self) -> Completion | None:
        """The opponent's beating completion when the claim fails, else ``None``."""
        return self.opponent_best if self.verdict is Verdict.NOT_CLAIMABLE else None

    def odds(self) -> Odds | None:
        """How many of the opponent's completions beat the claim, counted on request.

        ``None`` for a verdict built without its question. The count does not
        depend on the engine, so an undecided verdict has odds too.

        >>> from referee.formations import FormationRule
        >>> from referee.prover import decide_claim
        >>> ones = [(0, 1), (1, 1), (2, 1)]
        >>> verdict = decide_claim(ones, [(3, 2)], [(4, 2), (5, 2), (0, 9)], FormationRule(),
        ...                        colours=6)
        >>> verdict.holds, verdict.odds()
        (False, Odds(beating=1, total=3))

        Only the two 2s from the pool beat three 1s; the 9 with either 2 is a mere sum.
        """
        if self.question is None:
            return None
        from referee.prover._odds import count_beating

        opponent, pool, _ = self.question
        cards = [p for p in opponent if not isinstance(p, Wildcard)]
        wildcards = [p for p in opponent if isinstance(p, Wildcard)]
        return count_beating(
            cards,
            wildcards,
            pool,
            self.rule,
            self.claimant.strength,
            ties_beat=not self.claimant_completed_first,
        )

    def explain(self) -> str:
        """A one-line human explanation of the verdict."""
        mine = self.claimant.strength
        if self.verdict is Verdict.UNDECIDED:
            return f"undecided: the {self.engine} engine gave no answer ({self.detail})"
        best = self.opponent_best
        if self.verdict is Verdict.CLAIMABLE:
            if best is None:
                return f"claimable: {mine} stands; the opponent can no longer complete a formation"
            if self.opponent_complete:
                how = "ties and completed later" if self._tie() else "is weaker"
                return f"claimable: {mine} beats the opponent's {best.strength}, which {how}"
            if self._tie():
                return (
                    f"claimable: {mine} stands; the opponent's best is {best.strength}, "
                    "a tie, and the claimant completed first"
                )
            return f"claimable: {mine} stands; the opponent's best is {best.strength}"
        assert best is not None
        if self.opponent_complete:
            how = "ties and was completed first" if self._tie() else "is stronger"
            return f"not claimable: the opponent's {best.strength} {how}"
        return f"not claimable: the opponent can still reach {best.strength}"

    def to_json(self, cards: CardSet) -> dict[str, Any]:
        """The verdict and its evidence as JSON, cards written as ``cards`` names them.

        >>> from referee.cards import CardSet
        >>> from referee.formations import FormationRule, Strength, Kind
        >>> done = Completion(((0, 7),), (), Strength(Kind.COLOR_RUN, 24))
        >>> verdict = ClaimVerdict(Verdict.NOT_CLAIMABLE, FormationRule(), done, done, False,
        ...                        True, "exact")
        >>> verdict.to_json(CardSet("RB", ("red", "blue"), range(1, 10)))["opponent_best"]
        {'added': ['R7'], 'wildcards': [], 'kind': 'color_run', 'total': 24}
        """

        def completion(c: Completion | None) -> dict[str, Any] | None:
            if c is None:
                return None
            return {
                "added": [str(cards.from_pair(p)) for p in c.cards],
                "wildcards": [str(cards.from_pair(p)) for p in c.wildcards],
                "kind": c.strength.kind.label,
                "total": c.strength.total,
            }

        odds = self.odds()
        return {
            "verdict": self.verdict.value,
            "claimant": completion(self.claimant),
            "opponent_best": completion(self.opponent_best),
            "opponent_complete": self.opponent_complete,
            "odds": None
            if odds is None
            else {
                "beating": odds.beating,
                "total": odds.total,
                "probability": float(odds.probability),
            },
        }

    def _tie(self) -> bool:
        best = self.opponent_best
        return best is not None and self.rule.key(best.strength) == self.rule.key(
            self.claimant.strength
        )
