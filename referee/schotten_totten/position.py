"""Schotten Totten positions in records: a visible position read back into a
state, with its checks, and a state written as one; cards read from their text.

The records adapter (:mod:`referee.schotten_totten.record`) asks this module
for its ``load_position`` and ``position_of``. A position holds the stones
(their sides, owner, combat style, who completed first), the discards, who
is to move, and counts of what is hidden (hand sizes, tactic cards in the
hands and played, the recruiter's cards under the piles). What the table
decides is derived: the outcome, who has played a joker, and for a won
position the winner to move in the phase of its claim; so are the hand
sizes while the piles have cards.

    >>> from referee.records import Position
    >>> from referee.schotten_totten.record import FORMAT
    >>> state = read_position(Position("schotten-totten", {"stones": [{}] * 9}), FORMAT.rules_of)
    >>> state.hand_sizes, state.deck_size
    ((6, 6), 42)
    >>> position_fields(state)["hand_sizes"]
    [6, 6]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.cards import Card, InvalidCardError
from referee.game import Outcome, Termination
from referee.line.records import player_index, read_phase, refuse_unknown
from referee.records import Position, RecordError, completion_order
from referee.schotten_totten.rules import winner as stones_winner
from referee.schotten_totten.state import CLAN_CARDS, STONES, Phase, Rules, State, Stone
from referee.schotten_totten.status import full_hand
from referee.schotten_totten.tactics import (
    ELITE,
    STYLES,
    TACTIC_CARDS,
    TACTIC_NAMES,
    AnyCard,
    Tactic,
)

__all__ = ["position_fields", "read_cards", "read_position"]

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

_CARD_BY_TEXT = {str(card): card for card in CLAN_CARDS.cards}


def read_position(position: Position, rules_of: Callable[[Mapping[str, Any], str], Rules]) -> State:
    """The state of a visible position (hands and piles hidden), its rules read
    by ``rules_of``; a position that no game can reach is refused with one
    :class:`RecordError` naming every problem (see :meth:`State.status`)."""
    where, data = position.where, position.data
    refuse_unknown(set(data) - {"format", "game", "rules"}, _POSITION_FIELDS, where)
    rules = rules_of(position.rules, where)
    seen: Counter[AnyCard] = Counter()
    stones = _stones(data, rules, where, seen)
    discards_data = data.get("discards", [])
    if not isinstance(discards_data, list):
        raise RecordError("expected an array of cards", where, "discards")
    discards = read_cards(discards_data, where, "discards", rules)
    seen.update(discards)
    won = [o for o in (stones_winner(stones, p) for p in (0, 1)) if o is not None]
    winner = won[0].winner if len(won) == 1 else None
    to_move = player_index(data.get("to_move", 0 if winner is None else winner), where, "to_move")
    phase = _phase(data, where, rules, winner)
    blank = data.get("blank_turns", 0 if winner is None else -1)
    if isinstance(blank, bool) or not isinstance(blank, int) or not -1 <= blank <= 2:
        raise RecordError("expected -1, 0, 1 or 2", where, "blank_turns")
    under = _under_piles(data, where, rules)
    unseen, hidden_tactics = _unseen(seen, rules)
    sizes = _hand_sizes(data, rules, to_move, phase, unseen + hidden_tactics, where)
    # Tactic cards in the hands: given, or the fewest the unseen clan cards allow.
    short = max(0, sum(sizes) - unseen)
    fewest = [min(sizes[0], short), 0]
    fewest[1] = short - fewest[0]
    in_hands = _counts(data, "hand_tactics", fewest, where) if rules.tactics else [0, 0]
    played = _counts(data, "tactics_played", [0, 0], where)
    jokers = _jokers(data, stones, discards, where)
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


def _stones(
    data: Mapping[str, Any], rules: Rules, where: str, seen: Counter[AnyCard]
) -> list[Stone]:
    """The nine stones (their cards and styles counted in ``seen``)."""
    stones_data = data.get("stones")
    if not isinstance(stones_data, list) or len(stones_data) != STONES:
        raise RecordError(f"expected an array of {STONES} stones", where, "stones")
    return [_stone(item, i, rules, seen, where) for i, item in enumerate(stones_data)]


def _stone(item: Any, i: int, rules: Rules, seen: Counter[AnyCard], where: str) -> Stone:
    at = f"stones[{i}]"
    if not isinstance(item, dict):
        raise RecordError("expected an object", where, at)
    refuse_unknown(item, _STONE_FIELDS, where, f"{at}.")
    style = None
    if item.get("style") is not None:
        text = item["style"]
        if not rules.tactics or text not in STYLES:
            raise RecordError(
                f"expected a combat style ({', '.join(STYLES)}) in a tactics game, got {text!r}",
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
        cards = read_cards(side, where, field, rules)
        if len(cards) > size:
            raise RecordError(f"more than {size} cards", where, field)
        if any(type(c) is Tactic and c.name not in ELITE for c in cards):
            raise RecordError("only clan cards and elite troops lie on a side", where, field)
        seen.update(cards)
        sides.append(tuple(cards))
    owner = _player(item.get("owner"), where, f"{at}.owner")
    first = _player(item.get("first"), where, f"{at}.first")
    full = [len(s) == size for s in sides]
    completed = completion_order(full, first, where, f"{at}.first")
    return Stone((sides[0], sides[1]), completed, owner, style)


def _unseen(seen: Counter[AnyCard], rules: Rules) -> tuple[int, int]:
    """How many clan cards and tactic cards are not ``seen``."""
    unseen = max(0, len(CLAN_CARDS.cards) - sum(n for c, n in seen.items() if type(c) is Card))
    hidden_tactics = len(TACTIC_CARDS) - sum(n for c, n in seen.items() if type(c) is Tactic)
    if not rules.tactics:
        hidden_tactics = 0
    return unseen, max(0, hidden_tactics)


def _hand_sizes(
    data: Mapping[str, Any], rules: Rules, to_move: int, phase: Phase, hidden: int, where: str
) -> list[int]:
    """The hand sizes, which the ``hidden`` (unseen) cards must fill: given, or
    full hands while the piles have cards."""
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
            f"expected two hand sizes that fit the {hidden} unseen cards", where, "hand_sizes"
        )
    return sizes


def _jokers(
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
    return read_phase(Phase, data["phase"], where)


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


def _player(value: Any, where: str, at: str) -> int | None:
    """An optional player index (a stone's ``owner`` or ``first``)."""
    return None if value is None else player_index(value, where, at)


def position_fields(state: State) -> dict[str, Any]:
    """The fields of the visible position of ``state``."""
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
    return data


def read_cards(items: Sequence[Any], where: str, at: str, rules: Rules) -> list[Any]:
    """Cards from their texts (``at`` names the array): clan cards, and tactic
    cards when ``rules`` has tactics.

    >>> read_cards(["R7", "joker"], "", "discards", Rules(tactics=True))
    [Card('R', 7), Tactic('joker')]
    """
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
