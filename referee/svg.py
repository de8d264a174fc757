"""Pictures of positions as SVG: plain string building, no dependency.

:func:`render_svg` draws a position of any game of the library: the Schotten
Totten stone row, the Schotten Totten 2 wall, the Clans and Glory table. Each
card is a small rectangle in its colour, with its value and its colour letter
(so the picture reads without colour too) and a tooltip naming it.

>>> from referee import schotten_totten as st
>>> from referee.svg import render_svg
>>> game = st.new_game(seed=2024).play("R8@5").play("draw")
>>> picture = render_svg(game)
>>> picture.startswith("<svg"), 'data-card="R8"' in picture
(True, True)

Every element that matters carries a ``class`` and ``data-`` attributes
(``g.stone[data-stone="5"]``, ``g.card[data-card="R8"]``, ``g.seat``,
``g.tile``, ``g.shields``), so a picture can be styled or checked by machine.
A new game (or another state type) joins with :func:`register_renderer`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from referee.cards import Card, CardSet
from referee.clans_and_glory import layout as _cg_layout
from referee.clans_and_glory import state as _cg
from referee.clans_and_glory.setup import CLAN_CARDS as _CG_CARDS
from referee.clans_and_glory.setup import SHIELDS_PER_PLAYER as _SHIELDS
from referee.formations import ALL_KINDS, SUM_ONLY, FormationRule
from referee.game import Outcome
from referee.schotten_totten import state as _st
from referee.schotten_totten_2 import state as _st2
from referee.schotten_totten_2.wall import GATE as _GATE
from referee.schotten_totten_2.wall import SIEGE_CARDS as _ST2_CARDS

__all__ = ["CARD_FILLS", "PLAYER_COLOURS", "register_renderer", "render_svg"]

_S = TypeVar("_S")

#: Fill colour of each one-letter colour code (the same letter means the same
#: colour in every game: R red, O orange, Y yellow, G green, B blue, P purple, W white).
CARD_FILLS = {
    "R": "#d0342c",
    "O": "#f08a24",
    "Y": "#f2c81f",
    "G": "#2e9a48",
    "B": "#2b68b5",
    "P": "#8542a8",
    "W": "#f6f3ec",
}
#: Colours that carry dark text (the others carry white text).
_LIGHT = frozenset("OYW")
#: One colour per player, for claimed stones, shields and side labels.
PLAYER_COLOURS = ("#1d3557", "#8c2f1b", "#2f6b3a", "#6b4f1d")

_CARD_W, _CARD_H, _GAP = 34, 46, 4
_MARGIN, _TITLE_H, _LABEL_W = 14, 30, 78
_FONT = "font-family:Helvetica,Arial,sans-serif"
_TACTIC_FILL, _BACK_FILL, _TEXT = "#2b2b2b", "#6d5a48", "#1a1a1a"
_TACTIC_LABELS = {
    "joker": "joker",
    "spy": "spy",
    "shield_bearer": "shield",
    "shield": "shield",
    "blind_mans_bluff": "blind",
    "mud_fight": "mud",
    "recruiter": "recruit",
    "recruitment": "recruit",
    "strategist": "strat.",
    "banshee": "banshee",
    "traitor": "traitor",
    "treason": "treason",
    "redeploy": "redeploy",
    "desertion": "desert",
    "explosion": "explode",
    "support": "support",
    "exchange": "swap",
}

_RENDERERS: dict[type, Callable[[Any], str]] = {}


def register_renderer(state_type: type[_S], renderer: Callable[[_S], str]) -> None:
    """Make :func:`render_svg` draw states of ``state_type`` (and its subclasses)
    with ``renderer``, which returns a whole ``<svg>`` document.

    >>> class Empty:
    ...     pass
    >>> register_renderer(Empty, lambda state: "<svg/>")
    >>> render_svg(Empty())
    '<svg/>'
    """
    _RENDERERS[state_type] = renderer


def render_svg(state: object) -> str:
    """The SVG picture of a position, as one string starting with ``<svg``.

    ``state`` is a Schotten Totten :class:`~referee.schotten_totten.State`, a
    Schotten Totten 2 :class:`~referee.schotten_totten_2.State`, or a Clans
    and Glory :class:`~referee.clans_and_glory.State` or
    :class:`~referee.clans_and_glory.View`.

    >>> render_svg("R7")
    Traceback (most recent call last):
    ...
    TypeError: no SVG picture for a str: expected a game state such as referee.schotten_totten.State
    """
    for kind in type(state).__mro__:
        renderer = _RENDERERS.get(kind)
        if renderer is not None:
            return renderer(state)
    raise TypeError(
        f"no SVG picture for a {type(state).__name__}: "
        "expected a game state such as referee.schotten_totten.State"
    )


# --- drawing primitives ------------------------------------------------------------


def _escape(text: object) -> str:
    return (
        str(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def _attrs(attributes: dict[str, object]) -> str:
    return "".join(
        f' {name.rstrip("_").replace("_", "-")}="{_escape(value)}"'
        for name, value in attributes.items()
        if value is not None
    )


class _Canvas:
    """An SVG document being built, element by element."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.parts: list[str] = []

    def open(self, **attributes: object) -> None:
        self.parts.append(f"<g{_attrs(attributes)}>")

    def close(self) -> None:
        self.parts.append("</g>")

    def tooltip(self, text: str) -> None:
        self.parts.append(f"<title>{_escape(text)}</title>")

    def rect(self, x: float, y: float, w: float, h: float, **attributes: object) -> None:
        self.parts.append(
            f"<rect{_attrs({'x': x, 'y': y, 'width': w, 'height': h, **attributes})}/>"
        )

    def circle(self, cx: float, cy: float, r: float, **attributes: object) -> None:
        self.parts.append(f"<circle{_attrs({'cx': cx, 'cy': cy, 'r': r, **attributes})}/>")

    def path(self, d: str, **attributes: object) -> None:
        self.parts.append(f"<path{_attrs({'d': d, **attributes})}/>")

    def text(
        self,
        x: float,
        y: float,
        text: object,
        *,
        size: float = 12,
        anchor: str = "middle",
        weight: str | None = None,
        fill: str = _TEXT,
        **attributes: object,
    ) -> None:
        style = {"font_size": size, "text_anchor": anchor, "font_weight": weight, "fill": fill}
        self.parts.append(
            f"<text{_attrs({'x': x, 'y': y, **style, **attributes})}>{_escape(text)}</text>"
        )

    def finish(self, width: float, height: float, kind: str) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" class="referee-position {kind}" '
            f'style="{_FONT}">'
        )
        body = [
            f"<title>{_escape(self.title)}</title>",
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fbfaf7"/>',
            *self.parts,
        ]
        return "\n".join([head, *body, "</svg>"]) + "\n"


