"""The values the records layer reads and writes: records, matches, positions, errors."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.errors import RefereeError

__all__ = [
    "MATCH_FORMAT",
    "POSITION_FORMAT",
    "RECORD_FORMAT",
    "Match",
    "Position",
    "Record",
    "RecordError",
]

RECORD_FORMAT = "referee-record/1"
MATCH_FORMAT = "referee-match/1"
POSITION_FORMAT = "referee-position/1"


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

    def __reduce__(self) -> tuple[type[RecordError], tuple[str, str, str]]:
        # Pickled whole (for worker processes), not as its formatted message.
        return (type(self), (self.detail, self.where, self.field))


class _ShownAsReplay:
    """Jupyter shows a record or a match as a small replay to step through: a
    static picture of its last position first (all that shows where scripts
    do not run: GitHub, nbviewer, an untrusted notebook), replaced by the
    interactive board once the script runs; the board's data is compressed."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        from referee.replay import replay_html

        assert isinstance(self, Record | Match)
        return replay_html(self, fragment=True, compact=True)


@dataclass(frozen=True)
class Record(_ShownAsReplay):
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
class Match(_ShownAsReplay):
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


# Tracebacks and doctests name the public home of the error.
RecordError.__module__ = "referee.records"
