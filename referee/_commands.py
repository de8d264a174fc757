"""What every command of the ``referee`` command line shares.

**One verdict.** Every command that reads a record or a match (``validate``,
``show``, ``claimable``, ``replay``, ``analyze``) judges it with the same
function, :func:`referee.records.validate`, before anything else, and a
document that is not legal gets the same line everywhere: ``validate`` prints
its report's summary, every other command prints ``referee: `` and that
summary on standard error. The exit status follows the verdict: 0 legal, 1
illegal, 2 unreadable (or a wrong command line).

**One name for a document of a corpus.** ``--document N`` picks the N-th
document (from 1) of a JSON Lines corpus in ``replay``, ``analyze``, ``show``
and ``claimable``. (``--game`` names a *game* in ``demo`` and ``match``; the
older ``--game N`` of ``replay`` and ``analyze`` still works, with a
deprecation note on standard error.)

**One rule for ``--ply``.** ``--ply N`` is a whole number of moves, ``0`` to
the number of moves of the record it applies to: :func:`ply` reads it on the
command line and :func:`check_ply` checks it against the record.

    >>> from referee.records import Record
    >>> require_legal(Record("schotten-totten", ("R7@3", "draw", "R7@4"), where="x.json"))
    Traceback (most recent call last):
    ...
    referee._commands.Refused: x.json: illegal at ply 3 'R7@4' [card_already_played]: illegal move 'R7@4': R7 is already on the table
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from types import MappingProxyType

from referee.records import Match, Record, RecordError, ValidationReport, validate

__all__ = [
    "EXIT_ILLEGAL",
    "EXIT_OK",
    "EXIT_STATUS",
    "EXIT_UNREADABLE",
    "Refused",
    "add_document_option",
    "check_ply",
    "document_of",
    "error",
    "one_line",
    "ply",
    "positive",
    "require_legal",
]

EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2
#: The exit status of each verdict (:attr:`ValidationReport.status`).
EXIT_STATUS = MappingProxyType(
    {"legal": EXIT_OK, "illegal": EXIT_ILLEGAL, "unreadable": EXIT_UNREADABLE}
)

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def one_line(text: str) -> str:
    """``text`` as one line of valid UTF-8: control characters, line separators
    and lone surrogates become ``\\uXXXX`` escapes (valid inside JSON strings too).

    >>> one_line("a.json\\nforged: ok") == "a.json\\\\u000aforged: ok"
    True
    """
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def error(message: str) -> None:
    """Print ``referee: message`` on standard error, as one safe line."""
    with contextlib.suppress(OSError, ValueError):
        print(f"referee: {one_line(message)}", file=sys.stderr)


class Refused(Exception):
    """A document the command does not work on: its validation ``report`` says
    why, and :attr:`status` is the exit status."""

    def __init__(self, report: ValidationReport) -> None:
        super().__init__(report.summary())
        self.report = report

    @property
    def status(self) -> int:
        """1 for an illegal document, 2 for one that cannot be read."""
        return EXIT_STATUS[self.report.status]


def require_legal(item: Record | Match | RecordError) -> ValidationReport:
    """The verdict on ``item`` (what a reader gave for one document); raises
    :class:`Refused` unless it is legal."""
    report = validate(item)
    if not report.legal:
        raise Refused(report)
    return report


def _whole(text: str) -> int:
    if len(text) > 1000 or not re.fullmatch(r"\s*[0-9]+\s*", text):
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    return int(text)


def ply(text: str) -> int:
    """``--ply N`` on the command line: a whole number, 0 or more.

    >>> ply("12")
    12
    >>> ply("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number of moves (0 or more), got '-1'
    """
    try:
        return _whole(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of moves (0 or more), got {text!r}"
        ) from None


def positive(text: str) -> int:
    """A whole number of at least 1 on the command line (``--round``, ``--game``)."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def check_ply(upto: int | None, record: Record, where: str) -> None:
    """Refuse ``--ply upto`` past the moves of ``record`` (a :class:`RecordError`).

    >>> check_ply(3, Record("schotten-totten", ("R7@3", "draw")), "x.json")
    Traceback (most recent call last):
    ...
    referee.records.RecordError: x.json: --ply 3 is past the record's 2 moves
    """
    if upto is not None and upto > len(record.moves):
        raise RecordError(f"--ply {upto} is past the record's {len(record.moves)} moves", where)


def add_document_option(parser: argparse.ArgumentParser) -> None:
    """``--document N``: the N-th document of a corpus (and the hidden, deprecated
    ``--game N`` that ``replay`` and ``analyze`` once used for it)."""
    parser.add_argument(
        "--document",
        type=positive,
        metavar="N",
        help="only the N-th document of a JSON Lines corpus (from 1)",
    )
    parser.add_argument("--game", dest="document_alias", type=positive, help=argparse.SUPPRESS)


def document_of(args: argparse.Namespace) -> int | None:
    """The document ``--document`` asks for; the old ``--game`` spelling gets a
    deprecation note (both at once is a mistake: a :class:`RecordError`).

    >>> document_of(argparse.Namespace(document=3, document_alias=None))
    3
    """
    document: int | None = getattr(args, "document", None)
    alias: int | None = getattr(args, "document_alias", None)
    if alias is None:
        return document
    if document is not None:
        raise RecordError("give --document N alone (--game N is its old name)", "command line")
    error("--game N is deprecated here: write --document N (--game names a game in demo and match)")
    return alias
