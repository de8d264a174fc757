"""The commands of :mod:`referee.cli` on one position: ``claimable`` (the
prover's verdict on each place) and ``show`` (the position as text or SVG),
both on a position file or a legal record or match after some moves; and
``demo``, a random legal game.

>>> _natural_key("stone 10") > _natural_key("stone 9"), _is_position({"moves": []})
(True, False)
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from referee import games
from referee._commands import EXIT_OK, check_ply, require_legal
from referee.cli._validate import _stdin
from referee.game import GameState
from referee.records import (
    MATCH_FORMAT,
    POSITION_FORMAT,
    RECORD_FORMAT,
    GameFormat,
    Match,
    Record,
    RecordError,
    find_game,
    iter_documents,
    parse_document,
    parse_position,
    replay,
)

#: Nothing public here: the commands are reached through referee.cli.main.
__all__: list[str] = []


def _load_state(
    path: str, ply: int | None, round_: int | None = None, document: int | None = None
) -> tuple[GameFormat[Any], GameState[Any]]:
    """The position a command asks for: a position file as it is, or a record
    (a match's ``round_``-th game) after its first ``ply`` moves; in a JSON
    Lines corpus, its ``document``-th document (needed when it holds several).

    A record or match is judged first, whole, by the one verdict
    (:func:`referee.records.validate`): one that is not legal is refused
    (:class:`~referee._commands.Refused`) even when the illegal move comes after
    ``ply``, since the verdict is about the record.
    """
    source: str | Path | IO[bytes] = _stdin() if path == "-" else Path(path)
    item = _one_document(iter_documents(source), path, document)
    if isinstance(item, RecordError):
        require_legal(item)  # unreadable: refused as validate reports it
        raise item
    data, where = item
    if _is_position(data):
        if ply is not None:
            raise RecordError("--ply applies to records, not positions", where)
        if round_ is not None:
            raise RecordError("--round applies to matches", where)
        position = parse_position(data, where)
        fmt = find_game(position.game, where)
        return fmt, fmt.load_position(position)
    try:
        parsed: Record | Match | RecordError = parse_document(data, where)
    except RecordError as error:
        parsed = error
    require_legal(parsed)
    assert not isinstance(parsed, RecordError)
    if isinstance(parsed, Match):
        number = len(parsed.games) if round_ is None else round_
        if number > len(parsed.games):
            raise RecordError(f"--round {number}: the match has {len(parsed.games)} games", where)
        record = parsed.games[number - 1]
        where = f"{where} game {number}"
    elif round_ is not None:
        raise RecordError("--round applies to matches", where)
    else:
        record = parsed
    check_ply(ply, record, where)
    return find_game(record.game, where), replay(record, ply)


def _one_document(
    documents: Iterator[tuple[Any, str] | RecordError], path: str, document: int | None
) -> tuple[Any, str] | RecordError:
    """The document a command works on: the only one, or the ``document``-th."""
    where = "<stdin>" if path == "-" else path
    if document is None:
        item = next(documents, None)
        if item is None:
            raise RecordError("no document: the input is empty", where)
        if isinstance(item, RecordError) and item.where == where:
            return item  # the input itself cannot be read
        if next(documents, None) is not None:
            raise RecordError(
                "the input holds several documents: pick one with --document D", where
            )
        return item
    for number, item in enumerate(documents, start=1):
        if isinstance(item, RecordError) and item.where == where:
            return item
        if number == document:
            return item
    raise RecordError(f"there is no document {document}", where)


def _is_position(data: Any) -> bool:
    """A position document: one that says so, or an object without ``moves``
    or ``games`` that does not say it is a record or a match."""
    if not isinstance(data, dict):
        return False
    kind = data.get("format")
    if kind in (RECORD_FORMAT, MATCH_FORMAT):
        return False
    return kind == POSITION_FORMAT or ("moves" not in data and "games" not in data)


def _claimable(args: argparse.Namespace) -> int:
    game, state = _load_state(args.path, args.ply, args.round, args.document)
    answers = game.claimability(state)
    if args.json:
        print(
            json.dumps(
                {
                    "game": game.name,
                    "to_move": state.to_move,
                    "answers": [a.to_json() for a in answers],
                },
                ensure_ascii=False,
            )
        )
        return EXIT_OK
    if not game.has_claims:
        print(f"{game.title} has no claims to prove")
        return EXIT_OK
    decided = [a for a in answers if a.claimable is not None]
    for answer in decided:
        print(answer)
    waiting = sorted(
        {a.label or f"place {a.place}" for a in answers}
        - {a.label or f"place {a.place}" for a in decided},
        key=_natural_key,
    )
    if waiting:
        print(f"no complete formation yet at: {', '.join(waiting)}")
    if not answers:
        print("no open place")
    return EXIT_OK


def _natural_key(label: str) -> tuple[str, int]:
    head, _, tail = label.rpartition(" ")
    return (head, int(tail)) if tail.isdigit() else (label, 0)


def _show(args: argparse.Namespace) -> int:
    fmt, state = _load_state(args.path, args.ply, args.round, args.document)
    if args.svg:
        from referee.svg import render_svg  # only this option needs the renderer

        print(render_svg(state), end="")
        return EXIT_OK
    print(games.find_game(fmt.name).text(state))
    return EXIT_OK


def _demo(args: argparse.Namespace) -> int:
    fmt = find_game(args.game)
    if "rounds" in args.rules:
        match = fmt.random_match(args.seed, args.rules)
        print(json.dumps(match.to_json(), indent=2, ensure_ascii=False))
        return EXIT_OK
    record = fmt.random_record(args.seed, args.rules)
    print(json.dumps(record.to_json(), indent=2, ensure_ascii=False))
    return EXIT_OK
