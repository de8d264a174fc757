"""Solving a problem: pile by pile, case by case, and the answer.

>>> from referee.deals import DealProblem, Draw, Spend
>>> solve(DealProblem({"deck": ("A", "B")}, (Draw(0, 0, "deck"), Spend(1, 0, "B")))).deal
{'deck': ('B', 'A')}
"""

from __future__ import annotations

from dataclasses import replace

from referee.deals._check import _checked
from referee.deals._match import _Matcher
from referee.deals._place import _Fit
from referee.deals._problem import (
    MAX_CASES,
    DealAnswer,
    DealProblem,
    Draw,
    Event,
    Insert,
    Lacks,
    PutBack,
)
from referee.deals._sim import _cases, _Failure, _Lacking, _too_many

__all__ = ["_by_pile", "solve"]


def _answer(problem: DealProblem, pile: str, fit: _Fit) -> DealAnswer:
    """The deal, the hidden cards and the insert places of a fitting case."""
    sim, labels = fit.sim, fit.labels
    kinds = sim.types
    undrawn = {seg: list(found) for seg, found in fit.undrawn.items()}
    # everything that ever lay in the pile, in the order it leaves it (undrawn last):
    # (card, made: the event that put it there; -1 for the deal)
    things: list[tuple[int, str, int, bool]] = []  # (left at, card, made, is a unit)
    for index in sorted(sim.taken):
        item = sim.taken[index]
        if item[0] == "P":
            t = labels[int(item[1])]
            things.append((index, kinds[t][0], kinds[t][2], True))
        elif item[0] == "K":
            things.append((index, str(item[1]), int(item[2]), False))
        else:
            t = labels[int(item[1])]
            things.append((index, kinds[t][0], int(item[2]), False))
    end = len(problem.events)
    for item in sim.queue:
        if item[0] == "P":
            t = undrawn[int(item[1])].pop(0)
            things.append((end, kinds[t][0], kinds[t][2], True))
        elif item[0] == "K":
            things.append((end, str(item[1]), int(item[2]), False))
        else:
            t = labels[int(item[1])]
            things.append((end, kinds[t][0], int(item[2]), False))

    def present(at: int) -> list[tuple[str, int, bool]]:
        """The pile right after event ``at``, top first: (card, made, is a unit)."""
        return [(card, made, unit) for left, card, made, unit in things if left > at and made <= at]

    deal = tuple(card for card, made, unit in present(-1))
    assert len(deal) == len(problem.piles[pile])
    hidden: dict[int, str] = {}
    positions: dict[int, tuple[int, ...]] = {}
    for index, choice in sim.picks.items():
        event = problem.events[index]
        if isinstance(event, PutBack):
            if choice[0] == "c":
                hidden[index] = str(choice[1])
            else:
                hidden[index] = kinds[labels[int(choice[1])]][0]
        else:
            assert isinstance(event, Insert)
            free: dict[str, list[int]] = {}
            for rank, (card, made, unit) in enumerate(present(index), start=1):
                if unit and made == index:
                    free.setdefault(card, []).append(rank)
            positions[index] = tuple(free[card].pop(0) for card in event.cards)
    return DealAnswer(True, deal={pile: deal}, hidden=hidden, positions=positions)


# --- the answer --------------------------------------------------------------------------


def solve(problem: DealProblem) -> DealAnswer:
    """Decide whether some deal fits every event of ``problem`` (exactly).

    When none does, the answer names the first ply no deal fits; otherwise it
    gives one deal that does. Raises :class:`DealProblemError` for a malformed
    problem and :class:`DealSearchLimitError` for one with more than
    :data:`MAX_CASES` combinations of hidden choices in a pile.
    """
    problem = _checked(problem)
    # Cards never change pile, so each pile is a question of its own: the
    # record fits if every pile fits, and fails where the first pile fails.
    answers = [(_solve_pile(part), indices) for part, indices in _by_pile(problem)]
    failed = [a for a, _ in answers if not a.fits and a.ply is not None]
    if failed:
        return min(failed, key=lambda a: a.ply or 0)
    deal: dict[str, tuple[str, ...]] = {}
    hidden: dict[int, str] = {}
    positions: dict[int, tuple[int, ...]] = {}
    for answer, indices in answers:
        deal.update(answer.deal or {})
        hidden.update((indices[i], card) for i, card in answer.hidden.items())
        positions.update((indices[i], places) for i, places in answer.positions.items())
    return DealAnswer(True, deal=deal, hidden=hidden, positions=positions)


