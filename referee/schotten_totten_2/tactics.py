"""The tactic cards of Schotten Totten 2's tactics variant: elite troops are
played like siege cards (see :mod:`~referee.schotten_totten_2.rules`); each
action card here is played by its own move, stays on its player's side, and
does what its rule says: redeploy, recruitment, desertion, treason,
explosion, support (and where its cards land: a shuffle), exchange (and its
answer).

>>> from referee.schotten_totten_2 import Rules, new_game
>>> game = new_game(seed=1, rules=Rules(tactics=True))
>>> game.play("explosion 3")
Traceback (most recent call last):
...
referee.errors.IllegalMoveError: illegal move 'explosion 3': explosion is not in your hand
"""

from __future__ import annotations

from typing import Any

from referee.cards import Card
from referee.line import illegal, replaced
from referee.schotten_totten_2.hands import (
    check_can_play,
    check_tactic,
    hand_without,
    place,
    tactic_counts,
    tile_for,
)
from referee.schotten_totten_2.made import evolve
from referee.schotten_totten_2.moves import (
    Desertion,
    Exchange,
    ExchangeReply,
    Explosion,
    Move,
    Recruitment,
    Redeploy,
    Shuffle,
    Support,
    Treason,
)
from referee.schotten_totten_2.state import EXCHANGED, Phase, Reason, State
from referee.schotten_totten_2.wall import AnyCard, TacticCard

__all__ = [
    "desertion",
    "exchange",
    "exchange_reply",
    "explosion",
    "recruitment",
    "redeploy",
    "shuffle",
    "support",
    "treason",
]


def _action(state: State, move: Move, card: TacticCard) -> tuple[AnyCard, ...] | None:
    """Checks common to action cards; the mover's hand without ``card``."""
    check_can_play(state, move)
    check_tactic(state, move, card)
    return hand_without(state, move, state.to_move, [card])


def _after_action(
    state: State,
    card: TacticCard,
    hand: tuple[AnyCard, ...] | None,
    phase: Phase = Phase.AFTER_PLAY,
    **changes: Any,
) -> State:
    """The action ``card`` played from the mover's hand (left ``hand``) to its side."""
    player = state.to_move
    return evolve(
        state,
        hands=replaced(state.hands, player, hand),
        hand_sizes=replaced(state.hand_sizes, player, state.hand_sizes[player] - 1),
        actions=replaced(state.actions, player, (*state.actions[player], card)),
        tactics_played=replaced(state.tactics_played, player, state.tactics_played[player] + 1),
        hand_tactics=replaced(tactic_counts(state), player, tactic_counts(state)[player] - 1),
        phase=phase,
        ply=state.ply + 1,
        **changes,
    )


def redeploy(state: State, move: Redeploy) -> State:
    """Redeploy: one of the mover's cards moves to another tile, or is discarded."""
    player = state.to_move
    hand = _action(state, move, TacticCard.REDEPLOY)
    source = tile_for(state, move, move.source)
    if move.card not in source.sides[player]:
        raise illegal(
            move,
            Reason.CARD_NOT_THERE,
            f"{move.card} is not on your side of tile {move.source}",
        )
    tiles = list(state.tiles)
    tiles[move.source - 1] = source.without_card(player, move.card, state.ply)
    discarded: list[AnyCard] = []
    if move.target is None:
        discarded.append(move.card)
    else:
        if move.target == move.source:
            raise illegal(move, Reason.SAME_TILE, "redeploy moves a card to another tile")
        target = tile_for(state, move, move.target)
        if not target.room(player):
            raise illegal(move, Reason.SIDE_FULL, f"your side of tile {move.target} is full")
        discarded = place(tiles, move.target, player, move.card, state.ply)
    return _after_action(
        state,
        TacticCard.REDEPLOY,
        hand,
        tiles=tuple(tiles),
        discards=(*state.discards, *discarded),
        seen=state.seen,
    )


