"""Exact engine == CP-SAT engine == brute force, on random positions.

Positions are dealt from a dense neighbourhood of the deck (a few colours, a
few adjacent values) so that strong formations are often in reach, plus a few
stray cards. Pools are kept small enough for brute force to stay fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, prod

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule, Kind
from referee.prover import Engine, Piece, Wildcard, best_reachable, decide_claim
from tests.prover.brute import Pair, brute_best, brute_claim_holds, split
from tests.prover.checks import check_completion, check_verdict

#: every rule shape of the games (RULINGS.md: Schotten Totten 4-6 and 10,
#: Schotten Totten 2 rules 2-3)
SHAPES = {
    "st_3_all": FormationRule(3, ALL_KINDS),
    "mud_fight_4_all": FormationRule(4, ALL_KINDS),
    "blind_mans_bluff_3_sum": FormationRule(3, SUM_ONLY),
    "st2_2_all": FormationRule(2, ALL_KINDS),
    "st2_4_all": FormationRule(4, ALL_KINDS),
    "st2_2_three_of_a_kind": FormationRule(2, frozenset({Kind.THREE_OF_A_KIND})),
    "st2_3_color": FormationRule(3, frozenset({Kind.COLOR})),
    "st2_3_run": FormationRule(3, frozenset({Kind.RUN})),
    "st2_gate_4_lower_sum": FormationRule(4, SUM_ONLY, lower_sum_wins=True),
    "st2_3_lower_sum": FormationRule(3, SUM_ONLY, lower_sum_wins=True),
    "st2_3_sum": FormationRule(3, SUM_ONLY),
}
#: (colours, values): Schotten Totten, Schotten Totten 2, and a 1-10 deck
DECKS = [(6, range(1, 10)), (5, range(0, 12)), (5, range(1, 11)), (6, range(1, 11))]
#: how much enumeration a brute-force comparison may cost
BUDGET = 4000
ENGINES: tuple[Engine, ...] = ("exact", "cpsat")
TIME_LIMIT = 8.0  # CP-SAT never needs this much here; UNKNOWN would fail the test


@dataclass(frozen=True)
class Position:
    rule: FormationRule
    colours: int
    claimant: tuple[Piece, ...]
    opponent: tuple[Piece, ...]
    pool: tuple[Pair, ...]
    claimant_completed_first: bool


def _work(side: tuple[Piece, ...], pool_size: int, rule: FormationRule, colours: int) -> int:
    _, wildcards = split(side)
    need = rule.size - len(side)
    return comb(pool_size, need) * prod(colours * len(w.values) for w in wildcards)


@st.composite
def wildcards(draw: st.DrawFn, values: range, most: int) -> list[Wildcard]:
    """Up to ``most`` wildcards: at most one joker, spies and shields."""
    joker = Wildcard.any_of(values, "joker")
    spy = Wildcard.exactly(draw(st.sampled_from(values)), "spy")
    shield = Wildcard.any_of((1, 2, 3), "shield")
    return draw(st.lists(st.sampled_from([joker, spy, shield]), max_size=most, unique=True))


@st.composite
def positions(draw: st.DrawFn, rule: FormationRule) -> Position:
    colours, values = draw(st.sampled_from(DECKS))
    if draw(st.booleans()):
        colours = 11 - colours  # 5 <-> 6 colours with either value range
    lo, hi = values[0], values[-1]
    near_colours = draw(st.lists(st.integers(0, colours - 1), min_size=1, max_size=3, unique=True))
    centre = draw(st.integers(lo, hi))
    near_values = [v for v in range(centre - 2, centre + 3) if lo <= v <= hi]
    stray = draw(st.lists(st.tuples(st.integers(0, colours - 1), st.integers(lo, hi)), max_size=4))
    deck = sorted({(c, v) for c in near_colours for v in near_values} | set(stray))
    dealt = list(draw(st.permutations(deck)))

    def take(n: int) -> list[Pair]:
        n = min(n, len(dealt))
        cards, dealt[:n] = dealt[:n], []
        return cards

    size = rule.size
    mine_wild = draw(wildcards(values, min(2, size)))
    mine_cards = take(size - len(mine_wild))
    if len(mine_cards) + len(mine_wild) < size:
        mine_wild += [Wildcard.any_of(values, "joker")] * (size - len(mine_cards) - len(mine_wild))
    mine: list[Piece] = [*mine_cards, *mine_wild]
    claimant = tuple(draw(st.permutations(mine)))
    pieces = draw(st.integers(0, size))
    their_wild = draw(wildcards(values, min(2, pieces)))
    their_cards = take(pieces - len(their_wild))
    theirs: list[Piece] = [*their_cards, *their_wild]
    opponent = tuple(draw(st.permutations(theirs)))
    # Pool: what is left, cut down to the brute-force budget.
    pool_size = draw(st.integers(0, len(dealt)))
    while pool_size and _work(opponent, pool_size, rule, colours) > BUDGET:
        pool_size -= 1
    return Position(
        rule, colours, claimant, opponent, tuple(dealt[:pool_size]), draw(st.booleans())
    )


def _compare(position: Position) -> None:
    rule, colours, pool = position.rule, position.colours, position.pool
    claimant, opponent = position.claimant, position.opponent
    # The opponent's best completion: both engines agree with brute force.
    expected = brute_best(opponent, pool, rule, colours)
    for engine in ENGINES:
        best = best_reachable(
            opponent, pool, rule, colours=colours, engine=engine, time_limit=TIME_LIMIT
        )
        if expected is None:
            assert best is None, engine
        else:
            assert best is not None, engine
            assert check_completion(opponent, pool, rule, colours, best) == expected, engine
    # The claim: both engines agree with brute force, and their evidence holds.
    holds = brute_claim_holds(
        claimant, opponent, pool, rule, colours, position.claimant_completed_first
    )
    claimant_strength = brute_best(claimant, (), rule, colours)
    for engine in ENGINES:
        verdict = decide_claim(
            claimant,
            opponent,
            pool,
            rule,
            colours=colours,
            claimant_completed_first=position.claimant_completed_first,
            engine=engine,
            time_limit=TIME_LIMIT,
        )
        assert verdict.holds == holds, (engine, verdict.explain())
        assert verdict.claimant.strength == claimant_strength, engine
        check_verdict(verdict, claimant, opponent, pool, rule, colours)


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_engines_agree_with_brute_force(shape: str, data: st.DataObject) -> None:
    _compare(data.draw(positions(SHAPES[shape])))


@st.composite
def any_rule(draw: st.DrawFn) -> FormationRule:
    kinds = draw(st.sets(st.sampled_from(list(Kind))))
    return FormationRule(draw(st.integers(2, 4)), frozenset(kinds), draw(st.booleans()))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_engines_agree_on_any_rule(data: st.DataObject) -> None:
    """Beyond the printed shapes: any kinds, any size 2-4, either sum order."""
    _compare(data.draw(positions(data.draw(any_rule()))))


@st.composite
def full_table(draw: st.DrawFn) -> Position:
    """A real-sized question: the pool is every card not dealt to the table."""
    rule = draw(st.sampled_from(sorted(SHAPES.values(), key=FormationRule.describe)))
    colours, values = draw(st.sampled_from(DECKS))
    deck = [(c, v) for c in range(colours) for v in values]
    visible = draw(st.lists(st.sampled_from(deck), unique=True, max_size=20))
    joker = Wildcard.any_of(values, "joker")
    shield = Wildcard.any_of((1, 2, 3), "shield")
    claimant: list[Piece] = [*visible[: rule.size]]
    while len(claimant) < rule.size:
        claimant.append(joker)
    pieces = draw(st.integers(0, rule.size))
    opponent: list[Piece] = [*visible[rule.size : rule.size + pieces]]
    opponent += draw(st.lists(st.sampled_from([shield, joker]), max_size=pieces - len(opponent)))
    pool = tuple(card for card in deck if card not in visible)
    return Position(rule, colours, tuple(claimant), tuple(opponent), pool, True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=full_table())
def test_engines_agree_on_full_pools(position: Position) -> None:
    """Too big for brute force: the two engines check each other, evidence checked."""
    rule, colours, pool = position.rule, position.colours, position.pool
    verdicts = [
        decide_claim(
            position.claimant,
            position.opponent,
            pool,
            rule,
            colours=colours,
            engine=engine,
            time_limit=TIME_LIMIT,
        )
        for engine in ENGINES
    ]
    for verdict in verdicts:
        check_verdict(verdict, position.claimant, position.opponent, pool, rule, colours)
    exact, cpsat = verdicts
    assert exact.verdict == cpsat.verdict
    assert exact.opponent_best is not None and cpsat.opponent_best is not None
    assert exact.opponent_best.strength == cpsat.opponent_best.strength
