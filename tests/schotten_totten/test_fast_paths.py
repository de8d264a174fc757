"""The hot paths of Schotten Totten agree with the general code they shortcut."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.prover import best_reachable
from referee.schotten_totten import CLAN_CARDS, FORMATION, Rules, new_game
from referee.schotten_totten import state as state_module
from referee.schotten_totten.state import _BIT, _PAIRS, _best_plain, _mask_of

CARDS = CLAN_CARDS.cards


@st.composite
def sides_and_tables(draw: st.DrawFn) -> tuple[tuple, frozenset]:
    """An incomplete side of clan cards and the visible cards (the side's among them)."""
    side = tuple(draw(st.lists(st.sampled_from(CARDS), max_size=2, unique=True)))
    others = draw(st.lists(st.sampled_from(CARDS), max_size=len(CARDS), unique=True))
    return side, frozenset((*side, *others))


class TestBestPlain:
    @settings(max_examples=400, deadline=None)
    @given(sides_and_tables())
    def test_agrees_with_the_prover(self, case: tuple[tuple, frozenset]) -> None:
        side, seen = case
        rank, mask = _best_plain(side, _mask_of(seen))
        pool = [pair for card, pair in _PAIRS.items() if card not in seen]
        best = best_reachable([_PAIRS[c] for c in side], pool, FORMATION, colours=6)
        if best is None:
            assert rank is None and mask == 0
            return
        assert rank == FORMATION.key(best.strength)
        # the cards found are unseen and give that strength
        added = [card for card in CARDS if _BIT[card] & mask]
        assert len(added) == 3 - len(side) and not seen.intersection(added)
        formed = FORMATION.classify([_PAIRS[c] for c in (*side, *added)])
        assert FORMATION.key(formed) == rank

    def test_a_tactic_card_is_left_to_the_prover(self) -> None:
        from referee.schotten_totten.tactics import Tactic

        assert _best_plain((Tactic("joker"),), 0) is None


class TestKeptFromPlyToPly:
    @pytest.mark.parametrize(
        "rules", [Rules(), Rules("1999"), Rules(tactics=True), Rules(early_bird=True)]
    )
    def test_kept_answers_equal_fresh_ones(self, rules: Rules) -> None:
        kept = 0
        for seed in range(15):
            state = new_game(seed=seed, rules=rules)
            choose = random.Random(seed).choice
            while state.outcome is None:
                kept += state_module._LAST_SEEN[0] is state.stones
                assert state._seen_mask() == _mask_of(state.visible_cards())
                kept += state_module._LAST_CLAIMS[0] is state
                assert state._provable_claims() == state._prove_claims()
                state = state.play(choose(state.legal_moves()))
        assert kept > 100  # the answers kept are used

    def test_a_claim_is_checked_again_on_another_state(self) -> None:
        # an equal state built apart from the one whose claims are kept
        game = new_game(seed=4)
        choose = random.Random(4).choice
        while not game._provable_claims():
            game = game.play(choose(game.legal_moves()))
        twin = dataclasses.replace(game)
        claim = game._provable_claims()[0]
        assert twin.play(claim) == game.play(claim)


class TestClaimsAreTheProversVerdicts:
    @pytest.mark.parametrize("rules", [Rules(), Rules(tactics=True)])
    def test_provable_claims_are_the_provers_verdicts(self, rules: Rules) -> None:
        for seed in range(8):
            state = new_game(seed=seed, rules=rules)
            choose = random.Random(seed).choice
            while state.outcome is None:
                player = state.to_move
                complete = [
                    n
                    for n, s in enumerate(state.stones, start=1)
                    if s.owner is None and s.complete(player)
                ]
                proved = [c.stone for c in state._prove_claims()]
                assert proved == [n for n in complete if state.claim_verdict(n).holds]
                state = state.play(choose(state.legal_moves()))