def _card(canvas: _Canvas, x: float, y: float, card: object, cards: CardSet) -> None:
    """One card: a clan/siege card in its colour, or a dark tactic card."""
    if type(card) is Card and card.colour in CARD_FILLS:
        fill = CARD_FILLS[card.colour]
        ink = _TEXT if card.colour in _LIGHT else "#ffffff"
        name = f"{cards.colour_name(card.colour)} {card.value}" if card in cards else str(card)
        canvas.open(class_="card", data_card=str(card))
        canvas.tooltip(f"{card} ({name})")
        canvas.rect(x, y, _CARD_W, _CARD_H, rx=4, fill=fill, stroke="#333333", stroke_width=1)
        canvas.text(x + 4, y + 10, card.colour, size=8, anchor="start", fill=ink)
        canvas.text(x + _CARD_W / 2, y + 31, card.value, size=17, weight="bold", fill=ink)
        canvas.close()
        return
    name = str(card)
    canvas.open(class_="card tactic", data_card=name)
    canvas.tooltip(f"{name.replace('_', ' ')} (tactic card)")
    canvas.rect(x, y, _CARD_W, _CARD_H, rx=4, fill=_TACTIC_FILL, stroke="#000000", stroke_width=1)
    canvas.rect(x + 3, y + 3, _CARD_W - 6, _CARD_H - 6, rx=3, fill="none", stroke="#c9a227")
    label = _TACTIC_LABELS.get(name, name[:7])
    canvas.text(x + _CARD_W / 2, y + 27, label, size=7, weight="bold", fill="#f1e3b0")
    canvas.close()


