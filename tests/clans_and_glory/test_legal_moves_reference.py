"""``legal_moves`` and ``play`` against the plain definition, at every ply of random games.

``legal_moves`` reads the integer board (each card's fitting seats as a bit
mask, kept up to date ply by ply) and makes a move only when one is asked for;
here its answer is compared with the rules read off the table of ``Placed``
cards and the layout's relations, with no mask: a card fits a free seat when a
face-up card beside or opposite shares its colour or rank; only when no card in
hand fits any free seat does a card go face down, on any free seat; each with
and without a shield while shields are left; in hand order, then layout order.
``is_legal`` agrees on every placement, the mover's view lists the same moves,
so does a table with a card turned face down, the legal action ids are the
same moves again, and the board ``play`` leaves is the one the checked
constructor builds from the table from scratch.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.actions import legal_actions
from referee.cards import Card
from referee.clans_and_glory import Placement, Seat, State, new_game
from referee.clans_and_glory.actions import action_space


def fits(state: State, card: Card, seat: Seat) -> bool:
    """The matching rule on the table as people see it."""
    table, layout = state.table, state.layout
    shown = [table[layout.index(other)] for other in layout.touching(seat)]
    return any(
        placed is not None
        and placed.face_up
        and placed.card is not None
        and (placed.card.colour == card.colour or placed.card.value == card.value)
        for placed in shown
    )


def reference_moves(state: State) -> list[Placement]:
    if state.is_game_over():
        return []
    hand = state.hands[state.to_move]
    assert hand is not None
    free = state.free_seats()
    pairs = [(card, seat) for card in hand for seat in free if fits(state, card, seat)]
    down = not pairs
    if down:
        pairs = [(card, seat) for card in hand for seat in free]
    shields = (False, True) if state.shields_left(state.to_move) else (False,)
    moves = [Placement(c, s, face_down=down, shield=h) for c, s in pairs for h in shields]
    # is_legal (the checked path) agrees on every placement of a card in hand
    for card in hand:
        for seat in state.layout.seats:
            for face_down in (False, True):
                for shield in (False, True):
                    move = Placement(card, seat, face_down=face_down, shield=shield)
                    assert state.is_legal(move) == (move in moves), move
    return moves


def with_a_card_turned_down(state: State, rng: random.Random) -> State:
    """``state`` with one card on the table face down (face-down cards are rare in
    random games: they are played only when nothing fits)."""
    placed = [i for i, p in enumerate(state.table) if p is not None]
    at = rng.choice(placed)
    table = list(state.table)
    card = table[at]
    assert card is not None
    table[at] = dataclasses.replace(card, face_up=False)
    return state.replace(table=tuple(table))


def play_out(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(players=players, seed=seed)
    while True:
        legal = state.legal_moves()
        assert legal == reference_moves(state)
        # indexing builds one move at a time, iterating the whole list: the same moves
        one_by_one = state.legal_moves()
        assert [one_by_one[i] for i in range(len(one_by_one))] == list(legal)
        assert [one_by_one[-1 - i] for i in range(len(legal))] == list(legal)[::-1]
        space = action_space(state)
        assert [space.move_of(a) for a in legal_actions(space, state)] == legal
        turned = with_a_card_turned_down(state, rng)
        assert turned.legal_moves() == reference_moves(turned)
        for viewer in range(players):
            seen = state.view(viewer).legal_moves()
            assert seen == (legal if viewer == state.to_move else [])
        rebuilt = state.replace(history=())  # the board from the table, from scratch
        assert rebuilt.board == state.board and rebuilt == state
        if state.is_game_over():
            return
        state = state.play(rng.choice(legal))


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1))
def test_legal_moves_match_the_definition_at_every_ply(players: int, seed: int) -> None:
    play_out(players, seed)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1))
def test_a_dealt_game_is_what_the_checked_constructor_builds(players: int, seed: int) -> None:
    # new_game builds its state without the constructor's checks: it must pass them.
    game = new_game(players=players, seed=seed)
    built = State(
        num_players=players,
        layout=game.layout,
        table=game.table,
        hands=game.hands,
        shields=game.shields,
        to_move=game.to_move,
        removed=game.removed,
        deal=game.deal,
    )
    assert built == game and built.board == game.board
    assert game.status() == ()
