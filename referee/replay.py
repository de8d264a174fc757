"""A recorded game (or a match) as one self-contained HTML page to step through.

:func:`replay_html` turns a record or a match into a web page that needs no
network and no server, built like an analysis board:

- **who plays and who is winning**: the players' names everywhere (picture,
  result, game picker, move list), a score strip at every ply (stones held
  and proven, damaged tiles and oil, Clans and Glory points), and a match's
  score and winner;
- **what just happened**: the card just placed is framed, a card just drawn
  marked in its hand, a card moved by a tactic gets an arrow, and the turn so
  far is told in words; step by move or by turn, with the move list paired
  per turn as chess lists pair white and black;
- **the prover's verdicts** in plain words on every complete formation (the
  odds while the opponent's side is still open), the missed chances to claim
  with buttons to jump between them, and a graph of the decided places (or
  Clans and Glory points) over the game;
- **links and export**: ``#ply=N`` (``#game=G&ply=N``) deep links, the
  position as JSON, and the ``referee claimable`` command for the position
  shown;
- **hands**: a full record shows every hand, and a toggle turns one face down
  (drawn as card backs, clan and tactic backs told apart). A page made for
  one player (``viewer``, ``referee replay --as N``) is built from that
  player's views of the game: it holds nothing that player did not see, in its
  data, its pictures or their tooltips;
- **small screens**: under 700 pixels the board takes the whole width, its card
  values stay at least 12 pixels tall, and the step buttons stay at the bottom
  of the screen without moving the page;
- **no script**: a static picture of the last position comes first, the
  interactive board replaces it once the page's script runs, so a notebook
  where scripts do not run (GitHub, nbviewer, an untrusted notebook) still
  shows the game.

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
previous one (a stone, a hand, the title bar), every piece and every text is
stored once, and each card face is drawn once as an SVG ``<symbol>`` that the
pictures ``<use>``.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import re
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any

from referee import games
from referee._commands import (
    EXIT_STATUS,
    add_document_option,
    check_ply,
    document_of,
    error,
    ply,
    positive,
)
from referee._words import move_words, reason_words, result_words
from referee.analysis import Analysis, analyze, analyze_positions
from referee.records import (
    Match,
    Record,
    RecordError,
    ValidationReport,
    find_game,
    iter_records,
    validate,
)
from referee.svg import _CARD_VALUE_SIZE, _draw, _Drawing, _evidence, _Options, _touched

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
#: pick one document of a longer corpus with ``--document N``.
MAX_PAGE_GAMES = 50

_IDS = count(1)


class _Table:
    """Every distinct piece of every picture (or text), stored once."""

    def __init__(self) -> None:
        self.index: dict[Any, int] = {}

    def id(self, item: Any) -> int:
        found = self.index.get(item)
        if found is None:
            found = self.index[item] = len(self.index)
        return found

    def items(self) -> list[Any]:
        return list(self.index)


class _Pieces(_Table):
    """The pictures' pieces, each with its layer."""

    def ids(self, drawing: _Drawing) -> list[int]:
        return [self.id(piece) for piece in drawing.pieces]

    def table(self) -> tuple[list[str], list[int]]:
        """The pieces, and the order (by layer, then first use) to draw them in."""
        pieces = self.items()
        order = sorted(range(len(pieces)), key=lambda i: (pieces[i][0], i))
        rank = [0] * len(pieces)
        for position, i in enumerate(order):
            rank[i] = position
        return [text for _, text in pieces], rank


@dataclass
class _Shared:
    """What every game of a page shares: pieces, texts, position parts, symbols."""

    pieces: _Pieces
    texts: _Table
    parts: _Table
    symbols: dict[str, str]


def _names(record: Record, players: int) -> list[str]:
    given = list(record.players)
    return [given[p] if p < len(given) and given[p] else f"player {p + 1}" for p in range(players)]


def _num_players(record: Record) -> int:
    players = record.rules.get("players") if isinstance(record.rules, dict) else None
    return players if isinstance(players, int) and not isinstance(players, bool) else 2


# --- what one player saw -------------------------------------------------------------


def _seen_moves(game: str, states: Sequence[Any], moves: Sequence[str], viewer: int) -> list[str]:
    """The moves as ``viewer`` saw them: as the game's commentary says where it
    does (in Clans and Glory, another player's face-down card hidden), else a
    view's history (cards put back face down written as their piles, a shuffle
    without its places)."""
    told = games.find_game(game).commentary.seen_moves(states, moves, viewer)
    if told is not None:
        return told
    final = states[len(moves)].view(viewer).history
    if len(final) == len(moves):
        return [str(move) for move in final]
    out: list[str] = []
    for k in range(1, len(moves) + 1):
        # The earliest view that shows move k (an exchange's offer is hidden
        # from the answering player until it is answered).
        for later in states[k:]:
            history = later.view(viewer).history
            if len(history) >= k:
                out.append(str(history[k - 1]))
                break
        else:
            out.append("(not seen yet)")
    return out


# --- one game ------------------------------------------------------------------------


def _turns(movers: Sequence[int], moves: Sequence[str], first: int) -> list[list[int]]:
    """Each turn as ``[player, first move, last move, round]`` (moves from 1). An
    exchange's answer, made by the other player inside a turn, stays in that
    turn."""
    turns: list[list[int]] = []
    for k, player in enumerate(movers, start=1):
        if turns and turns[-1][0] == player:
            turns[-1][2] = k
        elif (
            turns
            and moves[k - 1].startswith("give ")
            and k < len(movers)
            and movers[k] == turns[-1][0]
        ):
            turns[-1][2] = k  # the answer to an exchange: the offer's turn goes on
        else:
            turns.append([player, k, k, 0])
    round_ = 0
    for i, turn in enumerate(turns):
        if i == 0 or turn[0] == first:
            round_ += 1
        turn[3] = round_
    return turns


def _rule_of(state: Any, place: int) -> Any:
    for name in ("stones", "tiles"):
        row = getattr(state, name, None)
        if row is not None and 1 <= place <= len(row):
            return row[place - 1].rule
    return None


def _score(game: str, state: Any, analysis: Analysis, k: int) -> list[str]:
    """The score strip at position ``k``: one line per player."""
    commentary = games.find_game(game).commentary
    return commentary.score_lines(state, lambda player: analysis.decided_count(k, player))


def _graph(game: str, states: Sequence[Any], analysis: Analysis) -> dict[str, Any]:
    """The graph beside the board: decided places (or points) at every ply."""
    return games.find_game(game).commentary.graph(states, analysis.decided_count)


