"""The kernel's claim plumbing (referee.line.claims), checked against the prover itself."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import schotten_totten as st1
from referee.cards import Card
from referee.formations import FormationRule
from referee.line.claims import NO_POOL, Sight, describe_refusal, verdict_at
from referee.prover import Pool, decide_claim
from referee.schotten_totten.state import CLAN_CARDS, Stone

_PAIRS = {card: CLAN_CARDS.as_pair(card) for card in CLAN_CARDS.cards}


def _pieces(side: object) -> list[tuple[int, int]]:
    return [_PAIRS[c] for c in side]  # type: ignore[attr-defined]


def _refuse_pool() -> Pool:
    raise AssertionError("the pool is not needed against a complete side")


def test_against_a_complete_side_no_pool_is_asked_and_the_first_to_complete_wins_ties() -> None:
    r = [Card("R", v) for v in (1, 2, 3)]
    b = [Card("B", v) for v in (1, 2, 3)]  # the same strength
    stone = Stone(sides=(tuple(r), tuple(b)), completed=(4, 7))
    rule = FormationRule(size=3)
    first = verdict_at(stone, 0, pieces=_pieces, pool=_refuse_pool, colours=6)
    second = verdict_at(stone, 1, pieces=_pieces, pool=_refuse_pool, colours=6)
    assert first.holds and not second.holds
    assert first == decide_claim(
        _pieces(r), _pieces(b), NO_POOL, rule, colours=6, claimant_completed_first=True
    )
    with pytest.raises(ValueError, match="the claimant's formation is not complete"):
        verdict_at(Stone(sides=((r[0],), ())), 0, pieces=_pieces, pool=NO_POOL, colours=6)
    with pytest.raises(ValueError, match="the attacker's formation"):
        verdict_at(Stone(), 0, pieces=_pieces, pool=NO_POOL, colours=6, who="attacker")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_verdicts_match_the_prover_asked_directly(seed: int) -> None:
    # Random positions of real games: every complete side's verdict through the
    # kernel equals decide_claim asked by hand with the unseen cards as pool.
    rng = random.Random(seed)
    state = st1.new_game(seed=seed)
    for _ in range(rng.randrange(10, 80)):
        if state.is_game_over():
            break
        state = state.play(rng.choice(state.legal_moves()))
    unseen = Pool([_PAIRS[c] for c in state.unseen_cards()])
    for number, stone in enumerate(state.stones, start=1):
        for player in (0, 1):
            if len(stone.sides[player]) < 3:
                continue
            theirs = stone.sides[1 - player]
            done = stone.completed
            first = len(theirs) < 3 or (
                done[player] is not None
                and done[1 - player] is not None
                and done[player] < done[1 - player]  # type: ignore[operator]
            )
            expected = decide_claim(
                _pieces(stone.sides[player]),
                _pieces(theirs),
                NO_POOL if len(theirs) == 3 else unseen,
                FormationRule(size=3),
                colours=6,
                claimant_completed_first=first,
            )
            got = state.claim_verdict(number, player=player)
            assert got == expected


def test_a_refusal_names_the_beating_cards_in_the_games_words() -> None:
    mine = [Card("R", 1), Card("O", 2), Card("Y", 4)]  # a low sum
    theirs = [Card("B", 8), Card("B", 9)]
    stone = Stone(sides=(tuple(mine), tuple(theirs)), completed=(3, None))
    pool = Pool([_PAIRS[Card("B", 7)]])
    verdict = verdict_at(stone, 0, pieces=_pieces, pool=pool, colours=6)
    assert not verdict.holds
    words = describe_refusal(verdict, CLAN_CARDS.from_pair)
    assert words.startswith("the opponent can still beat your ") and "adding B7 makes" in words
    wall = describe_refusal(verdict, CLAN_CARDS.from_pair, opponent="defender")
    assert wall.startswith("the defender can still beat your ")


def test_a_sight_computes_its_cards_once() -> None:
    asked: list[int] = []

    def see() -> set[Card]:
        asked.append(1)
        return {Card("R", 1), Card("R", 2)}

    sight = Sight(see, _PAIRS)
    assert len(sight.pool) == len(CLAN_CARDS.cards) - 2
    assert Card("R", 1) in sight.seen and asked == [1]
