"""The drawing surface of :mod:`referee.svg`: sizes and colours, the options
of one picture, a finished picture in pieces, and the canvas that builds an
SVG document element by element.

>>> canvas = _Canvas("a title", _Options())
>>> canvas.rect(1, 2, 3, 4, fill="#ffffff")
>>> canvas.finish(10, 20, "demo").pieces[1]
(1, '<rect x="1" y="2" width="3" height="4" fill="#ffffff"/>')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.records import ClaimAnswer

__all__ = ["CARD_FILLS", "MIN_FONT_SIZE", "PLAYER_COLOURS"]

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


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


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
