"""The terminal picture of a Schotten Totten 2 position (also ``str(state)``).

>>> from referee.schotten_totten_2 import new_game
>>> print(render(new_game(seed=1)).splitlines()[0])
Schotten Totten 2 (base game) - ply 0, player 1 (attacker) to move: to retreat or play a card
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from referee.schotten_totten_2.wall import GATE

if TYPE_CHECKING:
    from referee.schotten_totten_2.state import State

__all__ = ["DOING", "render"]


#: What the player to move is doing, in each phase of a turn, in words: (the
#: attacker's, the defender's). The text picture and the SVG picture both say it.
DOING = MappingProxyType(
    {
        "opening": ("to retreat or play a card", "to pour oil or play a card"),
        "play": ("to play a card", "to play a card"),
        "after_play": ("to take control of a tile or draw", "to draw"),
        "after_pass": ("to take control of a tile or end the turn", "to end the turn"),
        "shuffle": ("", ""),
        "exchange": ("to answer the exchange", "to answer the exchange"),
    }
)


def render(state: State) -> str:
    """The terminal picture of a position (also ``str(state)``)."""
    roles = {state.attacker: "attacker", state.defender: "defender"}
    variant = "tactics" if state.rules.tactics else "base game"
    if state.outcome is not None and state.outcome.winner is not None:
        who = state.outcome.winner
        status = f"game over: player {who + 1} ({roles[who]}) wins ({state.outcome.reason})"
    else:
        doing = DOING[state.phase.value][0 if state.to_move == state.attacker else 1]
        status = f"player {state.to_move + 1} ({roles[state.to_move]}) to move" + (
            f": {doing}" if doing else ""
        )
        if state.final_turn:
            status += ", the attacker's last turn"
    att, dfd = state.attacker, state.defender
    lines = [
        f"Schotten Totten 2 ({variant}) - ply {state.ply}, {status}",
        f"{'tile':<7}{'side':<9}{'rule':<36}{f'attacker (player {att + 1})':<24}"
        f"defender (player {dfd + 1})",
    ]
    for tile in state.tiles:
        name = f"{tile.number}" + (" gate" if tile.number == GATE else "")
        side = "damaged" if tile.damaged else "intact"
        left = " ".join(map(str, tile.sides[att])) or "-"
        right = " ".join(map(str, tile.sides[dfd])) or "-"
        lines.append(f"{name:<7}{side:<9}{tile.rule.describe():<36}{left:<24}{right}".rstrip())
    lines.append(f"oil cauldrons left: {state.oil}")
    shown = " ".join(map(str, state.discards)) or "none"
    lines.append(f"discards ({len(state.discards)}): {shown}")
    if state.rules.tactics:
        played = "; ".join(
            f"player {p + 1}: {state.tactics_played[p]} played"
            + (f" (actions {' '.join(map(str, state.actions[p]))})" if state.actions[p] else "")
            for p in (0, 1)
        )
        lines.append(f"tactic cards: {played}")
    for player in (0, 1):
        hand = state.hands[player]
        text = "hidden" if hand is None else " ".join(map(str, hand)) or "empty"
        lines.append(f"player {player + 1} hand ({state.hand_sizes[player]}): {text}")
    piles = f"deck: {state.deck_size} cards"
    if state.rules.tactics:
        piles += f"; tactic pile: {state.tactic_deck_size} cards"
    if state.exhausted:
        piles += " (the last siege card has been drawn)"
    lines.append(piles)
    return "\n".join(lines)
