"""The odds: exact counts of beating completions, checked against brute force.

``count_completions`` and ``ClaimVerdict.odds()`` must give the same numbers as
listing every completion (``tests/prover/brute_odds.py``), on every rule shape
of the games and on any rule, with wildcards on either side; and the counts
must agree with the exact engine's verdict and its witness.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule, Kind
from referee.prover import (
    MAX_COLOURS,
    MAX_VALUE,
    InvalidQuestionError,
    Odds,
    Piece,
    Pool,
    Verdict,
    Wildcard,
    count_completions,
    decide_claim,
)
from tests.prover.brute import split
from tests.prover.brute_odds import brute_beating, walk_beating
from tests.prover.test_properties import SHAPES, Position, any_rule, full_table, positions

ROOT = Path(__file__).resolve().parents[2]
ST_DECK = [(c, v) for c in range(6) for v in range(1, 10)]


def st_pool(*visible: tuple[int, int]) -> Pool:
    """Every Schotten Totten clan card that is not in ``visible``."""
    return Pool(card for card in ST_DECK if card not in visible)


def _compare(position: Position) -> None:
    rule, colours, pool = position.rule, position.colours, position.pool
    claimant, opponent = position.claimant, position.opponent
    first = position.claimant_completed_first
    beating, total = brute_beating(claimant, opponent, pool, rule, colours, first)
    odds = count_completions(
        claimant, opponent, pool, rule, colours=colours, claimant_completed_first=first
    )
    assert odds == Odds(len(beating), total), (odds, len(beating), total)
    verdict = decide_claim(
        claimant, opponent, pool, rule, colours=colours, claimant_completed_first=first
    )
    assert verdict.odds() == odds
    # The counts agree with the verdict, and a refusal's witness is a beating completion.
    assert verdict.holds == (odds.beating == 0), (verdict.explain(), odds)
    witness = verdict.witness
    if witness is not None:
        assert tuple(sorted(witness.cards)) in beating, (witness, sorted(beating)[:5])


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_counts_agree_with_brute_force(shape: str, data: st.DataObject) -> None:
    _compare(data.draw(positions(SHAPES[shape])))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_counts_agree_with_brute_force_on_any_rule(data: st.DataObject) -> None:
    """Beyond the printed shapes: any kinds, any size 2-4, either sum order."""
    _compare(data.draw(positions(data.draw(any_rule()))))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=full_table())
def test_counts_agree_with_the_engine_on_full_pools(position: Position) -> None:
    """Too big to list: the total is a binomial, and beating is zero exactly when it holds."""
    rule, colours, pool = position.rule, position.colours, position.pool
    verdict = decide_claim(position.claimant, position.opponent, pool, rule, colours=colours)
    odds = verdict.odds()
    assert odds is not None
    assert odds.total == comb(len(pool), rule.size - len(position.opponent))
    assert 0 <= odds.beating <= odds.total
    assert verdict.holds == (odds.beating == 0), (verdict.explain(), odds)
    assert odds == count_completions(
        position.claimant, position.opponent, pool, rule, colours=colours
    )


def test_a_claim_that_holds_has_no_beating_completion() -> None:
    # Red 7-8-9 against an orange 9, the orange 8 elsewhere: nothing beats a 24 colour run
    # that the claimant completed first, out of C(49, 2) completions.
    claimant = [(0, 7), (0, 8), (0, 9)]
    pool = st_pool(*claimant, (1, 9), (1, 8))
    verdict = decide_claim(claimant, [(1, 9)], pool, FormationRule(), colours=6)
    assert verdict.holds
    assert verdict.odds() == Odds(0, comb(49, 2)) == Odds(0, 1176)


def test_a_refused_claim_counts_its_witness() -> None:
    # Three fives against a blue 6, every other blue card and every other 6 in the pool:
    # the blue runs 4-5-6, 5-6-7 and 6-7-8 beat it, and so does any pair of the five other
    # sixes (three sixes beat three fives): 3 + C(5, 2) = 13 of C(50, 2) completions.
    claimant = [(1, 5), (2, 5), (3, 5)]
    pool = st_pool(*claimant, (4, 6))
    rule = FormationRule()
    verdict = decide_claim(claimant, [(4, 6)], pool, rule, colours=6)
    odds = verdict.odds()
    assert not verdict.holds and odds == Odds(13, comb(50, 2)) == Odds(13, 1225)
    assert odds.probability == Fraction(13, 1225)
    beating, total = brute_beating(claimant, [(4, 6)], pool.cards, rule, 6)
    runs = {((4, 4), (4, 5)), ((4, 5), (4, 7)), ((4, 7), (4, 8))}
    sixes = {((a, 6), (b, 6)) for a in (0, 1, 2, 3, 5) for b in (0, 1, 2, 3, 5) if a < b}
    assert beating == runs | sixes and total == 1225
    assert verdict.witness is not None and tuple(sorted(verdict.witness.cards)) in beating


def test_wildcards_take_their_owners_best_values() -> None:
    # The opponent's joker makes a colour run with the purple 5 and 6 (it becomes a 4 or
    # a 7): one completion of three, counted once whatever the joker's value.
    joker = Wildcard.any_of(range(1, 10), "joker")
    pool = [(5, 5), (5, 6), (4, 9)]
    twos = [(0, 2), (1, 2), (2, 2)]
    assert count_completions(twos, [joker], pool, FormationRule(), colours=6) == Odds(1, 3)
    # A claimant's joker is valued at its best too: red 8, 9 and a joker are a 7-8-9 run,
    # which the opponent's best (purple 5-6-7) does not beat.
    claimant: list[Piece] = [(0, 8), (0, 9), joker]
    assert count_completions(claimant, [joker], pool, FormationRule(), colours=6) == Odds(0, 3)


def test_ties_go_by_who_completed_first() -> None:
    rule = FormationRule(3, SUM_ONLY)
    mine: list[Piece] = [(0, 1), (1, 5), (2, 9)]
    theirs: list[Piece] = [(3, 2), (4, 5), (5, 8)]
    assert count_completions(mine, theirs, [], rule, colours=6) == Odds(0, 1)
    later = count_completions(mine, theirs, [], rule, colours=6, claimant_completed_first=False)
    assert later == Odds(1, 1)
    verdict = decide_claim(mine, theirs, [], rule, colours=6, claimant_completed_first=False)
    assert not verdict.holds and verdict.odds() == later


def test_lower_sum_wins_counts_low_completions() -> None:
    gate = FormationRule(4, SUM_ONLY, lower_sum_wins=True)
    low = [(0, 0), (1, 0), (2, 1), (3, 1)]  # a sum of 2
    pool = [(2, 0), (4, 1), (0, 5), (1, 9)]
    # The opponent's 0 needs three more cards totalling less than 2: none of C(4, 3).
    assert count_completions(low, [(4, 0)], pool, gate, colours=5) == Odds(0, 4)
    high = [(0, 9), (2, 9), (2, 8), (3, 8)]
    # Against 34 every completion is lower (the highest is 0 + 1 + 5 + 9 = 15).
    assert count_completions(high, [(4, 0)], pool, gate, colours=5) == Odds(4, 4)


def test_no_completion_at_all() -> None:
    odds = count_completions([(0, 1), (1, 1), (2, 1)], [], [(3, 3)], FormationRule(), colours=6)
    assert odds == Odds(0, 0) and odds.probability == 0
    assert str(odds) == "0 of 0 completions beat it (0)"


def test_bad_sides_are_refused() -> None:
    rule = FormationRule()
    with pytest.raises(ValueError, match=r"must be complete \(3 cards\), not 2"):
        count_completions([(0, 1), (0, 2)], [], [], rule, colours=6)
    with pytest.raises(ValueError, match="a side holds 3 cards at most, not 4"):
        count_completions([(0, 1), (0, 2), (0, 3)], [(1, 1)] * 4, [], rule, colours=6)
    with pytest.raises(ValueError, match=r"card \(1, 1\) is on the table and in the pool at once"):
        count_completions([(0, 1), (0, 2), (0, 3)], [(1, 1)], [(1, 1), (2, 2)], rule, colours=6)


def test_a_verdict_without_its_question_has_no_odds() -> None:
    verdict = decide_claim([(0, 1), (0, 2), (0, 3)], [], [(1, 1)], FormationRule(), colours=6)
    assert verdict.odds() == Odds(0, 0)
    bare = type(verdict)(
        verdict.verdict,
        verdict.rule,
        verdict.claimant,
        verdict.opponent_best,
        verdict.opponent_complete,
        verdict.claimant_completed_first,
        verdict.engine,
    )
    assert bare == verdict and bare.odds() is None


def _claimable_json(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    assert main(["claimable", "--json", str(path)]) == 0
    answers = json.loads(capsys.readouterr().out)["answers"]
    found = next(a for a in answers if a["place"] == 2 and a["player"] == 0)
    assert isinstance(found, dict)
    return found


def test_claimable_json_gives_the_odds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # R6 O6 Y6 against B8 B9 with B7 elsewhere: none of the 48 hidden cards beats it.
    position = ROOT / "examples" / "positions" / "blue-seven.json"
    stone2 = _claimable_json(capsys, position)
    assert stone2["claimable"] is True
    assert stone2["evidence"]["odds"] == {"beating": 0, "total": 48, "probability": 0.0}
    # Without the B7 on the table, the B7 is the one beating card of 49.
    data = json.loads(position.read_text())
    data["stones"][4]["sides"][1] = []
    data["to_move"] = 1  # player 2 has laid one card fewer: its turn
    moved = tmp_path / "no-blue-seven.json"
    moved.write_text(json.dumps(data))
    stone2 = _claimable_json(capsys, moved)
    assert stone2["claimable"] is False
    assert stone2["evidence"]["odds"] == {
        "beating": 1,
        "total": 49,
        "probability": 1 / 49,
    }


def test_an_undecided_verdict_still_has_its_odds() -> None:
    # The count needs no engine: CP-SAT stopped at once, the odds are still exact.
    claimant = [(1, 5), (2, 5), (3, 5)]
    pool = st_pool(*claimant, (4, 6))
    verdict = decide_claim(
        claimant, [(4, 6)], pool, FormationRule(), colours=6, engine="cpsat", time_limit=0.0
    )
    assert verdict.verdict is Verdict.UNDECIDED
    assert verdict.odds() == Odds(13, 1225)


# --- any deck within the documented limits ------------------------------------------------


@st.composite
def wide_positions(draw: st.DrawFn) -> Position:
    """Small questions over any deck the prover accepts: a few colours of up to
    64, a few values anywhere in 0-99 (far apart or adjacent), any rule of size
    1-5, wildcards of any values on either side; pools small enough to list."""
    colours = draw(st.integers(1, 6))
    spread = draw(st.booleans())
    if spread:
        values = sorted(draw(st.sets(st.integers(0, MAX_VALUE), min_size=3, max_size=9)))
    else:
        low = draw(st.integers(0, MAX_VALUE - 7))
        values = list(range(low, low + 8))
    size = draw(st.integers(1, 5))
    kinds = draw(st.sets(st.sampled_from(sorted(ALL_KINDS)), min_size=1))
    rule = FormationRule(size, frozenset(kinds), lower_sum_wins=draw(st.booleans()))
    deck = draw(st.permutations([(c, v) for c in range(colours) for v in values]))
    assume(len(deck) >= size)

    def wild() -> Wildcard:
        return Wildcard.any_of(draw(st.sets(st.sampled_from(values), min_size=1, max_size=3)))

    mine_wild = draw(st.integers(0, min(2, size)))
    claimant: list[Piece] = [*deck[: size - mine_wild], *(wild() for _ in range(mine_wild))]
    rest = deck[size - mine_wild :]
    pieces = draw(st.integers(0, size))
    their_wild = draw(st.integers(0, min(2, pieces)))
    opponent: list[Piece] = [*rest[: pieces - their_wild], *(wild() for _ in range(their_wild))]
    rest = rest[pieces - their_wild :]
    pool = rest[: draw(st.integers(0, 11))]
    first = draw(st.booleans())
    return Position(rule, colours, tuple(claimant), tuple(opponent), tuple(pool), first)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=wide_positions())
def test_counts_agree_with_brute_force_on_any_deck(position: Position) -> None:
    _compare(position)
    walked = walk_beating(
        position.claimant,
        position.opponent,
        position.pool,
        position.rule,
        position.colours,
        position.claimant_completed_first,
    )
    odds = count_completions(
        position.claimant,
        position.opponent,
        position.pool,
        position.rule,
        colours=position.colours,
        claimant_completed_first=position.claimant_completed_first,
    )
    assert odds.beating == walked


def _grid(colours: int, values: range, *taken: tuple[int, int]) -> Pool:
    return Pool((c, v) for c in range(colours) for v in values if (c, v) not in taken)


def _sum_dp(pool: Pool, need: int, beats: Any) -> int:
    """Sets of ``need`` pool cards whose value sum ``beats`` says beats: a plain
    dynamic programme over the cards (the reference for sum-only rules)."""
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for _, value in sorted(pool.cards):
        for (taken, total), n in sorted(ways.items(), reverse=True):
            if taken < need:
                key = (taken + 1, total + value)
                ways[key] = ways.get(key, 0) + n
    return sum(n for (taken, total), n in ways.items() if taken == need and beats(total))


@pytest.mark.parametrize("need", [1, 2, 3, 4])
@pytest.mark.parametrize("lower", [False, True])
def test_sum_counts_at_the_documented_limits(need: int, lower: bool) -> None:
    # 64 colours of values 0-99: over 6 * 10**13 completions of 4 cards; the
    # counter's work grows with values and colours, so this stays in the suite.
    rule = FormationRule(need + 1, SUM_ONLY, lower_sum_wins=lower)
    claimant = [(c, 40 + c) for c in range(need + 1)]
    opponent = [(63, 7)]
    pool = Pool((c, v) for c in range(48) for v in range(0, MAX_VALUE + 1, 7)
                if (c, v) not in claimant and (c, v) != (63, 7))  # fmt: skip
    mine = sum(v for _, v in claimant)
    expected = _sum_dp(pool, need, lambda s: 7 + s < mine if lower else 7 + s > mine)
    odds = count_completions(claimant, opponent, pool, rule, colours=MAX_COLOURS)
    assert odds == Odds(expected, comb(pool.size, need))
    big = _grid(MAX_COLOURS, range(MAX_VALUE + 1), *claimant, *opponent)
    odds = count_completions(claimant, opponent, big, rule, colours=MAX_COLOURS)
    assert odds.total == comb(big.size, need)
    verdict = decide_claim(claimant, opponent, big, rule, colours=MAX_COLOURS)
    assert verdict.holds == (odds.beating == 0)


@pytest.mark.parametrize("need", [2, 3, 4])
@pytest.mark.parametrize("kinds", [ALL_KINDS, frozenset({Kind.COLOR}), frozenset({Kind.RUN})])
def test_counts_over_64_colours_agree_with_the_value_walk(need: int, kinds: Any) -> None:
    # Every colour the prover accepts, a stretch of values: the walk over value
    # multisets (the counter this library had before) is the reference.
    rule = FormationRule(need, kinds)
    claimant = [(0, 50), (1, 50), (2, 51), (3, 52)][:need]
    joker = Wildcard.any_of(range(46, 52), "joker")
    for opponent in ([], [(5, 47)], [joker]):
        if len(opponent) >= need or (opponent == [joker] and need == 4):
            continue  # (the walk tries every colour of a joker: slow for 4 cards)
        pool = _grid(MAX_COLOURS, range(44, 56), *claimant, *split(opponent)[0])
        expected = walk_beating(claimant, opponent, pool, rule, MAX_COLOURS)
        assert count_completions(claimant, opponent, pool, rule, colours=MAX_COLOURS).beating == (
            expected
        )


@pytest.mark.parametrize("need", [3, 4])
def test_every_kind_at_the_documented_limits(need: int) -> None:
    # The worst the limits allow: 64 colours, values 0-99, every kind counting,
    # wildcards on the opposing side. The counts agree with the verdict, and the
    # count for 2 cards agrees with the walk over value multisets.
    rule = FormationRule(need + 1, ALL_KINDS)
    claimant = [(c, 60) for c in range(need + 1)]
    joker = Wildcard.any_of(range(MAX_VALUE + 1), "joker")
    for opponent in ([joker], [(MAX_COLOURS - 1, 99)]):
        pool = _grid(MAX_COLOURS, range(MAX_VALUE + 1), *claimant, *split(opponent)[0])
        odds = count_completions(claimant, opponent, pool, rule, colours=MAX_COLOURS)
        assert odds.total == comb(pool.size, need)
        verdict = decide_claim(claimant, opponent, pool, rule, colours=MAX_COLOURS)
        assert verdict.holds == (odds.beating == 0) and 0 < odds.beating < odds.total
    two = FormationRule(2, ALL_KINDS)
    mine = [(0, 60), (1, 60)]
    pool = _grid(MAX_COLOURS, range(MAX_VALUE + 1), *mine)
    assert count_completions(mine, [], pool, two, colours=MAX_COLOURS).beating == walk_beating(
        mine, [], pool, two, MAX_COLOURS
    )


def test_nine_wildcards_are_valued_without_trying_every_order() -> None:
    # A side of nine jokers (the largest formation) makes a nine-card colour run:
    # matching values to wildcards, not 9! orders per run start.
    rule = FormationRule(9, ALL_KINDS)
    jokers = [Wildcard.any_of(range(MAX_VALUE + 1), "joker")] * 9
    assert count_completions(jokers, jokers, [], rule, colours=MAX_COLOURS) == Odds(0, 1)
    later = count_completions(
        jokers, jokers, [], rule, colours=MAX_COLOURS, claimant_completed_first=False
    )
    assert later == Odds(1, 1)


@pytest.mark.parametrize(
    ("colours", "pool", "message"),
    [
        (0, [], "colours must be a whole number from 1 to 64, not 0"),
        (MAX_COLOURS + 1, [], "colours must be a whole number from 1 to 64, not 65"),
        (6, [(1, MAX_VALUE + 1)], r"card \(1, 100\) .* outside the deck's 0-99"),
        (6, [(6, 1)], r"card \(6, 1\) .* has colour 6, but colours=6 allows 0-5"),
    ],
)
def test_count_completions_checks_the_question_like_the_engines(
    colours: int, pool: list[tuple[int, int]], message: str
) -> None:
    with pytest.raises(InvalidQuestionError, match=message):
        count_completions([(0, 1), (0, 2), (0, 3)], [], pool, FormationRule(), colours=colours)
