"""A tiny bot: play a Schotten Totten game with tactics by random legal moves,
claiming whatever can be proven, and print the final position.

    python examples/scripts/random_bot.py [seed]
"""

from __future__ import annotations

import random
import sys

from referee import schotten_totten as st


def main(seed: int) -> None:
    rng = random.Random(seed)
    state = st.new_game(seed=seed, rules=st.Rules(tactics=True))
    while not state.is_game_over():
        moves = state.legal_moves()
        claims = [m for m in moves if isinstance(m, st.Claim)]
        state = state.play(claims[0] if claims else rng.choice(moves))
    print(state)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
