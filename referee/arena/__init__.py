"""The arena: bots play each other under the referee.

Bots are programs that speak a JSON Lines protocol over their standard input
and output (see ``docs/arena.md``), or Python callables played in-process. The
referee deals, offers each seat its own view and legal moves, judges every
answer and every clock, and writes each game as a full record::

    >>> from referee.arena import play_match, random_bot, render_table, tally
    >>> results = play_match([random_bot, random_bot], "schotten-totten", games=2, seed=7)
    >>> [(r.bots, r.record.result["reason"]) for r in results]
    [((0, 1), 'three_adjacent'), ((1, 0), 'three_adjacent')]
    >>> print(render_table(tally(results, 2)).splitlines()[0].split()[:3])
    ['bot', 'games', 'wins']

A bot that breaks the rules (crashes, hangs, answers garbage or an illegal
move) loses that game by ``forfeit`` or ``timeout``, and the match goes on with
a fresh copy of it. Whatever a bot sends, the referee keeps a bounded amount
of it, and :func:`iter_match` plays a match of any length in constant memory;
every number a match takes has a limit (``MAX_GAMES``, ``MAX_JOBS``,
``MAX_SECONDS``, ``MAX_PLY_LIMIT``, ``MAX_SEED``). Bot programs run in a :class:`Sandbox` (bubblewrap) unless
told ``sandbox=False``; Python callables are trusted code, never sandboxed.
"""

from __future__ import annotations

from referee.arena._bots import (
    PROTOCOL,
    RESIGN,
    Bot,
    CallableBot,
    CommandBot,
    GameInfo,
    SeenMove,
    Turn,
    as_bot,
)
from referee.arena._games import ArenaGame, arena_game
from referee.arena._limits import MAX_GAMES, MAX_JOBS, MAX_PLY_LIMIT, MAX_SECONDS, MAX_SEED
from referee.arena._match import (
    ARENA_ENDS,
    DEFAULT_MAX_PLIES,
    DEFAULT_MOVE_TIME,
    BotSpec,
    GameResult,
    bot_seed,
    game_seed,
    iter_match,
    match_game,
    match_seed,
    play_game,
    play_match,
    seating,
)
from referee.arena._process import MAX_DETAIL_CHARS, BotFault, live_processes
from referee.arena._results import Standing, elo_difference, render_table, tally, wilson_interval
from referee.arena._sandbox import EXIT_NO_SANDBOX, Sandbox, SandboxUnavailable, sandbox_problem

__all__ = [
    "ARENA_ENDS",
    "DEFAULT_MAX_PLIES",
    "DEFAULT_MOVE_TIME",
    "EXIT_NO_SANDBOX",
    "MAX_DETAIL_CHARS",
    "MAX_GAMES",
    "MAX_JOBS",
    "MAX_PLY_LIMIT",
    "MAX_SECONDS",
    "MAX_SEED",
    "PROTOCOL",
    "RESIGN",
    "ArenaGame",
    "Bot",
    "BotFault",
    "BotSpec",
    "CallableBot",
    "CommandBot",
    "GameInfo",
    "GameResult",
    "Sandbox",
    "SandboxUnavailable",
    "SeenMove",
    "Standing",
    "Turn",
    "arena_game",
    "as_bot",
    "bot_seed",
    "elo_difference",
    "game_seed",
    "iter_match",
    "live_processes",
    "match_game",
    "match_seed",
    "play_game",
    "play_match",
    "random_bot",
    "render_table",
    "sandbox_problem",
    "seating",
    "tally",
    "wilson_interval",
]


def random_bot(turn: Turn) -> object:
    """An in-process bot that plays a uniformly random legal move.

    >>> from referee.arena import play_game
    >>> result = play_game([random_bot, random_bot], "clans-and-glory", seed=1)
    >>> result.plies, result.record.result
    (16, {'winner': 0, 'reason': 'most_points', 'scores': [53, 22]})
    """
    return turn.rng.choice(turn.legal_moves)
