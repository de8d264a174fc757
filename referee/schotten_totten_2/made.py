"""How the rules make Schotten Totten 2 states: copies with some fields
changed, nothing checked (the rules made the values), written slot by slot
into a new frozen instance. No generated code, no class switching, nothing
cached.

:func:`evolve` is ``dataclasses.replace`` without its checks (a misspelled
field is still an error); :func:`after_card` and :func:`after_draw` are the
two hot plies of every game (a siege card played, a siege card drawn), each
field written in turn (:func:`after_tactic_draw` the draw from the tactic
pile, the third commonest in the tactics variant).

>>> from referee.schotten_totten_2 import new_game
>>> game = new_game(seed=1)
>>> evolve(game, ply=5).ply, game.ply
(5, 0)
>>> evolve(game, plyy=5)
Traceback (most recent call last):
...
TypeError: evolve() got an unexpected keyword argument 'plyy'
"""

from __future__ import annotations

from typing import Any

from referee.cards import Card
from referee.game import History
from referee.line.place import slot_writer
from referee.schotten_totten_2.moves import Move
from referee.schotten_totten_2.state import Phase, State, seen_of
from referee.schotten_totten_2.wall import AnyCard, TacticCard, Tile

__all__ = [
    "after_card",
    "after_draw",
    "after_tactic_draw",
    "closing_turn",
    "evolve",
    "with_past",
]

_new = object.__new__
#: The default of every keyword of :func:`evolve`: keep the field as it is.
_KEEP: Any = object()
#: Each field of a state with the writer of its slot, in field order.
_FIELDS = tuple((name, slot_writer(State, name)) for name in State.__dataclass_fields__)
(
    _RULES,
    _ATTACKER,
    _TILES,
    _HANDS,
    _HAND_SIZES,
    _DECK,
    _DECK_SIZE,
    _TACTIC_DECK,
    _TACTIC_DECK_SIZE,
    _DISCARDS,
    _ACTIONS,
    _TACTICS_PLAYED,
    _OIL,
    _TO_MOVE,
    _PHASE,
    _PLY,
    _EXHAUSTED,
    _FINAL_TURN,
    _SUPPORT,
    _OUTCOME,
    _HAND_TACTICS,
    _EXCHANGE,
    _LATE_CONTROL,
    _PAST,
    _CHANCE_SEED,
    _SIEGE_FAILED_AT,
    _SEEN,
) = (writer for _, writer in _FIELDS)


