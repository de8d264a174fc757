"""Playing games between bots: one game, or a match of many with seats rotated.

Seeds: a match has one secret seed (given, or drawn from the operating system).
Each deal's seed and each bot's seed for each game are drawn from it by a keyed
hash (BLAKE2b) under different labels, so a bot's seed tells nothing about any
deal to whoever does not know the match's seed. Mirrors: the games on one deal
(one per seat rotation) are played by different bot processes, and a deal's
records are written only once all its games are over.
"""

from __future__ import annotations

import hashlib
import os
import random
import secrets
import threading
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from referee.arena._bots import (
    KEPT_LOGS,
    RESIGN,
    Bot,
    CommandBot,
    GameInfo,
    SeenMove,
    Session,
    Turn,
    as_bot,
)
from referee.arena._games import ArenaGame, arena_game, compact_json, move_text
from referee.arena._limits import (
    MAX_GAMES,
    MAX_JOBS,
    MAX_PLY_LIMIT,
    MAX_SEED,
    check_count,
    check_seconds,
)
from referee.arena._process import BotFault
from referee.arena._sandbox import Sandbox, SandboxUnavailable, sandbox_problem
from referee.errors import RefereeError
from referee.games import DEFAULT_GAME, find_game
from referee.records import Match, Record, replay

__all__ = [
    "ARENA_ENDS",
    "DEFAULT_MAX_PLIES",
    "DEFAULT_MOVE_TIME",
    "BotSpec",
    "GameResult",
    "bot_seed",
    "game_seed",
    "iter_match",
    "match_game",
    "play_game",
    "play_match",
    "seating",
]

#: Anything :func:`referee.arena.as_bot` accepts.
BotSpec = Bot | str | Sequence[str] | Callable[[Turn], Any]

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


def _derive(seed: int, *label: object) -> int:
    """A 48-bit number drawn from ``seed`` for ``label`` by keyed BLAKE2b (a
    pseudo-random function): numbers for different labels are independent to
    whoever does not know ``seed``."""
    key = hashlib.blake2b(str(int(seed)).encode(), digest_size=32).digest()
    text = " ".join(str(part) for part in label).encode()
    return int.from_bytes(hashlib.blake2b(text, key=key, digest_size=6).digest(), "big")


