"""Clans and Glory drawn as SVG.

:func:`referee.svg.render_svg` finds :func:`draw` through the game registry.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.cards import Card
from referee.clans_and_glory import layout as _cg_layout
from referee.clans_and_glory import state as _cg
from referee.clans_and_glory.setup import CLAN_CARDS as _CG_CARDS
from referee.clans_and_glory.setup import SHIELDS_PER_PLAYER as _SHIELDS
from referee.svg import (
    _CARD_H,
    _CARD_W,
    _HAND_H,
    _MARGIN,
    _TITLE_H,
    PLAYER_COLOURS,
    _Canvas,
    _card,
    _card_back,
    _Drawing,
    _hand,
    _hand_width,
    _header,
    _marks,
    _Options,
    _shield_path,
    _status,
)

__all__ = ["draw"]


# --- Clans and Glory ----------------------------------------------------------------


def draw(state: _cg.State | _cg.View, options: _Options) -> _Drawing:
    """The tableaus with their seats as laid out, each tableau's shield stack,
    and the hands (a view shows only its viewer's)."""
    layout = state.layout
    outcome = state.outcome
    status = _status(outcome, state.to_move)
    viewer = ""
    if isinstance(state, _cg.View):
        who = "a spectator" if state.viewer is None else f"player {state.viewer + 1}"
        viewer = f", seen by {who}"
    title = f"Clans and Glory, {state.players} players"
    canvas = _Canvas(f"{title}: {status}{viewer}", options)
    cell_w, cell_h = _CARD_W + 8, _CARD_H + 8
    grid = layout.grid or _row_grid(layout)
    cells = dict(zip(layout.seats, grid, strict=True))
    top, left = _MARGIN + _TITLE_H + 14, _MARGIN
    columns = max(c for _, c in grid) + 1
    rows = max(r for r, _ in grid) + 1
    width: float = max(left + columns * cell_w + _MARGIN, 560)
    hands: list[tuple[int, Sequence[Card] | None]] = []
    for player in sorted(options.hands):
        if player >= state.players:
            continue
        if isinstance(state, _cg.View):
            hands.append((player, state.hand if player == state.viewer else None))
        else:
            hands.append((player, state.hands[player]))
    for player, _ in hands:
        width = max(width, _hand_width(state.hand_sizes[player]))
    _header(canvas, width, title, status + viewer)
    boxes = {}
    for tableau in range(1, layout.tableaus + 1):
        spots = [cells[s] for s in layout.seats_of(tableau)]
        c0, c1 = min(c for _, c in spots), max(c for _, c in spots)
        r0, r1 = min(r for r, _ in spots), max(r for r, _ in spots)
        box = (
            left + c0 * cell_w + 2,
            top + r0 * cell_h + 2,
            (c1 - c0 + 1) * cell_w - 4,
            (r1 - r0 + 1) * cell_h - 4,
        )
        boxes[tableau] = box
        canvas.open(class_="tableau", data_tableau=tableau)
        canvas.rect(*box, rx=8, fill="#e9dfc9", stroke="#8a7a5c", stroke_width=1.5)
        canvas.text(box[0] + box[2] / 2, box[1] - 4, f"t{tableau}", size=11, weight="bold")
        canvas.close()
    for seat, placed in zip(layout.seats, state.table, strict=True):
        row, col = cells[seat]
        x, y = left + col * cell_w + 4, top + row * cell_h + 4
        canvas.open(class_="seat" + (" free" if placed is None else ""), data_seat=str(seat))
        if placed is None:
            canvas.rect(
                x, y, _CARD_W, _CARD_H, rx=4, fill="none", stroke="#a99a7c", stroke_dasharray="3,3"
            )
            canvas.text(
                x + _CARD_W / 2, y + _CARD_H / 2 + 4, f"s{seat.number}", size=10, fill="#8a7a5c"
            )
        elif isinstance(placed, _cg.HiddenCard):
            _card_back(canvas, x, y, None, "face-down card")
        elif not placed.face_up:
            _card_back(canvas, x, y, placed.card, "face-down card")
        else:
            _card(canvas, x, y, placed.card, _CG_CARDS)
        canvas.close()
        _marks(canvas, str(seat), (x - 3, y - 3, _CARD_W + 6, _CARD_H + 6), f"seat {seat}")
    y = top + rows * cell_h + 10
    for tableau, stack in enumerate(state.shields, start=1):
        bx, _, bw, _ = boxes[tableau]
        canvas.open(
            class_="shields", data_tableau=tableau, data_stack=" ".join(str(p) for p in stack)
        )
        canvas.tooltip(
            f"shields on t{tableau}, first placed first: "
            + (", ".join(f"player {p + 1}" for p in stack) or "none")
        )
        for i, player in enumerate(stack):
            sx = bx + 4 + i * 18
            canvas.path(
                _shield_path(sx, y, 15, 18),
                fill=PLAYER_COLOURS[player],
                stroke="#222222",
                class_="shield",
            )
            canvas.text(sx + 7.5, y + 12, player + 1, size=10, weight="bold", fill="#ffffff")
        if not stack:
            canvas.text(bx + bw / 2, y + 12, "no shields", size=10, fill="#8a7a5c")
        canvas.close()
    y += 40
    shields_left = [
        _SHIELDS - sum(stack.count(p) for stack in state.shields) for p in range(state.players)
    ]
    for player in range(state.players):
        colour = PLAYER_COLOURS[player]
        canvas.path(_shield_path(_MARGIN, y - 11, 11, 13), fill=colour, stroke="#222222")
        line = (
            f"player {player + 1}: {state.hand_sizes[player]} in hand, "
            f"{shields_left[player]} shield{'' if shields_left[player] == 1 else 's'} left"
        )
        if outcome is not None and outcome.scores is not None:
            line += f", {outcome.scores[player]} points"
        canvas.text(_MARGIN + 16, y, line, size=11, anchor="start", class_="player", fill=colour)
        y += 16
    y += 4
    for player, hand in hands:
        label = f"player {player + 1}'s hand"
        _hand(canvas, y, player, hand, state.hand_sizes[player], _CG_CARDS, label)
        y += _HAND_H
    return canvas.finish(width, y + _MARGIN - 6, "clans-and-glory")


def _row_grid(layout: _cg_layout.Layout) -> tuple[tuple[int, int], ...]:
    """For a layout without a grid: one row per tableau, seats left to right."""
    return tuple(
        (seat.tableau - 1, layout.seats_of(seat.tableau).index(seat)) for seat in layout.seats
    )
