"""The legal moves of a Schotten Totten 2 position, in the order of a turn:
the attacker's provable controls, the opening actions, the card plays, then
``pass`` when no card can be played, the draws or the turn's end; what a
player may do when its hand is hidden (every card it could hold); and when
nobody can change anything any more (the siege failed).

Moves are immutable values: the common ones are made once, at import, as
tables (a card's play at each tile, the retreats from each set of tiles, the
tactic cards' moves); nothing is remembered from ply to ply.

>>> from referee.schotten_totten_2 import new_game
>>> game = new_game(deck=SIEGE_CARDS.cards)
>>> [str(m) for m in legal_moves(game)][:3]
['R0@1', 'R0@2', 'R0@3']
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from referee.cards import Card
from referee.schotten_totten_2 import claims, rules
from referee.schotten_totten_2.made import evolve
from referee.schotten_totten_2.moves import (
    Desertion,
    Draw,
    EndTurn,
    Exchange,
    ExchangeReply,
    Explosion,
    Move,
    Oil,
    Pass,
    PlayCard,
    Recruitment,
    Redeploy,
    Retreat,
    Shuffle,
    Support,
    Treason,
)
from referee.schotten_totten_2.state import EXCHANGED, Phase, State
from referee.schotten_totten_2.wall import SIEGE_CARDS, TACTIC_COUNT, TILES, AnyCard, TacticCard

__all__ = [
    "RETREATS",
    "chance_outcomes",
    "dealt_shuffle",
    "exchange_replies",
    "hand_choices",
    "legal_moves",
    "may_pass",
    "opening_variants",
    "openings",
    "play_chances",
    "plays",
    "possible_tactics",
    "shuffles",
    "siege_failed",
    "tactic_playable",
    "tactic_plays",
]

_OPENING = Phase.OPENING
_PLAY = Phase.PLAY
_AFTER_PLAY = Phase.AFTER_PLAY
_SHUFFLE = Phase.SHUFFLE
_EXCHANGE = Phase.EXCHANGE
_PASS, _DRAW, _DRAW_TACTIC, _END_TURN = Pass(), Draw(), Draw("tactic"), EndTurn()
_NUMBERS = range(1, TILES + 1)
_OILS = tuple(Oil(n) for n in _NUMBERS)
_EXPLOSIONS = tuple(Explosion(n) for n in _NUMBERS)
_SIEGE = SIEGE_CARDS.cards
_ELITE = tuple(c for c in TacticCard if c.is_elite)
_ON_TILES: tuple[AnyCard, ...] = (*_SIEGE, *_ELITE)

#: card -> its play at each tile (index = tile number; index 0 unused)
_PLAYS_AT: dict[AnyCard, tuple[PlayCard, ...]] = {
    card: (PlayCard(card, 1), *(PlayCard(card, n) for n in _NUMBERS)) for card in _ON_TILES
}
#: a set of tiles (bit ``number - 1``) -> their numbers
_NUMBERS_IN = tuple(tuple(n for n in _NUMBERS if mask >> n - 1 & 1) for mask in range(1 << TILES))
#: card -> a set of tiles (bit ``number - 1``) -> the card's plays there, tile by tile
_PLAY_ROWS: dict[AnyCard, tuple[tuple[PlayCard, ...], ...]] = {
    card: tuple(tuple(row[n] for n in tiles) for tiles in _NUMBERS_IN)
    for card, row in _PLAYS_AT.items()
}
#: the tiles holding attacker cards (bit ``number - 1``) -> every retreat from them
RETREATS: tuple[tuple[Retreat, ...], ...] = tuple(
    tuple(
        Retreat(tiles)
        for k in range(1, mask.bit_count() + 1)
        for tiles in combinations([n for n in _NUMBERS if mask >> n - 1 & 1], k)
    )
    for mask in range(1 << TILES)
)
# The action cards' moves, made once (keys: their fields).
_REDEPLOYS = {
    (c, n, m): Redeploy(c, n, m)
    for c in _ON_TILES
    for n in _NUMBERS
    for m in (*(m for m in _NUMBERS if m != n), None)
}
_RECRUITMENTS = {(c, n): Recruitment(c, n) for c in _SIEGE for n in _NUMBERS}
_DESERTIONS = {(c, n): Desertion(c, n) for c in _ON_TILES for n in _NUMBERS}
_TREASONS = {(c, n, m): Treason(c, n, m) for c in _ON_TILES for n in _NUMBERS for m in _NUMBERS}
_SUPPORTS = {(a, b): Support((a, b)) for a in _SIEGE for b in _SIEGE if a != b}


def chance_outcomes(state: State) -> list[tuple[Move, float]]:
    """The outcomes of a chance ply with their probabilities (see
    ``State.chance_outcomes``)."""
    if not state.is_chance_node():
        return []
    if state.deck is None:
        return [(Shuffle(), 1.0)]
    every = shuffles(state.deck_size + 2)
    chance = 1.0 / len(every)
    return [(move, chance) for move in every]


def legal_moves(state: State) -> list[Move]:
    """Every legal move for the player to move, as a new list
    (``State.legal_moves`` is the lazy view of it).

    With a hidden hand, moves of every card that hand could hold are listed;
    exchanges are listed only when both hands are known.

    Only the decisions of the player to move are listed: a ``control N``
    written right after the attacker's draw (``late_control``) is accepted
    by ``State.play`` so that records in that order replay, but it is not
    listed, since the same control proves the same before the draw.
    Where support's two cards land is chance, not a choice: after a
    support exactly one move is listed, the ``shuffle N,M`` dealt by
    ``State.chance_seed`` on a known deck (the bare ``shuffle`` when the
    deck order is unknown); ``State.play`` still accepts any ``shuffle N,M``
    a record names (the record is the deal), and :func:`chance_outcomes`
    lists every place with its probability.
    """
    if state.outcome is not None:
        return []
    player, phase = state.to_move, state.phase
    if phase is _SHUFFLE:
        # Chance, not a choice: the one dealt outcome (see chance_outcomes).
        if state.deck is None:
            return [Shuffle()]
        return [dealt_shuffle(state.chance_seed, state.ply, state.deck_size + 2)]
    if phase is _EXCHANGE:
        return exchange_replies(state)
    moves: list[Move] = []
    if player == state.attacker:
        moves.extend(claims.provable(state))
    if phase is _OPENING or phase is _PLAY:
        if phase is _OPENING:
            moves.extend(openings(state))
        played = plays(state)
        if moves:
            moves.extend(played)
        else:
            moves = played  # a new list: nobody else holds it
        # a known hand with a play never passes (see may_pass)
        if not (played and state.hands[player] is not None) and may_pass(state, played):
            moves.append(_PASS)
        return moves
    if phase is _AFTER_PLAY:
        if state.deck_size > 0:
            moves.append(_DRAW)
        if state.rules.tactics and state.tactic_deck_size > 0:
            moves.append(_DRAW_TACTIC)
    if not moves or not isinstance(moves[-1], Draw):
        moves.append(_END_TURN)
    return moves


def may_pass(state: State, plays: list[Move]) -> bool:
    """Whether the player to move may pass, given its possible plays.

    Only a player who truly cannot play a card passes: the attacker at the
    start of its turn must retreat to make room if that lets it play. A
    hidden hand may pass when some hand consistent with what is known
    (its known count of siege cards among them) has no play.
    """
    if plays and state.hands[state.to_move] is not None:
        return False
    return not play_chances(state)[1]


def opening_variants(state: State) -> list[State]:
    """This position and, at the start of a turn, what an opening action can
    make of it: the attacker retreating from every tile, each oil throw."""
    variants = [state]
    if state.phase is not Phase.OPENING:
        return variants
    player = state.to_move
    if player == state.attacker:
        dropped = [c for t in state.tiles for c in t.sides[player]]
        if dropped:
            tiles = tuple(t.with_side(player, (), state.ply) for t in state.tiles)
            variants.append(
                evolve(
                    state,
                    tiles=tiles,
                    discards=(*state.discards, *dropped),
                    phase=Phase.PLAY,
                    seen=state.seen,
                )
            )
    elif state.oil:
        variants.extend(
            rules.oil(state, _OILS[t.number - 1]) for t in state.tiles if t.sides[state.attacker]
        )
    return variants


def play_chances(state: State) -> tuple[bool, bool]:
    """``(may, must)``: whether the player to move can play a card (after an
    opening action, if it is the start of its turn) for some hand consistent
    with what is known, and for every such hand. Equal for a known hand."""
    player = state.to_move
    variants = opening_variants(state)
    if state.hands[player] is not None:
        can = any(plays(v) for v in variants)
        return can, can
    tactics = state.tactics_in_hand(player)
    siege = state.hand_sizes[player] - tactics
    if siege > 0 and any(t.room(player) for v in variants for t in v.tiles):
        return True, True
    if tactics == 0 or state.tactics_played[player] > state.tactics_played[1 - player]:
        return False, False
    unseen = possible_tactics(state, player)
    playable = sum(n for c, n in unseen.items() if any(tactic_playable(v, c) for v in variants))
    unplayable = sum(unseen.values()) - playable
    return playable > 0, unplayable < tactics


def possible_tactics(state: State, player: int) -> Counter[TacticCard]:
    """The tactic cards a hidden hand of ``player`` may hold, counted."""
    unseen = Counter(TACTIC_COUNT) - state.visible_cards()
    other = state.hands[1 - player]
    if other is not None:
        unseen -= Counter(other)
    if state.tactic_deck is not None:
        unseen -= Counter(state.tactic_deck)
    return Counter({c: n for c, n in unseen.items() if isinstance(c, TacticCard)})


def tactic_playable(state: State, card: TacticCard) -> bool:
    """Whether the player to move could play ``card`` now if it held it."""
    player = state.to_move
    if card is TacticCard.EXCHANGE:
        return state.hand_sizes[player] > EXCHANGED and state.hand_sizes[1 - player] >= EXCHANGED
    open_tiles = [t.number for t in state.tiles if t.room(player)]
    return bool(tactic_plays(state, card, open_tiles))


def siege_failed(state: State, after_attacker: bool) -> bool:
    """Whether nobody can change anything any more: neither player can play
    a card (for every hand consistent with what is known), and, after the
    defender's turn, the attacker has no control to declare. (The attacker
    may declare control during its own turn; at its end it has declined.)

    A public record that ends here saying the siege failed only needs hands
    consistent with what is known that play nothing (the deal check of the
    record then asks for such hands: see ``referee.schotten_totten_2.deals``).
    """
    chance = 1 if state.ply == state.siege_failed_at else 0  # may play / must play
    for player in (state.attacker, state.defender):
        if play_chances(state._as_turn_of(player))[chance]:
            return False
    return after_attacker or not claims.provable(state)


def openings(state: State) -> Sequence[Move]:
    """The opening actions of the player to move: retreats or oil throws."""
    attacker = state.attacker
    if state.to_move == attacker:
        mine = 0
        for tile in state.tiles:
            if tile.sides[attacker]:
                mine |= 1 << tile.number - 1
        return RETREATS[mine]
    if state.oil == 0:
        return ()
    return [_OILS[t.number - 1] for t in state.tiles if t.sides[attacker]]


def hand_choices(state: State, player: int) -> list[AnyCard]:
    """The distinct cards ``player`` may hold (every unseen one if hidden)."""
    if state.hand_sizes[player] == 0:
        return []
    hand = state.hands[player]
    if hand is not None:
        return list(dict.fromkeys(hand))
    available = state.rules.all_cards - state.visible_cards() - Counter(state.exchange or ())
    other = state.hands[1 - player]
    if other is not None:
        available -= Counter(other)
    tactics = state.tactics_in_hand(player)
    siege = state.hand_sizes[player] - tactics
    return [c for c in available if (tactics if isinstance(c, TacticCard) else siege) > 0]


def plays(state: State) -> list[Move]:
    """Every legal card play (siege card, troop or action) of the player to move."""
    player, opponent = state.to_move, 1 - state.to_move
    # a side is open exactly while it has no completion time (every state is checked for it)
    open_mask = 0
    for tile in state.tiles:
        if tile.completed[player] is None:
            open_mask |= 1 << tile.number - 1
    moves: list[Move] = []
    if not state.rules.tactics:
        # The base game: siege cards only (all different), each a ready-made row of plays.
        hand = state.hands[player]
        for card in hand_choices(state, player) if hand is None else hand:
            moves += _PLAY_ROWS[card][open_mask]
        return moves
    open_tiles = list(_NUMBERS_IN[open_mask])
    cards = hand_choices(state, player)
    tactic_ok = state.tactics_played[player] <= state.tactics_played[opponent]
    for card in cards:
        if isinstance(card, Card):
            row = _PLAYS_AT[card]
            moves.extend([row[n] for n in open_tiles])
        elif state.rules.tactics and tactic_ok:
            moves.extend(tactic_plays(state, card, open_tiles))
    return moves


def tactic_plays(state: State, card: TacticCard, open_tiles: list[int]) -> list[Move]:
    """Every play of ``card`` (an elite troop or an action card) by the player
    to move, ``open_tiles`` being the tiles where its side has room."""
    player, opponent = state.to_move, 1 - state.to_move
    if card.is_elite:
        row = _PLAYS_AT[card]
        return [row[n] for n in open_tiles]
    if card is TacticCard.REDEPLOY:
        mine = [(c, t.number) for t in state.tiles for c in dict.fromkeys(t.sides[player])]
        return [
            _REDEPLOYS[c, n, target]
            for c, n in mine
            for target in [*(m for m in open_tiles if m != n), None]
        ]
    siege = list(dict.fromkeys(c for c in state.discards if isinstance(c, Card)))
    if card is TacticCard.RECRUITMENT:
        return [_RECRUITMENTS[c, n] for c in siege for n in open_tiles]
    if card is TacticCard.DESERTION or card is TacticCard.TREASON:
        theirs = [(c, t.number) for t in state.tiles for c in dict.fromkeys(t.sides[opponent])]
        if card is TacticCard.DESERTION:
            return [_DESERTIONS[c, n] for c, n in theirs]
        return [_TREASONS[c, n, m] for c, n in theirs for m in open_tiles]
    if card is TacticCard.EXPLOSION:
        return [_EXPLOSIONS[t.number - 1] for t in state.tiles if t.sides[0] or t.sides[1]]
    if card is TacticCard.SUPPORT:
        all_siege = [c for c in state.discards if isinstance(c, Card)]
        if len(all_siege) < 2:
            return []
        return [_SUPPORTS[a, b] for a, b in combinations(siege, 2)]
    assert card is TacticCard.EXCHANGE
    hand = state.hands[player]
    if hand is None or state.hand_sizes[opponent] < EXCHANGED:
        return []
    rest = _grouped(hand)
    rest.remove(TacticCard.EXCHANGE)
    gives = dict.fromkeys(combinations(rest, EXCHANGED))
    return [Exchange((g[0], g[1], g[2])) for g in gives]


def _grouped(hand: Sequence[AnyCard]) -> list[AnyCard]:
    """``hand`` in its order, with equal cards (the two jokers) side by side,
    so that its combinations name each choice of cards once.

    >>> from referee.schotten_totten_2.wall import TacticCard
    >>> from referee.cards import Card
    >>> joker, r1 = TacticCard.JOKER, Card("R", 1)
    >>> [str(c) for c in _grouped([joker, r1, joker])]
    ['joker', 'joker', 'R1']
    """
    first = {card: n for n, card in reversed(list(enumerate(hand)))}
    return sorted(hand, key=first.__getitem__)


def exchange_replies(state: State) -> list[Move]:
    """The chooser's answers to a pending exchange: any 3 cards of its hand."""
    chooser = state.to_move
    hand = state.hands[chooser]
    if hand is not None:
        # every 3 cards of a known hand fit its counts; its few answers are
        # built once (a hidden hand's many are not kept)
        return [
            ExchangeReply((trio[0], trio[1], trio[2]))
            for trio in dict.fromkeys(combinations(_grouped(hand), EXCHANGED))
        ]
    available = state.rules.all_cards - state.visible_cards() - Counter(state.exchange or ())
    other = state.hands[1 - chooser]
    if other is not None:
        available -= Counter(other)
    pool = list(available.elements())
    tactics = state.tactics_in_hand(chooser)
    siege = state.hand_sizes[chooser] - tactics
    replies: list[Move] = []
    for trio in dict.fromkeys(combinations(pool, EXCHANGED)):
        wanted = sum(isinstance(c, TacticCard) for c in trio)
        if wanted <= tactics and EXCHANGED - wanted <= siege:
            replies.append(ExchangeReply((trio[0], trio[1], trio[2])))
    return replies


def dealt_shuffle(chance_seed: int, ply: int, size: int) -> Shuffle:
    """Where the deal (``chance_seed``) puts support's two cards at ``ply`` in a
    deck of ``size`` cards: uniform over every pair of places, the same in every
    run (a string seed is hashed the same way in every process)."""
    first, second = random.Random(f"{chance_seed}:{ply}").sample(range(1, size + 1), 2)
    return Shuffle((first, second))


def shuffles(size: int) -> list[Shuffle]:
    """Every place the two support cards may take in a deck of ``size`` cards."""
    return [Shuffle((a, b)) for a in range(1, size + 1) for b in range(1, size + 1) if a != b]
