"""The CP-SAT engine: the best formation a side can still reach, as one model.

The same question as :mod:`referee.prover._exact`, asked of OR-Tools CP-SAT.
The instance (the side, the pool, the rule) is read into an :class:`_Instance`;
the model is built by small ``_add_...`` functions, one per formation pattern,
over the variables held in :class:`_Vars`; the solver's answer is read back and
checked with plain code (:meth:`FormationRule.classify`) before it is returned.

Variables (all booleans):

* ``take``: one per pool card, the card is added to the side;
* ``wild_value`` and ``wild_colour``: one-hot choices of each wildcard's value
  (among its allowed values) and, when a colour kind counts, of its colour;
* ``kind``: one per counting kind, exactly one true, the kind the side forms;
* patterns, one per way to form a kind: the shared colour of a colour, the
  shared value of a three-of-a-kind, the lowest value of a run, the colour and
  lowest value of a colour run. A pattern that the pool plainly cannot fill
  (too few cards of a colour, a missing value) gets no variable.

A run is modelled by coverage: every value of the window that the side's
concrete cards lack is covered by an added card or a wildcard. There are as
many added cards and wildcards as uncovered values, so coverage forces one of
each value and nothing outside the window.

The objective is ``rank(kind) * big + total`` (``- total`` when the lower sum
wins), so the optimum is the strongest completion under :meth:`FormationRule.key`.
Only an OPTIMAL status is an answer; anything else raises
:class:`~referee.prover.UndecidedError`: a FEASIBLE solution is not known to be
the best, and UNKNOWN (the time limit) is never a proof.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from referee.formations import FormationRule, Kind, Strength
from referee.prover._types import Completion, Pool, Wildcard

__all__ = ["best_completion"]

_Pair = tuple[int, int]
_Sum = cp_model.LinearExpr.sum


def best_completion(
    cards: Sequence[_Pair],
    wildcards: Sequence[Wildcard],
    pool: Pool,
    rule: FormationRule,
    colours: int,
    time_limit: float = 10.0,
) -> Completion | None:
    """The strongest completion of a side, or ``None`` if it cannot be completed.

    Same contract as :func:`referee.prover._exact.best_completion`; raises
    :class:`~referee.prover.UndecidedError` when CP-SAT proves no optimum within
    ``time_limit`` seconds.
    """
    need = rule.size - len(cards) - len(wildcards)
    if need < 0:
        raise ValueError(f"a side holds {rule.size} cards at most")
    if need > pool.size:
        return None
    if need == 0 and not wildcards:
        # Nothing is left to choose: the side is what it is.
        return Completion((), (), rule.classify(list(cards)))
    instance = _read_instance(cards, wildcards, pool, rule, colours, need)
    model = cp_model.CpModel()
    x = _Vars(model, instance)
    _add_counts(model, x, instance)
    _add_colour(model, x, instance)
    _add_three_of_a_kind(model, x, instance)
    _add_run(model, x, instance)
    _add_colour_run(model, x, instance)
    _add_objective(model, x, instance)
    solver = cp_model.CpSolver()
    _set_parameters(solver.parameters, time_limit)
    status = solver.solve(model)
    if status != cp_model.OPTIMAL:
        _undecided(
            f"CP-SAT stopped with status {solver.status_name(status)} after "
            f"{solver.wall_time:.3f}s (time limit {time_limit}s)"
        )
    return _read_solution(solver, x, instance)


# ---------------------------------------------------------------------------
# The instance


@dataclass(frozen=True)
class _Instance:
    """One question's data, with the patterns the pool could still fill."""

    cards: tuple[_Pair, ...]
    wildcards: tuple[Wildcard, ...]
    pool: tuple[_Pair, ...]
    rule: FormationRule
    need: int
    #: colours a wildcard may take (none when no colour kind counts)
    wildcard_colours: tuple[int, ...]
    #: colours a colour formation could share
    colours: tuple[int, ...]
    #: values a three-of-a-kind could share
    values: tuple[int, ...]
    #: lowest value of a window around the concrete cards -> the values to cover
    windows: dict[int, tuple[int, ...]]
    #: lowest values of the runs the side could form
    runs: tuple[int, ...]
    #: (colour, lowest value) of the colour runs the side could form
    colour_runs: tuple[_Pair, ...]


