"""Pictures of positions as SVG: plain string building, no dependency.

:func:`render_svg` draws a position of any game of the library: the Schotten
Totten stone row, the Schotten Totten 2 wall, the Clans and Glory table. Each
card is a small rectangle in its colour, with its value and its colour letter
(so the picture reads without colour too) and a tooltip naming it. Options
mark the last move, highlight places, show the hands, turn the table and draw
the prover's verdict on each stone that can be claimed:

>>> from referee import schotten_totten as st
>>> from referee.svg import render_svg
>>> game = st.new_game(seed=2024).play("R8@5").play("draw")
>>> picture = render_svg(game, last_move="R8@5")
>>> picture.startswith("<svg"), 'data-card="R8"' in picture, 'class="last-move"' in picture
(True, True, True)

Every element that matters carries a ``class`` and ``data-`` attributes
(``g.stone[data-stone="5"]``, ``g.card[data-card="R8"]``, ``g.seat``,
``g.tile``, ``g.shields``, ``g.hand``, ``g.verdict``), so a picture can be
styled or checked by machine. Each game is drawn by its descriptor's
``picture`` (see :mod:`referee.games`), imported on first use: importing this
module imports no game. A game without a picture is drawn as its text, under
the same title bar; another state type joins with :func:`register_renderer`.
Every text is at least 10 px tall at the default size.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from referee._words import evidence_words, move_words, reason_words
from referee.cards import Card, CardSet
from referee.game import Outcome
from referee.games import descriptor_of

if TYPE_CHECKING:
    from referee.records import ClaimAnswer, GameFormat

__all__ = [
    "CARD_FILLS",
    "CARD_H",
    "CARD_W",
    "GAP",
    "INK",
    "MARGIN",
    "MIN_FONT_SIZE",
    "PLAYER_COLOURS",
    "TITLE_H",
    "Canvas",
    "Drawing",
    "Options",
    "card_row",
    "card_side",
    "register_renderer",
    "render_svg",
    "short_name",
    "status_words",
]

_S = TypeVar("_S")

#: Fill colour of each one-letter colour code (the same letter means the same
#: colour in every game: R red, O orange, Y yellow, G green, B blue, P purple, W white).
CARD_FILLS = MappingProxyType(
    {
        "R": "#d0342c",
        "O": "#f08a24",
        "Y": "#f2c81f",
        "G": "#2e9a48",
        "B": "#2b68b5",
        "P": "#8542a8",
        "W": "#f6f3ec",
    }
)
#: Colours that carry dark text (the others carry white text).
_LIGHT = frozenset("OYW")
#: One colour per player, for claimed stones, shields and side labels.
PLAYER_COLOURS = ("#1d3557", "#8c2f1b", "#2f6b3a", "#6b4f1d")
#: The smallest font size (px) of any text, at the default size of a picture.
MIN_FONT_SIZE = 10
#: The font size (px) of a card's value, at the default size of a picture.
_CARD_VALUE_SIZE = 22
#: Every player whose hand can be drawn (a game draws those it has).
_ALL_HANDS = frozenset(range(len(PLAYER_COLOURS)))

_CARD_W, _CARD_H, _GAP = 40, 54, 4
_MARGIN, _TITLE_H, _LABEL_W = 14, 46, 64
_FONT = "font-family:Helvetica,Arial,sans-serif"
_TACTIC_FILL, _BACK_FILL, _TEXT = "#2b2b2b", "#6d5a48", "#1a1a1a"
_MARK, _HIGHLIGHT, _YES, _NO = "#e07b00", "#c2185b", "#1b7f3b", "#9b1c1c"
_DRAWN = "#1f78b4"
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
    "redeploy": "redepl.",
    "desertion": "desert",
    "explosion": "explode",
    "support": "support",
    "exchange": "swap",
}

_RENDERERS: dict[type, Callable[[Any], str]] = {}


def register_renderer(state_type: type[_S], renderer: Callable[[_S], str]) -> None:
    """Make :func:`render_svg` draw states of ``state_type`` (and its subclasses)
    with ``renderer``, which returns a whole ``<svg>`` document (the drawing
    options of :func:`render_svg` apply to the library's own games only).

    >>> class Empty:
    ...     pass
    >>> register_renderer(Empty, lambda state: "<svg/>")
    >>> render_svg(Empty())
    '<svg/>'
    """
    _RENDERERS[state_type] = renderer


@dataclass
class _Options:
    """How to draw one picture (the keyword arguments of :func:`render_svg`)."""

    last_move: str | None = None
    highlight: frozenset[str] = frozenset()
    hands: frozenset[int] = frozenset()
    perspective: int | None = None
    size: float | None = None
    claims: Sequence[ClaimAnswer] = ()
    #: When set, cards are drawn as ``<use>`` of shared symbols collected here.
    symbols: dict[str, str] | None = None
    note: str | None = None
    #: The players' names (``"player N"`` where missing).
    names: Sequence[str] = ()
    #: Who made ``last_move`` (default: the player to move, who usually still is).
    mover: int | None = None
    #: Cards to mark in a hand as just drawn: ``(player, kinds)``, one flag per
    #: card drawn (the last cards of the hand), true for a tactic card.
    drawn: tuple[int, tuple[bool, ...]] | None = None
    #: For the replay page: every hand card also carries its back (to hide a hand
    #: without removing it), and the parts of the two players carry the offsets
    #: that turn the table around (``--dy``, see :func:`_flip`).
    replay: bool = False
    #: Whether verdicts name example cards (not in a one-player page's pictures).
    examples: bool = True

    def name(self, player: int) -> str:
        """The player's name, or ``"player N"``."""
        names = self.names
        if 0 <= player < len(names) and names[player]:
            return names[player]
        return f"player {player + 1}"


@dataclass
class _Drawing:
    """A finished picture in pieces: each top-level element with its layer."""

    width: float
    height: float
    kind: str
    title: str
    pieces: list[tuple[int, str]] = field(default_factory=list)
    symbols: dict[str, str] = field(default_factory=dict)

    def head(self, size: float | None) -> str:
        scale = 1.0 if size is None else size / self.width
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(self.width * scale)}" '
            f'height="{_num(self.height * scale)}" viewBox="0 0 {_num(self.width)} '
            f'{_num(self.height)}" role="img" class="referee-position {self.kind}" '
            f'style="{_FONT}">'
        )

    def svg(self, size: float | None) -> str:
        defs = []
        if self.symbols:
            defs = ["<defs>", *self.symbols.values(), "</defs>"]
        body = [p for _, p in sorted(self.pieces, key=lambda item: item[0])]
        return "\n".join([self.head(size), *defs, *body, "</svg>"]) + "\n"


