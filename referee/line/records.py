"""Records of games on a line (see :mod:`referee.records`): what every such
game's records adapter does the same way.

:class:`LineFormat` is the base of a game's adapter: results, records
written from a game played live, claim evidence as JSON, the final state of
a record. The module's functions read what every such record holds in the
same words (a player index) and play the random games of the demos.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, ClassVar, Generic, TypeVar

from referee.cards import CardSet
from referee.game import Outcome, check_player, check_seed, referee_result
from referee.line.moves import Claim
from referee.line.plain import OwnedPlace, PlainGame, PlainRules
from referee.prover import ClaimVerdict
from referee.records import ClaimAnswer, Match, Position, Record, RecordError

__all__ = ["LineFormat", "PlainFormat", "player_index", "playout", "read_phase", "refuse_unknown"]

_S = TypeVar("_S")
_M = TypeVar("_M")
_P = TypeVar("_P", bound=Enum)


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

    def claim_answers(
        self, state: _S, claims: Iterable[tuple[int, int, Any]], noun: str
    ) -> list[ClaimAnswer]:
        """What ``referee claimable`` says of each ``(number, player, place)``
        of ``claims``: an incomplete side, or the prover's verdict on the
        claim (``state.claim_verdict``) with its evidence; ``noun`` names the
        places ("stone", "tile")."""
        answers = []
        for number, player, place in claims:
            label = f"{noun} {number}"
            have, size = len(place.sides[player]), place.rule.size
            if have < size:
                why = f"formation incomplete ({have} of {size} cards)"
                answers.append(ClaimAnswer(number, player, None, why, label=label))
                continue
            verdict: ClaimVerdict = state.claim_verdict(number, player=player)  # type: ignore[attr-defined]
            evidence = self.describe_verdict(state, verdict)
            answers.append(
                ClaimAnswer(number, player, verdict.holds, self._evidence(verdict), evidence, label)
            )
        return answers

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


def refuse_unknown(fields: Iterable[str], known: Collection[str], where: str, at: str = "") -> None:
    """Refuse the first of ``fields`` (by name) that is not ``known``; ``at``
    is the path to the object that holds them (``"stones[2]."``).

    >>> refuse_unknown(["sides", "colour"], {"sides", "owner"}, "a.json", "stones[2].")
    Traceback (most recent call last):
    ...
    referee.records.RecordError: a.json: field 'stones[2].colour': unknown field (known: owner, sides)
    """
    unknown = sorted(set(fields) - set(known))
    if unknown:
        names = ", ".join(sorted(known))
        raise RecordError(f"unknown field (known: {names})", where, at + unknown[0])


def read_phase(phases: type[_P], text: Any, where: str) -> _P:
    """A position's ``phase``: the member of the game's ``phases`` whose value is ``text``.

    >>> Phase = Enum("Phase", {"PLAY": "play", "AFTER_PLAY": "after_play"})
    >>> read_phase(Phase, "after_play", "")
    <Phase.AFTER_PLAY: 'after_play'>
    >>> read_phase(Phase, "lunch", "position 2")
    Traceback (most recent call last):
    ...
    referee.records.RecordError: position 2: field 'phase': expected a phase (play, after_play), got 'lunch'
    """
    try:
        return phases(text)
    except ValueError:
        names = ", ".join(str(p.value) for p in phases)
        raise RecordError(f"expected a phase ({names}), got {text!r}", where, "phase") from None


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


class PlainFormat(LineFormat[_S]):
    """The records of a plain game (:mod:`referee.line.plain`): no rules to
    choose, a full record's deal is ``{"deck": [every card]}``, a position
    holds each place's sides, completion plies and owner. A game sets
    ``name``, ``title``, ``cards``, ``game`` (its :class:`PlainGame`),
    ``place`` (its place class) and ``new_game`` (``new_game(deck=..., first=...)``)."""

    game: ClassVar[PlainGame]
    place: ClassVar[type[OwnedPlace]]
    state_type: ClassVar[type[Any]]

    def new_game(
        self, *, seed: int | None = None, deck: Sequence[Any] | None = None, first: int = 0
    ) -> _S:
        """A game from a ``seed`` (shuffled) or a ``deck`` order (a hand to each
        player, then the pile, top first); ``first`` moves first."""
        check_seed(seed, given=deck)
        order = list(self.cards.cards)
        if deck is None:
            random.Random(seed).shuffle(order)
        elif sorted(deck) != sorted(order):
            shown = [str(c) for c in deck]
            raise ValueError(f"a deck is the {len(order)} cards of {self.title}, not {shown}")
        else:
            order = list(deck)
        rules = PlainRules(self.game.hand)
        state: _S = self.state_type._dealt(rules, order, (), to_move=check_player(first, 2))
        return state

    def rules_json(self, rules: Any) -> dict[str, Any]:
        return {}

    def start(self, record: Record) -> _S:
        where, deal = record.where, record.deal
        if record.rules:
            raise RecordError(f"{self.title} has no rules to choose", where, "rules")
        first = player_index(record.first, where, "first")
        if deal is None:
            rules, cards = PlainRules(self.game.hand), len(self.cards.cards)
            hidden: _S = self.state_type._hidden_deal(rules, cards, 0, to_move=first)
            return hidden
        count = len(self.cards.cards)
        if set(deal) != {"deck"} or not isinstance(deal["deck"], list):
            raise RecordError(f"a full record's deal is {{'deck': [{count} cards]}}", where, "deal")
        try:
            return self.new_game(deck=[self.cards.parse(str(c)) for c in deal["deck"]], first=first)
        except ValueError as error:
            raise RecordError(str(error), where, "deal.deck") from None

    def position_of(self, state: Any) -> Position:
        places = [
            {
                "sides": [[str(c) for c in side] for side in s.sides],
                "completed": [*s.completed],
                "owner": s.owner,
            }
            for s in state.stones
        ]
        data = {
            "stones": places,
            "to_move": state.to_move,
            "ply": state.ply,
            "passes": state.passes,
            "hand_sizes": [*state.hand_sizes],
            "deck_size": state.deck_size,
        }
        return Position(self.name, data, {})

    def load_position(self, position: Position) -> _S:
        data, parse = position.data, self.cards.parse
        try:
            places = tuple(
                self.place(
                    tuple(tuple(map(parse, side)) for side in s["sides"]),
                    tuple(s["completed"]),
                    s["owner"],
                )
                for s in data["stones"]
            )
            fields = {k: data[k] for k in ("to_move", "ply", "passes", "deck_size")}
            state: _S = self.state_type(
                rules=PlainRules(self.game.hand),
                stones=places,
                hands=(None, None),
                hand_sizes=tuple(data["hand_sizes"]),
                deck=None,
                **fields,
            )
        except (KeyError, TypeError, ValueError) as error:
            why = f"not a {self.title} position: {error!r}"
            raise RecordError(why, position.where, "stones") from None
        return state

    def claimability(self, state: Any) -> list[ClaimAnswer]:
        """For every unclaimed place and each player: can it be claimed now?"""
        claims = [
            (n, p, s) for n, s in enumerate(state.stones, 1) if s.owner is None for p in (0, 1)
        ]
        return self.claim_answers(state, claims, "stone")

    def match_result(self, match: Match, finals: Sequence[Any]) -> tuple[None, str]:
        return None, f"{self.title} has no matches"

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        """A random legal game (claims taken whenever provable) as a full record."""
        rng = random.Random(seed)
        state = self.deal(rng, rules)
        for move in playout(state, rng, 100, Claim):
            state = state.play(move)
        record: Record = state.to_record()
        return record

    def random_match(self, seed: int, rules: Mapping[str, Any]) -> Match:
        raise RecordError(f"{self.title} has no matches", "", "rules.rounds")

    def deal(self, rng: random.Random, rules: Mapping[str, Any]) -> Any:
        """A new game dealt at random (a descriptor's ``deal``): no rules to choose."""
        if rules:
            raise RecordError(f"{self.title} has no rules to choose", "", "rules")
        return self.new_game(seed=rng.getrandbits(32))
