"""The ``referee replay`` command: its options, reading the documents of a
file, and writing the page with the exit status of their verdicts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from referee._commands import (
    EXIT_STATUS,
    add_document_option,
    check_ply,
    document_of,
    error,
    ply,
    positive,
)
from referee.records import Match, Record, RecordError, iter_records, validate
from referee.replay._game import num_players
from referee.replay._page import replay_html

__all__ = ["MAX_PAGE_GAMES", "add_parser", "read_documents", "read_item", "read_items", "run"]


#: The most games one replay page shows (each game's frames are in the page):
#: pick one document of a longer corpus with ``--document N``.
MAX_PAGE_GAMES = 50


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
            players = num_players(_first_game(item))
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
