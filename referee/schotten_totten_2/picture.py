"""Schotten Totten 2 drawn as SVG.

:func:`referee.svg.render_svg` finds :func:`draw` through the game registry.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule
from referee.line.picture import frame
from referee.line.picture import hand_row as _hand_row
from referee.schotten_totten_2 import state as _st2
from referee.schotten_totten_2.wall import GATE as _GATE
from referee.schotten_totten_2.wall import SIEGE_CARDS as _ST2_CARDS
from referee.svg import (
    _CARD_H,
    _CARD_W,
    _GAP,
    _MARGIN,
    _TEXT,
    _TITLE_H,
    PLAYER_COLOURS,
    _answers_at,
    _card_row,
    _Drawing,
    _marks,
    _Options,
    _side,
    _status,
    _verdict_badge,
)

__all__ = ["draw"]


# --- Schotten Totten 2 ------------------------------------------------------------


def _rule_label(rule: FormationRule) -> str:
    """A tile's rule in a few characters, e.g. ``'3 · all'`` or ``'4 · sum, low'``."""
    if rule.kinds == ALL_KINDS:
        kinds = "all"
    elif rule.kinds == SUM_ONLY:
        kinds = "sum"
    else:
        short = {"three_of_a_kind": "3 alike", "color_run": "col. run"}
        kinds = " + ".join(short.get(k.label, k.label) for k in rule.strongest_kinds())
    return f"{rule.size} · {kinds}" + (", low" if rule.lower_sum_wins else "")


def draw(state: _st2.State, options: _Options) -> _Drawing:
    """Seven wall tiles; the attacker's cards above, the defender's below (unless
    the perspective puts the attacker below), each hand beyond its side."""
    variant = "tactics" if state.rules.tactics else "base game"
    roles = ["", ""]
    roles[state.attacker], roles[state.defender] = "attacker", "defender"
    title = f"Schotten Totten 2 ({variant})"
    status = _status(state.outcome, state.to_move, roles)
    if state.final_turn and state.outcome is None:
        status += ", the attacker's last turn"
    bottom = state.defender if options.perspective is None else options.perspective
    top_player = 1 - bottom
    column, tile_h = 92, 62
    deepest = max(4, *(len(x) for t in state.tiles for x in t.sides))
    drawn, places = (top_player, bottom), len(state.tiles)
    canvas, width, left, side_h = frame(
        state, options, title, status, places=places, column=column, deepest=deepest, players=drawn
    )

    def hand_row(player: int, y: float) -> float:
        label = f"{roles[player]}'s hand"
        return _hand_row(canvas, options, state, player, y, _ST2_CARDS, label)

    top = hand_row(top_player, _MARGIN + _TITLE_H)
    tile_y = top + side_h
    for player, y in ((top_player, top + side_h / 2), (bottom, tile_y + tile_h + side_h / 2)):
        colour = PLAYER_COLOURS[player]
        canvas.text(
            _MARGIN,
            y - 6,
            roles[player],
            size=12,
            anchor="start",
            weight="bold",
            fill=colour,
            class_="side-label",
        )
        canvas.text(_MARGIN, y + 9, f"player {player + 1}", size=11, anchor="start", fill=colour)
    for tile in state.tiles:
        x = left + (tile.number - 1) * column
        canvas.open(
            class_="tile " + ("damaged" if tile.damaged else "intact"),
            data_tile=tile.number,
        )
        card_x = x + (column - _CARD_W) / 2
        _side(canvas, card_x, tile_y, tile.sides[top_player], -1, _ST2_CARDS)
        _side(canvas, card_x, tile_y + tile_h, tile.sides[bottom], +1, _ST2_CARDS)
        fill, dash = ("#8d7b68", "5,3") if tile.damaged else ("#cfc8b8", None)
        ink = "#ffffff" if tile.damaged else _TEXT
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
        name = f"{tile.number} · gate" if tile.number == _GATE else str(tile.number)
        canvas.text(x + column / 2, tile_y + 19, name, size=13, weight="bold", fill=ink)
        canvas.text(
            x + column / 2,
            tile_y + 34,
            "damaged" if tile.damaged else "intact",
            size=10,
            fill=ink,
            class_="caption",
        )
        canvas.text(
            x + column / 2, tile_y + 49, _rule_label(tile.rule), size=10, fill=ink, class_="rule"
        )
        canvas.close()
        _marks(canvas, str(tile.number), (x, tile_y, column, tile_h), f"tile {tile.number}")
        for answer in _answers_at(options, tile.number):
            badge_y = tile_y - 10 if answer.player == top_player else tile_y + tile_h + 10
            _verdict_badge(
                canvas, x + 12, badge_y, answer, str(tile.number), PLAYER_COLOURS[answer.player]
            )
    y = hand_row(bottom, tile_y + tile_h + side_h + _GAP) + 20
    canvas.open(class_="oil", data_left=state.oil)
    canvas.tooltip(f"{state.oil} oil cauldrons left")
    canvas.text(_MARGIN, y, "oil", size=11, anchor="start")
    for i in range(_st2.OIL_CAULDRONS):
        full = i < state.oil
        canvas.circle(
            _MARGIN + 30 + 16 * i, y - 4, 6, fill="#222222" if full else "none", stroke="#222222"
        )
    canvas.close()
    piles = f"deck {state.deck_size}"
    if state.rules.tactics:
        piles += f" · tactic pile {state.tactic_deck_size}"
    if state.exhausted:
        piles += " (the last siege card has been drawn)"
    hands = " · ".join(f"player {p + 1} holds {n}" for p, n in enumerate(state.hand_sizes))
    canvas.text(_MARGIN + 86, y, f"{piles} · {hands}", size=11, anchor="start", class_="piles")
    height = y + _MARGIN
    rows: list[tuple[str, Sequence[object], str]] = [("discards", state.discards, "discards")]
    rows += [
        (f"actions p{p + 1}", state.actions[p], f"actions actions-{p}")
        for p in (state.attacker, state.defender)
    ]
    for label, cards, group in rows:
        if not cards:
            continue
        canvas.text(_MARGIN, height + 8 + _CARD_H / 2, label, size=11, anchor="start")
        _card_row(canvas, left, height, cards, _ST2_CARDS, class_=group)
        height += _CARD_H + _GAP
    return canvas.finish(width, height + _MARGIN, "schotten-totten-2")
