"""The frame of a game on a line drawn as SVG (see :mod:`referee.svg`): the
canvas with its title, the room for the sides and the row of places, and the
hands beyond the sides. Each game draws its own places (stones, tiles).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.cards import CardSet
from referee.svg import (
    _CARD_H,
    _GAP,
    _HAND_H,
    _LABEL_W,
    _MARGIN,
    _TITLE_H,
    PLAYER_COLOURS,
    _arrow,
    _Canvas,
    _hand,
    _hand_width,
    _header,
    _moved_card,
    _Options,
    _short,
)

__all__ = ["frame", "hand_row", "move_arrow", "side_labels"]


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
    game: str = "",
    place_h: float = 0,
) -> tuple[_Canvas, float, float, float]:
    """The canvas of ``state`` with its header: ``(canvas, width, left, side_h)``
    for ``places`` columns of ``column`` points, where ``left`` is where the
    first column starts and ``side_h`` the height of a side holding ``deepest``
    cards; ``players`` are the players drawn above and below (their hands,
    when shown, widen the picture). With ``place_h`` (the height of the row of
    places) the canvas knows the line the table turns around in a replay."""
    canvas = _Canvas(f"{title}: ply {state.ply}, {status}", options, game)
    side_h = deepest * (_CARD_H + _GAP) + _GAP
    left = _MARGIN + _LABEL_W
    width: float = left + places * column + _MARGIN
    shown = [p for p in players if p in options.hands]
    width = max(width, *(_hand_width(state.hand_sizes[p]) for p in shown)) if shown else width
    top = _MARGIN + _TITLE_H + (_HAND_H if players[0] in options.hands else 0)
    canvas.mirror = 2 * (top + side_h) + place_h
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
    tactics = state.tactics_in_hand(player) if state.hands[player] is None else 0
    _hand(
        canvas,
        y,
        player,
        state.hands[player],
        state.hand_sizes[player],
        cards,
        label,
        tactics=tactics,
    )
    return y + _HAND_H


def side_labels(
    canvas: _Canvas,
    options: _Options,
    rows: Sequence[tuple[int, float]],
    roles: Sequence[str] = (),
) -> None:
    """Each player's name (and role) beside its side of the row, at ``y``."""
    for player, y in rows:
        colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
        name = options.name(player)
        canvas.open(class_="side-label", data_player=player, style=canvas.flip(y))
        canvas.tooltip(name + (f", the {roles[player]}" if roles else ""))
        lines = [(roles[player], 12, "bold"), (_short(name), 11, None)] if roles else []
        if not lines:
            lines = [(_short(name), 12, "bold")]
        first = y + 4 - 7 * (len(lines) - 1)
        for k, (text, size, weight) in enumerate(lines):
            canvas.text(
                _MARGIN, first + 15 * k, text, size=size, anchor="start", weight=weight, fill=colour
            )
        canvas.close()


def move_arrow(
    canvas: _Canvas,
    options: _Options,
    sides: Sequence[Sequence[Sequence[object]]],
    *,
    column_x: Any,
    side_y: Any,
    discard_at: tuple[float, float],
    mover: int,
    what: str,
) -> None:
    """The arrow of a move that moved a card (strategist, traitor, banshee and
    Schotten Totten 2's tactics): from where the card was to where it went.

    ``sides[place - 1][player]`` are the cards on the table; ``column_x(place)``
    the middle of a place's column; ``side_y(player, index)`` the middle of a
    side's ``index``-th card; ``discard_at`` the discard pile.
    """
    moved = _moved_card(options.last_move)
    if moved is None:
        return
    card, source, target, theirs = moved
    places = [int(p) for p in (source, target) if p != "discard"]
    if not all(1 <= p <= len(sides) for p in places):
        return
    owner = 1 - mover if theirs else mover
    ends: list[tuple[float, float, bool]] = []  # x, y, and whether it turns with the table
    if source == "discard":
        ends.append((*discard_at, False))
    else:
        ends.append((column_x(int(source)), side_y(owner, 0), True))
    if target == "discard":
        ends.append((*discard_at, False))
    else:
        side = [str(c) for c in sides[int(target) - 1][mover]]
        index = side.index(card) if card in side else len(side)
        ends.append((column_x(int(target)), side_y(mover, index), True))
    where = {p: "the discard pile" if p == "discard" else f"{what} {p}" for p in (source, target)}
    tip = f"{card} moved from {where[source]} to {where[target]}"
    (x1, y1, _), (x2, y2, _) = ends
    _arrow(canvas, (x1, y1), (x2, y2), tip)
    if options.replay and canvas.mirror is not None:
        mirror = canvas.mirror
        (x1, y1, turn1), (x2, y2, turn2) = ends
        flipped = ((x1, mirror - y1 if turn1 else y1), (x2, mirror - y2 if turn2 else y2))
        _arrow(canvas, *flipped, tip, "move-arrow flip-only")
