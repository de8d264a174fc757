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
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.cards import Card, InvalidCardError
from referee.game import Outcome, Termination
from referee.line.records import LineFormat, player_index, playout
from referee.prover import ClaimVerdict
from referee.records import (
    ClaimAnswer,
    GameFormat,
    Match,
    Position,
    Record,
    RecordError,
    completion_order,
    read_variants,
)
from referee.schotten_totten.moves import Claim, Move
from referee.schotten_totten.rules import winner as stones_winner
from referee.schotten_totten.start import check_deck, new_game, public_game
from referee.schotten_totten.state import (
    CLAN_CARDS,
    STONES,
    Phase,
    Rules,
    State,
    Stone,
)
from referee.schotten_totten.status import full_hand
from referee.schotten_totten.tactics import (
    ELITE,
    STYLES,
    TACTIC_CARDS,
    TACTIC_NAMES,
    AnyCard,
    Tactic,
)

__all__ = ["FORMAT", "SchottenTottenFormat", "random_playout", "verdict_json"]

#: The fields of a stone in a position.
_STONE_FIELDS = frozenset({"sides", "style", "owner", "first"})
#: The fields of a position (besides format, game and rules).
_POSITION_FIELDS = frozenset(
    {
        "stones",
        "discards",
        "to_move",
        "phase",
        "blank_turns",
        "hand_sizes",
        "hand_tactics",
        "tactics_played",
        "jokers_played",
        "under_piles",
    }
)

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

    # --- positions -----------------------------------------------------------------

    def load_position(self, position: Position) -> State:
        """The state of a visible position (hands and piles hidden).

        What the table decides is derived: the outcome (three adjacent or five
        stones, or a blocked game), which players have played a joker, and for
        a won position the winner to move in the phase of its claim. Hand sizes
        are derived while the piles have cards (hands are full then). A
        position that no game can reach is refused with one
        :class:`RecordError` naming every problem (see :meth:`State.status`).
        """
        where, data = position.where, position.data
        unknown = sorted(set(data) - _POSITION_FIELDS - {"format", "game", "rules"})
        if unknown:
            known = ", ".join(sorted(_POSITION_FIELDS))
            raise RecordError(f"unknown field (known: {known})", where, unknown[0])
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
        won = [o for o in (stones_winner(stones, p) for p in (0, 1)) if o is not None]
        winner = won[0].winner if len(won) == 1 else None
        to_move = _player(
            data.get("to_move", 0 if winner is None else winner), where, "to_move", optional=False
        )
        assert to_move is not None
        phase = _phase(data, where, rules, winner)
        blank = data.get("blank_turns", 0 if winner is None else -1)
        if isinstance(blank, bool) or not isinstance(blank, int) or not -1 <= blank <= 2:
            raise RecordError("expected -1, 0, 1 or 2", where, "blank_turns")
        under = _under_piles(data, where, rules)
        unseen = max(0, len(CLAN_CARDS.cards) - sum(n for c, n in seen.items() if type(c) is Card))
        hidden_tactics = len(TACTIC_CARDS) - sum(n for c, n in seen.items() if type(c) is Tactic)
        if not rules.tactics:
            hidden_tactics = 0
        hidden_tactics = max(0, hidden_tactics)
        hidden = unseen + hidden_tactics
        if "hand_sizes" in data:
            sizes = _counts(data, "hand_sizes", [0, 0], where)
        else:
            # While the piles have cards, hands are full (one card fewer right
            # after playing one, two more between the recruiter's draws and returns).
            draft = State(rules=rules, to_move=to_move, phase=phase)
            sizes = [full_hand(draft, 0), full_hand(draft, 1)]
            if sum(sizes) > hidden:
                raise RecordError(
                    f"say how many cards each hand holds: the {hidden} unseen cards cannot "
                    "fill both hands, so the piles have run out and the hands may be short",
                    where,
                    "hand_sizes",
                )
        if sum(sizes) > hidden:
            raise RecordError(
                f"expected two hand sizes that fit the {hidden} unseen cards",
                where,
                "hand_sizes",
            )
        # Tactic cards in the hands: given, or the fewest the unseen clan cards allow.
        short = max(0, sum(sizes) - unseen)
        fewest = [min(sizes[0], short), 0]
        fewest[1] = short - fewest[0]
        in_hands = _counts(data, "hand_tactics", fewest, where) if rules.tactics else [0, 0]
        played = _counts(data, "tactics_played", [0, 0], where)
        jokers = self._jokers(data, stones, discards, where)
        clans_held = sum(sizes) - sum(in_hands)
        problems = []
        if clans_held > unseen:
            problems.append(f"the hands hold {clans_held} clan cards but only {unseen} are unseen")
        if sum(in_hands) > hidden_tactics:
            problems.append(
                f"the hands hold {sum(in_hands)} tactic cards but only {hidden_tactics} are unseen"
            )
        if problems:
            raise RecordError("impossible position: " + "; ".join(problems), where)
        outcome = won[0] if len(won) == 1 else None
        if outcome is None and blank >= 2:
            outcome = Outcome(Termination.BLOCKED, None)
        state = State(
            rules=rules,
            stones=tuple(stones),
            hands=(None, None),
            hand_sizes=(sizes[0], sizes[1]),
            deck=None,
            deck_size=unseen - clans_held,
            tactic_deck=None,
            tactic_deck_size=hidden_tactics - sum(in_hands),
            discards=tuple(discards),
            tactics_played=(played[0], played[1]),
            jokers_played=jokers,
            to_move=to_move,
            phase=phase,
            # Later completions must count as later than every recorded one.
            ply=2,
            outcome=outcome,
            blank_turns=blank,
            hand_tactics=(in_hands[0], in_hands[1]),
            under_piles=under,
        )
        problems = list(state.status())
        if problems:
            raise RecordError("impossible position: " + "; ".join(problems), where)
        return state

    def _jokers(
        self,
        data: Mapping[str, Any],
        stones: Sequence[Stone],
        discards: Sequence[AnyCard],
        where: str,
    ) -> tuple[bool, bool]:
        """Which players have played a joker: given, or derived from the table."""
        joker = Tactic("joker")
        on_side = [any(joker in s.sides[p] for s in stones) for p in (0, 1)]
        discarded = sum(1 for c in discards if c == joker)
        given = data.get("jokers_played")
        if given is not None:
            if (
                not isinstance(given, list)
                or len(given) != 2
                or not all(isinstance(b, bool) for b in given)
            ):
                raise RecordError("expected two booleans", where, "jokers_played")
            if sum(given) != sum(on_side) + discarded:
                raise RecordError(
                    f"{sum(on_side) + discarded} jokers lie on the table, so that many players "
                    "have played one",
                    where,
                    "jokers_played",
                )
            return (given[0], given[1])
        open_players = [p for p in (0, 1) if not on_side[p]]
        if discarded not in (0, len(open_players)):
            raise RecordError(
                "a discarded joker could be either player's: say who has played a joker",
                where,
                "jokers_played",
            )
        return (on_side[0] or bool(discarded), on_side[1] or bool(discarded))

    def _stone(self, item: Any, i: int, rules: Rules, seen: Counter[AnyCard], where: str) -> Stone:
        at = f"stones[{i}]"
        if not isinstance(item, dict):
            raise RecordError("expected an object", where, at)
        unknown = sorted(set(item) - _STONE_FIELDS)
        if unknown:
            known = ", ".join(sorted(_STONE_FIELDS))
            raise RecordError(f"unknown field (known: {known})", where, f"{at}.{unknown[0]}")
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
            data["jokers_played"] = list(state.jokers_played)
            data["hand_tactics"] = [state.tactics_in_hand(0), state.tactics_in_hand(1)]
        won = any(stones_winner(state.stones, p) is not None for p in (0, 1))
        if state.phase is not Phase.PLAY or won:
            data["phase"] = state.phase.value
        if state.blank_turns:
            data["blank_turns"] = state.blank_turns
        if state.under_piles[0] or state.under_piles[1]:
            data["under_piles"] = [[p for p, _ in pile] for pile in state.under_piles]
        return Position(self.name, data, self.rules_json(state.rules))

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