def _card_back(canvas: _Canvas, x: float, y: float, card: Card | None) -> None:
    """A face-down card; the referee's view still names it in the tooltip."""
    canvas.open(class_="card face-down", data_card=None if card is None else str(card))
    canvas.tooltip("face-down card" + ("" if card is None else f" ({card})"))
    canvas.rect(x, y, _CARD_W, _CARD_H, rx=4, fill=_BACK_FILL, stroke="#333333")
    canvas.path(
        f"M{x + 5},{y + 5} L{x + _CARD_W - 5},{y + _CARD_H - 5} "
        f"M{x + _CARD_W - 5},{y + 5} L{x + 5},{y + _CARD_H - 5}",
        stroke="#a89580",
        stroke_width=1.5,
    )
    if card is not None:
        canvas.text(x + _CARD_W / 2, y + _CARD_H - 4, str(card).lower(), size=8, fill="#f6f3ec")
    canvas.close()


def _card_row(
    canvas: _Canvas, x: float, y: float, cards: Iterable[object], cardset: CardSet, **group: object
) -> float:
    """Cards side by side from ``x``; returns the x after the last one."""
    canvas.open(**group)
    for card in cards:
        _card(canvas, x, y, card, cardset)
        x += _CARD_W + _GAP
    canvas.close()
    return x


def _side(
    canvas: _Canvas,
    x: float,
    stone_edge: float,
    cards: Sequence[object],
    direction: int,
    cardset: CardSet,
) -> None:
    """A side's cards in play order, the first one next to the stone; ``direction``
    is -1 to stack upwards (towards the top player), +1 downwards."""
    for i, card in enumerate(cards):
        offset = _GAP + i * (_CARD_H + _GAP)
        y = stone_edge - offset - _CARD_H if direction < 0 else stone_edge + offset
        _card(canvas, x, y, card, cardset)


def _status(outcome: Outcome | None, to_move: int, roles: Sequence[str] = ()) -> str:
    def who(player: int) -> str:
        return f"player {player + 1}" + (f" ({roles[player]})" if roles else "")

    if outcome is None:
        return f"{who(to_move)} to move"
    if outcome.winner is None:
        return f"game over: shared result ({outcome.reason.replace('_', ' ')})"
    return f"game over: {who(outcome.winner)} wins ({outcome.reason.replace('_', ' ')})"


def _shield_path(x: float, y: float, w: float, h: float) -> str:
    return (
        f"M{x},{y} h{w} v{h * 0.45} q0,{h * 0.4} {-w / 2},{h * 0.55} "
        f"q{-w / 2},{-h * 0.15} {-w / 2},{-h * 0.55} z"
    )


# --- Schotten Totten ------------------------------------------------------------


