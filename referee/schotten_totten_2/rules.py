"""The rules of a Schotten Totten 2 turn, in the order the rulebook gives
them: the opening action (the attacker's retreat, the defender's oil), a card
played (or a pass), the attacker's declarations of control, the draw, and the
turn's end (where the siege may end: held, failed, or won).

:func:`apply` is the checked path of every move; the tactic cards' own rules
are in :mod:`~referee.schotten_totten_2.tactics`, the control's proof in
:mod:`~referee.schotten_totten_2.claims`. The two commonest plies (a siege
card to an open side, a siege card drawn) have a path of their own that makes
the same state with fewer checks (:func:`fast_card`, :func:`fast_draw`, in
:mod:`~referee.schotten_totten_2.fast_paths`), which :func:`apply` tries first.

>>> from referee.schotten_totten_2 import new_game
>>> game = new_game(seed=1)
>>> game.play("retreat 1")
Traceback (most recent call last):
...
referee.errors.IllegalMoveError: illegal move 'retreat 1': you have no cards at tile 1
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.game import History, Outcome, Termination
from referee.line import illegal, replaced
from referee.schotten_totten_2 import claims, legal, tactics
from referee.schotten_totten_2.fast_paths import fast_card, fast_draw
from referee.schotten_totten_2.hands import (
    check_can_play,
    check_tactic,
    hand_without,
    place,
    tactic_counts,
    tile_for,
    top_drawn,
)
from referee.schotten_totten_2.made import (
    closing_turn,
    evolve,
    with_past,
)
from referee.schotten_totten_2.moves import (
    Control,
    Desertion,
    Draw,
    EndTurn,
    Exchange,
    ExchangeReply,
    Explosion,
    Move,
    Oil,
    Pass,
    PlayCard,
    Recruitment,
    Redeploy,
    Retreat,
    Shuffle,
    Support,
    Treason,
)
from referee.schotten_totten_2.state import (
    DAMAGED_TO_WIN,
    Phase,
    Reason,
    State,
)
from referee.schotten_totten_2.wall import (
    INDEX,
    SIEGE_CARDS,
    AnyCard,
    TacticCard,
    Tile,
)

__all__ = [
    "apply",
    "control",
    "draw",
    "end_turn",
    "fast_card",
    "fast_draw",
    "next_turn",
    "oil",
    "pass_turn",
    "play_card",
    "retreat",
]

# The phases as module names: the hot paths test them at every ply.
_OPENING = Phase.OPENING
_PLAY = Phase.PLAY
_AFTER_PLAY = Phase.AFTER_PLAY
_AFTER_PASS = Phase.AFTER_PASS
_SHUFFLE = Phase.SHUFFLE
_EXCHANGE = Phase.EXCHANGE
_SIEGE_SET = frozenset(SIEGE_CARDS.cards)
_IDS = INDEX.ids


def apply(state: State, move: Move, past: History[Move]) -> State:
    """The state after ``move`` (past the checks every move goes through:
    :meth:`~referee.line.state.LineState._checked`), whose history is
    ``past``; raises ``IllegalMoveError`` if the rules refuse it."""
    # The common cases first, for playouts and replays: a siege card played
    # from a known hand to an open side, a draw from a known siege deck.
    kind = type(move)
    if kind is PlayCard:
        fast = fast_card(state, move, past)  # type: ignore[arg-type]
        if fast is not None:
            return fast
    elif kind is Draw:
        fast = fast_draw(state, move, past)  # type: ignore[arg-type]
        if fast is not None:
            return fast
    if state.phase is _SHUFFLE and kind is not Shuffle:
        raise illegal(
            move,
            Reason.SHUFFLE_PENDING,
            "record where the support cards went first ('shuffle N,M')",
        )
    if state.phase is _EXCHANGE and kind is not ExchangeReply:
        raise illegal(
            move,
            Reason.EXCHANGE_PENDING,
            "an exchange waits for your answer: choose your 3 cards ('give R1,R2,R3')",
        )
    rule = _RULE_OF[kind]
    closing = False
    if state.late_control and kind is not Control:
        # The defender's first move closes the attacker's turn for good. Only a
        # draw's refusal reads the flag (the attacker drew already): for every
        # other move the new state is told, rather than copying this one first.
        if kind is Draw:
            state = evolve(state, late_control=False)
        else:
            closing = True
    made = rule(state, move)
    # with_past and closing_turn write into the state they are given: a rule
    # always makes a new one, never hands back the state it was given.
    assert made is not state, "a rule must return a new state"
    return closing_turn(made, past) if closing else with_past(made, past)


# --- the opening action ------------------------------------------------------------


def retreat(state: State, move: Retreat) -> State:
    """The attacker's opening: its cards at the named tiles are discarded."""
    attacker = state.attacker
    if state.to_move != attacker:
        raise illegal(move, Reason.WRONG_ROLE, "only the attacker retreats")
    _check_opening(state, move, Reason.SECOND_RETREAT, "you have already retreated this turn")
    tiles = list(state.tiles)
    discarded: list[AnyCard] = []
    for number in move.tiles:
        tile = tile_for(state, move, number)
        if not tile.sides[attacker]:
            raise illegal(move, Reason.NOTHING_TO_RETREAT, f"you have no cards at tile {number}")
        discarded.extend(tile.sides[attacker])
        tiles[number - 1] = tile.with_side(attacker, (), state.ply)
    return evolve(
        state,
        tiles=tuple(tiles),
        discards=(*state.discards, *discarded),
        seen=state.seen,
        phase=_PLAY,
        ply=state.ply + 1,
    )


