"""The two commonest Schotten Totten 2 plies on a path of their own: a siege
card played from a known hand to an open side, a card drawn from a known pile
into a known hand. Each makes the very state the checked rules of
:mod:`~referee.schotten_totten_2.rules` make, without their checks, and
answers ``None`` for every case it does not cover (the checked rules decide it); :func:`~referee.schotten_totten_2.rules.apply`
tries them first. The states are written by
:mod:`~referee.schotten_totten_2.made` field by field.

>>> from referee.schotten_totten_2 import new_game
>>> game = new_game(seed=1)
>>> move = game.legal_moves()[0]
>>> move
parse_move('G2@1')
>>> fast_card(game, move) == game.play(move)
True
>>> fast_card(game.play(move), move) is None  # the mover draws now: not this path
True
"""

from __future__ import annotations

from referee.cards import Card
from referee.game import History
from referee.schotten_totten_2.made import after_card, after_draw, after_tactic_draw
from referee.schotten_totten_2.moves import Draw, Move, PlayCard
from referee.schotten_totten_2.state import Phase, State
from referee.schotten_totten_2.wall import INDEX, TILES, made_tile

__all__ = ["fast_card", "fast_draw"]

_OPENING = Phase.OPENING
_PLAY = Phase.PLAY
_AFTER_PLAY = Phase.AFTER_PLAY
_IDS = INDEX.ids
#: By card id, the bit of the card that meets it as chicken against cook (a
#: 0's 11, an 11's 0 of the same colour); 0 for the cards 1-10.
_RIVAL: tuple[int, ...] = tuple(
    1 << _IDS[Card(card.colour, 11 - card.value)] if card.value in (0, 11) else 0
    for card in INDEX.cards
)


def fast_card(state: State, move: PlayCard, past: History[Move] | None = None) -> State | None:
    """The state after ``move`` when it is a siege card from a known hand to an
    open side with no chicken or cook to meet (what
    :func:`~referee.schotten_totten_2.rules.play_card` makes of it, without its
    checks); ``None`` for every other case. ``past`` is the
    new state's history (by default this one's).

    A 0 or an 11 takes this path too when its rival (the 11 or the 0 of its
    colour) is not on the opposing side: then it is placed like any card.
    """
    card = move.card
    phase = state.phase
    if (
        type(card) is not Card
        or (phase is not _OPENING and phase is not _PLAY)
        or state.hand_tactics is None
    ):
        return None
    player = state.to_move
    hand = state.hands[player]
    number = move.tile
    if hand is None or not 1 <= number <= TILES:
        return None
    try:
        at = hand.index(card)  # a card in a hand is a siege card: the state was checked
    except ValueError:
        return None
    tiles = state.tiles
    tile = tiles[number - 1]
    side = tile.sides[player]
    size = tile.size
    masks = tile.masks
    at_id = _IDS[card]
    if len(side) >= size or masks[1 - player] & _RIVAL[at_id]:
        return None
    new_side = (*side, card)
    done = state.ply if len(new_side) == size else None
    bit = 1 << at_id
    sides, completed = tile.sides, tile.completed
    if player == 0:
        placed = made_tile(
            number,
            tile.damaged,
            (new_side, sides[1]),
            (done, completed[1]),
            (masks[0] | bit, masks[1]),
            size,
        )
    else:
        placed = made_tile(
            number,
            tile.damaged,
            (sides[0], new_side),
            (completed[0], done),
            (masks[0], masks[1] | bit),
            size,
        )
    hands, sizes, rest = state.hands, state.hand_sizes, hand[:at] + hand[at + 1 :]
    return after_card(
        state,
        (*tiles[: number - 1], placed, *tiles[number:]),
        (rest, hands[1]) if player == 0 else (hands[0], rest),
        (sizes[0] - 1, sizes[1]) if player == 0 else (sizes[0], sizes[1] - 1),
        _AFTER_PLAY,
        state.ply + 1,
        False,
        state.past if past is None else past,
        state.seen | bit,
    )


def fast_draw(state: State, move: Draw, past: History[Move] | None = None) -> State | None:
    """The state after a draw from a known pile into a known hand that does
    not end the game (what
    :func:`~referee.schotten_totten_2.rules.draw` and
    :func:`~referee.schotten_totten_2.rules.next_turn` make of it);
    ``None`` for every other case."""
    if move.pile != "siege":
        return _fast_tactic_draw(state, past)
    player = state.to_move
    hand, deck = state.hands[player], state.deck
    if (
        state.phase is not _AFTER_PLAY
        or not state.deck_size
        or not deck
        or hand is None
        or (player == state.attacker and state.final_turn)
    ):
        return None
    following = 1 - player
    exhausted = state.exhausted or state.deck_size == 1
    hands, sizes, drawn = state.hands, state.hand_sizes, (*hand, deck[0])
    return after_draw(
        state,
        (drawn, hands[1]) if player == 0 else (hands[0], drawn),
        (sizes[0] + 1, sizes[1]) if player == 0 else (sizes[0], sizes[1] + 1),
        deck[1:],
        state.deck_size - 1,
        exhausted,
        player == state.attacker,
        following,
        _OPENING,
        state.ply + 1,
        following == state.attacker and exhausted,
        state.past if past is None else past,
    )


def _fast_tactic_draw(state: State, past: History[Move] | None) -> State | None:
    """:func:`fast_draw` from a known tactic pile (what the rules'
    draw from the tactic pile and
    :func:`~referee.schotten_totten_2.rules.next_turn` make of it); ``None`` for every other case."""
    player = state.to_move
    hand, pile, counts = state.hands[player], state.tactic_deck, state.hand_tactics
    if (
        state.phase is not _AFTER_PLAY
        or not state.rules.tactics
        or not state.tactic_deck_size
        or not pile
        or hand is None
        or counts is None
        or (player == state.attacker and state.final_turn)
    ):
        return None
    following = 1 - player
    hands, sizes, drawn = state.hands, state.hand_sizes, (*hand, pile[0])
    return after_tactic_draw(
        state,
        (drawn, hands[1]) if player == 0 else (hands[0], drawn),
        (sizes[0] + 1, sizes[1]) if player == 0 else (sizes[0], sizes[1] + 1),
        (counts[0] + 1, counts[1]) if player == 0 else (counts[0], counts[1] + 1),
        pile[1:],
        state.tactic_deck_size - 1,
        player == state.attacker,
        following,
        state.ply + 1,
        following == state.attacker and state.exhausted,
        state.past if past is None else past,
    )
