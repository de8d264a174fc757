"""PlainBest, the direct best completion, agrees with the prover's search."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.formations import FormationRule
from referee.line.claims import PlainBest
from referee.prover import best_reachable
from referee.schotten_totten.state import BLIND_FORMATION, CLAN_CARDS, FORMATION, MUD_FORMATION
from referee.schotten_totten_2.wall import SIEGE_CARDS, WALL

RULES = sorted(
    {FORMATION, BLIND_FORMATION, MUD_FORMATION, *(rule for pair in WALL for rule in pair)},
    key=repr,
)
DECKS = [CLAN_CARDS, SIEGE_CARDS]


@st.composite
def questions(draw: st.DrawFn) -> tuple:
    deck = draw(st.sampled_from(DECKS))
    rule: FormationRule = draw(st.sampled_from(RULES))
    cards = deck.cards
    side = draw(st.lists(st.sampled_from(cards), max_size=rule.size - 1, unique=True))
    others = draw(st.lists(st.sampled_from(cards), max_size=len(cards), unique=True))
    return deck, rule, tuple(side), frozenset((*side, *others))


class TestPlainBest:
    @settings(max_examples=600, deadline=None)
    @given(questions())
    def test_agrees_with_best_reachable(self, question: tuple) -> None:
        deck, rule, side, seen = question
        found = PlainBest(deck.cards).best(side, seen, rule)
        pool = [deck.as_pair(c) for c in deck.cards if c not in seen]
        best = best_reachable(
            [deck.as_pair(c) for c in side], pool, rule, colours=len(deck.colours)
        )
        if best is None:
            assert found is None
            return
        assert found is not None
        rank, added = found
        assert rank == rule.key(best.strength)
        # the cards found are unseen and make a formation of that strength
        assert len(added) == rule.size - len(side) and seen.isdisjoint(added)
        assert rule.key(rule.classify([deck.as_pair(c) for c in (*side, *added)])) == rank

    def test_a_side_that_cannot_be_completed(self) -> None:
        cards = CLAN_CARDS.cards
        seen = frozenset(cards[1:])
        assert PlainBest(cards).best((cards[1],), seen, FORMATION) is None