def _counts(data: Mapping[str, Any], key: str, default: list[int], where: str) -> list[int]:
    """Two non-negative counts, one per player (``hand_sizes``, ``tactics_played`` ...)."""
    value = data.get(key, default)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 64 for n in value)
    ):
        raise RecordError("expected two counts, one per player", where, key)
    return [value[0], value[1]]


def _phase(data: Mapping[str, Any], where: str, rules: Rules, winner: int | None) -> Phase:
    """The phase of a position: given, or the start of a turn; a won position
    without one stands at the winning claim, right after the card played (at
    the start of the turn with Der frühe Vogel, where claims come first)."""
    if "phase" not in data:
        if winner is None or rules.early_bird:
            return Phase.PLAY
        return Phase.AFTER_PLAY
    text = data["phase"]
    try:
        return Phase(text)
    except ValueError:
        names = ", ".join(p.value for p in Phase)
        raise RecordError(f"expected a phase ({names}), got {text!r}", where, "phase") from None


def _under_piles(
    data: Mapping[str, Any], where: str, rules: Rules
) -> tuple[tuple[tuple[int, AnyCard | str], ...], ...]:
    """The recruiter's cards under the piles, as players: ``[[0, 0], []]`` (clan
    pile, tactic pile; bottom-most last). Their faces are hidden."""
    value = data.get("under_piles", [[], []])
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(
            isinstance(pile, list)
            and all(isinstance(p, int) and not isinstance(p, bool) and p in (0, 1) for p in pile)
            for pile in value
        )
    ):
        raise RecordError(
            "expected two arrays (clan pile, tactic pile) of the players who put cards there",
            where,
            "under_piles",
        )
    if (value[0] or value[1]) and not rules.tactics:
        raise RecordError("cards go under the piles only with tactics", where, "under_piles")
    return tuple(
        tuple((p, name) for p in pile) for pile, name in zip(value, ("clan", "tactic"), strict=True)
    )


def _player(value: Any, where: str, at: str, *, optional: bool) -> int | None:
    return None if value is None and optional else player_index(value, where, at)


FORMAT = SchottenTottenFormat()
#: mypy checks here that the format implements the whole protocol.
_PROTOCOL_CHECK: GameFormat[State] = FORMAT
