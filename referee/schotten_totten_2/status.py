"""Checks of a Schotten Totten 2 position built from outside, like
python-chess's ``status()``: fields of the wrong type, then what cannot exist
at all (cards in two places, counts that do not add up, a side over its
size ...), then, for :meth:`State.status`, what no legal game from a deal
passes through (see :mod:`~referee.schotten_totten_2.reachable`). What a
position says implicitly (tactic cards in hand, the outcome) is filled in
when it is made (:func:`derive`).

>>> from referee.schotten_totten_2 import new_game
>>> problems(new_game(seed=1), reachable=True)
[]
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.cards import Card
from referee.game import Outcome, Termination
from referee.line.place import slot_writer
from referee.schotten_totten_2.reachable import reachable_problems, turn_holder
from referee.schotten_totten_2.state import (
    DAMAGED_TO_WIN,
    EXCHANGED,
    OIL_CAULDRONS,
    Phase,
    Rules,
    State,
)
from referee.schotten_totten_2.wall import (
    SIEGE_CARDS,
    TACTIC_CARDS,
    TILES,
    AnyCard,
    TacticCard,
    Tile,
)

__all__ = ["derive", "field_problems", "problems"]


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_player(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in (0, 1)


def _is_cards(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(c, (Card, TacticCard)) for c in value)


def _is_pair(value: object, check: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and all(check(v) for v in value)


def field_problems(state: State) -> list[str]:
    """Fields of the wrong type or out of range (nothing else is checked then)."""
    problems = []
    checks: list[tuple[str, bool, str]] = [
        ("rules", isinstance(state.rules, Rules), "a Rules value"),
        ("attacker", _is_player(state.attacker), "0 or 1"),
        ("to_move", _is_player(state.to_move), "0 or 1"),
        (
            "tiles",
            isinstance(state.tiles, tuple)
            and len(state.tiles) == TILES
            and all(
                isinstance(t, Tile)
                and t.number == n
                and isinstance(t.damaged, bool)
                and _is_pair(t.sides, _is_cards)
                and _is_pair(t.completed, lambda c: c is None or _is_count(c))
                for n, t in enumerate(state.tiles, start=1)
            ),
            f"{TILES} Tile values numbered 1-{TILES}",
        ),
        ("hands", _is_pair(state.hands, lambda h: h is None or _is_cards(h)), "2 hands"),
        ("hand_sizes", _is_pair(state.hand_sizes, _is_count), "2 counts"),
        (
            "deck",
            state.deck is None
            or (isinstance(state.deck, tuple) and all(isinstance(c, Card) for c in state.deck)),
            "None or a tuple of siege cards",
        ),
        ("deck_size", _is_count(state.deck_size), "a count"),
        (
            "tactic_deck",
            state.tactic_deck is None
            or (
                isinstance(state.tactic_deck, tuple)
                and all(isinstance(c, TacticCard) for c in state.tactic_deck)
            ),
            "None or a tuple of tactic cards",
        ),
        ("tactic_deck_size", _is_count(state.tactic_deck_size), "a count"),
        ("discards", _is_cards(state.discards), "a tuple of cards"),
        (
            "actions",
            _is_pair(
                state.actions,
                lambda a: (
                    isinstance(a, tuple)
                    and all(isinstance(c, TacticCard) and not c.is_elite for c in a)
                ),
            ),
            "2 tuples of action cards",
        ),
        ("tactics_played", _is_pair(state.tactics_played, _is_count), "2 counts"),
        (
            "oil",
            _is_count(state.oil) and state.oil <= OIL_CAULDRONS,
            f"a count 0-{OIL_CAULDRONS}",
        ),
        ("phase", isinstance(state.phase, Phase), "a Phase"),
        ("ply", _is_count(state.ply), "a count"),
        ("exhausted", isinstance(state.exhausted, bool), "True or False"),
        ("final_turn", isinstance(state.final_turn, bool), "True or False"),
        ("late_control", isinstance(state.late_control, bool), "True or False"),
        ("chance_seed", _is_count(state.chance_seed), "a whole number >= 0"),
        (
            "support",
            state.support is None or (_is_pair(state.support, lambda c: isinstance(c, Card))),
            "None or 2 siege cards",
        ),
        (
            "exchange",
            state.exchange is None
            or (_is_cards(state.exchange) and len(state.exchange) == EXCHANGED),
            "None or 3 cards",
        ),
        ("outcome", state.outcome is None or isinstance(state.outcome, Outcome), "an Outcome"),
        (
            "hand_tactics",
            state.hand_tactics is None or _is_pair(state.hand_tactics, _is_count),
            "None or 2 counts",
        ),
    ]
    for name, ok, what in checks:
        if not ok:
            problems.append(f"{name} must be {what}, not {getattr(state, name)!r}")
    return problems


def _visible_tactics(state: State) -> int:
    return sum(n for c, n in state.visible_cards().items() if isinstance(c, TacticCard))


def derive(state: State) -> None:
    """Fill in what the position says implicitly: tactic cards in hand, the outcome."""
    if state.hand_tactics is None:
        known = [
            None if hand is None else sum(isinstance(c, TacticCard) for c in hand)
            for hand in state.hands
        ]
        total = (len(TACTIC_CARDS) if state.rules.tactics else 0) - _visible_tactics(state)
        in_hands = total - state.tactic_deck_size
        if known[0] is None and known[1] is None:
            if in_hands == 0:
                known = [0, 0]
        elif known[0] is None:
            known[0] = in_hands - (known[1] or 0)
        elif known[1] is None:
            known[1] = in_hands - known[0]
        first, second = known
        if first is not None and second is not None and min(first, second) >= 0:
            _HAND_TACTICS(state, (first, second))
    if state.exhausted and turn_holder(state) == state.attacker:
        _FINAL_TURN(state, True)
    damaged = sum(t.damaged for t in state.tiles)
    if state.outcome is None and damaged == DAMAGED_TO_WIN:
        _OUTCOME(state, Outcome(Termination.FOURTH_TILE_DAMAGED, state.attacker))


def problems(state: State, *, reachable: bool) -> list[str]:
    """Every way ``state`` contradicts the rules: what cannot exist at all and,
    when ``reachable``, what no legal game from a deal passes through."""
    found = _position_problems(state)
    if reachable and not found:
        found = reachable_problems(state)
    return found


def _position_problems(state: State) -> list[str]:
    """Every way the position contradicts the rules (an empty list: well formed)."""
    problems: list[str] = _tile_problems(state)
    every = state.rules.all_cards
    names = ("player 1", "player 2")
    # Every card exists, and no card is in more places than it has copies.
    places: Counter[AnyCard] = state.visible_cards()
    for extra in (state.hands[0], state.hands[1], state.deck, state.tactic_deck, state.support):
        places.update(extra or ())
    offer = state.exchange
    if offer is not None and state.hands[1 - state.to_move] is None:
        # The offered cards are in the hidden offering hand: they count there.
        places.update(offer)
    for card, count in sorted(places.items(), key=lambda item: str(item[0])):
        if card not in every:
            where = "a tactic card in the base game" if isinstance(card, TacticCard) else ""
            problems.append(f"{card} is not a card of this game" + (f" ({where})" if where else ""))
        elif count > every[card]:
            problems.append(f"{card} is in {count} places (the game has {every[card]})")
    # Counts agree with what is known.
    for p, hand in enumerate(state.hands):
        if hand is not None and len(hand) != state.hand_sizes[p]:
            problems.append(
                f"{names[p]}'s hand holds {len(hand)} cards, hand_sizes says {state.hand_sizes[p]}"
            )
        if state.hand_sizes[p] > state.rules.hand_size:
            problems.append(
                f"{names[p]} holds {state.hand_sizes[p]} cards; a hand holds at most "
                f"{state.rules.hand_size}"
            )
    if state.deck is not None and len(state.deck) != state.deck_size:
        problems.append(f"the deck holds {len(state.deck)} cards, deck_size says {state.deck_size}")
    if state.tactic_deck is not None and len(state.tactic_deck) != state.tactic_deck_size:
        problems.append(
            f"the tactic pile holds {len(state.tactic_deck)} cards, tactic_deck_size "
            f"says {state.tactic_deck_size}"
        )
    if not state.rules.tactics and state.tactic_deck_size:
        problems.append("the base game has no tactic pile")
    problems.extend(_count_problems(state))
    problems.extend(_turn_problems(state))
    return problems


def _count_problems(state: State) -> list[str]:
    """The hidden cards add up: siege cards and tactic cards separately; the
    tactic cards played against the tactic limit."""
    problems: list[str] = []
    names = ("player 1", "player 2")
    counts = state.hand_tactics
    visible = state.visible_cards()
    seen_siege = sum(n for c, n in visible.items() if isinstance(c, Card))
    seen_tactics = sum(visible.values()) - seen_siege
    if counts is None:
        problems.append("say how many tactic cards each hidden hand holds (hand_tactics)")
    else:
        for p in (0, 1):
            hand = state.hands[p]
            if hand is not None and sum(isinstance(c, TacticCard) for c in hand) != counts[p]:
                problems.append(
                    f"hand_tactics says {names[p]} holds {counts[p]} tactic cards, "
                    "its hand says otherwise"
                )
            if counts[p] > state.hand_sizes[p]:
                problems.append(
                    f"{names[p]} cannot hold {counts[p]} tactic cards in a hand of "
                    f"{state.hand_sizes[p]}"
                )
        in_hands = sum(state.hand_sizes) - sum(counts)
        support = len(state.support or ())
        if seen_siege + in_hands + state.deck_size + support != len(SIEGE_CARDS.cards):
            problems.append(
                f"the siege cards do not add up: {len(SIEGE_CARDS.cards)} in the game, "
                f"{seen_siege} on the table or discarded, {in_hands} in the hands and "
                f"{state.deck_size} in the deck"
                + (f", {support} being shuffled" if support else "")
            )
        tactics_total = len(TACTIC_CARDS) if state.rules.tactics else 0
        if seen_tactics + sum(counts) + state.tactic_deck_size != tactics_total:
            problems.append(
                f"the tactic cards do not add up: {tactics_total} in the game, {seen_tactics} "
                f"played, {sum(counts)} in the hands and {state.tactic_deck_size} in the pile"
            )
    if seen_tactics > sum(state.tactics_played):
        problems.append(
            f"tactics_played {state.tactics_played} counts fewer than the "
            f"{seen_tactics} tactic cards on the table and discarded"
        )
    if abs(state.tactics_played[0] - state.tactics_played[1]) > 1:
        problems.append(
            f"tactics_played {state.tactics_played}: nobody gets two tactic cards ahead"
        )
    for p in (0, 1):
        if len(state.actions[p]) > state.tactics_played[p]:
            problems.append(
                f"{names[p]} has {len(state.actions[p])} action cards on its side but "
                f"tactics_played says {state.tactics_played[p]}"
            )
    return problems


def _tile_problems(state: State) -> list[str]:
    problems = []
    names = ("player 1", "player 2")
    for tile in state.tiles:
        size = tile.rule.size
        for p, side in enumerate(tile.sides):
            if len(side) > size:
                problems.append(
                    f"tile {tile.number}: {names[p]}'s side holds {len(side)} cards, "
                    f"the tile takes {size}"
                )
            if any(isinstance(c, TacticCard) and not c.is_elite for c in side):
                problems.append(f"tile {tile.number}: action cards never lie at a tile")
            done = tile.completed[p]
            if (done is not None) != (len(side) == size):
                state_of = "complete" if len(side) == size else "incomplete"
                problems.append(
                    f"tile {tile.number}: {names[p]}'s side is {state_of} but its "
                    f"completion time is {done!r}"
                )
        for card in tile.sides[0]:
            rival = Card(card.colour, 11 - card.value) if isinstance(card, Card) else None
            if rival is not None and card.value in (0, 11) and rival in tile.sides[1]:
                problems.append(f"tile {tile.number}: {card} faces {rival} (both are discarded)")
        done0, done1 = tile.completed
        if done0 is not None and done0 == done1:
            problems.append(
                f"tile {tile.number}: both sides completed at ply {done0}; one of them was first"
            )
    damaged = sum(t.damaged for t in state.tiles)
    if damaged > DAMAGED_TO_WIN:
        problems.append(f"{damaged} damaged tiles: the attacker wins on the fourth")
    outcome = state.outcome
    if damaged == DAMAGED_TO_WIN and outcome is not None and outcome.winner != state.attacker:
        problems.append("four damaged tiles: the attacker has won")
    return problems


def _turn_problems(state: State) -> list[str]:
    problems = []
    if (state.phase is Phase.SHUFFLE) != (state.support is not None):
        problems.append("a support waits for its shuffle exactly in the shuffle phase")
    if state.exchange is not None and state.phase is not Phase.EXCHANGE:
        problems.append("an exchange waits for its answer exactly in the exchange phase")
    if (
        state.phase is Phase.EXCHANGE
        and state.exchange is None
        and state.hands[1 - state.to_move] is not None
    ):
        # only the answering player's view hides the offer (the offering hand is hidden there)
        problems.append("an exchange waits for its answer exactly in the exchange phase")
    if state.late_control and (state.to_move != state.defender or state.phase is not Phase.OPENING):
        problems.append("late_control: only right after the attacker's draw")
    if state.final_turn and not state.exhausted:
        problems.append("final_turn: only once the last siege card has been drawn")
    elif state.final_turn and turn_holder(state) != state.attacker:
        problems.append("final_turn: only in the attacker's turn")
    offer, mover = state.exchange, 1 - state.to_move
    hand = state.hands[mover]
    if offer is not None and hand is not None and Counter(offer) - Counter(hand):
        problems.append("the cards offered in the exchange are not in the offering hand")
    elif offer is not None and state.hand_tactics is not None:
        tactics = sum(isinstance(c, TacticCard) for c in offer)
        held = state.hand_tactics[mover]
        if tactics > held or EXCHANGED - tactics > state.hand_sizes[mover] - held:
            problems.append(
                f"the offer {' '.join(map(str, offer))} does not fit player {mover + 1}'s hand "
                f"of {state.hand_sizes[mover] - held} siege and {held} tactic cards"
            )
    return problems


_HAND_TACTICS = slot_writer(State, "hand_tactics")
_FINAL_TURN = slot_writer(State, "final_turn")
_OUTCOME = slot_writer(State, "outcome")