def recruitment(state: State, move: Recruitment) -> State:
    """Recruitment: a discarded siege card is played to the mover's side of a tile."""
    player = state.to_move
    hand = _action(state, move, TacticCard.RECRUITMENT)
    if not isinstance(move.card, Card):
        raise illegal(
            move, Reason.NOT_A_SIEGE_CARD, f"recruitment takes a siege card, not {move.card}"
        )
    if move.card not in state.discards:
        raise illegal(move, Reason.NOT_DISCARDED, f"{move.card} is not in the discard pile")
    tile = tile_for(state, move, move.tile)
    if not tile.room(player):
        raise illegal(move, Reason.SIDE_FULL, f"your side of tile {move.tile} is full")
    discards = list(state.discards)
    discards.remove(move.card)
    tiles = list(state.tiles)
    discards += place(tiles, move.tile, player, move.card, state.ply)
    return _after_action(
        state,
        TacticCard.RECRUITMENT,
        hand,
        tiles=tuple(tiles),
        discards=tuple(discards),
        seen=state.seen,
    )


def desertion(state: State, move: Desertion) -> State:
    """Desertion: one of the opponent's cards at a tile is discarded."""
    opponent = 1 - state.to_move
    hand = _action(state, move, TacticCard.DESERTION)
    tile = tile_for(state, move, move.tile)
    if move.card not in tile.sides[opponent]:
        raise illegal(
            move,
            Reason.CARD_NOT_THERE,
            f"{move.card} is not on your opponent's side of tile {move.tile}",
        )
    tiles = list(state.tiles)
    tiles[move.tile - 1] = tile.without_card(opponent, move.card, state.ply)
    return _after_action(
        state,
        TacticCard.DESERTION,
        hand,
        tiles=tuple(tiles),
        discards=(*state.discards, move.card),
        seen=state.seen,
    )


def treason(state: State, move: Treason) -> State:
    """Treason: one of the opponent's cards moves to the mover's side of a tile."""
    player, opponent = state.to_move, 1 - state.to_move
    hand = _action(state, move, TacticCard.TREASON)
    source = tile_for(state, move, move.source)
    if move.card not in source.sides[opponent]:
        raise illegal(
            move,
            Reason.CARD_NOT_THERE,
            f"{move.card} is not on your opponent's side of tile {move.source}",
        )
    target = tile_for(state, move, move.target)
    if not target.room(player):
        raise illegal(move, Reason.SIDE_FULL, f"your side of tile {move.target} is full")
    tiles = list(state.tiles)
    tiles[move.source - 1] = source.without_card(opponent, move.card, state.ply)
    discarded = place(tiles, move.target, player, move.card, state.ply)
    return _after_action(
        state,
        TacticCard.TREASON,
        hand,
        tiles=tuple(tiles),
        discards=(*state.discards, *discarded),
        seen=state.seen,
    )


def explosion(state: State, move: Explosion) -> State:
    """Explosion: every card at a tile is discarded."""
    hand = _action(state, move, TacticCard.EXPLOSION)
    tile = tile_for(state, move, move.tile)
    if not tile.sides[0] and not tile.sides[1]:
        raise illegal(move, Reason.NOTHING_TO_EXPLODE, f"tile {move.tile} has no cards")
    emptied = tile.with_side(0, (), state.ply).with_side(1, (), state.ply)
    return _after_action(
        state,
        TacticCard.EXPLOSION,
        hand,
        tiles=replaced(state.tiles, move.tile - 1, emptied),
        discards=(*state.discards, *tile.sides[state.attacker], *tile.sides[state.defender]),
        seen=state.seen,
    )


def support(state: State, move: Support) -> State:
    """Support: two discarded siege cards go back into the deck (a shuffle says where)."""
    hand = _action(state, move, TacticCard.SUPPORT)
    siege = [c for c in state.discards if isinstance(c, Card)]
    if len(siege) < 2:
        raise illegal(
            move,
            Reason.TOO_FEW_DISCARDS,
            f"support needs 2 discarded siege cards; the pile holds {len(siege)}",
        )
    discards = list(state.discards)
    chosen: list[Card] = []
    for card in move.cards:
        if not isinstance(card, Card):
            raise illegal(move, Reason.NOT_A_SIEGE_CARD, f"support takes siege cards, not {card}")
        if card not in discards:
            raise illegal(move, Reason.NOT_DISCARDED, f"{card} is not in the discard pile")
        discards.remove(card)
        chosen.append(card)
    return _after_action(
        state,
        TacticCard.SUPPORT,
        hand,
        Phase.SHUFFLE,
        discards=tuple(discards),
        support=(chosen[0], chosen[1]),
    )