def _position(fmt: Any, state: Any, parts: _Table) -> list[Any] | None:
    """The position as JSON in shared parts: each top-level field a part, the
    long arrays (stones, tiles, seats) one part per element."""
    try:
        data = fmt.position_of(state).to_json()
    except (ValueError, TypeError, AttributeError):
        return None  # a player's view of a game whose positions hold every hand
    out: list[Any] = []
    for key, value in data.items():
        if isinstance(value, list) and len(value) > 3 and all(isinstance(v, dict) for v in value):
            elements = [parts.id(_compact(v)) for v in value]
            out.append([parts.id(json.dumps(key)), elements])
        else:
            out.append(parts.id(f"{json.dumps(key)}:{_compact(value)}"))
    return out


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _drawn(move: str) -> tuple[bool, ...] | None:
    """The kinds of the cards a move drew (true for a tactic card)."""
    if move in ("draw", "draw clan"):
        return (False,)
    if move == "draw tactic":
        return (True,)
    return None


def _game_data(
    record: Record,
    name: str,
    shared: _Shared,
    *,
    in_match: bool = False,
    verdict: str | None = None,
    viewer: int | None = None,
    command: str | None = None,
    match: dict[str, Any] | None = None,
    picture: int | None = None,
) -> dict[str, Any]:
    """One game's data; with ``picture`` (a ply, or -1 for the last position)
    also its static picture there, under ``"_static"``."""
    fmt = find_game(record.game, record.where)
    # A page for one player is made of legal documents (see replay_data): it
    # never asks the prover about the full states.
    full = analyze(record, in_match=in_match) if viewer is None else None
    illegal = None if full is None else full.illegal
    moves = list(record.moves if full is None else record.moves[: full.plies])
    state = fmt.start(record)
    states = [state]
    for move in moves:
        state = state.play(move)
        states.append(state)
    players = states[0].num_players
    names = _names(record, players)
    movers = [s.to_move for s in states[: len(moves)]]
    if full is not None:
        shown: list[Any] = states
        seen = moves
        analysis = full
    else:
        assert viewer is not None
        shown = [s.view(viewer) for s in states]
        seen = _seen_moves(record.game, states, moves, viewer)
        analysis = analyze_positions(record.game, shown, seen, where=record.where)
    words = [move_words(record.game, m, names[p]) for m, p in zip(seen, movers, strict=True)]
    texts = shared.texts
    has_claims = bool(fmt.has_claims)
    line_game = games.find_game(record.game).commentary.faces
    frames: list[dict[str, Any]] = []
    previous: set[int] = set()
    width = height = 0.0

    def claims_of(k: int, view: Any, options: _Options) -> list[list[int]]:
        if view.outcome is not None or k >= len(analysis.answers):
            return []
        out = []
        for answer in analysis.answers[k]:
            rule = _rule_of(view, answer.place)
            lower = bool(getattr(rule, "lower_sum_wins", False))
            text = _evidence(answer, options, lower_sum_wins=lower)
            out.append([texts.id(text), 1 if answer.claimable else 0, answer.place])
        return out

    def add(k: int, view: Any, extra: dict[str, Any], **drawing_options: Any) -> None:
        nonlocal previous, width, height
        drawing = _draw(
            view,
            symbols=shared.symbols,
            names=names,
            replay=True,
            examples=viewer is None,
            perspective=viewer if line_game else None,
            **drawing_options,
        )
        assert isinstance(drawing, _Drawing)
        options = _Options(names=tuple(names), examples=viewer is None)
        ids = set(shared.pieces.ids(drawing))
        width, height = max(width, drawing.width), max(height, drawing.height)
        frames.append(
            {
                "out": sorted(previous - ids),
                "in": sorted(ids - previous),
                "claims": claims_of(min(k, len(shown) - 1), view, options),
                "score": [
                    texts.id(line)
                    for line in _score(record.game, view, analysis, min(k, len(shown) - 1))
                ],
                "pos": _position(fmt, view, shared.parts),
                **extra,
            }
        )
        previous = ids

    for k, view in enumerate(shown):
        last = seen[k - 1] if k else None
        mover = movers[k - 1] if k else None
        kinds = _drawn(last) if last else None
        add(
            k,
            view,
            {"missed": [texts.id(_missed_words(m, names)) for m in analysis.missed_at(k)]},
            last_move=last,
            mover=mover,
            drawn=None if kinds is None or mover is None else (mover, kinds),
            highlight=[str(m.place) for m in analysis.missed_at(k)],
            claims=analysis.answers[k] if k < len(analysis.answers) else (),
        )
    if illegal is not None:
        note = f"refused: {illegal.move} ({illegal.reason.replace('_', ' ')})"
        add(
            len(shown) - 1,
            shown[-1],
            {"missed": [], "refused": True},
            highlight=sorted(_touched(illegal.move)),
            claims=analysis.answers[-1] if analysis.answers else (),
            note=note,
        )
    outcome = analysis.outcome if illegal is None else None
    if illegal is not None:
        result = f"illegal at ply {illegal.ply}"
    elif outcome is None:
        result = "unfinished"
    else:
        result = result_words(outcome.winner, outcome.reason, names)
    settled = analysis.settled_at
    turns = _turns(movers, seen, movers[0] if movers else 0)
    static = ""
    if picture is not None:
        at = len(shown) - 1 if picture < 0 else min(picture, len(shown) - 1)
        still = _draw(
            shown[at],
            names=names,
            last_move=seen[at - 1] if at else None,
            mover=movers[at - 1] if at else None,
            perspective=viewer if line_game else None,
            examples=viewer is None,
        )
        static = still.svg(None) if isinstance(still, _Drawing) else still
    return {
        "_static": static,
        "name": name,
        "game": fmt.title,
        "kind": record.game,
        "players": names,
        "public": record.is_public,
        "hasClaims": has_claims,
        "flip": line_game,
        "w": width,
        "h": height,
        "moves": seen,
        "words": [texts.id(w) for w in words],
        "movers": movers,
        "turns": turns,
        "first": movers[0] if movers else 0,
        "missed": [
            {
                "ply": m.ply,
                "end": m.turn_end,
                "player": m.player,
                "text": texts.id(_missed_words(m, names)),
            }
            for m in analysis.missed
        ],
        "illegal": None
        if illegal is None
        else {
            "ply": illegal.ply,
            "move": illegal.move,
            "reason": illegal.reason,
            "message": illegal.message,
        },
        "result": result,
        "verdict": verdict,
        "settled": settled,
        "graph": _graph(record.game, shown, analysis),
        "command": command,
        "match": match,
        "frames": frames,
    }


