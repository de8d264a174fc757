"""Schotten Totten 2 positions in records: a visible position read back into a
state, with its checks, and a state written as one; cards read from their text.

The records adapter (:mod:`referee.schotten_totten_2.record`) asks this module
for its ``load_position`` and ``position_of``. A position holds the wall
(``tiles``), what lies face up (``discards``, the played ``actions``), counts
of what is hidden (hand and pile sizes, tactic cards in the hands), the oil
left, who is to move, and mid-turn what the turn has pending. What it leaves
out is derived: the hand sizes from the unseen cards, ``exhausted`` from an
empty deck, a held siege from the attacker's last turn.

    >>> from referee.records import Position
    >>> from referee.schotten_totten_2.record import FORMAT
    >>> state = read_position(Position("schotten-totten-2", {"tiles": [{}] * 7}), FORMAT.rules_of)
    >>> state.hand_sizes, state.deck_size, state.oil
    ((6, 6), 48, 3)
    >>> position_fields(state)["hand_sizes"]
    [6, 6]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.cards import Card, InvalidCardError
from referee.game import REFEREE_ENDS, Outcome, Termination
from referee.line.records import player_index, read_phase, refuse_unknown
from referee.records import Position, RecordError, completion_order
from referee.schotten_totten_2.state import OIL_CAULDRONS, Phase, Rules, State
from referee.schotten_totten_2.wall import SIEGE_CARDS, TILES, AnyCard, TacticCard, Tile

__all__ = ["position_fields", "read_cards", "read_position"]

#: The fields of a position (besides format, game and rules).
_POSITION_FIELDS = frozenset(
    {
        "attacker", "to_move", "tiles", "discards", "actions", "hand_sizes", "hand_tactics",
        "deck_size", "tactic_deck_size", "tactics_played", "oil", "exhausted",
        "phase", "support", "exchange", "late_control", "result",
    }
)  # fmt: skip

#: The ends of a siege a position may give as its ``result``.
_SIEGE_ENDS = (
    Termination.CONTROLLED_DAMAGED_TILE,
    Termination.FOURTH_TILE_DAMAGED,
    Termination.SIEGE_HELD,
    Termination.SIEGE_FAILED,
)


def read_position(position: Position, rules_of: Callable[[Mapping[str, Any], str], Rules]) -> State:
    """The state of a visible position (hands and piles hidden), its rules read
    by ``rules_of``; a position no game reaches is refused with one
    :class:`RecordError` naming every problem (see :meth:`State.status`)."""
    where, data = position.where, position.data
    refuse_unknown(set(data) - {"format", "game", "rules"}, _POSITION_FIELDS, where)
    rules = rules_of(position.rules, where)
    attacker = player_index(data.get("attacker", 0), where, "attacker")
    seen: Counter[AnyCard] = Counter()
    tiles = _tiles(data, rules, where, seen)
    discards = read_cards(_list(data, "discards", where), rules, where, "discards")
    seen.update(discards)
    actions = _actions(data, rules, where, seen)
    phase = read_phase(Phase, data.get("phase", Phase.OPENING.value), where)
    support = _pending(data, "support", 2, rules, where)
    exchange = _pending(data, "exchange", 3, rules, where)
    if support is not None:
        seen.update(support)
    hidden = _hidden(data, rules, seen, where)
    played = _counts(data.get("tactics_played", [0, 0]), 2, where, "tactics_played")
    oil = _counts(data.get("oil", OIL_CAULDRONS), 1, where, "oil")[0]
    if oil > OIL_CAULDRONS:
        raise RecordError(f"at most {OIL_CAULDRONS} oil cauldrons", where, "oil")
    to_move = player_index(data.get("to_move", attacker), where, "to_move")
    flags = _flags(data, hidden["deck_size"] == 0 and phase is not Phase.SHUFFLE, where)
    outcome = _result(data.get("result"), attacker, where)
    if outcome is None and "result" not in data and _siege_held(flags, to_move, attacker, phase):
        outcome = Outcome(Termination.SIEGE_HELD, 1 - attacker)
    try:
        state = State(
            rules=rules,
            attacker=attacker,
            tiles=tiles,
            hands=(None, None),
            deck=None,
            tactic_deck=None,
            discards=tuple(discards),
            actions=actions,
            tactics_played=(played[0], played[1]),
            oil=oil,
            to_move=to_move,
            phase=phase,
            # Later completions must count as later than every recorded one.
            ply=2,
            support=None if support is None else (_siege(support[0]), _siege(support[1])),
            exchange=None if exchange is None else (exchange[0], exchange[1], exchange[2]),
            outcome=outcome,
            exhausted=flags["exhausted"],
            late_control=flags["late_control"],
            **hidden,
        )
    except ValueError as error:
        raise RecordError(str(error), where, _field_of(str(error))) from None
    problems = state.status()
    if problems:
        message = "impossible Schotten Totten 2 position: " + "; ".join(problems)
        raise RecordError(message, where, _field_of(message))
    return state


def _tiles(
    data: Mapping[str, Any], rules: Rules, where: str, seen: Counter[AnyCard]
) -> tuple[Tile, ...]:
    """The wall's tiles (their cards counted in ``seen``)."""
    tiles_data = data.get("tiles")
    if not isinstance(tiles_data, list) or len(tiles_data) != TILES:
        raise RecordError(f"expected an array of {TILES} tiles", where, "tiles")
    tiles = []
    for i, item in enumerate(tiles_data):
        tile = _tile(item, i + 1, rules, where, f"tiles[{i}]")
        seen.update(tile.sides[0])
        seen.update(tile.sides[1])
        tiles.append(tile)
    return tuple(tiles)


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
        cards = read_cards(side, rules, where, f"{at}.sides[{p}]")
        if any(isinstance(c, TacticCard) and not c.is_elite for c in cards):
            raise RecordError("action cards never lie at a tile", where, f"{at}.sides[{p}]")
        # An oversized side, or a 0 facing the 11 of its colour, is reported by
        # the state's check together with every other problem.
        sides.append(tuple(cards))
    first = item.get("first")
    if first is not None:
        first = player_index(first, where, f"{at}.first")
    full = [len(s) == empty.rule.size for s in sides]
    completed = completion_order(full, first, where, f"{at}.first")
    return Tile(number, damaged, (sides[0], sides[1]), (completed[0], completed[1]))


