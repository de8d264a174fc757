"""A recorded game (or a match) as one self-contained HTML page to step through.

:func:`replay_html` turns a record or a match into a web page that needs no
network and no server: buttons, the arrow keys and a slider step through the
positions; the move list marks the current move; each position is drawn by
:func:`referee.svg.render_svg` with the last move ringed and every complete
formation marked with the prover's verdict (its explanation on hover, or in
the evidence panel on click). A full record shows the hands, with a toggle per
player; a public record shows them face down. A missed claim (see
:mod:`referee.analysis`) is ringed where it could have been made.

A record or match that :func:`referee.records.validate` does not call legal
gets the same verdict here as on every command: the page opens with it, in
plain HTML above the board (illegal, at which ply, why), and the board steps
through the moves up to the refused one, which ends the game with its reason.

>>> from referee.records import parse_record
>>> from referee.replay import replay_html
>>> page = replay_html(parse_record({"game": "schotten-totten", "moves": ["R7@3"]}, "x"))
>>> page.startswith("<!DOCTYPE html>"), "http" in page.replace("http://www.w3.org", "")
(True, False)

The page grows with the number of distinct positions, not with their square:
each position is sent as the pieces of the picture that changed since the
previous one (a stone, a hand, the title bar), every piece is stored once, and
each card face is drawn once as an SVG ``<symbol>`` that the pictures ``<use>``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from itertools import count
from pathlib import Path
from typing import Any

from referee._commands import EXIT_STATUS, check_ply, error, ply, positive
from referee.analysis import Analysis, analyze
from referee.game import GameState
from referee.records import Match, Record, RecordError, find_game, iter_records, validate
from referee.svg import _draw, _Drawing, _evidence, _touched

__all__ = [
    "MAX_PAGE_GAMES",
    "add_parser",
    "read_documents",
    "read_item",
    "read_items",
    "replay_data",
    "replay_html",
    "run",
]

#: The most games one replay page shows (each game's frames are in the page):
#: pick one document of a longer corpus with ``--game N``.
MAX_PAGE_GAMES = 50

_IDS = count(1)


class _Pieces:
    """Every distinct piece of every picture, stored once, in drawing order."""

    def __init__(self) -> None:
        self.index: dict[tuple[int, str], int] = {}

    def ids(self, drawing: _Drawing) -> list[int]:
        found = []
        for piece in drawing.pieces:
            if piece not in self.index:
                self.index[piece] = len(self.index)
            found.append(self.index[piece])
        return found

    def table(self) -> tuple[list[str], list[int]]:
        """The pieces, and the order (by layer, then first use) to draw them in."""
        pieces = list(self.index)
        order = sorted(range(len(pieces)), key=lambda i: (pieces[i][0], i))
        rank = [0] * len(pieces)
        for position, i in enumerate(order):
            rank[i] = position
        return [text for _, text in pieces], rank


def _frames(
    record: Record,
    analysis: Analysis,
    pieces: _Pieces,
    symbols: dict[str, str],
) -> list[dict[str, Any]]:
    """One frame per position (plus the refused move of an illegal record)."""
    fmt = find_game(record.game, record.where)
    state: GameState[Any] = fmt.start(record)
    states = [state]
    for move in record.moves[: analysis.plies]:
        state = state.play(move)
        states.append(state)
    frames: list[dict[str, Any]] = []
    previous: set[int] = set()
    illegal = analysis.illegal

    def add(k: int, drawing: _Drawing, extra: dict[str, Any]) -> None:
        nonlocal previous
        ids = set(pieces.ids(drawing))
        frames.append(
            {
                "ply": k,
                "w": drawing.width,
                "h": drawing.height,
                "kind": drawing.kind,
                "title": drawing.title,
                "out": sorted(previous - ids),
                "in": sorted(ids - previous),
                **extra,
            }
        )
        previous = ids

    for k, state in enumerate(states):
        missed = analysis.missed_at(k)
        answers = analysis.answers[k] if k < len(analysis.answers) else ()
        drawing = _draw(
            state,
            last_move=record.moves[k - 1] if k else None,
            highlight=[str(m.place) for m in missed],
            claims=answers,
            symbols=symbols,
        )
        assert isinstance(drawing, _Drawing)
        add(
            k,
            drawing,
            {
                "to_move": state.to_move,
                "claims": [
                    {
                        "label": a.label or f"place {a.place}",
                        "player": a.player,
                        "claimable": a.claimable,
                        "text": _evidence(a),
                    }
                    for a in answers
                ],
                "missed": [str(m) for m in missed],
            },
        )
    if illegal is not None:
        note = f"refused: {illegal.move!r} [{illegal.reason}]"
        drawing = _draw(
            states[-1],
            last_move=None,
            highlight=sorted(_touched(illegal.move)),
            symbols=symbols,
            note=note,
        )
        assert isinstance(drawing, _Drawing)
        add(
            len(states),
            drawing,
            {"to_move": states[-1].to_move, "claims": [], "missed": [], "refused": True},
        )
    return frames


def _game_data(
    record: Record,
    name: str,
    pieces: _Pieces,
    symbols: dict[str, str],
    *,
    in_match: bool = False,
    verdict: str | None = None,
) -> dict[str, Any]:
    analysis = analyze(record, in_match=in_match)
    frames = _frames(record, analysis, pieces, symbols)
    illegal = analysis.illegal
    turn_ends: dict[int, list[str]] = {}
    for missed in analysis.missed:
        turn_ends.setdefault(missed.turn_end, []).append(str(missed))
    return {
        "name": name,
        "game": find_game(record.game).title,
        "players": list(record.players) or [f"player {p + 1}" for p in range(_players(record))],
        "public": record.is_public,
        "moves": list(record.moves[: analysis.plies]),
        "missedAt": {str(k): v for k, v in turn_ends.items()},
        "illegal": None
        if illegal is None
        else {
            "ply": illegal.ply,
            "move": illegal.move,
            "reason": illegal.reason,
            "message": illegal.message,
        },
        "result": _result_text(analysis),
        "verdict": verdict,
        "settled": analysis.settled_at,
        "frames": frames,
    }


def _players(record: Record) -> int:
    players = record.rules.get("players") if isinstance(record.rules, dict) else None
    return players if isinstance(players, int) else 2


def _result_text(analysis: Analysis) -> str:
    outcome = analysis.outcome
    if analysis.illegal is not None:
        return f"illegal at ply {analysis.illegal.ply}"
    if outcome is None:
        return "unfinished"
    if outcome.winner is None:
        return f"shared result ({outcome.reason.replace('_', ' ')})"
    return f"player {outcome.winner + 1} wins ({outcome.reason.replace('_', ' ')})"


def replay_data(
    item: Record | Match | Sequence[Record | Match], ply: int | None = None
) -> dict[str, Any]:
    """The data a replay page steps through: per game its moves and frames
    (each frame the picture pieces that changed), the shared pieces and symbols.

    ``item`` is a record, a match, or several of them (the documents of a JSON
    Lines corpus, such as ``referee match`` writes): the page gets a game picker.

    Each document is judged by :func:`referee.records.validate`: ``refusals``
    lists the summary of each one that is not legal, and each game carries its
    document's (``verdict``, ``None`` when legal).

    >>> from referee.records import Record
    >>> data = replay_data(Record("schotten-totten", ("R7@3", "draw", "R7@4"), where="x"))
    >>> data["refusals"]
    ["x: illegal at ply 3 'R7@4' [card_already_played]: illegal move 'R7@4': R7 is already on the table"]
    """
    pieces = _Pieces()
    symbols: dict[str, str] = {}
    games: list[dict[str, Any]] = []
    refusals: list[str] = []
    items = [item] if isinstance(item, (Record, Match)) else list(item)
    if not items:
        raise ValueError("nothing to replay: no record or match given")
    for k, one in enumerate(items, start=1):
        report = validate(one)
        verdict = None if report.legal else report.summary()
        if verdict is not None:
            refusals.append(verdict)
        prefix = "game" if len(items) == 1 else f"document {k}"
        if isinstance(one, Match):
            games.extend(
                _game_data(
                    game,
                    f"{prefix}, game {n}" if len(items) > 1 else f"game {n}",
                    pieces,
                    symbols,
                    in_match=True,
                    verdict=verdict,
                )
                for n, game in enumerate(one.games, start=1)
            )
        else:
            name = "game" if len(items) == 1 else f"game {k}"
            games.append(_game_data(one, name, pieces, symbols, verdict=verdict))
    texts, rank = pieces.table()
    title = _title(items[0]) if len(items) == 1 else _corpus_title(items)
    return {
        "title": title,
        "games": games,
        "pieces": texts,
        "rank": rank,
        "start": ply,
        "symbols": "".join(symbols.values()),
        "refusals": refusals,
        "documents": len(items),
    }


def _title(item: Record | Match) -> str:
    title = find_game(item.game).title
    where = Path(item.where).name if item.where else ""
    kind = "match" if isinstance(item, Match) else "record"
    return f"{title} {kind}" + (f": {where}" if where else "")


def _corpus_title(items: Sequence[Record | Match]) -> str:
    titles = dict.fromkeys(find_game(one.game).title for one in items)
    where = items[0].where.rsplit(":", 1)[0] if items[0].where else ""
    text = f"{' and '.join(titles)}: {len(items)} games"
    return text + (f" from {Path(where).name}" if where else "")


def replay_html(
    item: Record | Match | Sequence[Record | Match],
    *,
    ply: int | None = None,
    fragment: bool = False,
) -> str:
    """A self-contained HTML page replaying ``item``, opened at ``ply`` (default:
    the start); with ``fragment=True`` a ``<div>`` to embed in another page
    (a notebook cell, a documentation page)."""
    data = replay_data(item, ply)
    ident = f"referee-replay-{next(_IDS)}"
    # The symbols are drawn once, in the page's <defs>; the script never reads them.
    payload = _script_json({k: v for k, v in data.items() if k != "symbols"})
    body = (
        f'<div class="referee-replay" id="{ident}">'
        f"{_verdict_html(data['refusals'], item)}"
        f'<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>'
        f"{data['symbols']}</defs></svg>"
        f"{_SKELETON}"
        f'<script type="application/json" class="replay-data">{payload}</script>'
        f"<script>{_SCRIPT}\nrefereeReplay(document.getElementById({json.dumps(ident)}));"
        f"</script></div>"
    )
    if fragment:
        return f"<style>{_STYLE}</style>{body}"
    title = _escape(data["title"] + (" (illegal)" if data["refusals"] else ""))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>{_STYLE}</style></head>\n"
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


_SKELETON = """
<div class="replay-bar">
 <select class="game-picker" aria-label="game"></select>
 <button type="button" class="first" title="first position (Home)">&#xAB;</button>
 <button type="button" class="back" title="back one move (left arrow)">&#x25C0;</button>
 <button type="button" class="forward" title="forward one move (right arrow)">&#x25B6;</button>
 <button type="button" class="last" title="last position (End)">&#xBB;</button>
 <input type="range" class="slider" min="0" max="0" value="0" aria-label="ply">
 <span class="ply-counter"></span>
 <span class="hand-toggles"></span>
