"""Schotten Totten in records and positions (registered as ``"schotten-totten"``).

Rules in a record: ``{"edition": "2024" | "1999", "variants": [...]}``; the
deal of a full record: ``{"deck": [54 cards, top first]}`` (player 1 takes the
first 6 cards, player 2 the next 6, the rest is the draw pile).

    >>> from referee.records import validate
    >>> record = FORMAT.random_record(seed=4, rules={})
    >>> validate(record).legal
    True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from referee.cards import Card, InvalidCardError
from referee.game import Outcome
from referee.prover import ClaimVerdict
from referee.records import ClaimAnswer, Position, Record, RecordError, register
from referee.schotten_totten.moves import Claim, Move
from referee.schotten_totten.state import (
    CLAN_CARDS,
    FORMATION,
    HAND_SIZE,
    STONES,
    Phase,
    Rules,
    State,
    Stone,
    new_game,
    public_game,
)

__all__ = ["FORMAT", "SchottenTottenFormat", "random_playout", "verdict_json"]

_VARIANTS = {"early-bird"}


class SchottenTottenFormat:
    """The records adapter for Schotten Totten."""

    name = "schotten-totten"
    title = "Schotten Totten"

    def rules_of(self, data: Mapping[str, Any], where: str = "") -> Rules:
        """Read the ``rules`` object of a record or position."""
        edition = data.get("edition", "2024")
        if edition not in ("2024", "1999"):
            raise RecordError(
                f"unknown edition {edition!r} (use '2024' or '1999')", where, "rules.edition"
            )
        variants = data.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise RecordError("expected an array of variant names", where, "rules.variants")
        unknown = sorted(set(variants) - _VARIANTS)
        if unknown:
            raise RecordError(
                f"unsupported variant {unknown[0]!r} (supported: {', '.join(sorted(_VARIANTS))})",
                where,
                "rules.variants",
            )
        return Rules(edition=edition, early_bird="early-bird" in variants)

    def rules_json(self, rules: Rules) -> dict[str, Any]:
        """The ``rules`` object for a record."""
        data: dict[str, Any] = {"edition": rules.edition}
        if rules.early_bird:
            data["variants"] = ["early-bird"]
        return data

    def start(self, record: Record) -> State:
        """The state before the first move of ``record``."""
        where = record.where
        rules = self.rules_of(record.rules, where)
        if record.first not in (0, 1):
            raise RecordError(f"expected 0 or 1, got {record.first!r}", where, "first")
        if record.deal is None:
            return public_game(first=record.first, rules=rules)
        deck = record.deal.get("deck")
        if not isinstance(deck, list):
            raise RecordError("expected an array of 54 cards", where, "deal.deck")
        cards = _cards(deck, where, "deal.deck")
        try:
            return new_game(deck=cards, first=record.first, rules=rules)
        except ValueError as error:
            raise RecordError(str(error), where, "deal.deck") from None

    def result_of(self, outcome: Outcome) -> dict[str, Any]:
        """The JSON result: winner index and reason."""
        return {"winner": outcome.winner, "reason": outcome.reason}

    # --- positions -----------------------------------------------------------------

    def load_position(self, position: Position) -> State:
        """The state of a visible position (hands and deck hidden)."""
        where, data = position.where, position.data
        rules = self.rules_of(position.rules, where)
        stones_data = data.get("stones")
        if not isinstance(stones_data, list) or len(stones_data) != STONES:
            raise RecordError(f"expected an array of {STONES} stones", where, "stones")
        seen: set[Card] = set()
        stones = []
        for i, item in enumerate(stones_data):
            at = f"stones[{i}]"
            if not isinstance(item, dict):
                raise RecordError("expected an object", where, at)
            sides_data = item.get("sides", [[], []])
            if not isinstance(sides_data, list) or len(sides_data) != 2:
                raise RecordError("expected two arrays of cards", where, f"{at}.sides")
            sides = []
            for p, side in enumerate(sides_data):
                if not isinstance(side, list):
                    raise RecordError("expected an array of cards", where, f"{at}.sides[{p}]")
                cards = _cards(side, where, f"{at}.sides[{p}]")
                if len(cards) > FORMATION.size:
                    raise RecordError(
                        f"more than {FORMATION.size} cards", where, f"{at}.sides[{p}]"
                    )
                for card in cards:
                    if card in seen:
                        raise RecordError(
                            f"card {card} appears twice on the table", where, f"{at}.sides[{p}]"
                        )
                    seen.add(card)
                sides.append(tuple(cards))
            owner = _player(item.get("owner"), where, f"{at}.owner", optional=True)
            first = _player(item.get("first"), where, f"{at}.first", optional=True)
            full = [len(s) == FORMATION.size for s in sides]
            if first is not None and not full[first]:
                raise RecordError("that side's formation is not complete", where, f"{at}.first")
            if all(full) and first is None:
                raise RecordError(
                    "both formations are complete: say which was completed first (0 or 1)",
                    where,
                    f"{at}.first",
                )
            order = [first] if first is not None else []
            order += [p for p in (0, 1) if full[p] and p not in order]
            completed: list[int | None] = [None, None]
            for rank, p in enumerate(order):
                completed[p] = rank
            stones.append(Stone((sides[0], sides[1]), (completed[0], completed[1]), owner))
        to_move = _player(data.get("to_move", 0), where, "to_move", optional=False) or 0
        unseen = len(CLAN_CARDS.cards) - len(seen)
        sizes = data.get("hand_sizes", [min(HAND_SIZE, unseen // 2)] * 2)
        if (
            not isinstance(sizes, list)
            or len(sizes) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in sizes)
            or sum(sizes) > unseen
        ):
            raise RecordError(
                f"expected two hand sizes that fit the {unseen} unseen cards", where, "hand_sizes"
            )
        return State(
            rules=rules,
            stones=tuple(stones),
            hands=(None, None),
            hand_sizes=(sizes[0], sizes[1]),
            deck=None,
            deck_size=unseen - sum(sizes),
            to_move=to_move,
            phase=Phase.PLAY,
            # Later completions must count as later than every recorded one.
            ply=2,
        )

    def position_of(self, state: State) -> Position:
        """The visible position of ``state``."""
        stones = []
        for stone in state.stones:
            item: dict[str, Any] = {"sides": [[str(c) for c in side] for side in stone.sides]}
            done = stone.completed
            if done[0] is not None and done[1] is not None:
                item["first"] = 0 if done[0] < done[1] else 1
            if stone.owner is not None:
                item["owner"] = stone.owner
            stones.append(item)
        data = {
            "stones": stones,
            "to_move": state.to_move,
            "hand_sizes": list(state.hand_sizes),
        }
        return Position(self.name, data, self.rules_json(state.rules))

    # --- claims --------------------------------------------------------------------

    def claimability(self, state: State) -> list[ClaimAnswer]:
        """For every unclaimed stone and each player: can it be claimed from the table?"""
        answers = []
        for number, stone in enumerate(state.stones, start=1):
            if stone.owner is not None:
                continue
            for player in (0, 1):
                have = len(stone.sides[player])
                if have < FORMATION.size:
                    answers.append(
                        ClaimAnswer(
                            number,
                            player,
                            None,
                            f"formation incomplete ({have} of {FORMATION.size} cards)",
                            label=f"stone {number}",
                        )
                    )
                    continue
                verdict = state.claim_verdict(number, player)
                text = verdict.explain()
                witness = verdict.witness
                if witness is not None and witness.cards:
                    text += ", e.g. with " + " ".join(
                        str(CLAN_CARDS.from_pair(p)) for p in witness.cards
                    )
                answers.append(
                    ClaimAnswer(
                        number,
                        player,
                        verdict.holds,
                        text,
                        verdict_json(verdict),
                        label=f"stone {number}",
                    )
                )
        return answers

    def describe_verdict(self, state: State, verdict: ClaimVerdict) -> dict[str, Any]:
        """The evidence of a verdict as JSON."""
        return verdict_json(verdict)

    # --- demo ----------------------------------------------------------------------

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        """A random legal game (claims taken whenever provable) as a full record."""
        parsed = self.rules_of(rules)
        rng = random.Random(seed)
        deck = list(CLAN_CARDS.cards)
        rng.shuffle(deck)
        first = rng.randrange(2)
        state = new_game(deck=deck, first=first, rules=parsed)
        moves = random_playout(state, rng)
        final = state
        for move in moves:
            final = final.play(move)
        return Record(
            game=self.name,
            moves=tuple(str(m) for m in moves),
            rules=self.rules_json(parsed),
            players=("player 1", "player 2"),
            first=first,
            deal={"deck": [str(c) for c in deck]},
            result=None if final.outcome is None else self.result_of(final.outcome),
            meta={"source": f"referee demo --seed {seed}"},
        )


def random_playout(state: State, rng: random.Random, max_plies: int = 2000) -> list[Move]:
    """Moves of a random legal game from ``state``: any provable claim is taken,
    otherwise a uniformly random legal move (never ending the turn early when a
    claim is available).
    """
    moves: list[Move] = []
    while state.outcome is None and len(moves) < max_plies:
        legal = state.legal_moves()
        claims = [m for m in legal if isinstance(m, Claim)]
        if claims:
            move: Move = claims[0]
        else:
            move = rng.choice(legal)
        moves.append(move)
        state = state.play(move)
    return moves


def verdict_json(verdict: ClaimVerdict) -> dict[str, Any]:
    """A claim verdict's evidence as JSON, with cards in Schotten Totten text."""

    def completion(c: Any) -> dict[str, Any] | None:
        if c is None:
            return None
        return {
            "added": [str(CLAN_CARDS.from_pair(p)) for p in c.cards],
            "wildcards": [str(CLAN_CARDS.from_pair(p)) for p in c.wildcards],
            "kind": c.strength.kind.label,
            "total": c.strength.total,
        }

    return {
        "verdict": verdict.verdict.value,
        "claimant": completion(verdict.claimant),
        "opponent_best": completion(verdict.opponent_best),
        "opponent_complete": verdict.opponent_complete,
    }


def _cards(items: Sequence[Any], where: str, at: str) -> list[Card]:
    cards = []
    for i, text in enumerate(items):
        if not isinstance(text, str):
            raise RecordError("expected a card like 'R7'", where, f"{at}[{i}]")
        try:
            cards.append(CLAN_CARDS.parse(text))
        except InvalidCardError as error:
            raise RecordError(str(error), where, f"{at}[{i}]") from None
    return cards


def _player(value: Any, where: str, at: str, *, optional: bool) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or value not in (0, 1):
        raise RecordError(f"expected a player index 0 or 1, got {value!r}", where, at)
    return int(value)


FORMAT = register(SchottenTottenFormat())
