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
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.cards import Card, InvalidCardError
from referee.game import REFEREE_ENDS, Outcome, Termination
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
from referee.schotten_totten_2.match import GameResult, decide
from referee.schotten_totten_2.moves import Control, Move, Oil, Retreat
from referee.schotten_totten_2.state import (
    OIL_CAULDRONS,
    Phase,
    Rules,
    State,
    new_game,
    public_game,
)
from referee.schotten_totten_2.wall import (
    SIEGE_CARDS,
    TACTIC_CARDS,
    TILES,
    AnyCard,
    TacticCard,
    Tile,
)

__all__ = ["FORMAT", "RACHE", "SchottenTotten2Format", "random_playout", "verdict_json"]

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
        naming every problem.
        """
        where, data = position.where, position.data
        known = {
            "attacker", "to_move", "tiles", "discards", "actions", "hand_sizes", "hand_tactics",
            "deck_size", "tactic_deck_size", "tactics_played", "oil", "exhausted",
            "phase", "support", "exchange", "late_control", "result",
        }  # fmt: skip
        extra = sorted(set(data) - known - {"format", "game", "rules"})
        if extra:
            raise RecordError(f"unknown field (known: {', '.join(sorted(known))})", where, extra[0])
        rules = self.rules_of(position.rules, where)
        attacker = _player(data.get("attacker", 0), where, "attacker")
        tiles_data = data.get("tiles")
        if not isinstance(tiles_data, list) or len(tiles_data) != TILES:
            raise RecordError(f"expected an array of {TILES} tiles", where, "tiles")
        seen: Counter[AnyCard] = Counter()
        tiles = []
        for i, item in enumerate(tiles_data):
            tile = _tile(item, i + 1, rules, where, f"tiles[{i}]")
            seen.update(tile.sides[0])
            seen.update(tile.sides[1])
            tiles.append(tile)
        discards = _cards(_list(data, "discards", where), rules, where, "discards")
        seen.update(discards)
        actions_data = _list(data, "actions", where, [[], []])
        if len(actions_data) != 2:
            raise RecordError("expected two arrays of action cards", where, "actions")
        actions: list[tuple[TacticCard, ...]] = []
        for p, items in enumerate(actions_data):
            at = f"actions[{p}]"
            cards = _cards(items if isinstance(items, list) else [None], rules, where, at)
            if any(not isinstance(c, TacticCard) or c.is_elite for c in cards):
                raise RecordError("expected action cards", where, at)
            actions.append(tuple(c for c in cards if isinstance(c, TacticCard)))
            seen.update(cards)
        phase_text = data.get("phase", Phase.OPENING.value)
        try:
            phase = Phase(phase_text)
        except ValueError:
            names = ", ".join(p.value for p in Phase)
            raise RecordError(
                f"expected a phase ({names}), got {phase_text!r}", where, "phase"
            ) from None
        pending: dict[str, tuple[AnyCard, ...] | None] = {}
        for key, count in (("support", 2), ("exchange", 3)):
            if key in data:
                items = data[key]
                if not isinstance(items, list) or len(items) != count:
                    raise RecordError(f"expected an array of {count} cards", where, key)
                pending[key] = tuple(_cards(items, rules, where, key))
            else:
                pending[key] = None
        support = pending["support"]
        if support is not None:
            seen.update(support)
        siege: Counter[AnyCard] = Counter(SIEGE_CARDS.cards)
        unseen_siege = max(0, sum((siege - seen).values()))
        unseen_tactics = sum(((rules.all_cards - siege) - seen).values())
        size = rules.hand_size
        default_hands = [min(size, unseen_siege // 2)] * 2
        sizes = _counts(data.get("hand_sizes", default_hands), 2, where, "hand_sizes")
        tactic_size = _counts(
            data.get("tactic_deck_size", max(0, unseen_tactics)), 1, where, "tactic_deck_size"
        )[0]
        hand_tactics = None
        if "hand_tactics" in data:
            hand_tactics = _counts(data["hand_tactics"], 2, where, "hand_tactics")
        in_hands = sum(hand_tactics) if hand_tactics else max(0, unseen_tactics - tactic_size)
        deck_size = _counts(
            data.get("deck_size", max(0, unseen_siege - sum(sizes) + in_hands)),
            1,
            where,
            "deck_size",
        )[0]
        played = _counts(data.get("tactics_played", [0, 0]), 2, where, "tactics_played")
        oil = _counts(data.get("oil", OIL_CAULDRONS), 1, where, "oil")[0]
        if oil > OIL_CAULDRONS:
            raise RecordError(f"at most {OIL_CAULDRONS} oil cauldrons", where, "oil")
        to_move = _player(data.get("to_move", attacker), where, "to_move")
        flags = {}
        # Derived: the siege deck is empty only once its last card has been drawn.
        defaults = {
            "exhausted": deck_size == 0 and phase is not Phase.SHUFFLE,
            "late_control": False,
        }
        for key in ("exhausted", "late_control"):
            value = data.get(key, defaults[key])
            if not isinstance(value, bool):
                raise RecordError("expected true or false", where, key)
            flags[key] = value
        exchange = pending["exchange"]
        outcome = _result(data.get("result"), attacker, where)
        if (
            outcome is None
            and "result" not in data
            and flags["exhausted"]
            and to_move != attacker
            and phase is Phase.OPENING
            and not flags["late_control"]
        ):
            # Derived: the attacker's last turn ended without a draw: the siege held.
            outcome = Outcome(Termination.SIEGE_HELD, 1 - attacker)
        try:
            state = State(
                rules=rules,
                attacker=attacker,
                tiles=tuple(tiles),
                hands=(None, None),
                hand_sizes=(sizes[0], sizes[1]),
                deck=None,
                deck_size=deck_size,
                tactic_deck=None,
                tactic_deck_size=tactic_size,
                discards=tuple(discards),
                actions=(actions[0], actions[1]),
                tactics_played=(played[0], played[1]),
                oil=oil,
                to_move=to_move,
                phase=phase,
                # Later completions must count as later than every recorded one.
                ply=2,
                exhausted=flags["exhausted"],
                support=None if support is None else (_siege(support[0]), _siege(support[1])),
                hand_tactics=None if hand_tactics is None else (hand_tactics[0], hand_tactics[1]),
                exchange=None if exchange is None else (exchange[0], exchange[1], exchange[2]),
                late_control=flags["late_control"],
                outcome=outcome,
            )
        except ValueError as error:
            raise RecordError(str(error), where, _field_of(str(error))) from None
        problems = state.status()
        if problems:
            message = "impossible Schotten Totten 2 position: " + "; ".join(problems)
            raise RecordError(message, where, _field_of(message))
        return state

    def position_of(self, state: State) -> Position:
        """The visible position of ``state`` (mid-turn too: it loads back)."""
        tiles = []
        for tile in state.tiles:
            item: dict[str, Any] = {
                "damaged": tile.damaged,
                "sides": [[str(c) for c in side] for side in tile.sides],
            }
            done = tile.completed
            if done[0] is not None and done[1] is not None:
                item["first"] = 0 if done[0] < done[1] else 1
            tiles.append(item)
        data: dict[str, Any] = {
            "attacker": state.attacker,
            "to_move": state.to_move,
            "tiles": tiles,
            "discards": [str(c) for c in state.discards],
            "oil": state.oil,
            "hand_sizes": list(state.hand_sizes),
            "deck_size": state.deck_size,
        }
        if state.rules.tactics:
            data["tactic_deck_size"] = state.tactic_deck_size
            data["actions"] = [[str(c) for c in side] for side in state.actions]
            data["tactics_played"] = list(state.tactics_played)
            data["hand_tactics"] = [state.tactics_in_hand(0), state.tactics_in_hand(1)]
        if state.exhausted:
            data["exhausted"] = True
        if state.phase is not Phase.OPENING:
            data["phase"] = state.phase.value
        if state.support is not None:
            data["support"] = [str(c) for c in state.support]
        if state.exchange is not None:
            data["exchange"] = [str(c) for c in state.exchange]
        if state.late_control:
            data["late_control"] = True
        outcome = state.outcome
        if outcome is not None and outcome.reason not in REFEREE_ENDS:
            # How a siege ended is not all on the table (a damaged tile controlled
            # again, a siege held or failed): the position says it.
            data["result"] = {"winner": outcome.winner, "reason": str(outcome.reason)}
        return Position(self.name, data, self.rules_json(state.rules))

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


def verdict_json(verdict: ClaimVerdict) -> dict[str, Any]:
    """A control verdict's evidence as JSON, with cards in Schotten Totten 2 text."""
    return verdict.to_json(SIEGE_CARDS)


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
    deck = _cards(deck_data, Rules(), where, f"{at}.deck")
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


