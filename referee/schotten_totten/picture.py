"""Schotten Totten drawn as SVG.

:func:`referee.svg.render_svg` finds :func:`draw` through the game registry
(the text picture is :mod:`~referee.schotten_totten.render`).
"""

from __future__ import annotations

from referee.line.picture import frame, move_arrow, side_labels
from referee.line.picture import hand_row as _hand_row
from referee.schotten_totten import state as _st
from referee.schotten_totten.render import DOING as _DOING
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

#: What the player to move is doing, by the phase of its turn.
_COLUMN, _STONE_H = 64, 62


# --- Schotten Totten ------------------------------------------------------------


def draw(state: _st.State, options: _Options) -> _Drawing:
    """Nine stones in a row; one player's cards above, the other's below (by
    default player 1 above), each hand beyond its side."""
    rules = state.rules
    variants = [n for f, n in ((rules.tactics, "tactics"), (rules.early_bird, "early bird")) if f]
    title = f"Schotten Totten ({', '.join([rules.edition, *variants])})"
    status = _status(options, state.outcome, state.to_move, doing=_DOING.get(state.phase.value, ""))
    bottom = 1 if options.perspective is None else options.perspective
    top_player = 1 - bottom
    column, stone_h = _COLUMN, _STONE_H
    deepest = max(
        3, *(s.rule.size for s in state.stones), *(len(x) for s in state.stones for x in s.sides)
    )
    drawn, places = (top_player, bottom), len(state.stones)
    canvas, width, left, side_h = frame(
        state,
        options,
        title,
        status,
        places=places,
        column=column,
        deepest=deepest,
        players=drawn,
        game="schotten-totten",
        place_h=stone_h,
    )

    def hand_row(player: int, y: float) -> float:
        label = f"{options.name(player)}'s hand"
        return _hand_row(canvas, options, state, player, y, _st.CLAN_CARDS, label)

    y: float = _MARGIN + _TITLE_H

    y = hand_row(top_player, y)
    stone_y = y + side_h
    side_labels(
        canvas,
        options,
        [(top_player, y + side_h / 2), (bottom, stone_y + stone_h + side_h / 2)],
    )
    placed = _placed_card(options.last_move)
    for number, stone in enumerate(state.stones, start=1):
        x = left + (number - 1) * column
        owner = stone.owner
        canvas.open(
            class_="stone" + ("" if owner is None else " claimed"),
            data_stone=number,
            data_owner=owner,
            data_style=None if stone.style is None else str(stone.style),
        )
        card_x = x + (column - _CARD_W) / 2
        here = placed[0] if placed is not None and placed[1] == str(number) else None
        _side(canvas, card_x, stone_y, stone.sides[top_player], -1, _st.CLAN_CARDS, here)
        _side(canvas, card_x, stone_y + stone_h, stone.sides[bottom], +1, _st.CLAN_CARDS, here)
        fill = "#bdb7aa" if owner is None else PLAYER_COLOURS[owner]
        ink = _TEXT if owner is None else "#ffffff"
        canvas.rect(
            x + 4,
            stone_y + 3,
            column - 8,
            stone_h - 6,
            rx=14,
            fill=fill,
            stroke="#5b5548",
            stroke_width=1.5,
        )
        canvas.text(x + column / 2, stone_y + 24, number, size=16, weight="bold", fill=ink)
        captions = []
        if stone.style is not None:
            captions.append("mud fight" if stone.style.name == "mud_fight" else "blind bluff")
        if owner is not None:
            captions.append(_short(options.name(owner), 8))
        for line, caption in enumerate(captions):
            canvas.text(
                x + column / 2,
                stone_y + 37 + 11 * line,
                caption,
                size=10,
                fill=ink,
                class_="caption",
            )
        done = stone.completed
        if done[0] is not None and done[1] is not None and done[0] != done[1]:
            first = 0 if done[0] < done[1] else 1
            y = stone_y + 3 if first == top_player else stone_y + stone_h - 3
            canvas.open(class_="first-complete", data_player=first, style=canvas.flip(y))
            canvas.tooltip(
                f"{options.name(first)} completed a formation here first (wins a tie here)"
            )
            canvas.circle(x + 10, y, 10, fill="#ffffff", stroke=PLAYER_COLOURS[first])
            canvas.text(x + 10, y + 4, "1st", size=10, weight="bold", fill=PLAYER_COLOURS[first])
            canvas.close()
        canvas.close()
        box = (x + 1, stone_y - 1, column - 2, stone_h + 2)
        _marks(canvas, str(number), box, f"stone {number}")
        for answer in _answers_at(options, number):
            badge_y = stone_y + 3 if answer.player == top_player else stone_y + stone_h - 3
            _verdict_badge(
                canvas,
                x + column - 10,
                badge_y,
                answer,
                str(number),
                PLAYER_COLOURS[answer.player],
            )
    y = stone_y + stone_h + side_h
    y = hand_row(bottom, y + _GAP)
    y += 18
    piles = f"deck {state.deck_size}"
    if rules.tactics:
        piles += f" · tactic pile {state.tactic_deck_size}"
        piles += f" · tactic cards played {state.tactics_played[0]}–{state.tactics_played[1]}"
    hands = " · ".join(
        f"{_short(options.name(p), 12)} holds {n}" for p, n in enumerate(state.hand_sizes)
    )
    canvas.text(_MARGIN, y, f"{piles} · {hands}", size=11, anchor="start", class_="piles")
    height = y + _MARGIN
    discard_at = (left + _CARD_W / 2, y + 12 + _CARD_H / 2)
    if state.discards:
        canvas.text(_MARGIN, y + 20 + _CARD_H / 2, "discards", size=11, anchor="start")
        _card_row(canvas, left, y + 12, state.discards, _st.CLAN_CARDS, class_="discards")
        height = y + 12 + _CARD_H + _MARGIN

    def side_y(player: int, index: int) -> float:
        offset = _GAP + index * (_CARD_H + _GAP) + _CARD_H / 2
        return stone_y - offset if player == top_player else stone_y + stone_h + offset

    mover = state.to_move if options.mover is None else options.mover
    move_arrow(
        canvas,
        options,
        [stone.sides for stone in state.stones],
        column_x=lambda place: left + (place - 0.5) * column,
        side_y=side_y,
        discard_at=discard_at,
        mover=mover,
        what="stone",
    )
    return canvas.finish(width, height, "schotten-totten")
