"""Schotten Totten in records and positions (named ``"schotten-totten"``).

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
from dataclasses import replace
from typing import Any

from referee.game import Outcome
from referee.line.records import LineFormat, playout
from referee.records import (
    ClaimAnswer,
    GameFormat,
    Match,
    Position,
    Record,
    RecordError,
    read_variants,
)
from referee.schotten_totten.moves import Claim, Move
from referee.schotten_totten.position import position_fields, read_cards, read_position
from referee.schotten_totten.start import check_deck, new_game, public_game
from referee.schotten_totten.state import CLAN_CARDS, Rules, State
from referee.schotten_totten.tactics import TACTIC_CARDS, TACTIC_NAMES, Tactic

__all__ = ["FORMAT", "SchottenTottenFormat", "random_playout"]

_VARIANTS = {"tactics", "early-bird", "clanfehde"}


class SchottenTottenFormat(LineFormat[State]):
    """The records adapter for Schotten Totten."""

    name = "schotten-totten"
    title = "Schotten Totten"
    cards = CLAN_CARDS

    def rules_of(self, data: Mapping[str, Any], where: str = "") -> Rules:
        """Read the ``rules`` object of a record or position."""
        edition = data.get("edition", "2024")
        if edition not in ("2024", "1999"):
            raise RecordError(
                f"unknown edition {edition!r} (use '2024' or '1999')", where, "rules.edition"
            )
        extra = sorted(set(data) - {"edition", "variants", "rounds"})
        if extra:
            raise RecordError(
                "unknown rule (known: edition, variants, rounds)", where, f"rules.{extra[0]}"
            )
        variants = read_variants(data, _VARIANTS, where)
        if variants and edition == "1999":
            # RULINGS 13; a 1999 match is written with "rounds" alone.
            raise RecordError(
                f"the 1999 edition has no variants ({', '.join(variants)}); "
                "a 1999 match needs only 'rounds'",
                where,
                "rules.variants",
            )
        return Rules(
            edition=edition, tactics="tactics" in variants, early_bird="early-bird" in variants
        )

    def rules_json(self, rules: Rules) -> dict[str, Any]:
        """The ``rules`` object for a record."""
        data: dict[str, Any] = {"edition": rules.edition}
        variants = [
            name
            for flag, name in ((rules.tactics, "tactics"), (rules.early_bird, "early-bird"))
            if flag
        ]
        if variants:
            data["variants"] = variants
        return data

    def start(self, record: Record) -> State:
        """The state before the first move of ``record``."""
        where = record.where
        rules = self.rules_of(record.rules, where)
        if record.first not in (0, 1):
            raise RecordError(f"expected 0 or 1, got {record.first!r}", where, "first")
        if record.deal is None:
            return public_game(first=record.first, rules=rules)
        unknown = sorted(set(record.deal) - {"deck", "tactics"})
        if unknown:
            raise RecordError(
                "unknown field (the deal holds 'deck' and 'tactics')", where, f"deal.{unknown[0]}"
            )
        deck = record.deal.get("deck")
        if not isinstance(deck, list):
            raise RecordError("expected an array of 54 cards", where, "deal.deck")
        cards = read_cards(deck, where, "deal.deck", Rules())
        tactics_data = record.deal.get("tactics")
        tactics: list[Tactic] | None = None
        if rules.tactics:
            if not isinstance(tactics_data, list):
                raise RecordError(
                    "expected the 10 tactic cards in pile order", where, "deal.tactics"
                )
            tactics = []
            for i, text in enumerate(tactics_data):
                if not isinstance(text, str) or text not in TACTIC_NAMES:
                    raise RecordError(
                        f"expected a tactic card name, got {text!r}", where, f"deal.tactics[{i}]"
                    )
                tactics.append(Tactic(text))
        elif tactics_data is not None:
            raise RecordError("a tactic pile needs the 'tactics' variant", where, "deal.tactics")
        try:
            check_deck(cards)
        except ValueError as error:
            raise RecordError(str(error), where, "deal.deck") from None
        try:
            return new_game(deck=cards, tactic_deck=tactics, first=record.first, rules=rules)
        except ValueError as error:  # the clan deck is checked, so this is the tactic pile
            raise RecordError(str(error), where, "deal.tactics") from None

    # --- positions -----------------------------------------------------------------

    def load_position(self, position: Position) -> State:
        """The state of a visible position (hands and piles hidden).

        What the table decides is derived: the outcome (three adjacent or five
        stones, or a blocked game), which players have played a joker, and for
        a won position the winner to move in the phase of its claim. Hand sizes
        are derived while the piles have cards (hands are full then). A
        position that no game can reach is refused with one
        :class:`RecordError` naming every problem (see :meth:`State.status`);
        :mod:`referee.schotten_totten.position` reads and writes positions.
        """
        return read_position(position, self.rules_of)

    def position_of(self, state: State) -> Position:
        """The visible position of ``state``."""
        return Position(self.name, position_fields(state), self.rules_json(state.rules))

    # --- claims --------------------------------------------------------------------

    def claimability(self, state: State) -> list[ClaimAnswer]:
        """For every unclaimed stone and each player: can it be claimed from the table?"""
        claims = [
            (n, p, s) for n, s in enumerate(state.stones, 1) if s.owner is None for p in (0, 1)
        ]
        return self.claim_answers(state, claims, "stone")

    # --- demo ----------------------------------------------------------------------

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        """A random legal game (claims taken whenever provable) as a full record."""
        parsed = self.rules_of(rules)
        rng = random.Random(seed)
        record = self._random_game(rng, parsed, None)
        return replace(record, meta={"source": f"referee demo --seed {seed}"})

    def _random_game(self, rng: random.Random, rules: Rules, first: int | None) -> Record:
        deck = list(CLAN_CARDS.cards)
        rng.shuffle(deck)
        chosen = rng.randrange(2)
        first = chosen if first is None else first
        tactics = list(TACTIC_CARDS)
        if rules.tactics:
            rng.shuffle(tactics)
        state = new_game(
            deck=deck, tactic_deck=tactics if rules.tactics else None, first=first, rules=rules
        )
        moves = random_playout(state, rng)
        final = state
        for move in moves:
            final = final.play(move)
        return Record(
            game=self.name,
            moves=tuple(str(m) for m in moves),
            rules=self.rules_json(rules),
            players=("player 1", "player 2"),
            first=first,
            deal={"deck": [str(c) for c in deck]}
            | ({"tactics": [str(t) for t in tactics]} if rules.tactics else {}),
            result=None if final.outcome is None else self.result_of(final.outcome),
        )

    # --- Clanfehde matches ------------------------------------------------------------

    def match_result(
        self, match: Match, finals: Sequence[State]
    ) -> tuple[dict[str, Any] | None, str | None]:
        """Score a match: ``(result, problem)``.

        The round's winner scores 5, the other player one point per stone it
        holds; the highest total wins the match and equal totals draw.
        ``result`` is ``None`` while rounds remain. Who starts each game:
        with the 2024 Clanfehde variant the starting player alternates; in the
        1999 edition (``{"edition": "1999", "rounds": N}``, no variant) the
        winner of the previous game starts the next one, and after a game
        without a winner the player who did not start it.
        """
        older = match.rules.get("edition") == "1999"
        variants = match.rules.get("variants", [])
        if not older and (not isinstance(variants, list) or "clanfehde" not in variants):
            return None, "a Schotten Totten match is played with the 'clanfehde' variant"
        rounds = match.rules.get("rounds")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            return None, f"rules.rounds must be the agreed number of rounds, not {rounds!r}"
        if len(finals) > rounds:
            return None, f"the match has {len(finals)} games but {rounds} rounds were agreed"
        problem = _check_starters(match, finals, older)
        if problem is not None:
            return None, problem
        for number, final in enumerate(finals[:-1], start=1):
            if final.outcome is None:
                return None, f"game {number} is unfinished but the match goes on"
        if len(finals) < rounds or finals[-1].outcome is None:
            return None, None
        scores = [0, 0]
        for final in finals:
            assert final.outcome is not None
            winner = final.outcome.winner
            for player in (0, 1):
                # a blocked round (no winner) scores each player its stones
                scores[player] += 5 if player == winner else len(final.stones_of(player))
        if scores[0] == scores[1]:
            return {"scores": scores, "winner": None, "reason": "draw"}, None
        return {"scores": scores, "winner": int(scores[1] > scores[0]), "reason": "points"}, None

    def random_match(self, seed: int, rules: Mapping[str, Any]) -> Match:
        """A random match of ``rules["rounds"]`` games (default 3): Clanfehde, or
        a 1999 match when ``rules["edition"]`` is ``"1999"``."""
        rounds = rules.get("rounds", 3)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 99:
            raise RecordError(
                f"expected a number of rounds from 1 to 99, got {rounds!r}", "", "rules.rounds"
            )
        older = rules.get("edition") == "1999"
        variants = list(rules.get("variants", []))
        if "clanfehde" not in variants and not older:
            variants.append("clanfehde")
        match_rules = {**rules, "rounds": rounds} | ({} if older else {"variants": variants})
        parsed = self.rules_of(match_rules)
        rng = random.Random(seed)
        starter = rng.randrange(2)
        played: list[Record] = []
        for _ in range(rounds):
            game = replace(self._random_game(rng, parsed, starter), rules=match_rules)
            played.append(game)
            starter = _next_starter(game.first, self._final(game).outcome, older)
        games = tuple(played)
        draft = Match(self.name, games, match_rules, ("player 1", "player 2"))
        finals = [self._final(record) for record in games]
        result, _ = self.match_result(draft, finals)
        return replace(
            draft, result=result, meta={"source": f"referee demo --seed {seed} (Clanfehde)"}
        )


def _next_starter(first: int, outcome: Outcome | None, older: bool) -> int:
    """Who starts the game after one started by ``first`` that ended with ``outcome``."""
    if older and outcome is not None and outcome.winner is not None:
        return outcome.winner
    return 1 - first


def _check_starters(match: Match, finals: Sequence[State], older: bool) -> str | None:
    for number in range(2, len(match.games) + 1):
        before, record = match.games[number - 2], match.games[number - 1]
        if number - 2 >= len(finals):
            break
        expected = _next_starter(before.first, finals[number - 2].outcome, older)
        if record.first != expected:
            why = (
                "the winner of the previous game starts the next (1999 edition)"
                if older
                else "the starting player alternates"
            )
            return f"game {number} must be started by player {expected + 1}: {why}"
    return None


def random_playout(state: State, rng: random.Random, max_plies: int = 2000) -> list[Move]:
    """Moves of a random legal game from ``state``: any provable claim is taken,
    otherwise a uniformly random legal move (never ending the turn early when a
    claim is available).
    """
    return playout(state, rng, max_plies, Claim)


FORMAT = SchottenTottenFormat()
#: mypy checks here that the format implements the whole protocol.
_PROTOCOL_CHECK: GameFormat[State] = FORMAT
