"""Schotten Totten 2 drawn as SVG.

:func:`referee.svg.render_svg` finds :func:`draw` through the game registry.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee import svg
from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule
from referee.line.picture import RowShape, holdings, open_row
from referee.schotten_totten_2 import state as _st2
from referee.schotten_totten_2.wall import GATE as _GATE
from referee.schotten_totten_2.wall import SIEGE_CARDS as _ST2_CARDS
from referee.schotten_totten_2.wall import Tile

__all__ = ["draw"]

#: How the row of tiles is drawn.
_ROW = RowShape("schotten-totten-2", "tile", _ST2_CARDS, column=76, height=62)


# --- Schotten Totten 2 ------------------------------------------------------------


def _rule_words(rule: FormationRule) -> str:
    """A tile's rule in a sentence, for its tooltip."""
    if rule.kinds == ALL_KINDS:
        kinds = "every formation counts"
    elif rule.kinds == SUM_ONLY:
        kinds = "only the sum counts"
    else:
        names = {"three_of_a_kind": "three of a kind", "color_run": "colour run", "color": "colour"}
        counted = [names.get(k.label, k.label) for k in rule.strongest_kinds()]
        kinds = " and ".join(counted) + " count"
    low = "; the lower sum wins" if rule.lower_sum_wins else ""
    return f"{rule.size} cards a side; {kinds}{low}"


def _rule_label(rule: FormationRule) -> str:
    """A tile's rule in a few characters, e.g. ``'3 · all'`` or ``'4 · sum, low'``
    (the replay page's legend says what they mean)."""
    if rule.kinds == ALL_KINDS:
        kinds = "all"
    elif rule.kinds == SUM_ONLY:
        kinds = "sum"
    else:
        short = {"three_of_a_kind": "3 alike", "color_run": "col. run"}
        kinds = " + ".join(short.get(k.label, k.label) for k in rule.strongest_kinds())
    return f"{rule.size} · {kinds}" + (", low" if rule.lower_sum_wins else "")


def draw(state: _st2.State, options: svg.Options) -> svg.Drawing:
    """Seven wall tiles; the attacker's cards above, the defender's below (unless
    the perspective puts the attacker below), each hand beyond its side."""
    variant = "tactics" if state.rules.tactics else "base game"
    roles = ["", ""]
    roles[state.attacker], roles[state.defender] = "attacker", "defender"
    title = f"Schotten Totten 2 ({variant})"
    doing = _st2.DOING.get(state.phase.value, ("", ""))[0 if state.to_move == state.attacker else 1]
    status = svg.status_words(options, state.outcome, state.to_move, roles, doing)
    if state.final_turn and state.outcome is None:
        status += ", the attacker's last turn"
    bottom = state.defender if options.perspective is None else options.perspective
    top_player = 1 - bottom
    column, tile_h = _ROW.column, _ROW.height
    deepest = max(4, *(len(x) for t in state.tiles for x in t.sides))
    drawn = (top_player, bottom)
    row = open_row(state, options, _ROW, state.tiles, title, status, deepest, drawn, roles)
    canvas, left, tile_y = row.canvas, row.left, row.y

    def body(number: int, tile: Tile, x: float) -> None:
        fill, dash = ("#8d7b68", "5,3") if tile.damaged else ("#cfc8b8", None)
        ink = "#ffffff" if tile.damaged else svg.INK
        canvas.rect(
            x + 3,
            tile_y + 3,
            column - 6,
            tile_h - 6,
            rx=3,
            fill=fill,
            stroke="#4e463b",
            stroke_width=1.5,
            stroke_dasharray=dash,
        )
        name = f"{number} · gate" if number == _GATE else str(number)
        canvas.text(x + column / 2, tile_y + 19, name, size=13, weight="bold", fill=ink)
        state_words = "damaged" if tile.damaged else "intact"
        canvas.text(x + column / 2, tile_y + 34, state_words, size=10, fill=ink, class_="caption")
        label = _rule_label(tile.rule)
        canvas.text(x + column / 2, tile_y + 49, label, size=10, fill=ink, class_="rule")

    row.draw_places(
        group=lambda number, tile: {
            "class_": "tile " + ("damaged" if tile.damaged else "intact"),
            "data_tile": number,
        },
        body=body,
        tooltip=lambda number, tile: f"tile {number}: {_rule_words(tile.rule)}",
        lower_sum_wins=lambda tile: bool(tile.rule.lower_sum_wins),
    )
    y = row.hand(bottom, tile_y + tile_h + row.side_h + svg.GAP) + 20
    canvas.open(class_="oil", data_left=state.oil)
    canvas.tooltip(f"{state.oil} oil cauldrons left")
    canvas.text(svg.MARGIN, y, "oil", size=11, anchor="start")
    for i in range(_st2.OIL_CAULDRONS):
        full = i < state.oil
        canvas.circle(
            svg.MARGIN + 30 + 16 * i, y - 4, 6, fill="#222222" if full else "none", stroke="#222222"
        )
    canvas.close()
    piles = f"deck {state.deck_size}"
    if state.rules.tactics:
        piles += f" · tactic pile {state.tactic_deck_size}"
    if state.exhausted:
        piles += " (the last siege card has been drawn)"
    hands = holdings(options, state.hand_sizes)
    canvas.text(svg.MARGIN + 86, y, f"{piles} · {hands}", size=11, anchor="start", class_="piles")
    height = y + svg.MARGIN
    discard_at = (left + svg.CARD_W / 2, height + svg.CARD_H / 2)
    rows: list[tuple[str, Sequence[object], str]] = [("discards", state.discards, "discards")]
    rows += [
        (f"{svg.short_name(options.name(p), 8)}'s", state.actions[p], f"actions actions-{p}")
        for p in (state.attacker, state.defender)
    ]
    for label, cards, group in rows:
        if not cards:
            continue
        canvas.text(svg.MARGIN, height + 8 + svg.CARD_H / 2, label, size=11, anchor="start")
        svg.card_row(canvas, left, height, cards, _ST2_CARDS, class_=group)
        height += svg.CARD_H + svg.GAP

    row.arrow(discard_at)
    return canvas.finish(row.width, height + svg.MARGIN, "schotten-totten-2")