def _tile(item: Any, number: int, rules: Rules, where: str, at: str) -> Tile:
    if not isinstance(item, dict):
        raise RecordError("expected an object", where, at)
    damaged = item.get("damaged", False)
    if not isinstance(damaged, bool):
        raise RecordError("expected true or false", where, f"{at}.damaged")
    empty = Tile(number, damaged)
    sides_data = item.get("sides", [[], []])
    if not isinstance(sides_data, list) or len(sides_data) != 2:
        raise RecordError("expected two arrays of cards", where, f"{at}.sides")
    sides = []
    for p, side in enumerate(sides_data):
        if not isinstance(side, list):
            raise RecordError("expected an array of cards", where, f"{at}.sides[{p}]")
        cards = _cards(side, rules, where, f"{at}.sides[{p}]")
        if any(isinstance(c, TacticCard) and not c.is_elite for c in cards):
            raise RecordError("action cards never lie at a tile", where, f"{at}.sides[{p}]")
        # An oversized side, or a 0 facing the 11 of its colour, is reported by
        # the state's check together with every other problem.
        sides.append(tuple(cards))
    first = item.get("first")
    if first is not None:
        first = _player(first, where, f"{at}.first")
    full = [len(s) == empty.rule.size for s in sides]
    completed = completion_order(full, first, where, f"{at}.first")
    return Tile(number, damaged, (sides[0], sides[1]), (completed[0], completed[1]))