def render_svg(
    state: object,
    *,
    last_move: object = None,
    highlight: Iterable[int | str] = (),
    show_hands: bool | Iterable[int] = True,
    perspective: int | None = None,
    size: float | None = None,
    claims: bool | Iterable[ClaimAnswer] = False,
    names: Sequence[str] = (),
) -> str:
    """The SVG picture of a position, as one string starting with ``<svg``.

    ``state`` is a Schotten Totten :class:`~referee.schotten_totten.State`, a
    Schotten Totten 2 :class:`~referee.schotten_totten_2.State`, or a Clans
    and Glory :class:`~referee.clans_and_glory.State` (a full state or a
    player's view of one, as in every game).

    - ``last_move``: the move that led here (a move or its text); the places
      it touched are ringed, the card it placed is framed, a card it moved
      gets an arrow from where it was, and the move is written in the title
      bar in words.
    - ``highlight``: places to ring: stone or tile numbers, or seats like ``"t2s4"``.
    - ``show_hands``: ``True`` draws every hand (a hidden hand as card backs),
      ``False`` none, or the players whose hands to draw.
    - ``perspective``: the player whose cards are drawn below the stones or
      tiles (default: the second player in Schotten Totten, the defender in
      Schotten Totten 2; the Clans and Glory table does not turn).
    - ``size``: the picture's width in pixels (the drawing scales to it).
    - ``claims``: ``True`` to ask the prover about every complete formation
      and mark each stone or tile with its verdict (the explanation as its
      tooltip), or the answers of ``GameFormat.claimability`` to draw. A
      finished game has no claims left to make: it shows no verdicts.
    - ``names``: the players' names, written instead of "player N".

    >>> from referee import schotten_totten as st
    >>> picture = render_svg(st.new_game(seed=1), show_hands=[0], size=400)
    >>> 'width="400"' in picture, picture.count('class="hand"')
    (True, 1)
    >>> render_svg("R7")
    Traceback (most recent call last):
    ...
    TypeError: no SVG picture for a str: expected a game state such as referee.schotten_totten.State
    """
    drawing = _draw(
        state,
        last_move=last_move,
        highlight=highlight,
        show_hands=show_hands,
        perspective=perspective,
        size=size,
        claims=claims,
        names=names,
    )
    if isinstance(drawing, str):
        return drawing
    return drawing.svg(size)


