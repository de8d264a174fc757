"""Recorded games and positions: the JSON format, reading, and validation.

A record is one JSON object (a ``.json`` file) or one line of a ``.jsonl``
corpus. With a ``deal`` it is a *full* record, in which every draw and hand is
checked; without one it is a *public* record of the visible moves only.

    >>> from referee.records import parse_record, validate
    >>> record = parse_record({
    ...     "game": "schotten-totten",
    ...     "moves": ["R7@3", "draw", "R7@4"],
    ... }, "example")
    >>> report = validate(record)
    >>> report.legal, report.error.ply, report.error.reason
    (False, 3, 'card_already_played')
"""

from referee.records._decode import MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_MOVE_CHARS, MAX_MOVES
from referee.records._registry import (
    ENTRY_POINT_GROUP,
    ClaimAnswer,
    GameFormat,
    find_game,
    game_names,
    game_of,
    register,
)
from referee.records._shape import (
    completion_order,
    json_schema,
    match_rules_problem,
    parse_document,
    parse_match,
    parse_position,
    parse_record,
    read_variants,
    record_problem,
)
from referee.records._stream import (
    iter_documents,
    iter_records,
    load_position,
    load_record,
    loads_document,
)
from referee.records._types import (
    MATCH_FORMAT,
    POSITION_FORMAT,
    RECORD_FORMAT,
    Match,
    Position,
    Record,
    RecordError,
)
from referee.records._validate import (
    IllegalPly,
    ReplayStep,
    ValidationReport,
    replay,
    replay_steps,
    validate,
    validate_source,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "MATCH_FORMAT",
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_MOVES",
    "MAX_MOVE_CHARS",
    "POSITION_FORMAT",
    "RECORD_FORMAT",
    "ClaimAnswer",
    "GameFormat",
    "IllegalPly",
    "Match",
    "Position",
    "Record",
    "RecordError",
    "ReplayStep",
    "ValidationReport",
    "completion_order",
    "find_game",
    "game_names",
    "game_of",
    "iter_documents",
    "iter_records",
    "json_schema",
    "load_position",
    "load_record",
    "loads_document",
    "match_rules_problem",
    "parse_document",
    "parse_match",
    "parse_position",
    "parse_record",
    "read_variants",
    "record_problem",
    "register",
    "replay",
    "replay_steps",
    "validate",
    "validate_source",
]