def _missed_words(missed: Any, names: Sequence[str]) -> str:
    who = names[missed.player] if missed.player < len(names) else f"player {missed.player + 1}"
    turns = "1 turn" if missed.turns == 1 else f"{missed.turns} turns"
    later = (
        f", and claimed it at move {missed.claimed_at}"
        if missed.claimed_at is not None
        else ", and never claimed it"
    )
    return (
        f"{who} could claim {missed.label} from ply {missed.ply} and let {turns} pass "
        f"(the first ended at move {missed.turn_end}){later}."
    )


# --- matches ---------------------------------------------------------------------------


def _match_info(match: Match, names: Sequence[str]) -> list[dict[str, Any]]:
    """Per game of a match: the match's name, its running score (where the
    match keeps one as it goes) and its result in words."""
    fmt = find_game(match.game, match.where)
    finals = []
    for game in match.games:
        state = fmt.start(game)
        for move in game.moves:
            state = state.play(move)
        finals.append(state)
    result, _ = fmt.match_result(match, finals)
    rounds = match.rules.get("rounds")
    title = games.find_game(match.game).commentary.match_name(match.rules)
    head = f"{title}, {len(match.games)} game{'s' if len(match.games) != 1 else ''}"
    if isinstance(rounds, int) and rounds != len(match.games):
        head = f"{title}, {rounds} rounds agreed"
    summary = "the match is unfinished"
    if result is not None:
        scores = result.get("scores")
        score = ""
        if isinstance(scores, list) and len(scores) == len(names) == 2:
            score = f", {names[0]} {scores[0]} – {scores[1]} {names[1]}"
        winner = result.get("winner")
        reason = str(result.get("reason", ""))
        if winner is None:
            summary = f"no winner{score}: {reason_words(reason)}"
        else:
            summary = f"{names[winner]} wins the match{score}: {reason_words(reason)}"
    info = []
    for n in range(1, len(match.games) + 1):
        running = _running_score(fmt, match, finals, n)
        after = ""
        if running is not None:
            after = f"after game {n}: " + ", ".join(
                f"{names[p]} {running[p]}" for p in range(len(names))
            )
        info.append(
            {"head": head, "game": n, "games": len(match.games), "summary": summary, "after": after}
        )
    return info


def _running_score(fmt: Any, match: Match, finals: Sequence[Any], n: int) -> list[int] | None:
    """The match score after its first ``n`` games, where the match keeps one
    (Clanfehde: each game's points added up); ``None`` where it does not."""
    kept = games.find_game(match.game).commentary.running_score
    if not kept or any(f.outcome is None for f in finals[:n]):
        return None
    partial = Match(
        match.game,
        match.games[:n],
        {**match.rules, "rounds": n},
        match.players,
        where=match.where,
    )
    result, problem = fmt.match_result(partial, finals[:n])
    if problem is not None or result is None:
        return None
    scores = result.get("scores")
    return list(scores) if isinstance(scores, list) else None


# --- the page --------------------------------------------------------------------------


_LINE = re.compile(r"^(?P<path>.+):(?P<line>[0-9]+)$")


def _command(where: str, document: int | None, round_: int | None) -> str | None:
    """The start of the ``referee claimable`` command for a game of a file."""
    if not where or where.startswith("<"):
        return None
    path = where.split(" game ", 1)[0]
    found = _LINE.match(path)
    if found and found["path"].endswith(".jsonl"):
        path = found["path"]
    words = ["referee", "claimable", path]
    if document is not None:
        words += ["--document", str(document)]
    if round_ is not None:
        words += ["--round", str(round_)]
    return " ".join(shlex.quote(w) for w in words)