def _draw(
    state: object,
    *,
    last_move: object = None,
    highlight: Iterable[int | str] = (),
    show_hands: bool | Iterable[int] = True,
    perspective: int | None = None,
    size: float | None = None,
    claims: bool | Iterable[ClaimAnswer] = False,
    symbols: dict[str, str] | None = None,
    note: str | None = None,
    names: Sequence[str] = (),
    mover: int | None = None,
    drawn: tuple[int, tuple[bool, ...]] | None = None,
    replay: bool = False,
    examples: bool = True,
) -> _Drawing | str:
    """The picture in pieces (or a registered renderer's whole ``<svg>`` text)."""
    game = descriptor_of(state)
    if game is None:
        for kind in type(state).__mro__:
            renderer = _RENDERERS.get(kind)
            if renderer is not None:
                return renderer(state)
    else:
        hands = (
            _ALL_HANDS
            if show_hands is True
            else frozenset()
            if show_hands is False
            else frozenset(show_hands)
        )
        answers: Sequence[ClaimAnswer] = ()
        if getattr(state, "outcome", None) is not None:
            claims = False  # the game is over: no claim is left to make
        if claims is True:
            fmt: GameFormat[Any] = game.format
            answers = fmt.claimability(state)
        elif claims is not False:
            answers = tuple(claims)
        options = _Options(
            last_move=None if last_move is None else str(last_move),
            highlight=frozenset(str(place) for place in highlight),
            hands=hands,
            perspective=perspective,
            size=size,
            claims=answers,
            symbols=symbols,
            note=note,
            names=tuple(names),
            mover=mover,
            drawn=drawn,
            replay=replay,
            examples=examples,
        )
        if game.picture is None:
            return _text_picture(state, game.title, game.text(state), options)
        drawing: _Drawing | str = game.picture(state, options)
        return drawing
    raise TypeError(
        f"no SVG picture for a {type(state).__name__}: "
        "expected a game state such as referee.schotten_totten.State"
    )