def _cards(items: Sequence[Any], rules: Rules, where: str, at: str) -> list[AnyCard]:
    cards: list[AnyCard] = []
    for i, text in enumerate(items):
        if not isinstance(text, str):
            raise RecordError("expected a card like 'R7'", where, f"{at}[{i}]")
        try:
            if text[:1].islower():
                if not rules.tactics:
                    raise ValueError(f"{text!r}: tactic cards need the tactics variant")
                cards.append(TacticCard.parse(text))
            else:
                cards.append(SIEGE_CARDS.parse(text))
        except (InvalidCardError, ValueError) as error:
            raise RecordError(str(error), where, f"{at}[{i}]") from None
    return cards


def _field_of(message: str) -> str:
    """The position field the first problem of a refused state is about."""
    first = message.split(": ", 1)[-1]
    tile = re.match(r"tile (\d): (?:player (\d)'s side)?", first)
    if tile:
        side = f".sides[{int(tile.group(2)) - 1}]" if tile.group(2) else ""
        return f"tiles[{int(tile.group(1)) - 1}]{side}"
    for words, field in (
        ("turns alternate", ""),
        ("exhausted", "exhausted"),
        ("oil cauldrons", "oil"),
        ("the siege failed", "result"),
        ("the siege held", "result"),
        ("the siege ends", "result"),
        ("the attacker won", "result"),
        ("offer", "exchange"),
        ("hand_tactics", "hand_tactics"),
        ("tactic cards do not add up", "tactic_deck_size"),
        ("do not add up", "hand_sizes"),
        ("holds", "hand_sizes"),
        ("tactics_played", "tactics_played"),
        ("action cards", "actions"),
    ):
        if words in first:
            return field
    return ""


#: The ends of a siege a position may give as its ``result``.
_SIEGE_ENDS = (
    Termination.CONTROLLED_DAMAGED_TILE,
    Termination.FOURTH_TILE_DAMAGED,
    Termination.SIEGE_HELD,
    Termination.SIEGE_FAILED,
)


def _result(value: Any, attacker: int, where: str) -> Outcome | None:
    """A position's ``result``: how the siege ended, ``{"winner": ..., "reason": ...}``."""
    if value is None:
        return None
    reasons = ", ".join(str(r) for r in _SIEGE_ENDS)
    if not isinstance(value, dict) or set(value) != {"winner", "reason"}:
        raise RecordError(
            f"expected an object with the winner (0 or 1) and the reason ({reasons})",
            where,
            "result",
        )
    reason, winner = value["reason"], value["winner"]
    if reason not in [str(r) for r in _SIEGE_ENDS]:
        raise RecordError(f"expected a reason ({reasons}), got {reason!r}", where, "result.reason")
    return Outcome(Termination(reason), _player(winner, where, "result.winner"))


def _siege(card: AnyCard) -> Card:
    if not isinstance(card, Card):
        raise ValueError(f"support takes siege cards, not {card}")
    return card


def _list(data: Mapping[str, Any], key: str, where: str, default: Any = None) -> list[Any]:
    value = data.get(key, [] if default is None else default)
    if not isinstance(value, list):
        raise RecordError("expected an array", where, key)
    return value


def _counts(value: Any, n: int, where: str, at: str) -> list[int]:
    items = value if isinstance(value, list) else [value]
    if (
        len(items) != n
        or (n == 1 and isinstance(value, list))
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in items)
    ):
        what = "a count" if n == 1 else f"{n} counts"
        raise RecordError(f"expected {what} (whole numbers from 0)", where, at)
    return [int(x) for x in items]


_player = player_index


FORMAT = SchottenTotten2Format()
#: mypy checks here that the format implements the whole protocol.
_PROTOCOL_CHECK: GameFormat[State] = FORMAT
