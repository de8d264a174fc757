"""Full Schotten Totten 2 states sampled from what one player sees.

A :meth:`~referee.schotten_totten_2.State.view` hides the opponent's hand, the
order of both piles, the deal's :attr:`~referee.schotten_totten_2.State.chance_seed`
and, from the player answering an exchange, the three cards offered.
:func:`determinize` fills them in, uniformly over what that player cannot tell
apart: the cards nobody has seen (not on the wall, not discarded, not played as
an action, not in a known hand) are shuffled into the hidden hands (siege cards
into siege slots, tactic cards into tactic slots: ``hand_tactics`` is public)
and the piles, and a fresh ``chance_seed`` is drawn, so that a simulation
samples where a later support's cards land. The result is a full state that
any player can play forward, and its view is the view it came from.

>>> import random
>>> from referee.schotten_totten_2 import Rules, new_game
>>> game = new_game(seed=3, rules=Rules(tactics=True))
>>> view = game.view(0)
>>> view.hands[1], view.deck, view.tactic_deck
(None, None, None)
>>> guess = determinize(view, random.Random(1))
>>> len(guess.hands[1]), len(guess.deck), len(guess.tactic_deck), guess.view(0) == view
(7, 46, 11, True)
>>> guess.play(guess.legal_moves()[-1]).to_move == game.to_move
True

What the view's history tells is used too (the history a view carries, when the
game was played from its start):

* cards that went into a hidden hand through an exchange (both offer and answer
  are public moves) are dealt to that hand while it may still hold them (until
  it plays or gives them away);
* support's two cards went into the deck at places nobody saw: each one still
  unseen is given a place uniformly among those the siege draws since cannot
  rule out (a place drawn by a known hand would have shown it); a place drawn
  by a hidden hand puts it in that hand, a deeper one in the deck at that depth.

Not modelled: whether a card drawn or received by a hidden hand was played
since is not weighed (a card still unseen is taken to be still held).
"""

from __future__ import annotations

import random
from collections import Counter

from referee.cards import Card
from referee.game import History, check_rng, check_view
from referee.schotten_totten_2.moves import (
    Desertion,
    Draw,
    EndTurn,
    Exchange,
    ExchangeReply,
    Explosion,
    Move,
    PlayCard,
    Recruitment,
    Redeploy,
    Shuffle,
    Support,
    Treason,
)
from referee.schotten_totten_2.state import Phase, State, _evolve
from referee.schotten_totten_2.wall import SIEGE_CARDS, TACTIC_CARDS, AnyCard, TacticCard

__all__ = ["determinize"]

_SIEGE: tuple[Card, ...] = SIEGE_CARDS.cards
_TACTICS: tuple[TacticCard, ...] = TACTIC_CARDS
_ACTION_CARD: dict[type, TacticCard] = {
    Redeploy: TacticCard.REDEPLOY,
    Recruitment: TacticCard.RECRUITMENT,
    Desertion: TacticCard.DESERTION,
    Treason: TacticCard.TREASON,
    Explosion: TacticCard.EXPLOSION,
    Support: TacticCard.SUPPORT,
}


class _Clues:
    """What a view's history tells about hidden cards (see the module's notes)."""

    __slots__ = ("draws", "held", "support")

    def __init__(self) -> None:
        #: per player: cards it received in an exchange and may still hold
        self.held: tuple[Counter[AnyCard], Counter[AnyCard]] = (Counter(), Counter())
        #: support's two cards, once shuffled in (``None``: no support yet)
        self.support: tuple[Card, ...] | None = None
        #: who made each siege draw since support's shuffle, first to last
        self.draws: list[int] = []