def _text_picture(state: Any, title: str, text: str, options: _Options) -> _Drawing:
    """A game without a picture of its own: its text, one line under the other,
    below the title bar (who is to move, or how the game ended)."""
    lines = text.splitlines() or [""]
    width = max(360.0, 2 * _MARGIN + 8.0 * max(len(line) for line in lines))
    top = _MARGIN + _TITLE_H
    height = top + 16.0 * len(lines) + _MARGIN
    canvas = _Canvas(title, options)
    status = _status(options, state.outcome, state.to_move)
    _header(canvas, width, title, status)
    canvas.open(class_="text")
    for i, line in enumerate(lines):
        canvas.text(
            _MARGIN,
            top + 16.0 * i + 12,
            line,
            anchor="start",
            font_family="monospace",
            style="white-space:pre",
        )
    canvas.close()
    return canvas.finish(width, height, "text")


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


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
    """An SVG document being built, element by element.

    Each top-level element is one *piece* of the drawing, kept with its layer
    (0 the background, 1 the table, 2 marks drawn over it), so a replay can
    share the pieces that do not change from one position to the next.
    """

    def __init__(self, title: str, options: _Options, game: str = "") -> None:
        self.title = title
        self.options = options
        self.game = game
        #: Twice the y of the line the table turns around (a replay's flip), if any.
        self.mirror: float | None = None
        self.pieces: list[tuple[int, str]] = []
        self.symbols: dict[str, str] = {} if options.symbols is None else options.symbols
        self.layer = 1
        self._depth = 0
        self._current: list[str] = []

    def _add(self, text: str, depth_change: int = 0) -> None:
        if self._depth == 0 and depth_change >= 0:
            self._current = [text]
            if depth_change == 0:
                self.pieces.append((self.layer, text))
        else:
            self._current.append(text)
        self._depth += depth_change
        if self._depth == 0 and depth_change < 0:
            self.pieces.append((self.layer, "".join(self._current)))

    def raw(self, text: str) -> None:
        self._add(text)

    def open(self, **attributes: object) -> None:
        self._add(f"<g{_attrs(attributes)}>", +1)

    def close(self) -> None:
        self._add("</g>", -1)

    def tooltip(self, text: str) -> None:
        self._add(f"<title>{_escape(text)}</title>")

    def rect(self, x: float, y: float, w: float, h: float, **attributes: object) -> None:
        self._add(f"<rect{_attrs({'x': x, 'y': y, 'width': w, 'height': h, **attributes})}/>")

    def circle(self, cx: float, cy: float, r: float, **attributes: object) -> None:
        self._add(f"<circle{_attrs({'cx': cx, 'cy': cy, 'r': r, **attributes})}/>")

    def path(self, d: str, **attributes: object) -> None:
        self._add(f"<path{_attrs({'d': d, **attributes})}/>")

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
        self._add(
            _text(
                x,
                y,
                text,
                size=size,
                anchor=anchor,
                weight=weight,
                fill=fill,
                attributes=attributes,
            )
        )

    def figure(self, key: str, body: str, x: float, y: float, cls: str | None = None) -> None:
        """A shared drawing (a card face) at ``x, y``: inline, or a ``<use>`` of its symbol."""
        extra = "" if cls is None else f' class="{cls}"'
        if self.options.symbols is None:
            self._add(f'<g transform="translate({_num(x)},{_num(y)})"{extra}>{body}</g>')
            return
        ident = "rc-" + re.sub(r"[^A-Za-z0-9]", "_", key)
        if ident not in self.symbols:
            self.symbols[ident] = (
                f'<symbol id="{ident}" viewBox="0 0 {_CARD_W} {_CARD_H}" '
                f'width="{_CARD_W}" height="{_CARD_H}" overflow="visible">{body}</symbol>'
            )
        self._add(f'<use href="#{ident}" x="{_num(x)}" y="{_num(y)}"{extra}/>')

    def overlay(self, text: str) -> None:
        """A piece of its own drawn over the table (layer 2), even while a group is open."""
        self.pieces.append((2, text))

    def flip(self, y: float, h: float = 0) -> str | None:
        """The ``style`` that moves an element at ``y`` (``h`` tall) to its mirror
        place when a replay page turns the table (``None`` outside a replay)."""
        if self.mirror is None or not self.options.replay:
            return None
        return f"--dy:{_num(self.mirror - 2 * y - h)}"

    def finish(self, width: float, height: float, kind: str) -> _Drawing:
        background = (
            f"<title>{_escape(self.title)}</title>"
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fbfaf7"/>'
        )
        return _Drawing(width, height, kind, self.title, [(0, background), *self.pieces])


def _text(
    x: float,
    y: float,
    text: object,
    *,
    size: float = 12,
    anchor: str = "middle",
    weight: str | None = None,
    fill: str = _TEXT,
    attributes: dict[str, object] | None = None,
) -> str:
    style = {"font_size": size, "text_anchor": anchor, "font_weight": weight, "fill": fill}
    extra = attributes or {}
    return f"<text{_attrs({'x': x, 'y': y, **style, **extra})}>{_escape(text)}</text>"


def _card_face(card: object, cards: CardSet) -> tuple[str, str]:
    """A card's drawing at the origin, and its key: a clan/siege card in its
    colour, or a dark tactic card."""
    if type(card) is Card and card.colour in CARD_FILLS:
        fill = CARD_FILLS[card.colour]
        ink = _TEXT if card.colour in _LIGHT else "#ffffff"
        body = (
            f'<rect x="0" y="0" width="{_CARD_W}" height="{_CARD_H}" rx="4" fill="{fill}" '
            f'stroke="#333333" stroke-width="1"/>'
            + _text(3, 15, card.colour, size=14, anchor="start", weight="bold", fill=ink)
            + _text(_CARD_W / 2, 44, card.value, size=_CARD_VALUE_SIZE, weight="bold", fill=ink)
        )
        return str(card), body
    name = str(card)
    label = _TACTIC_LABELS.get(name, name[:7])
    fit: dict[str, object] = (
        {"textLength": _CARD_W - 6, "lengthAdjust": "spacingAndGlyphs"} if len(label) > 5 else {}
    )
    body = (
        f'<rect x="0" y="0" width="{_CARD_W}" height="{_CARD_H}" rx="4" fill="{_TACTIC_FILL}" '
        f'stroke="#000000" stroke-width="1"/>'
        f'<rect x="3" y="3" width="{_CARD_W - 6}" height="{_CARD_H - 6}" rx="3" fill="none" '
        f'stroke="#c9a227"/>'
        + _text(_CARD_W / 2, 32, label, size=11, weight="bold", fill="#f1e3b0", attributes=fit)
    )
    return name, body


