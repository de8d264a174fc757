"""Reading and writing records and positions as JSON and JSON Lines."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import IO, Any

from referee.errors import RefereeError

__all__ = [
    "MATCH_FORMAT",
    "POSITION_FORMAT",
    "RECORD_FORMAT",
    "Match",
    "Position",
    "Record",
    "RecordError",
    "completion_order",
    "iter_documents",
    "iter_records",
    "json_schema",
    "load_position",
    "load_record",
    "loads_document",
    "parse_document",
    "parse_match",
    "parse_position",
    "parse_record",
    "read_variants",
]

RECORD_FORMAT = "referee-record/1"
MATCH_FORMAT = "referee-match/1"
POSITION_FORMAT = "referee-position/1"
#: A single JSON document larger than this is refused rather than read.
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024
_MAX_MOVES = 10_000


class RecordError(RefereeError):
    """Input that is not a readable record or position; ``where`` says where.

    ``where`` is like ``"games.jsonl:3"`` (source and line) and ``field`` the
    JSON field, like ``"moves[4]"``.
    """

    def __init__(self, message: str, where: str = "", field: str = "") -> None:
        place = ": ".join(p for p in (where, f"field {field!r}" if field else "") if p)
        super().__init__("unreadable_input", f"{place}: {message}" if place else message)
        self.where = where
        self.field = field
        self.detail = message


@dataclass(frozen=True)
class Record:
    """One recorded game.

    ``deal`` is the game's deal (deck order and anything else random) when it is
    known, which makes this a *full* record; without it the record is *public*
    (visible moves only). ``first`` is the index of the player who moved first.
    """

    game: str
    moves: tuple[str, ...]
    rules: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    first: int = 0
    deal: Mapping[str, Any] | None = None
    result: Mapping[str, Any] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    where: str = field(default="", compare=False)

    @property
    def is_public(self) -> bool:
        """A public record carries no deal: only the visible moves are checked."""
        return self.deal is None

    def _repr_html_(self) -> str:
        """A small replay to step through, for Jupyter (see :mod:`referee.replay`)."""
        from referee.replay import replay_html

        return replay_html(self, fragment=True)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (the inverse of :func:`parse_record`)."""
        data: dict[str, Any] = {"format": RECORD_FORMAT, "game": self.game}
        if self.rules:
            data["rules"] = dict(self.rules)
        if self.players:
            data["players"] = list(self.players)
        data["first"] = self.first
        if self.meta:
            data["meta"] = dict(self.meta)
        if self.deal is not None:
            data["deal"] = dict(self.deal)
        data["moves"] = list(self.moves)
        if self.result is not None:
            data["result"] = dict(self.result)
        return data

    def dumps(self) -> str:
        """The record as one line of JSON."""
        return json.dumps(self.to_json(), ensure_ascii=False)


@dataclass(frozen=True)
class Match:
    """A match of several games under one set of rules (Clanfehde, Rache).

    Each game is a :class:`Record` of its own; the match's ``rules`` (with the
    match-level fields such as ``rounds``) apply to every game. ``result`` is
    the recorded match result, checked against the replay.
    """

    game: str
    games: tuple[Record, ...]
    rules: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    result: Mapping[str, Any] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    where: str = field(default="", compare=False)

    @property
    def is_public(self) -> bool:
        """Whether any game of the match is a public record."""
        return any(game.is_public for game in self.games)

    def _repr_html_(self) -> str:
        """A small replay to step through, for Jupyter (see :mod:`referee.replay`)."""
        from referee.replay import replay_html

        return replay_html(self, fragment=True)

    def to_json(self) -> dict[str, Any]:
        """The match as a JSON-ready dict (the inverse of :func:`parse_match`)."""
        data: dict[str, Any] = {"format": MATCH_FORMAT, "game": self.game}
        if self.rules:
            data["rules"] = dict(self.rules)
        if self.players:
            data["players"] = list(self.players)
        if self.meta:
            data["meta"] = dict(self.meta)
        games = []
        for record in self.games:
            inner = record.to_json()
            for key in ("format", "game", "rules", "players"):
                inner.pop(key, None)
            games.append(inner)
        data["games"] = games
        if self.result is not None:
            data["result"] = dict(self.result)
        return data

    def dumps(self) -> str:
        """The match as one line of JSON."""
        return json.dumps(self.to_json(), ensure_ascii=False)


