"""One game (or one Clanfehde or Rache match) played between bots: the referee's
side of the table, ply by ply, with the bots' time limits and faults.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.arena._bots import KEPT_LOGS, RESIGN, GameInfo, SeenMove, Session, Turn
from referee.arena._games import ArenaGame, compact_json, move_text
from referee.arena._process import BotFault
from referee.arena._seats import Seats, bot_seed, game_seed, seating
from referee.errors import RefereeError
from referee.records import Match, Record, replay

__all__ = [
    "ARENA_ENDS",
    "DEFAULT_MAX_PLIES",
    "DEFAULT_MOVE_TIME",
    "START_TIME",
    "GameResult",
    "game_of_match",
    "play_series",
]

#: The result reasons the arena adds to the games' own (``referee validate`` accepts them).
ARENA_ENDS = ("resignation", "timeout", "forfeit", "ply_limit")
#: A game longer than this many plies ends as ``ply_limit`` unless told otherwise.
DEFAULT_MAX_PLIES = 2000
#: Seconds a bot may think about one move unless told otherwise (``None``: no limit).
DEFAULT_MOVE_TIME = 10.0
#: Time a bot has to start, answer the handshake, and get ready for a game.
START_TIME = 10.0


@dataclass(frozen=True)
class GameResult:
    """One game played in the arena.

    ``seed`` is the deal's seed (the bots were given seeds of their own);
    ``names[s]`` is the bot in seat ``s``; ``points[s]`` its score (1 win, ½ a
    shared win or draw, 0 a loss); ``record`` the full record, which
    ``referee validate`` accepts; ``fault`` the offending seat's fault code
    when the game ended by ``timeout`` or ``forfeit``; ``logs`` what each seat
    logged (the first lines).
    """

    round: int
    seed: int
    names: tuple[str, ...]
    bots: tuple[int, ...]
    record: Record | Match
    points: tuple[float, ...]
    reason: str
    plies: int
    fault: str | None = None
    logs: tuple[tuple[str, ...], ...] = ()
    seconds: float = 0.0

    @property
    def winner(self) -> int | None:
        """The winning seat (``None`` for a draw, a shared win or a multi-player forfeit)."""
        result = self.record.result or {}
        winner = result.get("winner")
        return winner if isinstance(winner, int) else None


class _Game:
    """A game under way (the referee's side): the state, the moves, what each seat
    has seen; the source of its turns (a ``TurnSource``, see ``referee.arena._turns``)."""

    def __init__(self, adapter: ArenaGame, first: int, deal: dict[str, Any]) -> None:
        self.adapter = adapter
        self.first = first
        self.deal = deal
        self.state = adapter.start(first, deal)
        self.played: list[tuple[int, Any]] = []
        self.cursor = [0] * adapter.players
        self.view = adapter.view
        self.view_json = adapter.view_json
        self.view_text = adapter.view_text

    @property
    def moves(self) -> list[str]:
        return [move_text(move) for _, move in self.played]

    def play(self, move: Any) -> None:
        mover = self.state.to_move
        if isinstance(move, str):
            move = self.state.parse_move(move)
        self.state = self.state.play(move)
        self.played.append((mover, move))

    def unseen(self, seat: int) -> tuple[int, int]:
        """The plies ``seat`` has not been shown yet, as ``(start, end)``; marked
        shown (their visible form is worked out only if someone asks)."""
        start, end = self.cursor[seat], len(self.played)
        self.cursor[seat] = end
        return start, end

    def take_seen(self, seat: int) -> tuple[SeenMove, ...]:
        """The moves ``seat`` has not been shown yet (and mark them shown)."""
        return self.seen(seat, *self.unseen(seat))

    def seen(self, seat: int, start: int, end: int) -> tuple[SeenMove, ...]:
        visible = self.adapter.visible_text
        seen = tuple(
            SeenMove(ply, mover, visible(move, mover, seat))
            for ply, (mover, move) in enumerate(self.played[start:end], start=start + 1)
        )
        if self.adapter.reveals:
            seen = tuple(replace(s, reveals=self._revealed(seat, s.ply - 1)) for s in seen)
        return seen

    def _revealed(self, seat: int, index: int) -> SeenMove | None:
        """The earlier move ``seat`` learns in full with ply ``index + 1``, if any."""
        earlier = self.adapter.revealed(self.played, index, seat)
        if earlier is None:
            return None
        mover, move = self.played[earlier]
        return SeenMove(earlier + 1, mover, move_text(move))

    def seen_text(self, seat: int, start: int, end: int) -> str:
        if self.adapter.reveals:  # rare: written from the objects
            return ",".join(compact_json(s.to_json()) for s in self.seen(seat, start, end))
        visible = self.adapter.visible_json
        return ",".join(
            [
                f'{{"ply":{ply},"seat":{mover},"move":{visible(move, mover, seat)}}}'
                for ply, (mover, move) in enumerate(self.played[start:end], start=start + 1)
            ]
        )


class _Table:
    """The bots of one game at the table: a session per seat (``None`` once a seat's
    bot is dropped for a fault), the time each seat has used, and the fault that
    ended the game, if one did."""

    def __init__(
        self,
        adapter: ArenaGame,
        seats: Seats,
        order: tuple[int, ...],
        bot_seeds: Sequence[int],
        move_time: float | None,
        game_time: float | None,
    ) -> None:
        players = adapter.players
        self.name = adapter.name
        self.seats = seats
        self.order = order
        self.names = tuple(seats.names[i] for i in order)
        self.move_time = move_time
        self.game_time = game_time
        self.sessions: list[Session | None] = [None] * players
        self.used = [0.0] * players
        self.bot_rngs = [random.Random(bot_seeds[seat]) for seat in range(players)]
        # What a seat logged, kept when its bot is dropped for a fault (its last words
        # are often the best clue to what went wrong).
        self.dropped_logs: list[tuple[str, ...]] = [()] * players
        self.culprit: int | None = None
        self.fault: BotFault | None = None

    def fail(self, seat: int, error: BotFault) -> None:
        """Seat ``seat`` loses the game for ``error``: its bot is stopped at once."""
        self.culprit, self.fault = seat, error
        session = self.sessions[seat]
        if session is not None:
            self.dropped_logs[seat] = tuple(session.logs)
        self.seats.drop(self.order[seat], abort=True)
        self.sessions[seat] = None

    def begin(self, info: Callable[[int], GameInfo]) -> None:
        """Start (or reuse) every seat's bot and tell it the game (``info(seat)``)."""
        for seat, bot_index in enumerate(self.order):
            if self.fault is not None:
                break
            try:
                session = self.seats.get(bot_index)
                session.begin(info(seat), time.monotonic() + START_TIME)
                self.sessions[seat] = session
            except BotFault as error:
                self.fail(seat, error)

    def ask(self, game: _Game, state: Any, seat: int, legal: Sequence[Any], plies: int) -> Any:
        """The answer of the bot in ``seat`` to move at ``state`` (after ``plies``
        plies), within its time; after a fault, ``None`` and :attr:`fault` set."""
        session = self.sessions[seat]
        assert session is not None
        move_time, game_time = self.move_time, self.game_time
        if game_time is None:
            game_left, limit = None, move_time
        else:
            game_left = game_time - self.used[seat]
            limit = _limit(move_time, game_left)
        cursor = game.cursor
        start, cursor[seat] = cursor[seat], plies  # the plies the seat is shown now
        turn = Turn(
            self.name,
            seat,
            plies + 1,
            game,
            state,
            legal,
            (start, plies),
            game_left,
            self.bot_rngs[seat],
        )
        asked = time.monotonic()
        try:
            answer = session.ask(turn, None if limit is None else asked + limit)
        except BotFault as error:
            if error.is_timeout:
                error = BotFault("timeout", _timeout_detail(move_time, game_time, self.used[seat]))
            self.fail(seat, error)
            return None
        took = time.monotonic() - asked
        self.used[seat] += took
        if limit is not None and took > limit:
            used = self.used[seat] - took
            self.fail(seat, BotFault("timeout", _timeout_detail(move_time, game_time, used)))
            return None
        return answer

    def play(self, game: _Game, state: Any, seat: int, answer: Any) -> None:
        """Play the answer of the bot in ``seat`` at ``state``: a move's text or a
        move object (a fault when it is not a legal move)."""
        try:
            if type(answer) is str:
                game.play(answer)
            else:  # a move object (game.play, inlined)
                game.state = state.play(answer)
                game.played.append((seat, answer))
        except RefereeError as error:
            self.fail(seat, BotFault(error.reason, str(error)))
        except TypeError as error:
            self.fail(seat, BotFault("bad_message", f"not a move: {error}"))

    def finish(self, end: dict[str, Any], game: _Game) -> tuple[tuple[str, ...], ...]:
        """Tell every bot still in the game how it ended; what each seat logged."""
        for seat, still in enumerate(self.sessions):
            if still is not None:
                still.finish(end, game.take_seen(seat))
        return tuple(
            tuple(s.logs) if s is not None else self.dropped_logs[seat]
            for seat, s in enumerate(self.sessions)
        )


def _play(
    adapter: ArenaGame,
    seats: Seats,
    order: tuple[int, ...],
    *,
    seed: int,
    bot_seeds: Sequence[int],
    round: int,
    move_time: float | None,
    game_time: float | None,
    max_plies: int | None,
    ask_forced: bool,
    first: int | None = None,
) -> GameResult:
    """Play one game with bot ``order[s]`` in seat ``s`` on the deal of ``seed``,
    giving seat ``s`` the seed ``bot_seeds[s]``; never raises for a bot's fault."""
    began = time.perf_counter()
    rng = random.Random(seed)
    first, deal = adapter.deal(rng, first)
    game = _Game(adapter, first, deal)
    table = _Table(adapter, seats, order, bot_seeds, move_time, game_time)
    limits = (move_time, game_time, max_plies)
    table.begin(
        lambda seat: GameInfo(
            adapter.name,
            adapter.rules,
            seat,
            adapter.players,
            table.names,
            bot_seeds[seat],
            round,
            *limits,
            first,
        )
    )
    end = _plies(adapter, game, table, rng, max_plies, ask_forced)
    end, points = _end(adapter, game, table, end)
    logs = table.finish(end, game)
    record = replace(
        adapter.record(first, deal, game.moves),
        players=table.names,
        result=end,
        meta={
            "source": "referee match",
            "round": round,
            "seed": seed,
            "limits": {"move": move_time, "game": game_time, "plies": max_plies},
            **({"logs": [list(x) for x in logs]} if any(logs) else {}),
        },
    )
    return GameResult(
        round=round,
        seed=seed,
        names=table.names,
        bots=order,
        record=record,
        points=points,
        reason=str(end.get("reason")),
        plies=len(game.played),
        fault=None if table.fault is None else table.fault.fault,
        logs=logs,
        seconds=time.perf_counter() - began,
    )


def _plies(
    adapter: ArenaGame,
    game: _Game,
    table: _Table,
    rng: random.Random,
    max_plies: int | None,
    ask_forced: bool,
) -> dict[str, Any] | None:
    """Play the game on until it ends, a bot faults (:attr:`_Table.fault`) or it
    reaches ``max_plies``; the end the referee declares (the ply limit, a
    resignation), ``None`` for the others."""
    # The loop runs once a ply: what it needs is looked up once, before it.
    has_chance, legal_moves, played = adapter.has_chance, adapter.legal_moves, game.played
    ply_limit = float("inf") if max_plies is None else max_plies
    while table.fault is None and game.state.outcome is None:
        plies = len(played)
        if plies >= ply_limit:
            return {"winner": None, "reason": "ply_limit", "plies": plies}
        if has_chance:
            chance = adapter.chance(game.state, rng)
            if chance is not None:
                game.play(chance)
                continue
        state = game.state
        seat = state.to_move
        legal = legal_moves(state, rng)
        if len(legal) == 1 and not ask_forced:
            # A forced ply: the referee plays it (game.play, inlined).
            game.state = state.play(legal[0])
            played.append((seat, legal[0]))
            continue
        answer = table.ask(game, state, seat, legal, plies)
        if table.fault is not None:
            break
        if type(answer) is str and answer == RESIGN:
            return _loser_end(adapter.players, seat, "resignation")
        table.play(game, state, seat, answer)
    return None


def _end(
    adapter: ArenaGame, game: _Game, table: _Table, end: dict[str, Any] | None
) -> tuple[dict[str, Any], tuple[float, ...]]:
    """The game's result (the fault's, the referee's ``end``, or the game's own)
    and each seat's points."""
    players = adapter.players
    fault = table.fault
    if fault is not None:
        assert table.culprit is not None
        reason = "timeout" if fault.is_timeout else "forfeit"
        end = _loser_end(players, table.culprit, reason)
        end["fault"] = fault.fault
        end["detail"] = fault.detail
    if end is None:
        end = adapter.result_of(game.state)
        winners = adapter.winners(game.state)
        points = tuple(
            (1.0 if len(winners) == 1 else 0.5) if s in winners else (0.5 if not winners else 0.0)
            for s in range(players)
        )
    elif end["reason"] == "ply_limit":
        points = (0.5,) * players
    else:
        loser = end["loser"]
        points = tuple(
            0.0 if s == loser else (1.0 if players == 2 else 0.5) for s in range(players)
        )
    return end, points


def game_of_match(
    adapter: ArenaGame, seats: Seats, index: int, seed: int, **limits: Any
) -> GameResult:
    """Game ``index`` of a match seeded ``seed``: its seats, its deal and its bots'
    seeds come from the index and the seed alone (so it can be played anywhere,
    in any order)."""
    n = len(seats.bots)
    return play_series(
        adapter,
        seats,
        seating(index, n),
        seed=game_seed(seed, index // n),
        bots_from=(seed, index),
        round=index,
        **limits,
    )


def play_series(
    adapter: ArenaGame,
    seats: Seats,
    order: tuple[int, ...],
    *,
    seed: int,
    bots_from: tuple[int, int],
    round: int,
    **limits: Any,
) -> GameResult:
    """Play a match (Clanfehde, Rache) with the same bots in the same seats: the
    starting player (the attacker) drawn at random for the first game, then as
    the match's rules say (:meth:`ArenaGame.next_first`). A game
    the referee ends (resignation, timeout, forfeit, ply limit) ends the match
    with the same result. The bots' seeds are :func:`bot_seed` of ``bots_from``
    (a secret seed and a game index)."""
    secret, index = bots_from
    players = range(adapter.players)
    if adapter.rounds == 1:
        bot_seeds = [bot_seed(secret, index, s) for s in players]
        return _play(adapter, seats, order, seed=seed, bot_seeds=bot_seeds, round=round, **limits)
    first = random.Random(seed).randrange(2)
    games: list[GameResult] = []
    for number in range(adapter.rounds):
        game = _play(
            adapter,
            seats,
            order,
            seed=game_seed(seed, number),
            bot_seeds=[bot_seed(secret, index, s, number) for s in players],
            round=round,
            first=first,
            **limits,
        )
        games.append(game)
        first = adapter.next_first(first, game.winner)
        if game.reason in ARENA_ENDS:
            break
    # The match is one document: its games' logs share the budget of one game
    # (KEPT_LOGS lines per seat), so that it stays readable however many rounds.
    budget = [KEPT_LOGS] * adapter.players
    records = []
    for n, g in enumerate(games):
        if not isinstance(g.record, Record):  # pragma: no cover - games are records
            continue
        meta = dict(g.record.meta)
        if "logs" in meta:
            kept = [lines[: budget[s]] for s, lines in enumerate(meta["logs"])]
            budget = [b - len(lines) for b, lines in zip(budget, kept, strict=True)]
            if any(kept):
                meta["logs"] = kept
            else:
                del meta["logs"]
        meta["game"] = n + 1
        records.append(replace(g.record, rules=adapter.rules, meta=meta))
    last = games[-1]
    match = Match(adapter.name, tuple(records), adapter.rules, last.names)
    if last.reason in ARENA_ENDS:
        end = dict(last.record.result or {})
        for key in ("fault", "detail"):
            end.pop(key, None)
        points = last.points
    else:
        score: Any = getattr(adapter.format, "match_result")  # noqa: B009
        result, problem = score(match, [replay(r) for r in records])
        if problem is not None or result is None:  # pragma: no cover - a referee bug
            raise RuntimeError(f"the arena played an invalid match: {problem}")
        end = dict(result)
        winner = end.get("winner")
        points = tuple(
            0.5 if winner is None else float(seat == winner) for seat in range(adapter.players)
        )
    meta = {"source": "referee match", "round": round, "seed": seed}
    return GameResult(
        round=round,
        seed=seed,
        names=last.names,
        bots=order,
        record=replace(match, result=end, meta=meta),
        points=points,
        reason=str(end.get("reason")),
        plies=sum(g.plies for g in games),
        fault=last.fault,
        logs=last.logs,
        seconds=sum(g.seconds for g in games),
    )


def _limit(move_time: float | None, game_left: float | None) -> float | None:
    limits = [t for t in (move_time, game_left) if t is not None]
    return max(0.0, min(limits)) if limits else None


def _timeout_detail(move_time: float | None, game_time: float | None, used: float) -> str:
    if game_time is not None and (move_time is None or game_time - used <= move_time):
        return f"the bot used up its {game_time:g} s for the game"
    return f"no move within {move_time:g} s (the limit per move)"


def _loser_end(players: int, loser: int, reason: str) -> dict[str, Any]:
    winner = 1 - loser if players == 2 else None
    return {"winner": winner, "reason": reason, "loser": loser}
