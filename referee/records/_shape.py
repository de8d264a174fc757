"""Shape checks: a decoded JSON value becomes a :class:`Record`, :class:`Match` or
:class:`Position`, or a :class:`RecordError` that names the field.

The checks here and the JSON Schemas in ``referee/schemas`` describe the same
documents (the reliability tests compare them on generated documents). What
they check is the envelope: fields, types, and the one canonical form of a
record. A game's own contents (cards, moves, rules values) are checked when the
record is replayed.

Canonical form, the rest refused:

* no field outside the documented ones (a misspelled ``"reslt"`` is an error,
  not a silently ignored extra); free-form data goes in ``meta``;
* optional fields are left out rather than written as ``null``;
* ``first`` is a whole number (not ``true``, not ``1.0``);
* ``result`` holds only ``winner`` (a player index or ``null``), ``reason`` and
  ``scores``, and for a referee's end of a game (resignation, timeout, forfeit,
  ply limit) ``loser``, ``plies``, ``fault`` and ``detail``;
* match rules (``rounds``, the ``clanfehde`` and ``rache`` variants) belong
  to a match document, never to a lone record.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from importlib.resources import files
from typing import Any

from referee.records._decode import MAX_MOVE_CHARS, MAX_MOVES, json_type
from referee.records._types import (
    MATCH_FORMAT,
    POSITION_FORMAT,
    RECORD_FORMAT,
    Match,
    Position,
    Record,
    RecordError,
)

__all__ = [
    "MATCH_VARIANTS",
    "completion_order",
    "json_schema",
    "match_rules_problem",
    "parse_document",
    "parse_match",
    "parse_position",
    "parse_record",
    "read_variants",
    "record_problem",
]

#: Variants that make a match of several games; a lone record cannot carry them.
MATCH_VARIANTS = frozenset({"clanfehde", "rache"})

_RECORD_FIELDS = ("format", "game", "rules", "players", "first", "meta", "deal", "moves", "result")
_MATCH_FIELDS = ("format", "game", "rules", "players", "meta", "games", "result")
_MATCH_GAME_FIELDS = ("first", "meta", "deal", "moves", "result")
_RESULT_FIELDS = ("winner", "reason", "scores", "loser", "plies", "fault", "detail")


def _fail(message: str, where: str, field: str = "") -> RecordError:
    return RecordError(message, where, field)


def _known_fields(data: Mapping[str, Any], known: Sequence[str], where: str, prefix: str) -> None:
    for key in data:
        if key not in known:
            raise _fail(f"unknown field (known: {', '.join(known)})", where, prefix + key)


def _get(data: Mapping[str, Any], key: str, kind: type, where: str, prefix: str = "") -> Any:
    """``data[key]`` of JSON type ``kind`` (``None`` when absent; ``null`` is refused)."""
    if key not in data:
        return None
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = {dict: "an object", list: "an array", str: "a string", int: "an integer"}
        raise _fail(f"expected {names[kind]}, got {json_type(value)}", where, prefix + key)
    return value


def _require(data: Mapping[str, Any], key: str, kind: type, where: str, prefix: str = "") -> Any:
    if key not in data:
        raise _fail("missing", where, prefix + key)
    return _get(data, key, kind, where, prefix)


def _strings(values: list[Any], what: str, where: str, field: str) -> None:
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise _fail(
                f"expected {what} as a string, got {json_type(value)}", where, f"{field}[{i}]"
            )


def _once_each(variants: list[str], where: str) -> None:
    twice = sorted({v for v in variants if variants.count(v) > 1})
    if twice:
        raise _fail(f"variant {twice[0]!r} is given twice", where, "rules.variants")


def _check_format(data: Any, expected: str, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(f"expected a JSON object, got {json_type(data)}", where)
    if "format" in data and data["format"] != expected:
        raise _fail(
            f"unknown format {data['format']!r} (this reader knows {expected!r})", where, "format"
        )
    return data


def _moves(data: Mapping[str, Any], where: str, prefix: str) -> tuple[str, ...]:
    moves = _require(data, "moves", list, where, prefix)
    if len(moves) > MAX_MOVES:
        raise _fail(f"more than {MAX_MOVES} moves", where, prefix + "moves")
    if set(map(type, moves)) <= {str} and max(map(len, moves), default=0) <= MAX_MOVE_CHARS:
        return tuple(moves)  # the usual case, checked in C; else find the culprit
    for i, move in enumerate(moves):
        if not isinstance(move, str):
            raise _fail(
                f"expected a move as a string, got {json_type(move)}", where, f"{prefix}moves[{i}]"
            )
        if len(move) > MAX_MOVE_CHARS:
            raise _fail(
                f"a move of {len(move)} characters (at most {MAX_MOVE_CHARS})",
                where,
                f"{prefix}moves[{i}]",
            )
    return tuple(moves)


def _players(data: Mapping[str, Any], where: str) -> tuple[str, ...]:
    players = _get(data, "players", list, where) or []
    _strings(players, "a name", where, "players")
    return tuple(players)


def _first(data: Mapping[str, Any], where: str, prefix: str) -> int:
    first = _get(data, "first", int, where, prefix)
    if first is not None and first < 0:
        raise _fail(f"expected a player index (0 or more), got {first!r}", where, prefix + "first")
    return 0 if first is None else int(first)


def _deal(data: Mapping[str, Any], where: str, prefix: str) -> dict[str, Any] | None:
    # Its contents (deck, layout...) are the game's business, checked by its start().
    deal: dict[str, Any] | None = _get(data, "deal", dict, where, prefix)
    return deal


def _result(data: Mapping[str, Any], where: str, prefix: str) -> dict[str, Any] | None:
    result: dict[str, Any] | None = _get(data, "result", dict, where, prefix)
    if result is None:
        return None
    at = prefix + "result."
    _known_fields(result, _RESULT_FIELDS, where, at)
    if "winner" in result and result["winner"] is not None:
        winner = result["winner"]
        if isinstance(winner, bool) or not isinstance(winner, int) or winner < 0:
            raise _fail(
                f"expected a player index or null, got {json_type(winner)} {winner!r}",
                where,
                at + "winner",
            )
    _get(result, "reason", str, where, at)
    scores = _get(result, "scores", list, where, at) or []
    for i, score in enumerate(scores):
        if isinstance(score, bool) or not isinstance(score, int):
            raise _fail(f"expected an integer, got {json_type(score)}", where, f"{at}scores[{i}]")
    # A referee's end of a game (the arena's resignation, timeout, forfeit, ply limit).
    for name in ("loser", "plies"):
        number = _get(result, name, int, where, at)
        if number is not None and number < 0:
            raise _fail(f"expected 0 or more, got {number!r}", where, at + name)
    _get(result, "fault", str, where, at)
    _get(result, "detail", str, where, at)
    return result


def _rules(data: Mapping[str, Any], where: str, *, lone: bool) -> dict[str, Any]:
    rules = _get(data, "rules", dict, where) or {}
    variants = _get(rules, "variants", list, where, "rules.") or []
    _strings(variants, "a variant name", where, "rules.variants")
    _once_each(variants, where)
    if not lone:
        rounds = _get(rules, "rounds", int, where, "rules.")
        if rounds is not None and rounds < 1:
            raise _fail(f"expected 1 or more rounds, got {rounds!r}", where, "rules.rounds")
    return rules


def parse_record(data: Any, where: str = "") -> Record:
    """Check a decoded JSON record's shape and build a :class:`Record`.

    Game-specific contents (cards, moves, rules) are checked when the record is
    replayed; this checks the fields, their types and the canonical form.

    >>> parse_record({"game": "schotten-totten", "moves": ["R7@3", "draw"]}).moves
    ('R7@3', 'draw')
    >>> parse_record({"game": "schotten-totten", "moves": "R7@3"}, "a.json")
    Traceback (most recent call last):
    ...
    referee.records.RecordError: a.json: field 'moves': expected an array, got a string
    >>> parse_record({"game": "schotten-totten", "moves": [], "result": {"winnner": 0}}, "a.json")
    Traceback (most recent call last):
    ...
    referee.records.RecordError: a.json: field 'result.winnner': unknown field (known: winner, reason, scores, loser, plies, fault, detail)
    """
    return _record(data, where, match=None)


def _record(
    data: Any, where: str, match: tuple[str, dict[str, Any], tuple[str, ...]] | None
) -> Record:
    if match is None:
        data = _check_format(data, RECORD_FORMAT, where)
        _known_fields(data, _RECORD_FIELDS, where, "")
        game = _require(data, "game", str, where)
        rules = _rules(data, where, lone=True)
        players = _players(data, where)
    else:
        game, rules, players = match
    return Record(
        game=game,
        moves=_moves(data, where, ""),
        rules=rules,
        players=players,
        first=_first(data, where, ""),
        deal=_deal(data, where, ""),
        result=_result(data, where, ""),
        meta=_get(data, "meta", dict, where) or {},
        where=where,
    )


def parse_match(data: Any, where: str = "") -> Match:
    """Check a decoded JSON match's shape and build a :class:`Match`.

    Each entry of ``games`` is a record object without ``game``, ``rules`` and
    ``players`` (they come from the match).

    >>> match = parse_match({"game": "schotten-totten", "rules": {"rounds": 2},
    ...                      "games": [{"moves": []}, {"first": 1, "moves": []}]})
    >>> [g.first for g in match.games], match.games[1].rules
    ([0, 1], {'rounds': 2})
    """
    data = _check_format(data, MATCH_FORMAT, where)
    _known_fields(data, _MATCH_FIELDS, where, "")
    game = _require(data, "game", str, where)
    rules = _rules(data, where, lone=False)
    players = _players(data, where)
    games_data = _require(data, "games", list, where)
    if not games_data:
        raise _fail("a match holds at least one game", where, "games")
    games = []
    for i, item in enumerate(games_data):
        at = f"{where} game {i + 1}" if where else f"game {i + 1}"
        if not isinstance(item, dict):
            raise _fail(f"expected a game object, got {json_type(item)}", where, f"games[{i}]")
        for key in ("game", "rules", "players", "format"):
            if key in item:
                raise _fail("a match's games take this from the match", where, f"games[{i}].{key}")
        _known_fields(item, _MATCH_GAME_FIELDS, where, f"games[{i}].")
        try:
            games.append(_record(item, at, (game, rules, players)))
        except RecordError as error:
            raise _fail(error.detail, where, f"games[{i}].{error.field}") from None
    return Match(
        game=game,
        games=tuple(games),
        rules=rules,
        players=players,
        result=_result(data, where, ""),
        meta=_get(data, "meta", dict, where) or {},
        where=where,
    )


def parse_document(data: Any, where: str = "") -> Record | Match:
    """A record, or a match when the object holds ``games`` (or says so in ``format``)."""
    if isinstance(data, dict) and ("games" in data or data.get("format") == MATCH_FORMAT):
        return parse_match(data, where)
    return parse_record(data, where)


def parse_position(data: Any, where: str = "") -> Position:
    """Check a decoded JSON position's envelope and build a :class:`Position`."""
    data = _check_format(data, POSITION_FORMAT, where)
    game = _require(data, "game", str, where)
    rules = _get(data, "rules", dict, where) or {}
    body = {k: v for k, v in data.items() if k not in ("format", "game", "rules")}
    return Position(game=game, data=body, rules=rules, where=where)