def _schotten_totten(state: _st.State) -> str:
    """Nine stones in a row; player 1's cards above, player 2's below."""
    rules = state.rules
    variants = [n for f, n in ((rules.tactics, "tactics"), (rules.early_bird, "early bird")) if f]
    title = f"Schotten Totten ({', '.join([rules.edition, *variants])})"
    status = _status(state.outcome, state.to_move)
    canvas = _Canvas(f"{title}: ply {state.ply}, {status}")
    column, stone_h = 80, 50
    deepest = max(
        3, *(s.rule.size for s in state.stones), *(len(x) for s in state.stones for x in s.sides)
    )
    side_h = deepest * (_CARD_H + _GAP) + _GAP
    top = _MARGIN + _TITLE_H
    stone_y = top + side_h
    left = _MARGIN + _LABEL_W
    width = left + len(state.stones) * column + _MARGIN
    canvas.text(_MARGIN, _MARGIN + 14, title, size=15, anchor="start", weight="bold")
    canvas.text(width - _MARGIN, _MARGIN + 14, status, size=11, anchor="end")
    for player, y in ((0, top + side_h / 2), (1, stone_y + stone_h + side_h / 2)):
        canvas.text(
            _MARGIN,
            y,
            f"player {player + 1}",
            size=12,
            anchor="start",
            weight="bold",
            fill=PLAYER_COLOURS[player],
            class_="side-label",
        )
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
        _side(canvas, card_x, stone_y, stone.sides[0], -1, _st.CLAN_CARDS)
        _side(canvas, card_x, stone_y + stone_h, stone.sides[1], +1, _st.CLAN_CARDS)
        fill = "#bdb7aa" if owner is None else PLAYER_COLOURS[owner]
        ink = _TEXT if owner is None else "#ffffff"
        canvas.rect(
            x + 6,
            stone_y + 3,
            column - 12,
            stone_h - 6,
            rx=14,
            fill=fill,
            stroke="#5b5548",
            stroke_width=1.5,
        )
        canvas.text(x + column / 2, stone_y + 22, number, size=16, weight="bold", fill=ink)
        captions = []
        if stone.style is not None:
            captions.append("mud fight" if stone.style.name == "mud_fight" else "blind bluff")
        if owner is not None:
            captions.append(f"player {owner + 1}'s")
        for line, caption in enumerate(captions):
            canvas.text(
                x + column / 2, stone_y + 33 + 9 * line, caption, size=8, fill=ink, class_="caption"
            )
        done = stone.completed
        if done[0] is not None and done[1] is not None and done[0] != done[1]:
            first = 0 if done[0] < done[1] else 1
            y = stone_y - 8 if first == 0 else stone_y + stone_h + 8
            canvas.open(class_="first-complete", data_player=first)
            canvas.tooltip(f"player {first + 1} completed its formation here first")
            canvas.circle(x + column - 9, y, 7, fill="#ffffff", stroke=PLAYER_COLOURS[first])
            canvas.text(
                x + column - 9, y + 3, "1st", size=6.5, weight="bold", fill=PLAYER_COLOURS[first]
            )
            canvas.close()
        canvas.close()
    y = stone_y + stone_h + side_h + 18
    piles = f"deck {state.deck_size}"
    if rules.tactics:
        piles += f" · tactic pile {state.tactic_deck_size}"
        piles += f" · tactic cards played {state.tactics_played[0]}–{state.tactics_played[1]}"
    hands = " · ".join(f"player {p + 1} holds {n}" for p, n in enumerate(state.hand_sizes))
    canvas.text(_MARGIN, y, f"{piles} · {hands}", size=11, anchor="start", class_="piles")
    height = y + _MARGIN
    if state.discards:
        canvas.text(_MARGIN, y + 20 + _CARD_H / 2, "discards", size=11, anchor="start")
        _card_row(canvas, left, y + 12, state.discards, _st.CLAN_CARDS, class_="discards")
        height = y + 12 + _CARD_H + _MARGIN
    return canvas.finish(width, height, "schotten-totten")


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


