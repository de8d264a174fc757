"""Full Schotten Totten states sampled from what one player sees.

A :meth:`~referee.schotten_totten.State.view` hides the opponent's hand and the
piles' order. :func:`determinize` fills them in: the cards nobody has seen (not
on the table, not discarded, not in a known hand) are shuffled uniformly into
the hidden hands (clan cards into clan slots, tactic cards into tactic slots:
the counts are public) and the piles. The result is a full state that any
player can play forward, and whose view is the view it came from.

>>> import random
>>> from referee.schotten_totten import new_game
>>> game = new_game(seed=3)
>>> view = game.view(0)
>>> view.hands[1], view.deck
(None, None)
>>> guess = determinize(view, random.Random(1))
>>> len(guess.hands[1]), len(guess.deck), guess.view(0) == view
(6, 42, True)
>>> guess = guess.play(guess.legal_moves()[0]).play("draw")
>>> guess.to_move
1

The cards a player put under a pile with the recruiter are known to it: they
stay in their places at the bottom of the pile (see ``State.under_piles``);
those the opponent put back are sampled like any unseen card.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TypeVar

from referee.cards import Card
from referee.game import check_rng, check_view
from referee.schotten_totten.state import CLAN_CARDS, State
from referee.schotten_totten.tactics import TACTIC_CARDS, AnyCard, Tactic

__all__ = ["determinize"]

_C = TypeVar("_C", Card, Tactic)

_CLAN_ORDER = CLAN_CARDS.cards


def determinize(view: State, rng: random.Random) -> State:
    """A full state consistent with ``view``, the unseen cards dealt uniformly.

    ``view`` is any state: hidden hands (``None``) and piles of unknown order
    (``None``) are filled; known ones are kept. The result is built from
    ``view`` alone (a view's history holds nothing its player has not seen), so
    it holds sampled cards, never the real ones. Raises ``ValueError`` if the
    counts in ``view`` cannot be met by the unseen cards, and ``TypeError`` if
    ``view`` is not a Schotten Totten state (another game's view, say) or
    ``rng`` not a ``random.Random``:

    >>> from referee import schotten_totten_2
    >>> determinize(schotten_totten_2.new_game(seed=1).view(0), random.Random(1))
    Traceback (most recent call last):
    ...
    TypeError: determinize takes a Schotten Totten view (state.view(player)) or state, not a referee.schotten_totten_2.state.State
    """
    check_rng(rng)
    check_view(view, State, "Schotten Totten")
    hands = view.hands
    clans = _unseen_clans(view)
    tactics = _unseen_tactics(view) if view.rules.tactics else []
    rng.shuffle(clans)
    rng.shuffle(tactics)
    # Deal the hidden hands first, then the piles take what is left.
    new_hands: list[tuple[AnyCard, ...] | None] = list(hands)
    for player, hand in enumerate(hands):
        if hand is None:
            new_hands[player] = _hidden_hand(view, player, clans, tactics)
    under_clan, under_tactic = view.under_piles
    deck: tuple[Card, ...] | None = view.deck
    if deck is None:
        clan_pile, under_clan = _pile(clans, under_clan, view.deck_size, "clan")
        deck = tuple(c for c in clan_pile if type(c) is Card)
    tactic_deck: tuple[Tactic, ...] | None = view.tactic_deck
    if tactic_deck is None:
        tactic_pile, under_tactic = _pile(tactics, under_tactic, view.tactic_deck_size, "tactic")
        tactic_deck = tuple(c for c in tactic_pile if type(c) is Tactic)
    return replace(
        view,
        hands=tuple(new_hands),
        deck=deck,
        tactic_deck=tactic_deck,
        under_piles=(under_clan, under_tactic),
    )


def _unseen_clans(view: State) -> list[Card]:
    """Every clan card not on the table, discarded or in a known hand or pile,
    nor put under a pile by this player (it knows those), in card order."""
    seen: set[AnyCard] = set()
    for stone in view.stones:
        for side in stone.sides:
            seen.update(side)
    seen.update(view.discards)
    for hand in view.hands:
        if hand is not None:
            seen.update(hand)
    if view.deck is not None:
        seen.update(view.deck)
    for pile in view.under_piles:
        seen.update(card for _, card in pile if not isinstance(card, str))
    return [card for card in _CLAN_ORDER if card not in seen]


def _unseen_tactics(view: State) -> list[Tactic]:
    """The tactic cards nobody can see (counted: there are two jokers)."""
    tactics = list(TACTIC_CARDS)
    used: list[AnyCard] = [c for c in view.discards if type(c) is Tactic]
    for stone in view.stones:
        if stone.style is not None:
            used.append(stone.style)
        for side in stone.sides:
            used.extend(c for c in side if type(c) is Tactic)
    for hand in view.hands:
        if hand is not None:
            used.extend(c for c in hand if type(c) is Tactic)
    if view.tactic_deck is not None:
        used.extend(view.tactic_deck)
    used.extend(card for _, card in view.under_piles[1] if type(card) is Tactic)
    for card in used:
        if card in tactics:
            tactics.remove(card)
    return tactics


def _hidden_hand(
    view: State, player: int, clans: list[Card], tactics: list[Tactic]
) -> tuple[AnyCard, ...]:
    """``player``'s hidden hand dealt from the end of the shuffled unseen cards
    (its counts of clan and tactic cards are public), taken from them."""
    n_tactics = view.hand_tactics[player]
    n_clans = view.hand_sizes[player] - n_tactics
    if n_clans > len(clans) or n_tactics > len(tactics):
        raise ValueError(
            f"cannot determinize: player {player + 1}'s hidden hand holds "
            f"{n_clans} clan and {n_tactics} tactic cards, but only "
            f"{len(clans)} and {len(tactics)} are unseen"
        )
    cut_c, cut_t = len(clans) - n_clans, len(tactics) - n_tactics
    dealt: list[AnyCard] = [*clans[cut_c:], *tactics[cut_t:]]
    del clans[cut_c:], tactics[cut_t:]
    return tuple(dealt)


def _pile(
    unseen: list[_C], under: tuple[tuple[int, AnyCard | str], ...], size: int, name: str
) -> tuple[list[_C | AnyCard], tuple[tuple[int, AnyCard | str], ...]]:
    """A pile of ``size`` cards: the (shuffled) ``unseen`` cards on top, then the
    cards put under it, those the player knows in their places and the others
    taken from the unseen; and the cards under it, all named."""
    known = sum(1 for _, card in under if not isinstance(card, str))
    if len(unseen) + known != size:
        raise ValueError(
            f"cannot determinize: {len(unseen)} {name} cards are unseen but the "
            f"{name} pile holds {size - known} cards this player does not know"
        )
    top = size - len(under)
    pile: list[_C | AnyCard] = list(unseen[:top])
    rest = iter(unseen[top:])
    named: list[tuple[int, AnyCard | str]] = []
    for player, card in under:
        if isinstance(card, str):
            card = next(rest)
        pile.append(card)
        named.append((player, card))
    return pile, tuple(named)
