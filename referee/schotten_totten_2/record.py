"""Schotten Totten 2 in records and positions (named ``"schotten-totten-2"``).

Rules in a record: ``{"variants": ["tactics"]}`` (optional: the base game).
``first`` is the attacker, who moves first. The deal of a full record::

    {"attacker": 0, "deck": [60 siege cards, top first], "tactics": [11 tactic cards]}

player 0 takes the first 6 siege cards (7 with tactics), player 1 the next 6
(7), the rest is the siege deck; ``tactics`` (tactics variant only) is the
tactic pile, top first; ``attacker`` is optional and must agree with ``first``.

A Rache match is a ``referee-match/1`` document, like Schotten Totten's
Clanfehde: rules ``{"variants": ["rache"], "rounds": 2}`` (plus ``"tactics"``
if played with it) and two games, each a record of its own with its own deal;
game 2's attacker is the other player. :meth:`SchottenTotten2Format.match_result`
checks and decides it.

    >>> from referee.records import validate
    >>> record = FORMAT.random_record(seed=4, rules={})
    >>> validate(record).legal
    True
    >>> match = FORMAT.random_match(seed=4, rules={"variants": ["rache"], "rounds": 2})
    >>> [game.first for game in match.games], validate(match).legal
    ([0, 1], True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.cards import Card
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
from referee.schotten_totten_2.match import GameResult, decide
from referee.schotten_totten_2.moves import Control, Move, Oil, Retreat
from referee.schotten_totten_2.position import position_fields, read_cards, read_position
from referee.schotten_totten_2.state import Rules, State, new_game, public_game
from referee.schotten_totten_2.wall import SIEGE_CARDS, TACTIC_CARDS, TacticCard

__all__ = ["FORMAT", "RACHE", "SchottenTotten2Format", "random_playout"]

#: The variant that makes a match document a Rache match.
RACHE = "rache"
#: A Rache match is two games.
RACHE_GAMES = 2
_VARIANTS = {"tactics", RACHE}
_RULES = ("variants", "rounds")


class SchottenTotten2Format(LineFormat[State]):
    """The records adapter for Schotten Totten 2 (games and Rache matches)."""

    name = "schotten-totten-2"
    title = "Schotten Totten 2"
    cards = SIEGE_CARDS

    def rules_of(self, data: Mapping[str, Any], where: str = "") -> Rules:
        """Read a ``rules`` object (of a record, a position or a match)."""
        extra = sorted(set(data) - set(_RULES))
        if extra:
            hint = (
                ": a Rache match is a referee-match/1 document with "
                '"variants": ["rache"], "rounds": 2'
                if extra[0] == "match"
                else ""
            )
            raise RecordError(
                f"unknown rule (known: {', '.join(_RULES)}){hint}", where, f"rules.{extra[0]}"
            )
        variants = read_variants(data, _VARIANTS, where)
        rounds = data.get("rounds", RACHE_GAMES)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise RecordError(f"expected a number of games, got {rounds!r}", where, "rules.rounds")
        return Rules(tactics="tactics" in variants)

    def rules_json(self, rules: Rules) -> dict[str, Any]:
        """The ``rules`` object of a game record (a Rache match adds its own fields)."""
        return {"variants": ["tactics"]} if rules.tactics else {}

    def start(self, record: Record) -> State:
        """The state before the first move of ``record`` (one game)."""
        where = record.where
        rules = self.rules_of(record.rules, where)
        attacker = record.first
        if isinstance(attacker, bool) or attacker not in (0, 1):
            raise RecordError(f"expected 0 or 1, got {attacker!r}", where, "first")
        if record.deal is None:
            # A public replay cannot see whether a pass left both hands unable to
            # play; a record that ends saying the siege failed says it did there.
            result = record.result
            failed = isinstance(result, Mapping) and result.get("reason") == "siege_failed"
            ends = len(record.moves) if failed else None
            return public_game(attacker=attacker, rules=rules, siege_failed_at=ends)
        return _deal(record.deal, attacker, rules, where, "deal")

    def _deal_fields(self, start: State) -> dict[str, Any]:
        return {"attacker": start.attacker}

    def _first(self, start: State) -> int:
        return start.attacker

    # --- Rache matches ---------------------------------------------------------------

    def match_result(
        self, match: Match, finals: Sequence[State]
    ) -> tuple[dict[str, Any] | None, str | None]:
        """Check and decide a Rache match: ``(result, problem)``.

        Two games with the roles swapped (``first`` is each game's attacker),
        the first finished before the second starts; decided by
        :func:`~referee.schotten_totten_2.match.decide`. ``result`` is ``None``
        while the match is unfinished; equal scores give ``winner`` ``None``
        and the reason ``further_game_needed``.
        """
        variants = match.rules.get("variants", [])
        if not isinstance(variants, list) or RACHE not in variants:
            return None, (
                'a Schotten Totten 2 match is a Rache match: rules.variants holds "rache"'
            )
        rounds = match.rules.get("rounds")
        if rounds != RACHE_GAMES or isinstance(rounds, bool):
            return None, f"rules.rounds of a Rache match must be 2, not {rounds!r}"
        if len(finals) > RACHE_GAMES:
            return None, f"a Rache match is two games, not {len(finals)}"
        if len(match.games) == RACHE_GAMES and match.games[1].first != 1 - match.games[0].first:
            return None, (
                f"game 2 must be attacked by player {2 - match.games[0].first}: "
                "the second game of a Rache match swaps the roles"
            )
        if len(finals) == RACHE_GAMES and finals[0].outcome is None:
            return None, "game 1 is unfinished but the match goes on"
        if len(finals) < RACHE_GAMES or finals[-1].outcome is None:
            return None, None
        return self.result_of(decide([GameResult.of(final) for final in finals])), None

    # --- positions -----------------------------------------------------------------

    def load_position(self, position: Position) -> State:
        """The state of a visible position (hands and piles hidden).

        Without ``phase`` the position is the start of a turn of ``to_move``;
        a position written mid-turn carries its ``phase`` and what the turn
        has pending (``support``, ``exchange``, ``late_control``), and a
        finished one its ``result``. Derived: ``exhausted`` from an empty deck,
        a held siege, four damaged tiles, the tactic cards in the hands. The
        state is checked like any other, then with :meth:`State.status`: a
        position no game reaches is refused with one :class:`RecordError`
        naming every problem; :mod:`referee.schotten_totten_2.position` reads
        and writes positions.
        """
        return read_position(position, self.rules_of)

    def position_of(self, state: State) -> Position:
        """The visible position of ``state`` (mid-turn too: it loads back)."""
        return Position(self.name, position_fields(state), self.rules_json(state.rules))

    # --- claims --------------------------------------------------------------------

    def claimability(self, state: State) -> list[ClaimAnswer]:
        """For every tile: can the attacker declare control from the visible cards?"""
        claims = [(tile.number, state.attacker, tile) for tile in state.tiles]
        return self.claim_answers(state, claims, "tile")

    # --- demo ----------------------------------------------------------------------

    def random_record(self, seed: int, rules: Mapping[str, Any]) -> Record:
        """A random legal game as a full record (a Rache match: :meth:`random_match`)."""
        variants = rules.get("variants", [])
        if isinstance(variants, list) and RACHE in variants:
            raise RecordError(
                'a Rache match is a match of two games: ask for one with "rounds": 2 in the rules',
                "",
                "rules.rounds",
            )
        parsed = self.rules_of(rules)
        rng = random.Random(seed)
        record = self._random_game(rng, parsed, rng.randrange(2), self.rules_json(parsed))
        return replace(record, meta={"source": f"referee demo --seed {seed}"})

    def random_match(self, seed: int, rules: Mapping[str, Any]) -> Match:
        """A random Rache match: two random games with the roles swapped."""
        rounds = rules.get("rounds", RACHE_GAMES)
        if rounds != RACHE_GAMES or isinstance(rounds, bool):
            raise RecordError(f"a Rache match is two games, not {rounds!r}", "", "rules.rounds")
        variants = list(rules.get("variants", []))
        if RACHE not in variants:
            variants.append(RACHE)
        match_rules = {**rules, "variants": variants, "rounds": RACHE_GAMES}
        parsed = self.rules_of(match_rules)
        rng = random.Random(seed)
        attacker = rng.randrange(2)
        games = tuple(
            self._random_game(rng, parsed, attacker if i == 0 else 1 - attacker, match_rules)
            for i in range(RACHE_GAMES)
        )
        draft = Match(self.name, games, match_rules, ("player 1", "player 2"))
        result, _ = self.match_result(draft, [self._final(record) for record in games])
        return replace(draft, result=result, meta={"source": f"referee demo --seed {seed} (Rache)"})

    def _random_game(
        self, rng: random.Random, rules: Rules, attacker: int, rules_data: Mapping[str, Any]
    ) -> Record:
        deck = list(SIEGE_CARDS.cards)
        rng.shuffle(deck)
        deal: dict[str, Any] = {"attacker": attacker, "deck": [str(c) for c in deck]}
        if rules.tactics:
            tactics = list(TACTIC_CARDS)
            rng.shuffle(tactics)
            deal["tactics"] = [str(c) for c in tactics]
        record = Record(
            game=self.name,
            moves=(),
            rules=dict(rules_data),
            players=("player 1", "player 2"),
            first=attacker,
            deal=deal,
        )
        state = self.start(record)
        moves = random_playout(state, rng)
        final = state
        for move in moves:
            final = final.play(move)
        return replace(
            record,
            moves=tuple(str(m) for m in moves),
            result=None if final.outcome is None else self.result_of(final.outcome),
        )


def random_playout(state: State, rng: random.Random, max_plies: int = 5000) -> list[Move]:
    """Moves of a random legal game from ``state``.

    Any provable control is declared; otherwise a kind of move is picked at
    random, then a move of that kind, with retreats and oil kept occasional.
    """
    return playout(state, rng, max_plies, Control, _pick)


def _pick(legal: Sequence[Move], rng: random.Random) -> Move:
    """A kind of move at random, then a move of that kind (retreats and oil kept occasional)."""
    kinds: dict[type, list[Move]] = {}
    for candidate in legal:
        kinds.setdefault(type(candidate), []).append(candidate)
    if len(kinds) > 1 and rng.random() < 0.8:
        kinds.pop(Retreat, None)
        kinds.pop(Oil, None)
    return rng.choice(kinds[rng.choice(sorted(kinds, key=lambda k: k.__name__))])


def _deal(deal: Any, attacker: int, rules: Rules, where: str, at: str) -> State:
    if not isinstance(deal, Mapping):
        raise RecordError("expected an object", where, at)
    if "attacker" in deal and (isinstance(deal["attacker"], bool) or deal["attacker"] != attacker):
        raise RecordError(
            f"expected {attacker}: the attacker moves first (record field 'first'), "
            "(in a Rache match: the second game's attacker is the other player)",
            where,
            f"{at}.attacker",
        )
    deck_data = deal.get("deck")
    if not isinstance(deck_data, list):
        raise RecordError("expected an array of 60 siege cards", where, f"{at}.deck")
    deck = read_cards(deck_data, Rules(), where, f"{at}.deck")
    tactics: list[TacticCard] = []
    if rules.tactics:
        tactic_data = deal.get("tactics")
        if not isinstance(tactic_data, list):
            raise RecordError("expected an array of 11 tactic cards", where, f"{at}.tactics")
        for i, text in enumerate(tactic_data):
            try:
                if not isinstance(text, str):
                    raise ValueError(text)
                tactics.append(TacticCard.parse(text))
            except ValueError:
                raise RecordError(
                    f"expected a tactic card name, got {text!r}", where, f"{at}.tactics[{i}]"
                ) from None
    elif "tactics" in deal:
        raise RecordError("the base game has no tactic pile", where, f"{at}.tactics")
    try:
        return new_game(
            deck=[c for c in deck if isinstance(c, Card)],
            tactic_deck=tactics,
            attacker=attacker,
            rules=rules,
        )
    except ValueError as error:
        field = f"{at}.tactics" if "tactic" in str(error) else f"{at}.deck"
        raise RecordError(str(error), where, field) from None


FORMAT = SchottenTotten2Format()
#: mypy checks here that the format implements the whole protocol.
_PROTOCOL_CHECK: GameFormat[State] = FORMAT
