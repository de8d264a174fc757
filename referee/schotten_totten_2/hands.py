"""What every card played needs, tactic cards' too: the tile it goes to, the
hand it leaves (checked against what is known of a hidden hand), the tactic
limit, and the chicken meeting the cook when a card lands.

>>> from referee.schotten_totten_2 import new_game
>>> game = new_game(seed=1)
>>> tactic_counts(game)
(0, 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from referee.cards import Card
from referee.line import illegal, place_at
from referee.line.tactics import may_play_tactic
from referee.schotten_totten_2.moves import Move
from referee.schotten_totten_2.state import Phase, Reason, State
from referee.schotten_totten_2.wall import AnyCard, TacticCard, Tile

__all__ = [
    "check_can_play",
    "check_tactic",
    "hand_without",
    "place",
    "tactic_counts",
    "tile_for",
    "top_drawn",
]

_C = TypeVar("_C", bound=AnyCard)


def tile_for(state: State, move: Move, number: int) -> Tile:
    """The tile numbered ``number`` that ``move`` names, or its refusal."""
    return place_at(move, number, state.tiles, Reason.NO_SUCH_TILE, "tile")


def check_can_play(state: State, move: Move) -> None:
    """Refuse a second card in a turn."""
    if state.phase is not Phase.OPENING and state.phase is not Phase.PLAY:
        raise illegal(move, Reason.ALREADY_PLAYED, "you have already played this turn")


def place(tiles: list[Tile], number: int, player: int, card: AnyCard, ply: int) -> list[AnyCard]:
    """Put ``card`` on ``player``'s side of tile ``number`` (room already checked).

    Chicken against cook: a 0 arriving opposite the 11 of its colour (or an 11
    opposite the 0) is discarded together with it. Returns the discarded cards.
    """
    tile = tiles[number - 1]
    other = tile.sides[1 - player]
    if isinstance(card, Card) and card.value in (0, 11):
        rival = Card(card.colour, 11 - card.value)
        if rival in other:
            tiles[number - 1] = tile.without_card(1 - player, rival, ply)
            return [card, rival]
    tiles[number - 1] = tile.with_card(player, card, ply)
    return []


def tactic_counts(state: State) -> tuple[int, int]:
    """How many tactic cards each hand holds (known even when hidden)."""
    counts = state.hand_tactics
    assert counts is not None  # set when the state is made
    return counts


def check_tactic(state: State, move: Move, card: TacticCard) -> None:
    """Refuse ``card`` outside the tactics variant, or past the tactic limit
    (no player gets two tactic cards ahead: the kernel's rule)."""
    if not state.rules.tactics:
        raise illegal(
            move, Reason.TACTICS_NOT_IN_PLAY, f"{card} is a tactic card: not in the base game"
        )
    player = state.to_move
    played = state.tactics_played
    if not may_play_tactic(played, player):
        mine, theirs = played[player], played[1 - player]
        raise illegal(
            move,
            Reason.TACTIC_LIMIT,
            f"tactic cards played: you {mine}, your opponent {theirs}; you may not get two ahead",
        )


def hand_without(
    state: State,
    move: Move,
    player: int,
    cards: Sequence[AnyCard],
    reserved: Sequence[AnyCard] = (),
) -> tuple[AnyCard, ...] | None:
    """``player``'s hand less ``cards`` (``None`` if hidden), or a refusal."""
    whose = "your" if player == state.to_move else "the opponent's"
    hand = state.hands[player]
    if hand is not None:
        rest = list(hand)
        for card in cards:
            if card not in rest:
                raise illegal(move, Reason.CARD_NOT_IN_HAND, f"{card} is not in {whose} hand")
            rest.remove(card)
        return tuple(rest)
    if state.hand_sizes[player] < len(cards):
        raise illegal(
            move,
            Reason.CARD_NOT_IN_HAND,
            f"{whose} hand holds only {state.hand_sizes[player]} cards",
        )
    tactics = state.tactics_in_hand(player)
    wanted = sum(isinstance(c, TacticCard) for c in cards)
    if wanted > tactics:
        raise illegal(
            move,
            Reason.CARD_NOT_IN_HAND,
            f"{whose} hand holds {tactics} tactic cards (every tactic card drawn is seen)",
        )
    if len(cards) - wanted > state.hand_sizes[player] - tactics:
        raise illegal(
            move,
            Reason.CARD_NOT_IN_HAND,
            f"{whose} hand holds {state.hand_sizes[player] - tactics} siege cards "
            "(every tactic card drawn is seen)",
        )
    available = state.rules.all_cards - state.visible_cards() - Counter(reserved)
    other = state.hands[1 - player]
    if other is not None:
        available -= Counter(other)
    for card, count in Counter(cards).items():
        if card not in state.rules.all_cards:
            raise illegal(move, Reason.UNKNOWN_CARD, f"{card} is not a card of this game")
        if available[card] < count:
            raise illegal(
                move,
                Reason.CARD_ALREADY_PLAYED,
                f"{card} cannot be in {whose} hand: it is seen",
            )
    return None


def top_drawn(
    hand: tuple[AnyCard, ...] | None, pile: tuple[_C, ...] | None
) -> tuple[tuple[AnyCard, ...] | None, tuple[_C, ...] | None]:
    """``hand`` with the top card of ``pile`` added, and the pile without it. A
    hidden pile (a view's) hides the hand too: what was drawn is not known.

    >>> top_drawn((Card("R", 1),), (Card("B", 2), Card("G", 3)))
    ((Card('R', 1), Card('B', 2)), (Card('G', 3),))
    >>> top_drawn((Card("R", 1),), None)
    (None, None)
    """
    if pile is None:
        return None, None
    return (None if hand is None else (*hand, pile[0])), pile[1:]
