#!/usr/bin/env python3
"""A bot that plays a random legal move: the smallest complete player of the arena protocol.

Speaks JSON Lines on standard input and output (see docs/arena.md) and uses
nothing but the standard library, like a bot written outside this project.
"""

import json
import random
import sys

PROTOCOL = "referee-arena/1"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL, "name": "random"})
        elif kind == "game":
            # Seeded by the referee, so that a match is repeatable.
            rng.seed(message["seed"] * 10 + message["seat"])
            send({"type": "ready"})
        elif kind == "turn":
            send({"type": "move", "move": rng.choice(message["legal"])})
        elif kind == "quit":
            return
        # "end": nothing to do until the next game


if __name__ == "__main__":
    main()