def _is_clan(card: object) -> bool:
    return type(card) is Card and card.colour in CARD_FILLS


def _card(
    canvas: _Canvas,
    x: float,
    y: float,
    card: object,
    cards: CardSet,
    *,
    mark: str | None = None,
    style: str | None = None,
    mark_style: str | None = None,
) -> None:
    """One card, face up; ``mark`` frames it (``"placed"``, ``"drawn"``);
    ``style`` is the card's, ``mark_style`` the frame's (default: the same)."""
    key, body = _card_face(card, cards)
    classes = "card" if _is_clan(card) else "card tactic"
    canvas.open(class_=classes, data_card=key, style=style)
    if _is_clan(card):
        assert isinstance(card, Card)
        name = f"{cards.colour_name(card.colour)} {card.value}" if card in cards else str(card)
        canvas.tooltip(f"{card} ({name})")
    else:
        canvas.tooltip(f"{key.replace('_', ' ')} (tactic card)")
    canvas.figure(key, body, x, y)
    canvas.close()
    if mark:
        _card_mark(canvas, x, y, mark, key, mark_style or style)


def _card_mark(
    canvas: _Canvas, x: float, y: float, mark: str, card: str | None, style: str | None
) -> None:
    """The frame of a card just placed or drawn: a piece of its own over the
    table (so the card's own piece stays the same from one position to the next)."""
    colour = _MARK if mark == "placed" else _DRAWN
    frame = _attrs(
        {
            "x": x - 3,
            "y": y - 3,
            "width": _CARD_W + 6,
            "height": _CARD_H + 6,
            "rx": 6,
            "fill": "none",
            "stroke": colour,
            "stroke_width": 3.5,
        }
    )
    head = _attrs({"class_": f"card-mark {mark}", "data_card": card, "style": style})
    canvas.overlay(f"<g{head}><rect{frame}/></g>")


_BACK = (
    f'<rect x="0" y="0" width="{_CARD_W}" height="{_CARD_H}" rx="4" fill="{_BACK_FILL}" '
    f'stroke="#333333"/><path d="M5,5 L{_CARD_W - 5},{_CARD_H - 5} M{_CARD_W - 5},5 '
    f'L5,{_CARD_H - 5}" stroke="#a89580" stroke-width="1.5"/>'
)
_TACTIC_BACK = (
    f'<rect x="0" y="0" width="{_CARD_W}" height="{_CARD_H}" rx="4" fill="{_TACTIC_FILL}" '
    f'stroke="#000000"/><rect x="3" y="3" width="{_CARD_W - 6}" height="{_CARD_H - 6}" rx="3" '
    f'fill="none" stroke="#c9a227"/><circle cx="{_CARD_W / 2}" cy="{_CARD_H / 2}" r="9" '
    f'fill="none" stroke="#c9a227" stroke-width="2"/>'
)


def _back(tactic: bool) -> tuple[str, str]:
    """The key and drawing of a card back: clan (or siege) cards and tactic cards differ."""
    return ("back-tactic", _TACTIC_BACK) if tactic else ("back", _BACK)


def _card_back(
    canvas: _Canvas,
    x: float,
    y: float,
    card: object | None,
    what: str,
    *,
    tactic: bool = False,
    mark: str | None = None,
    style: str | None = None,
    mark_style: str | None = None,
) -> None:
    """A face-down card; the referee's view still names it in the tooltip."""
    classes = "card face-down" + (" tactic" if tactic else "")
    canvas.open(class_=classes, data_card=None if card is None else str(card), style=style)
    canvas.tooltip(what + ("" if card is None else f" ({card})"))
    canvas.figure(*_back(tactic), x, y)
    if card is not None:
        canvas.text(x + _CARD_W / 2, y + _CARD_H - 5, str(card).lower(), size=10, fill="#f6f3ec")
    canvas.close()
    if mark:
        _card_mark(canvas, x, y, mark, None if card is None else str(card), mark_style or style)


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
    placed: str | None = None,
) -> None:
    """A side's cards in play order, the first one next to the stone; ``direction``
    is -1 to stack upwards (towards the top player), +1 downwards. The card
    named ``placed`` (the one the last move put here) is framed."""
    for i, card in enumerate(cards):
        offset = _GAP + i * (_CARD_H + _GAP)
        y = stone_edge - offset - _CARD_H if direction < 0 else stone_edge + offset
        mark = "placed" if placed is not None and str(card) == placed else None
        _card(canvas, x, y, card, cardset, mark=mark, style=canvas.flip(y, _CARD_H))


