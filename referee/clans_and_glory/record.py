"""Clans and Glory in records (named ``"clans-and-glory"``).

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

**Public records** (no deal) are refused with a
:class:`~referee.records.RecordError`: whether a card may go face down depends
on every card in the mover's hand, and a face-down move's card is hidden from
the others, so the visible moves alone cannot be refereed; the game state
always knows every hand.

**Positions** hold the whole table, face-down cards included, and every hand
(:meth:`ClansAndGloryFormat.position_of` writes them and
:meth:`ClansAndGloryFormat.load_position` reads them back). A loaded position is
checked like python-chess's ``status()``: every problem is reported at once.

There are no claims in Clans and Glory: :meth:`ClansAndGloryFormat.claimability`
is always empty and ``has_claims`` is false.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from referee.cards import Card, InvalidCardError
from referee.clans_and_glory.dealing import new_game, random_playout, state_from_deal
from referee.clans_and_glory.layout import Layout, Seat, default_layout
from referee.clans_and_glory.setup import (
    CLAN_CARDS,
    SETUPS,
    SHIELDS_PER_PLAYER,
    InvalidDealError,
    setup_for,
)
from referee.clans_and_glory.state import InvalidStateError, Placed, State
from referee.errors import InvalidMoveError
from referee.game import Outcome, referee_result
from referee.prover import ClaimVerdict
from referee.records import ClaimAnswer, GameFormat, Match, Position, Record, RecordError

__all__ = ["FORMAT", "ClansAndGloryFormat"]

_DEFAULT_PLAYERS = 2
_RULES = ("players",)
_PUBLIC_REFUSED = (
    "public records (without a deal) are not supported for Clans and Glory: whether a "
    "card may go face down depends on the mover's whole hand, and a face-down card is "
    "hidden, so the visible moves alone cannot be refereed; give the deal"
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
        if isinstance(record.first, bool) or not isinstance(record.first, int) or record.first:
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

    def record_of(self, state: State) -> Record:
        """The full record of the game ``state`` comes from (see :meth:`State.to_record`)."""
        if not state.deal:
            raise ValueError(
                "this state was set up from a position or is a view: it has no deal to record"
            )
        placed = sum(1 for p in state.board.seat_placers if p >= 0)
        if placed != len(state.history):
            # A loaded position or a determinization: the cards on the table were
            # placed by moves this state does not know, so no record replays to it.
            raise ValueError(
                f"{placed} cards were placed before this state's first known move "
                "(it was set up from a position or sampled from a view): its game "
                "cannot be written as a record; write its position instead"
            )
        outcome = state.outcome
        result = referee_result(outcome, len(state.history), self.result_of)
        return Record(
            game=self.name,
            moves=tuple(str(m) for m in state.history),
            rules=self.rules_json(state.num_players),
            first=0,
            deal=state.deal_to_json(),
            result=result,
        )

    # --- positions -----------------------------------------------------------------

    def load_position(self, position: Position) -> State:
        """The state of a position written by :meth:`position_of`, checked like ``status()``.

        The position must hold every hand (the rules need them); what can be derived
        is derived (the cards removed at set-up, whose turn it is, the outcome), and
        a position no game can reach is refused with a :class:`RecordError` that
        lists every problem at once.

        >>> game = new_game(players=2, seed=1).play("G5@t1s1+shield")
        >>> position = FORMAT.position_of(game)
        >>> loaded = FORMAT.load_position(position)
        >>> FORMAT.position_of(loaded) == position, loaded.legal_moves() == game.legal_moves()
        (True, True)
        >>> data = {**position.data, "to_move": 0, "shields": [[1], [], [], []]}
        >>> FORMAT.load_position(Position("clans-and-glory", data, {"players": 2}, "p.json"))
        Traceback (most recent call last):
        ...
        referee.records.RecordError: p.json: 2 problems: position: player 1 is to move, but 1 card has been placed, so player 2 is; position: player 2 has a shield on tableau 1 but placed only 0 cards there
        """
        where, data = position.where, position.data
        players = self.players_of(position.rules, where)
        reader = _PositionReader(players, where)
        return reader.read(data)

    def position_of(self, state: State) -> Position:
        """The whole position of ``state``, hands included, as :meth:`load_position` reads it.

        Each occupied seat lists its ``card``, the ``player`` who placed it
        (``None`` for a start card) and ``"down": true`` for a face-down card.

        >>> game = new_game(players=2, seed=1).play("G5@t1s1+shield")
        >>> data = FORMAT.position_of(game).to_json()
        >>> data["seats"][:2], data["shields"], data["hand_sizes"], data["to_move"]
        ([{'seat': 't1s1', 'card': 'G5', 'player': 0}, {'seat': 't1s2', 'card': 'Y5', 'player': None}], [[0], [], [], []], [8, 8], 1)
        >>> data["hands"][1]
        ['R5', 'R6', 'O3', 'Y3', 'G6', 'B5', 'W3', 'W4']
        """
        if not isinstance(state, State) or state._viewer() != "all":
            what = "a view" if isinstance(state, State) else type(state).__name__
            raise ValueError(
                f"position_of takes a full Clans and Glory State, not {what}: a "
                "position holds every hand, which a player's view does not know"
            )
        seats: list[dict[str, Any]] = []
        for seat, placed in zip(state.layout.seats, state.table, strict=True):
            if placed is None:
                continue
            item: dict[str, Any] = {"seat": str(seat), "card": str(placed.card)}
            if not placed.face_up:
                item["down"] = True
            item["player"] = placed.player
            seats.append(item)
        data: dict[str, Any] = {
            "seats": seats,
            "shields": [list(stack) for stack in state.shields],
            "hands": [[str(c) for c in hand or ()] for hand in state.hands],
            "hand_sizes": list(state.hand_sizes),
            "to_move": state.to_move,
        }
        if state.layout != default_layout(state.num_players):
            data["layout"] = state.layout.to_json()
        return Position(self.name, data, self.rules_json(state.num_players))

    # --- claims --------------------------------------------------------------------

    def claimability(self, state: State) -> list[ClaimAnswer]:
        """Nothing: Clans and Glory has no claims."""
        return []

    def describe_verdict(self, state: State, verdict: ClaimVerdict) -> dict[str, Any]:
        """No evidence: Clans and Glory has no claims, so no claim is ever refused."""
        return {}

    # --- matches ---------------------------------------------------------------------

    def match_result(
        self, match: Match, finals: Sequence[State]
    ) -> tuple[dict[str, Any] | None, str | None]:
        """No score: Clans and Glory has no matches, which is the problem reported."""
        return None, f"{self.title} has no matches"

    def random_match(self, seed: int, rules: Mapping[str, Any]) -> Match:
        """A RecordError: Clans and Glory has no matches."""
        raise RecordError(f"{self.title} has no matches", "", "rules.rounds")

    # --- demo ----------------------------------------------------------------------

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        """A random legal game dealt from ``seed`` (see :func:`random_playout`) as a full record."""
        players = self.players_of(rules)
        start = new_game(players=players, seed=seed)
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


_POSITION_FIELDS = ("seats", "shields", "hands", "hand_sizes", "to_move", "layout")


class _PositionReader:
    """Reads a position's fields, collecting every problem before refusing."""

    def __init__(self, players: int, where: str) -> None:
        self.players = players
        self.where = where
        self.problems: list[tuple[str, str]] = []
        #: Whether a problem left out part of the position, so the rest cannot be judged.
        self.blocked = False

    def problem(self, field: str, message: str, *, blocking: bool = True) -> None:
        self.problems.append((field, message))
        self.blocked = self.blocked or blocking

    def refuse(self) -> RecordError:
        if len(self.problems) == 1:
            field, message = self.problems[0]
            return RecordError(message, self.where, field)
        listed = "; ".join(f"{field or 'position'}: {message}" for field, message in self.problems)
        return RecordError(
            f"{len(self.problems)} problems: {listed}", self.where, self.problems[0][0]
        )

    def card(self, value: object, field: str) -> Card | None:
        if not isinstance(value, str):
            self.problem(field, f"expected a card like 'R7', not {value!r}")
            return None
        try:
            return CLAN_CARDS.parse(value)
        except InvalidCardError as error:
            self.problem(field, str(error))
            return None

    def read(self, data: Mapping[str, Any]) -> State:
        players = self.players
        unknown = sorted(str(k) for k in data if k not in _POSITION_FIELDS)
        for name in unknown:
            self.problem(
                name, f"unknown field (known: {', '.join(_POSITION_FIELDS)})", blocking=False
            )
        layout = default_layout(players)
        if "layout" in data:
            try:
                layout = Layout.from_json(data["layout"])
            except InvalidDealError as error:
                raise RecordError(str(error), self.where, "layout") from None
        tableaus = setup_for(players).tableaus
        if layout.tableaus != tableaus:
            raise RecordError(
                f"{players} players play on {tableaus} tableaus, not {layout.tableaus}",
                self.where,
                "layout",
            )
        table = self.seats(data.get("seats"), layout)
        shields = self.shields(data.get("shields"), layout)
        hands = self.hands(data)
        to_move = data.get("to_move")
        if to_move is not None and (
            isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < players
        ):
            self.problem("to_move", f"expected a player 0-{players - 1}, not {to_move!r}")
            to_move = None
        if self.blocked:
            raise self.refuse()
        placed = sum(1 for p in table if p is not None and p.player is not None)
        # Derived: whose turn it is, and which cards were removed at set-up.
        if to_move is None:
            to_move = placed % players
        seen = {p.card for p in table if p is not None}.union(*hands)
        removed = tuple(c for c in setup_for(players).deck() if c not in seen)
        deal = self.deal(layout, table, hands, removed)
        try:
            state = State(
                num_players=players,
                layout=layout,
                deal=deal,
                removed=removed,
                table=tuple(table),
                hands=tuple(hands),
                shields=tuple(shields),
                to_move=to_move,
            )
        except InvalidStateError as error:
            self.problem("", str(error))
            raise self.refuse() from None
        for message in state.status():
            self.problem("", message)
        if self.problems:
            raise self.refuse()
        return state

    def seats(self, value: object, layout: Layout) -> list[Placed | None]:
        table: list[Placed | None] = [None] * len(layout.seats)
        if not isinstance(value, list):
            self.problem("seats", "expected an array of occupied seats")
            return table
        for i, item in enumerate(value):
            at = f"seats[{i}]"
            if not isinstance(item, dict):
                self.problem(at, "expected an object with 'seat', 'card' and 'player'")
                continue
            extra = sorted(str(k) for k in item if k not in ("seat", "card", "player", "down"))
            if extra:
                self.problem(f"{at}.{extra[0]}", "unknown field (known: seat, card, player, down)")
            try:
                seat = Seat.parse(item.get("seat"))  # type: ignore[arg-type]
            except InvalidMoveError as error:
                self.problem(f"{at}.seat", str(error))
                continue
            if seat not in layout:
                self.problem(f"{at}.seat", f"there is no seat {seat} on this table")
                continue
            if "card" not in item:
                self.problem(
                    f"{at}.card", "missing: every card on the table is needed, face-down ones too"
                )
                continue
            card = self.card(item["card"], f"{at}.card")
            player = item.get("player")
            if player is not None and (
                isinstance(player, bool)
                or not isinstance(player, int)
                or not 0 <= player < self.players
            ):
                self.problem(
                    f"{at}.player",
                    f"expected a player 0-{self.players - 1} (null for a start card), not {player!r}",
                )
                continue
            down = item.get("down", False)
            if not isinstance(down, bool):
                self.problem(f"{at}.down", f"expected true or false, not {down!r}")
                continue
            if table[layout.index(seat)] is not None:
                self.problem(f"{at}.seat", f"seat {seat} is listed twice")
                continue
            if card is not None:
                table[layout.index(seat)] = Placed(card, player, face_up=not down)
        return table

    def shields(self, value: object, layout: Layout) -> list[tuple[int, ...]]:
        empty: list[tuple[int, ...]] = [()] * layout.tableaus
        if value is None:
            return empty
        if not isinstance(value, list) or len(value) != layout.tableaus:
            self.problem("shields", f"expected {layout.tableaus} stacks, one per tableau")
            return empty
        stacks: list[tuple[int, ...]] = []
        for i, stack in enumerate(value):
            if not isinstance(stack, list) or not all(
                isinstance(p, int) and not isinstance(p, bool) and 0 <= p < self.players
                for p in stack
            ):
                self.problem(
                    f"shields[{i}]",
                    f"expected the owners (players 0-{self.players - 1}) of a stack",
                )
                stack = []
            stacks.append(tuple(stack))
        owners = [p for stack in stacks for p in stack]
        for player in range(self.players):
            if owners.count(player) > SHIELDS_PER_PLAYER:
                self.problem(
                    "shields",
                    f"player {player + 1} has {owners.count(player)} shields out, "
                    f"but only {SHIELDS_PER_PLAYER}",
                )
        return stacks

    def hands(self, data: Mapping[str, Any]) -> list[tuple[Card, ...]]:
        if "hands" not in data:
            self.problem("hands", _NEEDS_HANDS)
            return [()] * self.players
        value = data["hands"]
        if not isinstance(value, list) or len(value) != self.players:
            self.problem("hands", f"expected {self.players} hands, one per player")
            return [()] * self.players
        hands: list[tuple[Card, ...]] = []
        for p, hand in enumerate(value):
            if not isinstance(hand, list):
                self.problem(f"hands[{p}]", "expected an array of cards")
                hands.append(())
                continue
            cards = [self.card(t, f"hands[{p}][{i}]") for i, t in enumerate(hand)]
            hands.append(tuple(sorted((c for c in cards if c is not None), key=CLAN_CARDS.as_pair)))
        sizes = data.get("hand_sizes")
        if sizes is not None and sizes != [len(h) for h in value if isinstance(h, list)]:
            self.problem("hand_sizes", f"{sizes!r} disagrees with the hands", blocking=False)
        return hands

    def deal(
        self,
        layout: Layout,
        table: list[Placed | None],
        hands: list[tuple[Card, ...]],
        removed: tuple[Card, ...],
    ) -> tuple[Card, ...]:
        """A deck order that deals this position: removed, start cards, then each
        player's hand as dealt (its cards on the table, then the ones it holds)."""
        starts = [table[layout.index(s)] for s in layout.start_seats]
        order = list(removed) + [p.card for p in starts if p is not None and p.card]
        for player, hand in enumerate(hands):
            order += [p.card for p in table if p and p.card and p.player == player]
            order += hand
        return tuple(order)


_NEEDS_HANDS = (
    "a Clans and Glory position needs every hand ('hands'): a card may go face down "
    "only when no card in the mover's hand fits, so the rules cannot run on hand "
    "sizes alone"
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


FORMAT = ClansAndGloryFormat()
#: mypy checks here that the format implements the whole protocol.
_PROTOCOL_CHECK: GameFormat[State] = FORMAT