def evolve(
    state: State,
    *,
    rules: Any = _KEEP,
    attacker: Any = _KEEP,
    tiles: Any = _KEEP,
    hands: Any = _KEEP,
    hand_sizes: Any = _KEEP,
    deck: Any = _KEEP,
    deck_size: Any = _KEEP,
    tactic_deck: Any = _KEEP,
    tactic_deck_size: Any = _KEEP,
    discards: Any = _KEEP,
    actions: Any = _KEEP,
    tactics_played: Any = _KEEP,
    oil: Any = _KEEP,
    to_move: Any = _KEEP,
    phase: Any = _KEEP,
    ply: Any = _KEEP,
    exhausted: Any = _KEEP,
    final_turn: Any = _KEEP,
    support: Any = _KEEP,
    outcome: Any = _KEEP,
    hand_tactics: Any = _KEEP,
    exchange: Any = _KEEP,
    late_control: Any = _KEEP,
    past: Any = _KEEP,
    chance_seed: Any = _KEEP,
    siege_failed_at: Any = _KEEP,
    seen: Any = _KEEP,
) -> State:
    """``state`` with the named fields changed, nothing checked (a misspelled
    field is a ``TypeError``). The visible cards' mask follows the tiles and
    the discards unless it is given (the rules give it when they only move
    cards between the tiles and the discard pile: it stays)."""
    new: State = _new(State)
    _RULES(new, state.rules if rules is _KEEP else rules)
    _ATTACKER(new, state.attacker if attacker is _KEEP else attacker)
    _TILES(new, state.tiles if tiles is _KEEP else tiles)
    _HANDS(new, state.hands if hands is _KEEP else hands)
    _HAND_SIZES(new, state.hand_sizes if hand_sizes is _KEEP else hand_sizes)
    _DECK(new, state.deck if deck is _KEEP else deck)
    _DECK_SIZE(new, state.deck_size if deck_size is _KEEP else deck_size)
    _TACTIC_DECK(new, state.tactic_deck if tactic_deck is _KEEP else tactic_deck)
    _TACTIC_DECK_SIZE(
        new, state.tactic_deck_size if tactic_deck_size is _KEEP else tactic_deck_size
    )
    _DISCARDS(new, state.discards if discards is _KEEP else discards)
    _ACTIONS(new, state.actions if actions is _KEEP else actions)
    _TACTICS_PLAYED(new, state.tactics_played if tactics_played is _KEEP else tactics_played)
    _OIL(new, state.oil if oil is _KEEP else oil)
    _TO_MOVE(new, state.to_move if to_move is _KEEP else to_move)
    _PHASE(new, state.phase if phase is _KEEP else phase)
    _PLY(new, state.ply if ply is _KEEP else ply)
    _EXHAUSTED(new, state.exhausted if exhausted is _KEEP else exhausted)
    _FINAL_TURN(new, state.final_turn if final_turn is _KEEP else final_turn)
    _SUPPORT(new, state.support if support is _KEEP else support)
    _OUTCOME(new, state.outcome if outcome is _KEEP else outcome)
    _HAND_TACTICS(new, state.hand_tactics if hand_tactics is _KEEP else hand_tactics)
    _EXCHANGE(new, state.exchange if exchange is _KEEP else exchange)
    _LATE_CONTROL(new, state.late_control if late_control is _KEEP else late_control)
    _PAST(new, state.past if past is _KEEP else past)
    _CHANCE_SEED(new, state.chance_seed if chance_seed is _KEEP else chance_seed)
    _SIEGE_FAILED_AT(new, state.siege_failed_at if siege_failed_at is _KEEP else siege_failed_at)
    if seen is _KEEP:
        if tiles is _KEEP and discards is _KEEP:
            seen = state.seen
        else:
            seen = seen_of(new.tiles, new.discards)
    _SEEN(new, seen)
    return new


def after_card(
    state: State,
    tiles: tuple[Tile, ...],
    hands: tuple[tuple[AnyCard, ...] | None, tuple[AnyCard, ...] | None],
    hand_sizes: tuple[int, int],
    phase: Phase,
    ply: int,
    late_control: bool,
    past: History[Move],
    seen: int,
) -> State:
    """``state`` after a siege card played from a hand to a tile (see
    :func:`referee.schotten_totten_2.rules.fast_card`)."""
    new: State = _new(State)
    _RULES(new, state.rules)
    _ATTACKER(new, state.attacker)
    _TILES(new, tiles)
    _HANDS(new, hands)
    _HAND_SIZES(new, hand_sizes)
    _DECK(new, state.deck)
    _DECK_SIZE(new, state.deck_size)
    _TACTIC_DECK(new, state.tactic_deck)
    _TACTIC_DECK_SIZE(new, state.tactic_deck_size)
    _DISCARDS(new, state.discards)
    _ACTIONS(new, state.actions)
    _TACTICS_PLAYED(new, state.tactics_played)
    _OIL(new, state.oil)
    _TO_MOVE(new, state.to_move)
    _PHASE(new, phase)
    _PLY(new, ply)
    _EXHAUSTED(new, state.exhausted)
    _FINAL_TURN(new, state.final_turn)
    _SUPPORT(new, state.support)
    _OUTCOME(new, state.outcome)
    _HAND_TACTICS(new, state.hand_tactics)
    _EXCHANGE(new, state.exchange)
    _LATE_CONTROL(new, late_control)
    _PAST(new, past)
    _CHANCE_SEED(new, state.chance_seed)
    _SIEGE_FAILED_AT(new, state.siege_failed_at)
    _SEEN(new, seen)
    return new