_HAND_H = _CARD_H + 2 * _GAP


def _short(name: str, limit: int = 9) -> str:
    """A name cut to fit the label column (the whole name is in the tooltips)."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _hand(
    canvas: _Canvas,
    y: float,
    player: int,
    hand: Sequence[object] | None,
    count: int,
    cardset: CardSet,
    label: str,
    *,
    tactics: int = 0,
) -> None:
    """One player's hand as a row of cards (card backs when the hand is hidden:
    ``tactics`` of them tactic backs, whose number is public)."""
    hidden = hand is None
    options = canvas.options
    style = canvas.flip(y, _CARD_H)
    name = options.name(player)
    canvas.open(class_="hand-label", data_player=player, style=style)
    for line, text in enumerate((_short(name), "hand")):
        canvas.text(
            _MARGIN,
            y + _CARD_H / 2 - 3 + 14 * line,
            text,
            size=11,
            anchor="start",
            fill=PLAYER_COLOURS[player % len(PLAYER_COLOURS)],
            weight="bold" if line == 0 else None,
        )
    canvas.close()
    canvas.open(class_="hand" + (" hidden" if hidden else ""), data_player=player, style=style)
    canvas.tooltip(label)
    x = _MARGIN + _LABEL_W
    kinds = options.drawn[1] if options.drawn and options.drawn[0] == player else ()
    drawn = min(len(kinds), count)
    if hand is None:
        # Older cards first, their tactic cards last; then the cards just drawn.
        new = kinds[len(kinds) - drawn :]
        older_tactics = max(0, min(tactics - sum(new), count - drawn))
        flags = [i >= count - drawn - older_tactics for i in range(count - drawn)] + list(new)
        for i, tactic in enumerate(flags):
            mark = "drawn" if i >= count - drawn else None
            what = f"{name}'s hidden {'tactic' if tactic else 'card'}"
            _card_back(canvas, x, y, None, what, tactic=tactic, mark=mark, mark_style=style)
            x += _CARD_W + _GAP
    else:
        for i, card in enumerate(hand):
            mark = "drawn" if i >= len(hand) - drawn else None
            _card(canvas, x, y, card, cardset, mark=mark, mark_style=style)
            x += _CARD_W + _GAP
    if count == 0:
        canvas.text(x, y + _CARD_H / 2 + 4, "no cards", size=11, anchor="start", fill="#8a7a5c")
    canvas.close()
    if hand is not None and options.replay and hand:
        # The same hand face down, shown when the replay page hides it: a piece
        # of its own, the same for every hand of that size and mix.
        canvas.open(class_="hand-backs", data_player=player, style=canvas.flip(y, _CARD_H))
        x = _MARGIN + _LABEL_W
        for card in hand:
            canvas.figure(*_back(not _is_clan(card)), x, y)
            x += _CARD_W + _GAP
        canvas.close()


def _hand_width(cards: int) -> float:
    return _MARGIN + _LABEL_W + cards * (_CARD_W + _GAP) + _MARGIN


def _status(
    options: _Options,
    outcome: Outcome | None,
    to_move: int,
    roles: Sequence[str] = (),
    doing: str = "",
) -> str:
    """Who is to move (and what for), or how the game ended, in words."""

    def who(player: int) -> str:
        return options.name(player) + (f" ({roles[player]})" if roles else "")

    if outcome is None:
        return f"{who(to_move)} to move" + (f": {doing}" if doing else "")
    if len(outcome.winners) > 1:
        names = " and ".join(who(p) for p in outcome.winners)
        return f"game over: {names} share the win ({reason_words(outcome.reason)})"
    if outcome.winner is None:
        return f"game over, no winner: {reason_words(outcome.reason)}"
    return f"game over: {who(outcome.winner)} wins ({reason_words(outcome.reason)})"


def _header(canvas: _Canvas, width: float, title: str, status: str) -> None:
    """The title bar: the game, the status, and the last move (in words) or a note."""
    canvas.open(class_="header")
    canvas.text(_MARGIN, _MARGIN + 14, title, size=15, anchor="start", weight="bold")
    canvas.text(width - _MARGIN, _MARGIN + 14, status, size=11, anchor="end", class_="status")
    options = canvas.options
    line = options.note or ""
    if not line and options.last_move:
        if options.mover is not None and canvas.game:
            line = move_words(canvas.game, options.last_move, options.name(options.mover))
        else:
            line = f"last move: {options.last_move}"
    if line:
        canvas.text(
            width - _MARGIN, _MARGIN + 30, line, size=11, anchor="end", fill=_MARK, class_="note"
        )
    canvas.close()


def _shield_path(x: float, y: float, w: float, h: float) -> str:
    return (
        f"M{x},{y} h{w} v{h * 0.45} q0,{h * 0.4} {-w / 2},{h * 0.55} "
        f"q{-w / 2},{-h * 0.15} {-w / 2},{-h * 0.55} z"
    )


_PLACE_NUMBERS = re.compile(r"@(\d+)|>(\d+)|^(?:claim|control|explosion|oil) (\d+)")
_SEATS = re.compile(r"t\d+s\d+")


def _touched(move: str | None) -> set[str]:
    """The places a move's text names: stone or tile numbers, or seats."""
    if not move:
        return set()
    places = {g for m in _PLACE_NUMBERS.finditer(move) for g in m.groups() if g}
    if move.startswith("retreat "):
        places.update(move.split(" ", 1)[1].split(","))
    places.update(_SEATS.findall(move))
    return places


