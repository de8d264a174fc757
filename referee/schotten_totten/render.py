"""The text picture of a Schotten Totten position, for a terminal (``str(state)``).

>>> from referee.schotten_totten import new_game
>>> print(new_game(seed=1).view(0))  # doctest: +ELLIPSIS
Schotten Totten (2024) - ply 0, player 1 to move: to play a card
...
player 2 hand (6): hidden
deck: 42 cards
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.schotten_totten.state import State

__all__ = ["DOING", "render"]

#: What the player to move is doing, in each phase of a turn, in words (the
#: text picture and the SVG picture both say it).
DOING = MappingProxyType(
    {
        "play": "to play a card",
        "after_play": "to claim stones or draw",
        "after_pass": "to claim stones or end the turn",
        "recruit_return": "to put back the recruited cards",
        "after_recruit": "to claim stones or end the turn",
    }
)


def render(state: State) -> str:
    """The terminal picture of a position (also ``str(state)``)."""
    variants = [
        name
        for flag, name in ((state.rules.tactics, "tactics"), (state.rules.early_bird, "early bird"))
        if flag
    ]
    title = f"Schotten Totten ({', '.join([state.rules.edition, *variants])})"
    outcome = state.outcome
    if outcome is not None and outcome.winner is not None:
        status = f"game over: player {outcome.winner + 1} wins ({outcome.reason})"
    elif outcome is not None:
        status = f"game over: no winner ({outcome.reason})"
    else:
        status = f"player {state.to_move + 1} to move: {DOING[state.phase.value]}"
    lines = [f"{title} - ply {state.ply}, {status}", f"{'':>9}{'player 1':<24}stone  player 2"]
    for number, stone in enumerate(state.stones, start=1):
        left = " ".join(map(str, stone.sides[0]))
        right = " ".join(map(str, stone.sides[1]))
        mark = {None: f"  {number}  ", 0: f"<[{number}] ", 1: f" [{number}]>"}[stone.owner]
        style = f"  ({stone.style})" if stone.style is not None else ""
        lines.append(f"{'':>9}{left:<24}{mark:<7}{right:<24}{style}".rstrip())
    for player in (0, 1):
        hand = state.hands[player]
        shown = "hidden" if hand is None else " ".join(map(str, hand)) or "empty"
        extra = f", tactics played {state.tactics_played[player]}" if state.rules.tactics else ""
        lines.append(f"player {player + 1} hand ({state.hand_sizes[player]}): {shown}{extra}")
    piles = f"deck: {state.deck_size} cards"
    if state.rules.tactics:
        piles += f", tactic pile: {state.tactic_deck_size} cards"
    lines.append(piles)
    if state.discards:
        lines.append("discards: " + " ".join(map(str, state.discards)))
    return "\n".join(lines)
