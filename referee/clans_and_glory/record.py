"""Clans and Glory in records (registered as ``"clans-and-glory"``).

Rules in a record: ``{"players": 2 | 3 | 4}`` (2 when left out). The deal of a
full record is exactly what :meth:`State.deal_to_json` gives: ``{"game":
"clans_and_glory", "players": n, "deck": [cards in play, top first]}``, plus
``"layout"`` for a table other than the default. Player 0 always moves first,
so ``first`` is 0. The result: ``{"winner": index or null, "reason":
"most_points" | "most_cards" | "shared", "scores": [points per player]}``.

    >>> from referee.records import validate
    >>> record = FORMAT.random_record(seed=4, rules={"players": 3})
    >>> len(record.moves), validate(record).legal
    (24, True)

Two things a Schotten Totten record can do are refused here, with a
:class:`~referee.records.RecordError`:

* **Public records** (no deal). Whether a card may go face down depends on
  every card in the mover's hand, and a face-down move's card is hidden from
  the others, so the visible moves alone cannot be refereed; the game state
  always knows every hand.
* **Loading positions.** A visible position shows hands only as counts, and
  the state cannot be built without them. :meth:`ClansAndGloryFormat.position_of`
  still writes the visible table (face-down cards without their face); to look
  at a moment of a game, replay a full record to a ply instead.

There are no claims in Clans and Glory: :meth:`ClansAndGloryFormat.claimability`
is always empty and ``has_claims`` is false.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from referee.cards import InvalidCardError
from referee.clans_and_glory.layout import default_layout
from referee.clans_and_glory.setup import CLAN_CARDS, SETUPS, InvalidDealError
from referee.clans_and_glory.state import State, new_game, random_playout, state_from_deal
from referee.game import Outcome
from referee.records import ClaimAnswer, Position, Record, RecordError, register

__all__ = ["FORMAT", "ClansAndGloryFormat"]

_DEFAULT_PLAYERS = 2
_RULES = ("players",)
_PUBLIC_REFUSED = (
    "public records (without a deal) are not supported for Clans and Glory: whether a "
    "card may go face down depends on the mover's whole hand, and a face-down card is "
    "hidden, so the visible moves alone cannot be refereed; give the deal"
)
_POSITION_REFUSED = (
    "Clans and Glory positions cannot be loaded: the rules need every hand (a card may "
    "go face down only when no card in the mover's hand fits), and a position shows "
    "hands only as counts; replay a full record to a ply instead (--ply N)"
)


class ClansAndGloryFormat:
    """The records adapter for Clans and Glory (full records only; no claims)."""

    name = "clans-and-glory"
    title = "Clans and Glory"
    #: Clans and Glory has no claims: ``referee claimable`` says so.
    has_claims: ClassVar[bool] = False

    def players_of(self, rules: Mapping[str, Any], where: str = "") -> int:
        """Read the ``rules`` object of a record: the number of players."""
        unknown = sorted(str(k) for k in rules if k not in _RULES)
        if unknown:
            raise RecordError(
                f"unknown rule {unknown[0]!r} (Clans and Glory knows: {', '.join(_RULES)})",
                where,
                f"rules.{unknown[0]}",
            )
        players = rules.get("players", _DEFAULT_PLAYERS)
        if isinstance(players, bool) or not isinstance(players, int) or players not in SETUPS:
            raise RecordError(
                f"Clans and Glory is for 2 to 4 players, not {players!r}", where, "rules.players"
            )
        return players

    def rules_json(self, players: int) -> dict[str, Any]:
        """The ``rules`` object for a record."""
        return {"players": players}

    def start(self, record: Record) -> State:
        """The state before the first move of a full ``record``."""
        where = record.where
        players = self.players_of(record.rules, where)
        if record.first != 0:
            raise RecordError(
                f"player 0 always moves first in Clans and Glory, not {record.first!r}",
                where,
                "first",
            )
        if record.players and len(record.players) != players:
            raise RecordError(
                f"{len(record.players)} names for a {players}-player game", where, "players"
            )
        if record.deal is None:
            raise RecordError(_PUBLIC_REFUSED, where, "deal")
        deal = record.deal
        deck = deal.get("deck")
        if isinstance(deck, list):
            for i, text in enumerate(deck):
                if not isinstance(text, str):
                    raise RecordError("expected a card like 'R7'", where, f"deal.deck[{i}]")
                try:
                    CLAN_CARDS.parse(text)
                except InvalidCardError as error:
                    raise RecordError(str(error), where, f"deal.deck[{i}]") from None
        try:
            return state_from_deal(players, deal)
        except InvalidDealError as error:
            raise RecordError(str(error), where, _deal_field(error, deal)) from None

    def result_of(self, outcome: Outcome) -> dict[str, Any]:
        """The JSON result: winner index (``None`` when shared), reason and points."""
        scores = [] if outcome.scores is None else list(outcome.scores)
        return {"winner": outcome.winner, "reason": outcome.reason, "scores": scores}

    # --- positions -----------------------------------------------------------------

    def load_position(self, position: Position) -> State:
        """Always a RecordError: a state needs every hand, a position shows counts."""
        raise RecordError(_POSITION_REFUSED, position.where)

    def position_of(self, state: State) -> Position:
        """The visible table of ``state``: face-down cards show who placed them, not the card.

        >>> game = new_game(2, seed=1).play("G5@t1s1+shield")
        >>> data = FORMAT.position_of(game).to_json()
        >>> data["seats"][:2], data["shields"], data["hand_sizes"], data["to_move"]
        ([{'seat': 't1s1', 'card': 'G5', 'player': 0}, {'seat': 't1s2', 'card': 'Y5', 'player': None}], [[0], [], [], []], [8, 8], 1)
        """
        seats: list[dict[str, Any]] = []
        for seat, placed in zip(state.layout.seats, state.table, strict=True):
            if placed is None:
                continue
            item: dict[str, Any] = {"seat": str(seat)}
            if placed.face_up:
                item["card"] = str(placed.card)
            else:
                item["down"] = True
            item["player"] = placed.player
            seats.append(item)
        data: dict[str, Any] = {
            "seats": seats,
            "shields": [list(stack) for stack in state.shields],
            "hand_sizes": list(state.hand_sizes),
            "to_move": state.to_move,
        }
        if state.layout != default_layout(state.players):
            data["layout"] = state.layout.to_json()
        return Position(self.name, data, self.rules_json(state.players))

    # --- claims --------------------------------------------------------------------

    def claimability(self, state: State) -> list[ClaimAnswer]:
        """Nothing: Clans and Glory has no claims."""
        return []

    # --- demo ----------------------------------------------------------------------

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        """A random legal game dealt from ``seed`` (see :func:`random_playout`) as a full record."""
        players = self.players_of(rules)
        start = new_game(players, seed=seed)
        moves = random_playout(seed, players=players)
        final = start
        for move in moves:
            final = final.play(move)
        return Record(
            game=self.name,
            moves=tuple(moves),
            rules=self.rules_json(players),
            players=tuple(f"player {p + 1}" for p in range(players)),
            first=0,
            deal=start.deal_to_json(),
            result=None if final.outcome is None else self.result_of(final.outcome),
            meta={
                "source": f"referee demo --game {self.name} --seed {seed} "
                f"--rules '{{\"players\": {players}}}'"
            },
        )


def _deal_field(error: InvalidDealError, deal: Mapping[str, Any]) -> str:
    """The record field an InvalidDealError is about, like ``"deal.deck"``."""
    if error.reason == "not_a_permutation":
        return "deal.deck"
    if error.reason == "layout" or str(error).startswith(("layout field", "invalid layout")):
        return "deal.layout"
    if error.reason == "field_unknown":
        unknown = sorted(str(k) for k in deal if k not in ("deck", "game", "layout", "players"))
        return f"deal.{unknown[0]}" if unknown else "deal"
    for name in ("deck", "game", "layout", "players"):
        if f"deal field {name!r}" in str(error):
            return f"deal.{name}"
    return "deal"


FORMAT = register(ClansAndGloryFormat())
