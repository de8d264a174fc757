"""The greedy reference bot: takes every claim it can, plays strong cards where they help most.

The logic of ``examples/bots/greedy.py`` (a standalone program of the arena's
protocol), reading the view object instead of its JSON: each legal move gets a
score and the best is played, a little noise from ``rng`` breaking ties.

- a claim (``claim N``, ``control N``): 100; a draw: 50;
- a card played on a place: its value, +4 for each of the player's cards there
  of the same colour, +3 for each one step away in value, +5 for each of equal
  value;
- a Clans and Glory placement: the card's value, -20 face down, +2 with a shield;
- ``pass`` or ``done``: 0; anything else (a tactic card, an exchange): 1.

>>> import random
>>> from referee import schotten_totten as st
>>> view = st.new_game(seed=1).view(0)
>>> score("R7@3", [[], [], [["R6"], []]], 0, random.Random(0)) > 7 + 4 + 3
True
>>> choose(view, random.Random(0), None) in view.legal_moves()
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from referee.bots._adapter import check_time_left, legal_moves_of, turn_bot

__all__ = ["bot", "card", "choose", "places_of", "score"]

_CARD_AT = re.compile(r"^([A-Z])(\d{1,2})@(\d+)$")
_PLACEMENT = re.compile(r"^([A-Z])(\d)@t(\d+)s\d+(\+down)?(\+shield)?$")
_CARD = re.compile(r"^([A-Z])(\d{1,2})$")


def card(text: str) -> tuple[str, int] | None:
    """``(colour, value)`` of a card text like ``'R7'``, or ``None`` for a tactic card.

    >>> card("R7"), card("Y11"), card("joker")
    (('R', 7), ('Y', 11), None)
    """
    match = _CARD.match(text)
    return (match.group(1), int(match.group(2))) if match else None


def places_of(view: Any) -> list[list[list[str]]]:
    """The cards on each place of a line game's view (stones or wall tiles):
    ``places[p][player]`` lists player ``player``'s cards on place ``p + 1``
    as text; empty for a game without such places (Clans and Glory).

    >>> from referee import schotten_totten as st
    >>> game = st.new_game(seed=1)
    >>> game = game.play(game.legal_moves()[0])
    >>> places_of(game.view(1))[0]
    [['R3'], []]
    """
    places = getattr(view, "stones", None) or getattr(view, "tiles", None) or ()
    return [[[str(c) for c in side] for side in place.sides] for place in places]


def score(
    move: str, places: Sequence[Sequence[Sequence[str]]], seat: int, rng: random.Random
) -> float:
    """How much the greedy bot likes ``move`` (its text), higher is better:
    ``places`` as :func:`places_of` gives them, ``seat`` the player to move;
    ``rng`` adds the noise (below 0.1) that breaks ties."""
    noise = rng.random() / 10
    if move.startswith(("claim", "control")):
        return 100 + noise
    if move.startswith("draw"):
        return 50 + noise
    played = _CARD_AT.match(move)
    if played:
        colour, value, place = played.group(1), int(played.group(2)), int(played.group(3))
        mine = [card(c) for c in places[place - 1][seat]] if places else []
        bonus = 0
        for seen in mine:
            if seen is None:
                continue
            other_colour, other_value = seen
            bonus += 4 if other_colour == colour else 0
            bonus += 3 if abs(other_value - value) == 1 else 0
            bonus += 5 if other_value == value else 0
        return value + bonus + noise
    placed = _PLACEMENT.match(move)
    if placed:
        down, shield = placed.group(4), placed.group(5)
        return int(placed.group(2)) - (20 if down else 0) + (2 if shield else 0) + noise
    if move in ("pass", "done"):
        return noise
    return 1 + noise


def choose(view: Any, rng: random.Random, time_left: float | None = None) -> Any:
    """The legal move of ``view``'s player with the highest :func:`score`."""
    check_time_left(time_left)
    moves = legal_moves_of(view, rng)
    seat = view.to_move
    places = places_of(view)
    return max(moves, key=lambda move: score(str(move), places, seat, rng))


#: :func:`choose` in the arena's form (``bot(turn) -> move``), named ``greedy``.
bot = turn_bot(choose, "greedy")