def oil(state: State, move: Oil) -> State:
    """The defender's opening: the attacker's first card at the tile is discarded."""
    if state.to_move != state.defender:
        raise illegal(move, Reason.WRONG_ROLE, "only the defender throws oil")
    _check_opening(state, move, Reason.SECOND_OIL, "only one oil cauldron per turn")
    if state.oil == 0:
        raise illegal(move, Reason.NO_OIL_LEFT, "all 3 oil cauldrons have been thrown")
    tile = tile_for(state, move, move.tile)
    side = tile.sides[state.attacker]
    if not side:
        raise illegal(move, Reason.NOTHING_TO_OIL, f"the attacker has no cards at tile {move.tile}")
    tiles = replaced(
        state.tiles, move.tile - 1, tile.with_side(state.attacker, side[1:], state.ply)
    )
    return evolve(
        state,
        tiles=tiles,
        discards=(*state.discards, side[0]),
        seen=state.seen,
        oil=state.oil - 1,
        phase=_PLAY,
        ply=state.ply + 1,
    )


def _check_opening(state: State, move: Move, again: str, why: str) -> None:
    if state.phase is _PLAY:
        raise illegal(move, again, why)
    if state.phase is not _OPENING:
        raise illegal(
            move, Reason.OPENING_TOO_LATE, "the opening action comes before playing a card"
        )


# --- playing a card (or passing) ------------------------------------------------------


def play_card(state: State, move: PlayCard) -> State:
    """A siege card or an elite troop put on the mover's side of a tile."""
    player, card = state.to_move, move.card
    check_can_play(state, move)
    tile = tile_for(state, move, move.tile)
    if isinstance(card, TacticCard):
        check_tactic(state, move, card)
        if not card.is_elite:
            raise illegal(
                move,
                Reason.NOT_A_TROOP,
                f"{card} is an action card, not a troop: play it with its own move",
            )
    elif card not in _SIEGE_SET:
        raise illegal(move, Reason.UNKNOWN_CARD, f"{card} is not a Schotten Totten 2 card")
    hand = hand_without(state, move, player, [card])
    if not tile.room(player):
        raise illegal(
            move,
            Reason.SIDE_FULL,
            f"your side of tile {move.tile} already has {tile.rule.size} cards",
        )
    tiles = list(state.tiles)
    discarded = place(tiles, move.tile, player, card, state.ply)
    is_tactic = isinstance(card, TacticCard)
    counts = tactic_counts(state)
    bit = 0 if is_tactic else 1 << _IDS[card]  # type: ignore[index]
    return evolve(
        state,
        tiles=tuple(tiles),
        hands=replaced(state.hands, player, hand),
        hand_sizes=replaced(state.hand_sizes, player, state.hand_sizes[player] - 1),
        discards=(*state.discards, *discarded),
        seen=state.seen | bit,
        tactics_played=replaced(
            state.tactics_played, player, state.tactics_played[player] + is_tactic
        ),
        hand_tactics=replaced(counts, player, counts[player] - is_tactic),
        phase=_AFTER_PLAY,
        ply=state.ply + 1,
    )


def pass_turn(state: State, move: Pass) -> State:
    """A pass: only a player who truly cannot play a card passes."""
    check_can_play(state, move)
    if not legal.may_pass(state, legal.plays(state)):
        why = "you can still play a card, so you may not pass"
        if state.to_move == state.attacker and state.phase is _OPENING:
            why += " (the attacker retreats to make room)"
        raise illegal(move, Reason.PASS_NOT_ALLOWED, why)
    return evolve(state, phase=_AFTER_PASS, ply=state.ply + 1)


# --- declaring control ------------------------------------------------------------------


def control(state: State, move: Control) -> State:
    """The attacker declares control of a tile with its complete formation there:
    the tile is damaged (or, already damaged, the attacker wins)."""
    attacker = state.attacker
    tile = claims.check_control(state, move)
    discarded = (*tile.sides[attacker], *tile.sides[1 - attacker])
    tiles = replaced(state.tiles, move.tile - 1, Tile(move.tile, damaged=True))
    outcome = None
    if tile.damaged:
        outcome = Outcome(Termination.CONTROLLED_DAMAGED_TILE, attacker)
    elif sum(t.damaged for t in tiles) >= DAMAGED_TO_WIN:
        outcome = Outcome(Termination.FOURTH_TILE_DAMAGED, attacker)
    return evolve(
        state,
        tiles=tiles,
        discards=(*state.discards, *discarded),
        seen=state.seen,
        ply=state.ply + 1,
        outcome=outcome,
    )


