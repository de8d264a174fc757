"""How a Schotten Totten 2 game starts: a deal from a seed or given piles
(:func:`new_game`), or a deal nobody knows, for public records
(:func:`public_game`).

>>> game = new_game(seed=1)
>>> game.to_move == game.attacker, len(game.hands[0]), game.deck_size
(True, 6, 48)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from referee.cards import Card
from referee.game import NO_HISTORY, History, check_seed
from referee.schotten_totten_2.made import evolve
from referee.schotten_totten_2.state import Rules, State
from referee.schotten_totten_2.wall import (
    ALL_SIEGE,
    SIEGE_CARDS,
    TACTIC_CARDS,
    TACTIC_COUNT,
    TacticCard,
)

__all__ = ["new_game", "public_game"]

#: The types of the cards a pile may hold.
_CARD_TYPES = frozenset({Card, TacticCard})


def new_game(
    *,
    seed: int | None = None,
    deck: Iterable[Card] | None = None,
    tactic_deck: Iterable[TacticCard] | None = None,
    attacker: int = 0,
    rules: Rules | None = None,
) -> State:
    """Set up a game from a seed (shuffled piles) or explicit pile orders.

    The deal: player 0 takes the first 6 siege cards (7 with tactics), player 1
    the next 6 (7), and the rest is the siege deck, top first. The attacker
    moves first and the defender holds the 3 oil cauldrons.

    >>> game = new_game(deck=SIEGE_CARDS.cards, attacker=1)
    >>> [str(c) for c in game.hands[0]], str(game.deck[0]), game.to_move
    (['R0', 'R1', 'R2', 'R3', 'R4', 'R5'], 'Y0', 1)
    >>> new_game(attacker=1.0)
    Traceback (most recent call last):
    ...
    ValueError: attacker must be 0 or 1, not 1.0
    """
    rules = _check_rules(rules)
    piles = None if deck is None and tactic_deck is None else (deck, tactic_deck)
    check_seed(seed, given=piles, what="the pile orders")
    _check_attacker(attacker)
    for name, pile in (("deck", deck), ("tactic_deck", tactic_deck)):
        if pile is not None and (isinstance(pile, (str, bytes)) or not isinstance(pile, Iterable)):
            raise ValueError(f"{name} must be a sequence of cards, not {pile!r}")
    # a replay deals from given piles: no generator is seeded (from the
    # system's entropy) unless a pile is left to shuffle
    rng: random.Random | None = None
    if deck is None:
        rng = random.Random(seed)
        order = list(SIEGE_CARDS.cards)
        rng.shuffle(order)
    else:
        order = list(deck)
        _check_pile(order, ALL_SIEGE, "the siege deck", "60 siege cards")
    tactics: list[TacticCard] = []
    if rules.tactics:
        if tactic_deck is None:
            if rng is None:
                rng = random.Random(seed)
            tactics = list(TACTIC_CARDS)
            rng.shuffle(tactics)
        else:
            tactics = list(tactic_deck)
            _check_pile(tactics, TACTIC_COUNT, "the tactic pile", "11 tactic cards")
    elif tactic_deck is not None and list(tactic_deck):
        raise ValueError("the base game has no tactic pile")
    # the deal's chance comes from the rng that dealt (0 when the piles are given)
    chance_seed = rng.getrandbits(32) if deck is None and rng is not None else 0
    return _trusted_deal(rules, order, tactics, attacker, chance_seed)


def _model(rules: Rules, attacker: int) -> State:
    """The deal of the piles in card order, checked once (at import)."""
    return State._dealt(
        rules,
        list(SIEGE_CARDS.cards),
        list(TACTIC_CARDS) if rules.tactics else [],
        attacker=attacker,
        to_move=attacker,
        chance_seed=0,
    )


#: [tactics][attacker] -> the game dealt from the piles in card order, checked
#: (data, made at import: states are immutable).
_MODELS = tuple(
    tuple(_model(Rules(tactics=tactics), attacker) for attacker in (0, 1))
    for tactics in (False, True)
)


def _trusted_deal(
    rules: Rules, order: list[Card], tactics: list[TacticCard], attacker: int, chance_seed: int
) -> State:
    """The start of a game dealt from piles that hold every card once (checked
    by :func:`new_game`): what ``State._dealt`` builds, without checking the
    position again. Every such deal is well formed and differs from the deal
    of the piles in card order (built and checked once) only in the order of
    the hands and piles, so it is that deal with them replaced."""
    model = _MODELS[rules.tactics][attacker]
    size = rules.hand_size
    hands = (tuple(order[:size]), tuple(order[size : 2 * size]))
    state = evolve(
        model,
        hands=hands,
        deck=tuple(order[2 * size :]),
        tactic_deck=tuple(tactics),
        chance_seed=chance_seed,
        past=NO_HISTORY,
    )
    return evolve(state, past=History.begin(state))


def public_game(
    *, attacker: int = 0, rules: Rules | None = None, siege_failed_at: int | None = None
) -> State:
    """The start of a game whose deal is unknown (for public records).

    ``siege_failed_at``: the record ends after that many plies saying the
    siege failed. A pass that ends the record there ends the game as a failed
    siege when some hands consistent with what is known play nothing (a replay
    that sees no hand cannot tell otherwise; the record's deal check then asks
    for such hands), not only when no hand could play.

    >>> start = public_game(rules=Rules(tactics=True))
    >>> start.hands, start.hand_sizes, start.deck_size, start.tactic_deck_size
    ((None, None), (7, 7), 46, 11)
    """
    rules = _check_rules(rules)
    _check_attacker(attacker)
    if siege_failed_at is not None and (
        isinstance(siege_failed_at, bool) or not isinstance(siege_failed_at, int)
    ):
        raise ValueError(f"siege_failed_at must be a ply number or None, not {siege_failed_at!r}")
    tactics = len(TACTIC_CARDS) if rules.tactics else 0
    return State._hidden_deal(
        rules,
        len(SIEGE_CARDS.cards),
        tactics,
        attacker=attacker,
        to_move=attacker,
        siege_failed_at=siege_failed_at,
    )


def _check_rules(rules: object) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules) or not isinstance(rules.tactics, bool):
        raise ValueError(f"rules must be a Rules value, not {rules!r}")
    return rules


def _check_attacker(attacker: object) -> None:
    if isinstance(attacker, bool) or not isinstance(attacker, int) or attacker not in (0, 1):
        raise ValueError(f"attacker must be 0 or 1, not {attacker!r}")


def _check_pile(order: Sequence[Any], expected: Counter[Any], name: str, what: str) -> None:
    if (
        len(order) == len(expected) == expected.total()
        and set(map(type, order)) <= _CARD_TYPES
        and expected.keys() == set(order)
    ):
        return  # as many cards as kinds, one of each kind expected, each there: all once
    unknown = [c for c in order if not isinstance(c, (Card, TacticCard)) or c not in expected]
    if unknown:
        raise ValueError(f"{name} holds a card that does not belong there: {unknown[0]}")
    have = Counter(order)
    if have != expected:
        missing = sorted(map(str, (expected - have).elements()))
        repeated = sorted(map(str, (have - expected).elements()))
        problems = []
        if missing:
            problems.append("missing " + " ".join(missing[:5]))
        if repeated:
            problems.append("repeated " + " ".join(repeated[:5]))
        raise ValueError(f"{name} must hold the {what} once each: " + "; ".join(problems))
