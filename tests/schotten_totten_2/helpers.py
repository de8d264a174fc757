"""Building Schotten Totten 2 positions for tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from referee.cards import Card
from referee.schotten_totten_2 import (
    SIEGE_CARDS,
    TACTIC_CARDS,
    TILES,
    AnyCard,
    Phase,
    Rules,
    State,
    TacticCard,
    Tile,
    parse_card,
)

TACTICS = Rules(tactics=True)


def cards(text: str) -> tuple[AnyCard, ...]:
    """``"R7 B5 joker"`` -> the cards."""
    return tuple(parse_card(t) for t in text.split())


def position(
    tiles: dict[int, tuple[str, str]] | None = None,
    *,
    hands: tuple[str, str] = ("", ""),
    discards: str = "",
    damaged: Sequence[int] = (),
    attacker: int = 0,
    to_move: int | None = None,
    phase: Phase = Phase.OPENING,
    first: dict[int, int] | None = None,
    oil: int = 3,
    rules: Rules | None = None,
    actions: tuple[str, str] = ("", ""),
    tactics_played: tuple[int, int] | None = None,
    deck_top: str = "",
) -> State:
    """A state with the given cards at tiles (player 0's side, player 1's side),
    in hands and discarded; the siege deck holds ``deck_top`` and then every
    other siege card in card order, the tactic pile every other tactic card.
    ``first[n]`` names the side of tile n that completed first (default 0)."""
    rules = rules or Rules()
    built = []
    used: Counter[AnyCard] = Counter()
    for number in range(1, TILES + 1):
        left, right = (tiles or {}).get(number, ("", ""))
        pair = (cards(left), cards(right))
        used.update(pair[0] + pair[1])
        tile = Tile(number, number in damaged, pair)
        order = (first or {}).get(number, 0)
        done: list[int | None] = [None, None]
        for rank, p in enumerate((order, 1 - order)):
            if len(pair[p]) == tile.rule.size:
                done[p] = rank
        built.append(replace(tile, completed=(done[0], done[1])))
    hand_cards = (cards(hands[0]), cards(hands[1]))
    played = (cards(actions[0]), cards(actions[1]))
    used.update(hand_cards[0] + hand_cards[1] + cards(discards) + played[0] + played[1])
    top = cards(deck_top)
    used.update(top)
    assert not used - rules.all_cards, f"a card is used too often: {used - rules.all_cards}"
    deck = tuple(top) + tuple(c for c in SIEGE_CARDS.cards if c not in used)
    tactic_pile = Counter(TACTIC_CARDS) - used if rules.tactics else Counter()
    if tactics_played is None:
        on_tiles = [
            sum(isinstance(c, TacticCard) for t in built for c in t.sides[p]) for p in (0, 1)
        ]
        counts = [on_tiles[0] + len(played[0]), on_tiles[1] + len(played[1])]
        # Discarded tactic cards were played too: count them for the player not
        # to move first, so that the player to move stays within the limit.
        mover = attacker if to_move is None else to_move
        for i in range(sum(isinstance(c, TacticCard) for c in cards(discards))):
            counts[1 - mover if i % 2 == 0 else mover] += 1
        tactics_played = (counts[0], counts[1])
    return State(
        rules=rules,
        attacker=attacker,
        tiles=tuple(built),
        hands=hand_cards,
        hand_sizes=(len(hand_cards[0]), len(hand_cards[1])),
        deck=deck,  # type: ignore[arg-type]
        deck_size=len(deck),
        tactic_deck=tuple(tactic_pile.elements()),
        tactic_deck_size=sum(tactic_pile.values()),
        discards=cards(discards),
        actions=(played[0], played[1]),  # type: ignore[arg-type]
        tactics_played=tactics_played,
        oil=oil,
        to_move=attacker if to_move is None else to_move,
        phase=phase,
        ply=10,
    )


def play_all(state: State, moves: Sequence[str]) -> State:
    for move in moves:
        state = state.play(move)
    return state


def reason_of(state: State, move: str) -> str:
    """The reason code of refusing ``move`` (and that the state is unchanged)."""
    before = state
    try:
        state.play(move)
    except ValueError as error:
        assert state == before
        return getattr(error, "reason", "?")
    raise AssertionError(f"{move!r} was accepted")


def deck_with(hand0: str, hand1: str, top: str = "", size: int = 6) -> list[Card]:
    """A full 60-card deck order: player 0's hand, player 1's hand, then ``top``
    on the siege deck, then every other siege card in card order."""
    first = [*cards(hand0), *cards(hand1), *cards(top)]
    assert len(cards(hand0)) == size and len(cards(hand1)) == size, f"hands hold {size} cards"
    siege = [c for c in first if isinstance(c, Card)]
    return siege + [c for c in SIEGE_CARDS.cards if c not in siege]


def emptied(state: State, *, siege: bool = True, tactics: bool = False) -> State:
    """``state`` with its siege deck (and/or tactic pile) moved to the discard pile."""
    moved = (*(state.deck or ()),) if siege else ()
    moved_tactics = (*(state.tactic_deck or ()),) if tactics else ()
    played = len(moved_tactics)
    return replace(
        state,
        deck=() if siege else state.deck,
        deck_size=0 if siege else state.deck_size,
        tactic_deck=() if tactics else state.tactic_deck,
        tactic_deck_size=0 if tactics else state.tactic_deck_size,
        discards=(*state.discards, *moved, *moved_tactics),
        tactics_played=(
            state.tactics_played[0] + played // 2,
            state.tactics_played[1] + played - played // 2,
        ),
    )
