"""Turning bytes or text into JSON values, within documented limits.

Everything a reader of untrusted records needs bounded is bounded here, and
each limit is a named constant listed on the docs' Reliability page. A value
over a limit is a :class:`RecordError`, never a crash or an unbounded
allocation.

    >>> decode('{"game": "schotten-totten", "moves": []}', "x.json")
    {'game': 'schotten-totten', 'moves': []}
    >>> decode('{"game": 1, "game": 2}', "x.json")
    Traceback (most recent call last):
    ...
    referee.records.RecordError: x.json: field 'game': the key appears twice in one object
"""

from __future__ import annotations

import json
from typing import Any

from referee.records._types import RecordError

__all__ = [
    "BOM",
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_MOVES",
    "MAX_MOVE_CHARS",
    "decode",
    "json_type",
]

#: A document (a file, or one line of a JSON Lines corpus) larger than this is
#: refused unread. Real records are a few kilobytes; a long match well under 100 KB.
MAX_DOCUMENT_BYTES = 1024 * 1024
#: Arrays and objects nested deeper than this are refused (``meta`` included).
MAX_DEPTH = 32
#: A record holds at most this many moves.
MAX_MOVES = 10_000
#: A move's text is at most this many characters (the longest real one is under 50).
MAX_MOVE_CHARS = 100
#: The UTF-8 byte-order mark, skipped at the start of a document.
BOM = b"\xef\xbb\xbf"


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return data


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys)


def decode(text: str | bytes, where: str) -> Any:
    """One JSON document, checked against every limit of this module.

    Refused with a :class:`RecordError` naming ``where``: more than
    :data:`MAX_DOCUMENT_BYTES`, text that is not UTF-8, bad JSON, a key twice
    in one object, nesting deeper than :data:`MAX_DEPTH`. A leading UTF-8
    byte-order mark is skipped.
    """
    if len(text) > MAX_DOCUMENT_BYTES:
        raise RecordError(f"document larger than {MAX_DOCUMENT_BYTES} bytes", where)
    if isinstance(text, bytes):
        if text.startswith(BOM):
            text = text[len(BOM) :]
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(f"not UTF-8 text (byte {error.start})", where) from None
    elif text.startswith("\ufeff"):
        text = text[1:]
    try:
        value = _DECODER.decode(text)
    except _DuplicateKey as duplicate:
        raise RecordError("the key appears twice in one object", where, duplicate.key) from None
    except json.JSONDecodeError as error:
        at = f"line {error.lineno} column {error.colno}"
        raise RecordError(f"bad JSON: {error.msg} ({at})", where) from None
    except RecursionError:
        raise RecordError(f"JSON nested deeper than {MAX_DEPTH} levels", where) from None
    except ValueError as error:  # e.g. integers with too many digits
        raise RecordError(f"bad JSON: {error}", where) from None
    _check_depth(value, where)
    return value


_CONTAINERS = frozenset({dict, list})


def _check_depth(value: Any, where: str) -> None:
    # Iterative, so a deep value cannot exhaust the stack here (or later, when
    # a record is pickled for a worker process).
    level: list[Any] = [value] if type(value) in _CONTAINERS else []
    for _ in range(MAX_DEPTH):
        inner: list[Any] = []
        for item in level:
            values = item.values() if type(item) is dict else item
            # The types are gathered in C first: most arrays (moves, decks) hold no containers.
            if not _CONTAINERS.isdisjoint(set(map(type, values))):
                inner.extend(v for v in values if type(v) in _CONTAINERS)
        if not inner:
            return
        level = inner
    raise RecordError(f"JSON nested deeper than {MAX_DEPTH} levels", where)


def json_type(value: object) -> str:
    """The JSON type of a value, for messages: ``"an array"``, ``"a boolean"``...

    >>> json_type(True), json_type(1.5), json_type(None)
    ('a boolean', 'a number', 'null')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "an object", list: "an array", str: "a string", int: "an integer"}.get(
        type(value), "a number" if isinstance(value, float) else type(value).__name__
    )
