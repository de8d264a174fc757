"""Playing games between bots: one game, or a match of many with seats rotated.

The entry points, with their arguments checked: :func:`play_game`,
:func:`match_game`, :func:`play_match` and :func:`iter_match`. How a game is
played is in :mod:`referee.arena._playing`; the seeds and the seating in
:mod:`referee.arena._seats`; how a match's games are handed out (to worker
threads too) in :mod:`referee.arena._pool`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import closing
from pathlib import Path
from typing import IO, Any

from referee.arena._bots import Bot, CommandBot, Turn, as_bot
from referee.arena._games import ArenaGame, arena_game
from referee.arena._limits import (
    MAX_GAMES,
    MAX_JOBS,
    MAX_PLY_LIMIT,
    MAX_SEED,
    check_count,
    check_seconds,
)
from referee.arena._playing import (
    ARENA_ENDS,
    DEFAULT_MAX_PLIES,
    DEFAULT_MOVE_TIME,
    GameResult,
    game_of_match,
    play_series,
)
from referee.arena._pool import MatchRun
from referee.arena._sandbox import Sandbox, SandboxUnavailable, sandbox_problem
from referee.arena._seats import Seats, bot_seed, game_seed, match_seed, seating
from referee.games import DEFAULT_GAME, find_game

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
    "match_seed",
    "play_game",
    "play_match",
    "seating",
]

#: Anything :func:`referee.arena.as_bot` accepts.
BotSpec = Bot | str | Sequence[str] | Callable[[Turn], Any]


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
        Seats(resolved, box),
        lambda seats: play_series(
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
        Seats(resolved, box),
        lambda seats: game_of_match(adapter, seats, index, seed, **limits),
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


def _alone(seats: Seats, play: Callable[[Seats], GameResult]) -> GameResult:
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
    match = MatchRun(adapter, resolved, box, seed, games, limits, on_game)
    return match.play(records, jobs)