@dataclass(frozen=True)
class Position:
    """A visible position: what is on the table and whose turn it is.

    ``data`` holds the game-specific part (for Schotten Totten: stones and
    discards); the game's format turns it into a state.
    """

    game: str
    data: Mapping[str, Any]
    rules: Mapping[str, Any] = field(default_factory=dict)
    where: str = field(default="", compare=False)

    def to_json(self) -> dict[str, Any]:
        """The position as a JSON-ready dict."""
        out: dict[str, Any] = {"format": POSITION_FORMAT, "game": self.game}
        if self.rules:
            out["rules"] = dict(self.rules)
        out.update(self.data)
        return out


def completion_order(
    full: Sequence[bool], first: int | None, where: str, field: str
) -> tuple[int | None, ...]:
    """Completion times for a position's two sides at one place (stone or tile).

    ``full`` says which sides are complete; ``first`` (from the position) names the
    side that completed first, required when both are. Times are ranks: 0 for the
    first complete side, 1 for the other; ``None`` for an incomplete side.

    >>> completion_order([True, True], 1, "p.json", "stones[0].first")
    (1, 0)
    >>> completion_order([True, False], None, "p.json", "stones[0].first")
    (0, None)
    """
    if first is not None and not full[first]:
        raise RecordError("that side's formation is not complete", where, field)
    if all(full) and first is None:
        raise RecordError(
            "both formations are complete: say which was completed first (0 or 1)", where, field
        )
    order = [first] if first is not None else []
    order += [p for p in range(len(full)) if full[p] and p not in order]
    completed: list[int | None] = [None] * len(full)
    for rank, p in enumerate(order):
        completed[p] = rank
    return tuple(completed)


def read_variants(rules: Mapping[str, Any], known: Iterable[str], where: str) -> list[str]:
    """The ``variants`` array of a ``rules`` object, each one of ``known``.

    >>> read_variants({"variants": ["tactics"]}, ["tactics", "early-bird"], "r.json")
    ['tactics']
    >>> read_variants({"variants": ["tartan"]}, ["tactics"], "r.json")
    Traceback (most recent call last):
    ...
    referee.records._format.RecordError: r.json: field 'rules.variants': unsupported variant 'tartan' (supported: tactics)
    """
    variants = rules.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise RecordError("expected an array of variant names", where, "rules.variants")
    supported = sorted(known)
    unknown = sorted(set(variants) - set(supported))
    if unknown:
        raise RecordError(
            f"unsupported variant {unknown[0]!r} (supported: {', '.join(supported)})",
            where,
            "rules.variants",
        )
    return variants