def _read_instance(
    cards: Sequence[_Pair],
    wildcards: Sequence[Wildcard],
    pool: Pool,
    rule: FormationRule,
    colours: int,
    need: int,
) -> _Instance:
    kinds = rule.kinds
    real_colours = {c for c, _ in cards}
    real_values = [v for _, v in cards]
    distinct_real = set(real_values)
    wild_values: set[int] = set().union(*(w.values for w in wildcards))

    def wild_can(value: int) -> bool:
        return value in wild_values

    one_colour: Sequence[int] = ()
    if len(real_colours) <= 1:
        one_colour = tuple(real_colours) or range(colours)
    # Colour: enough pool cards of the colour.
    colour_candidates: tuple[int, ...] = ()
    if Kind.COLOR in kinds:
        colour_candidates = tuple(c for c in one_colour if len(pool.by_colour.get(c, ())) >= need)
    # Three of a kind: every wildcard may take the value, enough pool cards hold it.
    value_candidates: tuple[int, ...] = ()
    if Kind.THREE_OF_A_KIND in kinds and len(distinct_real) <= 1:
        options = distinct_real or (wild_values | set(pool.by_value))
        value_candidates = tuple(
            v
            for v in sorted(options)
            if all(v in w.values for w in wildcards) and len(pool.by_value.get(v, ())) >= need
        )
    # Runs: a window around the concrete cards whose missing values can be found.
    windows: dict[int, tuple[int, ...]] = {}
    runs: list[int] = []
    colour_runs: list[_Pair] = []
    if kinds & {Kind.RUN, Kind.COLOR_RUN} and len(distinct_real) == len(real_values):
        size = rule.size
        known = distinct_real | wild_values | set(pool.by_value)
        for start in range(min(known), max(known) - size + 2):
            window = range(start, start + size)
            if any(v not in window for v in real_values):
                continue
            missing = tuple(v for v in window if v not in distinct_real)
            if any(not w.values & set(window) for w in wildcards):
                continue  # a wildcard cannot join this run
            windows[start] = missing
            if Kind.RUN in kinds and all(wild_can(v) or v in pool.by_value for v in missing):
                runs.append(start)
            if Kind.COLOR_RUN in kinds:
                colour_runs.extend(
                    (c, start)
                    for c in one_colour
                    if all(wild_can(v) or (c, v) in pool.cards for v in missing)
                )
    has_colour_kind = bool(colour_candidates or colour_runs)
    return _Instance(
        cards=tuple(cards),
        wildcards=tuple(wildcards),
        pool=tuple(sorted(pool.cards)),
        rule=rule,
        need=need,
        wildcard_colours=tuple(range(colours)) if has_colour_kind else (),
        colours=colour_candidates,
        values=value_candidates,
        windows=windows,
        runs=tuple(runs),
        colour_runs=tuple(colour_runs),
    )


# ---------------------------------------------------------------------------
# The model


class _Vars:
    """The model's variables."""

    def __init__(self, model: cp_model.CpModel, instance: _Instance) -> None:
        new = model.new_bool_var
        #: pool card -> added to the side
        self.take: dict[_Pair, Any] = {card: new(f"take{card}") for card in instance.pool}
        #: per wildcard: value -> the wildcard takes this value
        self.wild_value: list[dict[int, Any]] = [
            {v: new(f"w{i}_value{v}") for v in sorted(w.values)}
            for i, w in enumerate(instance.wildcards)
        ]
        #: per wildcard: colour -> the wildcard takes this colour (empty if colour is moot)
        self.wild_colour: list[dict[int, Any]] = [
            {c: new(f"w{i}_colour{c}") for c in instance.wildcard_colours}
            for i in range(len(instance.wildcards))
        ]
        #: colour -> a colour formation of this colour
        self.colour: dict[int, Any] = {c: new(f"colour{c}") for c in instance.colours}
        #: value -> a three-of-a-kind of this value
        self.value: dict[int, Any] = {v: new(f"same{v}") for v in instance.values}
        #: lowest value -> a run from this value
        self.run: dict[int, Any] = {s: new(f"run{s}") for s in instance.runs}
        #: (colour, lowest value) -> a colour run
        self.colour_run: dict[_Pair, Any] = {
            cs: new(f"colour_run{cs}") for cs in instance.colour_runs
        }
        patterns: dict[Kind, dict[Any, Any]] = {
            Kind.COLOR: self.colour,
            Kind.THREE_OF_A_KIND: self.value,
            Kind.RUN: self.run,
            Kind.COLOR_RUN: self.colour_run,
        }
        #: counting kind -> the side forms this kind (only kinds with a pattern)
        self.kind: dict[Kind, Any] = {
            kind: new(f"kind_{kind.label}")
            for kind in sorted(instance.rule.kinds, reverse=True)
            if kind is Kind.SUM or patterns[kind]
        }

    def covering(self, value: int) -> list[Any]:
        """The wildcard choices that give ``value``."""
        return [values[value] for values in self.wild_value if value in values]


def _add_counts(model: cp_model.CpModel, x: _Vars, instance: _Instance) -> None:
    """``need`` pool cards, one value (and colour) per wildcard, one kind."""
    model.add(_Sum(list(x.take.values())) == instance.need)
    for values in x.wild_value:
        model.add_exactly_one(values.values())
    for colours in x.wild_colour:
        if colours:
            model.add_exactly_one(colours.values())
    model.add_exactly_one(x.kind.values())


def _add_colour(model: cp_model.CpModel, x: _Vars, instance: _Instance) -> None:
    """A colour: every added card and every wildcard has the chosen colour."""
    if not x.colour:
        return
    model.add(_Sum(list(x.colour.values())) == x.kind[Kind.COLOR])
    same: dict[int, list[Any]] = {}
    for (colour, _), take in x.take.items():
        same.setdefault(colour, []).append(take)
    for colour, chosen in x.colour.items():
        if instance.need:
            # ``need`` cards of the colour among exactly ``need`` added cards.
            model.add(_Sum(same[colour]) >= instance.need * chosen)
        for colours in x.wild_colour:
            model.add_implication(chosen, colours[colour])


