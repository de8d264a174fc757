"""The hot paths of Schotten Totten 2 make the states the general code makes."""

from __future__ import annotations

import dataclasses
import random

import pytest

from referee import schotten_totten_2 as st2
from referee.game import NO_HISTORY
from referee.schotten_totten_2 import claims, rules
from referee.schotten_totten_2.fast_paths import fast_card as _fast_card
from referee.schotten_totten_2.fast_paths import fast_draw as _fast_draw
from referee.schotten_totten_2.moves import Draw, PlayCard
from referee.schotten_totten_2.state import SIEGE_CARDS, TACTIC_CARDS, State
from referee.schotten_totten_2.wall import INDEX, Card


def _general(state: State, move: PlayCard | Draw) -> State:
    """``move`` played through the checked path (``_play_card`` or ``_draw``)."""
    if state.late_control:
        state = dataclasses.replace(state, late_control=False)
    return rules.play_card(state, move) if isinstance(move, PlayCard) else rules.draw(state, move)


class TestFastPlies:
    @pytest.mark.parametrize("tactics", [False, True])
    def test_fast_plies_equal_the_checked_ones(self, tactics: bool) -> None:
        taken = tactic_draws = 0
        for seed in range(12):
            state = st2.new_game(seed=seed, rules=st2.Rules(tactics=tactics))
            choose = random.Random(seed).choice
            while state.outcome is None:
                move = choose(state.legal_moves())
                after = state.play(move)
                fast = None
                if type(move) is PlayCard:
                    fast = _fast_card(state, move)
                elif type(move) is Draw:
                    fast = _fast_draw(state, move)
                if fast is not None:
                    taken += 1
                    tactic_draws += type(move) is Draw and move.pile == "tactic"
                    assert fast == after == _general(state, move), (seed, str(move))
                    assert fast.seen == after.seen == _general(state, move).seen
                state = after
        assert taken > 500  # the fast paths are the common case
        assert (tactic_draws > 20) == tactics  # the tactic pile's draws too

    def test_a_chicken_meeting_its_cook_takes_the_checked_path(self) -> None:
        game = st2.new_game(deck=SIEGE_CARDS.cards)  # player 1 holds R0-R5, player 2 R6-R11
        chicken, cook = Card("R", 0), Card("R", 11)
        # No cook opposite: the chicken is placed like any card, on the fast path.
        alone = _fast_card(game, PlayCard(chicken, 1))
        assert alone is not None and alone == rules.play_card(game, PlayCard(chicken, 1))
        assert alone.tiles[0].sides[0] == (chicken,)
        # The cook opposite: both are discarded, on the checked path.
        met = game.play("R1@1").play("draw").play("R11@1").play("draw")
        assert _fast_card(met, PlayCard(chicken, 1)) is None
        assert _fast_card(met, PlayCard(chicken, 2)) is not None
        after = met.play(PlayCard(chicken, 1))
        assert after.tiles[0].sides == ((Card("R", 1),), ()) and after.discards == (chicken, cook)
        # And the cook meeting its chicken, the other way round.
        cooked = game.play("R0@2").play("draw")
        assert _fast_card(cooked, PlayCard(cook, 2)) is None
        assert _fast_card(cooked, PlayCard(cook, 3)) is not None


class TestTrustedDeal:
    @pytest.mark.parametrize("attacker", [0, 1])
    @pytest.mark.parametrize("tactics", [False, True])
    def test_the_deal_is_the_checked_deal(self, attacker: int, tactics: bool) -> None:
        rules = st2.Rules(tactics=tactics)
        for seed in range(20):
            game = st2.new_game(seed=seed, rules=rules, attacker=attacker)
            size = rules.hand_size
            order = [*game.hands[0], *game.hands[1], *game.deck]
            checked = State._dealt(
                rules,
                order,
                list(game.tactic_deck),
                attacker=attacker,
                to_move=attacker,
                chance_seed=game.chance_seed,
            )
            assert game == checked and len(game.hands[0]) == size
            assert game.past.start == checked.past.start
            assert game.history == () and game.past.start.past == NO_HISTORY
        piles = {"tactic_deck": TACTIC_CARDS} if tactics else {}
        given = st2.new_game(deck=SIEGE_CARDS.cards, rules=rules, attacker=attacker, **piles)
        assert given.hands[0] == tuple(SIEGE_CARDS.cards[:size])
        assert given.deck == tuple(SIEGE_CARDS.cards[2 * size :])
        assert given.tactic_deck == (tuple(TACTIC_CARDS) if tactics else ())


