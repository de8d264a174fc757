#!/usr/bin/env python3
"""A bot that plays a random legal move: the smallest complete player of the arena protocol.

Speaks JSON Lines on standard input and output (see docs/arena.md) and uses
nothing but the standard library, like a bot written outside this project.
It reads and writes bytes (one ``os.write`` per answer, no text layer), so the
arena's speed benchmark measures the referee rather than the bot.
"""

import json
import os
import random
import sys

PROTOCOL = "referee-arena/1"


def send(message):
    os.write(1, (json.dumps(message) + "\n").encode())


def main():
    rng = random.Random()
    choice = rng.choice
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message["type"]
        if kind == "turn":
            send({"type": "move", "move": choice(message["legal"])})
        elif kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL, "name": "random"})
        elif kind == "game":
            # Seeded by the referee, so that a match is repeatable.
            rng.seed(message["seed"] * 10 + message["seat"])
            send({"type": "ready"})
        elif kind == "quit":
            return
        # "end": nothing to do until the next game


if __name__ == "__main__":
    main()
