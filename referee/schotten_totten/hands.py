"""A player's hand in the rules: whether it holds a card, a card spent from
it, cards drawn into it. A hand may be hidden (a view, a public replay): then
only its size and its count of tactic cards are known, and a card is refused
only when the hand cannot hold it.
"""

from __future__ import annotations

from referee.cards import Card
from referee.line import illegal, replaced
from referee.line.tactics import JOKER
from referee.schotten_totten.cards import ID, AnyCard, Tactic, copies
from referee.schotten_totten.state import Reason, State

__all__ = ["Drawn", "Spent", "check_in_hand", "could_hold", "spent", "spent_card", "taken"]


def could_hold(state: State, card: AnyCard) -> bool:
    """Whether a hidden hand may hold ``card``: not every copy of it is visible."""
    if type(card) is Tactic:
        return state.visible_tactics()[card] < copies(card)
    at = ID.get(card)
    return at is not None and type(card) is Card and not state.seen >> at & 1


def check_in_hand(state: State, move: object, card: AnyCard) -> None:
    """Refuse ``move`` unless the mover's hand holds ``card`` (or, hidden, may hold it)."""
    player = state.to_move
    hand = state.hands[player]
    if hand is not None:
        if card not in hand:
            raise illegal(move, Reason.CARD_NOT_IN_HAND, f"{card} is not in your hand")
    elif state.hand_sizes[player] == 0:
        raise illegal(move, Reason.EMPTY_HAND, "your hand is empty")
    elif not could_hold(state, card):
        raise illegal(move, Reason.CARD_ALREADY_PLAYED, f"{card} is already on the table")
    elif type(card) is Tactic and state.tactics_in_hand(player) == 0:
        raise illegal(
            move,
            Reason.CARD_NOT_IN_HAND,
            f"{card} is not in your hand: it holds no tactic card",
        )
    elif type(card) is Card and state.clans_in_hand(player) == 0:
        raise illegal(
            move, Reason.CARD_NOT_IN_HAND, f"{card} is not in your hand: it holds no clan card"
        )


#: The fields a card spent changes: hands, hand sizes, tactics played, jokers
#: played, tactic cards in hand.
Spent = tuple[
    tuple[tuple[AnyCard, ...] | None, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[bool, ...],
    tuple[int, ...],
]


def spent(state: State, player: int, card: AnyCard) -> Spent:
    """``player`` takes ``card`` from its hand to play it: the hands, hand
    sizes, tactic cards played (the tactic limit counts every one), jokers
    played (one per player and game) and tactic cards in hand after it."""
    hands, sizes = spent_card(state.hands, state.hand_sizes, player, card)
    if type(card) is not Tactic:
        return hands, sizes, state.tactics_played, state.jokers_played, state.hand_tactics
    played = state.tactics_played
    jokers = state.jokers_played
    if card == JOKER:
        jokers = replaced(jokers, player, True)
    return (
        hands,
        sizes,
        replaced(played, player, played[player] + 1),
        jokers,
        replaced(state.hand_tactics, player, state.tactics_in_hand(player) - 1),
    )


def spent_card(
    hands: tuple[tuple[AnyCard, ...] | None, ...],
    sizes: tuple[int, ...],
    player: int,
    card: AnyCard,
) -> tuple[tuple[tuple[AnyCard, ...] | None, ...], tuple[int, ...]]:
    """The hands and hand sizes after ``player`` takes ``card`` (one copy) from
    its hand (a hidden hand: one card fewer)."""
    hand = hands[player]
    if hand is not None:
        at = hand.index(card)
        hand = hand[:at] + hand[at + 1 :]
    if player == 0:
        return (hand, hands[1]), (sizes[0] - 1, sizes[1])
    return (hands[0], hand), (sizes[0], sizes[1] - 1)


#: The fields drawing changes: hands, hand sizes, the clan pile and its size,
#: the tactic pile and its size, tactic cards in hand, the cards under the piles.
Drawn = tuple[
    tuple[tuple[AnyCard, ...] | None, ...],
    tuple[int, ...],
    tuple[Card, ...] | None,
    int,
    tuple[Tactic, ...] | None,
    int,
    tuple[int, ...],
    tuple[tuple[tuple[int, AnyCard | str], ...], ...],
]


def taken(state: State, player: int, clans: int, tactics: int) -> Drawn:
    """``player`` draws the top ``clans`` cards of the clan pile and the top
    ``tactics`` of the tactic pile (in that order, into its hand): the fields
    after it. A card the recruiter put under a pile surfaces when the pile is
    down to it (see ``State.under_piles``)."""
    hands, deck, tactic_deck = state.hands, state.deck, state.tactic_deck
    hand = hands[player]
    if hand is None or (clans and deck is None) or (tactics and tactic_deck is None):
        hand = None
    else:
        if clans:
            hand += deck[:clans]  # type: ignore[index]
        if tactics:
            hand += tactic_deck[:tactics]  # type: ignore[index]
    if clans and deck is not None:
        deck = deck[clans:]
    if tactics and tactic_deck is not None:
        tactic_deck = tactic_deck[tactics:]
    under = state.under_piles
    if under[0] or under[1]:
        left = (state.deck_size - clans, state.tactic_deck_size - tactics)
        under = tuple(
            pile[len(pile) - size :] if len(pile) > size else pile
            for pile, size in zip(under, left, strict=True)
        )
    held = state.hand_tactics
    if state.rules.tactics or held[player]:
        held = replaced(held, player, state.tactics_in_hand(player) + tactics)
    sizes, more = state.hand_sizes, clans + tactics
    if player == 0:
        hands, sizes = (hand, hands[1]), (sizes[0] + more, sizes[1])
    else:
        hands, sizes = (hands[0], hand), (sizes[0], sizes[1] + more)
    return (
        hands,
        sizes,
        deck,
        state.deck_size - clans,
        tactic_deck,
        state.tactic_deck_size - tactics,
        held,
        under,
    )