def game_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of a match played with ``seed`` (the deal
    is ``random.Random(game_seed(seed, deal))``'s).

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    """
    return _derive(seed, "deal", deal)


def bot_seed(seed: int, index: int, seat: int, game: int = 0) -> int:
    """The seed the bot in ``seat`` is given for game ``index`` of a match played
    with ``seed`` (``game``: the game's number within a Clanfehde or Rache match).
    Drawn from ``seed`` under another label than the deals: knowing it tells
    nothing about any deal unless ``seed`` is known (or can be guessed).

    >>> bot_seed(0, 0, 0) != bot_seed(0, 0, 1) != game_seed(0, 0)
    True
    """
    return _derive(seed, "bot", index, game, seat)


def match_seed() -> int:
    """A fresh secret match seed (64 bits from the operating system).

    >>> match_seed() != match_seed()
    True
    """
    return secrets.randbits(64)


def seating(round: int, bots: int) -> tuple[int, ...]:
    """Which bot sits in each seat in round ``round`` (from 0): rotated every round, so
    each deal is played once from every seat.

    >>> seating(0, 2), seating(1, 2), seating(2, 3)
    ((0, 1), (1, 0), (2, 0, 1))
    """
    shift = round % bots
    return tuple((seat + shift) % bots for seat in range(bots))


class _Stopped(Exception):
    """The match was stopped (interrupted): no new bot is started."""


class _Seats:
    """One session per bot, started on demand, replaced after a fault. A match has
    one set per worker and seat rotation, so that a bot process never plays two
    games on the same deal."""

    def __init__(
        self,
        bots: Sequence[Bot],
        sandbox: Sandbox | None = None,
        hide: Sequence[str] = (),
        stop: threading.Event | None = None,
    ) -> None:
        self.bots = list(bots)
        self.sandbox = sandbox
        self.hide = tuple(hide)
        self.stop = stop
        self.sessions: list[Session | None] = [None] * len(bots)
        # Names as the results show them: a name given twice gets a number.
        given = [bot.name for bot in bots]
        self.names = [
            f"{name} #{given[:index].count(name) + 1}" if given.count(name) > 1 else name
            for index, name in enumerate(given)
        ]

    def get(self, index: int) -> Session:
        session = self.sessions[index]
        if session is None:
            if self.stop is not None and self.stop.is_set():
                raise _Stopped("the match was stopped")
            session = self.bots[index].session(self.sandbox, self.hide)
            self.sessions[index] = session
        return session

    def drop(self, index: int, *, abort: bool = False) -> None:
        session = self.sessions[index]
        self.sessions[index] = None
        if session is not None:
            if abort:
                session.abort()
            else:
                session.close()

    def close(self, *, abort: bool = False) -> None:
        for index in range(len(self.sessions)):
            self.drop(index, abort=abort)

    def interrupt(self) -> None:
        """Kill every running bot now (from another thread: the match is aborted)."""
        for session in list(self.sessions):
            if session is not None:
                session.interrupt()


class _Game:
    """A game under way (the referee's side): the state, the moves, what each seat
    has seen; the source of its turns (:class:`~referee.arena.TurnSource`)."""

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
        seats: _Seats,
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
    seats: _Seats,
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


def _game_of_match(
    adapter: ArenaGame, seats: _Seats, index: int, seed: int, **limits: Any
) -> GameResult:
    """Game ``index`` of a match seeded ``seed``: its seats, its deal and its bots'
    seeds come from the index and the seed alone (so it can be played anywhere,
    in any order)."""
    n = len(seats.bots)
    return _play_series(
        adapter,
        seats,
        seating(index, n),
        seed=game_seed(seed, index // n),
        bots_from=(seed, index),
        round=index,
        **limits,
    )


def _play_series(
    adapter: ArenaGame,
    seats: _Seats,
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


def play_game(
    bots: Sequence[BotSpec],
    game: str = DEFAULT_GAME,
    *,
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    round: int = 0,
    move_time: float | None = DEFAULT_MOVE_TIME,
    game_time: float | None = None,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    ask_forced: bool = False,
    sandbox: bool | Sandbox = True,
) -> GameResult:
    """Play one game with ``bots[s]`` in seat ``s``, starting and stopping the bots.

    Self-contained (for running games on other machines): the deal comes from
    ``seed`` alone (the bots' seeds too, by :func:`bot_seed` of ``seed`` and
    ``round``: keep ``seed`` secret from the bots), and every bot process is gone
    when it returns. Bot programs run in ``sandbox`` (``True``: the default
    :class:`~referee.arena.Sandbox`; ``False``: none, for trusted bots).

    >>> from referee.arena import play_game, random_bot
    >>> result = play_game([random_bot, random_bot], "schotten-totten", seed=3)
    >>> result.reason in ("three_adjacent", "five_stones", "blocked"), result.points
    (True, (1.0, 0.0))
    """
    limits = _limits(move_time, game_time, max_plies, ask_forced)
    check_count("seed", seed, 0, MAX_SEED)
    check_count("round", round, 0, MAX_GAMES - 1)
    adapter = _adapter(game, rules, len(bots))
    resolved = [as_bot(b) for b in bots]
    box = _sandbox_for(resolved, sandbox)
    return _alone(
        _Seats(resolved, box),
        lambda seats: _play_series(
            adapter,
            seats,
            tuple(range(len(bots))),
            seed=seed,
            bots_from=(seed, round),
            round=round,
            **limits,
        ),
    )


def match_game(
    bots: Sequence[BotSpec],
    game: str = DEFAULT_GAME,
    index: int = 0,
    *,
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    move_time: float | None = DEFAULT_MOVE_TIME,
    game_time: float | None = None,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    ask_forced: bool = False,
    sandbox: bool | Sandbox = True,
) -> GameResult:
    """Game number ``index`` (from 0) of ``play_match(bots, game, seed=seed, ...)``,
    played on its own: same seats, same deal, same bot seeds, so deterministic
    bots play it the same (with fresh bot processes). The unit to hand to workers
    elsewhere; :func:`tally` adds the results up. Bot programs run in ``sandbox``
    on the machine that plays the game.

    >>> from referee.arena import match_game, play_match, random_bot
    >>> alone = match_game([random_bot, random_bot], "schotten-totten-2", 3, seed=5)
    >>> together = play_match([random_bot, random_bot], "schotten-totten-2", games=4, seed=5)
    >>> alone.bots, alone.record == together[3].record
    ((1, 0), True)
    """
    limits = _limits(move_time, game_time, max_plies, ask_forced)
    check_count("seed", seed, 0, MAX_SEED)
    check_count("index", index, 0, MAX_GAMES - 1)
    resolved = [as_bot(b) for b in bots]
    adapter = _adapter(game, rules, len(resolved))
    box = _sandbox_for(resolved, sandbox)
    return _alone(
        _Seats(resolved, box),
        lambda seats: _game_of_match(adapter, seats, index, seed, **limits),
    )


def _limits(move_time: Any, game_time: Any, max_plies: Any, ask_forced: Any) -> dict[str, Any]:
    """A game's limits, each checked (``ValueError`` naming the one out of bounds)."""
    return {
        "move_time": None if move_time is None else check_seconds("move_time", move_time),
        "game_time": None if game_time is None else check_seconds("game_time", game_time),
        "max_plies": None
        if max_plies is None
        else check_count("max_plies", max_plies, 1, MAX_PLY_LIMIT),
        "ask_forced": bool(ask_forced),
    }


def _alone(seats: _Seats, play: Callable[[_Seats], GameResult]) -> GameResult:
    """``play(seats)``, then stop the bots (at once if it was interrupted)."""
    try:
        result = play(seats)
    except BaseException:
        seats.close(abort=True)
        raise
    seats.close()
    return result


def _sandbox_for(bots: Sequence[Bot], sandbox: bool | Sandbox) -> Sandbox | None:
    """The match's sandbox (``None``: none), once it is known that every bot program
    that needs it can have it here (:class:`~referee.arena.SandboxUnavailable`)."""
    if not isinstance(sandbox, (bool, Sandbox)):
        raise ValueError(f"sandbox must be True, False or a Sandbox, not {sandbox!r}")
    box = Sandbox() if sandbox is True else (sandbox or None)
    confined = [b for b in bots if isinstance(b, CommandBot) and b.confinement(box) is not None]
    if confined:
        problem = sandbox_problem()
        if problem is not None:
            raise SandboxUnavailable(problem)
    return box


def _adapter(game: str, rules: Mapping[str, Any] | None, bots: int) -> ArenaGame:
    rules = dict(rules or {})
    fewest, most = find_game(game).players
    if fewest != most:  # the number of players is a rule: one per bot unless given
        rules.setdefault("players", bots)
    adapter = arena_game(game, rules)
    if adapter.players != bots:
        raise ValueError(
            f"{adapter.players} players sit at {game!r} under these rules, but {bots} bots "
            "were given (give one bot per seat)"
        )
    return adapter


def play_match(
    bots: Sequence[BotSpec],
    game: str = DEFAULT_GAME,
    *,
    games: int = 2,
    rules: Mapping[str, Any] | None = None,
    seed: int | None = None,
    jobs: int = 1,
    move_time: float | None = DEFAULT_MOVE_TIME,
    game_time: float | None = None,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    ask_forced: bool = False,
    records: str | Path | IO[str] | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    sandbox: bool | Sandbox = True,
) -> list[GameResult]:
    """Play ``games`` games between ``bots`` (one per seat) and return them in order.

    Seats rotate every game and each deal is played once from every seat
    (game ``i`` uses deal ``i // len(bots)``, with the bots shifted by ``i``
    seats). The deals and the bots' seeds come from ``seed``, the match's
    secret (``None``: a fresh one from the operating system, :func:`match_seed`;
    a seed a bot's author can guess gives the deals away). Each seat rotation
    has bot processes of its own (and each of the ``jobs`` workers its own), so
    no bot process plays two games on the same deal. Bot programs run in
    ``sandbox`` (``True``: the default :class:`~referee.arena.Sandbox`;
    ``False``: none, for trusted bots only). ``records`` receives every game's
    full record as a JSON line, in game order, each deal's games once all of
    them are over (and the file is hidden from the bots); ``on_game`` is
    called as each game ends (in any order).

    Every result is kept (with its record, about 6 kB a game): for a long match
    use :func:`iter_match`, which hands them over one by one and keeps none.
    Every number is checked first (``ValueError`` past its limit:
    ``MAX_GAMES``, ``MAX_JOBS``, ``MAX_SECONDS``, ``MAX_PLY_LIMIT``, ``MAX_SEED``).

    >>> from referee.arena import play_match, random_bot, tally
    >>> results = play_match([random_bot, random_bot], "schotten-totten", games=4, seed=1)
    >>> [r.bots for r in results]
    [(0, 1), (1, 0), (0, 1), (1, 0)]
    >>> [s.games for s in tally(results, 2)]
    [4, 4]
    """
    stream = iter_match(
        bots,
        game,
        games=games,
        rules=rules,
        seed=seed,
        jobs=jobs,
        move_time=move_time,
        game_time=game_time,
        max_plies=max_plies,
        ask_forced=ask_forced,
        records=records,
        on_game=on_game,
        sandbox=sandbox,
    )
    with closing(stream):
        return list(stream)


def iter_match(
    bots: Sequence[BotSpec],
    game: str = DEFAULT_GAME,
    *,
    games: int = 2,
    rules: Mapping[str, Any] | None = None,
    seed: int | None = None,
    jobs: int = 1,
    move_time: float | None = DEFAULT_MOVE_TIME,
    game_time: float | None = None,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    ask_forced: bool = False,
    records: str | Path | IO[str] | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    sandbox: bool | Sandbox = True,
) -> Generator[GameResult, None, None]:
    """:func:`play_match`, handing the results over one by one and keeping none.

    The same games, records and results as :func:`play_match` with the same
    arguments, yielded in game order as soon as every game on their deal is
    over (and its records are written). The referee keeps only the games under
    way and, with ``jobs`` workers, at most ``(2 × jobs + 1) × len(bots)``
    finished results not yet taken (the workers wait for the caller beyond
    that), so its memory stays flat over a match of any length: add the
    results up as they come (:func:`~referee.arena.tally` reads an iterator).

    The arguments are checked at once, when it is called (``ValueError``,
    :class:`~referee.arena.SandboxUnavailable`); the games are played as the
    results are asked for. Closing the iterator early (``break`` out of a
    ``for`` loop over it within ``contextlib.closing``, or ``.close()``) stops
    the match: every bot is killed, and the records file keeps the deals
    written so far.

    >>> from referee.arena import iter_match, random_bot, tally
    >>> stream = iter_match([random_bot, random_bot], "schotten-totten", games=5, seed=1)
    >>> [s.games for s in tally(stream, 2)]
    [5, 5]
    """
    check_count("games", games, 0, MAX_GAMES)
    check_count("jobs", jobs, 1, MAX_JOBS)
    if seed is not None:
        check_count("seed", seed, 0, MAX_SEED)
    limits = _limits(move_time, game_time, max_plies, ask_forced)
    writes = callable(getattr(records, "write", None))
    if not (records is None or isinstance(records, (str, Path)) or writes):
        raise ValueError(f"records must be a path or a text file, not {records!r:.60}")
    resolved = [as_bot(b) for b in bots]
    adapter = _adapter(game, rules, len(resolved))
    box = _sandbox_for(resolved, sandbox)
    if seed is None:
        seed = match_seed()
    match = _Match(adapter, resolved, box, seed, games, limits, on_game)
    return match.play(records, jobs)


class _Match:
    """A match being played: what every worker needs, and the records file."""

    def __init__(
        self,
        adapter: ArenaGame,
        bots: list[Bot],
        box: Sandbox | None,
        seed: int,
        games: int,
        limits: dict[str, Any],
        on_game: Callable[[GameResult], None] | None,
    ) -> None:
        self.adapter = adapter
        self.bots = bots
        self.box = box
        self.seed = seed
        self.games = games
        self.limits = limits
        self.on_game = on_game
        self.rotations = len(bots)
        self.hide: tuple[str, ...] = ()
        self.out: IO[str] | None = None

    def play(
        self, records: str | Path | IO[str] | None, jobs: int
    ) -> Generator[GameResult, None, None]:
        with _output(records) as out:
            self.out = out
            self.hide = _paths_of(records, out)
            if jobs == 1:
                yield from self._alone()
            else:
                yield from self._workers(jobs)

    def _game(self, seats: _Seats, index: int) -> GameResult:
        return _game_of_match(self.adapter, seats, index, self.seed, **self.limits)

    def _write(self, results: Sequence[GameResult]) -> None:
        if self.out is not None:
            for result in results:
                self.out.write(result.record.dumps() + "\n")
            self.out.flush()

    def _alone(self) -> Iterator[GameResult]:
        """The games one after the other, in this thread."""
        pools: dict[int, _Seats] = {}  # one set of bot processes per seat rotation
        deal: list[GameResult] = []
        aborted = True
        try:
            for index in range(self.games):
                seats = pools.get(index % self.rotations)
                if seats is None:
                    seats = pools[index % self.rotations] = _Seats(self.bots, self.box, self.hide)
                result = self._game(seats, index)
                if self.on_game is not None:
                    self.on_game(result)
                deal.append(result)
                if len(deal) == self.rotations or index == self.games - 1:
                    # A deal's records are written once every game on it is over.
                    self._write(deal)
                    done, deal = deal, []
                    yield from done
            aborted = False
        finally:  # also when the caller stops early, or an interrupt comes
            for seats in pools.values():
                seats.close(abort=aborted)

    def _workers(self, jobs: int) -> Iterator[GameResult]:
        """The games played by ``jobs`` threads, each with its own bots; the
        results handed over in order (see :class:`_Pool`)."""
        pool = _Pool(self, jobs)
        # Each worker says when it is done, bots stopped: a Thread.join that a
        # KeyboardInterrupt broke may return early the next time.
        done = [threading.Event() for _ in range(jobs)]
        started: list[threading.Event] = []
        try:
            for flag in done:
                threading.Thread(target=pool.run, args=(flag,), daemon=True).start()
                started.append(flag)
            while (ready := pool.ready()) is not None:
                yield from ready
                del ready
        except BaseException as error:  # interrupted, or the caller stopped: stop every bot now
            pool.abort(error)
            for flag in started:
                flag.wait()
            raise
        for flag in started:
            flag.wait()
        if pool.errors:
            raise pool.errors[0]


class _Pool:
    """The worker threads of a match and what they share, under ``lock``: the
    games given out, the results finished, written and handed over. A worker
    takes a game only while fewer than ``window`` games separate it from the
    next result to hand over."""

    def __init__(self, match: _Match, jobs: int) -> None:
        self.match = match
        self.window = (2 * jobs + 1) * match.rotations
        self.lock = threading.Condition()
        self.finished: dict[int, GameResult] = {}
        self.taken = self.written = self.handed = 0  # games given out, written, handed over
        self.errors: list[BaseException] = []
        self.everyone: list[_Seats] = []  # every worker's bots, to stop them all on an abort
        self.stop = threading.Event()

    def run(self, finished_flag: threading.Event) -> None:
        """A worker thread: play games while there are any, then set ``finished_flag``."""
        try:
            self._work()
        finally:
            finished_flag.set()

    def _work(self) -> None:
        pools: dict[int, _Seats] = {}  # one set of bot processes per seat rotation
        aborted = False
        try:
            while (index := self._take()) is not None:
                result = self.match._game(self._seats(pools, index), index)
                if not self._done(index, result):
                    return
        except BaseException as error:  # a referee bug or an interrupt: stop the others
            aborted = True
            with self.lock:
                self.errors.append(error)
                self.lock.notify_all()
        finally:
            for seats in pools.values():
                seats.close(abort=aborted or bool(self.errors))

    def _take(self) -> int | None:
        """The next game to play, once the window lets it (``None``: no more)."""
        games = self.match.games
        with self.lock:
            while (
                not self.errors and self.taken < games and self.taken >= self.handed + self.window
            ):
                self.lock.wait()
            if self.errors or self.taken >= games:
                return None
            index, self.taken = self.taken, self.taken + 1
            return index

    def _seats(self, pools: dict[int, _Seats], index: int) -> _Seats:
        """This worker's bots for the seat rotation of game ``index``."""
        rotation = index % self.match.rotations
        seats = pools.get(rotation)
        if seats is None:
            match = self.match
            seats = _Seats(match.bots, match.box, match.hide, self.stop)
            with self.lock:
                self.everyone.append(seats)
            pools[rotation] = seats
        return seats

    def _done(self, index: int, result: GameResult) -> bool:
        """Keep the result of game ``index`` and write the deals now complete
        (``False``: the match was stopped during this game, which does not count)."""
        with self.lock:
            if self.errors:
                return False
            self.finished[index] = result
            if self.match.on_game is not None:
                self.match.on_game(result)
            self._write_deals()
            self.lock.notify_all()
        return True

    def _write_deals(self) -> None:
        """Write every deal whose games are all finished, in order (holding the lock)."""
        games, rotations = self.match.games, self.match.rotations
        while self.written < games:
            end = min(games, (self.written // rotations + 1) * rotations)
            if any(k not in self.finished for k in range(self.written, end)):
                break
            self.match._write([self.finished[k] for k in range(self.written, end)])
            self.written = end

    def ready(self) -> list[GameResult] | None:
        """The results to hand over next, in order, once there are any (``None``:
        the match is over, or stopped)."""
        with self.lock:
            while not self.errors and self.handed == self.written < self.match.games:
                self.lock.wait()
            if self.errors or self.handed >= self.match.games:
                return None
            ready = [self.finished.pop(k) for k in range(self.handed, self.written)]
            self.handed = self.written
            self.lock.notify_all()
        return ready

    def abort(self, error: BaseException) -> None:
        """Stop the match for ``error``: no new game or bot, every running bot killed."""
        with self.lock:
            self.errors.append(error)
            self.stop.set()
            stopping = list(self.everyone)
            self.lock.notify_all()
        for seats in stopping:
            seats.interrupt()


def _paths_of(target: str | Path | IO[str] | None, out: IO[str] | None) -> tuple[str, ...]:
    """The file the records go to, when it has a name (to hide it from the bots)."""
    if isinstance(target, (str, Path)):
        return (os.path.abspath(target),)
    name = getattr(out, "name", None)
    return (os.path.abspath(name),) if isinstance(name, str) and os.path.exists(name) else ()


@contextmanager
def _output(target: str | Path | IO[str] | None) -> Iterator[IO[str] | None]:
    if target is None or not isinstance(target, (str, Path)):
        yield target
        return
    with open(target, "w", encoding="utf-8") as handle:
        yield handle