def replay_data(
    item: Record | Match | Sequence[Record | Match],
    ply: int | None = None,
    *,
    viewer: int | None = None,
    numbers: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The data a replay page steps through: per game its moves (as the page
    shows them), the words that tell them, its turns, the missed chances to
    claim, the graph and its frames (each frame the picture pieces that
    changed, the verdicts, the score strip and the position), and the pieces,
    texts and position parts the games share.

    ``item`` is a record, a match, or several of them (the documents of a JSON
    Lines corpus, such as ``referee match`` writes): the page gets a game picker.
    ``viewer`` makes a page for that player alone (players counted from 0),
    from the player's views: every document must then be legal.
    ``numbers`` are the documents' numbers in their corpus (for the commands
    the page offers; default 1, 2, ...).

    Each document is judged by :func:`referee.records.validate`: ``refusals``
    lists the summary of each one that is not legal, and each game carries its
    document's (``verdict``, ``None`` when legal).

    >>> from referee.records import Record
    >>> data = replay_data(Record("schotten-totten", ("R7@3", "draw", "R7@4"), where="x"))
    >>> data["refusals"]
    ["x: illegal at ply 3 'R7@4' [card_already_played]: illegal move 'R7@4': R7 is already on the table"]
    """
    shared = _Shared(_Pieces(), _Table(), _Table(), {})
    games: list[dict[str, Any]] = []
    refusals: list[str] = []
    items = [item] if isinstance(item, (Record, Match)) else list(item)
    if not items:
        raise ValueError("nothing to replay: no record or match given")
    if numbers is not None and len(numbers) != len(items):
        raise ValueError(f"{len(items)} documents need {len(items)} numbers, not {len(numbers)}")
    corpus = len(items) > 1 or numbers is not None
    for k, one in enumerate(items, start=1):
        report = validate(one)
        verdict = None if report.legal else report.summary()
        if verdict is not None:
            if viewer is not None:
                raise _NotForOnePlayer(report)
            refusals.append(verdict)
        number = (numbers[k - 1] if numbers is not None else k) if corpus else None
        prefix = "game" if len(items) == 1 else f"document {k}"
        if isinstance(one, Match):
            names = _names(one.games[0], _num_players(one.games[0])) if one.games else []
            info = _match_info(one, names) if verdict is None and one.games else []
            for n, game in enumerate(one.games, start=1):
                games.append(
                    _game_data(
                        game,
                        f"{prefix}, game {n}" if len(items) > 1 else f"game {n}",
                        shared,
                        in_match=True,
                        verdict=verdict,
                        viewer=viewer,
                        command=_command(one.where, number, n),
                        match=info[n - 1] if info else None,
                        picture=_first_picture(games, ply),
                    )
                )
        else:
            name = "game" if len(items) == 1 else f"game {k}"
            games.append(
                _game_data(
                    one,
                    name,
                    shared,
                    verdict=verdict,
                    viewer=viewer,
                    command=_command(one.where, number, None),
                    picture=_first_picture(games, ply),
                )
            )
    static = games[0]["_static"] if games else ""
    for data in games:
        del data["_static"]
    texts, rank = shared.pieces.table()
    title = _title(items[0]) if len(items) == 1 else _corpus_title(items)
    if viewer is not None:
        title += f", as {games[0]['players'][viewer] if games else f'player {viewer + 1}'} saw it"
    return {
        "title": title,
        "games": games,
        "pieces": texts,
        "rank": rank,
        "texts": shared.texts.items(),
        "parts": shared.parts.items(),
        "start": ply,
        "symbols": "".join(shared.symbols.values()),
        "refusals": refusals,
        "documents": len(items),
        "viewer": viewer,
        "valueSize": _CARD_VALUE_SIZE,
        "static": static,
    }


def _first_picture(games: Sequence[dict[str, Any]], ply: int | None) -> int | None:
    """The page's static picture is the first game's (at ``ply``, else its end)."""
    if games:
        return None
    return -1 if ply is None else ply


class _NotForOnePlayer(ValueError):
    """A one-player page of a document that is not legal (its verdict would
    speak of cards the player never saw)."""

    def __init__(self, report: ValidationReport) -> None:
        super().__init__(
            f"a page for one player is made of legal documents only: {report.summary()}"
        )
        self.report = report


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
        f'<div class="replay-live" hidden>{_SKELETON}{_LEGEND}</div>'
        f'<script type="application/json" class="replay-data"{encoding}>{payload}</script>'
        f"<script>{_SCRIPT}\nrefereeReplay(document.getElementById({json.dumps(ident)}));"
        f"</script></div>"
    )
    if fragment:
        return f"<style>{_STYLE}</style>{body}"
    title = _escape(data["title"] + (" (illegal)" if data["refusals"] else ""))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>{_PAGE_STYLE}{_STYLE}</style></head>\n"
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
<div class="replay-head">
 <select class="game-picker" aria-label="game"></select>
 <div class="match-line"></div>
 <div class="result"></div>
 <div class="game-verdict"></div>
</div>
<div class="score-strip" aria-label="score"></div>
<div class="replay-options">
 <span class="hand-toggles"></span>
 <button type="button" class="flip" title="turn the table around">flip board</button>
</div>
<div class="replay-main">
 <div class="board-wrap"><div class="board"></div></div>
 <div class="replay-side">
  <div class="happened" aria-live="polite"></div>
  <div class="refusal"></div>
  <section class="claims-panel">
   <h3>Claims on the table</h3>
   <ul class="claims"></ul>
   <div class="evidence">Click a &#x2713; or &#x2717; mark on a stone or tile to read its verdict here.</div>
  </section>
  <section class="missed-panel">
   <h3>Missed claims <button type="button" class="prev-missed" title="previous missed claim">&#x2190; previous</button>
   <button type="button" class="next-missed" title="next missed claim">next &#x2192;</button></h3>
   <div class="missed"></div>
  </section>
  <section class="graph-panel"><h3 class="graph-title"></h3><div class="graph"></div></section>
  <section class="moves-panel"><h3>Moves</h3><div class="moves-box"><table class="moves"></table></div></section>
  <section class="export">
   <h3>Export</h3>
   <button type="button" class="copy-link">copy link</button>
   <button type="button" class="copy-position">copy position (JSON)</button>
   <button type="button" class="copy-command">copy <code>referee claimable</code> command</button>
   <textarea class="export-text" readonly rows="3" aria-label="exported text"></textarea>
   <div class="export-note"></div>
  </section>
 </div>
</div>
<div class="replay-bar">
 <button type="button" class="first" title="first position (Home)">&#xAB;</button>
 <button type="button" class="prev-turn" title="back one turn (up arrow)">&#x25C0;&#x25C0;</button>
 <button type="button" class="back" title="back one move (left arrow)">&#x25C0;</button>
 <button type="button" class="forward" title="forward one move (right arrow)">&#x25B6;</button>
 <button type="button" class="next-turn" title="forward one turn (down arrow)">&#x25B6;&#x25B6;</button>
 <button type="button" class="last" title="last position (End)">&#xBB;</button>
 <input type="range" class="slider" min="0" max="0" value="0" aria-label="ply">
 <span class="ply-counter"></span>
</div>
"""

_LEGEND = """
<details class="legend"><summary>Legend</summary><dl>
<dt>&#x2713; / &#x2717; on a stone or tile</dt><dd>The prover's verdict on a complete
formation: the claim is proven (&#x2713;) or the opponent can still beat it (&#x2717;).
Click it for the reasons.</dd>
<dt>totalling 24</dt><dd>The sum of the formation's card values: it decides only
between formations of the same kind (colour run, three of a kind, colour, run, plain sum,
strongest first).</dd>
<dt>Odds</dt><dd>Of the ways the opponent's side could still be completed from the
cards not yet seen on the table, how many would beat the claim. Shown only while that side
is still open.</dd>
<dt>1st</dt><dd>Both sides are complete: this player completed first, and wins a tie.</dd>
<dt>Orange dashed ring</dt><dd>The place the last move touched; an orange frame marks
the card it placed, an orange arrow a card a tactic moved.</dd>
<dt>Blue frame</dt><dd>The card just drawn.</dd>
<dt>Pink ring, &#x2691;</dt><dd>A missed claim: the stone or tile could have been claimed
from this position; &#x2691; marks the move that ended the turn without it.</dd>
<dt>Card backs</dt><dd>Brown with a cross: a clan or siege card; dark with a gold ring: a
tactic card (how many of those a hand holds is known to both players).</dd>
<dt>3 &#xB7; all, 4 &#xB7; sum, low</dt><dd>A wall tile's rule: cards a side, then what
counts: all (every formation), sum (only the sum), run + sum (runs and sums), colour + sum;
low: the lower sum wins.</dd>
<dt>Settled</dt><dd>From this ply on, the places decided for the winner already made a
win: nothing on the table could change the result.</dd>
<dt>Proven</dt><dd>A stone or tile whose claim the prover proves but nobody has claimed
yet.</dd>
<dt>Keys</dt><dd>&#x2190; &#x2192; one move, &#x2191; &#x2193; one turn, Home and End the first
and last position. The address bar's <code>#ply=N</code> opens the page at that ply.</dd>
</dl></details>
"""

_PAGE_STYLE = """
body{margin:8px}
@media (max-width:700px){body{margin:4px}h1{font-size:1.2em}}
"""