def _siege_seen(state: State) -> int:
    """The visible siege cards' mask, from scratch: on the tiles and discarded."""
    cards = [c for c in state.discards if type(c) is Card]
    cards += [c for t in state.tiles for side in t.sides for c in side if type(c) is Card]
    return INDEX.mask(cards)


class TestControlsKeptFromPlyToPly:
    @pytest.mark.parametrize("tactics", [False, True])
    def test_controls_are_the_provers_verdicts(self, tactics: bool) -> None:
        kept = 0
        for seed in range(10):
            state = st2.new_game(seed=seed, rules=st2.Rules(tactics=tactics))
            choose = random.Random(seed).choice
            while state.outcome is None:
                assert state.seen == _siege_seen(state)
                complete = [t for t in state.tiles if t.complete(state.attacker)]
                kept += sum(t.kept.verdicts[state.attacker] is not None for t in complete)
                proved = [c.tile for c in claims.provable(state)]
                assert proved == [
                    t.number for t in complete if claims.verdict(state, t, "exact").holds
                ]
                state = state.play(choose(state.legal_moves()))
        assert kept > 100  # the verdicts kept on the tiles are used


class TestGivenPiles:
    """Piles given to ``new_game`` are accepted exactly when they hold every
    card once (the two jokers twice), whatever path the check takes."""

    def test_every_order_of_the_cards_is_accepted(self) -> None:
        rng = random.Random(4)
        for _ in range(5):
            deck, pile = list(SIEGE_CARDS.cards), list(TACTIC_CARDS)
            rng.shuffle(deck)
            rng.shuffle(pile)
            game = st2.new_game(deck=deck, tactic_deck=pile, rules=st2.Rules(tactics=True))
            assert [*game.hands[0], *game.hands[1], *game.deck] == deck
            assert list(game.tactic_deck) == pile and game.chance_seed == 0

    @pytest.mark.parametrize(
        ("deck", "words"),
        [
            (SIEGE_CARDS.cards[:-1], "missing P11"),
            ((*SIEGE_CARDS.cards[:-1], SIEGE_CARDS.cards[0]), "missing P11; repeated R0"),
            ((*SIEGE_CARDS.cards, SIEGE_CARDS.cards[0]), "repeated R0"),
            ((*SIEGE_CARDS.cards[:-1], ("P", 11)), "does not belong there"),
            ((*SIEGE_CARDS.cards[:-1], TACTIC_CARDS[0]), "does not belong there"),
        ],
    )
    def test_a_siege_deck_without_every_card_once_is_refused(
        self, deck: tuple[object, ...], words: str
    ) -> None:
        with pytest.raises(ValueError, match=words):
            st2.new_game(deck=deck)  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        ("pile", "words"),
        [
            (TACTIC_CARDS[1:], "missing joker"),  # one joker only: ten kinds, ten cards
            ((*TACTIC_CARDS[1:], TACTIC_CARDS[2]), "missing joker; repeated spy"),
            ((*TACTIC_CARDS, TACTIC_CARDS[0]), "repeated joker"),
        ],
    )
    def test_a_tactic_pile_without_every_card_is_refused(
        self, pile: tuple[object, ...], words: str
    ) -> None:
        rules = st2.Rules(tactics=True)
        with pytest.raises(ValueError, match=words):
            st2.new_game(deck=SIEGE_CARDS.cards, tactic_deck=pile, rules=rules)  # type: ignore[arg-type]
