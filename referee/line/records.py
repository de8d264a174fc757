"""Records of games on a line (see :mod:`referee.records`): what every such
game's records adapter does the same way.

:class:`LineFormat` is the base of a game's adapter: results, records
written from a game played live, claim evidence as JSON, the final state of
a record. The module's functions read what every such record holds in the
same words (a player index) and play the random games of the demos.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from referee.cards import CardSet
from referee.game import Outcome, referee_result
from referee.prover import ClaimVerdict
from referee.records import Record, RecordError

__all__ = ["LineFormat", "player_index", "playout"]

_S = TypeVar("_S")
_M = TypeVar("_M")


class LineFormat(Generic[_S]):
    """The shared part of a records adapter for a game on a line.

    A game sets ``name``, ``title`` and ``cards`` (its :class:`CardSet`, for
    cards in evidence), and defines ``start``, ``rules_json`` and, when a full
    deal has more than its piles, :meth:`_deal_fields` and :meth:`_first`.
    """

    name: str
    title: str
    #: The game's cards (their text in claim evidence).
    cards: ClassVar[CardSet]
    #: Players claim stones (or tiles): ``referee claimable`` proves them.
    has_claims: ClassVar[bool] = True

    def start(self, record: Record) -> _S:
        """The state before the first move of ``record``."""
        raise NotImplementedError

    def rules_json(self, rules: Any) -> dict[str, Any]:
        """The ``rules`` object for a record."""
        raise NotImplementedError

    def _deal_fields(self, start: Any) -> dict[str, Any]:
        """The fields a full deal writes before its piles (none by default)."""
        return {}

    def _first(self, start: Any) -> int:
        """The record's ``first`` for a game that began at ``start``."""
        first: int = start.to_move
        return first

    def result_of(self, outcome: Outcome) -> dict[str, Any]:
        """The JSON result: winner index, reason, and the scores if compared."""
        data: dict[str, Any] = {"winner": outcome.winner, "reason": outcome.reason}
        if outcome.scores is not None:
            data["scores"] = list(outcome.scores)
        return data

    def record_of(
        self,
        start: Any,
        moves: Sequence[object],
        outcome: Outcome | None,
        *,
        public: bool = False,
    ) -> Record:
        """The record of a game played from ``start`` (see ``State.to_record``):
        full when the whole deal of ``start`` is known and ``public`` is false."""
        hands, deck = start.hands, start.deck
        deal: dict[str, Any] | None = None
        if not public and hands[0] is not None and hands[1] is not None and deck is not None:
            deal = {
                **self._deal_fields(start),
                "deck": [str(c) for c in (*hands[0], *hands[1], *deck)],
            }
            if start.rules.tactics and start.tactic_deck is not None:
                deal["tactics"] = [str(t) for t in start.tactic_deck]
        result = referee_result(outcome, len(moves), self.result_of)
        return Record(
            game=self.name,
            moves=tuple(str(m) for m in moves),
            rules=self.rules_json(start.rules),
            first=self._first(start),
            deal=deal,
            result=result,
        )

    def describe_verdict(self, state: _S, verdict: ClaimVerdict) -> dict[str, Any]:
        """The evidence of a verdict as JSON."""
        return verdict.to_json(self.cards)

    def _evidence(self, verdict: ClaimVerdict) -> str:
        """A verdict in words, with an example of a beating completion."""
        text = verdict.explain()
        witness = verdict.witness
        if witness is not None and witness.cards:
            text += ", e.g. with " + " ".join(str(self.cards.from_pair(p)) for p in witness.cards)
        return text

    def _final(self, record: Record) -> _S:
        """The state after every move of ``record``."""
        state: Any = self.start(record)
        for move in record.moves:
            state = state.play(move)
        final: _S = state
        return final


def player_index(value: Any, where: str, at: str) -> int:
    """A player index read from a record: 0 or 1 (never ``True``).

    >>> player_index(1, "game 3", "first")
    1
    >>> player_index(True, "game 3", "first")
    Traceback (most recent call last):
    ...
    referee.records.RecordError: game 3: field 'first': expected a player index 0 or 1, got True
    """
    if isinstance(value, bool) or value not in (0, 1):
        raise RecordError(f"expected a player index 0 or 1, got {value!r}", where, at)
    return int(value)


def playout(
    state: Any,
    rng: random.Random,
    max_plies: int,
    claim: type[_M],
    choose: Callable[[Sequence[Any], random.Random], _M] | None = None,
) -> list[_M]:
    """Moves of a random legal game from ``state``: the first provable claim
    (a move of type ``claim``) whenever there is one, otherwise ``choose``'s
    pick among the legal moves (by default, uniformly at random)."""
    moves: list[_M] = []
    while state.outcome is None and len(moves) < max_plies:
        legal = state.legal_moves()
        claims = [m for m in legal if isinstance(m, claim)]
        if claims:
            move: _M = claims[0]
        elif choose is None:
            move = rng.choice(legal)
        else:
            move = choose(legal, rng)
        moves.append(move)
        state = state.play(move)
    return moves