def _schotten_totten_2(state: _st2.State) -> str:
    """Seven wall tiles; the attacker's cards above, the defender's below."""
    variant = "tactics" if state.rules.tactics else "base game"
    roles = ["", ""]
    roles[state.attacker], roles[state.defender] = "attacker", "defender"
    title = f"Schotten Totten 2 ({variant})"
    status = _status(state.outcome, state.to_move, roles)
    if state.final_turn and state.outcome is None:
        status += ", the attacker's last turn"
    canvas = _Canvas(f"{title}: ply {state.ply}, {status}")
    column, tile_h = 92, 58
    deepest = max(4, *(len(x) for t in state.tiles for x in t.sides))
    side_h = deepest * (_CARD_H + _GAP) + _GAP
    top = _MARGIN + _TITLE_H
    tile_y = top + side_h
    left = _MARGIN + _LABEL_W
    width = left + len(state.tiles) * column + _MARGIN
    canvas.text(_MARGIN, _MARGIN + 14, title, size=15, anchor="start", weight="bold")
    canvas.text(width - _MARGIN, _MARGIN + 14, status, size=11, anchor="end")
    for player, y in (
        (state.attacker, top + side_h / 2),
        (state.defender, tile_y + tile_h + side_h / 2),
    ):
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
        _side(canvas, card_x, tile_y, tile.sides[state.attacker], -1, _ST2_CARDS)
        _side(canvas, card_x, tile_y + tile_h, tile.sides[state.defender], +1, _ST2_CARDS)
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
            tile_y + 33,
            "damaged" if tile.damaged else "intact",
            size=9,
            fill=ink,
            class_="caption",
        )
        canvas.text(
            x + column / 2, tile_y + 46, _rule_label(tile.rule), size=9, fill=ink, class_="rule"
        )
        canvas.close()
    y = tile_y + tile_h + side_h + 20
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


# --- Clans and Glory ----------------------------------------------------------------


def _clans_and_glory(state: _cg.State | _cg.View) -> str:
    """The tableaus with their seats as laid out, and each tableau's shield stack."""
    layout = state.layout
    outcome = state.outcome
    status = _status(outcome, state.to_move)
    viewer = f", seen by player {state.viewer + 1}" if isinstance(state, _cg.View) else ""
    title = f"Clans and Glory, {state.players} players"
    canvas = _Canvas(f"{title}: {status}{viewer}")
    cell_w, cell_h = _CARD_W + 8, _CARD_H + 8
    grid = layout.grid or _row_grid(layout)
    cells = dict(zip(layout.seats, grid, strict=True))
    top, left = _MARGIN + _TITLE_H + 14, _MARGIN
    columns = max(c for _, c in grid) + 1
    rows = max(r for r, _ in grid) + 1
    width = max(left + columns * cell_w + _MARGIN, 560)
    canvas.text(_MARGIN, _MARGIN + 14, title, size=15, anchor="start", weight="bold")
    canvas.text(width - _MARGIN, _MARGIN + 14, status + viewer, size=11, anchor="end")
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
                x + _CARD_W / 2, y + _CARD_H / 2 + 4, f"s{seat.number}", size=9, fill="#8a7a5c"
            )
        elif isinstance(placed, _cg.HiddenCard):
            _card_back(canvas, x, y, None)
        elif not placed.face_up:
            _card_back(canvas, x, y, placed.card)
        else:
            _card(canvas, x, y, placed.card, _CG_CARDS)
        canvas.close()
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
            canvas.text(sx + 7.5, y + 12, player + 1, size=9, weight="bold", fill="#ffffff")
        if not stack:
            canvas.text(bx + bw / 2, y + 12, "no shields", size=9, fill="#8a7a5c")
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
    return canvas.finish(width, y + _MARGIN - 6, "clans-and-glory")


def _row_grid(layout: _cg_layout.Layout) -> tuple[tuple[int, int], ...]:
    """For a layout without a grid: one row per tableau, seats left to right."""
    return tuple(
        (seat.tableau - 1, layout.seats_of(seat.tableau).index(seat)) for seat in layout.seats
    )


register_renderer(_st.State, _schotten_totten)
register_renderer(_st2.State, _schotten_totten_2)
register_renderer(_cg.State, _clans_and_glory)
register_renderer(_cg.View, _clans_and_glory)
