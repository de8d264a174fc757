"""The data of a whole replay page: its games (each of a match with the match's
running score and result), the verdict of every document, the commands the page
offers, and the tables the games share.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee import games
from referee._words import reason_words
from referee.records import Match, Record, ValidationReport, find_game, validate
from referee.replay._game import Pieces, Shared, Table, game_data, num_players, player_names
from referee.svg import _CARD_VALUE_SIZE

__all__ = ["replay_data"]


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


# --- the page's games ------------------------------------------------------------------


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
    shared = Shared(Pieces(), Table(), Table(), {})
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
            names = player_names(one.games[0], num_players(one.games[0])) if one.games else []
            info = _match_info(one, names) if verdict is None and one.games else []
            for n, game in enumerate(one.games, start=1):
                games.append(
                    game_data(
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
                game_data(
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
