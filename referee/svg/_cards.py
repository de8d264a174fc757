"""Cards drawn by :mod:`referee.svg`: faces and backs, a card framed as just
placed or drawn, rows of cards, a side's cards stacked from its place, and a
player's hand with its label.

>>> _short("Alexandrina"), _hand_width(3)
('Alexandr…', 224)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee.cards import Card, CardSet
from referee.svg._canvas import (
    _BACK_FILL,
    _CARD_H,
    _CARD_VALUE_SIZE,
    _CARD_W,
    _DRAWN,
    _GAP,
    _LABEL_W,
    _LIGHT,
    _MARGIN,
    _MARK,
    _TACTIC_FILL,
    _TEXT,
    CARD_FILLS,
    PLAYER_COLOURS,
    _attrs,
    _Canvas,
    _text,
)

#: Nothing public here: referee.svg names what the pictures share.
__all__: list[str] = []

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
