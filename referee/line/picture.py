"""The frame of a game on a line drawn as SVG (see :mod:`referee.svg`): the
canvas with its title, the room for the sides and the row of places with the
cards on their sides, their marks and verdicts, the hands beyond the sides,
the arrow of a card moved. Each game draws what its places show of their
own (:func:`place_row`'s ``body``); a plain game (:mod:`referee.line.plain`)
is drawn whole by :func:`draw_plain`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    "Row",
    "RowShape",
    "draw_plain",
    "frame",
    "hand_row",
    "holdings",
    "move_arrow",
    "open_row",
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


@dataclass
class Row:
    """A picture of a row of places under way (see :func:`open_row`): its
    ``canvas`` (``width`` wide), the places' columns from ``left``, each
    ``column`` wide; the row at ``y``, ``height`` high, between the sides of
    ``players`` (above, below), each ``side_h`` deep; the game's
    :class:`RowShape`, the ``places`` and the players' ``roles`` (if any)."""

    canvas: _Canvas
    options: _Options
    state: Any
    width: float
    left: float
    column: float
    y: float
    height: float
    side_h: float
    players: tuple[int, int]
    shape: RowShape
    places: Sequence[Any]
    roles: Sequence[str]

    def hand(self, player: int, y: float) -> float:
        """Draw ``player``'s hand at ``y`` if shown; the next free ``y``."""
        roles = self.roles
        label = f"{self.options.name(player)}'s hand" + (f" ({roles[player]})" if roles else "")
        cards = self.shape.cards
        return hand_row(self.canvas, self.options, self.state, player, y, cards, label)

    def draw_places(
        self,
        *,
        group: Callable[[int, Any], dict[str, object]],
        body: Callable[[int, Any, float], None],
        pad: float = 0,
        tooltip: Callable[[int, Any], str] | None = None,
        lower_sum_wins: Callable[[Any], bool] = lambda place: False,
    ) -> None:
        """The row of the state's places (numbered from 1): each a group
        (``group(number, place)``, its attributes; its ``tooltip``) holding the
        cards of both sides, the card the last move placed framed, then
        ``body(number, place, x)`` (what the place itself shows); the
        last-move and highlight rings (``pad`` beyond the column) and the
        verdict badges of the claims the options show."""
        canvas, options, y, height, column = (
            self.canvas,
            self.options,
            self.y,
            self.height,
            self.column,
        )
        placed = _placed_card(options.last_move)
        top, bottom = self.players
        for number, place in enumerate(self.places, start=1):
            x = self.left + (number - 1) * column
            canvas.open(**group(number, place))
            if tooltip is not None:
                canvas.tooltip(tooltip(number, place))
            card_x = x + (column - _CARD_W) / 2
            here = placed[0] if placed is not None and placed[1] == str(number) else None
            card_side(canvas, card_x, y, place.sides[top], -1, self.shape.cards, here)
            card_side(canvas, card_x, y + height, place.sides[bottom], +1, self.shape.cards, here)
            body(number, place, x)
            canvas.close()
            box = (x + pad, y - pad, column - 2 * pad, height + 2 * pad)
            _marks(canvas, str(number), box, f"{self.shape.noun} {number}")
            for answer in _answers_at(options, number):
                badge_y = y + 3 if answer.player == top else y + height - 3
                colour, low = PLAYER_COLOURS[answer.player], lower_sum_wins(place)
                _verdict_badge(
                    canvas,
                    x + column - 10,
                    badge_y,
                    answer,
                    str(number),
                    colour,
                    lower_sum_wins=low,
                )

    def arrow(self, discard_at: tuple[float, float]) -> None:
        """:func:`move_arrow` for this row (``discard_at``: the discard pile)."""
        top, y, height = self.players[0], self.y, self.height

        def side_y(player: int, index: int) -> float:
            offset = _GAP + index * (_CARD_H + _GAP) + _CARD_H / 2
            return y - offset if player == top else y + height + offset

        options = self.options
        move_arrow(
            self.canvas,
            options,
            [place.sides for place in self.places],
            column_x=lambda place: self.left + (place - 0.5) * self.column,
            side_y=side_y,
            discard_at=discard_at,
            mover=self.state.to_move if options.mover is None else options.mover,
            what=self.shape.noun,
        )


@dataclass(frozen=True)
class RowShape:
    """How a game draws its row: its ``game`` name, what a place is called
    (``noun``), its ``cards``, a place's ``column`` width and ``height``."""

    game: str
    noun: str
    cards: CardSet
    column: float
    height: float


def open_row(
    state: Any,
    options: _Options,
    shape: RowShape,
    places: Sequence[Any],
    title: str,
    status: str,
    deepest: int,
    players: tuple[int, int],
    roles: Sequence[str] = (),
) -> Row:
    """The :func:`frame` of the row of ``places`` as ``shape`` draws it,
    with sides ``deepest`` cards deep, the hand of the player above
    (``players``: above, below; its label names its ``roles`` if any) and
    both players' names beside their sides: the :class:`Row` to draw the
    places on."""
    column, height = shape.column, shape.height
    canvas, width, left, side_h = frame(
        state,
        options,
        title,
        status,
        places=len(places),
        column=column,
        deepest=deepest,
        players=players,
        game=shape.game,
        place_h=height,
    )
    row = Row(
        canvas,
        options,
        state,
        width,
        left,
        column,
        0,
        height,
        side_h,
        players,
        shape,
        places,
        roles,
    )
    top = row.hand(players[0], _MARGIN + _TITLE_H)
    row.y = top + side_h
    labels = [(players[0], top + side_h / 2), (players[1], row.y + height + side_h / 2)]
    side_labels(canvas, options, labels, roles)
    return row


def holdings(options: _Options, hand_sizes: Sequence[int]) -> str:
    """How many cards each player holds, in words."""
    return " · ".join(f"{_short(options.name(p), 12)} holds {n}" for p, n in enumerate(hand_sizes))


def draw_plain(state: Any, options: _Options, shape: RowShape, title: str) -> _Drawing:
    """A plain game's position (:mod:`referee.line.plain`): its places
    (``state.stones``) in a row, one player's cards above, the other's below,
    each hand beyond its side, the pile's size at the foot."""
    bottom = 1 if options.perspective is None else options.perspective
    row = open_row(
        state,
        options,
        shape,
        state.stones,
        title,
        _status(options, state.outcome, state.to_move),
        max(s.size for s in state.stones),
        (1 - bottom, bottom),
    )
    canvas, y, column = row.canvas, row.y, row.column

    def body(number: int, place: Any, x: float) -> None:
        fill = "#bdb7aa" if place.owner is None else PLAYER_COLOURS[place.owner]
        canvas.rect(x + 4, y + 3, column - 8, row.height - 6, rx=12, fill=fill)
        canvas.text(x + column / 2, y + 30, number, size=16, weight="bold")

    def group(number: int, place: Any) -> dict[str, object]:
        return {"class_": shape.noun, f"data_{shape.noun}": number, "data_owner": place.owner}

    row.draw_places(group=group, body=body)
    foot = row.hand(bottom, y + row.height + row.side_h) + 18
    piles = f"pile {state.deck_size} · {holdings(options, state.hand_sizes)}"
    canvas.text(_MARGIN, foot, piles, size=11, anchor="start", class_="piles")
    return canvas.finish(row.width, foot + _MARGIN, shape.game)