def _read_history(view: State) -> _Clues | None:
    """Walk the view's history for exchanges and a support (``None``: nothing to learn).

    Read anew each time (about 12 µs where an exchange or a support was
    played, some 3% of a determinization and a playout); nothing is kept
    between calls.
    """
    played = (*view.actions[0], *view.actions[1])
    if TacticCard.EXCHANGE not in played and TacticCard.SUPPORT not in played:
        return None
    # A view's history starts from the start as a spectator sees it (who moved
    # first, and in which phase): all the walk needs, and all it may read.
    start, _hidden = view.past.origin()
    return None if not isinstance(start, State) else _walk(start, view.past.moves())


def _walk(start: State, moves: tuple[Move, ...]) -> _Clues:
    clues = _Clues()
    held = clues.held
    draws = clues.draws
    turn = 1 - start.to_move if start.phase is Phase.EXCHANGE else start.to_move
    offer: tuple[int, tuple[AnyCard, ...]] | None = None
    pending: tuple[Card, ...] | None = None
    # Nothing is learnt before the first exchange or support: skip there (in C),
    # the turn having passed at each draw and each "done" before it.
    kinds = list(map(type, moves))
    first = min(kinds.index(k) if k in kinds else len(kinds) for k in (Exchange, Support))
    skipped = kinds[:first]
    turn ^= (skipped.count(Draw) + skipped.count(EndTurn)) & 1
    support: tuple[Card, ...] | None = None
    for move in moves[first:]:
        kind = type(move)
        if kind is PlayCard:
            card = move.card  # type: ignore[union-attr]
            if card in held[turn]:
                _take(held[turn], (card,))
        elif kind is Draw:
            if support is not None and move.pile == "siege":  # type: ignore[union-attr]
                draws.append(turn)
            turn = 1 - turn
        elif kind is EndTurn:
            turn = 1 - turn
        elif kind is Exchange:
            offer = (turn, move.give)  # type: ignore[union-attr]
        elif kind is ExchangeReply:
            if offer is not None:
                giver, given = offer
                answer = move.give  # type: ignore[union-attr]
                _take(held[giver], given)
                _take(held[1 - giver], answer)
                held[1 - giver].update(given)
                held[giver].update(answer)
                offer = None
        elif kind is Shuffle:
            if pending is not None:
                support, pending = pending, None
        elif kind in _ACTION_CARD:
            action = _ACTION_CARD[kind]
            if action in held[turn]:
                _take(held[turn], (action,))
            if kind is Support:
                pending = tuple(c for c in move.cards if type(c) is Card)  # type: ignore[union-attr]
    clues.support = support
    return clues


def _take(held: Counter[AnyCard], cards: tuple[AnyCard, ...]) -> None:
    """``cards`` left a hand: it no longer holds them (if it was known to)."""
    for card in cards:
        left = held.get(card, 0) - 1
        if left > 0:
            held[card] = left
        else:
            held.pop(card, None)


def determinize(view: State, rng: random.Random) -> State:
    """A full state consistent with ``view``, the unseen cards dealt uniformly.

    ``view`` is any state: hidden hands (``None``), piles of unknown order
    (``None``) and a hidden exchange offer are filled; known ones are kept. A
    fresh ``chance_seed`` is drawn from ``rng``. The result is built from
    ``view`` alone (a view's history holds nothing its player has not seen), so
    it holds sampled cards, never the real ones. Raises ``ValueError`` if the
    counts in ``view`` cannot be met by the unseen cards, and ``TypeError`` if
    ``view`` is not a Schotten Totten 2 state (another game's view, say) or
    ``rng`` not a ``random.Random``:

    >>> determinize({"hands": []}, random.Random(1))
    Traceback (most recent call last):
    ...
    TypeError: determinize takes a Schotten Totten 2 view (state.view(player)) or state, not dict {'hands': []}
    """
    check_rng(rng)
    check_view(view, State, "Schotten Totten 2")
    counts = view.hand_tactics
    if counts is None:
        raise ValueError("cannot determinize: the tactic cards in the hidden hands are not known")
    seen, reserved = _known_cards(view)
    seen_siege, tactics = _unseen_pool(view, seen)
    clues = _read_history(view)
    deck_at: dict[int, Card] = {}
    if clues is not None:
        _reserve_held(view, clues, seen_siege, tactics, reserved)
        if clues.support is not None and view.deck is None:
            _place_support(view, clues, seen_siege, reserved, deck_at, rng)
    siege = [c for c in _SIEGE if c not in seen_siege]
    rng.shuffle(siege)
    rng.shuffle(tactics)
    hands = _deal_hands(view, counts, reserved, siege, tactics, rng)
    deck = _siege_deck(view, siege, deck_at) if view.deck is None else view.deck
    tactic_deck = _tactic_pile(view, tactics) if view.tactic_deck is None else view.tactic_deck
    exchange, past = _hidden_offer(view, hands, rng)
    return _evolve(
        view,
        hands=hands,
        deck=deck,
        tactic_deck=tactic_deck,
        exchange=exchange,
        chance_seed=rng.getrandbits(32),
        past=past,
    )


