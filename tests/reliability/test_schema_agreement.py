"""The JSON Schemas and the reader are one truth: on generated documents, valid and
invalid alike, ``jsonschema`` accepts exactly what the reader accepts.

The reader's verdict is its envelope check: ``parse_document`` and, for a lone
record, no match rules (``match_rules_problem``). What a game checks when it
replays (cards, moves, rule values) is not in the schemas. One thing JSON Schema
cannot say is left out of the generated documents: the reader refuses a whole
number written with a fraction (``1.0``), which JSON Schema calls an integer.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.records import (
    MATCH_FORMAT,
    Record,
    RecordError,
    find_game,
    json_schema,
    match_rules_problem,
    parse_document,
)
from tests.reliability._support import examples, games, record_for, rule_sets

VALIDATORS = {
    kind: jsonschema.Draft202012Validator(json_schema(kind), format_checker=None)
    for kind in ("record", "match")
}

# --- generated documents ---------------------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer())
    | st.text(max_size=4)
)
ANY_JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=5,
)
TEXT = st.text(max_size=6)


def either(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly a value of the right shape, sometimes any JSON value."""
    return st.one_of(*[good] * 8, ANY_JSON)


MOVE = st.one_of(*[TEXT] * 8, st.text(min_size=99, max_size=101), ANY_JSON)
MOVES = either(st.lists(either(MOVE), max_size=4))
VARIANTS = either(
    st.lists(
        either(st.sampled_from(["tactics", "early-bird", "clanfehde", "rache", "x"])), max_size=3
    )
)
RULES = either(
    st.fixed_dictionaries(
        {},
        optional={
            "variants": VARIANTS,
            "rounds": either(st.integers(-1, 5)),
            "edition": ANY_JSON,
        },
    )
)
RESULT = either(
    st.fixed_dictionaries(
        {},
        optional={
            "winner": st.one_of(st.none(), st.integers(-1, 3), ANY_JSON),
            "reason": either(TEXT),
            "scores": either(st.lists(either(st.integers(-5, 50)), max_size=3)),
            "winnner": ANY_JSON,
        },
    )
)
GAME_FIELDS = {
    "first": either(st.integers(-2, 3)),
    "meta": either(st.dictionaries(TEXT, ANY_JSON, max_size=2)),
    "deal": either(st.dictionaries(TEXT, ANY_JSON, max_size=2)),
    "result": RESULT,
}
FORMATS = st.sampled_from(["referee-record/1", "referee-match/1", "referee-position/1", 1])


def _one_of_each(required: dict[str, Any], optional: dict[str, Any]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(required, optional=optional)


RECORDS = _one_of_each(
    {"game": either(TEXT), "moves": MOVES},
    {
        **GAME_FIELDS,
        "format": FORMATS,
        "rules": RULES,
        "players": either(st.lists(either(TEXT), max_size=3)),
        "reslt": ANY_JSON,
    },
)
MATCH_GAMES = _one_of_each(
    {"moves": MOVES},
    {**GAME_FIELDS, "players": ANY_JSON, "rules": ANY_JSON, "game": ANY_JSON},
)
MATCHES = _one_of_each(
    {"game": either(TEXT), "games": either(st.lists(either(MATCH_GAMES), max_size=3))},
    {
        "format": FORMATS,
        "rules": RULES,
        "players": either(st.lists(either(TEXT), max_size=3)),
        "meta": either(st.dictionaries(TEXT, ANY_JSON, max_size=2)),
        "result": RESULT,
        "sets": ANY_JSON,
    },
)
# Some documents lose a required field.
DOCUMENTS = st.one_of(
    RECORDS,
    MATCHES,
    RECORDS.map(lambda d: {k: v for k, v in d.items() if k != "moves"}),
    MATCHES.map(lambda d: {k: v for k, v in d.items() if k != "game"}),
    ANY_JSON,
)


def reader_accepts(doc: Any) -> bool:
    try:
        document = parse_document(doc, "generated.json")
    except RecordError:
        return False
    return not (isinstance(document, Record) and match_rules_problem(document) is not None)


def schema_accepts(doc: Any) -> bool:
    is_match = isinstance(doc, dict) and ("games" in doc or doc.get("format") == MATCH_FORMAT)
    return VALIDATORS["match" if is_match else "record"].is_valid(doc)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=DOCUMENTS)
