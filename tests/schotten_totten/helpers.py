"""Building Schotten Totten positions for tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from referee.cards import Card
from referee.schotten_totten import CLAN_CARDS, Phase, Rules, State, Stone
from referee.schotten_totten.tactics import TACTIC_CARDS, AnyCard, Tactic, parse_card


def cards(text: str) -> tuple[AnyCard, ...]:
    """``"R7 B5 joker"`` -> the cards."""
    return tuple(parse_card(t) for t in text.split())


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
    styles: dict[int, str] | None = None,
    discards: str = "",
    tactics_played: tuple[int, int] = (0, 0),
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
        style = Tactic(styles[number]) if styles and number in styles else None
        if style is not None:
            used.append(style)
        size = Stone(style=style).rule.size
        order = (first or {}).get(number, 0)
        done: list[int | None] = [None, None]
        for rank, p in enumerate((order, 1 - order)):
            if len(pair[p]) == size:
                done[p] = rank
        stones.append(Stone(pair, (done[0], done[1]), (owners or {}).get(number), style))
    hand_cards = (cards(hands[0]), cards(hands[1]))
    thrown = cards(discards)
    used += [*hand_cards[0], *hand_cards[1], *thrown]
    counts = Counter(used)
    assert all(n == 1 or (c == Tactic("joker") and n <= 2) for c, n in counts.items()), "reused"
    deck = tuple(c for c in CLAN_CARDS.cards if c not in counts)
    rules = rules or Rules()
    pile: list[Tactic] = []
    if rules.tactics:
        left_over = Counter(TACTIC_CARDS) - Counter(c for c in used if isinstance(c, Tactic))
        pile = sorted(left_over.elements())
    jokers = tuple(Tactic("joker") in [c for s in stones for c in s.sides[p]] for p in (0, 1))
    return State(
        rules=rules,
        stones=tuple(stones),
        hands=hand_cards,
        hand_sizes=(len(hand_cards[0]), len(hand_cards[1])),
        deck=deck,
        deck_size=len(deck),
        tactic_deck=tuple(pile),
        tactic_deck_size=len(pile),
        discards=thrown,
        tactics_played=tactics_played,
        jokers_played=jokers,
        to_move=to_move,
        phase=phase,
        ply=10,
    )


def play_all(state: State, moves: Sequence[str]) -> State:
    for move in moves:
        state = state.play(move)
    return state
