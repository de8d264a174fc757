"""One game of a replay page as data: the tables that store each piece of a
picture (and each text) once, the moves as a player saw them, the turns, and
the frames a page steps through, each the picture pieces that changed, the
prover's verdicts, the score strip and the position.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee import games
from referee._words import move_words, result_words
from referee.analysis import Analysis, analyze, analyze_positions
from referee.records import Record, find_game
from referee.svg import _draw, _Drawing, _evidence, _Options, _touched

__all__ = ["Pieces", "Shared", "Table", "game_data", "num_players", "player_names"]


class Table:
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


class Pieces(Table):
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
class Shared:
    """What every game of a page shares: pieces, texts, position parts, symbols."""

    pieces: Pieces
    texts: Table
    parts: Table
    symbols: dict[str, str]


def player_names(record: Record, players: int) -> list[str]:
    given = list(record.players)
    return [given[p] if p < len(given) and given[p] else f"player {p + 1}" for p in range(players)]


def num_players(record: Record) -> int:
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


def _position(fmt: Any, state: Any, parts: Table) -> list[Any] | None:
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


def game_data(
    record: Record,
    name: str,
    shared: Shared,
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
    names = player_names(record, players)
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