</div>
<div class="replay-main">
 <div class="board"></div>
 <div class="replay-side">
  <div class="result"></div>
  <div class="game-verdict"></div>
  <div class="refusal"></div>
  <div class="missed"></div>
  <h3>Claims on the table</h3>
  <ul class="claims"></ul>
  <div class="evidence">Click a &#x2713; or &#x2717; mark on a stone or tile for the prover's evidence.</div>
  <h3>Moves</h3>
  <ol class="moves"></ol>
 </div>
</div>
"""

_STYLE = """
.referee-replay{font-family:Helvetica,Arial,sans-serif;color:#1a1a1a}
.referee-replay .replay-bar{display:flex;flex-wrap:wrap;gap:.4em;align-items:center;margin:.4em 0}
.referee-replay .replay-bar button{font-size:1.1em;min-width:2.2em}
.referee-replay .slider{flex:1;min-width:8em}
.referee-replay .ply-counter{font-variant-numeric:tabular-nums;min-width:7em}
.referee-replay .replay-main{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
.referee-replay .board svg{max-width:100%;height:auto}
.referee-replay .replay-side{flex:1;min-width:16em;max-width:28em;font-size:.9em}
.referee-replay .replay-side h3{font-size:1em;margin:.6em 0 .2em}
.referee-replay ol.moves{max-height:24em;overflow-y:auto;margin:0;padding-left:3em}
.referee-replay ol.moves li{cursor:pointer}
.referee-replay ol.moves li[data-player="0"]{color:#1d3557}
.referee-replay ol.moves li[data-player="1"]{color:#8c2f1b}
.referee-replay ol.moves li[data-player="2"]{color:#2f6b3a}
.referee-replay ol.moves li[data-player="3"]{color:#6b4f1d}
.referee-replay ol.moves li.current{background:#ffe0b2;font-weight:bold}
.referee-replay ol.moves li.missed-claim::after{content:" \\2691";color:#c2185b}
.referee-replay ol.moves li.refused{color:#9b1c1c;font-weight:bold}
.referee-replay .claims li.claimable{color:#1b7f3b}
.referee-replay .claims li.not-claimable{color:#9b1c1c}
.referee-replay .evidence{background:#f4efe4;padding:.4em;border-radius:4px;margin:.4em 0}
.referee-replay .refusal,.referee-replay .missed,.referee-replay .game-verdict{color:#9b1c1c}
.referee-replay .verdict{border:3px solid #9b1c1c;background:#fde8e8;color:#7a1010;
 padding:.5em .8em;margin:.4em 0;border-radius:4px}
.referee-replay .verdict-head{font-size:1.2em;font-weight:bold;margin:.2em 0}
.referee-replay .verdict-line{margin:.2em 0;overflow-wrap:anywhere}
.referee-replay .game-verdict{font-weight:bold}
.referee-replay g.verdict{cursor:pointer}
.referee-replay.hide-hand-0 g.hand[data-player="0"],
.referee-replay.hide-hand-1 g.hand[data-player="1"],
.referee-replay.hide-hand-2 g.hand[data-player="2"],
.referee-replay.hide-hand-3 g.hand[data-player="3"]{display:none}
"""

_SCRIPT = r"""
function refereeReplay(root) {
  var data = JSON.parse(root.querySelector("script.replay-data").textContent);
  var q = function (cls) { return root.querySelector(cls); };
  var board = q(".board"), slider = q(".slider"), counter = q(".ply-counter");
  var moves = q("ol.moves"), picker = q(".game-picker"), toggles = q(".hand-toggles");
  var game = null, sets = [], at = 0;
  function text(s) { return document.createTextNode(s); }
  function el(tag, cls, content) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (content !== undefined) e.appendChild(text(content));
    return e;
  }
  function load(index) {
    game = data.games[index];
    sets = [];
    var current = [];
    game.frames.forEach(function (frame) {
      var keep = current.filter(function (id) { return frame.out.indexOf(id) < 0; });
      current = keep.concat(frame.in);
      current.sort(function (a, b) { return data.rank[a] - data.rank[b]; });
      sets.push(current);
    });
    slider.max = game.frames.length - 1;
    moves.textContent = "";
    game.moves.forEach(function (move, i) {
      var li = el("li", "move", move);
      var player = game.frames[i].to_move;
      li.dataset.ply = i + 1;
      li.dataset.player = player;
      li.title = game.players[player] || "player " + (player + 1);
      var missed = game.missedAt[String(i + 1)];
      if (missed) { li.classList.add("missed-claim"); li.title += ": " + missed.join("\n"); }
      li.addEventListener("click", function () { show(i + 1); });
      moves.appendChild(li);
    });
    if (game.illegal) {
      var li = el("li", "move refused", game.illegal.move + " (refused)");
      li.dataset.ply = game.frames.length - 1;
      li.title = game.illegal.message;
      li.addEventListener("click", function () { show(game.frames.length - 1); });
      moves.appendChild(li);
    }
    toggles.textContent = "";
    if (!game.public) {
      game.players.forEach(function (name, p) {
        var label = el("label", "hand-toggle");
        var box = document.createElement("input");
        box.type = "checkbox"; box.checked = true; box.dataset.player = p;
        root.classList.remove("hide-hand-" + p);
        box.addEventListener("change", function () {
          root.classList.toggle("hide-hand-" + p, !box.checked);
          box.blur();
        });
        label.appendChild(box);
        label.appendChild(text(" " + name + "'s hand"));
        toggles.appendChild(label);
      });
    } else {
      toggles.appendChild(el("span", "public-note", "public record: hands hidden"));
    }
    q(".result").textContent = game.game + ": " + game.result +
      (game.settled !== null ? ", settled on the table from ply " + game.settled : "");
    q(".game-verdict").textContent = game.verdict ? "Illegal: " + game.verdict : "";
    show(0);
  }
  function show(k) {
    k = Math.max(0, Math.min(game.frames.length - 1, k));
    at = k;
    var frame = game.frames[k];
    var body = sets[k].map(function (id) { return data.pieces[id]; }).join("");
    board.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" width="' + frame.w +
      '" height="' + frame.h + '" viewBox="0 0 ' + frame.w + " " + frame.h +
      '" role="img" class="referee-position ' + frame.kind +
      '" style="font-family:Helvetica,Arial,sans-serif">' + body + "</svg>";
    slider.value = k;
    var total = game.moves.length;
    counter.textContent = frame.refused ? "ply " + game.illegal.ply + " refused" :
      "ply " + frame.ply + " / " + total;
    counter.dataset.ply = frame.ply;
    var items = moves.querySelectorAll("li");
    items.forEach(function (li) { li.classList.remove("current"); });
    var current = frame.refused ? items[items.length - 1] : (k > 0 ? items[k - 1] : null);
    if (current) {
      current.classList.add("current");
      if (current.scrollIntoView) current.scrollIntoView({block: "nearest"});
    }
    var claims = q("ul.claims");
    claims.textContent = "";
    frame.claims.forEach(function (c) {
      claims.appendChild(el("li", c.claimable ? "claimable" : "not-claimable",
        c.label + ", player " + (c.player + 1) + ": " + c.text));
    });
    if (!frame.claims.length) claims.appendChild(el("li", "none", "no complete formation to judge"));
    q(".missed").textContent = frame.missed.length ? "Missed claim: " + frame.missed.join("; ") : "";
    q(".refusal").textContent = frame.refused ?
      "Refused at ply " + game.illegal.ply + ": " + game.illegal.move + " [" +
      game.illegal.reason + "] " + game.illegal.message : "";
    board.querySelectorAll("g.verdict").forEach(function (g) {
      g.addEventListener("click", function () {
        q(".evidence").textContent = g.querySelector("title").textContent;
      });
    });
  }
  data.games.forEach(function (g, i) {
    var option = el("option", "", g.name + " (" + (g.verdict ? "illegal" : g.result) + ")");
    option.value = i;
    picker.appendChild(option);
  });
  picker.hidden = data.games.length < 2;
  picker.addEventListener("change", function () { load(Number(picker.value)); picker.blur(); });
  q(".first").addEventListener("click", function () { show(0); });
  q(".back").addEventListener("click", function () { show(at - 1); });
  q(".forward").addEventListener("click", function () { show(at + 1); });
  q(".last").addEventListener("click", function () { show(game.frames.length - 1); });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  root.addEventListener("pointerdown", function () { window.refereeActiveReplay = root; });
  document.addEventListener("keydown", function (event) {
    var all = document.querySelectorAll(".referee-replay");
    if (all.length > 1 && window.refereeActiveReplay !== root) return;
    if (event.target && /INPUT|SELECT|TEXTAREA/.test(event.target.tagName) &&
        event.target !== slider) return;
    var moves = {ArrowLeft: -1, ArrowRight: 1};
    if (event.key in moves) { show(at + moves[event.key]); event.preventDefault(); }
    else if (event.key === "Home") { show(0); event.preventDefault(); }
    else if (event.key === "End") { show(game.frames.length - 1); event.preventDefault(); }
  });
  load(0);
  if (data.start !== null) show(data.start);
}
"""


# --- command line -------------------------------------------------------------------


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``replay`` command to the ``referee`` command line's subparsers."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "replay", help="write a record or match as an HTML page to step through"
    )
    parser.add_argument(
        "path", metavar="RECORD", help="a record or match file, a JSON Lines corpus, or -"
    )
    parser.add_argument(
        "--ply", type=ply, metavar="N", help="open the page at ply N (of its first game)"
    )
    parser.add_argument(
        "--game", type=positive, metavar="N", help="only the N-th document of a corpus (from 1)"
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="the HTML file to write (default: standard output)"
    )
    parser.set_defaults(run=run)
    return parser


def read_documents(
    path: str, *, game: int | None = None, limit: int | None = None
) -> list[Record | Match | RecordError]:
    """The documents of a file (``-`` for standard input), in order, each a
    record, a match, or the :class:`~referee.records.RecordError` of one that
    cannot be read (as :func:`~referee.records.iter_records` gives them, ready
    for :func:`~referee.records.validate`).

    ``game`` keeps only the ``game``-th document (from 1); ``limit`` refuses a
    corpus of more documents. What is asked for and not there (an empty input,
    no such document, too many) raises its :class:`~referee.records.RecordError`.
    """
    if game is not None and game < 1:
        raise RecordError(f"--game counts documents from 1, not {game}", path)
    source = sys.stdin.buffer if path == "-" else path
    where = "<stdin>" if path == "-" else path
    found: list[Record | Match | RecordError] = []
    for k, item in enumerate(iter_records(source), start=1):
        whole = isinstance(item, RecordError) and item.where == where  # the input itself
        if game is not None and k != game and not whole:
            continue
        found.append(item)
        if game is not None or whole:
            break
        if limit is not None and len(found) > limit:
            raise RecordError(f"more than {limit} documents: pick one with --game N", where)
    if not found:
        if game is not None:
            raise RecordError(f"there is no document {game}", where)
        raise RecordError("no document: the input is empty", where)
    return found


def read_items(
    path: str, *, game: int | None = None, limit: int | None = None
) -> list[Record | Match]:
    """The records and matches of a file (``-`` for standard input): one
    document, or each line of a JSON Lines corpus, in order (see
    :func:`read_documents`). The first document that cannot be read raises its
    :class:`~referee.records.RecordError`, as does an empty input.
    """
    items: list[Record | Match] = []
    for item in read_documents(path, game=game, limit=limit):
        if isinstance(item, RecordError):
            raise item
        items.append(item)
    return items


def read_item(path: str) -> Record | Match:
    """One record or match from a file (``-`` for standard input); a corpus of
    several documents is refused (see :func:`read_items`)."""
    items = read_items(path, limit=1)
    return items[0]


def _first_game(item: Record | Match) -> Record:
    return item.games[0] if isinstance(item, Match) else item


def run(args: argparse.Namespace) -> int:
    """Write the replay page; returns the exit status: 0 when every document
    is legal, 1 when one is illegal (the page is written and opens with the
    verdict), 2 when one cannot be read (no page)."""
    documents = read_documents(args.path, game=args.game, limit=MAX_PAGE_GAMES)
    reports = [validate(document) for document in documents]
    unreadable = [report for report in reports if report.status == "unreadable"]
    if unreadable:  # nothing to draw: refused as validate reports it
        for report in unreadable:
            error(report.summary())
        return EXIT_STATUS["unreadable"]
    items = [d for d in documents if not isinstance(d, RecordError)]
    first = _first_game(items[0])
    check_ply(args.ply, first, first.where or args.path)
    page = replay_html(items[0] if len(items) == 1 else items, ply=args.ply)
    if args.output:
        try:
            Path(args.output).write_text(page, encoding="utf-8")
        except OSError as problem:
            error(f"cannot write {args.output!r}: {problem.strerror}")
            return 2
    else:
        sys.stdout.write(page)
    for report in reports:
        if not report.legal:
            error(report.summary())
    return max(EXIT_STATUS[report.status] for report in reports)