_STYLE = """
.referee-replay{font-family:Helvetica,Arial,sans-serif;color:#1a1a1a;line-height:1.35}
.referee-replay [hidden]{display:none!important}
.referee-replay .replay-static svg{max-width:100%;height:auto}
.referee-replay .replay-head{display:flex;flex-wrap:wrap;gap:.3em 1em;align-items:center;margin:.3em 0}
.referee-replay .match-line{font-weight:bold}
.referee-replay .score-strip{display:flex;flex-wrap:wrap;gap:.2em 1.2em;margin:.3em 0;font-size:.95em}
.referee-replay .score-strip span{white-space:nowrap;max-width:100%;overflow:hidden;
 text-overflow:ellipsis;display:inline-block;vertical-align:top}
.referee-replay .score-strip .to-move{font-weight:bold;text-decoration:underline}
.referee-replay .replay-options{display:flex;flex-wrap:wrap;gap:.3em 1em;align-items:center;margin:.3em 0}
.referee-replay .replay-bar{display:flex;flex-wrap:wrap;gap:.3em;align-items:center;margin:.4em 0}
.referee-replay .replay-bar button{font-size:1.1em;min-width:2.4em;min-height:2em}
.referee-replay .slider{flex:1;min-width:8em}
.referee-replay .ply-counter{font-variant-numeric:tabular-nums;min-width:9em}
.referee-replay .replay-main{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
.referee-replay .board-wrap{flex:0 1 auto;max-width:100%;min-width:0}
.referee-replay .board svg{display:block;width:100%;height:auto;background:#fbfaf7}
.referee-replay .replay-side{flex:1 1 20em;min-width:16em;max-width:34em;font-size:.9em}
.referee-replay .replay-side h3{font-size:1em;margin:.7em 0 .2em}
.referee-replay .happened{background:#fff4e0;border-left:4px solid #e07b00;padding:.3em .5em}
.referee-replay .moves-box{max-height:22em;overflow-y:auto;border:1px solid #ddd4c4}
.referee-replay table.moves{border-collapse:collapse;width:100%}
.referee-replay table.moves th,.referee-replay table.moves td{padding:.15em .4em;vertical-align:top;text-align:left}
.referee-replay table.moves tr:nth-child(even){background:#f7f3ec}
.referee-replay table.moves td.round{color:#7a6f5c;width:2.5em}
.referee-replay table.moves td.turn.current{background:#ffe9c7}
.referee-replay .move{cursor:pointer;white-space:nowrap;margin-right:.5em;border-radius:3px;padding:0 .15em}
.referee-replay .move.current{background:#ffb74d;font-weight:bold}
.referee-replay .move.missed-claim::after{content:" \\2691";color:#c2185b}
.referee-replay .move.refused{color:#9b1c1c;font-weight:bold}
.referee-replay .claims li.claimable{color:#1b7f3b}
.referee-replay .claims li.not-claimable{color:#9b1c1c}
.referee-replay .evidence{background:#f4efe4;padding:.4em;border-radius:4px;margin:.4em 0}
.referee-replay .refusal,.referee-replay .missed,.referee-replay .game-verdict{color:#9b1c1c}
.referee-replay .verdict{border:3px solid #9b1c1c;background:#fde8e8;color:#7a1010;
 padding:.5em .8em;margin:.4em 0;border-radius:4px}
.referee-replay .verdict-head{font-size:1.2em;font-weight:bold;margin:.2em 0}
.referee-replay .verdict-line{margin:.2em 0;overflow-wrap:anywhere}
.referee-replay .viewer-note{background:#e8f0fb;border-left:4px solid #2b68b5;padding:.3em .5em}
.referee-replay .game-verdict{font-weight:bold}
.referee-replay .graph svg{width:100%;height:auto;cursor:crosshair}
.referee-replay .export textarea{width:100%;box-sizing:border-box;font-family:monospace;font-size:.85em}
.referee-replay .legend dt{font-weight:bold;margin-top:.3em}
.referee-replay .legend dd{margin:0 0 0 1em}
.referee-replay g.verdict{cursor:pointer}
.referee-replay g.hand-backs{display:none}
.referee-replay.hide-hand-0 g.hand-backs[data-player="0"],
.referee-replay.hide-hand-1 g.hand-backs[data-player="1"],
.referee-replay.hide-hand-2 g.hand-backs[data-player="2"],
.referee-replay.hide-hand-3 g.hand-backs[data-player="3"]{display:inline}
.referee-replay.hide-hand-0 g.hand[data-player="0"] g.card,
.referee-replay.hide-hand-1 g.hand[data-player="1"] g.card,
.referee-replay.hide-hand-2 g.hand[data-player="2"] g.card,
.referee-replay.hide-hand-3 g.hand[data-player="3"] g.card{visibility:hidden}
.referee-replay.flipped .board [style*="--dy"]{transform:translateY(calc(var(--dy) * 1px))}
.referee-replay .board .move-arrow.flip-only{display:none}
.referee-replay.flipped .board .move-arrow.flip-only{display:inline}
.referee-replay.flipped .board .move-arrow:not(.flip-only){display:none}
@media (max-width:700px){
 .referee-replay{padding-bottom:5.5em}
 .referee-replay .replay-bar{position:fixed;left:0;right:0;bottom:0;z-index:10;margin:0;
  padding:.3em;background:#fbfaf7;border-top:1px solid #bdb7aa;box-shadow:0 -2px 6px #0002}
 .referee-replay .replay-bar button{min-width:2.8em;min-height:2.6em;flex:1}
 .referee-replay .slider{flex:1 1 100%;order:-1}
 .referee-replay .ply-counter{min-width:0;font-size:.85em;flex:0 0 auto}
 .referee-replay .board-wrap{flex:1 1 100%}
 .referee-replay .replay-side{max-width:none;min-width:0;flex:1 1 100%;display:flex;
  flex-direction:column;min-height:100vh}
 .referee-replay .happened{order:0;height:5.6em;overflow-y:auto;box-sizing:border-box}
 .referee-replay .moves-panel{order:1}
 .referee-replay .refusal{order:2}
 .referee-replay .claims-panel{order:3}
 .referee-replay .missed-panel{order:4}
 .referee-replay .graph-panel{order:5}
 .referee-replay .export{order:6}
 .referee-replay .moves-box{max-height:14em}
}
"""