def _ring(canvas: _Canvas, x: float, y: float, w: float, h: float, cls: str, tip: str) -> None:
    colour = _MARK if cls == "last-move" else _HIGHLIGHT
    canvas.open(class_=cls)
    canvas.tooltip(tip)
    canvas.rect(
        x, y, w, h, rx=8, fill="none", stroke=colour, stroke_width=3, stroke_dasharray="7,4"
    )
    canvas.close()


def _marks(canvas: _Canvas, place: str, box: tuple[float, float, float, float], what: str) -> None:
    """The last-move and highlight rings around one place."""
    options = canvas.options
    layer, canvas.layer = canvas.layer, 2
    if place in _touched(options.last_move):
        _ring(canvas, *box, "last-move", f"{what}: last move {options.last_move}")
    if place in options.highlight:
        _ring(canvas, box[0] - 3, box[1] - 3, box[2] + 6, box[3] + 6, "highlight", what)
    canvas.layer = layer


def _verdict_badge(
    canvas: _Canvas,
    x: float,
    y: float,
    answer: ClaimAnswer,
    place: str,
    colour: str,
    *,
    lower_sum_wins: bool = False,
) -> None:
    """A round badge on a corner of the place: a tick when the claim is proven,
    a cross when it is refused; the verdict in words is the tooltip (and
    ``data-explanation``)."""
    holds = bool(answer.claimable)
    layer, canvas.layer = canvas.layer, 2
    text = _evidence(answer, canvas.options, lower_sum_wins=lower_sum_wins)
    canvas.open(
        class_="verdict " + ("claimable" if holds else "not-claimable"),
        data_place=place,
        data_player=answer.player,
        data_explanation=None if canvas.options.replay else text,
        style=canvas.flip(y),
    )
    canvas.tooltip(text)
    canvas.circle(x, y, 10, fill=_YES if holds else _NO, stroke=colour, stroke_width=2.5)
    canvas.text(x, y + 4, "✓" if holds else "✗", size=12, weight="bold", fill="#ffffff")
    canvas.close()
    canvas.layer = layer


def _evidence(answer: ClaimAnswer, options: _Options, *, lower_sum_wins: bool = False) -> str:
    """The prover's verdict on ``answer`` in words: what stands against what,
    why, and while the opponent's side is open the odds that it could still be
    beaten (see :func:`referee._words.evidence_words`). Example cards are named
    unless the picture is one player's view."""
    place = answer.label or f"place {answer.place}"
    if not answer.evidence.get("claimant"):
        return f"{place}, {options.name(answer.player)}: {answer.explanation}"
    return evidence_words(
        answer.evidence,
        bool(answer.claimable),
        who=options.name(answer.player),
        place=place,
        lower_sum_wins=lower_sum_wins,
        examples=options.examples,
    )


def _answers_at(options: _Options, place: int) -> list[ClaimAnswer]:
    return [a for a in options.claims if a.place == place and a.claimable is not None]


