"""Building Schotten Totten positions for tests."""

from __future__ import annotations

from collections.abc import Sequence

from referee.cards import Card
from referee.schotten_totten import CLAN_CARDS, Phase, Rules, State, Stone


def cards(text: str) -> tuple[Card, ...]:
    """``"R7 B5"`` -> the cards."""
    return tuple(CLAN_CARDS.parse(t) for t in text.split())


def deck_with(hand0: str, hand1: str, top: str = "") -> list[Card]:
    """A full 54-card deck order: player 1's hand, player 2's hand, then ``top``
    on the draw pile, then every other card in card order."""
    first = [*cards(hand0), *cards(hand1), *cards(top)]
    assert len(cards(hand0)) == 6 and len(cards(hand1)) == 6, "hands hold 6 cards"
    return first + [c for c in CLAN_CARDS.cards if c not in first]


def position(
    sides: dict[int, tuple[str, str]],
    *,
    hands: tuple[str, str] = ("", ""),
    to_move: int = 0,
    phase: Phase = Phase.AFTER_PLAY,
    first: dict[int, int] | None = None,
    owners: dict[int, int] | None = None,
    rules: Rules | None = None,
) -> State:
    """A state with the given cards on stones (1-9) and in hands; the deck holds
    every other card, in card order. ``first[n]`` names the side of stone n
    that completed first (default: player 1's, when both are complete)."""
    stones: list[Stone] = []
    used: list[Card] = []
    for number in range(1, 10):
        left, right = sides.get(number, ("", ""))
        pair = (cards(left), cards(right))
        used += [*pair[0], *pair[1]]
        order = (first or {}).get(number, 0)
        done: list[int | None] = [None, None]
        for rank, p in enumerate((order, 1 - order)):
            if len(pair[p]) == 3:
                done[p] = rank
        stones.append(Stone(pair, (done[0], done[1]), (owners or {}).get(number)))
    hand_cards = (cards(hands[0]), cards(hands[1]))
    used += [*hand_cards[0], *hand_cards[1]]
    assert len(set(used)) == len(used), "a card is used twice"
    deck = tuple(c for c in CLAN_CARDS.cards if c not in used)
    return State(
        rules=rules or Rules(),
        stones=tuple(stones),
        hands=hand_cards,
        hand_sizes=(len(hand_cards[0]), len(hand_cards[1])),
        deck=deck,
        deck_size=len(deck),
        to_move=to_move,
        phase=phase,
        ply=10,
    )


def play_all(state: State, moves: Sequence[str]) -> State:
    for move in moves:
        state = state.play(move)
    return state
