"""The replay page's HTML: the data made safe inside a ``<script>`` element, the
verdict above the board, the static picture, and the page or fragment around
them.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Sequence
from itertools import count
from typing import Any

from referee.records import Match, Record
from referee.replay._data import replay_data
from referee.replay._layout import LEGEND, PAGE_STYLE, SKELETON, STYLE
from referee.replay._script import SCRIPT

__all__ = ["replay_html"]


_IDS = count(1)


def replay_html(
    item: Record | Match | Sequence[Record | Match],
    *,
    ply: int | None = None,
    fragment: bool = False,
    viewer: int | None = None,
    numbers: Sequence[int] | None = None,
    compact: bool = False,
) -> str:
    """A self-contained HTML page replaying ``item``, opened at ``ply`` (default:
    the start); with ``fragment=True`` a ``<div>`` to embed in another page
    (a notebook cell, a documentation page). ``viewer`` makes the page of one
    player (counted from 0): built from that player's views, it holds nothing
    the player did not see (see :func:`replay_data`). ``compact`` stores the
    data gzip-compressed (a tenth of its size, for notebooks); a browser
    without ``DecompressionStream`` then shows the static picture only."""
    data = replay_data(item, ply, viewer=viewer, numbers=numbers)
    ident = f"referee-replay-{next(_IDS)}"
    # The symbols are drawn once, in the page's <defs>; the script never reads them.
    payload = _script_json(
        {k: v for k, v in data.items() if k not in ("symbols", "static")} | {"link": not fragment}
    )
    encoding = ""
    if compact:
        packed = gzip.compress(payload.encode("utf-8"), 9, mtime=0)
        payload, encoding = base64.b64encode(packed).decode("ascii"), ' data-encoding="gzip"'
    who = ""
    if viewer is not None:
        names = data["games"][0]["players"] if data["games"] else []
        name = names[viewer] if viewer < len(names) else f"player {viewer + 1}"
        who = (
            f'<p class="viewer-note">The game as {_escape(name)} saw it: the other hands '
            "and every card that stayed hidden from them are not in this page.</p>"
        )
    body = (
        f'<div class="referee-replay" id="{ident}">'
        f"{_verdict_html(data['refusals'], item)}{who}"
        f'<div class="replay-static">{data["static"]}'
        '<p class="replay-static-note">The last position. Step through the game where '
        "scripts run: a trusted notebook, or the page <code>referee replay</code> writes."
        "</p></div>"
        f'<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>'
        f"{data['symbols']}</defs></svg>"
        f'<div class="replay-live" hidden>{SKELETON}{LEGEND}</div>'
        f'<script type="application/json" class="replay-data"{encoding}>{payload}</script>'
        f"<script>{SCRIPT}\nrefereeReplay(document.getElementById({json.dumps(ident)}));"
        f"</script></div>"
    )
    if fragment:
        return f"<style>{STYLE}</style>{body}"
    title = _escape(data["title"] + (" (illegal)" if data["refusals"] else ""))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>{PAGE_STYLE}{STYLE}</style></head>\n"
        f"<body><h1>{title}</h1>{body}</body></html>\n"
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_SCRIPT_UNSAFE = str.maketrans({"<": "\\u003c", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def _script_json(data: Any) -> str:
    """``data`` as JSON safe inside a ``<script>`` element: no ``<`` at all (so
    no ``</script>``, ``<!--`` or ``<script`` can end or change the element) and
    no line separators; each is a ``\\uXXXX`` escape, valid in the JSON strings
    that alone can hold them.

    >>> _script_json({"name": "<!--<script>"})
    '{"name":"\\\\u003c!--\\\\u003cscript>"}'
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_SCRIPT_UNSAFE)


def _verdict_html(refusals: Sequence[str], item: Record | Match | Sequence[Record | Match]) -> str:
    """The verdict above the board, in plain HTML: what is illegal, where and why."""
    if not refusals:
        return ""
    if isinstance(item, (Record, Match)):
        kind = "match" if isinstance(item, Match) else "record"
        head = f"This {kind} is illegal: the referee refuses it."
    else:
        count = len(item)
        head = f"{len(refusals)} of these {count} documents are illegal: the referee refuses them."
    lines = "".join(f'<p class="verdict-line">{_escape(text)}</p>' for text in refusals)
    return f'<div class="verdict" role="alert"><p class="verdict-head">{head}</p>{lines}</div>'
