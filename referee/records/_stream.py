"""Reading sources (files, JSON Lines corpora, standard input) one document at a time.

Every source is read in bounded pieces: a JSON Lines corpus or a stream one
line at a time, a line never longer than
:data:`~referee.records._decode.MAX_DOCUMENT_BYTES` in memory, so memory
stays flat however large the input is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from referee.records._decode import MAX_DOCUMENT_BYTES, decode
from referee.records._shape import parse_document, parse_position, parse_record
from referee.records._types import Match, Position, Record, RecordError

__all__ = [
    "Raw",
    "iter_documents",
    "iter_raw",
    "iter_records",
    "load_position",
    "load_record",
    "loads_document",
]

#: One undecoded document with its location, or the error that stopped its reading.
Raw = tuple[str | bytes, str] | RecordError

_SKIP_CHUNK = 64 * 1024


def loads_document(text: str | bytes, where: str = "") -> Record | Match:
    """Decode one JSON text (a file's content or one JSON Lines line) into a
    record or a match; a :class:`RecordError` says what is wrong and where.

    >>> loads_document('{"game": "schotten-totten", "moves": ["pass"]}', "x:1").moves
    ('pass',)
    """
    return parse_document(decode(text, where), where)


def load_record(source: str | Path | IO[str] | IO[bytes]) -> Record:
    """Read one record from a JSON file (or an open stream)."""
    text, where = _read_one(source)
    return parse_record(decode(text, where), where)


def load_position(source: str | Path | IO[str] | IO[bytes]) -> Position:
    """Read one position from a JSON file (or an open stream)."""
    text, where = _read_one(source)
    return parse_position(decode(text, where), where)


def _read_one(source: str | Path | IO[str] | IO[bytes]) -> tuple[str | bytes, str]:
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            with path.open("rb") as handle:
                return handle.read(MAX_DOCUMENT_BYTES + 1), str(path)
        except OSError as error:
            raise RecordError(f"cannot read: {error.strerror or error}", str(path)) from None
    where = _name(source)
    try:
        return source.read(MAX_DOCUMENT_BYTES + 1), where
    except (OSError, ValueError) as error:  # ValueError: a closed stream
        raise RecordError(f"cannot read: {error}", where) from None


def _name(source: Any) -> str:
    # Any binary stream is accepted; only files have a name (BytesIO has none).
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else "<stream>"


def _lines(handle: IO[Any]) -> Iterator[str | bytes | None]:
    """The lines of ``handle``, each at most MAX_DOCUMENT_BYTES long; ``None``
    stands for a longer line, which is skipped without being held in memory."""
    while True:
        line = handle.readline(MAX_DOCUMENT_BYTES + 1)
        if not line:
            return
        newline = "\n" if isinstance(line, str) else b"\n"
        if len(line) <= MAX_DOCUMENT_BYTES or line.endswith(newline):
            yield line
            continue
        while line and not line.endswith(newline):
            line = handle.readline(_SKIP_CHUNK)
        yield None


def _numbered(handle: IO[Any], where: str, start: int = 1) -> Iterator[Raw]:
    for number, line in enumerate(_lines(handle), start=start):
        if line is None:
            yield RecordError(f"line longer than {MAX_DOCUMENT_BYTES} bytes", f"{where}:{number}")
        elif line.strip():
            yield (line, f"{where}:{number}")


def iter_raw(source: str | Path | IO[str] | IO[bytes]) -> Iterator[Raw]:
    """Each document of a source, undecoded, with its location (``file:line``
    for JSON Lines), or the error that stopped reading it.

    A ``.jsonl`` file is JSON Lines; any other file is one document. A stream
    (standard input) is read as JSON Lines, one line at a time, when its first
    line is a JSON object by itself, or when some line is and the first is
    not (one bad first line does not make a corpus unreadable), or when it is
    longer than a document may be; otherwise (a pretty-printed record) it is
    one document.
    """
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            with path.open("rb") as handle:
                if path.suffix == ".jsonl":
                    yield from _numbered(handle, str(path))
                else:
                    yield (handle.read(MAX_DOCUMENT_BYTES + 1), str(path))
        except OSError as error:
            yield RecordError(f"cannot read: {error.strerror or error}", str(path))
        return
    where = _name(source)
    try:
        yield from _stream(source, where)
    except (OSError, ValueError) as error:  # ValueError: a closed stream
        yield RecordError(f"cannot read: {error}", where)


def _stream(source: IO[Any], where: str) -> Iterator[Raw]:
    held: list[str | bytes | None] = []
    size = written = 0
    for line in _lines(source):
        held.append(line)
        if line is None:
            break
        size += len(line)
        if size > MAX_DOCUMENT_BYTES:
            break
        if line.strip():
            written += 1
            if written == 1 and _decodes(line):
                break
    else:
        # The whole stream is held (within the size limit): one document, unless
        # some line of it is a document by itself.
        if not written:
            yield RecordError("no document: the input is empty", where)
            return
        if not any(line is not None and _decodes(line) for line in held):
            yield (_join(held), where)
            return
    # JSON Lines: the lines held so far, then the rest as it comes.
    for number, line in enumerate(held, start=1):
        if line is None:
            yield RecordError(f"line longer than {MAX_DOCUMENT_BYTES} bytes", f"{where}:{number}")
        elif line.strip():
            yield (line, f"{where}:{number}")
    start = len(held) + 1
    held.clear()
    yield from _numbered(source, where, start=start)


def _join(lines: list[str | bytes | None]) -> str | bytes:
    parts = [line for line in lines if line is not None]
    if parts and isinstance(parts[0], bytes):
        return b"".join(p for p in parts if isinstance(p, bytes))
    return "".join(p for p in parts if isinstance(p, str))


def _decodes(line: str | bytes) -> bool:
    """Whether a line is a JSON object by itself (a JSON Lines document)."""
    try:
        return isinstance(decode(line, ""), dict)
    except RecordError:
        return False


def iter_documents(
    source: str | Path | IO[str] | IO[bytes],
) -> Iterator[tuple[Any, str] | RecordError]:
    """Yield each decoded document of a JSON or JSON Lines source, lazily.

    Each item is the decoded value with its location, or a
    :class:`RecordError` for a part that cannot be read, so one bad line does
    not stop a corpus. See :func:`iter_raw` for how sources are read.
    """
    for item in iter_raw(source):
        if isinstance(item, RecordError):
            yield item
            continue
        text, where = item
        try:
            yield (decode(text, where), where)
        except RecordError as error:
            yield error


def iter_records(
    source: str | Path | IO[str] | IO[bytes],
) -> Iterator[Record | Match | RecordError]:
    """Yield each record (or match) of a JSON or JSON Lines source lazily, or its
    read error."""
    for item in iter_raw(source):
        yield item if isinstance(item, RecordError) else read_raw(item)


def read_raw(item: tuple[str | bytes, str]) -> Record | Match | RecordError:
    """Decode and shape-check one undecoded document; its error instead of raising."""
    text, where = item
    try:
        return loads_document(text, where)
    except RecordError as error:
        return error