_Hands = tuple[tuple[AnyCard, ...] | None, tuple[AnyCard, ...] | None]


def _known_cards(view: State) -> tuple[list[AnyCard], list[list[AnyCard]]]:
    """What the view knows: every card on the wall, discarded, played as an
    action or known to lie somewhere (a known hand or pile, support's pair),
    and the cards each hidden hand is known to hold (so far: the offer it
    made, while the view's player must answer it)."""
    hands = view.hands
    seen: list[AnyCard] = [*view.discards, *view.actions[0], *view.actions[1]]
    for tile in view.tiles:
        seen += tile.sides[0]
        seen += tile.sides[1]
    for known in (*hands, view.deck, view.tactic_deck, view.support):
        if known:
            seen += known
    reserved: list[list[AnyCard]] = [[], []]
    offerer = 1 - view.to_move
    if view.exchange is not None and hands[offerer] is None:
        reserved[offerer] += view.exchange
        seen += view.exchange
    return seen, reserved


def _unseen_pool(view: State, seen: list[AnyCard]) -> tuple[set[Card], list[AnyCard]]:
    """The siege cards accounted for (every other one is unseen), and the
    unseen tactic cards (none in the base game)."""
    seen_siege = {c for c in seen if type(c) is Card}
    tactics: list[AnyCard] = list(_TACTICS) if view.rules.tactics else []
    for card in seen:
        if type(card) is TacticCard and card in tactics:
            tactics.remove(card)
    return seen_siege, tactics


def _reserve_held(
    view: State,
    clues: _Clues,
    seen_siege: set[Card],
    tactics: list[AnyCard],
    reserved: list[list[AnyCard]],
) -> None:
    """Keep for each hidden hand the unseen cards an exchange gave it and it
    may still hold (taken out of the unseen pool)."""
    for player in (0, 1):
        if view.hands[player] is not None:
            continue
        for card, count in clues.held[player].items():
            for _ in range(count):
                if type(card) is Card and card not in seen_siege:
                    seen_siege.add(card)
                elif type(card) is TacticCard and card in tactics:
                    tactics.remove(card)
                else:
                    continue
                reserved[player].append(card)


def _deal_hands(
    view: State,
    counts: tuple[int, int],
    reserved: list[list[AnyCard]],
    siege: list[Card],
    tactics: list[AnyCard],
    rng: random.Random,
) -> _Hands:
    """The hands, each hidden one dealt its reserved cards and the rest of its
    siege and tactic slots from the ends of the shuffled ``siege`` and
    ``tactics`` (which lose them)."""
    hands = view.hands
    new_hands = list(hands)
    for player, hand in enumerate(hands):
        if hand is not None:
            continue
        mine = reserved[player]
        n_tactics = counts[player] - sum(type(c) is TacticCard for c in mine)
        n_siege = view.hand_sizes[player] - counts[player] - sum(type(c) is Card for c in mine)
        if n_siege < 0 or n_tactics < 0 or n_siege > len(siege) or n_tactics > len(tactics):
            raise ValueError(
                f"cannot determinize: player {player + 1}'s hidden hand holds "
                f"{view.hand_sizes[player] - counts[player]} siege and {counts[player]} "
                f"tactic cards, but only {len(siege)} and {len(tactics)} are unseen"
            )
        cut_s, cut_t = len(siege) - n_siege, len(tactics) - n_tactics
        dealt = [*mine, *siege[cut_s:], *tactics[cut_t:]]
        del siege[cut_s:], tactics[cut_t:]
        if mine:
            rng.shuffle(dealt)  # no slot tells how a card came
        new_hands[player] = tuple(dealt)
    return new_hands[0], new_hands[1]


