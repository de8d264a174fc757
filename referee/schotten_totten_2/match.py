"""Rache: a two-game Schotten Totten 2 match with the roles swapped.

The match is one immutable value that plays like a game: the moves of the
first game, then ``next game``, then the moves of the second. It is decided as
the rulebook says: a player who wins both games wins the match; if both won
as attackers, the one whose win left more cards in the siege deck wins; if
both won as defenders, the one with more intact tiles plus unused oil wins;
equal scores need a further game (``winner`` is ``None``).

>>> match = new_match(seed=3)
>>> match.number, match.to_move, match.game.attacker, match.second.attacker
(1, 0, 0, 1)
>>> decide([GameResult(0, 0, "fourth_tile_damaged", 20, 3, 1),
...         GameResult(1, 1, "controlled_damaged_tile", 12, 2, 0)])
Outcome(winner=0, reason='attacker_left_more_cards', scores=(20, 12))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from referee.errors import IllegalMoveError
from referee.game import Outcome
from referee.prover import ClaimVerdict, Engine
from referee.schotten_totten_2.moves import Move, NextGame, parse_move
from referee.schotten_totten_2.state import Reason, Rules, State, new_game, public_game

__all__ = ["GameResult", "Match", "decide", "new_match", "public_match"]


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
    unused oil of each player's defending win.
    """
    first, second = results
    if first.winner == second.winner:
        return Outcome(first.winner, "won_both")
    scores = [0, 0]
    for result in results:
        if result.attacker_won:
            scores[result.winner] = result.deck_left
        else:
            scores[result.winner] = result.intact_tiles + result.oil_left
    reason = "attacker_left_more_cards" if first.attacker_won else "defender_kept_more_wall_and_oil"
    pair = (scores[0], scores[1])
    if scores[0] == scores[1]:
        return Outcome(None, "further_game_needed", pair)
    return Outcome(0 if scores[0] > scores[1] else 1, reason, pair)


@dataclass(frozen=True, slots=True)
class Match:
    """A Rache match: ``game`` is the game under way (or just finished),
    ``second`` the starting position of the second game, ``number`` 1 or 2.
    """

    game: State
    second: State
    number: int = 1
    results: tuple[GameResult, ...] = ()
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        if self.second.attacker != 1 - self.game.attacker and self.number == 1:
            raise ValueError("the second game of a Rache match swaps the roles")

    @property
    def rules(self) -> Rules:
        """The rules both games are played with."""
        return self.game.rules

    @property
    def to_move(self) -> int:
        """The player to move (the second game's attacker between the games)."""
        if self.number == 1 and self.game.outcome is not None:
            return self.second.to_move
        return self.game.to_move

    def view(self, player: int) -> Match:
        """What ``player`` can see of the match."""
        return Match(
            self.game.view(player),
            self.second.view(player),
            self.number,
            self.results,
            self.outcome,
        )

    def claim_verdict(self, number: int, *, engine: Engine = "exact") -> ClaimVerdict:
        """The verdict on the current game's attacker declaring control of tile ``number``."""
        return self.game.claim_verdict(number, engine=engine)

    def parse_move(self, text: str) -> Move:
        """Read a move (``next game`` included)."""
        return parse_move(text)

    def legal_moves(self) -> list[Move]:
        """Every legal move: the game's, or ``next game`` between the games."""
        if self.outcome is not None:
            return []
        if self.game.outcome is not None:
            return [NextGame()]
        return self.game.legal_moves()

    def play(self, move: Move | str) -> Match:
        """The match after ``move`` (refused moves raise and change nothing)."""
        if isinstance(move, str):
            move = parse_move(move)
        if self.outcome is not None:
            raise _illegal(move, Reason.GAME_OVER, "the match is over")
        if isinstance(move, NextGame):
            if self.game.outcome is None:
                raise _illegal(move, Reason.GAME_IN_PROGRESS, "the first game is not over yet")
            return Match(self.second, self.second, 2, self.results)
        if self.game.outcome is not None:
            raise _illegal(
                move,
                Reason.NEXT_GAME_NEEDED,
                "the first game is over: start the second with 'next game'",
            )
        after = self.game.play(move)
        if after.outcome is None:
            return Match(after, self.second, self.number, self.results)
        results = (*self.results, GameResult.of(after))
        outcome = decide(results) if self.number == 2 else None
        return Match(after, self.second, self.number, results, outcome)

    def __str__(self) -> str:
        lines = [f"Rache match - game {self.number} of 2"]
        for number, result in enumerate(self.results, start=1):
            role = "attacker" if result.attacker_won else "defender"
            lines.append(
                f"game {number}: player {result.winner + 1} won as {role} ({result.reason}); "
                f"deck {result.deck_left}, intact tiles {result.intact_tiles}, "
                f"oil left {result.oil_left}"
            )
        if self.outcome is not None:
            won = (
                "a further game is needed"
                if self.outcome.winner is None
                else f"player {self.outcome.winner + 1} wins the match"
            )
            lines.append(f"match over: {won} ({self.outcome.reason})")
        return "\n".join([*lines, str(self.game)])


def new_match(*, seed: int | None = None, attacker: int = 0, rules: Rules | None = None) -> Match:
    """A match of two shuffled games; ``attacker`` attacks in the first."""
    rng = random.Random(seed)
    first = new_game(seed=rng.randrange(2**32), attacker=attacker, rules=rules)
    second = new_game(seed=rng.randrange(2**32), attacker=1 - attacker, rules=rules)
    return Match(first, second)


def public_match(*, attacker: int = 0, rules: Rules | None = None) -> Match:
    """A match whose deals are unknown (for public records)."""
    return Match(
        public_game(attacker=attacker, rules=rules),
        public_game(attacker=1 - attacker, rules=rules),
    )


def _illegal(move: Move, reason: str, why: str) -> IllegalMoveError:
    return IllegalMoveError(reason, f"illegal move {str(move)!r}: {why}")
