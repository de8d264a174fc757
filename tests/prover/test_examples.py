"""Hand-written claim examples, each worked out from the rules, for both engines."""

from __future__ import annotations

import pytest

from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule, Kind, Strength
from referee.prover import (
    Engine,
    Piece,
    Pool,
    UndecidedError,
    Verdict,
    Wildcard,
    best_reachable,
    decide_claim,
)
from referee.prover._cpsat import best_completion as cpsat_best
from tests.prover.checks import check_verdict

ENGINES: list[Engine] = ["exact", "cpsat"]
ST = FormationRule(3, ALL_KINDS)
MUD = FormationRule(4, ALL_KINDS)
BLUFF = FormationRule(3, SUM_ONLY)
GATE = FormationRule(4, SUM_ONLY, lower_sum_wins=True)
SPY = Wildcard.exactly(7, "spy")
JOKER = Wildcard.any_of(range(1, 10), "joker")
SHIELD = Wildcard.any_of((1, 2, 3), "shield_bearer")


def st_pool(*visible: tuple[int, int]) -> list[tuple[int, int]]:
    """Every Schotten Totten card not in ``visible``."""
    return [(c, v) for c in range(6) for v in range(1, 10) if (c, v) not in visible]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_tie_goes_to_the_claimant_when_the_opponent_is_incomplete(engine: Engine) -> None:
    # Red 7-8-9 against orange 9: orange 7 and 8 are unseen, so the opponent can
    # still tie with its own 7-8-9, but the claimant completed first (rule 5).
    claimant, opponent = [(0, 7), (0, 8), (0, 9)], [(1, 9)]
    pool = st_pool(*claimant, *opponent)
    verdict = decide_claim(claimant, opponent, pool, ST, colours=6, engine=engine)
    assert verdict.verdict is Verdict.CLAIMABLE
    assert verdict.opponent_best is not None
    assert verdict.opponent_best.strength == Strength(Kind.COLOR_RUN, 24)
    assert verdict.witness is None
    assert verdict.explain() == (
        "claimable: color_run (24) stands; the opponent's best is color_run (24), "
        "a tie, and the claimant completed first"
    )
    check_verdict(verdict, claimant, opponent, pool, ST, 6)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_stronger_reachable_completion_beats_the_claim(engine: Engine) -> None:
    # Red 6-7-8 against orange 9: orange 7-8-9 (24) beats 21.
    claimant, opponent = [(0, 6), (0, 7), (0, 8)], [(1, 9)]
    pool = st_pool(*claimant, *opponent)
    verdict = decide_claim(claimant, opponent, pool, ST, colours=6, engine=engine)
    assert verdict.verdict is Verdict.NOT_CLAIMABLE
    assert verdict.witness is not None
    assert sorted(verdict.witness.cards) == [(1, 7), (1, 8)]
    assert verdict.explain() == "not claimable: the opponent can still reach color_run (24)"
    check_verdict(verdict, claimant, opponent, pool, ST, 6)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("first", [True, False])
def test_complete_sides_that_tie_go_to_whoever_completed_first(engine: Engine, first: bool) -> None:
    # Two colour runs 7-8-9 (rule 4): equal kind and sum.
    claimant, opponent = [(0, 7), (0, 8), (0, 9)], [(1, 7), (1, 8), (1, 9)]
    pool = st_pool(*claimant, *opponent)
    verdict = decide_claim(
        claimant, opponent, pool, ST, colours=6, claimant_completed_first=first, engine=engine
    )
    assert verdict.holds is first
    assert verdict.opponent_complete
    if first:
        assert verdict.explain() == (
            "claimable: color_run (24) beats the opponent's color_run (24), "
            "which ties and completed later"
        )
    else:
        assert verdict.witness is not None and verdict.witness.cards == ()
        assert verdict.explain() == (
            "not claimable: the opponent's color_run (24) ties and was completed first"
        )
    check_verdict(verdict, claimant, opponent, pool, ST, 6)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_complete_weaker_opponent_loses(engine: Engine) -> None:
    claimant, opponent = [(0, 5), (1, 5), (2, 5)], [(3, 1), (3, 4), (3, 9)]
    verdict = decide_claim(claimant, opponent, [], ST, colours=6, engine=engine)
    assert verdict.holds
    assert verdict.explain() == (
        "claimable: three_of_a_kind (15) beats the opponent's color (14), which is weaker"
    )
    stronger = decide_claim(opponent, claimant, [], ST, colours=6, engine=engine)
    assert stronger.explain() == "not claimable: the opponent's three_of_a_kind (15) is stronger"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_pool_too_small_to_complete_the_opponent(engine: Engine) -> None:
    # One card on the opposing side, one unseen card left: no completion exists.
    claimant, opponent, pool = [(0, 1), (1, 2), (2, 4)], [(3, 9)], [(3, 8)]
    verdict = decide_claim(claimant, opponent, pool, ST, colours=6, engine=engine)
    assert verdict.holds
    assert verdict.opponent_best is None
    assert verdict.explain() == (
        "claimable: sum (7) stands; the opponent can no longer complete a formation"
    )
    assert best_reachable(opponent, pool, ST, colours=6, engine=engine) is None


