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

Not modelled: cards a player put back under a pile with the recruiter are known
to it, but a view does not say where they lie, so they are sampled like any
unseen card.
"""

from __future__ import annotations

import random
from dataclasses import replace

from referee.cards import Card
from referee.schotten_totten.state import CLAN_CARDS, State
from referee.schotten_totten.tactics import TACTIC_CARDS, AnyCard, Tactic

__all__ = ["determinize"]

_CLAN_ORDER = CLAN_CARDS.cards


def determinize(view: State, rng: random.Random) -> State:
    """A full state consistent with ``view``, the unseen cards dealt uniformly.

    ``view`` is any state: hidden hands (``None``) and piles of unknown order
    (``None``) are filled; known ones are kept. Raises ``ValueError`` if the
    counts in ``view`` cannot be met by the unseen cards.
    """
    hands = view.hands
    # Clan cards: every card not on the table, discarded or in a known hand/pile.
    seen: set[AnyCard] = set()
    for stone in view.stones:
        for side in stone.sides:
            seen.update(side)
    seen.update(view.discards)
    for hand in hands:
        if hand is not None:
            seen.update(hand)
    if view.deck is not None:
        seen.update(view.deck)
    clans = [card for card in _CLAN_ORDER if card not in seen]
    # Tactic cards are counted (two jokers).
    tactics = list(TACTIC_CARDS) if view.rules.tactics else []
    if tactics:
        used: list[AnyCard] = [c for c in view.discards if type(c) is Tactic]
        for stone in view.stones:
            if stone.style is not None:
                used.append(stone.style)
            for side in stone.sides:
                used.extend(c for c in side if type(c) is Tactic)
        for hand in hands:
            if hand is not None:
                used.extend(c for c in hand if type(c) is Tactic)
        if view.tactic_deck is not None:
            used.extend(view.tactic_deck)
        for card in used:
            if card in tactics:
                tactics.remove(card)
    rng.shuffle(clans)
    rng.shuffle(tactics)
    # Deal the hidden hands first, then the piles take what is left.
    new_hands: list[tuple[AnyCard, ...] | None] = list(hands)
    for player, hand in enumerate(hands):
        if hand is not None:
            continue
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
        new_hands[player] = tuple(dealt)
    deck: tuple[Card, ...] | None = view.deck
    if deck is None:
        if len(clans) != view.deck_size:
            raise ValueError(
                f"cannot determinize: {len(clans)} clan cards are unseen but the "
                f"clan pile holds {view.deck_size}"
            )
        deck = tuple(c for c in clans if type(c) is Card)
    tactic_deck: tuple[Tactic, ...] | None = view.tactic_deck
    if tactic_deck is None:
        if len(tactics) != view.tactic_deck_size:
            raise ValueError(
                f"cannot determinize: {len(tactics)} tactic cards are unseen but the "
                f"tactic pile holds {view.tactic_deck_size}"
            )
        tactic_deck = tuple(tactics)
    return replace(view, hands=tuple(new_hands), deck=deck, tactic_deck=tactic_deck)
