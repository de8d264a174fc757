#!/usr/bin/env python3
"""A greedy bot: takes every claim it can, plays strong cards where they help most.

It knows the games only through the arena protocol (docs/arena.md): the view
and the legal moves in text notation. Standard library only.
"""

import json
import random
import re
import sys

PROTOCOL = "referee-arena/1"
CARD_AT = re.compile(r"^([A-Z])(\d{1,2})@(\d+)$")
PLACEMENT = re.compile(r"^([A-Z])(\d)@t(\d+)s\d+(\+down)?(\+shield)?$")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def card(text):
    """(colour, value) of a card text like 'R7', or None for a tactic card."""
    match = re.match(r"^([A-Z])(\d{1,2})$", text)
    return (match.group(1), int(match.group(2))) if match else None


def score(move, view, seat, rng):
    """How much the bot likes a move (higher is better); a little noise breaks ties."""
    noise = rng.random() / 10
    if move.startswith(("claim", "control")):
        return 100 + noise
    if move.startswith("draw"):
        return 50 + noise
    played = CARD_AT.match(move)
    if played:
        colour, value, place = played.group(1), int(played.group(2)), int(played.group(3))
        places = view.get("stones") or view.get("tiles") or []
        mine = [card(c) for c in places[place - 1]["sides"][seat]] if places else []
        mine = [c for c in mine if c]
        bonus = 0
        for other_colour, other_value in mine:
            bonus += 4 if other_colour == colour else 0
            bonus += 3 if abs(other_value - value) == 1 else 0
            bonus += 5 if other_value == value else 0
        return value + bonus + noise
    placed = PLACEMENT.match(move)
    if placed:
        down, shield = placed.group(4), placed.group(5)
        return int(placed.group(2)) - (20 if down else 0) + (2 if shield else 0) + noise
    if move in ("pass", "done"):
        return noise
    return 1 + noise


def main():
    rng = random.Random()
    seat = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL, "name": "greedy"})
        elif kind == "game":
            seat = message["seat"]
            rng.seed(message["seed"] * 10 + seat)
            send({"type": "ready"})
        elif kind == "turn":
            view = message["view"]
            best = max(message["legal"], key=lambda m: score(m, view, seat, rng))
            send({"type": "move", "move": best, "ply": message["ply"]})
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