def shuffle(state: State, move: Shuffle) -> State:
    """Where support's two cards went in the deck (1 is the top card)."""
    if state.phase is not Phase.SHUFFLE or state.support is None:
        raise illegal(move, Reason.NO_SHUFFLE_PENDING, "no support card is waiting")
    size = state.deck_size + 2
    deck: tuple[Card, ...] | None = None
    if move.positions is None:
        if state.deck is not None:
            raise illegal(
                move,
                Reason.SHUFFLE_UNRECORDED,
                "the deck is known, so say where both cards went ('shuffle N,M')",
            )
    else:
        first, second = move.positions
        if not (1 <= first <= size and 1 <= second <= size) or first == second:
            raise illegal(
                move,
                Reason.BAD_SHUFFLE,
                f"the deck will hold {size} cards: give two different places 1-{size}",
            )
        if state.deck is not None:
            rest = iter(state.deck)
            placed = {first: state.support[0], second: state.support[1]}
            deck = tuple(placed[i] if i in placed else next(rest) for i in range(1, size + 1))
    return evolve(
        state,
        deck=deck,
        deck_size=size,
        support=None,
        phase=Phase.AFTER_PLAY,
        ply=state.ply + 1,
    )


def exchange(state: State, move: Exchange) -> State:
    """Exchange: the mover offers 3 cards of its hand; the opponent answers."""
    player, opponent = state.to_move, 1 - state.to_move
    _action(state, move, TacticCard.EXCHANGE)
    # The exchange card leaves the hand first; the 3 offered cards are others.
    hand_without(state, move, player, [TacticCard.EXCHANGE, *move.give])
    if state.hand_sizes[opponent] < EXCHANGED:
        raise illegal(
            move,
            Reason.TOO_FEW_CARDS,
            f"your opponent holds {state.hand_sizes[opponent]} cards: an exchange takes 3 each",
        )
    hand = hand_without(state, move, player, [TacticCard.EXCHANGE])
    return _after_action(
        state, TacticCard.EXCHANGE, hand, Phase.EXCHANGE, to_move=opponent, exchange=move.give
    )


def exchange_reply(state: State, move: ExchangeReply) -> State:
    """The answer to an exchange: the 3 cards given back, the offer taken."""
    offer = state.exchange
    if state.phase is not Phase.EXCHANGE:
        raise illegal(move, Reason.NO_EXCHANGE_PENDING, "no exchange waits for an answer")
    if offer is None:
        raise illegal(
            move,
            Reason.OFFER_HIDDEN,
            "the cards offered are hidden in this view: answer on the full state",
        )
    chooser, mover = state.to_move, 1 - state.to_move
    # Cards named in the offer are seen, so a hidden hand cannot hold them.
    kept = hand_without(state, move, mover, offer, move.give)
    given = hand_without(state, move, chooser, move.give, offer)
    counts = tactic_counts(state)
    offered = sum(isinstance(c, TacticCard) for c in offer)
    back = sum(isinstance(c, TacticCard) for c in move.give)
    hands = replaced(state.hands, mover, None if kept is None else (*kept, *move.give))
    hands = replaced(hands, chooser, None if given is None else (*given, *offer))
    moved = replaced(counts, mover, counts[mover] - offered + back)
    return evolve(
        state,
        hands=hands,
        hand_tactics=replaced(moved, chooser, counts[chooser] - back + offered),
        to_move=mover,
        phase=Phase.AFTER_PLAY,
        exchange=None,
        ply=state.ply + 1,
    )
