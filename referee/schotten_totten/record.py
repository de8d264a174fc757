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
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.cards import Card, InvalidCardError
from referee.game import Outcome
from referee.prover import ClaimVerdict
from referee.records import (
    ClaimAnswer,
    Match,
    Position,
    Record,
    RecordError,
    completion_order,
    read_variants,
    register,
)
from referee.schotten_totten.moves import Claim, Move
from referee.schotten_totten.state import (
    CLAN_CARDS,
    STONES,
    Phase,
    Rules,
    State,
    Stone,
    check_deck,
    new_game,
    public_game,
)
from referee.schotten_totten.tactics import (
    ELITE,
    STYLES,
    TACTIC_CARDS,
    TACTIC_NAMES,
    AnyCard,
    Tactic,
    copies,
)

__all__ = ["FORMAT", "SchottenTottenFormat", "random_playout", "verdict_json"]

_VARIANTS = {"tactics", "early-bird", "clanfehde"}


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
        extra = sorted(set(data) - {"edition", "variants", "rounds"})
        if extra:
            raise RecordError(
                "unknown rule (known: edition, variants, rounds)", where, f"rules.{extra[0]}"
            )
        variants = read_variants(data, _VARIANTS, where)
        if "tactics" in variants and edition == "1999":
            raise RecordError("the 1999 edition has no tactic cards", where, "rules.variants")
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
        cards = _cards(deck, where, "deal.deck", Rules())
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

    def result_of(self, outcome: Outcome) -> dict[str, Any]:
        """The JSON result: winner index and reason."""
        return {"winner": outcome.winner, "reason": outcome.reason}

    # --- positions -----------------------------------------------------------------

    def load_position(self, position: Position) -> State:
        """The state of a visible position (hands and piles hidden)."""
        where, data = position.where, position.data
        rules = self.rules_of(position.rules, where)
        stones_data = data.get("stones")
        if not isinstance(stones_data, list) or len(stones_data) != STONES:
            raise RecordError(f"expected an array of {STONES} stones", where, "stones")
        seen: Counter[AnyCard] = Counter()
        stones = [self._stone(item, i, rules, seen, where) for i, item in enumerate(stones_data)]
        discards_data = data.get("discards", [])
        if not isinstance(discards_data, list):
            raise RecordError("expected an array of cards", where, "discards")
        discards = _cards(discards_data, where, "discards", rules)
        seen.update(discards)
        _check_once(seen, where, "discards")
        to_move = _player(data.get("to_move", 0), where, "to_move", optional=False) or 0
        unseen = len(CLAN_CARDS.cards) - sum(n for c, n in seen.items() if type(c) is Card)
        hidden_tactics = len(TACTIC_CARDS) - sum(n for c, n in seen.items() if type(c) is Tactic)
        if not rules.tactics:
            hidden_tactics = 0
        default = min(rules.hand_size, (unseen + hidden_tactics) // 2)
        sizes = data.get("hand_sizes", [default, default])
        if (
            not isinstance(sizes, list)
            or len(sizes) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in sizes)
            or sum(sizes) > unseen + hidden_tactics
        ):
            raise RecordError(
                f"expected two hand sizes that fit the {unseen + hidden_tactics} unseen cards",
                where,
                "hand_sizes",
            )
        played = data.get("tactics_played", [0, 0])
        if (
            not isinstance(played, list)
            or len(played) != 2
            or not all(
                isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 10 for n in played
            )
        ):
            raise RecordError("expected two counts of tactic cards played", where, "tactics_played")
        in_hands_tactics = max(0, sum(sizes) - unseen)
        return State(
            rules=rules,
            stones=tuple(stones),
            hands=(None, None),
            hand_sizes=(sizes[0], sizes[1]),
            deck=None,
            deck_size=max(0, unseen - sum(sizes)),
            tactic_deck=None,
            tactic_deck_size=hidden_tactics - in_hands_tactics,
            discards=tuple(discards),
            tactics_played=(played[0], played[1]),
            to_move=to_move,
            phase=Phase.PLAY,
            # Later completions must count as later than every recorded one.
            ply=2,
        )

    def _stone(self, item: Any, i: int, rules: Rules, seen: Counter[AnyCard], where: str) -> Stone:
        at = f"stones[{i}]"
        if not isinstance(item, dict):
            raise RecordError("expected an object", where, at)
        style = None
        if item.get("style") is not None:
            text = item["style"]
            if not rules.tactics or text not in STYLES:
                raise RecordError(
                    f"expected a combat style ({', '.join(STYLES)}) in a tactics game, got "
                    f"{text!r}",
                    where,
                    f"{at}.style",
                )
            style = Tactic(text)
            seen[style] += 1
        size = Stone(style=style).rule.size
        sides_data = item.get("sides", [[], []])
        if not isinstance(sides_data, list) or len(sides_data) != 2:
            raise RecordError("expected two arrays of cards", where, f"{at}.sides")
        sides = []
        for p, side in enumerate(sides_data):
            field = f"{at}.sides[{p}]"
            if not isinstance(side, list):
                raise RecordError("expected an array of cards", where, field)
            cards = _cards(side, where, field, rules)
            if len(cards) > size:
                raise RecordError(f"more than {size} cards", where, field)
            if any(type(c) is Tactic and c.name not in ELITE for c in cards):
                raise RecordError("only clan cards and elite troops lie on a side", where, field)
            seen.update(cards)
            _check_once(seen, where, field)
            sides.append(tuple(cards))
        owner = _player(item.get("owner"), where, f"{at}.owner", optional=True)
        first = _player(item.get("first"), where, f"{at}.first", optional=True)
        full = [len(s) == size for s in sides]
        completed = completion_order(full, first, where, f"{at}.first")
        return Stone((sides[0], sides[1]), completed, owner, style)

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
            if stone.style is not None:
                item["style"] = str(stone.style)
            stones.append(item)
        data: dict[str, Any] = {
            "stones": stones,
            "to_move": state.to_move,
            "hand_sizes": list(state.hand_sizes),
        }
        if state.discards:
            data["discards"] = [str(c) for c in state.discards]
        if state.rules.tactics:
            data["tactics_played"] = list(state.tactics_played)
        return Position(self.name, data, self.rules_json(state.rules))

    # --- claims --------------------------------------------------------------------

    def claimability(self, state: State) -> list[ClaimAnswer]:
        """For every unclaimed stone and each player: can it be claimed from the table?"""
        answers = []
        for number, stone in enumerate(state.stones, start=1):
            if stone.owner is not None:
                continue
            for player in (0, 1):
                have, size = len(stone.sides[player]), stone.rule.size
                if have < size:
                    answers.append(
                        ClaimAnswer(
                            number,
                            player,
                            None,
                            f"formation incomplete ({have} of {size} cards)",
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
        """Score a Clanfehde match: ``(result, problem)``.

        The round's winner scores 5, the other player one point per stone it
        holds; starting players alternate; the highest total wins the match and
        equal totals draw. ``result`` is ``None`` while rounds remain.
        """
        variants = match.rules.get("variants", [])
        if not isinstance(variants, list) or "clanfehde" not in variants:
            return None, "a Schotten Totten match is played with the 'clanfehde' variant"
        rounds = match.rules.get("rounds")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            return None, f"rules.rounds must be the agreed number of rounds, not {rounds!r}"
        if len(finals) > rounds:
            return None, f"the match has {len(finals)} games but {rounds} rounds were agreed"
        opener = match.games[0].first
        for number, record in enumerate(match.games, start=1):
            expected = (opener + number - 1) % 2
            if record.first != expected:
                return None, (
                    f"game {number} must be started by player {expected + 1}: "
                    "the starting player alternates"
                )
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
        """A random Clanfehde match of ``rules["rounds"]`` games (default 3)."""
        rounds = rules.get("rounds", 3)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 99:
            raise RecordError(
                f"expected a number of rounds from 1 to 99, got {rounds!r}", "", "rules.rounds"
            )
        variants = list(rules.get("variants", []))
        if "clanfehde" not in variants:
            variants.append("clanfehde")
        match_rules = {**rules, "variants": variants, "rounds": rounds}
        parsed = self.rules_of(match_rules)
        rng = random.Random(seed)
        opener = rng.randrange(2)
        games = tuple(
            replace(self._random_game(rng, parsed, (opener + i) % 2), rules=match_rules)
            for i in range(rounds)
        )
        draft = Match(self.name, games, match_rules, ("player 1", "player 2"))
        finals = [self._final(record) for record in games]
        result, _ = self.match_result(draft, finals)
        return replace(
            draft, result=result, meta={"source": f"referee demo --seed {seed} (Clanfehde)"}
        )

    def _final(self, record: Record) -> State:
        state = self.start(record)
        for move in record.moves:
            state = state.play(move)
        return state


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
    return verdict.to_json(CLAN_CARDS)


def _cards(items: Sequence[Any], where: str, at: str, rules: Rules) -> list[Any]:
    """Cards from their texts: clan cards, and tactic cards when ``rules`` has tactics."""
    cards: list[AnyCard] = []
    for i, text in enumerate(items):
        if not isinstance(text, str):
            raise RecordError("expected a card like 'R7'", where, f"{at}[{i}]")
        try:
            if rules.tactics and text in TACTIC_NAMES:
                cards.append(Tactic(text))
            else:
                known = _CARD_BY_TEXT.get(text)
                cards.append(known if known is not None else CLAN_CARDS.parse(text))
        except InvalidCardError as error:
            raise RecordError(str(error), where, f"{at}[{i}]") from None
    return cards


_CARD_BY_TEXT = {str(card): card for card in CLAN_CARDS.cards}


def _check_once(seen: Counter[AnyCard], where: str, field: str) -> None:
    for card, count in seen.items():
        limit = copies(card) if type(card) is Tactic else 1
        if count > limit:
            raise RecordError(f"card {card} appears {count} times on the table", where, field)


def _player(value: Any, where: str, at: str, *, optional: bool) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or value not in (0, 1):
        raise RecordError(f"expected a player index 0 or 1, got {value!r}", where, at)
    return int(value)


FORMAT = register(SchottenTottenFormat())