@pytest.mark.parametrize("engine", ENGINES)
def test_the_lower_sum_gate(engine: Engine) -> None:
    # Gate, damaged side: 4 cards, only the sum counts, the lower sum wins.
    claimant = [(0, 0), (1, 0), (2, 1), (3, 1)]  # 2
    opponent = [(4, 0)]
    # Unseen: the two other zeros and a one: 0 + 0 + 0 + 1 = 1 beats 2.
    pool = [(2, 0), (3, 0), (4, 1), (0, 7), (1, 11)]
    verdict = decide_claim(claimant, opponent, pool, GATE, colours=5, engine=engine)
    assert not verdict.holds
    assert verdict.witness is not None
    assert verdict.witness.strength == Strength(Kind.SUM, 1)
    assert sorted(verdict.witness.cards) == [(2, 0), (3, 0), (4, 1)]
    # Without (3, 0) the opponent's best is 0 + 0 + 1 + 7 = 8: the claim holds.
    rest = [card for card in pool if card != (3, 0)]
    verdict = decide_claim(claimant, opponent, rest, GATE, colours=5, engine=engine)
    assert verdict.holds
    assert verdict.opponent_best is not None
    assert verdict.opponent_best.strength == Strength(Kind.SUM, 8)
    check_verdict(verdict, claimant, opponent, rest, GATE, 5)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_colour_run_counts_only_its_sum_at_the_gate(engine: Engine) -> None:
    claimant = [(0, 0), (0, 1), (0, 2), (0, 3)]  # a colour run, but worth only 6 here
    opponent = [(1, 1), (2, 1), (3, 1), (4, 2)]  # 5
    verdict = decide_claim(claimant, opponent, [], GATE, colours=5, engine=engine)
    assert verdict.claimant.strength == Strength(Kind.SUM, 6)
    assert not verdict.holds


@pytest.mark.parametrize("engine", ENGINES)
def test_blind_mans_bluff_counts_only_the_sum(engine: Engine) -> None:
    # Three 9s (27) against orange 9 with orange 7 and 8 unseen.
    claimant, opponent = [(0, 9), (2, 9), (3, 9)], [(1, 9)]
    pool = st_pool(*claimant, *opponent)
    everything = decide_claim(claimant, opponent, pool, ST, colours=6, engine=engine)
    assert not everything.holds  # the colour run 7-8-9 beats three of a kind
    bluff = decide_claim(claimant, opponent, pool, BLUFF, colours=6, engine=engine)
    assert bluff.holds  # a sum of 27 is the most anyone can reach with a 9 and two 9s gone
    assert bluff.opponent_best is not None
    assert bluff.opponent_best.strength == Strength(Kind.SUM, 27)


@pytest.mark.parametrize("engine", ENGINES)
def test_mud_fight_needs_four_cards(engine: Engine) -> None:
    with pytest.raises(ValueError, match=r"must be complete \(4 cards\), not 3"):
        decide_claim([(0, 7), (0, 8), (0, 9)], [], st_pool(), MUD, colours=6, engine=engine)
    claimant, opponent = [(0, 6), (0, 7), (0, 8), (0, 9)], [(1, 1), (1, 2), (1, 3)]
    pool = st_pool(*claimant, *opponent)
    verdict = decide_claim(claimant, opponent, pool, MUD, colours=6, engine=engine)
    assert verdict.holds  # 1-2-3-4 of orange is a colour run of 10 < 30
    assert verdict.opponent_best is not None
    assert verdict.opponent_best.strength == Strength(Kind.COLOR_RUN, 10)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_wildcard_may_copy_a_visible_card(engine: Engine) -> None:
    # Rule 6: the spy can be a red 7 although the red 7 lies elsewhere on the table.
    claimant = [(1, 5), (2, 5), (3, 5)]
    opponent: list[Piece] = [SPY, (0, 8), (0, 9)]
    verdict = decide_claim(claimant, opponent, [], ST, colours=6, engine=engine)
    assert not verdict.holds
    assert verdict.witness is not None
    assert verdict.witness.wildcards == ((0, 7),)
    assert verdict.witness.strength == Strength(Kind.COLOR_RUN, 24)


