"""Playing games between bots: one game, or a match of many with seats rotated."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from referee.arena._bots import (
    RESIGN,
    Bot,
    GameInfo,
    SeenMove,
    Session,
    Turn,
    as_bot,
)
from referee.arena._games import ArenaGame, arena_game, move_text
from referee.arena._process import BotFault
from referee.errors import RefereeError
from referee.records import Match, Record, replay

__all__ = [
    "ARENA_ENDS",
    "DEFAULT_MAX_PLIES",
    "DEFAULT_MOVE_TIME",
    "BotSpec",
    "GameResult",
    "game_seed",
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


def game_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of a match played with ``seed``.

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    """
    return random.Random(seed * 1_000_003 + deal).getrandbits(48)


def seating(round: int, bots: int) -> tuple[int, ...]:
    """Which bot sits in each seat in round ``round`` (from 0): rotated every round, so
    each deal is played once from every seat.

    >>> seating(0, 2), seating(1, 2), seating(2, 3)
    ((0, 1), (1, 0), (2, 0, 1))
    """
    shift = round % bots
    return tuple((seat + shift) % bots for seat in range(bots))


class _Seats:
    """The sessions of one worker: one per bot, started on demand, replaced after a fault."""

    def __init__(self, bots: Sequence[Bot]) -> None:
        self.bots = list(bots)
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
            session = self.bots[index].session()
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

    def close(self) -> None:
        for index in range(len(self.sessions)):
            self.drop(index)


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
        return tuple(
            SeenMove(ply, mover, visible(move, mover, seat))
            for ply, (mover, move) in enumerate(self.played[start:end], start=start + 1)
        )

    def seen_text(self, seat: int, start: int, end: int) -> str:
        visible = self.adapter.visible_json
        return ",".join(
            [
                f'{{"ply":{ply},"seat":{mover},"move":{visible(move, mover, seat)}}}'
                for ply, (mover, move) in enumerate(self.played[start:end], start=start + 1)
            ]
        )


def _play(
    adapter: ArenaGame,
    seats: _Seats,
    order: tuple[int, ...],
    *,
    seed: int,
    round: int,
    move_time: float | None,
    game_time: float | None,
    max_plies: int | None,
    ask_forced: bool,
    first: int | None = None,
) -> GameResult:
    """Play one game with bot ``order[s]`` in seat ``s``; never raises for a bot's fault."""
    began = time.perf_counter()
    players = adapter.players
    rng = random.Random(seed)
    first, deal = adapter.deal(rng, first)
    game = _Game(adapter, first, deal)
    used = [0.0] * players
    bot_rngs = [random.Random(seed * 31 + 7 * seat + 1) for seat in range(players)]
    names = [seats.names[i] for i in order]
    sessions: list[Session | None] = [None] * players
    end: dict[str, Any] | None = None
    culprit: int | None = None
    fault: BotFault | None = None

    def fail(seat: int, error: BotFault) -> None:
        nonlocal culprit, fault
        culprit, fault = seat, error
        seats.drop(order[seat], abort=True)
        sessions[seat] = None

    # Start (or reuse) every seat's bot and tell it the game.
    for seat, bot_index in enumerate(order):
        if fault is not None:
            break
        try:
            session = seats.get(bot_index)
            info = GameInfo(
                adapter.name,
                adapter.rules,
                seat,
                players,
                tuple(names),
                seed,
                round,
                move_time,
                game_time,
                max_plies,
            )
            session.begin(info, time.monotonic() + START_TIME)
            sessions[seat] = session
        except BotFault as error:
            fail(seat, error)

    # The loop runs once a ply: what it needs is looked up once, before it.
    has_chance, legal_moves, played = adapter.has_chance, adapter.legal_moves, game.played
    name, cursor, monotonic = adapter.name, game.cursor, time.monotonic
    ply_limit = float("inf") if max_plies is None else max_plies
    while fault is None and game.state.outcome is None:
        plies = len(played)
        if plies >= ply_limit:
            end = {"winner": None, "reason": "ply_limit", "plies": plies}
            break
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
        session = sessions[seat]
        assert session is not None
        if game_time is None:
            game_left, limit = None, move_time
        else:
            game_left = game_time - used[seat]
            limit = _limit(move_time, game_left)
        start, cursor[seat] = cursor[seat], plies  # the plies the seat is shown now
        turn = Turn(
            name, seat, plies + 1, game, state, legal, (start, plies), game_left, bot_rngs[seat]
        )
        asked = monotonic()
        try:
            answer = session.ask(turn, None if limit is None else asked + limit)
        except BotFault as error:
            if error.is_timeout:
                error = BotFault("timeout", _timeout_detail(move_time, game_time, used[seat]))
            fail(seat, error)
            break
        took = monotonic() - asked
        used[seat] += took
        if limit is not None and took > limit:
            fail(
                seat, BotFault("timeout", _timeout_detail(move_time, game_time, used[seat] - took))
            )
            break
        if type(answer) is str and answer == RESIGN:
            end = _loser_end(players, seat, "resignation")
            break
        try:
            if type(answer) is str:
                game.play(answer)
            else:  # a move object (game.play, inlined)
                game.state = state.play(answer)
                played.append((seat, answer))
        except RefereeError as error:
            fail(seat, BotFault(error.reason, str(error)))
            break
        except TypeError as error:
            fail(seat, BotFault("bad_message", f"not a move: {error}"))
            break

    if fault is not None:
        assert culprit is not None
        reason = "timeout" if fault.is_timeout else "forfeit"
        end = _loser_end(players, culprit, reason)
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
    # Tell every bot still in the game how it ended.
    for seat, still in enumerate(sessions):
        if still is not None:
            still.finish(end, game.take_seen(seat))
    logs = tuple(tuple(s.logs) if s is not None else () for s in sessions)
    record = replace(
        adapter.record(first, deal, game.moves),
        players=tuple(names),
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
        names=tuple(names),
        bots=order,
        record=record,
        points=points,
        reason=str(end.get("reason")),
        plies=len(game.played),
        fault=None if fault is None else fault.fault,
        logs=logs,
        seconds=time.perf_counter() - began,
    )


