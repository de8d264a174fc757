"""The legal moves of a Schotten Totten position, in a fixed order.

First the claims the mover can prove now (stone order), then, at the start of
a turn, the plays: each clan card of the hand (hand order, once per card) at
each stone with room on the mover's side, then each tactic card the tactic
limit allows (hand order): an elite troop at those stones, a combat style at
each unclaimed stone without one, a ruse by its own moves; then ``pass`` when
no clan card can be laid. After a card: ``draw`` (with tactics, from each pile
with cards) or ``done`` when the piles are empty; after a pass or the
recruiter: ``done``; right after the recruiter's draws: the cards it may put
back. A hidden hand (a view) is offered every card it may hold.

>>> from referee.schotten_totten import new_game
>>> moves = legal_moves(new_game(seed=5))
>>> len(moves), str(moves[0]), str(moves[-1])
(54, 'O3@1', 'G1@9')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import overload

from referee.cards import Card
from referee.game import LegalMoves
from referee.line.tactics import JOKER
from referee.schotten_totten import claims as claims_module
from referee.schotten_totten import tactics
from referee.schotten_totten.cards import CARDS, STONES, TACTIC_CARDS, AnyCard, Tactic
from referee.schotten_totten.hands import could_hold
from referee.schotten_totten.moves import (
    Banshee,
    Draw,
    EndTurn,
    Move,
    Pass,
    PlayCard,
    PutBack,
    Recruit,
    Strategist,
    Traitor,
)
from referee.schotten_totten.state import ALL_STONES, STONES_IN, Phase, State, claims_now

__all__ = ["PLAYS", "Plays", "legal_moves", "legal_sequence", "legal_view"]

#: Each card's play at stones 1-9 (index: the card, then the stone - 1): moves
#: are immutable values, so the common ones are made once, as data.
_PLAYS: dict[AnyCard, tuple[PlayCard, ...]] = {
    card: tuple(PlayCard(card, n) for n in range(1, STONES + 1)) for card in CARDS
}
#: The same, read-only (the rules read ``_PLAYS``; a caller cannot change it).
PLAYS: Mapping[AnyCard, tuple[PlayCard, ...]] = MappingProxyType(_PLAYS)
_PASS, _DRAW, _END_TURN = Pass(), Draw(), EndTurn()
_DRAW_CLAN, _DRAW_TACTIC = Draw("clan"), Draw("tactic")
_PLAY, _AFTER_PLAY, _RECRUIT_RETURN = Phase.PLAY, Phase.AFTER_PLAY, Phase.RECRUIT_RETURN


def legal_moves(state: State) -> list[Move]:
    """Every legal move of the player to move, in the order above (a new list)."""
    found = legal_sequence(state)
    return found if type(found) is list else list(found)


def legal_view(state: State) -> LegalMoves[Move]:
    """What ``State.legal_moves`` returns: at the start of a turn without
    tactic cards, with the hand known, :class:`Plays` (made at once, its moves
    when asked for); otherwise a :class:`~referee.game.LegalMoves` that lists
    :func:`legal_sequence` when first asked."""
    if state.phase is _PLAY and state.outcome is None and not state.rules.tactics:
        hand = state.hands[state.to_move]
        if hand:
            return _plain_start(state, hand)
    return LegalMoves(state._legal_sequence)


def legal_sequence(state: State) -> Sequence[Move]:
    """:func:`legal_moves` as a sequence whose moves are made only when asked
    for: at the start of a turn without tactic cards, with the hand known,
    :class:`Plays`; otherwise the list."""
    if state.outcome is not None:
        return []
    phase, rules = state.phase, state.rules
    if phase is _PLAY and not rules.tactics:
        hand = state.hands[state.to_move]
        if hand:
            return _plain_start(state, hand)
    if phase is _RECRUIT_RETURN:
        return [PutBack(back) for back in tactics.put_back_options(state)]
    moves: list[Move] = [*claims_module.provable(state)] if claims_now(rules, phase) else []
    if phase is _PLAY:
        claimed = bool(moves)
        moves += card_plays(state)
        if not state.can_play_card() and not (claimed and state.rules.early_bird):
            moves.append(_PASS)
        return moves
    if phase is Phase.AFTER_PASS and moves:
        return moves  # a turn with a pass claims what it can before it ends
    if phase is _AFTER_PLAY and state.deck_size + state.tactic_deck_size > 0:
        if not state.rules.tactics:
            moves.append(_DRAW)
        else:
            if state.deck_size:
                moves.append(_DRAW_CLAN)
            if state.tactic_deck_size:
                moves.append(_DRAW_TACTIC)
    else:
        moves.append(_END_TURN)
    return moves


class Plays(LegalMoves[Move]):
    """The legal moves at the start of a turn without tactic cards: the claims
    provable now, each clan card of the hand at each stone with room (card by
    card, stone by stone), then ``pass`` when no card can be laid. A move is
    taken from :data:`PLAYS` when it is asked for (``random.choice`` asks for
    one), so a position's plays are never all made for nothing. It is the
    :class:`~referee.game.LegalMoves` that ``State.legal_moves`` returns there
    (``len``, indexing, iteration and ``in`` read it directly).

    >>> from referee.schotten_totten import new_game
    >>> plays = legal_sequence(new_game(seed=5))
    >>> type(plays).__name__, len(plays), str(plays[0]), str(plays[-1]), plays[1:3]
    ('Plays', 54, 'O3@1', 'G1@9', [parse_move('O3@2'), parse_move('O3@3')])
    """

    __slots__ = ("_cards", "_claims", "_open", "_plays", "_size", "_tail")

    def __init__(
        self,
        claims: list[Move],
        cards: Sequence[AnyCard],
        open_at: Sequence[int],
        tail: list[Move],
    ) -> None:
        self._claims = claims
        self._cards = cards  # each once, in hand order
        self._open = open_at
        self._tail = tail
        self._plays = len(cards) * len(open_at)
        self._size = len(claims) + self._plays + len(tail)

    def _list(self) -> Sequence[Move]:
        return self  # the moves are read in place (LegalMoves reads this)

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    def __contains__(self, move: object) -> bool:
        return any(move == found for found in self)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return list(self)[index]
        at = index + self._size if index < 0 else index
        if not 0 <= at < self._size:
            raise IndexError("legal move index out of range")
        claims = len(self._claims)
        if at < claims:
            return self._claims[at]
        at -= claims
        if at < self._plays:
            row, stone = divmod(at, len(self._open))
            return _PLAYS[self._cards[row]][self._open[stone]]
        return self._tail[at - self._plays]

    def __iter__(self) -> Iterator[Move]:
        yield from self._claims
        for card in self._cards:
            row = _PLAYS[card]
            for stone in self._open:
                yield row[stone]
        yield from self._tail


def _plain_start(state: State, hand: Sequence[AnyCard]) -> Plays:
    """The moves of a turn's start without tactic cards, the hand known."""
    claims: list[Move] = [*claims_module.provable(state)] if claims_now(state.rules, _PLAY) else []
    open_at = STONES_IN[state.open_sides >> 9 * state.to_move & ALL_STONES]
    cards = [*dict.fromkeys(hand)]
    # Pass only when no clan card can be laid (State.can_play_card).
    tail: list[Move] = []
    if not open_at and not (claims and state.rules.early_bird):
        tail.append(_PASS)
    return Plays(claims, cards, open_at, tail)


