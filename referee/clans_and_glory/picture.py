"""Clans and Glory drawn as SVG.

:func:`referee.svg.render_svg` finds :func:`draw` through the game registry.
A wide table (more than ten columns of seats, as the default tables of 3 and 4
players) wraps onto two rows of tableaus, so the picture stays readable on a
narrow screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from referee.cards import Card
from referee.clans_and_glory import layout as _cg_layout
from referee.clans_and_glory import state as _cg
from referee.clans_and_glory.scoring import ScoreSheet, score_sheet, score_tableau
from referee.clans_and_glory.setup import CLAN_CARDS as _CG_CARDS
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
    _placed_card,
    _shield_path,
    _status,
)

__all__ = ["draw", "score_now"]

#: The widest band of seat columns before the table wraps onto a second row.
_WRAP = 10


def score_now(state: _cg.State) -> ScoreSheet:
    """The score sheet of the table as it stands, from what anyone sees: the
    face-up cards and the shield stacks (face-down cards score nothing, so a
    player's view scores the same as the whole state)."""
    layout = state.layout
    tableaus = []
    for tableau in range(1, layout.tableaus + 1):
        up: list[Card] = []
        for seat in layout.seats_of(tableau):
            placed = state.table[layout.index(seat)]
            if placed is not None and placed.face_up and placed.card is not None:
                up.append(placed.card)
        tableaus.append(score_tableau(tableau, up, state.shields[tableau - 1]))
    return score_sheet(state.num_players, tableaus)


def _bands(
    layout: _cg_layout.Layout, grid: Sequence[tuple[int, int]]
) -> dict[int, tuple[int, int]] | None:
    """Each tableau's (band, first column of its band) when the table wraps
    onto two rows, or ``None`` when it fits (or its tableaus share columns)."""
    cells = dict(zip(layout.seats, grid, strict=True))
    spans = {}
    for tableau in range(1, layout.tableaus + 1):
        columns = [cells[s][1] for s in layout.seats_of(tableau)]
        spans[tableau] = (min(columns), max(columns))
    if max(c for _, c in grid) + 1 <= _WRAP or layout.tableaus < 2:
        return None
    ordered = sorted(spans, key=lambda t: spans[t])
    if any(spans[a][1] >= spans[b][0] for a, b in pairwise(ordered)):
        return None
    half = (len(ordered) + 1) // 2
    second = ordered[half:]
    start = spans[second[0]][0]
    return {t: (1, start) if t in second else (0, 0) for t in ordered}


def draw(state: _cg.State, options: _Options) -> _Drawing:
    """The tableaus with their seats as laid out, each tableau's shield stack,
    and the hands (a view shows only its viewer's)."""
    layout = state.layout
    outcome = state.outcome
    status = _status(options, outcome, state.to_move, doing="to place a card")
    viewer = ""
    seen = state._viewer()
    if seen != "all":
        who = "a spectator" if seen is None else options.name(int(seen))
        viewer = f", seen by {who}"
    title = f"Clans and Glory, {state.num_players} players"
    canvas = _Canvas(f"{title}: {status}{viewer}", options, "clans-and-glory")
    cell_w, cell_h = _CARD_W + 8, _CARD_H + 8
    grid = layout.grid or _row_grid(layout)
    bands = _bands(layout, grid)
    rows = max(r for r, _ in grid) + 1
    band_h = rows * cell_h + 44  # the seats, then the shield stacks under them

    def place(seat: _cg_layout.Seat, cell: tuple[int, int]) -> tuple[int, int]:
        """A seat's (row, column) once the table wraps onto its bands."""
        if bands is None:
            return cell
        band, first = bands[seat.tableau]
        return cell[0] + band * (rows + 1), cell[1] - first

    cells = {seat: place(seat, cell) for seat, cell in zip(layout.seats, grid, strict=True)}
    top, left = _MARGIN + _TITLE_H + 14, _MARGIN
    columns = max(c for _, c in cells.values()) + 1
    width: float = max(left + columns * cell_w + _MARGIN, 560)
    hands: list[tuple[int, Sequence[Card] | None]] = []
    for player in sorted(options.hands):
        if player >= state.num_players:
            continue
        hands.append((player, state.hands[player]))
    for player, _ in hands:
        width = max(width, _hand_width(state.hand_sizes[player]))
    _header(canvas, width, title, status + viewer)

    def y_of(row: int) -> float:
        band, inner = divmod(row, rows + 1)
        return top + band * band_h + inner * cell_h

    boxes = {}
    for tableau in range(1, layout.tableaus + 1):
        spots = [cells[s] for s in layout.seats_of(tableau)]
        c0, c1 = min(c for _, c in spots), max(c for _, c in spots)
        r0, r1 = min(r for r, _ in spots), max(r for r, _ in spots)
        box = (
            left + c0 * cell_w + 2,
            y_of(r0) + 2,
            (c1 - c0 + 1) * cell_w - 4,
            y_of(r1) - y_of(r0) + cell_h - 4,
        )
        boxes[tableau] = box
        canvas.open(class_="tableau", data_tableau=tableau)
        canvas.rect(*box, rx=8, fill="#e9dfc9", stroke="#8a7a5c", stroke_width=1.5)
        canvas.text(box[0] + box[2] / 2, box[1] - 4, f"t{tableau}", size=11, weight="bold")
        canvas.close()
    for seat, placed in zip(layout.seats, state.table, strict=True):
        row, col = cells[seat]
        _seat(canvas, seat, placed, left + col * cell_w + 4, y_of(row) + 4, options)
    for tableau, stack in enumerate(state.shields, start=1):
        _shields(canvas, tableau, stack, boxes[tableau], options)
    last_row = max(r for r, _ in cells.values())
    y = y_of(last_row) + cell_h + 50
    y = _players(canvas, state, y, options) + 4
    for player, hand in hands:
        label = f"{options.name(player)}'s hand"
        _hand(canvas, y, player, hand, state.hand_sizes[player], _CG_CARDS, label)
        y += _HAND_H
    return canvas.finish(width, y + _MARGIN - 6, "clans-and-glory")


def _seat(
    canvas: _Canvas,
    seat: _cg_layout.Seat,
    placed: _cg.Placed | None,
    x: float,
    y: float,
    options: _Options,
) -> None:
    """One seat: free (dashed), a card face up, or a card back."""
    placed_now = _placed_card(options.last_move)
    canvas.open(class_="seat" + (" free" if placed is None else ""), data_seat=str(seat))
    mark = "placed" if placed_now is not None and placed_now[1] == str(seat) else None
    if placed is None:
        canvas.rect(
            x, y, _CARD_W, _CARD_H, rx=4, fill="none", stroke="#a99a7c", stroke_dasharray="3,3"
        )
        canvas.text(
            x + _CARD_W / 2, y + _CARD_H / 2 + 4, f"s{seat.number}", size=10, fill="#8a7a5c"
        )
    elif placed.card is None:
        _card_back(canvas, x, y, None, "face-down card", mark=mark)
    elif not placed.face_up:
        _card_back(canvas, x, y, placed.card, "face-down card", mark=mark)
    else:
        _card(canvas, x, y, placed.card, _CG_CARDS, mark=mark)
    canvas.close()
    _marks(canvas, str(seat), (x - 3, y - 3, _CARD_W + 6, _CARD_H + 6), f"seat {seat}")


def _shields(
    canvas: _Canvas,
    tableau: int,
    stack: Sequence[int],
    box: tuple[float, float, float, float],
    options: _Options,
) -> None:
    """A tableau's shield stack under its box, the first placed on the left."""
    bx, by, bw, bh = box
    y = by + bh + 8
    canvas.open(class_="shields", data_tableau=tableau, data_stack=" ".join(str(p) for p in stack))
    canvas.tooltip(
        f"shields on t{tableau}, first placed first: "
        + (", ".join(options.name(p) for p in stack) or "none")
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


def _players(canvas: _Canvas, state: _cg.State, y: float, options: _Options) -> float:
    """One line per player (hand size, shields left, points); the ``y`` below them."""
    outcome = state.outcome
    shields_left = state.board.supply
    points = outcome.scores if outcome is not None and outcome.scores is not None else None
    now = score_now(state).points if points is None else points
    for player in range(state.num_players):
        colour = PLAYER_COLOURS[player]
        canvas.path(_shield_path(_MARGIN, y - 11, 11, 13), fill=colour, stroke="#222222")
        line = (
            f"{options.name(player)} ({player + 1}): {state.hand_sizes[player]} in hand, "
            f"{shields_left[player]} shield{'' if shields_left[player] == 1 else 's'} left, "
            f"{now[player]} points" + ("" if points is not None else " as the table stands")
        )
        canvas.text(_MARGIN + 16, y, line, size=11, anchor="start", class_="player", fill=colour)
        y += 16
    return y


def _row_grid(layout: _cg_layout.Layout) -> tuple[tuple[int, int], ...]:
    """For a layout without a grid: one row per tableau, seats left to right."""
    return tuple(
        (seat.tableau - 1, layout.seats_of(seat.tableau).index(seat)) for seat in layout.seats
    )
