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

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from referee.games import descriptor_of

# The pieces live in their own modules, by job: the drawing surface
# (``_canvas``), the cards (``_cards``), the words and marks over the table
# (``_marks``). Their names stay importable from here, where the games'
# pictures and the replay page take them.
from referee.svg._canvas import _ALL_HANDS as _ALL_HANDS
from referee.svg._canvas import _BACK_FILL as _BACK_FILL
from referee.svg._canvas import _CARD_H as _CARD_H
from referee.svg._canvas import _CARD_VALUE_SIZE as _CARD_VALUE_SIZE
from referee.svg._canvas import _CARD_W as _CARD_W
from referee.svg._canvas import _DRAWN as _DRAWN
from referee.svg._canvas import _FONT as _FONT
from referee.svg._canvas import _GAP as _GAP
from referee.svg._canvas import _HIGHLIGHT as _HIGHLIGHT
from referee.svg._canvas import _LABEL_W as _LABEL_W
from referee.svg._canvas import _LIGHT as _LIGHT
from referee.svg._canvas import _MARGIN as _MARGIN
from referee.svg._canvas import _MARK as _MARK
from referee.svg._canvas import _NO as _NO
from referee.svg._canvas import _TACTIC_FILL as _TACTIC_FILL
from referee.svg._canvas import _TEXT as _TEXT
from referee.svg._canvas import _TITLE_H as _TITLE_H
from referee.svg._canvas import _YES as _YES
from referee.svg._canvas import CARD_FILLS as CARD_FILLS
from referee.svg._canvas import MIN_FONT_SIZE as MIN_FONT_SIZE
from referee.svg._canvas import PLAYER_COLOURS as PLAYER_COLOURS
from referee.svg._canvas import _attrs as _attrs
from referee.svg._canvas import _Canvas as _Canvas
from referee.svg._canvas import _Drawing as _Drawing
from referee.svg._canvas import _escape as _escape
from referee.svg._canvas import _num as _num
from referee.svg._canvas import _Options as _Options
from referee.svg._canvas import _text as _text
from referee.svg._cards import _BACK as _BACK
from referee.svg._cards import _HAND_H as _HAND_H
from referee.svg._cards import _TACTIC_BACK as _TACTIC_BACK
from referee.svg._cards import _TACTIC_LABELS as _TACTIC_LABELS
from referee.svg._cards import _back as _back
from referee.svg._cards import _card as _card
from referee.svg._cards import _card_back as _card_back
from referee.svg._cards import _card_face as _card_face
from referee.svg._cards import _card_mark as _card_mark
from referee.svg._cards import _card_row as _card_row
from referee.svg._cards import _hand as _hand
from referee.svg._cards import _hand_width as _hand_width
from referee.svg._cards import _is_clan as _is_clan
from referee.svg._cards import _short as _short
from referee.svg._cards import _side as _side
from referee.svg._marks import _MOVED as _MOVED
from referee.svg._marks import _PLACE_NUMBERS as _PLACE_NUMBERS
from referee.svg._marks import _SEATS as _SEATS
from referee.svg._marks import _TAKEN as _TAKEN
from referee.svg._marks import _answers_at as _answers_at
from referee.svg._marks import _arrow as _arrow
from referee.svg._marks import _evidence as _evidence
from referee.svg._marks import _header as _header
from referee.svg._marks import _marks as _marks
from referee.svg._marks import _moved_card as _moved_card
from referee.svg._marks import _placed_card as _placed_card
from referee.svg._marks import _ring as _ring
from referee.svg._marks import _shield_path as _shield_path
from referee.svg._marks import _status as _status
from referee.svg._marks import _touched as _touched
from referee.svg._marks import _verdict_badge as _verdict_badge

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