@pytest.mark.parametrize("engine", ENGINES)
def test_wildcards_on_both_sides(engine: Engine) -> None:
    # The claimant's joker makes red 7-8-9; the opponent's shield bearer can be
    # at most 3, so blue 1-2-3... with blue 2 and 4 gone, three 3s is its best.
    claimant: list[Piece] = [JOKER, (0, 8), (0, 9)]
    opponent: list[Piece] = [SHIELD, (4, 3)]
    pool = [(1, 3), (2, 3), (4, 5), (5, 9), (5, 8)]
    verdict = decide_claim(claimant, opponent, pool, ST, colours=6, engine=engine)
    assert verdict.claimant.strength == Strength(Kind.COLOR_RUN, 24)
    assert verdict.claimant.wildcards == ((0, 7),)
    assert verdict.holds
    assert verdict.opponent_best is not None
    assert verdict.opponent_best.strength == Strength(Kind.THREE_OF_A_KIND, 9)
    check_verdict(verdict, claimant, opponent, pool, ST, 6)


@pytest.mark.parametrize("engine", ENGINES)
def test_bad_input_is_rejected(engine: Engine) -> None:
    claimant = [(0, 7), (0, 8), (0, 9)]
    with pytest.raises(ValueError, match="must be complete"):
        decide_claim(claimant[:2], [], st_pool(), ST, colours=6, engine=engine)
    with pytest.raises(ValueError, match=r"card \(0, 7\) is on the table and in the pool"):
        decide_claim(claimant, [], st_pool(), ST, colours=6, engine=engine)
    with pytest.raises(ValueError, match=r"card \(1, 1\) is on the table and in the pool"):
        decide_claim(claimant, [(1, 1)], st_pool(*claimant), ST, colours=6, engine=engine)
    with pytest.raises(ValueError, match="holds 3 cards at most"):
        opponent = [(1, 1), (1, 2), (1, 3), (1, 4)]
        decide_claim(
            claimant, opponent, st_pool(*claimant, *opponent), ST, colours=6, engine=engine
        )


def test_an_unknown_engine_is_rejected() -> None:
    claimant = [(0, 7), (0, 8), (0, 9)]
    with pytest.raises(ValueError, match="unknown engine 'brute'"):
        decide_claim(claimant, [], st_pool(*claimant), ST, colours=6, engine="brute")  # type: ignore[arg-type]


def test_cpsat_out_of_time_is_undecided_never_a_proof() -> None:
    claimant = [(0, 7), (0, 8), (0, 9)]
    pool = Pool(st_pool(*claimant))
    with pytest.raises(UndecidedError, match="UNKNOWN"):
        cpsat_best([], [], pool, ST, 6, time_limit=0.0)
    verdict = decide_claim(claimant, [], pool, ST, colours=6, engine="cpsat", time_limit=0.0)
    assert verdict.verdict is Verdict.UNDECIDED
    assert not verdict.holds and verdict.witness is None and verdict.opponent_best is None
    assert verdict.explain().startswith("undecided: the cpsat engine gave no answer (CP-SAT ")


def test_a_shared_pool_object_serves_several_questions() -> None:
    # The same Pool, built once, answers for several stones.
    claimant = [(0, 7), (0, 8), (0, 9)]
    pool = Pool(st_pool(*claimant, (1, 9), (2, 1)))
    a = decide_claim(claimant, [(1, 9)], pool, ST, colours=6)
    b = decide_claim(claimant, [(2, 1)], pool, ST, colours=6, engine="cpsat")
    assert a.holds and b.holds
    assert b.opponent_best is not None
    assert b.opponent_best.strength == Strength(Kind.COLOR_RUN, 6)
