"""How the rules make Schotten Totten states and stones: one constructor
helper per class (:func:`made_state`, :func:`made_stone`), which writes each
field of the frozen, slotted instance in turn, nothing checked, for the hot
plies (``State(...)`` writes each field through the frozen class's checks,
several times slower). No generated code, no class switching, nothing cached.

>>> stone = made_stone(((), ()), (None, None), (0, 0), 3, 1, None)
>>> stone.owner, stone.size, stone.room(1)
(1, 3, False)
"""

from __future__ import annotations

from referee.cards import Card
from referee.game import History, Outcome
from referee.line.claims import Kept
from referee.line.place import slot_writer
from referee.schotten_totten.cards import AnyCard, Tactic
from referee.schotten_totten.moves import Move
from referee.schotten_totten.state import Phase, Rules, State, Stone

__all__ = ["made_state", "made_stone"]

_new = object.__new__
_SIDES, _COMPLETED, _MASKS, _SIZE, _KEPT, _OWNER, _STYLE = (
    slot_writer(Stone, name)
    for name in ("sides", "completed", "masks", "size", "kept", "owner", "style")
)
(
    _RULES,
    _STONES,
    _HANDS,
    _HAND_SIZES,
    _DECK,
    _DECK_SIZE,
    _TACTIC_DECK,
    _TACTIC_DECK_SIZE,
    _DISCARDS,
    _TACTICS_PLAYED,
    _JOKERS_PLAYED,
    _TO_MOVE,
    _PHASE,
    _PLY,
    _OUTCOME,
    _BLANK_TURNS,
    _HAND_TACTICS,
    _UNDER_PILES,
    _PAST,
    _SEEN,
    _OPEN_SIDES,
    _COMPLETE_SIDES,
) = (slot_writer(State, f.name) for f in State.__dataclass_fields__.values())


def made_stone(
    sides: tuple[tuple[AnyCard, ...], ...],
    completed: tuple[int | None, ...],
    masks: tuple[int, int],
    size: int,
    owner: int | None,
    style: Tactic | None,
) -> Stone:
    """A stone made by the rules, nothing checked (its derived fields given):
    with :func:`made_state`, the one constructor helper that writes a frozen
    instance's slots directly, for speed."""
    stone: Stone = _new(Stone)
    _SIDES(stone, sides)
    _COMPLETED(stone, completed)
    _MASKS(stone, masks)
    _SIZE(stone, size)
    _KEPT(stone, Kept())
    _OWNER(stone, owner)
    _STYLE(stone, style)
    return stone


def made_state(
    rules: Rules,
    stones: tuple[Stone, ...],
    hands: tuple[tuple[AnyCard, ...] | None, ...],
    hand_sizes: tuple[int, ...],
    deck: tuple[Card, ...] | None,
    deck_size: int,
    tactic_deck: tuple[Tactic, ...] | None,
    tactic_deck_size: int,
    discards: tuple[AnyCard, ...],
    tactics_played: tuple[int, ...],
    jokers_played: tuple[bool, ...],
    to_move: int,
    phase: Phase,
    ply: int,
    outcome: Outcome | None,
    blank_turns: int,
    hand_tactics: tuple[int, ...],
    under_piles: tuple[tuple[tuple[int, AnyCard | str], ...], ...],
    past: History[Move],
    seen: int,
    open_sides: int,
    complete_sides: int,
) -> State:
    """A state made by the rules, every field given in order, nothing checked:
    the constructor of the hot plies (``State(...)`` writes each field through
    the frozen class's checks, several times slower). With :func:`made_stone`,
    the one helper that writes a frozen instance's slots directly."""
    state: State = _new(State)
    _RULES(state, rules)
    _STONES(state, stones)
    _HANDS(state, hands)
    _HAND_SIZES(state, hand_sizes)
    _DECK(state, deck)
    _DECK_SIZE(state, deck_size)
    _TACTIC_DECK(state, tactic_deck)
    _TACTIC_DECK_SIZE(state, tactic_deck_size)
    _DISCARDS(state, discards)
    _TACTICS_PLAYED(state, tactics_played)
    _JOKERS_PLAYED(state, jokers_played)
    _TO_MOVE(state, to_move)
    _PHASE(state, phase)
    _PLY(state, ply)
    _OUTCOME(state, outcome)
    _BLANK_TURNS(state, blank_turns)
    _HAND_TACTICS(state, hand_tactics)
    _UNDER_PILES(state, under_piles)
    _PAST(state, past)
    _SEEN(state, seen)
    _OPEN_SIDES(state, open_sides)
    _COMPLETE_SIDES(state, complete_sides)
    return state