def match_rules_problem(record: Record) -> RecordError | None:
    """Match rules in a lone record: they belong to a match document.

    Checked after the game has read the rules (so a bad ``rounds`` value gets
    the game's own message), before the moves are replayed.

    >>> match_rules_problem(Record("schotten-totten", (), rules={"variants": ["clanfehde"]}))
    RecordError("<record>: field 'rules.variants': 'clanfehde' is a match of several games: write a match document")
    """
    where = record.where or "<record>"
    if "rounds" in record.rules:
        return _fail("a lone game has no rounds: write a match document", where, "rules.rounds")
    variants = record.rules.get("variants", [])
    for variant in variants if isinstance(variants, list) else []:
        if variant in MATCH_VARIANTS:
            return _fail(
                f"{variant!r} is a match of several games: write a match document",
                where,
                "rules.variants",
            )
    return None


def record_problem(record: Record) -> RecordError | None:
    """What makes a :class:`Record` built in Python (not read) unfit to replay.

    A record read by :func:`parse_record` always passes; one built by hand with
    fields of the wrong types (``rules=None``, ``first=1.0``, ``moves=None``...)
    gets the same error its JSON form would get.

    >>> print(record_problem(Record("schotten-totten", ("R7@3",), first=1.0)))
    <record>: field 'first': expected an integer, got a number
    """
    where = record.where if isinstance(record.where, str) and record.where else "<record>"
    data: dict[str, Any] = {"game": record.game, "moves": record.moves}
    if isinstance(data["moves"], tuple):
        data["moves"] = list(data["moves"])
    parts = {"rules": record.rules, "meta": record.meta, "deal": record.deal}
    for name, value in (parts | {"result": record.result}).items():
        if name in ("deal", "result") and value is None:
            continue
        data[name] = dict(value) if isinstance(value, Mapping) else value
    players = record.players
    data["players"] = list(players) if isinstance(players, tuple) else players
    data["first"] = record.first
    try:
        parse_record(data, where)
    except RecordError as error:
        return error
    except RecursionError:
        return RecordError("nested deeper than Python can check", where)
    return None


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
    referee.records.RecordError: r.json: field 'rules.variants': unsupported variant 'tartan' (supported: tactics)
    """
    variants = rules.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise RecordError("expected an array of variant names", where, "rules.variants")
    _once_each(variants, where)
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
