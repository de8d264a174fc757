"""Reading sources (files, URLs, JSON Lines corpora, standard input) one document at a time.

Every source is read in bounded pieces: a JSON Lines corpus or a stream one
line at a time, a line never longer than
:data:`~referee.records._decode.MAX_DOCUMENT_BYTES` in memory, so memory
stays flat however large the input is.

A name such as ``s3://bucket/games.jsonl`` or ``https://host/games.jsonl`` is a
URL, read through fsspec (the ``dask`` extra installs it; ``s3fs`` for S3).
This module is the one place where lines are read: ``referee validate`` reads
whole sources with it, and a Dask worker reads its byte range of a corpus with
:func:`iter_lines`, so both give each line the same number and the same report.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import IO, Any
from urllib.parse import urlsplit

from referee.records._decode import MAX_DOCUMENT_BYTES, decode
from referee.records._shape import parse_document, parse_position, parse_record
from referee.records._types import Match, Position, Record, RecordError

__all__ = [
    "Raw",
    "describe_error",
    "is_jsonl",
    "is_url",
    "iter_documents",
    "iter_lines",
    "iter_raw",
    "iter_records",
    "load_position",
    "load_record",
    "loads_document",
    "open_binary",
    "read_source",
    "url_filesystem",
]

#: One undecoded document with its location, or the error that stopped its reading.
Raw = tuple[str | bytes, str] | RecordError

_SKIP_CHUNK = 64 * 1024
#: What a URL is read in: one ranged request each (fsspec's own cache is off).
_URL_BUFFER = 256 * 1024
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def is_url(name: str) -> bool:
    """Whether ``name`` is a URL (``scheme://...``) rather than a local path.

    >>> is_url("s3://bucket/games.jsonl"), is_url("games/s3:x.jsonl")
    (True, False)
    """
    return _URL.match(name) is not None


def is_jsonl(name: str) -> bool:
    """Whether ``name`` is a JSON Lines corpus (its path ends in ``.jsonl``; a
    URL's query string does not count).

    >>> is_jsonl("a/b.jsonl"), is_jsonl("https://h/b.jsonl?sig=x"), is_jsonl("b.json")
    (True, True, False)
    """
    path = urlsplit(name).path if is_url(name) else name
    return PurePosixPath(path).suffix == ".jsonl"


def describe_error(error: BaseException, location: str = "") -> str:
    """Why ``location`` could not be read, in the words reports use after
    ``cannot read:`` (an ``OSError``'s own text; fsspec's errors made alike).

    >>> describe_error(FileNotFoundError(2, "No such file or directory"))
    'No such file or directory'
    >>> describe_error(FileNotFoundError("bucket/x.jsonl"), "s3://bucket/x.jsonl")
    'No such file or directory'
    >>> describe_error(PermissionError("Access Denied"), "s3://bucket/x.jsonl")
    'Permission denied (Access Denied)'
    """
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = str(error)
    if isinstance(error, FileNotFoundError | PermissionError):
        kind = (
            "No such file or directory"
            if isinstance(error, FileNotFoundError)
            else "Permission denied"
        )
        if not text or text in location or (location and location in text):
            return kind
        return f"{kind} ({text})"
    if isinstance(error, OSError) and text:
        return text
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


@contextlib.contextmanager
def open_binary(location: str) -> Iterator[IO[bytes]]:
    """``location`` (a local path or a URL) opened for reading bytes, seekable.

    A URL is read through fsspec in ranged requests of 256 KiB, so a Dask
    worker fetches only its part of a large object.
    """
    if not is_url(location):
        with open(location, "rb") as handle:
            yield handle
        return
    fs, path = url_filesystem(location)
    with (
        fs.open(path, "rb", cache_type="none") as raw,
        io.BufferedReader(raw, _URL_BUFFER) as handle,
    ):
        yield handle


def url_filesystem(url: str) -> tuple[Any, str]:
    """fsspec's file system for ``url`` and the path in it, listings uncached
    (a worker lives long, a corpus changes)."""
    try:
        from fsspec.core import url_to_fs
    except ImportError:
        raise ImportError("reading a URL needs fsspec: pip install 'referee[dask]'") from None
    fs, path = url_to_fs(url, use_listings_cache=False)
    return fs, path


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
    for _, line in _ranged(handle):
        yield line


def _ranged(
    handle: IO[Any], start: int = 0, end: int | None = None
) -> Iterator[tuple[int, str | bytes | None]]:
    """``(offset, line)`` for each line of ``handle`` that starts in bytes
    ``[start, end)``, as :func:`_lines` gives them; ``end`` None reads to the end.

    A line belongs to the range in which it starts: the tail of a line begun
    before ``start`` is skipped, and the last line is read to its end, past
    ``end`` if need be. The offsets count what was read: bytes for a binary
    handle (a seek to ``start`` needs one).
    """
    position = start
    if start > 0:
        handle.seek(start - 1)
        if handle.read(1) != b"\n":
            position += _skip(handle, b"\n")
    while end is None or position < end:
        line = handle.readline(MAX_DOCUMENT_BYTES + 1)
        if not line:
            return
        newline = "\n" if isinstance(line, str) else b"\n"
        if len(line) <= MAX_DOCUMENT_BYTES or line.endswith(newline):
            yield position, line
            position += len(line)
            continue
        length = len(line) + _skip(handle, newline)
        yield position, None
        position += length


def _skip(handle: IO[Any], newline: str | bytes) -> int:
    """Read to the end of the current line in bounded pieces; how much was read."""
    skipped = 0
    while True:
        piece = handle.readline(_SKIP_CHUNK)
        skipped += len(piece)
        if not piece or piece.endswith(newline):
            return skipped


def iter_lines(
    handle: IO[Any], where: str, start: int = 0, end: int | None = None, *, first: int = 1
) -> Iterator[tuple[int, int, Raw | None]]:
    """Each line of a JSON Lines ``handle`` that starts in bytes ``[start, end)``:
    ``(number, offset, item)``, numbered from ``first`` at ``start``, with the
    byte where the line starts; ``item`` is the undecoded document named
    ``where:number``, ``None`` for a blank line, or a :class:`RecordError` for a
    line longer than ``MAX_DOCUMENT_BYTES`` (skipped, never held whole).

    >>> import io
    >>> data = io.BytesIO(b'{"a": 1}\\n\\n{"b": 2}\\n')
    >>> list(iter_lines(data, "c.jsonl"))
    [(1, 0, (b'{"a": 1}\\n', 'c.jsonl:1')), (2, 9, None), (3, 10, (b'{"b": 2}\\n', 'c.jsonl:3'))]
    >>> list(iter_lines(data, "c.jsonl", 3, 12))  # starts inside line 1: skips to line 2
    [(1, 9, None), (2, 10, (b'{"b": 2}\\n', 'c.jsonl:2'))]
    """
    for number, (offset, line) in enumerate(_ranged(handle, start, end), start=first):
        item: Raw | None
        if line is None:
            item = RecordError(f"line longer than {MAX_DOCUMENT_BYTES} bytes", f"{where}:{number}")
        elif line.strip():
            item = (line, f"{where}:{number}")
        else:
            item = None
        yield number, offset, item


def _numbered(handle: IO[Any], where: str, start: int = 1) -> Iterator[Raw]:
    for _, _, item in iter_lines(handle, where, first=start):
        if item is not None:
            yield item


def read_source(name: str, location: str | None = None) -> Iterator[Raw]:
    """Each document of the file or URL ``name`` (read at ``location``, by
    default ``name`` itself), as :func:`iter_raw` gives them: a ``.jsonl``
    corpus line by line (``name:line``), any other file as one document.
    Reports name it ``name``, wherever it was read.
    """
    location = name if location is None else location
    # fsspec's backends raise their own errors (an HTTP status, a missing
    # package): for a URL, any of them means the source cannot be read.
    errors = Exception if is_url(location) else OSError
    try:
        with open_binary(location) as handle:
            if is_jsonl(name):
                yield from _numbered(handle, name)
            else:
                yield (handle.read(MAX_DOCUMENT_BYTES + 1), name)
    except errors as error:
        yield RecordError(f"cannot read: {describe_error(error, location)}", name)


def iter_raw(source: str | Path | IO[str] | IO[bytes]) -> Iterator[Raw]:
    """Each document of a source, undecoded, with its location (``file:line``
    for JSON Lines), or the error that stopped reading it.

    A ``.jsonl`` file is JSON Lines; any other file is one document. A string
    that is a URL (``s3://...``, ``https://...``) is read through fsspec. A stream
    (standard input) is read as JSON Lines, one line at a time, when its first
    line is a JSON object by itself, or when some line is and the first is
    not (one bad first line does not make a corpus unreadable), or when it is
    longer than a document may be; otherwise (a pretty-printed record) it is
    one document.
    """
    if isinstance(source, str) and is_url(source):
        yield from read_source(source)
        return
    if isinstance(source, (str, Path)):
        yield from read_source(str(Path(source)))
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
