"""The results table: wins, losses, draws, score, win rate with a 95% interval, Elo."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.arena._match import GameResult

__all__ = ["Standing", "elo_difference", "render_table", "tally", "wilson_interval"]

_Z = 1.959963984540054  # the 97.5% quantile of the standard normal


@dataclass(frozen=True)
class Standing:
    """One bot's results over a match.

    ``score`` counts 1 per win and ½ per draw; ``rate`` is ``score / games``
    with its 95% (Wilson) interval ``rate_low``-``rate_high``; ``elo`` is the
    rating difference that rate implies against the other bots (±inf for a
    perfect or a null score) with the interval's bounds; ``faults`` counts the
    games it lost by timeout or forfeit.
    """

    name: str
    games: int
    wins: int
    losses: int
    draws: int
    score: float
    rate: float
    rate_low: float
    rate_high: float
    elo: float
    elo_low: float
    elo_high: float
    faults: int


def wilson_interval(rate: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate observed over ``games`` games.

    >>> low, high = wilson_interval(0.5, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson_interval(0.0, 0)
    (0.0, 1.0)
    >>> wilson_interval(0.0, 6)[0], wilson_interval(1.0, 6)[1]
    (0.0, 1.0)
    """
    if games == 0:
        return 0.0, 1.0
    z2 = _Z * _Z
    centre = (rate + z2 / (2 * games)) / (1 + z2 / games)
    half = _Z * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    # At a rate of exactly 0 or 1 the bound is exactly 0 or 1 (no rounding noise).
    return (0.0 if rate <= 0.0 else low), (1.0 if rate >= 1.0 else high)


def elo_difference(rate: float) -> float:
    """The Elo rating difference implied by an expected score ``rate``.

    >>> round(elo_difference(0.75)), elo_difference(0.5), elo_difference(1.0)
    (191, 0.0, inf)
    """
    if rate <= 0.0:
        return -math.inf
    if rate >= 1.0:
        return math.inf
    return 0.0 - 400.0 * math.log10(1.0 / rate - 1.0)


def tally(results: Iterable[GameResult], bots: int) -> list[Standing]:
    """One :class:`Standing` per bot (in the order the bots were given).

    ``results`` is read once, result by result, and none is kept: a stream of
    them (:func:`~referee.arena.iter_match`) is added up in constant memory."""
    names = [""] * bots
    wins = [0] * bots
    losses = [0] * bots
    draws = [0] * bots
    faults = [0] * bots
    for result in results:
        for seat, bot in enumerate(result.bots):
            names[bot] = names[bot] or result.names[seat]
            points = result.points[seat]
            if points == 1.0:
                wins[bot] += 1
            elif points == 0.0:
                losses[bot] += 1
            else:
                draws[bot] += 1
            end = result.record.result or {}
            if result.fault is not None and end.get("loser") == seat:
                faults[bot] += 1
    standings = []
    for bot in range(bots):
        games = wins[bot] + losses[bot] + draws[bot]
        score = wins[bot] + draws[bot] / 2
        rate = score / games if games else 0.5
        low, high = wilson_interval(rate, games)
        standings.append(
            Standing(
                names[bot] or f"bot {bot + 1}",
                games,
                wins[bot],
                losses[bot],
                draws[bot],
                score,
                rate,
                low,
                high,
                elo_difference(rate),
                elo_difference(low),
                elo_difference(high),
                faults[bot],
            )
        )
    return standings


def _elo(value: float) -> str:
    """An Elo difference for people. A win rate of 0% or 100% (or its interval's
    end) implies an infinite difference, and beyond ±800 (a 99% expected score)
    the number says little more: both are written as a bound, ``<-800`` (below
    -800) or ``>+800`` (above +800), as short as the table's column.

    >>> _elo(191.4), _elo(-math.inf), _elo(math.inf), _elo(-920.0)
    ('+191', '<-800', '>+800', '<-800')
    """
    if value < -_ELO_BOUND:
        return f"<-{_ELO_BOUND}"
    if value > _ELO_BOUND:
        return f">+{_ELO_BOUND}"
    return f"{value:+.0f}"


#: Elo differences beyond this are written as "<-800" or ">+800".
_ELO_BOUND = 800


def render_table(standings: Sequence[Standing]) -> str:
    """The results as a text table (Elo against the other bots of the match).

    >>> print(render_table([Standing("a", 4, 3, 1, 0, 3.0, .75, .3, .95, 191, -147, 512, 0)]))
    bot  games  wins  losses  draws  score  win rate (95% CI)      Elo (95% CI)       faults
    a        4     3       1      0    3.0  75.0% (30.0%-95.0%)    +191 (-147, +512)       0
    """
    width = max([3, *(len(s.name) for s in standings)])
    lines = [
        f"{'bot':<{width}}  games  wins  losses  draws  score  win rate (95% CI)      "
        "Elo (95% CI)       faults"
    ]
    for s in standings:
        rate = f"{s.rate:.1%} ({s.rate_low:.1%}-{s.rate_high:.1%})"
        elo = f"{_elo(s.elo)} ({_elo(s.elo_low)}, {_elo(s.elo_high)})"
        lines.append(
            f"{s.name:<{width}}  {s.games:>5}  {s.wins:>4}  {s.losses:>6}  {s.draws:>5}  "
            f"{s.score:>5.1f}  {rate:<21}  {elo:<17}  {s.faults:>5}"
        )
    return "\n".join(lines)
