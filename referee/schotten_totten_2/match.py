"""Rache: a two-game Schotten Totten 2 match with the roles swapped.

Each game is played and recorded on its own (a ``referee-match/1`` document
holds both, see :mod:`referee.schotten_totten_2.record`); this module decides
the match from the two finished games as the rulebook says: a player who wins
both games wins the match; if both won as attackers, the one whose win left
more cards in the siege deck wins; if both won as defenders, the one with more
intact tiles plus unused oil wins; equal scores need a further game
(``winner`` is ``None``).

>>> decide([GameResult(0, 0, "fourth_tile_damaged", 20, 3, 1),
...         GameResult(1, 1, "controlled_damaged_tile", 12, 2, 0)])
Outcome(Termination.ATTACKER_LEFT_MORE_CARDS, winner=0, scores=(20, 12))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from referee.game import Outcome, Termination
from referee.schotten_totten_2.state import State

__all__ = ["FURTHER_GAME_NEEDED", "GameResult", "decide"]

#: Games in a Rache match.
_GAMES = 2
#: The reason of a match whose two games leave the players level.
FURTHER_GAME_NEEDED = "further_game_needed"


class GameResult(NamedTuple):
    """What the Rache comparison needs from one finished game."""

    attacker: int
    winner: int
    reason: str
    deck_left: int
    intact_tiles: int
    oil_left: int

    @classmethod
    def of(cls, state: State) -> GameResult:
        """The result of a finished game."""
        if state.outcome is None or state.outcome.winner is None:
            raise ValueError("the game is not over")
        return cls(
            state.attacker,
            state.outcome.winner,
            state.outcome.reason,
            state.deck_size,
            state.intact_tiles(),
            state.oil,
        )

    @property
    def attacker_won(self) -> bool:
        """Whether the attacker won this game."""
        return self.winner == self.attacker


def decide(results: Sequence[GameResult]) -> Outcome:
    """The match outcome of two games played with the roles swapped.

    ``scores`` (per player) are the compared numbers when the games were split:
    cards left in the deck of each player's attacking win, or intact tiles plus
    unused oil of each player's defending win. Two results with the same
    attacker, or any number of results but two, are refused:

    >>> decide([GameResult(0, 0, "fourth_tile_damaged", 20, 3, 1)] * 2)
    Traceback (most recent call last):
    ...
    ValueError: both games were attacked by player 1: the second game of a Rache match swaps the roles
    >>> decide([GameResult(0, 0, "fourth_tile_damaged", 20, 3, 1)])
    Traceback (most recent call last):
    ...
    ValueError: a Rache match is decided from 2 game results, not 1
    """
    results = list(results) if not isinstance(results, (str, bytes)) else [results]
    if len(results) != _GAMES:
        raise ValueError(f"a Rache match is decided from {_GAMES} game results, not {len(results)}")
    for number, result in enumerate(results, start=1):
        if not isinstance(result, GameResult):
            raise ValueError(f"game {number}: expected a GameResult, not {result!r}")
        for name in ("attacker", "winner"):
            value = getattr(result, name)
            if isinstance(value, bool) or value not in (0, 1):
                raise ValueError(f"game {number}: {name} must be 0 or 1, not {value!r}")
    first, second = results
    if first.attacker == second.attacker:
        raise ValueError(
            f"both games were attacked by player {first.attacker + 1}: "
            "the second game of a Rache match swaps the roles"
        )
    if first.winner == second.winner:
        return Outcome(Termination.WON_BOTH, first.winner)
    scores = [0, 0]
    for result in results:
        if result.attacker_won:
            scores[result.winner] = result.deck_left
        else:
            scores[result.winner] = result.intact_tiles + result.oil_left
    reason = "attacker_left_more_cards" if first.attacker_won else "defender_kept_more_wall_and_oil"
    pair = (scores[0], scores[1])
    if scores[0] == scores[1]:
        return Outcome(Termination.FURTHER_GAME_NEEDED, None, pair)
    return Outcome(Termination(reason), 0 if scores[0] > scores[1] else 1, pair)