def test_the_schemas_accept_exactly_what_the_reader_accepts(doc: Any) -> None:
    assert schema_accepts(doc) == reader_accepts(doc), doc


# --- the cases where they once disagreed, and the generator's reach --------------------------

GOOD = {"game": "schotten-totten", "moves": ["R7@3"]}


KNOWN_CASES: list[dict[str, Any]] = [
    {**GOOD, "first": -1},
    {**GOOD, "players": ["a", 2]},
    {**GOOD, "result": {"winner": True}},
    {**GOOD, "result": {"winnner": 0}},
    {"game": "schotten-totten", "games": [{"moves": [], "result": {"winnner": 0}}]},
    {**GOOD, "result": None},
    {**GOOD, "rules": None},
    {**GOOD, "meta": {"event": 7}},
    {**GOOD, "rules": {"variants": ["clanfehde"]}},
    {**GOOD, "rules": {"rounds": 2}},
    {**GOOD, "unknown": 1},
    {**GOOD, "moves": ["x" * 101]},
    {"game": "schotten-totten", "games": [{"moves": [], "players": ["a", "b"]}]},
    {"game": "schotten-totten", "games": []},
    {"game": "schotten-totten", "rules": {"rounds": 0}, "games": [{"moves": []}]},
]


@pytest.mark.parametrize("doc", KNOWN_CASES)
def test_known_cases_agree(doc: dict[str, Any]) -> None:
    assert schema_accepts(doc) == reader_accepts(doc)


@pytest.mark.parametrize("game", games())
def test_every_random_record_and_bundled_shape_is_valid_for_both(game: str) -> None:
    for rules in rule_sets(game):
        doc = record_for(game, rules, 0).to_json()
        assert schema_accepts(doc) and reader_accepts(doc)


def test_the_generator_makes_both_valid_and_invalid_documents() -> None:
    seen: set[bool] = set()

    @settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
    @given(doc=st.one_of(RECORDS, MATCHES))
    def sample(doc: Any) -> None:
        seen.add(reader_accepts(doc))

    sample()
    assert seen == {True, False}


@pytest.mark.parametrize(
    ("kind", "loosen"),
    [
        ("record", lambda s: s.pop("additionalProperties")),
        ("record", lambda s: s["properties"]["first"].pop("minimum")),
        ("record", lambda s: s["$defs"]["result"].pop("additionalProperties")),
        ("match", lambda s: s["properties"]["games"]["items"].pop("additionalProperties")),
    ],
)
def test_the_known_cases_catch_a_planted_schema_defect(kind: str, loosen: Any) -> None:
    schema = json_schema(kind)
    loosen(schema)
    loose = jsonschema.Draft202012Validator(schema)
    disagree = [
        doc
        for doc in KNOWN_CASES
        if ("games" in doc) == (kind == "match") and loose.is_valid(doc) != reader_accepts(doc)
    ]
    assert disagree, "a loosened schema went unnoticed"


# --- positions: every position a game writes is valid ------------------------------------------

POSITION_SCHEMA = jsonschema.Draft202012Validator(json_schema("position"))


@pytest.mark.parametrize("game", games())
def test_every_position_a_game_writes_is_valid(game: str) -> None:
    fmt = find_game(game)
    for rules in rule_sets(game):
        for seed in range(examples(1)):
            record = record_for(game, rules, seed)
            state = fmt.start(record)
            for move in record.moves:
                state = state.play(move)
                data = fmt.position_of(state).to_json()
                errors = [e.message for e in POSITION_SCHEMA.iter_errors(data)]
                assert not errors, (move, errors[:3])


def test_the_position_schema_refuses_a_broken_position() -> None:
    fmt = find_game(games()[0])
    data = fmt.position_of(fmt.start(record_for(games()[0], {}, 0))).to_json()
    assert POSITION_SCHEMA.is_valid(data)
    for broken in ({**data, "game": 7}, {**data, "format": "x"}, {"format": data["format"]}):
        assert not POSITION_SCHEMA.is_valid(broken)
