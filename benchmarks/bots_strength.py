"""Strength of the reference bots (referee.bots): mcts against greedy, greedy against random.

Run from the repository root::

    python benchmarks/bots_strength.py                    # 20 games a pairing, 0.5 s a move
    python benchmarks/bots_strength.py --games 40 --core 1
    python benchmarks/bots_strength.py --iterations 600   # a fixed budget instead of a clock
    python benchmarks/bots_strength.py --quick            # 2 games a pairing, 20 iterations

Every pairing is a match in the arena (:func:`referee.arena.play_match`, bots
in-process, seats rotated so that every deal is played once from every seat:
mirrored deals), in every game: Schotten Totten base and tactics, Schotten
Totten 2 base and tactics, Clans and Glory with 2, 3 and 4 players. At 3 and 4
players the bot under test sits against copies of its opponent.

For each pairing it prints the games, the first bot's wins, its score rate
(1 a win, ½ a shared win) with the 95% Wilson interval, and the Elo difference
that rate implies with its interval (``referee.arena``'s ``wilson_interval``
and ``elo_difference``); at 3-4 players also the *pairwise* rate: in each game,
against each opponent, 1 if the bot finished ahead (won where the opponent did
not, or the higher score), ½ level, 0 behind (pairs within one game are not
independent: its interval is optimistic). Beside mcts against greedy stands the
goal: at least 70% (pairwise at 3-4 players) at 0.5 s a move on one core.
The clock of mcts's time budget is the process's CPU time
(``time.process_time``), so that a machine shared with other work gives it the
same thinking time; ``--core N`` pins the process to core N (the bots play in
this process).
``--game LABEL`` (repeatable) keeps only the games so labelled (``"schotten-totten tactics"``).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.arena import GameResult, elo_difference, play_match, tally, wilson_interval
from referee.bots import MCTS, greedy_bot, random_bot
from referee.bots._adapter import TurnBot

#: The games measured: (label, game, record rules).
GAMES: list[tuple[str, str, dict[str, Any]]] = [
    ("schotten-totten", "schotten-totten", {}),
    ("schotten-totten tactics", "schotten-totten", {"variants": ["tactics"]}),
    ("schotten-totten-2", "schotten-totten-2", {}),
    ("schotten-totten-2 tactics", "schotten-totten-2", {"variants": ["tactics"]}),
    ("clans-and-glory 2p", "clans-and-glory", {"players": 2}),
    ("clans-and-glory 3p", "clans-and-glory", {"players": 3}),
    ("clans-and-glory 4p", "clans-and-glory", {"players": 4}),
]
GOAL = 0.70


class Counted:
    """An MCTS bot that remembers how many iterations each search ran."""

    def __init__(self, bot: MCTS) -> None:
        self.bot = bot
        self.__name__ = bot.__name__
        self.searches: list[int] = []

    def __call__(self, turn: Any) -> Any:
        move = self.bot(turn)
        if self.bot.last_iterations:
            self.searches.append(self.bot.last_iterations)
        return move


@dataclass
class Row:
    label: str
    pairing: str
    games: int
    wins: int
    rate: float
    low: float
    high: float
    pairwise: tuple[float, float, float] | None
    goal: bool
    iterations: float | None
    seconds: float


def pairwise(results: Sequence[GameResult], bot: int = 0) -> tuple[float, int]:
    """Bot ``bot``'s score against each opponent, game by game, and the number of pairs."""
    score, pairs = 0.0, 0
    for result in results:
        seat = result.bots.index(bot)
        end = result.record.result or {}
        scores = end.get("scores") or [0] * len(result.bots)
        mine = (result.points[seat], scores[seat])
        for other in range(len(result.bots)):
            if other == seat:
                continue
            theirs = (result.points[other], scores[other])
            score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            pairs += 1
    return score, pairs