def _actions(
    data: Mapping[str, Any], rules: Rules, where: str, seen: Counter[AnyCard]
) -> tuple[tuple[TacticCard, ...], tuple[TacticCard, ...]]:
    """The action cards each player has played face up (counted in ``seen``)."""
    actions_data = _list(data, "actions", where, [[], []])
    if len(actions_data) != 2:
        raise RecordError("expected two arrays of action cards", where, "actions")
    actions: list[tuple[TacticCard, ...]] = []
    for p, items in enumerate(actions_data):
        at = f"actions[{p}]"
        cards = read_cards(items if isinstance(items, list) else [None], rules, where, at)
        if any(not isinstance(c, TacticCard) or c.is_elite for c in cards):
            raise RecordError("expected action cards", where, at)
        actions.append(tuple(c for c in cards if isinstance(c, TacticCard)))
        seen.update(cards)
    return (actions[0], actions[1])


def _pending(
    data: Mapping[str, Any], key: str, count: int, rules: Rules, where: str
) -> tuple[AnyCard, ...] | None:
    """The cards a turn has pending under ``key`` (``support``: 2, ``exchange``: 3)."""
    if key not in data:
        return None
    items = data[key]
    if not isinstance(items, list) or len(items) != count:
        raise RecordError(f"expected an array of {count} cards", where, key)
    return tuple(read_cards(items, rules, where, key))


def _hidden(
    data: Mapping[str, Any], rules: Rules, seen: Counter[AnyCard], where: str
) -> dict[str, Any]:
    """The sizes of what is hidden, as the state's fields: given, or what the
    cards not ``seen`` leave (full hands while they last, the rest in the piles)."""
    siege: Counter[AnyCard] = Counter(SIEGE_CARDS.cards)
    unseen_siege = max(0, sum((siege - seen).values()))
    unseen_tactics = sum(((rules.all_cards - siege) - seen).values())
    default_hands = [min(rules.hand_size, unseen_siege // 2)] * 2
    sizes = _counts(data.get("hand_sizes", default_hands), 2, where, "hand_sizes")
    tactic_size = _counts(
        data.get("tactic_deck_size", max(0, unseen_tactics)), 1, where, "tactic_deck_size"
    )[0]
    hand_tactics = None
    if "hand_tactics" in data:
        hand_tactics = _counts(data["hand_tactics"], 2, where, "hand_tactics")
    in_hands = sum(hand_tactics) if hand_tactics else max(0, unseen_tactics - tactic_size)
    deck_size = _counts(
        data.get("deck_size", max(0, unseen_siege - sum(sizes) + in_hands)), 1, where, "deck_size"
    )[0]
    return {
        "hand_sizes": (sizes[0], sizes[1]),
        "deck_size": deck_size,
        "tactic_deck_size": tactic_size,
        "hand_tactics": None if hand_tactics is None else (hand_tactics[0], hand_tactics[1]),
    }


def _flags(data: Mapping[str, Any], deck_empty: bool, where: str) -> dict[str, bool]:
    """``exhausted`` and ``late_control``: given, or derived (the siege deck is
    exhausted only once its last card has been drawn)."""
    flags = {}
    for key, default in (("exhausted", deck_empty), ("late_control", False)):
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise RecordError("expected true or false", where, key)
        flags[key] = value
    return flags


def _siege_held(flags: Mapping[str, bool], to_move: int, attacker: int, phase: Phase) -> bool:
    """Whether the attacker's last turn ended without a draw: the siege held."""
    return (
        flags["exhausted"]
        and to_move != attacker
        and phase is Phase.OPENING
        and not flags["late_control"]
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
    return Outcome(Termination(reason), player_index(winner, where, "result.winner"))


def _siege(card: AnyCard) -> Card:
    if not isinstance(card, Card):
        raise ValueError(f"support takes siege cards, not {card}")
    return card


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


def position_fields(state: State) -> dict[str, Any]:
    """The fields of the visible position of ``state`` (mid-turn too: it loads back)."""
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
    return data | _turn_fields(state)


def _turn_fields(state: State) -> dict[str, Any]:
    """What a position says of the turn: its phase, what it has pending, how it ended."""
    data: dict[str, Any] = {}
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
    return data


def read_cards(items: Sequence[Any], rules: Rules, where: str, at: str) -> list[AnyCard]:
    """Cards from their texts (``at`` names the array): siege cards, and tactic
    cards when ``rules`` has tactics.

    >>> read_cards(["R7", "B0"], Rules(), "", "discards")
    [Card('R', 7), Card('B', 0)]
    """
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