def _by_pile(problem: DealProblem) -> list[tuple[DealProblem, list[int]]]:
    """One problem per pile, each with the original index of its events."""
    home = {card: name for name, cards in problem.piles.items() for card in cards}
    first = next(iter(problem.piles), "")
    parts: dict[str, list[tuple[int, Event]]] = {name: [] for name in problem.piles}
    for index, event in enumerate(problem.events):
        if isinstance(event, Lacks):
            for name in problem.piles:
                cards = frozenset(c for c in event.cards if home.get(c) == name)
                if cards:
                    parts[name].append((index, replace(event, cards=cards)))
            continue
        if isinstance(event, Draw | PutBack | Insert):
            pile = event.pile
        else:
            pile = home.get(event.card, first)  # an unknown card fails in any pile
        parts.setdefault(pile, []).append((index, event))
    return [
        (
            DealProblem(
                {name: problem.piles.get(name, ())},
                tuple(event for _, event in found),
                problem.players,
            ),
            [index for index, _ in found],
        )
        for name, found in parts.items()
    ]


def _solve_pile(problem: DealProblem) -> DealAnswer:
    answer = _solve(problem)
    if answer.fits or not any(
        isinstance(e, Lacks)
        or (isinstance(e, PutBack) and e.card is None)
        or (isinstance(e, Insert) and e.positions is None)
        for e in problem.events
    ):
        return answer
    # A hidden choice is made for the whole record, and a lack constrains what
    # is held later, so a failing case can point too early: find the first ply
    # no deal fits by prefixes.
    plies = sorted({e.ply for e in problem.events})
    low, high = 0, len(plies) - 1
    while low < high:
        middle = (low + high) // 2
        prefix = replace(problem, events=tuple(e for e in problem.events if e.ply <= plies[middle]))
        if _solve(prefix).fits:
            low = middle + 1
        else:
            high = middle
    ply = plies[high]
    if ply == answer.ply:
        return answer
    prefix = replace(problem, events=tuple(e for e in problem.events if e.ply <= ply))
    found = _solve(prefix)
    if found.ply == ply:
        return found
    return DealAnswer(
        False,
        ply,
        "no_consistent_deal",
        "no deal fits: no hand can hold the cards this ply needs along with the earlier ones",
    )


def _solve(problem: DealProblem) -> DealAnswer:
    """One pile: the first ply no case fits past, or a fitting deal."""
    (pile,) = problem.piles
    size = len(problem.piles[pile])
    for index, event in enumerate(problem.events):
        if isinstance(event, Draw):
            if size == 0:
                # Whatever the choices, the pile is empty here: unless an earlier
                # ply fails, this one does.
                before = _solve(replace(problem, events=problem.events[:index]))
                if not before.fits and before.ply is not None and before.ply < event.ply:
                    return before
                return DealAnswer(
                    False,
                    event.ply,
                    "no_consistent_deal",
                    f"no deal fits: the {pile} pile is empty",
                )
            size -= 1
        elif isinstance(event, PutBack):
            size += 1
        elif isinstance(event, Insert):
            size += len(event.cards)
    lacks = _Lacking(problem.events, problem.players)
    cases = []
    for sim in _cases(problem, pile, lacks):
        matcher = _Matcher(problem, pile, sim, lacks)
        cases += [(matcher, types) for types in matcher.assignments()]
        if len(cases) > MAX_CASES:
            _too_many(problem, pile)
    best: _Failure | None = None
    for matcher, types in cases:
        found = matcher.match(types)
        if isinstance(found, _Fit):
            return _answer(problem, pile, found)
        if best is None or found.ply > best.ply:
            best = found
    assert best is not None
    return DealAnswer(False, best.ply, best.reason, best.message)