def _siege_deck(view: State, siege: list[Card], deck_at: dict[int, Card]) -> tuple[Card, ...]:
    """The hidden siege deck: the unseen siege cards left, with support's cards
    at the depths ``deck_at`` gives them."""
    if len(siege) + len(deck_at) != view.deck_size:
        raise ValueError(
            f"cannot determinize: {len(siege) + len(deck_at)} unseen siege cards are "
            f"left for the deck, but it holds {view.deck_size}"
        )
    if not deck_at:
        return tuple(siege)
    rest = iter(siege)
    return tuple(deck_at[i] if i in deck_at else next(rest) for i in range(1, view.deck_size + 1))


def _tactic_pile(view: State, tactics: list[AnyCard]) -> tuple[TacticCard, ...]:
    """The hidden tactic pile: the unseen tactic cards left."""
    if len(tactics) != view.tactic_deck_size:
        raise ValueError(
            f"cannot determinize: {len(tactics)} unseen tactic cards are left for "
            f"the tactic pile, but it holds {view.tactic_deck_size}"
        )
    return tuple(c for c in tactics if type(c) is TacticCard)


def _hidden_offer(
    view: State, hands: _Hands, rng: random.Random
) -> tuple[tuple[AnyCard, AnyCard, AnyCard] | None, History[Move]]:
    """The exchange offer and the history: in the answering player's view the
    offer is hidden, so any 3 cards of the offering hand are offered (its
    history ends before the offer: the sampled offer is played there)."""
    exchange = view.exchange
    past = view.past
    if view.phase is Phase.EXCHANGE and exchange is None:
        hand = hands[1 - view.to_move]
        assert hand is not None
        offer = rng.sample(hand, 3)
        exchange = (offer[0], offer[1], offer[2])
        if len(past) == view.ply - 1:
            past = past.push(Exchange(exchange))
    return exchange, past


def _place_support(
    view: State,
    clues: _Clues,
    seen_siege: set[Card],
    reserved: list[list[AnyCard]],
    deck_at: dict[int, Card],
    rng: random.Random,
) -> None:
    """Give each unseen support card a place at the shuffle (see the module's notes)."""
    draws = clues.draws
    size = view.deck_size + len(draws)
    # Places a known hand drew would have shown the card.
    open_places = [
        q for q in range(1, size + 1) if q > len(draws) or view.hands[draws[q - 1]] is None
    ]
    assert clues.support is not None
    counts = view.hand_tactics
    assert counts is not None
    room = [  # siege slots of each hidden hand not yet taken
        view.hand_sizes[p] - counts[p] - sum(type(c) is Card for c in reserved[p])
        if view.hands[p] is None
        else 0
        for p in (0, 1)
    ]
    for card in clues.support:
        if card in seen_siege or not open_places:
            continue
        place = open_places.pop(rng.randrange(len(open_places)))
        if place > len(draws):
            deck_at[place - len(draws)] = card
        elif room[draws[place - 1]] > 0:
            who = draws[place - 1]
            room[who] -= 1
            reserved[who].append(card)
        else:
            continue  # no room left: dealt like any unseen card
        seen_siege.add(card)
