"""Every Schotten Totten 2 game ends (issue 12, points 1 and 3).

The attacker never passes while a retreat would let it play; only a player who
truly cannot play any card passes; and when neither player can change anything
any more while the deck still has cards, the siege has failed.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.records import Record, validate
from referee.schotten_totten_2 import (
    SIEGE_CARDS,
    Control,
    EndTurn,
    Move,
    Oil,
    Pass,
    Phase,
    PlayCard,
    Retreat,
    Rules,
    State,
    new_game,
    parse_move,
)

from .helpers import TACTICS, cards, deck_with, play_all, position, reason_of

# The 22 places of one side, all taken (tiles 1-7 intact: 3, 4, 3, 2, 3, 4, 3).
FULL_SIDE = [
    "R1 R2 R3",
    "R4 R5 R6 R7",
    "R8 R9 R10",
    "Y1 Y2",
    "Y3 Y4 Y5",
    "Y6 Y7 Y8 Y9",
    "Y10 G1 G2",
]


def _full(player: int) -> dict[int, tuple[str, str]]:
    return {n: (s, "") if player == 0 else ("", s) for n, s in enumerate(FULL_SIDE, start=1)}


# --- the attacker never passes; it retreats to make room ------------------------------------


def test_the_attacker_with_full_sides_must_retreat_not_pass() -> None:
    state = position(_full(0), hands=("B5", "B6"))
    legal = state.legal_moves()
    assert Pass() not in legal and parse_move("retreat 4") in legal
    assert not any(isinstance(m, PlayCard) for m in legal)
    assert reason_of(state, "pass") == "pass_not_allowed"
    try:
        state.play("pass")
    except ValueError as error:
        assert "the attacker retreats to make room" in str(error)
    after = state.play("retreat 4")
    assert after.phase is Phase.PLAY and parse_move("B5@4") in after.legal_moves()


def test_the_defender_with_full_sides_passes() -> None:
    state = position(_full(1), hands=("B5", "B6"), to_move=1)
    assert state.legal_moves() == [Pass()]
    passed = play_all(state, ["pass", "done"])
    assert passed.outcome is None and passed.to_move == 0  # the attacker can still play


def test_issue_reproduction_the_stalling_game_now_ends() -> None:
    # Deal R0-R5 / Y0-Y5, player 2 attacking; the first legal card or draw each
    # ply, pass and done whenever allowed: the attacker cannot pass for ever.
    state = new_game(deck=deck_with("R0 R1 R2 R3 R4 R5", "Y0 Y1 Y2 Y3 Y4 Y5"), attacker=1)
    plies = 0
    while state.outcome is None:
        legal = state.legal_moves()
        stall = [m for m in legal if isinstance(m, Pass | EndTurn)]
        cards = [m for m in legal if not isinstance(m, Control | Oil | Retreat)]
        state = state.play((stall or cards or legal)[0])
        plies += 1
        assert plies < 400
    assert state.outcome.winner == 0 and state.outcome.reason == "siege_held"
    assert state.deck_size == 0


# --- the failed siege ---------------------------------------------------------------------------


#: The tactic cards the attacker draws: the shield it plays (one tactic card
#: ahead of the defender, it may then play no other), then seven it keeps.
TACTIC_HAND = "joker joker spy redeploy recruitment desertion treason"
#: The defender's hand at the end: siege cards only.
SIEGE_HAND = "B1 B2 B3 B4 B5 B6 B7"
#: Siege cards the attacker plays and then retreats from (all discarded).
LOST = "R0 R11 Y0 Y11 G0 G3 G4 G5 G6 G7 G8 G9 G10 G11 P0 P1 P2 P3 P4 P5 P6"
#: The attacker's places for its lost cards.
_ROOM = [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 4, 4]


def _stuck(lost: int = 21, keep: tuple[str, ...] = (), full: bool = True) -> State:
    """A position reached by legal play from a deal where nobody can change
    anything once the attacker passes (the failed siege needs tactic cards:
    while the deck has cards a base-game attacker holds siege cards and can
    always retreat to make room for one).

    The attacker (player 1) plays ``lost`` siege cards, retreats from all of
    them and plays its shield, which the defender's oil discards; it then
    plays ``keep`` at the gate. It draws siege cards first and tactic cards
    last, so it ends with seven tactic cards it may not play (the tactic
    limit). The defender fills its 22 places (21 without ``full``: tile 7
    keeps room) and ends with siege cards only. The piles still have cards,
    so both hands are full.
    """
    sides = [card for row in FULL_SIDE for card in row.split()]
    tiles = [n for n, row in enumerate(FULL_SIDE, start=1) for _ in row.split()]
    if not full:
        sides, tiles = sides[:-1], tiles[:-1]
    # the attacker's turns: (retreat first, card, tile)
    plan: list[tuple[bool, str, int]] = [
        (False, c, t) for c, t in zip(LOST.split()[:lost], _ROOM[:lost], strict=True)
    ]
    plan.append((True, "shield", 1))
    plan += [(False, card, 4) for card in keep]
    siege = [card for _, card, _ in plan if card != "shield"]
    tactic_draws = len(TACTIC_HAND.split()) + 1
    draws = ["siege"] * (len(plan) - tactic_draws) + ["tactic"] * tactic_draws
    oil_turn = lost + 1  # the defender's turn after the shield
    supply = iter(siege[7:])
    answers = iter([*sides[7:], *SIEGE_HAND.split()])
    deck: list[str] = []
    for turn in range(1, len(plan) + 1):
        if draws[turn - 1] == "siege":
            deck.append(next(supply))
        if turn <= len(sides):
            deck.append(next(answers))
    dealt = set(deck) | set(siege[:7]) | set(sides[:7])
    rest = [str(c) for c in SIEGE_CARDS.cards if str(c) not in dealt]
    order = [*siege[:7], *sides[:7], *deck, *rest]
    pile = ["shield", *TACTIC_HAND.split(), "explosion", "support", "exchange"]
    state = new_game(deck=cards(" ".join(order)), tactic_deck=cards(" ".join(pile)), rules=TACTICS)
    for turn, (retreat, card, tile) in enumerate(plan, start=1):
        if retreat:
            held = [t.number for t in state.tiles if t.sides[0]]
            state = state.play(f"retreat {','.join(map(str, held))}")
        state = state.play(f"{card}@{tile}").play(
            "draw" if draws[turn - 1] == "siege" else "draw tactic"
        )
        if turn <= len(sides):
            if turn == oil_turn:
                state = state.play("oil 1")
            state = state.play(f"{sides[turn - 1]}@{tiles[turn - 1]}").play("draw")
    assert state.status() == ()
    return state


def test_nobody_can_change_anything_the_siege_has_failed() -> None:
    state = _stuck()
    assert state.deck_size > 0 and state.tactic_deck_size > 0
    assert state.legal_moves() == [Pass()]
    ended = play_all(state, ["pass", "done"])
    assert ended.outcome is not None
    assert (ended.outcome.winner, ended.outcome.reason) == (1, "siege_failed")
    assert ended.legal_moves() == []


def test_no_failed_siege_while_someone_can_still_play() -> None:
    # the same, but the defender has room at tile 7: the game goes on
    after = play_all(_stuck(lost=20, full=False), ["pass", "done"])
    assert after.outcome is None and after.to_move == 1
    assert reason_of(after, "pass") == "pass_not_allowed"


def test_after_the_defenders_pass_the_attacker_keeps_a_provable_control() -> None:
    # Nobody can play, but the attacker can still declare control at the gate:
    # the defender's pass does not end the game; the attacker's own turn decides.
    state = _stuck(lost=20, keep=("B10", "B11"))
    assert state.to_move == 1 and state.tile(4).sides == (cards("B10 B11"), cards("Y1 Y2"))
    after = play_all(state, ["pass", "done"])
    assert after.outcome is None and Control(4) in after.legal_moves()
    # declining it ends the game at the end of the attacker's turn
    declined = play_all(after, ["pass", "done"])
    assert declined.outcome is not None and declined.outcome.reason == "siege_failed"


# --- public records: the siege cards in a hidden hand are counted --------------------------------


def test_a_public_record_knows_how_many_siege_cards_each_hand_holds() -> None:
    # The first move of a public tactics record cannot be a tactic card: hands
    # are dealt siege cards only and every tactic draw is a visible move.
    record = Record(game="schotten-totten-2", moves=("joker@1",), rules={"variants": ["tactics"]})
    report = validate(record)
    assert report.error is not None and report.error.reason == "card_not_in_hand"
    assert "holds 0 tactic cards" in report.error.message
    # a hidden hand of siege cards with room to play may not pass, however many
    # tactic cards are unseen
    state = position(hands=("R1 R2", "Y1 Y2"), rules=TACTICS).view(1)
    assert state.hands[0] is None and state.tactics_in_hand(0) == 0
    assert reason_of(state, "pass") == "pass_not_allowed"
    # after a tactic draw the count is known: one tactic card, the rest siege cards
    drawn = play_all(state, ["R1@1", "draw tactic"])
    assert drawn.tactics_in_hand(0) == 1 and drawn.hand_sizes[0] == 2


def test_a_public_pass_is_legal_only_if_some_consistent_hand_cannot_play() -> None:
    # The attacker, hidden, holds 2 tactic cards and no siege card, and the
    # tactic limit stops it: it may pass, and with the defender stuck the siege fails.
    state = _stuck().view(1)
    assert state.hands[0] is None and state.tactics_in_hand(0) == 7
    ended = play_all(state, ["pass", "done"])
    assert ended.outcome is not None and ended.outcome.reason == "siege_failed"


# --- the stalling adversary (issue 12, point 3) ------------------------------------------------

#: Plies within which every game ends. A turn has at most 4 plies besides
#: declarations (opening action, card or pass, shuffle or exchange answer,
#: draw or done), and a game has at most 4 declarations (3 damage a tile, the
#: next one wins). Every turn that plays a card draws while a pile has cards;
#: once the last siege card is drawn the game ends within 2 turns. Draws: at
#: most 48 siege cards (46 with tactics, plus 2 a support puts back) and 11
#: tactic cards, so at most D = 48 (base) or 59 (tactics) drawing turns. A
#: pass is allowed only to a player who cannot play; after a pass turn either
#: the other player can play (and must), or nobody can and the game ends, or
#: (after the defender's pass) the attacker has a control to declare, which it
#: may decline once. So at most 3 pass turns follow each drawing turn or
#: declaration: turns <= D + 3 (D + 4 + 1) + 2 and plies <= 4 turns + 4.
BOUND = {False: 4 * (48 + 3 * (48 + 5) + 2) + 4, True: 4 * (59 + 3 * (59 + 5) + 2) + 4}


def _staller(legal: list[Move], rng: random.Random) -> Move:
    """Pass, end the turn, retreat or throw oil whenever allowed; never declare."""
    for kind in (Pass, EndTurn, Retreat, Oil):
        options = [m for m in legal if isinstance(m, kind)]
        if options:
            return rng.choice(options)
    options = [m for m in legal if not isinstance(m, Control)]
    return rng.choice(options or legal)


def _claimer(legal: list[Move], rng: random.Random) -> Move:
    """Declare whatever it can; otherwise any move but an opening action."""
    controls = [m for m in legal if isinstance(m, Control)]
    if controls:
        return controls[0]
    options = [m for m in legal if not isinstance(m, Retreat | Oil)]
    return rng.choice(options or legal)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_a_stalling_adversary_cannot_keep_a_game_going(
    seed: int, tactics: bool, stalling_attacker: bool
) -> None:
    rng = random.Random(seed)
    state = new_game(seed=seed, attacker=seed % 2, rules=Rules(tactics=tactics))
    staller = state.attacker if stalling_attacker else state.defender
    plies = 0
    while state.outcome is None:
        legal = state.legal_moves()
        assert legal
        # Right after the attacker's draw a Control in the list is the attacker's.
        choose = _staller if state.to_move == staller else _claimer
        state = state.play(choose(legal, rng))
        plies += 1
        assert plies <= BOUND[tactics], "the game outlasts the bound"
    assert state.outcome.winner in (0, 1)
