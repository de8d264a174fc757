"""Words and marks of :mod:`referee.svg`: the title bar with who is to move,
the rings around the places the last move touched or that are highlighted,
the prover's verdict badges, and the arrow of a card that moved.

>>> sorted(_touched("traitor R7@3>5")), _placed_card("R7@3")
(['3', '5'], ('R7', '3'))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from referee._words import evidence_words, move_words, reason_words
from referee.game import Outcome
from referee.svg._canvas import (
    _HIGHLIGHT,
    _MARGIN,
    _MARK,
    _NO,
    _YES,
    _Canvas,
    _num,
    _Options,
)

if TYPE_CHECKING:
    from referee.records import ClaimAnswer

#: Nothing public here: referee.svg names what the pictures share.
__all__: list[str] = []


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