def _game_of_match(
    adapter: ArenaGame, seats: _Seats, index: int, seed: int, **limits: Any
) -> GameResult:
    """Game ``index`` of a match seeded ``seed``: its seats and its deal come from
    the index and the seed alone (so it can be played anywhere, in any order)."""
    n = len(seats.bots)
    return _play_series(
        adapter, seats, seating(index, n), seed=game_seed(seed, index // n), round=index, **limits
    )


def _play_series(
    adapter: ArenaGame,
    seats: _Seats,
    order: tuple[int, ...],
    *,
    seed: int,
    round: int,
    **limits: Any,
) -> GameResult:
    """Play a match (Clanfehde, Rache) with the same bots in the same seats: the
    starting player (the attacker) alternates from a random first one. A game
    the referee ends (resignation, timeout, forfeit, ply limit) ends the match
    with the same result."""
    if adapter.rounds == 1:
        return _play(adapter, seats, order, seed=seed, round=round, **limits)
    opener = random.Random(seed).randrange(2)
    games: list[GameResult] = []
    for number in range(adapter.rounds):
        game = _play(
            adapter,
            seats,
            order,
            seed=game_seed(seed, number),
            round=round,
            first=(opener + number) % 2,
            **limits,
        )
        games.append(game)
        if game.reason in ARENA_ENDS:
            break
    records = tuple(
        replace(g.record, rules=adapter.rules, meta={**g.record.meta, "game": n + 1})
        for n, g in enumerate(games)
        if isinstance(g.record, Record)
    )
    last = games[-1]
    match = Match(adapter.name, records, adapter.rules, last.names)
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
    game: str = "schotten-totten",
    *,
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    round: int = 0,
    move_time: float | None = DEFAULT_MOVE_TIME,
    game_time: float | None = None,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    ask_forced: bool = False,
) -> GameResult:
    """Play one game with ``bots[s]`` in seat ``s``, starting and stopping the bots.

    Self-contained (for running games on other machines): the deal comes from
    ``seed`` alone, and every bot process is gone when it returns.

    >>> from referee.arena import play_game, random_bot
    >>> result = play_game([random_bot, random_bot], "schotten-totten", seed=3)
    >>> result.reason in ("three_adjacent", "five_stones", "blocked"), result.points
    (True, (1.0, 0.0))
    """
    adapter = _adapter(game, rules, len(bots))
    seats = _Seats([as_bot(b) for b in bots])
    try:
        return _play_series(
            adapter,
            seats,
            tuple(range(len(bots))),
            seed=seed,
            round=round,
            move_time=move_time,
            game_time=game_time,
            max_plies=max_plies,
            ask_forced=ask_forced,
        )
    finally:
        seats.close()


