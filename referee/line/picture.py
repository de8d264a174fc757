"""The frame of a game on a line drawn as SVG (see :mod:`referee.svg`): the
canvas with its title, the room for the sides and the row of places, and the
hands beyond the sides. Each game draws its own places (stones, tiles).
"""

from __future__ import annotations

from typing import Any

from referee.cards import CardSet
from referee.svg import (
    _CARD_H,
    _GAP,
    _HAND_H,
    _LABEL_W,
    _MARGIN,
    _Canvas,
    _hand,
    _hand_width,
    _header,
    _Options,
)

__all__ = ["frame", "hand_row"]


def frame(
    state: Any,
    options: _Options,
    title: str,
    status: str,
    *,
    places: int,
    column: float,
    deepest: int,
    players: tuple[int, int],
) -> tuple[_Canvas, float, float, float]:
    """The canvas of ``state`` with its header: ``(canvas, width, left, side_h)``
    for ``places`` columns of ``column`` points, where ``left`` is where the
    first column starts and ``side_h`` the height of a side holding ``deepest``
    cards; ``players`` are the players drawn above and below (their hands,
    when shown, widen the picture)."""
    canvas = _Canvas(f"{title}: ply {state.ply}, {status}", options)
    side_h = deepest * (_CARD_H + _GAP) + _GAP
    left = _MARGIN + _LABEL_W
    width: float = left + places * column + _MARGIN
    shown = [p for p in players if p in options.hands]
    width = max(width, *(_hand_width(state.hand_sizes[p]) for p in shown)) if shown else width
    _header(canvas, width, title, status)
    return canvas, width, left, side_h


def hand_row(
    canvas: _Canvas,
    options: _Options,
    state: Any,
    player: int,
    y: float,
    cards: CardSet,
    label: str,
) -> float:
    """Draw ``player``'s hand at ``y`` if the options show it; the next free ``y``."""
    if player not in options.hands:
        return y
    _hand(canvas, y, player, state.hands[player], state.hand_sizes[player], cards, label)
    return y + _HAND_H