_SCRIPT = r"""
function refereeReplay(root) {
  "use strict";
  var block = root.querySelector("script.replay-data");
  if (block.getAttribute("data-encoding") !== "gzip") {
    refereeBoard(root, JSON.parse(block.textContent));
    return;
  }
  // A notebook's replay: its data gzip-compressed; without a way to unpack it
  // the static picture stays.
  if (typeof DecompressionStream === "undefined" || typeof Response === "undefined") return;
  var raw = atob(block.textContent.trim()), bytes = new Uint8Array(raw.length);
  for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  new Response(stream).text().then(function (text) { refereeBoard(root, JSON.parse(text)); });
}

function refereeBoard(root, data) {
  "use strict";
  var q = function (sel) { return root.querySelector(sel); };
  var T = function (i) { return data.texts[i]; };
  var board = q(".board"), slider = q(".slider"), counter = q(".ply-counter");
  var table = q("table.moves"), box = q(".moves-box"), picker = q(".game-picker");
  var toggles = q(".hand-toggles"), exportText = q(".export-text");
  var game = null, gameIndex = 0, sets = [], at = 0, ends = [], turnOf = [], spans = [];
  var cells = [], cursor = null, exportKind = null;
  function text(s) { return document.createTextNode(s); }
  function el(tag, cls, content) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (content !== undefined && content !== null) e.appendChild(text(content));
    return e;
  }
  function svgEl(tag, attrs) {
    var e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function name(p) { return game.players[p] || "player " + (p + 1); }
  function last() { return game.frames.length - 1; }
  function plyOf(k) { return game.frames[k].refused ? game.illegal.ply - 1 : k; }

  function load(index) {
    gameIndex = index;
    game = data.games[index];
    picker.value = String(index);
    sets = [];
    var current = [];
    game.frames.forEach(function (frame) {
      var keep = current.filter(function (id) { return frame.out.indexOf(id) < 0; });
      current = keep.concat(frame.in);
      current.sort(function (a, b) { return data.rank[a] - data.rank[b]; });
      sets.push(current);
    });
    slider.max = last();
    board.parentNode.style.width = game.w + "px";
    ends = [0]; turnOf = [null];
    game.turns.forEach(function (turn, t) {
      for (var k = turn[1]; k <= turn[2]; k++) turnOf[k] = t;
      ends.push(turn[2]);
    });
    buildMoves();
    buildToggles();
    q(".result").textContent = game.game + ": " + game.result +
      (game.settled !== null ? " (settled on the table from ply " + game.settled + ")" : "");
    var m = game.match;
    q(".match-line").textContent = m ? m.head + " · game " + m.game + " of " + m.games +
      (m.after ? " · " + m.after : "") + " · " + m.summary : "";
    q(".game-verdict").textContent = game.verdict ? "Illegal: " + game.verdict : "";
    q(".claims-panel").hidden = !game.hasClaims;
    q(".missed-panel").hidden = !game.hasClaims;
    q(".prev-missed").disabled = q(".next-missed").disabled = !game.missed.length;
    q(".flip").hidden = !game.flip;
    buildGraph();
  }

  function buildMoves() {
    table.textContent = "";
    spans = [null]; cells = [];
    var n = game.players.length, head = el("tr");
    head.appendChild(el("th", "", "#"));
    for (var c = 0; c < n; c++) head.appendChild(el("th", "", name((game.first + c) % n)));
    table.appendChild(head);
    var rows = {}, flagged = {};
    game.missed.forEach(function (m) { (flagged[m.end] = flagged[m.end] || []).push(T(m.text)); });
    function row(r) {
      if (!rows[r]) {
        var tr = el("tr");
        tr.appendChild(el("td", "round", r + "."));
        var tds = [];
        for (var c = 0; c < n; c++) { var td = el("td", "turn"); tr.appendChild(td); tds.push(td); }
        rows[r] = tds;
        table.appendChild(tr);
      }
      return rows[r];
    }
    game.turns.forEach(function (turn, t) {
      var td = row(turn[3])[(turn[0] - game.first + n) % n];
      cells[t] = td;
      for (var k = turn[1]; k <= turn[2]; k++) {
        var span = el("span", "move", game.moves[k - 1]);
        span.dataset.ply = k;
        span.dataset.player = game.movers[k - 1];
        span.title = T(game.words[k - 1]);
        if (flagged[k]) {
          span.classList.add("missed-claim");
          span.title += "\n\u2691 " + flagged[k].join("\n\u2691 ");
        }
        span.addEventListener("click", (function (ply) { return function () { show(ply); }; })(k));
        td.appendChild(span);
        td.appendChild(text(" "));
        spans[k] = span;
      }
    });
    if (game.illegal) {
      var tr = el("tr"), td = el("td", "turn");
      tr.appendChild(el("td", "round", ""));
      td.colSpan = n;
      var span = el("span", "move refused", game.illegal.move + " (refused)");
      span.dataset.ply = game.illegal.ply;
      span.title = game.illegal.message;
      span.addEventListener("click", function () { show(last()); });
      td.appendChild(span);
      tr.appendChild(td);
      table.appendChild(tr);
      spans.push(span);
    }
  }

  function buildToggles() {
    toggles.textContent = "";
    for (var p = 0; p < 4; p++) root.classList.remove("hide-hand-" + p);
    if (data.viewer !== null) {
      toggles.appendChild(el("span", "viewer", name(data.viewer) + "'s page: the other hands are face down"));
    } else if (game.public) {
      toggles.appendChild(el("span", "public-note", "public record: the hands are not known (card backs)"));
    } else {
      game.players.forEach(function (who, p) {
        var label = el("label", "hand-toggle");
        var box_ = document.createElement("input");
        box_.type = "checkbox"; box_.checked = true; box_.dataset.player = p;
        box_.addEventListener("change", function () {
          root.classList.toggle("hide-hand-" + p, !box_.checked);
          box_.blur();
        });
        label.appendChild(box_);
        label.appendChild(text(" " + who + "'s hand face up"));
        toggles.appendChild(label);
      });
    }
  }

  function buildGraph() {
    var g = game.graph, holder = q(".graph");
    holder.textContent = "";
    q(".graph-title").textContent = g.title;
    var points = game.frames.length - (game.illegal ? 1 : 0);
    var top = g.goal || 1;
    g.series.forEach(function (s) { s.forEach(function (v) { if (v > top) top = v; }); });
    var W = 300, H = 90, pad = 6, xs = function (k) { return pad + (W - 2 * pad) * k / Math.max(1, points - 1); };
    var ys = function (v) { return H - pad - (H - 2 * pad) * v / top; };
    var svg = svgEl("svg", {viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": g.title});
    svg.appendChild(svgEl("rect", {x: 0, y: 0, width: W, height: H, fill: "#fbfaf7"}));
    if (g.goal) svg.appendChild(svgEl("line", {x1: pad, x2: W - pad, y1: ys(g.goal), y2: ys(g.goal),
      stroke: "#7a6f5c", "stroke-dasharray": "4,3"}));
    var colours = ["#1d3557", "#8c2f1b", "#2f6b3a", "#6b4f1d"];
    g.series.forEach(function (s, p) {
      if (!s.length) return;
      var pts = s.map(function (v, k) { return xs(k).toFixed(1) + "," + ys(v).toFixed(1); });
      var line = svgEl("polyline", {points: pts.join(" "), fill: "none", stroke: colours[p % 4],
        "stroke-width": 2, "class": "series", "data-player": p});
      line.appendChild(svgEl("title", {})).textContent = name(p);
      svg.appendChild(line);
    });
    game.missed.forEach(function (m) {
      svg.appendChild(svgEl("circle", {cx: xs(m.ply), cy: H - pad, r: 3, fill: "#c2185b",
        "class": "missed-mark"}));
    });
    cursor = svgEl("line", {x1: 0, x2: 0, y1: 0, y2: H, stroke: "#e07b00", "stroke-width": 2});
    svg.appendChild(cursor);
    svg.addEventListener("click", function (event) {
      var r = svg.getBoundingClientRect();
      var x = (event.clientX - r.left) / r.width * W;
      show(Math.round((x - pad) / (W - 2 * pad) * (points - 1)));
    });
    holder.appendChild(svg);
    cursor.dataset.scale = (W - 2 * pad) / Math.max(1, points - 1);
    cursor.dataset.pad = pad;
  }

  function show(k, quiet) {
    k = Math.max(0, Math.min(last(), k));
    at = k;
    var frame = game.frames[k];
    var body = sets[k].map(function (id) { return data.pieces[id]; }).join("");
    board.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + game.w + " " +
      game.h + '" role="img" class="referee-position ' + game.kind +
      '" style="font-family:Helvetica,Arial,sans-serif">' + body + "</svg>";
    slider.value = k;
    var total = game.moves.length, ply = plyOf(k), turn = turnOf[ply];
    counter.textContent = frame.refused ? "ply " + game.illegal.ply + " refused" :
      "ply " + k + " / " + total + (turn !== null && turn !== undefined ? " · turn " + (turn + 1) : "");
    counter.dataset.ply = k;
    spans.forEach(function (s) { if (s) s.classList.remove("current"); });
    cells.forEach(function (c) { c.classList.remove("current"); });
    var span = frame.refused ? spans[spans.length - 1] : spans[k];
    if (span) {
      span.classList.add("current");
      if (turn !== null && turn !== undefined && cells[turn]) cells[turn].classList.add("current");
      if (box.scrollHeight > box.clientHeight) {  // scroll the list, never the page
        var top = span.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
        if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 24) {
          box.scrollTop = Math.max(0, top - box.clientHeight / 2);
        }
      }
    }
    happened(k, frame, ply, turn);
    var claims = q("ul.claims");
    claims.textContent = "";
    frame.claims.forEach(function (c) {
      var li = el("li", c[1] ? "claimable" : "not-claimable", T(c[0]));
      li.dataset.place = c[2];
      claims.appendChild(li);
    });
    if (!frame.claims.length) {
      var over = k === last() && !frame.refused && game.result !== "unfinished";
      claims.appendChild(el("li", "none", over ? "the game is over: no claims left to make" :
        "no complete formation to judge"));
    }
    q(".missed").textContent = frame.missed.length ?
      "From this position: " + frame.missed.map(T).join(" ") : "";
    q(".refusal").textContent = frame.refused ?
      "Refused at ply " + game.illegal.ply + ": " + game.illegal.move + " (" +
      game.illegal.reason.replace(/_/g, " ") + "): " + game.illegal.message : "";
    var strip = q(".score-strip");
    strip.textContent = "";
    frame.score.forEach(function (line, p) {
      var item = el("span", "score", name(p) + ": " + T(line));
      item.title = item.textContent;
      item.dataset.player = p;
      if (p === (frame.refused ? game.movers[game.movers.length - 1] : toMove(k))) item.classList.add("to-move");
      strip.appendChild(item);
    });
    board.querySelectorAll("g.verdict").forEach(function (g) {
      g.addEventListener("click", function () {
        q(".evidence").textContent = g.querySelector("title").textContent;
      });
    });
    if (cursor) {
      var x = Number(cursor.dataset.pad) + Number(cursor.dataset.scale) * ply;
      cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
    }
    if (exportKind) exportText.value = exported(exportKind);
    if (data.link && !quiet && window.history && history.replaceState) {
      var hash = "#" + hashOf(k);
      try { history.replaceState(null, "", hash); } catch (e) { /* a sandboxed frame */ }
    }
  }

  function toMove(k) {
    if (k < game.movers.length) return game.movers[k];
    return null;
  }

  function happened(k, frame, ply, turn) {
    var out = q(".happened");
    if (frame.refused) {
      out.textContent = "Refused: " + game.illegal.move + " (" +
        game.illegal.reason.replace(/_/g, " ") + ")";
      return;
    }
    if (k === 0) {
      out.textContent = game.movers.length ? "The game begins: " + name(game.movers[0]) + " moves first." :
        "The game has no moves.";
      return;
    }
    var t = game.turns[turn], said = [];
    for (var i = t[1]; i <= k; i++) said.push(T(game.words[i - 1]));
    var tail = k === t[2] ? "" : " …";
    out.textContent = "Turn " + (turn + 1) + ": " + said.join("; ") + "." + tail;
  }

  function hashOf(k) {
    return (data.games.length > 1 ? "game=" + (gameIndex + 1) + "&" : "") + "ply=" + k;
  }

  function fromHash() {
    var found = {};
    (window.location.hash || "").replace(/^#/, "").split("&").forEach(function (part) {
      var kv = part.split("=");
      if (kv.length === 2 && /^[0-9]+$/.test(kv[1])) found[kv[0]] = Number(kv[1]);
    });
    return found;
  }

  function position(k) {
    var items = game.frames[k].pos;
    if (!items) return null;
    var body = items.map(function (item) {
      if (typeof item === "number") return data.parts[item];
      return data.parts[item[0]] + ":[" + item[1].map(function (i) { return data.parts[i]; }).join(",") + "]";
    });
    return JSON.stringify(JSON.parse("{" + body.join(",") + "}"), null, 1);
  }

  function exported(kind) {
    var ply = plyOf(at);
    if (kind === "link") return window.location.href.split("#")[0] + "#" + hashOf(at);
    if (kind === "position") {
      return position(at) || "This page has no position to copy: a Clans and Glory position " +
        "holds every hand, which a page made for one player does not know.";
    }
    if (!game.command) return "This game was not read from a file: save it, then run " +
      "referee claimable FILE --ply " + ply;
    return game.command + " --ply " + ply;
  }

  function copy(kind) {
    exportKind = kind;
    var value = exported(kind);
    exportText.value = value;
    var note = q(".export-note");
    function fallback() {
      exportText.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (e) { done = false; }
      note.textContent = done ? "copied" : "select the text above and copy it";
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(value).then(function () { note.textContent = "copied"; }, fallback);
    } else {
      fallback();
    }
  }

  function step(delta) { show(at + delta); }
  function turnStep(direction) {
    var ply = plyOf(at), target = null;
    if (direction > 0) {
      for (var i = 0; i < ends.length; i++) if (ends[i] > ply) { target = ends[i]; break; }
      if (target === null) target = last();
    } else {
      for (var j = ends.length - 1; j >= 0; j--) if (ends[j] < ply) { target = ends[j]; break; }
      if (target === null) target = 0;
    }
    show(target);
  }
  function missedStep(direction) {
    var ply = plyOf(at), plies = game.missed.map(function (m) { return m.ply; });
    var target = null;
    if (direction > 0) {
      for (var i = 0; i < plies.length; i++) if (plies[i] > ply) { target = plies[i]; break; }
    } else {
      for (var j = plies.length - 1; j >= 0; j--) if (plies[j] < ply) { target = plies[j]; break; }
    }
    if (target !== null) show(target);
  }

  data.games.forEach(function (g, i) {
    var option = el("option", "", g.name + (g.verdict ? " (illegal)" : ": " + g.result +
      (g.match && g.match.after ? " · " + g.match.after : "")));
    option.value = i;
    picker.appendChild(option);
  });
  picker.hidden = data.games.length < 2;
  picker.addEventListener("change", function () { load(Number(picker.value)); show(0); picker.blur(); });
  function button(cls, action) {
    q(cls).addEventListener("click", function (event) { event.preventDefault(); action(); });
  }
  button(".first", function () { show(0); });
  button(".back", function () { step(-1); });
  button(".forward", function () { step(1); });
  button(".last", function () { show(last()); });
  button(".prev-turn", function () { turnStep(-1); });
  button(".next-turn", function () { turnStep(1); });
  button(".prev-missed", function () { missedStep(-1); });
  button(".next-missed", function () { missedStep(1); });
  button(".flip", function () { root.classList.toggle("flipped"); });
  button(".copy-link", function () { copy("link"); });
  button(".copy-position", function () { copy("position"); });
  button(".copy-command", function () { copy("command"); });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  root.addEventListener("pointerdown", function () { window.refereeActiveReplay = root; });
  document.addEventListener("keydown", function (event) {
    var all = document.querySelectorAll(".referee-replay");
    if (all.length > 1 && window.refereeActiveReplay !== root) return;
    if (event.target && /INPUT|SELECT|TEXTAREA/.test(event.target.tagName) &&
        event.target !== slider) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var keys = {ArrowLeft: function () { step(-1); }, ArrowRight: function () { step(1); },
      ArrowUp: function () { turnStep(-1); }, ArrowDown: function () { turnStep(1); },
      Home: function () { show(0); }, End: function () { show(last()); }};
    if (keys[event.key]) { keys[event.key](); event.preventDefault(); }
  });
  function open() {
    var wanted = data.link ? fromHash() : {};
    var g = wanted.game ? wanted.game - 1 : 0;
    if (!(g >= 0 && g < data.games.length)) g = 0;
    if (g !== gameIndex || game === null) load(g);
    var k = wanted.ply !== undefined ? wanted.ply : (data.start !== null ? data.start : 0);
    show(k, true);
  }
  if (data.link) window.addEventListener("hashchange", open);
  q(".replay-static").hidden = true;
  q(".replay-live").hidden = false;
  open();
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
    add_document_option(parser)
    parser.add_argument(
        "--as",
        dest="as_player",
        type=positive,
        metavar="P",
        help="a page for player P alone (from 1): only what that player saw",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="the HTML file to write (default: standard output)"
    )
    parser.set_defaults(run=run)
    return parser


def read_documents(
    path: str,
    *,
    document: int | None = None,
    limit: int | None = None,
    game: int | None = None,
) -> list[Record | Match | RecordError]:
    """The documents of a file (``-`` for standard input), in order, each a
    record, a match, or the :class:`~referee.records.RecordError` of one that
    cannot be read (as :func:`~referee.records.iter_records` gives them, ready
    for :func:`~referee.records.validate`).

    ``document`` keeps only the ``document``-th document (from 1; ``game`` is
    its older name); ``limit`` refuses a corpus of more documents. What is
    asked for and not there (an empty input, no such document, too many)
    raises its :class:`~referee.records.RecordError`.
    """
    if document is None:
        document = game
    if document is not None and document < 1:
        raise RecordError(f"--document counts documents from 1, not {document}", path)
    source = sys.stdin.buffer if path == "-" else path
    where = "<stdin>" if path == "-" else path
    found: list[Record | Match | RecordError] = []
    for k, item in enumerate(iter_records(source), start=1):
        whole = isinstance(item, RecordError) and item.where == where  # the input itself
        if document is not None and k != document and not whole:
            continue
        found.append(item)
        if document is not None or whole:
            break
        if limit is not None and len(found) > limit:
            raise RecordError(f"more than {limit} documents: pick one with --document N", where)
    if not found:
        if document is not None:
            raise RecordError(f"there is no document {document}", where)
        raise RecordError("no document: the input is empty", where)
    return found


def read_items(
    path: str, *, document: int | None = None, limit: int | None = None, game: int | None = None
) -> list[Record | Match]:
    """The records and matches of a file (``-`` for standard input): one
    document, or each line of a JSON Lines corpus, in order (see
    :func:`read_documents`). The first document that cannot be read raises its
    :class:`~referee.records.RecordError`, as does an empty input.
    """
    items: list[Record | Match] = []
    for item in read_documents(path, document=document if document else game, limit=limit):
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
    verdict, except a page for one player, which is not written), 2 when one
    cannot be read (no page)."""
    document = document_of(args)
    documents = read_documents(args.path, document=document, limit=MAX_PAGE_GAMES)
    reports = [validate(document) for document in documents]
    unreadable = [report for report in reports if report.status == "unreadable"]
    if unreadable:  # nothing to draw: refused as validate reports it
        for report in unreadable:
            error(report.summary())
        return EXIT_STATUS["unreadable"]
    items = [d for d in documents if not isinstance(d, RecordError)]
    first = _first_game(items[0])
    check_ply(args.ply, first, first.where or args.path)
    viewer = None if args.as_player is None else args.as_player - 1
    if viewer is not None:
        illegal = [report for report in reports if not report.legal]
        if illegal:  # its verdict would speak of cards the player never saw
            for report in illegal:
                error(report.summary())
            error("--as: a page for one player is made of legal documents only; no page written")
            return EXIT_STATUS["illegal"]
        for item in items:
            players = _num_players(_first_game(item))
            if viewer >= players:
                raise RecordError(
                    f"--as {args.as_player}: the game has {players} players", item.where
                )
    numbers = [document] if document is not None else None
    page = replay_html(
        items[0] if len(items) == 1 else items,
        ply=args.ply,
        viewer=viewer,
        numbers=numbers,
    )
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
