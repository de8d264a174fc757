"""Schotten Totten drawn as SVG.

:func:`referee.svg.render_svg` finds :func:`draw` through the game registry
(the text picture is :mod:`~referee.schotten_totten.render`).
"""

from __future__ import annotations

from referee import svg
from referee.line.picture import RowShape, holdings, open_row
from referee.schotten_totten import state as _st
from referee.schotten_totten.render import DOING as _DOING

__all__ = ["draw"]

#: How the row of stones is drawn.
_ROW = RowShape("schotten-totten", "stone", _st.CLAN_CARDS, column=64, height=62)


# --- Schotten Totten ------------------------------------------------------------


def draw(state: _st.State, options: svg.Options) -> svg.Drawing:
    """Nine stones in a row; one player's cards above, the other's below (by
    default player 1 above), each hand beyond its side."""
    rules = state.rules
    variants = [n for f, n in ((rules.tactics, "tactics"), (rules.early_bird, "early bird")) if f]
    title = f"Schotten Totten ({', '.join([rules.edition, *variants])})"
    status = svg.status_words(
        options, state.outcome, state.to_move, doing=_DOING.get(state.phase.value, "")
    )
    bottom = 1 if options.perspective is None else options.perspective
    top_player = 1 - bottom
    column, stone_h = _ROW.column, _ROW.height
    deepest = max(
        3, *(s.rule.size for s in state.stones), *(len(x) for s in state.stones for x in s.sides)
    )
    row = open_row(state, options, _ROW, state.stones, title, status, deepest, (top_player, bottom))
    canvas, left, stone_y = row.canvas, row.left, row.y

    def body(number: int, stone: _st.Stone, x: float) -> None:
        owner = stone.owner
        ink = svg.INK if owner is None else "#ffffff"
        canvas.rect(
            x + 4,
            stone_y + 3,
            column - 8,
            stone_h - 6,
            rx=14,
            fill="#bdb7aa" if owner is None else svg.PLAYER_COLOURS[owner],
            stroke="#5b5548",
            stroke_width=1.5,
        )
        canvas.text(x + column / 2, stone_y + 24, number, size=16, weight="bold", fill=ink)
        captions = []
        if stone.style is not None:
            captions.append("mud fight" if stone.style.name == "mud_fight" else "blind bluff")
        if owner is not None:
            captions.append(svg.short_name(options.name(owner), 8))
        for line, caption in enumerate(captions):
            y = stone_y + 37 + 11 * line
            canvas.text(x + column / 2, y, caption, size=10, fill=ink, class_="caption")
        done = stone.completed
        if done[0] is not None and done[1] is not None and done[0] != done[1]:
            first = 0 if done[0] < done[1] else 1
            y = stone_y + 3 if first == top_player else stone_y + stone_h - 3
            canvas.open(class_="first-complete", data_player=first, style=canvas.flip(y))
            canvas.tooltip(
                f"{options.name(first)} completed a formation here first (wins a tie here)"
            )
            canvas.circle(x + 10, y, 10, fill="#ffffff", stroke=svg.PLAYER_COLOURS[first])
            canvas.text(
                x + 10, y + 4, "1st", size=10, weight="bold", fill=svg.PLAYER_COLOURS[first]
            )
            canvas.close()

    row.draw_places(
        group=lambda number, stone: {
            "class_": "stone" + ("" if stone.owner is None else " claimed"),
            "data_stone": number,
            "data_owner": stone.owner,
            "data_style": None if stone.style is None else str(stone.style),
        },
        body=body,
        pad=1,
    )
    y = row.hand(bottom, stone_y + stone_h + row.side_h + svg.GAP)
    y += 18
    piles = f"deck {state.deck_size}"
    if rules.tactics:
        piles += f" · tactic pile {state.tactic_deck_size}"
        piles += f" · tactic cards played {state.tactics_played[0]}–{state.tactics_played[1]}"
    hands = holdings(options, state.hand_sizes)
    canvas.text(svg.MARGIN, y, f"{piles} · {hands}", size=11, anchor="start", class_="piles")
    height = y + svg.MARGIN
    discard_at = (left + svg.CARD_W / 2, y + 12 + svg.CARD_H / 2)
    if state.discards:
        canvas.text(svg.MARGIN, y + 20 + svg.CARD_H / 2, "discards", size=11, anchor="start")
        svg.card_row(canvas, left, y + 12, state.discards, _st.CLAN_CARDS, class_="discards")
        height = y + 12 + svg.CARD_H + svg.MARGIN

    row.arrow(discard_at)
    return canvas.finish(row.width, height, "schotten-totten")