def match_game(
    bots: Sequence[BotSpec],
    game: str = "schotten-totten",
    index: int = 0,
    *,
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    move_time: float | None = DEFAULT_MOVE_TIME,
    game_time: float | None = None,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    ask_forced: bool = False,
) -> GameResult:
    """Game number ``index`` (from 0) of ``play_match(bots, game, seed=seed, ...)``,
    played on its own: same seats, same deal, so deterministic bots play it the
    same. The unit to hand to workers elsewhere; :func:`tally` adds the results up.

    >>> from referee.arena import match_game, play_match, random_bot
    >>> alone = match_game([random_bot, random_bot], "schotten-totten-2", 3, seed=5)
    >>> together = play_match([random_bot, random_bot], "schotten-totten-2", games=4, seed=5)
    >>> alone.bots, alone.record == together[3].record
    ((1, 0), True)
    """
    resolved = [as_bot(b) for b in bots]
    adapter = _adapter(game, rules, len(resolved))
    seats = _Seats(resolved)
    try:
        return _game_of_match(
            adapter,
            seats,
            index,
            seed,
            move_time=move_time,
            game_time=game_time,
            max_plies=max_plies,
            ask_forced=ask_forced,
        )
    finally:
        seats.close()


def _adapter(game: str, rules: Mapping[str, Any] | None, bots: int) -> ArenaGame:
    rules = dict(rules or {})
    if game == "clans-and-glory":
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
    game: str = "schotten-totten",
    *,
    games: int = 2,
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    jobs: int = 1,
    move_time: float | None = DEFAULT_MOVE_TIME,
    game_time: float | None = None,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    ask_forced: bool = False,
    records: str | Path | IO[str] | None = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games between ``bots`` (one per seat) and return them in order.

    Seats rotate every game and each deal is played once from every seat
    (game ``i`` uses deal ``i // len(bots)``); deal seeds come from ``seed``.
    ``jobs`` games are played at once, each worker with bot processes of its
    own. ``records`` receives every game's full record as a JSON line, in game
    order; ``on_game`` is called as each game ends (in any order).

    >>> from referee.arena import play_match, random_bot, tally
    >>> results = play_match([random_bot, random_bot], "schotten-totten", games=4, seed=1)
    >>> [r.bots for r in results]
    [(0, 1), (1, 0), (0, 1), (1, 0)]
    >>> [s.games for s in tally(results, 2)]
    [4, 4]
    """
    if games < 0:
        raise ValueError(f"the number of games must be 0 or more, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more, not {jobs}")
    resolved = [as_bot(b) for b in bots]
    adapter = _adapter(game, rules, len(resolved))
    results: dict[int, GameResult] = {}
    lock = threading.Lock()
    next_game = iter(range(games))
    written = 0
    errors: list[BaseException] = []

    with _output(records) as out:

        def flush() -> None:
            nonlocal written
            while written in results:
                if out is not None:
                    out.write(results[written].record.dumps() + "\n")
                written += 1
            if out is not None:
                out.flush()

        def worker() -> None:
            seats = _Seats(resolved)
            try:
                while True:
                    with lock:
                        if errors:
                            return
                        index = next(next_game, None)
                    if index is None:
                        return
                    result = _game_of_match(
                        adapter,
                        seats,
                        index,
                        seed,
                        move_time=move_time,
                        game_time=game_time,
                        max_plies=max_plies,
                        ask_forced=ask_forced,
                    )
                    with lock:
                        results[index] = result
                        if on_game is not None:
                            on_game(result)
                        flush()
            except BaseException as error:  # a referee bug: stop the others, report it
                with lock:
                    errors.append(error)
            finally:
                seats.close()

        if jobs == 1:
            worker()
        else:
            threads = [threading.Thread(target=worker, daemon=True) for _ in range(jobs)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        if errors:
            raise errors[0]
    return [results[i] for i in range(games)]


@contextmanager
def _output(target: str | Path | IO[str] | None) -> Iterator[IO[str] | None]:
    if target is None or not isinstance(target, (str, Path)):
        yield target
        return
    with open(target, "w", encoding="utf-8") as handle:
        yield handle