def measure(
    label: str,
    game: str,
    rules: dict[str, Any],
    first: TurnBot,
    second: TurnBot,
    args: argparse.Namespace,
) -> Row:
    players = rules.get("players", 2)
    games = -(-args.games // players) * players  # whole rotations: mirrored deals
    bots = [first] + [second] * (players - 1)
    began = time.perf_counter()
    move_time = None if args.seconds is None else args.seconds * 4 + 5
    results = play_match(
        bots, game, rules=rules, games=games, seed=args.seed, sandbox=False, move_time=move_time
    )
    took = time.perf_counter() - began
    standing = tally(results, players)[0]
    names = f"{standing.name} vs {'greedy' if second is greedy_bot else 'random'}"
    if players > 2:
        names += f" x{players - 1}"
    pair = None
    if players > 2:
        score, pairs = pairwise(results)
        rate = score / pairs
        low, high = wilson_interval(rate, pairs)
        pair = (rate, low, high)
    searches = getattr(first, "searches", None)
    return Row(
        label,
        names,
        standing.games,
        standing.wins,
        standing.rate,
        standing.rate_low,
        standing.rate_high,
        pair,
        isinstance(first, Counted),
        sum(searches) / len(searches) if searches else None,
        took,
    )


def elo(rate: float, low: float, high: float) -> str:
    def one(value: float) -> str:
        value = elo_difference(value)
        if value > 800:
            return ">+800"
        if value < -800:
            return "<-800"
        return f"{value:+.0f}"

    return f"{one(rate)} ({one(low)}, {one(high)})"


def render(rows: Sequence[Row]) -> str:
    lines = [
        "| game | pairing | games | wins | score (95% CI) | Elo (95% CI) | pairwise (95% CI) | goal | iterations a search |",
        "|---|---|---:|---:|---|---|---|---|---:|",
    ]
    for r in rows:
        rate = f"{r.rate:.0%} ({r.low:.0%}-{r.high:.0%})"
        if r.pairwise is None:
            shown, judged = "-", (r.rate, r.low, r.high)
        else:
            shown = f"{r.pairwise[0]:.0%} ({r.pairwise[1]:.0%}-{r.pairwise[2]:.0%})"
            judged = r.pairwise
        goal = "-"
        if r.goal:
            goal = f"≥ {GOAL:.0%}: " + ("met" if judged[0] >= GOAL else "missed")
        its = "-" if r.iterations is None else f"{r.iterations:.0f}"
        lines.append(
            f"| {r.label} | {r.pairing} | {r.games} | {r.wins} | {rate} | {elo(*judged)} | "
            f"{shown} | {goal} | {its} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a pairing (default 20)")
    parser.add_argument(
        "--seconds-per-move", dest="seconds", type=float, default=0.5, help="mcts's clock a move"
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="mcts's iterations a move instead of a clock"
    )
    parser.add_argument("--quick", action="store_true", help="2 games a pairing, 20 iterations")
    parser.add_argument("--seed", type=int, default=2025, help="the matches' seed")
    parser.add_argument("--core", type=int, default=None, help="pin to this core")
    parser.add_argument("--game", action="append", default=[], help="only games labelled so")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.iterations = 2, 20
    if args.iterations is not None:
        args.seconds = None
    if args.core is not None:
        os.sched_setaffinity(0, {args.core})
    budget = (
        f"{args.iterations} iterations a move"
        if args.iterations is not None
        else f"{args.seconds:g} s of CPU time a move"
    )
    print(
        f"# {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, load {os.getloadavg()[0]:.2f}, mcts at {budget}",
        flush=True,
    )
    rows = []
    for label, game, rules in GAMES:
        if args.game and label not in args.game:
            continue
        mcts = Counted(
            MCTS(iterations=args.iterations, seconds=args.seconds, clock=time.process_time)
        )
        for first, second in ((mcts, greedy_bot), (greedy_bot, random_bot)):
            row = measure(label, game, rules, first, second, args)
            rows.append(row)
            print(render([row]).splitlines()[-1], f" ({row.seconds:.0f} s)", flush=True)
    print()
    print(render(rows))
    print(f"\n# load at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