def _arrow(
    canvas: _Canvas,
    start: tuple[float, float],
    end: tuple[float, float],
    tip: str,
    cls: str = "move-arrow",
) -> None:
    """An arrow from where a card was to where it went (over everything else)."""
    (x1, y1), (x2, y2) = start, end
    layer, canvas.layer = canvas.layer, 2
    canvas.open(class_=cls)
    canvas.tooltip(tip)
    bend = -40 if abs(x2 - x1) > 1 else 40
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2 + bend
    canvas.path(
        f"M{_num(x1)},{_num(y1)} Q{_num(mx)},{_num(my)} {_num(x2)},{_num(y2)}",
        fill="none",
        stroke=_MARK,
        stroke_width=3,
        stroke_dasharray="2,0",
    )
    # The head points along the curve's last tangent (from the control point).
    dx, dy = x2 - mx, y2 - my
    length = max((dx * dx + dy * dy) ** 0.5, 1e-6)
    ux, uy = dx / length, dy / length
    left = (x2 - 11 * ux + 6 * uy, y2 - 11 * uy - 6 * ux)
    right = (x2 - 11 * ux - 6 * uy, y2 - 11 * uy + 6 * ux)
    canvas.path(
        f"M{_num(x2)},{_num(y2)} L{_num(left[0])},{_num(left[1])} "
        f"L{_num(right[0])},{_num(right[1])} Z",
        fill=_MARK,
    )
    canvas.close()
    canvas.layer = layer


_MOVED = re.compile(
    r"^(?P<tactic>strategist|traitor|redeploy|treason) (?P<card>\S+)@(?P<source>\d+)>"
    r"(?P<target>\d+|discard)$"
)
_TAKEN = re.compile(r"^(?P<tactic>banshee|desertion|recruitment) (?P<card>\S+)@(?P<place>\d+)$")


def _moved_card(move: str | None) -> tuple[str, str, str, bool] | None:
    """Where the card a move moved came from and went: ``(card, source,
    target, the opponent's card)``, places as text, ``"discard"`` for the
    discard pile; ``None`` for a move that moves no card already out.

    >>> _moved_card("traitor R7@3>5"), _moved_card("recruitment B4@2"), _moved_card("R7@3")
    (('R7', '3', '5', True), ('B4', 'discard', '2', False), None)
    """
    if not move:
        return None
    found = _MOVED.match(move)
    if found:
        theirs = found["tactic"] in ("traitor", "treason")
        return found["card"], found["source"], found["target"], theirs
    taken = _TAKEN.match(move)
    if taken:
        if taken["tactic"] == "recruitment":
            return taken["card"], "discard", taken["place"], False
        return taken["card"], taken["place"], "discard", True
    return None


def _placed_card(move: str | None) -> tuple[str, str] | None:
    """The card a move put on the table and where: ``(card, place)``.

    >>> _placed_card("R7@3"), _placed_card("traitor R7@3>5"), _placed_card("G5@t2s4+shield")
    (('R7', '3'), ('R7', '5'), ('G5', 't2s4'))
    """
    if not move:
        return None
    moved = _moved_card(move)
    if moved is not None:
        return None if moved[2] == "discard" else (moved[0], moved[2])
    found = re.match(r"^(\S+)@(\d+|t\d+s\d+)", move)
    if found and " " not in move:
        return found[1], found[2]
    return None


# --- what a game's own picture draws with ---------------------------------------
# A game's descriptor ``picture(state, options)`` gets the options and returns
# ``canvas.finish(...)``; these are the public names of the pieces it uses (the
# private ones stay for the library's own pictures).

#: The drawing surface, the options of one picture and a finished picture.
Canvas: TypeAlias = _Canvas
Options: TypeAlias = _Options
Drawing: TypeAlias = _Drawing
#: A card's width and height, the gap between cards, the margin, the title bar.
CARD_W, CARD_H, GAP, MARGIN, TITLE_H = _CARD_W, _CARD_H, _GAP, _MARGIN, _TITLE_H
#: The ink of texts on light ground.
INK = _TEXT
#: A side's cards stacked from a place's edge (see ``_side``), a row of cards
#: side by side (``_card_row``), a name cut to fit (``_short``).
card_side, card_row, short_name = _side, _card_row, _short
#: Who is to move, or how the game ended, in words (see ``_status``).
status_words = _status
