"""The text picture of a Clans and Glory position (``str(state)``).

    >>> from referee.clans_and_glory import new_game
    >>> print(new_game(players=2, seed=1).view(1))  # doctest: +ELLIPSIS
    Clans and Glory, 2 players: player 1 to move
    ...
    player 1: 9 cards (hidden), 5 shields left
    player 2: 8 cards (...), 5 shields left
    seen by player 2

Face-up cards are written as they are (``G5``), face-down ones in lower case
(``g5``), and a face-down card whose face the viewer does not see as ``##``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.clans_and_glory.layout import default_layout
from referee.clans_and_glory.placed import Placed
from referee.game import Outcome

if TYPE_CHECKING:
    from referee.clans_and_glory.state import State

__all__ = ["render", "status_line", "who"]


def _cell(placed: Placed | None) -> str:
    if placed is None:
        return "--"
    if placed.card is None:
        return "##"
    return str(placed.card) if placed.face_up else str(placed.card).lower()


def render(state: State) -> str:
    """The position as text: the table, the shield stacks, the players."""
    layout, players = state.layout, state.num_players
    cells = [_cell(p) for p in state.table]
    lines = [f"Clans and Glory, {players} players: {status_line(state.outcome, state.to_move)}"]
    if layout.grid is not None:
        lines += _grid_lines(state, cells)
    else:
        for tableau in range(1, layout.tableaus + 1):
            seats = layout.seats_of(tableau)
            lines.append(
                f"t{tableau}: " + " ".join(f"s{s.number}={cells[layout.index(s)]}" for s in seats)
            )
    lines.append(
        "shields (first placed first): "
        + "  ".join(
            f"t{t}: " + (" ".join(str(p + 1) for p in stack) or "-")
            for t, stack in enumerate(state.shields, start=1)
        )
    )
    for player, hand in enumerate(state.hands):
        size = state.hand_sizes[player]
        shown = "hidden" if hand is None else " ".join(map(str, hand)) or "empty"
        lines.append(
            f"player {player + 1}: {size} card{'' if size == 1 else 's'} "
            f"({shown}), {state.board.supply[player]} shields left"
        )
    seen = state._viewer()
    if seen != "all":
        lines.append(f"seen by {who(seen)}")
    return "\n".join(lines)


def _grid_lines(state: State, cells: list[str]) -> list[str]:
    layout = state.layout
    assert layout.grid is not None
    width = 4
    columns = max(c for _, c in layout.grid) + 1
    rows = max(r for r, _ in layout.grid) + 1
    header = [" "] * (columns * width)
    for tableau in range(1, layout.tableaus + 1):
        column = layout.grid[layout.index(layout.seats_of(tableau)[0])][1]
        label = f"t{tableau}"
        header[column * width : column * width + len(label)] = label
    lines = ["".join(header).rstrip()]
    grid = [[" " * width] * columns for _ in range(rows)]
    for (row, column), cell in zip(layout.grid, cells, strict=True):
        grid[row][column] = cell.ljust(width)
    lines.extend("".join(row).rstrip() for row in grid)
    if layout == default_layout(state.num_players):
        lines.append("seats: s1 s2 s3 top row, s4 s5 s6 bottom row, s7 the head seats at the ends")
    return lines


def who(seen: int | str | None) -> str:
    """Who sees a view: ``player 2`` or ``a spectator``."""
    return "a spectator" if seen is None else f"player {int(seen) + 1}"


def status_line(outcome: Outcome | None, to_move: int) -> str:
    """``player 2 to move`` or the result."""
    if outcome is None:
        return f"player {to_move + 1} to move"
    if outcome.winner is None:
        return f"game over, {'shared win' if outcome.winners else 'no winner'} ({outcome.reason})"
    return f"game over, player {outcome.winner + 1} wins ({outcome.reason})"