# --- drawing and ending the turn --------------------------------------------------------


def draw(state: State, move: Draw) -> State:
    """A card drawn from the siege deck or the tactic pile: the turn ends."""
    if state.phase is _OPENING or state.phase is _PLAY:
        if state.late_control:
            raise illegal(move, Reason.WRONG_ROLE, "the attacker has already drawn")
        raise illegal(move, Reason.MUST_PLAY_FIRST, "play a card (or pass) before drawing")
    if state.phase is _AFTER_PASS:
        raise illegal(move, Reason.PASS_DRAWS_NOTHING, "a turn with a pass draws no card")
    if move.pile == "tactic":
        return _draw_tactic(state, move)
    if state.deck_size == 0:
        other = state.rules.tactics and state.tactic_deck_size > 0
        empty = Reason.PILE_EMPTY if other else Reason.NOTHING_TO_DRAW
        raise illegal(move, empty, "the siege deck is empty")
    player = state.to_move
    siege_hand, deck = top_drawn(state.hands[player], state.deck)
    return next_turn(
        state,
        hands=replaced(state.hands, player, siege_hand),
        hand_sizes=replaced(state.hand_sizes, player, state.hand_sizes[player] + 1),
        deck=deck,
        deck_size=state.deck_size - 1,
        exhausted=state.exhausted or state.deck_size == 1,
        late_control=player == state.attacker,
    )


def _draw_tactic(state: State, move: Draw) -> State:
    if not state.rules.tactics:
        raise illegal(move, Reason.TACTICS_NOT_IN_PLAY, "there is no tactic pile in the base game")
    if state.tactic_deck_size == 0:
        empty = Reason.PILE_EMPTY if state.deck_size else Reason.NOTHING_TO_DRAW
        raise illegal(move, empty, "the tactic pile is empty")
    player = state.to_move
    new_hand, tactic_deck = top_drawn(state.hands[player], state.tactic_deck)
    counts = tactic_counts(state)
    return next_turn(
        state,
        hands=replaced(state.hands, player, new_hand),
        hand_sizes=replaced(state.hand_sizes, player, state.hand_sizes[player] + 1),
        hand_tactics=replaced(counts, player, counts[player] + 1),
        tactic_deck=tactic_deck,
        tactic_deck_size=state.tactic_deck_size - 1,
        late_control=player == state.attacker,
    )


def end_turn(state: State, move: EndTurn) -> State:
    """The turn ended without a draw: after a pass, or with both piles empty."""
    if state.phase is _OPENING or state.phase is _PLAY:
        raise illegal(move, Reason.MUST_PLAY_FIRST, "play a card (or pass) before ending")
    if state.phase is _AFTER_PLAY and (
        state.deck_size > 0 or (state.rules.tactics and state.tactic_deck_size > 0)
    ):
        raise illegal(
            move, Reason.MUST_DRAW, "after playing a card you must draw while a pile has cards"
        )
    return next_turn(state)


def next_turn(state: State, **changes: Any) -> State:
    """End the mover's turn; the attacker's last turn ends the game, and so
    does a pass that leaves nobody able to change anything (siege failed)."""
    if state.to_move == state.attacker and state.final_turn:
        changes["outcome"] = Outcome(Termination.SIEGE_HELD, state.defender)
        changes["late_control"] = False
    following = 1 - state.to_move
    exhausted = changes.get("exhausted", state.exhausted)
    after = evolve(
        state,
        **{"late_control": False, **changes},
        to_move=following,
        phase=_OPENING,
        ply=state.ply + 1,
        final_turn=following == state.attacker and exhausted,
    )
    if (
        after.outcome is None
        and state.phase is _AFTER_PASS
        and legal.siege_failed(after, state.to_move == state.attacker)
    ):
        after = evolve(after, outcome=Outcome(Termination.SIEGE_FAILED, state.defender))
    return after


#: Each move type's rule (every type the state accepts has one).
_RULE_OF: dict[type, Callable[[State, Any], State]] = {
    PlayCard: play_card,
    Draw: draw,
    EndTurn: end_turn,
    Control: control,
    Retreat: retreat,
    Oil: oil,
    Pass: pass_turn,
    Redeploy: tactics.redeploy,
    Recruitment: tactics.recruitment,
    Desertion: tactics.desertion,
    Treason: tactics.treason,
    Explosion: tactics.explosion,
    Support: tactics.support,
    Shuffle: tactics.shuffle,
    Exchange: tactics.exchange,
    ExchangeReply: tactics.exchange_reply,
}
