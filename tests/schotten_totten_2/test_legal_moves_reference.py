"""``legal_moves`` against its plain definition, at every ply of random games.

``legal_moves`` keeps what the prover found on the tile it is about (proofs
and refutations of controls: a tile carries them from ply to ply while it is
unchanged) and takes common moves from tables made once. Here its answer is
compared with the definition, computed from scratch: a control is listed
exactly when the prover, asked afresh (``claim_verdict``), says it holds; the
other moves are exactly the candidates that ``play`` accepts, in the same order.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card
from referee.schotten_totten_2 import (
    Control,
    Draw,
    EndTurn,
    Move,
    Oil,
    Pass,
    Phase,
    PlayCard,
    Retreat,
    Rules,
    State,
    TacticCard,
    new_game,
)
from referee.schotten_totten_2.moves import (
    Desertion,
    Exchange,
    ExchangeReply,
    Explosion,
    Recruitment,
    Redeploy,
    Shuffle,
    Support,
    Treason,
)
from referee.schotten_totten_2.wall import AnyCard
from tests.schotten_totten_2.helpers import play_all, position

VARIANTS = [Rules(), Rules(tactics=True)]
TILE_NUMBERS = range(1, 8)


def reference_controls(state: State) -> list[Control]:
    """The controls the player to move may declare, each proved from scratch."""
    if state.outcome is not None or state.phase in (Phase.SHUFFLE, Phase.EXCHANGE):
        return []
    if state.to_move != state.attacker:
        return []
    return [
        Control(n)
        for n in TILE_NUMBERS
        if state.tile(n).complete(state.attacker) and state.claim_verdict(n).holds
    ]


def action_candidates(state: State, card: TacticCard) -> list[Move]:
    """Every action ``card`` might make, in listing order."""
    player = state.to_move
    mine = [(c, t.number) for t in state.tiles for c in dict.fromkeys(t.sides[player])]
    theirs = [(c, t.number) for t in state.tiles for c in dict.fromkeys(t.sides[1 - player])]
    siege = [c for c in dict.fromkeys(state.discards) if type(c) is Card]
    if card is TacticCard.REDEPLOY:
        return [
            Redeploy(c, n, target)
            for c, n in mine
            for target in [*(m for m in TILE_NUMBERS if m != n), None]
        ]
    if card is TacticCard.RECRUITMENT:
        return [Recruitment(c, n) for c in siege for n in TILE_NUMBERS]
    if card is TacticCard.DESERTION:
        return [Desertion(c, n) for c, n in theirs]
    if card is TacticCard.TREASON:
        return [Treason(c, n, m) for c, n in theirs for m in TILE_NUMBERS]
    if card is TacticCard.EXPLOSION:
        return [Explosion(n) for n in TILE_NUMBERS]
    if card is TacticCard.SUPPORT:
        return [Support((a, b)) for a, b in combinations(siege, 2)]
    assert card is TacticCard.EXCHANGE
    rest = _grouped(state.hands[player] or ())
    rest.remove(card)
    return [Exchange(g) for g in dict.fromkeys(combinations(rest, 3))]


def _grouped(hand: tuple[AnyCard, ...]) -> list[AnyCard]:
    """``hand`` with equal cards (the two jokers) side by side, at the place of
    the first: each choice of three cards is then one combination, listed once."""
    return [card for first in dict.fromkeys(hand) for card in hand if card == first]


def candidates(state: State) -> list[Move]:
    """Every move other than controls that might be legal, in listing order."""
    if state.phase is Phase.SHUFFLE:
        places = range(1, state.deck_size + 3)
        # both cards at one place is not a move at all (Shuffle refuses to be built)
        return [Shuffle((a, b)) for a in places for b in places if a != b]
    hand = state.hands[state.to_move] or ()
    if state.phase is Phase.EXCHANGE:
        return [ExchangeReply(trio) for trio in dict.fromkeys(combinations(_grouped(hand), 3))]
    moves: list[Move] = [
        Retreat(tiles) for k in TILE_NUMBERS for tiles in combinations(TILE_NUMBERS, k)
    ]
    moves += [Oil(n) for n in TILE_NUMBERS]
    for card in dict.fromkeys(hand):
        if type(card) is Card or card.is_elite:
            moves += [PlayCard(card, n) for n in TILE_NUMBERS]
        else:
            moves += action_candidates(state, card)
    return [*moves, Pass(), Draw(), Draw("tactic"), EndTurn()]


def check_against_definition(state: State) -> list[Move]:
    legal = state.legal_moves()
    if state.outcome is not None:
        assert legal == []
        return legal
    controls = reference_controls(state)
    assert legal[: len(controls)] == controls
    rest = legal[len(controls) :]
    assert not any(isinstance(m, Control) for m in rest)
    if state.phase is Phase.SHUFFLE and state.deck is not None:
        # chance, not a choice: the one dealt place is listed, every place is accepted
        assert all(state.is_legal(m) for m in candidates(state))
        assert rest == [m for m, _chance in state.chance_outcomes() if m == rest[0]]
        return legal
    assert rest == [m for m in candidates(state) if state.is_legal(m)]
    # play() decides each control as the prover does (also right after the
    # attacker's draw, when a control is accepted but not listed)
    if state.phase not in (Phase.SHUFFLE, Phase.EXCHANGE) and (
        state.to_move == state.attacker or state.late_control
    ):
        for n in TILE_NUMBERS:
            if state.tile(n).complete(state.attacker):
                assert state.is_legal(Control(n)) == state.claim_verdict(n).holds
    # a view lists the same controls (the table, hence the pool, is the same)
    view = state.view(1 - state.to_move)
    assert [m for m in view.legal_moves() if isinstance(m, Control)] == controls
    return legal


def play_out(seed: int, rules: Rules) -> int:
    rng = random.Random(seed)
    state = new_game(seed=seed, rules=rules)
    plies = 0
    while state.outcome is None:
        legal = check_against_definition(state)
        controls = [m for m in legal if isinstance(m, Control)]
        # control sometimes at once, sometimes later: both orders reach new tables
        move = controls[0] if controls and rng.random() < 0.5 else rng.choice(legal)
        state = state.play(move)
        plies += 1
    check_against_definition(state)
    return plies


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_legal_moves_match_the_definition_at_every_ply(seed: int, rules: Rules) -> None:
    assert play_out(seed, rules) > 0


@pytest.mark.parametrize("rules", VARIANTS, ids=["base", "tactics"])
def test_the_verdicts_kept_on_the_tiles_are_the_provers(rules: Rules) -> None:
    # What a tile keeps stands only where the prover, asked afresh, agrees.
    kept = 0
    for seed in range(4):
        state, rng = new_game(seed=seed, rules=rules), random.Random(seed)
        while state.outcome is None:
            legal = state.legal_moves()
            for tile in state.tiles:
                answer = tile.kept.answer(state.attacker, state.seen)
                if answer is not None:
                    kept += 1
                    assert answer is state.claim_verdict(tile.number).holds
            state = state.play(rng.choice(legal))
    assert kept > 50


def test_a_proof_found_on_one_table_is_not_used_where_more_cards_are_unseen() -> None:
    # R8 R9 R10 (a colour run of 27) at tile 3 against an empty side: where the
    # 11s of the other colours are visible, no colour run 9-10-11 beats it and
    # the control holds; where they are not, Y9 Y10 Y11 does.
    blocked = position({3: ("R8 R9 R10", ""), 2: ("Y11 G11", "B11 P11")}, phase=Phase.AFTER_PLAY)
    open_table = position({3: ("R8 R9 R10", "")}, phase=Phase.AFTER_PLAY)
    for state, holds in [(blocked, True), (open_table, False), (blocked, True)]:
        assert state.claim_verdict(3).holds is holds
        assert (Control(3) in state.legal_moves()) is holds
        assert state.is_legal(Control(3)) is holds


def test_a_control_proved_while_cards_were_discarded_is_refused_once_support_returns_them() -> None:
    # Support shuffles two discarded siege cards back into the deck: the pool
    # grows, so a proof that needed those cards visible no longer holds.
    rules = Rules(tactics=True)
    before = position(
        {3: ("R8 R9 R10", ""), 2: ("G11", "B11 P11")},
        hands=("support Y1", "Y2"),
        discards="Y11 R1",
        rules=rules,
    )
    assert before.claim_verdict(3).holds
    assert Control(3) in before.legal_moves()
    after = play_all(before, ["support Y11,R1", "shuffle 1,2"])
    assert after.to_move == after.attacker
    assert after.tile(3) == before.tile(3)
    assert not after.claim_verdict(3).holds
    assert Control(3) not in after.legal_moves()
    assert not after.is_legal(Control(3))


def test_a_misspelled_field_in_a_state_copy_is_an_error() -> None:
    # Issue 14: the copy once ignored a misspelled field silently.
    from referee.schotten_totten_2.state import _evolve

    state = new_game(seed=1)
    assert _evolve(state, ply=5).ply == 5
    with pytest.raises(TypeError, match="plyy"):
        _evolve(state, plyy=99)