def json_schema(kind: str = "record") -> dict[str, Any]:
    """The JSON Schema shipped with the package: ``"record"``, ``"match"`` or ``"position"``.

    >>> json_schema("record")["required"]
    ['game', 'moves']
    """
    if kind not in ("record", "match", "position"):
        raise ValueError(f"no schema {kind!r}: use 'record', 'match' or 'position'")
    text = files("referee.schemas").joinpath(f"{kind}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _loads(text: str | bytes, where: str) -> Any:
    if len(text) > MAX_DOCUMENT_BYTES:
        raise RecordError(f"document larger than {MAX_DOCUMENT_BYTES} bytes", where)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(f"not UTF-8 text (byte {error.start})", where) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        at = f"line {error.lineno} column {error.colno}"
        raise RecordError(f"bad JSON: {error.msg} ({at})", where) from None
    except RecursionError:
        raise RecordError("JSON nested too deeply", where) from None
    except ValueError as error:  # e.g. integers with too many digits
        raise RecordError(f"bad JSON: {error}", where) from None


def _require(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise RecordError("missing", where, key)
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordError(f"expected {_kind_name(kind)}, got {_json_type(value)}", where, key)
    return value


def _optional(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data or data[key] is None:
        return None
    return _require(data, key, kind, where)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {dict: "an object", list: "an array", str: "a string", int: "an integer"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "an object", list: "an array", str: "a string", int: "an integer"}.get(
        type(value), "a number" if isinstance(value, float) else type(value).__name__
    )


def _check_format(data: Any, expected: str, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RecordError(f"expected a JSON object, got {_json_type(data)}", where)
    fmt = data.get("format", expected)
    if fmt != expected:
        raise RecordError(
            f"unknown format {fmt!r} (this reader knows {expected!r})", where, "format"
        )
    return data


def parse_record(data: Any, where: str = "") -> Record:
    """Check a decoded JSON record's shape and build a :class:`Record`.

    Game-specific contents (cards, moves, rules) are checked when the record is
    replayed; this checks the fields and their types.

    >>> parse_record({"game": "schotten-totten", "moves": ["R7@3", "draw"]}).moves
    ('R7@3', 'draw')
    >>> parse_record({"game": "schotten-totten", "moves": "R7@3"}, "a.json")
    Traceback (most recent call last):
    ...
    referee.records._format.RecordError: a.json: field 'moves': expected an array, got a string
    """
    data = _check_format(data, RECORD_FORMAT, where)
    game = _require(data, "game", str, where)
    moves = _require(data, "moves", list, where)
    if len(moves) > _MAX_MOVES:
        raise RecordError(f"more than {_MAX_MOVES} moves", where, "moves")
    for i, move in enumerate(moves):
        if not isinstance(move, str):
            raise RecordError(
                f"expected a move as a string, got {_json_type(move)}", where, f"moves[{i}]"
            )
    players = _optional(data, "players", list, where) or []
    for i, name in enumerate(players):
        if not isinstance(name, str):
            raise RecordError(f"expected a name, got {_json_type(name)}", where, f"players[{i}]")
    first = _optional(data, "first", int, where)
    return Record(
        game=game,
        moves=tuple(moves),
        rules=_optional(data, "rules", dict, where) or {},
        players=tuple(players),
        first=0 if first is None else first,
        deal=_optional(data, "deal", dict, where),
        result=_optional(data, "result", dict, where),
        meta=_optional(data, "meta", dict, where) or {},
        where=where,
    )


def parse_match(data: Any, where: str = "") -> Match:
    """Check a decoded JSON match's shape and build a :class:`Match`.

    Each entry of ``games`` is a record object without ``game`` and ``rules``
    (they come from the match).

    >>> match = parse_match({"game": "schotten-totten", "rules": {"rounds": 2},
    ...                      "games": [{"moves": []}, {"first": 1, "moves": []}]})
    >>> [g.first for g in match.games], match.games[1].rules
    ([0, 1], {'rounds': 2})
    """
    data = _check_format(data, MATCH_FORMAT, where)
    game = _require(data, "game", str, where)
    rules = _optional(data, "rules", dict, where) or {}
    players = _optional(data, "players", list, where) or []
    for i, name in enumerate(players):
        if not isinstance(name, str):
            raise RecordError(f"expected a name, got {_json_type(name)}", where, f"players[{i}]")
    games_data = _require(data, "games", list, where)
    if not games_data:
        raise RecordError("a match holds at least one game", where, "games")
    games = []
    for i, item in enumerate(games_data):
        at = f"{where} game {i + 1}" if where else f"game {i + 1}"
        if not isinstance(item, dict):
            raise RecordError(
                f"expected a game object, got {_json_type(item)}", where, f"games[{i}]"
            )
        for key in ("game", "rules", "format"):
            if key in item:
                raise RecordError(
                    "a match's games take this from the match", where, f"games[{i}].{key}"
                )
        inner = {**item, "game": game, "rules": rules}
        if players:
            inner.setdefault("players", players)
        try:
            games.append(parse_record(inner, at))
        except RecordError as error:
            raise RecordError(error.detail, where, f"games[{i}].{error.field}") from None
    return Match(
        game=game,
        games=tuple(games),
        rules=rules,
        players=tuple(players),
        result=_optional(data, "result", dict, where),
        meta=_optional(data, "meta", dict, where) or {},
        where=where,
    )


def parse_document(data: Any, where: str = "") -> Record | Match:
    """A record, or a match when the object holds ``games`` (or says so in ``format``)."""
    if isinstance(data, dict) and ("games" in data or data.get("format") == MATCH_FORMAT):
        return parse_match(data, where)
    return parse_record(data, where)


def loads_document(text: str | bytes, where: str = "") -> Record | Match:
    """Decode one JSON text (a file's content or one JSON Lines line) into a
    record or a match; a :class:`RecordError` says what is wrong and where.

    >>> loads_document('{"game": "schotten-totten", "moves": ["pass"]}', "x:1").moves
    ('pass',)
    """
    return parse_document(_loads(text, where), where)


def parse_position(data: Any, where: str = "") -> Position:
    """Check a decoded JSON position's envelope and build a :class:`Position`."""
    data = _check_format(data, POSITION_FORMAT, where)
    game = _require(data, "game", str, where)
    rules = _optional(data, "rules", dict, where) or {}
    body = {k: v for k, v in data.items() if k not in ("format", "game", "rules")}
    return Position(game=game, data=body, rules=rules, where=where)


def load_record(source: str | Path | IO[str]) -> Record:
    """Read one record from a JSON file (or an open text stream)."""
    text, where = _read(source)
    return parse_record(_loads(text, where), where)


def load_position(source: str | Path | IO[str]) -> Position:
    """Read one position from a JSON file (or an open text stream)."""
    text, where = _read(source)
    return parse_position(_loads(text, where), where)


def _read(source: str | Path | IO[str]) -> tuple[str | bytes, str]:
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_DOCUMENT_BYTES + 1)
        except OSError as error:
            raise RecordError(f"cannot read: {error.strerror or error}", str(path)) from None
        return data, str(path)
    return source.read(), getattr(source, "name", "<stream>")


def iter_documents(
    source: str | Path | IO[str] | IO[bytes],
) -> Iterator[tuple[Any, str] | RecordError]:
    """Yield each document of a JSON or JSON Lines source, lazily.

    A ``.jsonl`` file is read one line at a time (blank lines skipped), so memory
    stays flat however large it is; any other file is one JSON document. A
    stream (such as standard input) holding several lines that are each a JSON
    document is read as JSON Lines. Each item is the decoded value with its
    location, or a :class:`RecordError` for a part that cannot be read, so one
    bad line does not stop a corpus.
    """
    if isinstance(source, (str, Path)):
        path = Path(source)
        if path.suffix != ".jsonl":
            try:
                text, where = _read(path)
                yield (_loads(text, where), where)
            except RecordError as error:
                yield error
            return
        try:
            with path.open("rb") as handle:
                yield from _iter_lines(handle, str(path))
        except OSError as error:
            yield RecordError(f"cannot read: {error.strerror or error}", str(path))
        return
    where = getattr(source, "name", "<stream>")
    whole = source.read()
    text = whole.decode("utf-8", "replace") if isinstance(whole, bytes) else whole
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines):
        try:
            json.loads(lines[0])
        except (ValueError, RecursionError):  # not JSON Lines: read it as one document
            pass
        else:
            yield from _iter_lines(text.splitlines(), where)
            return
    try:
        yield (_loads(whole, where), where)
    except RecordError as error:
        yield error


def _iter_lines(
    lines: Iterable[str | bytes], where: str
) -> Iterator[tuple[Any, str] | RecordError]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        at = f"{where}:{number}"
        try:
            yield (_loads(line, at), at)
        except RecordError as error:
            yield error


def iter_records(
    source: str | Path | IO[str] | IO[bytes],
) -> Iterator[Record | Match | RecordError]:
    """Yield each record (or match) of a JSON or JSON Lines source lazily, or its
    read error."""
    for item in iter_documents(source):
        if isinstance(item, RecordError):
            yield item
            continue
        data, where = item
        try:
            yield parse_document(data, where)
        except RecordError as error:
            yield error
