"""Every game ends: a stalling player cannot keep a Schotten Totten game going.

The staller passes whenever the rules let it and never claims unless it must;
its opponent claims whatever it can prove. Every game still ends, within a bound
that follows from the rules (RULINGS 14):

* each card is played from a hand at most once (a played card never returns to
  a hand), so there are at most ``C`` card turns: 54 clan cards, 64 with tactics;
* each stone is claimed at most once, so at most 9 turns are a pass with a claim;
* a turn with a pass may not end while its player can prove a claim, and two
  blank turns in a row (a pass, no claim) end the game, so blank turns come one
  at a time between other turns, plus the final two: at most ``(C + 9) + 2``;
* every turn is two plies (a card or a pass, then a draw or ``done``) plus its claims.

So a game has at most ``2 * (2 * (C + 9) + 2) + 9 = 4 * C + 49`` plies: 265 in
the base game, 305 with tactic cards.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.schotten_totten import Claim, Pass, Rules, State, new_game, public_game
from referee.schotten_totten.moves import Move

RULES = [
    Rules(),
    Rules(tactics=True),
    Rules(early_bird=True),
    Rules(tactics=True, early_bird=True),
    Rules(edition="1999"),
]


def ply_bound(rules: Rules) -> int:
    """The most plies a game can last (see the module docstring)."""
    cards = 54 + (10 if rules.tactics else 0)
    return 4 * cards + 49


def stall(state: State, rng: random.Random) -> Move:
    legal = state.legal_moves()
    if Pass() in legal:
        return Pass()
    others = [m for m in legal if not isinstance(m, Claim)]
    return rng.choice(others or legal)  # a claim only when nothing else is allowed


def claim_first(state: State, rng: random.Random) -> Move:
    legal = state.legal_moves()
    claims = [m for m in legal if isinstance(m, Claim)]
    return claims[0] if claims else rng.choice(legal)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULES), st.sampled_from([0, 1]))
def test_a_staller_against_a_claimer_ends_within_the_bound(
    seed: int, rules: Rules, staller: int
) -> None:
    rng = random.Random(seed)
    state = new_game(seed=seed, first=seed % 2, rules=rules)
    public = public_game(first=seed % 2, rules=rules)
    plies = 0
    while state.outcome is None:
        assert plies < ply_bound(rules), "the game outlived the bound"
        # whether a player must play is public: the same for the full state,
        # each player's view and the public replay
        for p in (0, 1):
            must = state.can_play_card(p)
            assert public.can_play_card(p) == must
            assert all(state.view(v).can_play_card(p) == must for v in (0, 1))
        policy = stall if state.to_move == staller else claim_first
        move = policy(state, rng)
        state = state.play(move)
        public = public.play(_public_text(move))
        plies += 1
    assert public.outcome == state.outcome
    if state.outcome.reason == "blocked":  # nothing can change any more
        assert not any(state.can_play_card(p) for p in (0, 1))
        assert not any(
            state.claim_verdict(n, player=p).holds for p in (0, 1) for n in _open(state, p)
        )


def _open(state: State, player: int) -> list[int]:
    return [
        n for n, s in enumerate(state.stones, start=1) if s.owner is None and s.complete(player)
    ]


def _public_text(move: Move) -> str:
    """The move as a public record writes it (a recruiter's returns by pile)."""
    from referee.cards import Card
    from referee.schotten_totten.moves import Recruit

    if isinstance(move, Recruit):
        back = tuple("clan" if type(c) is Card else "tactic" for c in move.returns)
        return str(Recruit(move.draws, back))
    return str(move)
