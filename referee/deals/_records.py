"""Public records and their deals: the deal check, the witness and its JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.deals._problem import DealAnswer, DealProblem
from referee.deals._solve import solve

if TYPE_CHECKING:
    from referee.games import DealModel
    from referee.records import Match, Record

__all__ = ["check_record", "witness", "witness_json"]


def _game_deals(game: str) -> DealModel | None:
    """The game's deal model (its descriptor's ``deals``), if it has one.

    It provides ``problem(record, upto)`` (the :class:`DealProblem` of a record's
    first moves) and ``full_record(record, answer)`` (the record with a deal).
    """
    from referee.games import find_game

    return find_game(game).deals


def check_record(record: Record, plies: int | None = None) -> DealAnswer | None:
    """Whether a deal fits the first ``plies`` moves of the public ``record``;
    ``None`` for a full record or a game without a deal model. The moves must
    read and keep the turn order; the rules judge them apart (a move they
    refuse still gets its deal question).

    >>> from referee.records import Record
    >>> record = Record("schotten-totten", ("spy@1",), {"variants": ["tactics"]})
    >>> print(check_record(record).message)
    no deal fits: player 1 plays spy but has drawn no tactic card that could be it
    """
    if not record.is_public:
        return None
    model = _game_deals(record.game)
    if model is None:
        return None
    found: DealProblem = model.problem(record, plies)
    return solve(found)


def witness(record: Record) -> Record | None:
    """The public ``record`` made full with one deal that fits every move
    (hidden moves named as the deal has them), or ``None`` when no deal fits
    or the game has no deal model. The rules must accept every move.

    >>> from referee.records import Record, validate
    >>> record = Record("schotten-totten", ("G4@2", "draw"))
    >>> full = witness(record)
    >>> full.deal["deck"][:1], validate(full).legal
    (['G4'], True)
    """
    model = _game_deals(record.game)
    if model is None or not record.is_public:
        return None
    answer = solve(model.problem(record, None))
    if not answer.fits:
        return None
    full: Record = model.full_record(record, answer)
    return full


def witness_json(item: Record | Match) -> dict[str, object] | list[object] | None:
    """The witness of a public record as JSON: ``{"deal": ...}``, plus ``"moves"``
    when the full record must name what the public one hid; for a match, one
    such object (or ``None``) per game. ``None`` when there is nothing to show.

    >>> from referee.records import Record
    >>> witness_json(Record("schotten-totten", ("G4@2", "draw")))["deal"]["deck"][:2]
    ['G4', 'R1']
    """
    from referee.records import Match

    if isinstance(item, Match):
        games: list[object] = [witness_json(game) for game in item.games]
        return games if any(g is not None for g in games) else None
    full = witness(item)
    if full is None:
        return None
    data: dict[str, object] = {"deal": dict(full.deal or {})}
    if full.moves != item.moves:
        data["moves"] = list(full.moves)
    return data
