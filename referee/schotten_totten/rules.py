"""The rules of a Schotten Totten turn, in the order the rulebook gives them.

A turn (RULINGS 2-3, 13-14):

1. **Play a card** (:func:`play_card`): one card from the hand to the mover's
   side of an unclaimed stone with room there (3 cards; 4 at a Mud Fight). A
   tactic card follows its own rules (:mod:`~referee.schotten_totten.tactics`).
   A player who cannot lay a clan card **passes** (:func:`pass_turn`).
2. **Claim** stones (:func:`claim`; the proof is
   :mod:`~referee.schotten_totten.claims`): after playing or passing; in the
   1999 edition also before playing; with Der frühe Vogel only before. The
   game ends at once when a player holds 3 adjacent stones or any 5
   (:func:`winner`).
3. **Draw** one card (:func:`draw`), which ends the turn; a turn that draws
   nothing (a pass, the recruiter, empty piles) **ends** with ``done``
   (:func:`end_turn`). Two turns in a row that pass and claim nothing end a
   blocked game.

Every refusal names the rule it applies with a reason code
(:class:`~referee.schotten_totten.state.Reason`) and changes nothing.

>>> from referee.schotten_totten import new_game
>>> game = new_game(seed=2)
>>> game.play("pass")
Traceback (most recent call last):
...
referee.errors.IllegalMoveError: illegal move 'pass': you can still play a card, so you may not pass
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from referee.game import History, Outcome, Termination
from referee.line import illegal, place_at, replaced
from referee.line.playout import winner_pattern
from referee.schotten_totten import claims, tactics
from referee.schotten_totten.cards import ID, STONES, Tactic
from referee.schotten_totten.hands import check_in_hand, spent, spent_card, taken
from referee.schotten_totten.made import made_state, made_stone
from referee.schotten_totten.moves import (
    Banshee,
    Claim,
    Draw,
    EndTurn,
    Move,
    Pass,
    PlayCard,
    PutBack,
    Recruit,
    Strategist,
    Traitor,
)
from referee.schotten_totten.state import Phase, Reason, State, Stone

__all__ = [
    "apply",
    "check_no_claim_left",
    "claim",
    "draw",
    "end_turn",
    "lay",
    "pass_turn",
    "play_card",
    "play_tactic_card",
    "stone_for",
    "winner",
]

_PLAY, _AFTER_PLAY, _AFTER_PASS = Phase.PLAY, Phase.AFTER_PLAY, Phase.AFTER_PASS
_RECRUIT_RETURN = Phase.RECRUIT_RETURN


def apply(state: State, move: Move, past: History[Move]) -> State:
    """The state after ``move`` (past the checks every move goes through), whose
    history is ``past``; ``IllegalMoveError`` if a rule refuses it."""
    if state.phase is _RECRUIT_RETURN and type(move) is not PutBack:
        back = min(2, state.hand_sizes[state.to_move])
        raise illegal(
            move,
            Reason.MUST_RETURN,
            f"the recruiter has drawn: put {back} cards back first ('return ...')",
        )
    # Every move type has its case: one left out fails ``mypy --strict``.
    match move:
        case PlayCard():
            return play_card(state, move, past)
        case Draw():
            return draw(state, move, past)
        case Claim():
            return claim(state, move, past)
        case EndTurn():
            return end_turn(state, move, past)
        case Pass():
            return pass_turn(state, move, past)
        case Recruit():
            return tactics.recruit(state, move, past)
        case PutBack():
            return tactics.put_back(state, move, past)
        case Strategist():
            return tactics.strategist(state, move, past)
        case Banshee():
            return tactics.banshee(state, move, past)
        case Traitor():
            return tactics.traitor(state, move, past)
        case _:
            assert_never(move)


def stone_for(state: State, move: Move, number: int) -> Stone:
    """The stone ``move`` names, or its refusal."""
    if 0 < number <= STONES:
        return state.stones[number - 1]
    return place_at(move, number, state.stones, Reason.NO_SUCH_STONE, "stone")


# --- 1. play a card, or pass --------------------------------------------------------------


def play_card(state: State, move: PlayCard, past: History[Move]) -> State:
    """Play a card from the hand to the mover's side of an unclaimed stone with
    room (a tactic card by its own rules first: see :func:`play_tactic_card`)."""
    if state.phase is not _PLAY:
        raise illegal(move, Reason.ALREADY_PLAYED, "you have already played this turn")
    card, number = move.card, move.stone
    stone = stone_for(state, move, number)
    if type(card) is Tactic:
        return play_tactic_card(state, move, card, stone, past)
    at = ID.get(card)
    if at is None:
        raise illegal(move, Reason.UNKNOWN_CARD, f"{card} is not a Schotten Totten clan card")
    hand = state.hands[state.to_move]
    if hand is None or card not in hand:
        check_in_hand(state, move, card)
    return lay(state, move, stone, at, past)


def play_tactic_card(
    state: State, move: PlayCard, card: Tactic, stone: Stone, past: History[Move]
) -> State:
    """Play a tactic card at a stone: a real one, in the variant, not a ruse;
    the hand first (RULINGS: issue 12 point 8), then the tactic limit; a combat
    style to the stone itself (see ``tactics``), an elite troop to a side."""
    tactics.check_tactic_card(state, move, card)
    check_in_hand(state, move, card)
    tactics.check_limit(state, move, card)
    if card.kind == "style":
        if stone.owner is not None:
            raise illegal(move, Reason.STONE_CLAIMED, f"stone {move.stone} is already claimed")
        return tactics.play_style(state, move, card, stone, past)
    return lay(state, move, stone, None, past)


def lay(state: State, move: PlayCard, stone: Stone, at: int | None, past: History[Move]) -> State:
    """Lay ``move``'s card (checked in hand; ``at`` its id if a clan card,
    ``None`` for an elite troop) on the mover's side of ``stone``: refused if
    the stone is claimed or that side is full."""
    player, number = state.to_move, move.stone
    if stone.owner is not None:
        raise illegal(move, Reason.STONE_CLAIMED, f"stone {number} is already claimed")
    if len(stone.sides[player]) >= stone.size:
        raise illegal(
            move,
            Reason.SIDE_FULL,
            f"your side of stone {number} already has {stone.size} cards",
        )
    card, ply, stones = move.card, state.ply, state.stones
    placed = stone.with_card(player, card, ply, at)
    open_sides, complete_sides = state.open_sides, state.complete_sides
    if placed.completed[player] is not None:  # the side is complete now
        side = 1 << (9 * player + number - 1)
        open_sides, complete_sides = open_sides & ~side, complete_sides | side
    stones = (*stones[: number - 1], placed, *stones[number:])
    if at is not None:  # a clan card: only the hand changes, and it is now in sight
        hands, sizes = spent_card(state.hands, state.hand_sizes, player, card)
        return made_state(
            state.rules,
            stones,
            hands,
            sizes,
            state.deck,
            state.deck_size,
            state.tactic_deck,
            state.tactic_deck_size,
            state.discards,
            state.tactics_played,
            state.jokers_played,
            player,
            _AFTER_PLAY,
            ply + 1,
            state.outcome,
            state.blank_turns,
            state.hand_tactics,
            state.under_piles,
            past,
            state.seen | 1 << at,
            open_sides,
            complete_sides,
        )
    hands, sizes, played, jokers, held = spent(state, player, card)
    return made_state(
        state.rules,
        stones,
        hands,
        sizes,
        state.deck,
        state.deck_size,
        state.tactic_deck,
        state.tactic_deck_size,
        state.discards,
        played,
        jokers,
        player,
        _AFTER_PLAY,
        ply + 1,
        state.outcome,
        state.blank_turns,
        held,
        state.under_piles,
        past,
        state.seen,
        open_sides,
        complete_sides,
    )


def pass_turn(state: State, move: Pass, past: History[Move]) -> State:
    """Play no card: allowed only to a player who cannot lay a clan card
    (tactic cards never oblige one to play). With Der frühe Vogel the turn's
    claims come first, so a pass claims what it can before it."""
    if state.phase is not _PLAY:
        raise illegal(move, Reason.ALREADY_PLAYED, "you have already played this turn")
    if state.can_play_card():
        what = "a clan card" if state.rules.tactics else "a card"
        raise illegal(
            move, Reason.PASS_NOT_ALLOWED, f"you can still play {what}, so you may not pass"
        )
    if state.rules.early_bird:
        check_no_claim_left(state, move)
    return made_state(
        state.rules,
        state.stones,
        state.hands,
        state.hand_sizes,
        state.deck,
        state.deck_size,
        state.tactic_deck,
        state.tactic_deck_size,
        state.discards,
        state.tactics_played,
        state.jokers_played,
        state.to_move,
        _AFTER_PASS,
        state.ply + 1,
        state.outcome,
        state.blank_turns,
        state.hand_tactics,
        state.under_piles,
        past,
        state.seen,
        state.open_sides,
        state.complete_sides,
    )


def check_no_claim_left(state: State, move: Move) -> None:
    """A turn with a pass may not end while the mover can prove a claim
    (RULINGS 14: every game ends, and a blocked game has no provable claim)."""
    provable = claims.provable(state)
    if provable:
        stones = ", ".join(str(c.stone) for c in provable)
        raise illegal(
            move,
            Reason.MUST_CLAIM,
            f"in a turn with a pass you must claim what you can prove first (stone {stones})",
        )


# --- 2. claim stones -------------------------------------------------------------------------


def claim(state: State, move: Claim, past: History[Move]) -> State:
    """Claim a stone with a proven formation (see ``claims``); the game ends at
    once when the claimant holds three adjacent stones or any five."""
    stone = claims.check_claim(state, move)
    player = state.to_move
    won = made_stone(stone.sides, stone.completed, stone.masks, stone.size, player, stone.style)
    stones = replaced(state.stones, move.stone - 1, won)
    both = (1 | 1 << 9) << (move.stone - 1)  # both sides' bits (see state.sides_of)
    return made_state(
        state.rules,
        stones,
        state.hands,
        state.hand_sizes,
        state.deck,
        state.deck_size,
        state.tactic_deck,
        state.tactic_deck_size,
        state.discards,
        state.tactics_played,
        state.jokers_played,
        player,
        state.phase,
        state.ply + 1,
        winner(stones, player),
        -1,  # a claim this turn: the turn is not blank
        state.hand_tactics,
        state.under_piles,
        past,
        state.seen,  # a claim shows no card
        state.open_sides & ~both,  # a claimed stone takes no card and no claim
        state.complete_sides & ~both,
    )


def winner(stones: Sequence[Stone], player: int) -> Outcome | None:
    """The game's end by ``player``'s stones: three adjacent or any five."""
    owned = 0
    for i, stone in enumerate(stones):
        if stone.owner == player:
            owned |= 1 << i
    won = winner_pattern(owned, adjacent=3, total=5)
    return None if won is None else Outcome(won, player)


# --- 3. draw, or end the turn ------------------------------------------------------------------


def draw(state: State, move: Draw, past: History[Move]) -> State:
    """Draw the top card of a pile (with tactics, the pile named), ending the turn."""
    phase = state.phase
    if phase is not _AFTER_PLAY:
        if phase is _PLAY:
            raise illegal(move, Reason.MUST_PLAY_FIRST, "play a card (or pass) before drawing")
        if phase is _AFTER_PASS:
            raise illegal(move, Reason.PASS_DRAWS_NOTHING, "a turn with a pass draws no card")
        raise illegal(  # the recruiter's turn (its return is checked before any move)
            move,
            Reason.ALREADY_DREW,
            "the recruiter replaced this turn's draw: end with 'done'",
        )
    deck_size, tactic_deck_size = state.deck_size, state.tactic_deck_size
    if deck_size + tactic_deck_size == 0:
        raise illegal(
            move, Reason.NOTHING_TO_DRAW, "no pile has cards left: end the turn with 'done'"
        )
    pile, variant = move.pile, state.rules.tactics
    if not variant and pile is not None:
        raise illegal(move, Reason.TACTICS_NOT_IN_PLAY, "the base game has one pile: write 'draw'")
    if variant and pile is None:
        raise illegal(
            move, Reason.CHOOSE_PILE, "name the pile to draw from: 'draw clan' or 'draw tactic'"
        )
    clan = pile != "tactic"
    if (deck_size if clan else tactic_deck_size) == 0:
        raise illegal(move, Reason.PILE_EMPTY, f"the {pile or 'clan'} pile is empty")
    player = state.to_move
    hands, sizes, deck, deck_size, tactic_deck, tactic_size, held, under = taken(
        state, player, int(clan), int(not clan)
    )
    return made_state(
        state.rules,
        state.stones,
        hands,
        sizes,
        deck,
        deck_size,
        tactic_deck,
        tactic_size,
        state.discards,
        state.tactics_played,
        state.jokers_played,
        1 - player,
        _PLAY,
        state.ply + 1,
        state.outcome,
        0,
        held,
        under,
        past,
        state.seen,
        state.open_sides,
        state.complete_sides,
    )


def end_turn(state: State, move: EndTurn, past: History[Move]) -> State:
    """End the turn without drawing: after a pass, after the recruiter, or
    when no pile has cards. A turn with a pass claims what it can first; two
    blank turns in a row (a pass and no claim) end the game, blocked."""
    if state.phase is _PLAY:
        raise illegal(move, Reason.MUST_PLAY_FIRST, "play a card (or pass) before ending")
    if state.phase is _AFTER_PLAY and state.deck_size + state.tactic_deck_size > 0:
        raise illegal(
            move, Reason.MUST_DRAW, "after playing a card you must draw while a pile has cards"
        )
    blank = 0
    if state.phase is _AFTER_PASS:
        if not state.rules.early_bird:
            check_no_claim_left(state, move)
        blank = 0 if state.blank_turns < 0 else state.blank_turns + 1
    return made_state(
        state.rules,
        state.stones,
        state.hands,
        state.hand_sizes,
        state.deck,
        state.deck_size,
        state.tactic_deck,
        state.tactic_deck_size,
        state.discards,
        state.tactics_played,
        state.jokers_played,
        1 - state.to_move,
        _PLAY,
        state.ply + 1,
        # Two blank turns in a row: nothing can change any more (RULINGS: blocked).
        Outcome(Termination.BLOCKED, None) if blank >= 2 else None,
        blank,
        state.hand_tactics,
        state.under_piles,
        past,
        state.seen,
        state.open_sides,
        state.complete_sides,
    )
