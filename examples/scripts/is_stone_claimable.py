"""Ask, for every stone of a Schotten Totten position, whether it can be claimed.

python examples/scripts/is_stone_claimable.py examples/positions/blue-seven.json
"""

from __future__ import annotations

import sys

from referee.records import find_game, load_position
from referee.schotten_totten import CLAN_CARDS


def main(path: str) -> None:
    position = load_position(path)
    state = find_game(position.game).load_position(position)
    for number, stone in enumerate(state.stones, start=1):
        for player in (0, 1):
            if stone.owner is not None or not stone.complete(player):
                continue
            verdict = state.claim_verdict(number, player=player)
            print(f"stone {number}, player {player + 1}: {verdict.explain()}")
            if verdict.witness is not None:
                cards = " ".join(str(CLAN_CARDS.from_pair(p)) for p in verdict.witness.cards)
                print(f"  the opponent still beats it by adding {cards}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "examples/positions/blue-seven.json")
