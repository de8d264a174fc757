"""What ``referee validate`` checks: the files that the names on its command line
stand for, listed one way for every way of running it.

A name is a file, a folder (its ``.json`` and ``.jsonl`` files, sorted, at any
depth), a URL (``s3://bucket/corpus/``: a folder of objects, or one object;
``https://...``: one file), or ``-`` for standard input. The run in one process,
``--jobs N`` and ``--dask`` all list sources with :func:`list_sources` and read
them with :func:`~referee.records._stream.read_source`, so they name and
number every game alike.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> for name in ("b.jsonl", "a/c.json", "a/notes.txt"):
...     (folder / name).parent.mkdir(exist_ok=True)
...     _ = (folder / name).write_text("{}")
>>> (folder / "empty").mkdir()
>>> [s.name for s in list_sources(["a", "b.jsonl"], base=str(folder))]
['a/c.json', 'b.jsonl']
>>> [s.location == str(folder / s.name) for s in list_sources(["a"], base=str(folder))]
[True]
>>> list(list_sources(["empty"], base=str(folder)))
[RecordError('empty: no .json or .jsonl file in this folder')]
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from referee.records._stream import Raw, describe_error, is_url, read_raw, url_filesystem
from referee.records._types import Match, Record, RecordError
from referee.records._validate import ValidationReport, validate

__all__ = [
    "SUFFIXES",
    "Source",
    "check_item",
    "check_raw",
    "list_sources",
    "locate",
    "source_size",
]

#: The files a folder contributes.
SUFFIXES = (".json", ".jsonl")
#: URL schemes whose "folders" cannot be listed (an HTTP server has no listing
#: to trust): such a URL always names one file.
_UNLISTED = ("http", "https")
_EMPTY_FOLDER = "no .json or .jsonl file in this folder"


@dataclass(frozen=True)
class Source:
    """One file to check: ``name`` is how reports call it (as given, or the
    folder given joined with the file's place in it); ``location`` is where it
    is read (an absolute path when a ``base`` folder was given, or a URL);
    ``size`` is its size in bytes when the listing told it (URL folders)."""

    name: str
    location: str
    size: int | None = None


def locate(name: str, base: str | None) -> str:
    """Where the file ``name`` is read: a relative path is taken from ``base``
    (the folder the names were typed in), a URL or an absolute path as it is.

    >>> locate("games/a.jsonl", "/home/me"), locate("s3://b/a.jsonl", "/home/me")
    ('/home/me/games/a.jsonl', 's3://b/a.jsonl')
    """
    if base is None or is_url(name) or os.path.isabs(name):
        return name
    return os.path.join(base, name)


def list_sources(names: Iterable[str], base: str | None = None) -> Iterator[Source | RecordError]:
    """The files the ``names`` stand for, in the order reports come out.

    A folder gives its ``.json`` and ``.jsonl`` files sorted by their path in
    it, or a :class:`RecordError` when it has none (a folder with nothing to
    check is not a folder of legal games). A relative name is looked up in
    ``base`` (default: the current folder) but keeps its name. ``-`` is passed
    through as ``Source("-", "-")``: standard input is the caller's business.
    A name that is neither a folder nor a file is still listed: reading it
    gives the reason.
    """
    for name in names:
        if name == "-":
            yield Source("-", "-")
        elif is_url(name):
            yield from _url_sources(name)
        else:
            yield from _path_sources(name, base)


def _path_sources(name: str, base: str | None) -> Iterator[Source | RecordError]:
    path = Path(name)
    where = Path(locate(str(path), base))
    if not where.is_dir():
        yield Source(str(path), str(where))
        return
    found = sorted(p for p in where.rglob("*") if p.suffix in SUFFIXES and p.is_file())
    if not found:
        yield RecordError(_EMPTY_FOLDER, name)
    for file in found:
        yield Source(str(path / file.relative_to(where)), str(file))


def _url_sources(name: str) -> Iterator[Source | RecordError]:
    if urlsplit(name).scheme.lower() in _UNLISTED:
        yield Source(name, name)
        return
    try:
        fs, root = url_filesystem(name)
        if not fs.isdir(root):
            yield Source(name, name)
            return
        root = root.rstrip("/")
        found = [
            (PurePosixPath(path[len(root) + 1 :]), info.get("size"))
            for path, info in fs.find(root, detail=True).items()
            if info.get("type") == "file" and PurePosixPath(path).suffix in SUFFIXES
        ]
    except ImportError as error:  # fsspec, or the package for this kind of URL
        yield RecordError(f"cannot read: {error}", name)
        return
    except Exception as error:  # fsspec's backends raise errors of their own
        yield RecordError(f"cannot read: {describe_error(error, name)}", name)
        return
    if not found:
        yield RecordError(_EMPTY_FOLDER, name)
    folder = name.rstrip("/")
    for relative, size in sorted(found, key=lambda item: item[0].parts):
        url = f"{folder}/{relative}"
        yield Source(url, url, size if isinstance(size, int) else None)


def source_size(source: Source) -> int | None:
    """The size of ``source`` in bytes, or ``None`` when its server does not
    tell it; an ``OSError`` (or fsspec's error) when it cannot be seen."""
    if source.size is not None:
        return source.size
    if not is_url(source.location):
        return os.stat(source.location).st_size
    fs, path = url_filesystem(source.location)
    size = fs.size(path)
    return size if isinstance(size, int) else None


def check_item(item: Record | Match | RecordError) -> ValidationReport:
    """The report for one document, or for the error that kept it from being read."""
    return validate(item)  # the one verdict: validate reads a RecordError too


def check_raw(item: Raw) -> ValidationReport:
    """The report for one undecoded document (or its read error)."""
    return check_item(item if isinstance(item, RecordError) else read_raw(item))
