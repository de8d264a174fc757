"""Schotten Totten 2 drawn as SVG.

:func:`referee.svg.render_svg` finds :func:`draw` through the game registry.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule
from referee.line.picture import frame, move_arrow, side_labels
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
    _placed_card,
    _short,
    _side,
    _status,
    _verdict_badge,
)

__all__ = ["draw"]

#: What the player to move is doing, by the phase of its turn (attacker, defender).
_COLUMN, _TILE_H = 76, 62


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


def draw(state: _st2.State, options: _Options) -> _Drawing:
    """Seven wall tiles; the attacker's cards above, the defender's below (unless
    the perspective puts the attacker below), each hand beyond its side."""
    variant = "tactics" if state.rules.tactics else "base game"
    roles = ["", ""]
    roles[state.attacker], roles[state.defender] = "attacker", "defender"
    title = f"Schotten Totten 2 ({variant})"
    doing = _st2.DOING.get(state.phase.value, ("", ""))[0 if state.to_move == state.attacker else 1]
    status = _status(options, state.outcome, state.to_move, roles, doing)
    if state.final_turn and state.outcome is None:
        status += ", the attacker's last turn"
    bottom = state.defender if options.perspective is None else options.perspective
    top_player = 1 - bottom
    column, tile_h = _COLUMN, _TILE_H
    deepest = max(4, *(len(x) for t in state.tiles for x in t.sides))
    drawn, places = (top_player, bottom), len(state.tiles)
    canvas, width, left, side_h = frame(
        state,
        options,
        title,
        status,
        places=places,
        column=column,
        deepest=deepest,
        players=drawn,
        game="schotten-totten-2",
        place_h=tile_h,
    )

    def hand_row(player: int, y: float) -> float:
        label = f"{options.name(player)}'s hand ({roles[player]})"
        return _hand_row(canvas, options, state, player, y, _ST2_CARDS, label)

    top = hand_row(top_player, _MARGIN + _TITLE_H)
    tile_y = top + side_h
    side_labels(
        canvas,
        options,
        [(top_player, top + side_h / 2), (bottom, tile_y + tile_h + side_h / 2)],
        roles,
    )
    placed = _placed_card(options.last_move)
    for tile in state.tiles:
        x = left + (tile.number - 1) * column
        canvas.open(
            class_="tile " + ("damaged" if tile.damaged else "intact"),
            data_tile=tile.number,
        )
        canvas.tooltip(f"tile {tile.number}: {_rule_words(tile.rule)}")
        card_x = x + (column - _CARD_W) / 2
        here = placed[0] if placed is not None and placed[1] == str(tile.number) else None
        _side(canvas, card_x, tile_y, tile.sides[top_player], -1, _ST2_CARDS, here)
        _side(canvas, card_x, tile_y + tile_h, tile.sides[bottom], +1, _ST2_CARDS, here)
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
            badge_y = tile_y + 3 if answer.player == top_player else tile_y + tile_h - 3
            _verdict_badge(
                canvas,
                x + column - 10,
                badge_y,
                answer,
                str(tile.number),
                PLAYER_COLOURS[answer.player],
                lower_sum_wins=tile.rule.lower_sum_wins,
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
    hands = " · ".join(
        f"{_short(options.name(p), 12)} holds {n}" for p, n in enumerate(state.hand_sizes)
    )
    canvas.text(_MARGIN + 86, y, f"{piles} · {hands}", size=11, anchor="start", class_="piles")
    height = y + _MARGIN
    discard_at = (left + _CARD_W / 2, height + _CARD_H / 2)
    rows: list[tuple[str, Sequence[object], str]] = [("discards", state.discards, "discards")]
    rows += [
        (f"{_short(options.name(p), 8)}'s", state.actions[p], f"actions actions-{p}")
        for p in (state.attacker, state.defender)
    ]
    for label, cards, group in rows:
        if not cards:
            continue
        canvas.text(_MARGIN, height + 8 + _CARD_H / 2, label, size=11, anchor="start")
        _card_row(canvas, left, height, cards, _ST2_CARDS, class_=group)
        height += _CARD_H + _GAP

    def side_y(player: int, index: int) -> float:
        offset = _GAP + index * (_CARD_H + _GAP) + _CARD_H / 2
        return tile_y - offset if player == top_player else tile_y + tile_h + offset

    mover = state.to_move if options.mover is None else options.mover
    move_arrow(
        canvas,
        options,
        [tile.sides for tile in state.tiles],
        column_x=lambda place: left + (place - 0.5) * column,
        side_y=side_y,
        discard_at=discard_at,
        mover=mover,
        what="tile",
    )
    return canvas.finish(width, height + _MARGIN, "schotten-totten-2")
