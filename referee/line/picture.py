"""The frame of a game on a line drawn as SVG (see :mod:`referee.svg`): the
canvas with its title, the room for the sides and the row of places with the
cards on their sides, their marks and verdicts, the hands beyond the sides,
the arrow of a card moved. Each game draws what its places show of their
own (:func:`place_row`'s ``body``); a plain game (:mod:`referee.line.plain`)
is drawn whole by :func:`draw_plain`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from referee.cards import CardSet
from referee.svg import (
    _CARD_H,
    _CARD_W,
    _GAP,
    _HAND_H,
    _LABEL_W,
    _MARGIN,
    _TITLE_H,
    PLAYER_COLOURS,
    _answers_at,
    _arrow,
    _Canvas,
    _Drawing,
    _hand,
    _hand_width,
    _header,
    _marks,
    _moved_card,
    _Options,
    _placed_card,
    _short,
    _status,
    _verdict_badge,
    card_side,
)

__all__ = [
    "draw_plain",
    "frame",
    "hand_row",
    "holdings",
    "move_arrow",
    "place_row",
    "row_arrow",
    "side_labels",
]


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


def place_row(
    canvas: _Canvas,
    options: _Options,
    places: Sequence[Any],
    *,
    left: float,
    column: float,
    y: float,
    height: float,
    players: tuple[int, int],
    cards: CardSet,
    noun: str,
    group: Callable[[int, Any], dict[str, object]],
    body: Callable[[int, Any, float], None],
    pad: float = 0,
    lower_sum_wins: Callable[[Any], bool] = lambda place: False,
) -> None:
    """The row of ``places`` (numbered from 1) at ``y``, each ``height`` high in
    its ``column`` from ``left``: a group (``group(number, place)``, its
    attributes) holding the cards of ``players`` (above, below) with the card
    the last move placed framed, then ``body(number, place, x)`` (what the
    place itself shows); the last-move and highlight rings (``pad`` beyond the
    column) and the verdict badges of the claims the options show."""
    placed = _placed_card(options.last_move)
    top, bottom = players
    for number, place in enumerate(places, start=1):
        x = left + (number - 1) * column
        canvas.open(**group(number, place))
        card_x = x + (column - _CARD_W) / 2
        here = placed[0] if placed is not None and placed[1] == str(number) else None
        card_side(canvas, card_x, y, place.sides[top], -1, cards, here)
        card_side(canvas, card_x, y + height, place.sides[bottom], +1, cards, here)
        body(number, place, x)
        canvas.close()
        box = (x + pad, y - pad, column - 2 * pad, height + 2 * pad)
        _marks(canvas, str(number), box, f"{noun} {number}")
        for answer in _answers_at(options, number):
            badge_y = y + 3 if answer.player == top else y + height - 3
            colour = PLAYER_COLOURS[answer.player]
            low = lower_sum_wins(place)
            _verdict_badge(
                canvas, x + column - 10, badge_y, answer, str(number), colour, lower_sum_wins=low
            )


def holdings(options: _Options, hand_sizes: Sequence[int]) -> str:
    """How many cards each player holds, in words."""
    return " · ".join(f"{_short(options.name(p), 12)} holds {n}" for p, n in enumerate(hand_sizes))


def row_arrow(
    canvas: _Canvas,
    options: _Options,
    state: Any,
    places: Sequence[Any],
    *,
    left: float,
    column: float,
    y: float,
    height: float,
    top: int,
    discard_at: tuple[float, float],
    noun: str,
) -> None:
    """:func:`move_arrow` for the row drawn by :func:`place_row`."""

    def side_y(player: int, index: int) -> float:
        offset = _GAP + index * (_CARD_H + _GAP) + _CARD_H / 2
        return y - offset if player == top else y + height + offset

    mover = state.to_move if options.mover is None else options.mover
    move_arrow(
        canvas,
        options,
        [place.sides for place in places],
        column_x=lambda place: left + (place - 0.5) * column,
        side_y=side_y,
        discard_at=discard_at,
        mover=mover,
        what=noun,
    )


def draw_plain(state: Any, options: _Options, *, title: str, game: str, cards: CardSet) -> _Drawing:
    """A plain game's position (:mod:`referee.line.plain`): its places
    (``state.stones``) in a row, one player's cards above, the other's below,
    each hand beyond its side, the pile's size at the foot."""
    bottom = 1 if options.perspective is None else options.perspective
    top, column, place_h = 1 - bottom, 64, 48
    places = state.stones
    status = _status(options, state.outcome, state.to_move)
    canvas, width, left, side_h = frame(
        state,
        options,
        title,
        status,
        places=len(places),
        column=column,
        deepest=max(s.size for s in places),
        players=(top, bottom),
        game=game,
        place_h=place_h,
    )
    y = hand_row(canvas, options, state, top, _MARGIN + _TITLE_H, cards, "hand")
    row_y = y + side_h
    side_labels(canvas, options, [(top, y + side_h / 2), (bottom, row_y + place_h + side_h / 2)])

    def body(number: int, place: Any, x: float) -> None:
        fill = "#bdb7aa" if place.owner is None else PLAYER_COLOURS[place.owner]
        canvas.rect(x + 4, row_y + 3, column - 8, place_h - 6, rx=12, fill=fill)
        canvas.text(x + column / 2, row_y + 30, number, size=16, weight="bold")

    place_row(
        canvas,
        options,
        places,
        left=left,
        column=column,
        y=row_y,
        height=place_h,
        players=(top, bottom),
        cards=cards,
        noun="stone",
        group=lambda number, place: {
            "class_": "stone",
            "data_stone": number,
            "data_owner": place.owner,
        },
        body=body,
    )
    y = hand_row(canvas, options, state, bottom, row_y + place_h + side_h, cards, "hand") + 18
    piles = f"pile {state.deck_size} · {holdings(options, state.hand_sizes)}"
    canvas.text(_MARGIN, y, piles, size=11, anchor="start", class_="piles")
    return canvas.finish(width, y + _MARGIN, game)
