"""What the reliability tests share: the games under test, their rule sets, the knob.

Every registered game is tested (``game_names()`` when the tests are
collected), so a game that registers later is picked up without a change here.
``RULE_SETS`` lists the variants worth covering for the games known today;
any other game is played with its default rules (``{}``).

``REFEREE_FUZZ_EXAMPLES=N`` in the environment sets every Hypothesis test
and every seed loop of this folder to ``N`` examples (for large runs by hand);
``REFEREE_FUZZ_SCALE=K`` multiplies each test's own default by ``K`` (what CI
sets, so every test grows together).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import referee  # noqa: F401  (importing the package registers every game)
from referee.records import GameFormat, Record, find_game, game_names

ROOT = Path(__file__).resolve().parents[2]
RECORD_EXAMPLES = sorted(
    [
        *(ROOT / "examples" / "records").rglob("*.json"),
        *(ROOT / "examples" / "illegal-records").rglob("*.json"),
    ]
)
POSITION_EXAMPLES = sorted((ROOT / "examples" / "positions").glob("*.json"))

#: the variants each known game is played with (unknown games: default rules only)
RULE_SETS: dict[str, list[dict[str, Any]]] = {
    "schotten-totten": [
        {},
        {"edition": "1999"},
        {"variants": ["tactics"]},
        {"variants": ["early-bird"]},
        {"variants": ["tactics", "early-bird"]},
    ],
    "clans-and-glory": [{"players": 2}, {"players": 3}, {"players": 4}],
    "schotten-totten-2": [{}, {"variants": ["tactics"]}],
}

_KNOB = os.environ.get("REFEREE_FUZZ_EXAMPLES", "").strip()
_SCALE = os.environ.get("REFEREE_FUZZ_SCALE", "").strip()


def examples(default: int) -> int:
    """How many examples a test runs: ``default``, scaled by ``REFEREE_FUZZ_SCALE``,
    or ``REFEREE_FUZZ_EXAMPLES`` when it is set."""
    if _KNOB:
        return int(_KNOB)
    return default * int(_SCALE) if _SCALE else default


def games() -> list[str]:
    """The registered games."""
    return game_names()


def rule_sets(game: str) -> list[dict[str, Any]]:
    """The rule sets to play ``game`` with."""
    return RULE_SETS.get(game, [{}])


def game_rules() -> list[tuple[str, dict[str, Any]]]:
    """Every (game, rules) pair under test."""
    return [(g, r) for g in games() for r in rule_sets(g)]


def rules_id(rules: Mapping[str, Any]) -> str:
    """A short test id for a rule set."""
    return json.dumps(rules, sort_keys=True, separators=(",", ":")) if rules else "default"


@cache
def sample_record(game: str, rules_key: str, seed: int) -> Record:
    """``random_record`` cached by (game, rules as JSON, seed)."""
    return find_game(game).random_record(seed, json.loads(rules_key))


def record_for(game: str, rules: Mapping[str, Any], seed: int) -> Record:
    """A random legal full record (cached)."""
    return sample_record(game, json.dumps(rules, sort_keys=True), seed)


def fmt(game: str) -> GameFormat:
    """The game's format."""
    return find_game(game)


def reason_codes(state: object) -> set[str]:
    """The reason codes the game of ``state`` documents (its module's ``Reason``)."""
    codes = {"malformed_move"}
    for cls in type(state).__mro__:
        module = sys.modules.get(cls.__module__)
        reason = getattr(module, "Reason", None)
        if reason is not None:
            codes |= {v for k, v in vars(reason).items() if k.isupper() and isinstance(v, str)}
    return codes
