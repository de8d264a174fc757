"""``legal_moves`` against its plain definition, at every ply of random games.

``legal_moves`` remembers what the prover found from ply to ply (bounds on each
side's best reachable formation) and lists the common moves on a fast path.
Here its answer is compared with the definition, computed from scratch: a claim
is listed exactly when the prover, asked afresh (``claim_verdict``), says it
holds; the other moves are exactly the candidates that ``play`` accepts, in the
same order. Many games run in one process, so what one game remembered is
tried on the next.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card
from referee.schotten_totten import (
    Claim,
    Draw,
    EndTurn,
    Move,
    Pass,
    Phase,
    PlayCard,
    Rules,
    State,
    new_game,
)
from referee.schotten_totten.moves import Banshee, PutBack, Recruit, Strategist, Traitor
from referee.schotten_totten.tactics import Tactic
from tests.schotten_totten.helpers import position

VARIANTS = [
    Rules(),
    Rules(edition="1999"),
    Rules(early_bird=True),
    Rules(tactics=True),
    Rules(tactics=True, early_bird=True),
]
RUSES = (Strategist, Banshee, Traitor, Recruit, PutBack)


def reference_claims(state: State) -> list[Claim]:
    """The claims the player to move may make, each proved from scratch."""
    if state.outcome is not None or not state.claims_now():
        return []
    player = state.to_move
    return [
        Claim(n)
        for n in range(1, 10)
        if state.stone(n).owner is None
        and state.stone(n).complete(player)
        and state.claim_verdict(n).holds
    ]


def candidates(state: State) -> list[Move]:
    """Every move other than claims and ruses that might be legal, in listing order:
    clan cards, then tactic cards, in hand order, each at stones 1-9; then the rest."""
    hand = state.hands[state.to_move] or ()
    held = list(dict.fromkeys(hand))
    clans = [c for c in held if type(c) is Card]
    troops = [c for c in held if type(c) is Tactic and c.kind != "ruse"]
    plays: list[Move] = [PlayCard(c, n) for c in [*clans, *troops] for n in range(1, 10)]
    return [*plays, Pass(), Draw(), Draw("clan"), Draw("tactic"), EndTurn()]


def check_against_definition(state: State) -> list[Move]:
    legal = state.legal_moves()
    if state.outcome is not None:
        assert legal == []
        return legal
    claims = reference_claims(state)
    assert legal[: len(claims)] == claims
    rest = legal[len(claims) :]
    assert not any(isinstance(m, Claim) for m in rest)
    # the moves play() accepts, in the same order (ruses are listed among the
    # tactic cards, in hand order: each must be legal)
    assert [m for m in rest if not isinstance(m, RUSES)] == [
        m for m in candidates(state) if state.is_legal(m)
    ]
    assert all(state.is_legal(m) for m in rest if isinstance(m, RUSES))
    # play() decides each claim as the prover does
    player = state.to_move
    for n in range(1, 10):
        stone = state.stone(n)
        if state.claims_now() and stone.owner is None and stone.complete(player):
            assert state.is_legal(Claim(n)) == state.claim_verdict(n).holds
    # a view lists the same claims (the table, hence the pool, is the same)
    view = state.view(1 - player)
    assert [m for m in view.legal_moves() if isinstance(m, Claim)] == claims
    return legal


def play_out(seed: int, rules: Rules) -> int:
    rng = random.Random(seed)
    state = new_game(seed=seed, first=seed % 2, rules=rules)
    plies = 0
    while state.outcome is None:
        legal = check_against_definition(state)
        claims = [m for m in legal if isinstance(m, Claim)]
        # claim sometimes at once, sometimes later: both orders reach new tables
        move = claims[0] if claims and rng.random() < 0.5 else rng.choice(legal)
        state = state.play(move)
        plies += 1
    check_against_definition(state)
    return plies


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_legal_moves_match_the_definition_at_every_ply(seed: int, rules: Rules) -> None:
    assert play_out(seed, rules) > 0


@pytest.mark.parametrize("rules", VARIANTS[:4], ids=str)
def test_legal_moves_match_with_nothing_kept(rules: Rules) -> None:
    # A copy's stones keep no verdict (referee.line.claims.Kept starts afresh):
    # every ply asks its copy from scratch, and gets the same moves.
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(seed=seed, first=seed % 2, rules=rules)
        while state.outcome is None:
            fresh = copy.deepcopy(state)
            assert all(not any(s.kept.verdicts) for s in fresh.stones)
            legal = check_against_definition(fresh)
            assert legal == state.legal_moves()
            state = state.play(rng.choice(legal))


def test_a_bound_found_on_one_table_is_not_used_where_more_cards_are_unseen() -> None:
    # R6 R7 R8 (a colour run of 21) against an empty side: where every 8 is
    # visible, no colour run 7-8-9 can be reached and the claim holds; where
    # they are not, O7 O8 O9 beats it.
    blocked = position(
        {1: ("R6 R7 R8", ""), 2: ("O8 Y8", "G8 B8"), 3: ("P8", "")}, phase=Phase.AFTER_PLAY
    )
    open_table = position({1: ("R6 R7 R8", "")}, phase=Phase.AFTER_PLAY)
    for state, holds in [(blocked, True), (open_table, False), (blocked, True)]:
        assert state.claim_verdict(1).holds is holds
        assert (Claim(1) in state.legal_moves()) is holds
        assert state.is_legal(Claim(1)) is holds
