"""How a Schotten Totten game starts: a deal from a seed or given piles
(:func:`new_game`), or a deal nobody knows, for public records
(:func:`public_game`).

>>> game = new_game(seed=1)
>>> game.to_move, len(game.hands[0]), game.deck_size
(0, 6, 42)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TypeVar

from referee.cards import Card
from referee.game import check_seed
from referee.schotten_totten.cards import CLAN_CARDS, INDEX, TACTIC_CARDS, Tactic
from referee.schotten_totten.state import Rules, State

__all__ = ["check_deck", "new_game", "public_game"]

_T = TypeVar("_T")


def new_game(
    *,
    seed: int | None = None,
    deck: Iterable[Card] | None = None,
    tactic_deck: Iterable[Tactic] | None = None,
    first: int = 0,
    rules: Rules | None = None,
) -> State:
    """Set up a game from a seed (shuffled piles) or explicit pile orders.

    The deal: player 0 takes the first 6 clan cards (7 with tactics), player 1
    the next ones, and the rest is the draw pile, top first. ``first`` is the
    player who moves first.

    >>> game = new_game(deck=CLAN_CARDS.cards)
    >>> [str(c) for c in game.hands[0]], str(game.deck[0])
    (['R1', 'R2', 'R3', 'R4', 'R5', 'R6'], 'O4')
    """
    rules = _check_setup(first, rules)
    piles = None if deck is None and tactic_deck is None else (deck, tactic_deck)
    check_seed(seed, given=piles, what="the piles")
    rng = random.Random(seed)
    if deck is None:
        order = list(CLAN_CARDS.cards)
        rng.shuffle(order)
    else:
        order = _listed(deck, "deck")
        check_deck(order)
    tactics: list[Tactic] = []
    if rules.tactics:
        if tactic_deck is None:
            tactics = list(TACTIC_CARDS)
            rng.shuffle(tactics)
        else:
            tactics = _listed(tactic_deck, "tactic_deck")
            if any(type(t) is not Tactic for t in tactics) or sorted(tactics) != sorted(
                TACTIC_CARDS
            ):
                raise ValueError(
                    "the tactic pile must hold the 10 tactic cards: joker twice and one each of "
                    "the others"
                )
    elif tactic_deck is not None and _listed(tactic_deck, "tactic_deck"):
        raise ValueError("a tactic pile is given but the rules play without tactics")
    return State._dealt(rules, order, tactics, to_move=first)


def public_game(*, first: int = 0, rules: Rules | None = None) -> State:
    """The start of a game whose deal is unknown (for public records).

    Both hands and the piles are hidden; only their sizes are known.

    >>> start = public_game()
    >>> start.hands, start.hand_sizes, start.deck_size
    ((None, None), (6, 6), 42)
    """
    rules = _check_setup(first, rules)
    tactics = len(TACTIC_CARDS) if rules.tactics else 0
    return State._hidden_deal(rules, len(CLAN_CARDS.cards), tactics, to_move=first)


def _listed(items: Iterable[_T], name: str) -> list[_T]:
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise ValueError(f"{name} must be a sequence of cards, not {items!r}")
    return list(items)


def _check_setup(first: object, rules: object) -> Rules:
    """The keywords every set-up takes, refused at once when they are wrong."""
    if type(first) is not int or first not in (0, 1):
        raise ValueError(f"first must be 0 or 1, not {first!r}")
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a schotten_totten.Rules, not {rules!r}")
    return rules


def check_deck(order: Sequence[Card]) -> None:
    """Raise ``ValueError`` unless ``order`` holds each of the 54 clan cards once."""
    clan_set = INDEX.ids
    unknown = [c for c in order if type(c) is not Card or type(c.value) is not int]
    unknown += [c for c in order if c not in clan_set]
    if unknown:
        raise ValueError(f"the deck holds cards that are not clan cards: {unknown[0]}")
    if len(order) != len(CLAN_CARDS.cards) or len(set(order)) != len(order):
        missing = sorted(set(clan_set) - set(order))
        repeated = sorted({c for c in order if order.count(c) > 1})
        problems = []
        if missing:
            problems.append("missing " + " ".join(map(str, missing[:5])))
        if repeated:
            problems.append("repeated " + " ".join(map(str, repeated[:5])))
        raise ValueError(
            "the deck must hold each of the 54 clan cards once: " + "; ".join(problems)
        )
