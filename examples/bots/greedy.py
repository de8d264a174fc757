#!/usr/bin/env python3
"""A greedy bot: takes every claim it can, plays strong cards where they help most.

Written on :func:`referee.arena.bot.serve` (see docs/bots.md): it reads the
game's own view object, not JSON, and returns a move object. It plays every
bundled game:

    referee match examples/bots/greedy.py examples/bots/random_bot.py
"""

from referee.arena.bot import serve
from referee.cards import Card


def score(move, view, rng):
    """How much the bot likes a move (higher is better); a little noise breaks ties."""
    noise = rng.random() / 10
    text = str(move)
    if text.startswith(("claim", "control")):
        return 100 + noise
    if text.startswith("draw"):
        return 50 + noise
    card = getattr(move, "card", None)
    if type(move).__name__ == "PlayCard" and isinstance(card, Card):
        # Schotten Totten's stones, Schotten Totten 2's tiles: what lies on our side there.
        place = getattr(move, "stone", None) or getattr(move, "tile", None)
        places = getattr(view, "stones", None) or getattr(view, "tiles", None)
        side = places[place - 1].sides[view.to_move]
        bonus = 0
        for other in side:
            if isinstance(other, Card):
                bonus += 4 if other.colour == card.colour else 0
                bonus += 3 if abs(other.value - card.value) == 1 else 0
                bonus += 5 if other.value == card.value else 0
        return card.value + bonus + noise
    if hasattr(move, "face_down"):  # Clans and Glory: high cards face up, a shield helps
        return card.value - (20 if move.face_down else 0) + (2 if move.shield else 0) + noise
    if text in ("pass", "done"):
        return noise
    return 1 + noise


def choose(view, rng, time_left):
    """The legal move the bot likes best."""
    return max(view.legal_moves(), key=lambda move: score(move, view, rng))


if __name__ == "__main__":
    serve(choose, name="greedy")