def card_plays(state: State) -> list[Move]:
    """The plays of the turn's first step: cards at stones, and ruses."""
    player = state.to_move
    if state.hand_sizes[player] == 0:
        return []
    held = _held(state, player)
    open_at = STONES_IN[state.open_sides >> 9 * player & ALL_STONES]
    plays = _PLAYS
    # Clan-card plays come ready made, one per card and stone.
    moves: list[Move] = [
        row[i] for row in [plays[c] for c in held if type(c) is Card] for i in open_at
    ]
    if not state.may_play_tactic():
        return moves
    for card in held:
        if type(card) is not Tactic or (card == JOKER and state.jokers_played[player]):
            continue
        if card.kind == "elite":
            row = plays[card]
            moves.extend(row[i] for i in open_at)
        elif card.kind == "style":
            row = plays[card]
            moves.extend(
                row[i] for i, s in enumerate(state.stones) if s.owner is None and s.style is None
            )
        else:
            moves.extend(ruse_moves(state, card.name))
    return moves


def _held(state: State, player: int) -> Sequence[AnyCard]:
    """The cards ``player`` may play from: its hand (each card once), or every
    card a hidden hand may hold."""
    hand = state.hands[player]
    if hand is not None:
        return list(dict.fromkeys(hand))
    tactic_cards: list[AnyCard] = []
    if state.hand_tactics[player] > 0:
        tactic_cards = [t for t in dict.fromkeys(TACTIC_CARDS) if could_hold(state, t)]
    clans: list[AnyCard] = []
    if state.clans_in_hand(player) > 0:
        clans = list(state.unseen_cards())
    return [*clans, *tactic_cards]


def ruse_moves(state: State, name: str) -> list[Move]:
    """The moves of the ruse ``name`` (its card in hand and allowed)."""
    player, opponent = state.to_move, 1 - state.to_move
    unclaimed = [(i + 1, s) for i, s in enumerate(state.stones) if s.owner is None]
    if name == "banshee":
        return [Banshee(c, n) for n, s in unclaimed for c in dict.fromkeys(s.sides[opponent])]
    if name == "traitor":
        return [
            Traitor(c, n, m)
            for n, s in unclaimed
            for c in dict.fromkeys(s.sides[opponent])
            if type(c) is Card
            for m, t in unclaimed
            if t.room(player)
        ]
    if name == "strategist":
        return [
            Strategist(c, n, m)
            for n, s in unclaimed
            for c in dict.fromkeys(s.sides[player])
            for m in (None, *(m for m, t in unclaimed if m != n and t.room(player)))
        ]
    return [Recruit(draws) for draws in tactics.recruit_draws(state)]