def after_draw(
    state: State,
    hands: tuple[tuple[AnyCard, ...] | None, tuple[AnyCard, ...] | None],
    hand_sizes: tuple[int, int],
    deck: tuple[Card, ...] | None,
    deck_size: int,
    exhausted: bool,
    late_control: bool,
    to_move: int,
    phase: Phase,
    ply: int,
    final_turn: bool,
    past: History[Move],
) -> State:
    """``state`` after a siege card drawn (see
    :func:`referee.schotten_totten_2.rules.fast_draw`)."""
    new: State = _new(State)
    _RULES(new, state.rules)
    _ATTACKER(new, state.attacker)
    _TILES(new, state.tiles)
    _HANDS(new, hands)
    _HAND_SIZES(new, hand_sizes)
    _DECK(new, deck)
    _DECK_SIZE(new, deck_size)
    _TACTIC_DECK(new, state.tactic_deck)
    _TACTIC_DECK_SIZE(new, state.tactic_deck_size)
    _DISCARDS(new, state.discards)
    _ACTIONS(new, state.actions)
    _TACTICS_PLAYED(new, state.tactics_played)
    _OIL(new, state.oil)
    _TO_MOVE(new, to_move)
    _PHASE(new, phase)
    _PLY(new, ply)
    _EXHAUSTED(new, exhausted)
    _FINAL_TURN(new, final_turn)
    _SUPPORT(new, state.support)
    _OUTCOME(new, state.outcome)
    _HAND_TACTICS(new, state.hand_tactics)
    _EXCHANGE(new, state.exchange)
    _LATE_CONTROL(new, late_control)
    _PAST(new, past)
    _CHANCE_SEED(new, state.chance_seed)
    _SIEGE_FAILED_AT(new, state.siege_failed_at)
    _SEEN(new, state.seen)
    return new


def after_tactic_draw(
    state: State,
    hands: tuple[tuple[AnyCard, ...] | None, tuple[AnyCard, ...] | None],
    hand_sizes: tuple[int, int],
    hand_tactics: tuple[int, int],
    tactic_deck: tuple[TacticCard, ...],
    tactic_deck_size: int,
    late_control: bool,
    to_move: int,
    ply: int,
    final_turn: bool,
    past: History[Move],
) -> State:
    """``state`` after a tactic card drawn (see
    :func:`referee.schotten_totten_2.rules.fast_draw`): the next turn opens."""
    new: State = _new(State)
    _RULES(new, state.rules)
    _ATTACKER(new, state.attacker)
    _TILES(new, state.tiles)
    _HANDS(new, hands)
    _HAND_SIZES(new, hand_sizes)
    _DECK(new, state.deck)
    _DECK_SIZE(new, state.deck_size)
    _TACTIC_DECK(new, tactic_deck)
    _TACTIC_DECK_SIZE(new, tactic_deck_size)
    _DISCARDS(new, state.discards)
    _ACTIONS(new, state.actions)
    _TACTICS_PLAYED(new, state.tactics_played)
    _OIL(new, state.oil)
    _TO_MOVE(new, to_move)
    _PHASE(new, Phase.OPENING)
    _PLY(new, ply)
    _EXHAUSTED(new, state.exhausted)
    _FINAL_TURN(new, final_turn)
    _SUPPORT(new, state.support)
    _OUTCOME(new, state.outcome)
    _HAND_TACTICS(new, hand_tactics)
    _EXCHANGE(new, state.exchange)
    _LATE_CONTROL(new, late_control)
    _PAST(new, past)
    _CHANCE_SEED(new, state.chance_seed)
    _SIEGE_FAILED_AT(new, state.siege_failed_at)
    _SEEN(new, state.seen)
    return new


def with_past(state: State, past: History[Move]) -> State:
    """``state``, just made by the rules and not yet handed out, given its
    history ``past`` (the last slot the rules write)."""
    _PAST(state, past)
    return state


def closing_turn(state: State, past: History[Move]) -> State:
    """``state``, just made by the rules from a position where the attacker
    could still declare control and not yet handed out, given its history
    ``past``, the attacker's turn closed for good (the defender has moved)."""
    _PAST(state, past)
    _LATE_CONTROL(state, False)
    return state