def _add_three_of_a_kind(model: cp_model.CpModel, x: _Vars, instance: _Instance) -> None:
    """A three-of-a-kind: every added card and every wildcard has the chosen value."""
    if not x.value:
        return
    model.add(_Sum(list(x.value.values())) == x.kind[Kind.THREE_OF_A_KIND])
    same: dict[int, list[Any]] = {}
    for (_, value), take in x.take.items():
        same.setdefault(value, []).append(take)
    for value, chosen in x.value.items():
        if instance.need:
            model.add(_Sum(same[value]) >= instance.need * chosen)
        for values in x.wild_value:
            model.add_implication(chosen, values[value])


def _add_run(model: cp_model.CpModel, x: _Vars, instance: _Instance) -> None:
    """A run: every missing value of the window is covered by a card or wildcard."""
    if not x.run:
        return
    model.add(_Sum(list(x.run.values())) == x.kind[Kind.RUN])
    same: dict[int, list[Any]] = {}
    for (_, value), take in x.take.items():
        same.setdefault(value, []).append(take)
    for start, chosen in x.run.items():
        for value in instance.windows[start]:
            model.add_bool_or([*same.get(value, ()), *x.covering(value), ~chosen])
        _add_wildcards_within(model, x, instance, start, chosen)


def _add_colour_run(model: cp_model.CpModel, x: _Vars, instance: _Instance) -> None:
    """A colour run: a run covered by cards of one colour and wildcards of that colour."""
    if not x.colour_run:
        return
    model.add(_Sum(list(x.colour_run.values())) == x.kind[Kind.COLOR_RUN])
    for (colour, start), chosen in x.colour_run.items():
        for value in instance.windows[start]:
            card = x.take.get((colour, value))
            cover = [*x.covering(value), ~chosen]
            model.add_bool_or([card, *cover] if card is not None else cover)
        _add_wildcards_within(model, x, instance, start, chosen)
        for colours in x.wild_colour:
            model.add_implication(chosen, colours[colour])


def _add_wildcards_within(
    model: cp_model.CpModel, x: _Vars, instance: _Instance, start: int, chosen: Any
) -> None:
    """Every wildcard of a run takes a value of its window (implied, but it prunes)."""
    window = range(start, start + instance.rule.size)
    for values in x.wild_value:
        model.add_bool_or([*(values[v] for v in window if v in values), ~chosen])


def _add_objective(model: cp_model.CpModel, x: _Vars, instance: _Instance) -> None:
    """Strongest kind first, then the best total."""
    rule = instance.rule
    terms: list[Any] = [take for take in x.take.values()]
    weights: list[int] = [value for _, value in x.take]
    for values in x.wild_value:
        terms.extend(values.values())
        weights.extend(values)
    largest = max([abs(w) for w in weights] + [abs(v) for _, v in instance.cards])
    big = 2 * rule.size * largest + 1
    sign = -1 if rule.lower_sum_wins else 1
    weights = [sign * w for w in weights]
    for kind, chosen in x.kind.items():
        terms.append(chosen)
        weights.append(int(kind) * big)
    model.maximize(cp_model.LinearExpr.weighted_sum(terms, weights))


def _set_parameters(parameters: Any, time_limit: float) -> None:
    """One deterministic worker; the models are tiny, so skip the presolve.

    Measured on the benchmark suite: presolve, probing and symmetry detection
    cost more than they save on models of about a hundred booleans, and the
    default linear relaxation (level 1) beats level 2, whose cuts are slow here.
    """
    parameters.num_workers = 1
    parameters.max_time_in_seconds = time_limit
    parameters.cp_model_presolve = False
    parameters.symmetry_level = 0
    parameters.cp_model_probing_level = 0
    parameters.linearization_level = 1


# ---------------------------------------------------------------------------
# The solution


def _read_solution(solver: cp_model.CpSolver, x: _Vars, instance: _Instance) -> Completion:
    """The solver's completion, checked with plain code."""
    chosen = solver.boolean_value
    added = tuple(card for card, take in x.take.items() if chosen(take))
    wild: list[_Pair] = []
    for values, colours in zip(x.wild_value, x.wild_colour, strict=True):
        value = next(v for v, b in values.items() if chosen(b))
        colour = next((c for c, b in colours.items() if chosen(b)), 0)
        wild.append((colour, value))
    kind = next(k for k, b in x.kind.items() if chosen(b))
    side = [*instance.cards, *added, *wild]
    strength = Strength(kind, sum(v for _, v in side))
    checked = instance.rule.classify(side)
    if checked != strength or len(added) != instance.need:
        _undecided(f"the CP-SAT answer {strength} failed the plain check (it is {checked})")
    return Completion(added, tuple(wild), strength)


def _undecided(detail: str) -> None:
    from referee.prover import UndecidedError

    raise UndecidedError(detail)
