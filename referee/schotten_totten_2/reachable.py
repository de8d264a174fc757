"""What no legal game of Schotten Totten 2 from a deal passes through (for
:meth:`State.status`; RULINGS: positions): hands full while a pile has
cards, the pending support or exchange against the card that started it, the
outcome against the table, the cards each player has played against
alternating turns and the passes the rules allow, the oil thrown and the
damage done against the discard pile.

>>> from referee.schotten_totten_2 import new_game
>>> reachable_problems(new_game(seed=1))
[]
"""

from __future__ import annotations

from referee.cards import Card
from referee.game import REFEREE_ENDS, Termination
from referee.schotten_totten_2.claims import provable
from referee.schotten_totten_2.legal import play_chances
from referee.schotten_totten_2.made import evolve
from referee.schotten_totten_2.state import (
    DAMAGED_TO_WIN,
    EXCHANGED,
    OIL_CAULDRONS,
    Phase,
    State,
)
from referee.schotten_totten_2.wall import WALL, TacticCard

__all__ = ["reachable_problems", "turn_holder"]

_ATTACKER_WINS = frozenset({Termination.CONTROLLED_DAMAGED_TILE, Termination.FOURTH_TILE_DAMAGED})


def turn_holder(state: State) -> int:
    """Whose turn it is: ``to_move``, except while the opponent answers an exchange."""
    return 1 - state.to_move if state.phase is Phase.EXCHANGE else state.to_move


_NAMES = ("player 1", "player 2")
#: tile number -> how many cards the attacker's side held when it damaged the tile
#: (its complete formation on the intact side; index 0 unused)
_INTACT_SIZES = (0, *(intact.size for intact, _ in WALL))


def _played(state: State, card: TacticCard) -> int:
    """How many ``card`` action cards lie on the players' sides."""
    return state.actions[0].count(card) + state.actions[1].count(card)


def _piles_ran_dry(state: State) -> bool:
    """Whether both piles may have been empty at a draw: the last siege card
    has been drawn, the tactic pile is empty, and the deck holds no more than
    a support put back (the one way a pile is refilled)."""
    in_deck = state.deck_size + (2 if state.phase is Phase.SHUFFLE else 0)
    return (
        state.exhausted
        and state.tactic_deck_size == 0
        and in_deck <= 2 * _played(state, TacticCard.SUPPORT)
    )


def _full_hands(state: State) -> tuple[int, int]:
    """Each hand's size while the piles have never run out: full, and one
    card fewer for the player whose turn it is once it has played a card."""
    full = [state.rules.hand_size] * 2
    if state.phase in (Phase.AFTER_PLAY, Phase.SHUFFLE, Phase.EXCHANGE):
        full[turn_holder(state)] -= 1
    return full[0], full[1]


def reachable_problems(state: State) -> list[str]:
    """What no game from a deal passes through (RULINGS: positions)."""
    problems = _pile_problems(state)
    problems += _pending_problems(state)
    problems += _outcome_problems(state)
    if not problems:
        problems += _history_problems(state)
    return problems


def _pile_problems(state: State) -> list[str]:
    """Hands hold their full size unless the piles ran out; the exhausted flag."""
    problems: list[str] = []
    in_deck = state.deck_size + (2 if state.phase is Phase.SHUFFLE else 0)
    supports = _played(state, TacticCard.SUPPORT)
    if in_deck == 0 and not state.exhausted:
        problems.append(
            "the siege deck is empty, so its last card has been drawn: exhausted must be true"
        )
    if state.exhausted and in_deck > 2 * supports:
        problems.append(
            f"the last siege card has been drawn (exhausted), but the deck holds {in_deck} "
            f"cards: only a support puts cards back{' (two)' if supports else ''}"
        )
    if problems:
        return problems
    full = _full_hands(state)
    dry = _piles_ran_dry(state)
    size = state.rules.hand_size
    for p in (0, 1):
        held = state.hand_sizes[p]
        if held > full[p]:
            problems.append(f"{_NAMES[p]} holds {held} cards: a hand holds at most {full[p]} here")
        elif held < full[p] and not dry:
            problems.append(
                f"{_NAMES[p]} holds {held} cards but the piles still hold "
                f"{state.deck_size + state.tactic_deck_size}: a hand is refilled to {size} after "
                "every card played while a pile has cards"
            )
        elif held < size - 1 and not supports:
            problems.append(
                f"{_NAMES[p]} holds {held} cards, but hands were full when the last siege card "
                "was drawn, and each player lays at most one more card (the attacker's next "
                "turn is its last)"
            )
    return problems


def _pending_problems(state: State) -> list[str]:
    """The phase against the card that started it, and what it has pending."""
    problems: list[str] = []
    holder = turn_holder(state)
    if state.phase is Phase.SHUFFLE and state.actions[holder][-1:] != (TacticCard.SUPPORT,):
        problems.append(
            f"the shuffle phase follows {_NAMES[holder]}'s support, but it is not the last "
            "action card it played"
        )
    if state.phase is Phase.EXCHANGE:
        if state.actions[holder][-1:] != (TacticCard.EXCHANGE,):
            problems.append(
                f"the exchange phase follows an exchange card played by {_NAMES[holder]} (the "
                f"player not to move), but it is not the last action card it played: "
                f"{_NAMES[state.to_move]} cannot answer its own offer"
            )
        if state.hand_sizes[state.to_move] < EXCHANGED:
            problems.append(
                f"{_NAMES[state.to_move]} holds {state.hand_sizes[state.to_move]} cards: an "
                "exchange takes 3 from each hand"
            )
        if state.hand_sizes[holder] < EXCHANGED:
            problems.append(
                f"{_NAMES[holder]} holds {state.hand_sizes[holder]} cards: it cannot have offered 3"
            )
    if state.phase is Phase.AFTER_PASS and state.outcome is None:
        # Nothing that gives the passer a play has happened since its pass: the
        # attacker had no siege card (it could retreat), the defender no play at
        # all (controls come in the attacker's turn).
        mover = state.to_move
        siege = state.hand_sizes[mover] - (state.hand_tactics or (0, 0))[mover]
        if mover == state.attacker and siege > 0:
            problems.append(
                f"the attacker ({_NAMES[mover]}) has passed this turn, but it holds {siege} "
                "siege cards and can always retreat to make room for one"
            )
        elif mover == state.defender and play_chances(evolve(state, phase=Phase.PLAY))[1]:
            problems.append(
                f"the defender ({_NAMES[mover]}) has passed this turn, but it can play a card "
                "(a player passes only when it truly cannot)"
            )
    seen = sum(n for c, n in state.visible_cards().items() if isinstance(c, TacticCard))
    if sum(state.tactics_played) != seen:
        problems.append(
            f"tactics_played {state.tactics_played} but {seen} tactic cards are in sight: "
            "every tactic card played stays on the table, on a side or on the discard pile"
        )
    return problems


def _outcome_problems(state: State) -> list[str]:
    """The outcome against the table and the point of the turn where it came."""
    problems: list[str] = []
    outcome, attacker, defender = state.outcome, state.attacker, state.defender
    damaged = [t for t in state.tiles if t.damaged]
    opening = state.phase is Phase.OPENING
    in_turn = state.to_move == attacker or state.late_control
    if outcome is None:
        if state.exhausted and state.to_move == defender and opening and not state.late_control:
            problems.append(
                "the last siege card has been drawn, and the defender's turn begins without "
                "the attacker's draw before it: the attacker's last turn is over, so the "
                "siege has held"
            )
        return problems
    reason = outcome.reason
    if reason in REFEREE_ENDS:
        return problems
    winner = attacker if reason in _ATTACKER_WINS else defender
    if outcome.winner != winner:
        problems.append(f"a game ended by {reason} is won by the {_role(state, winner)}")
    if reason in _ATTACKER_WINS and not in_turn:
        problems.append(
            f"the attacker won by declaring control ({reason}), which it does in its own turn "
            f"(or right after its draw), but {_NAMES[state.to_move]} is to move"
        )
    if reason == Termination.CONTROLLED_DAMAGED_TILE and (
        len(damaged) > DAMAGED_TO_WIN - 1
        or not any(not t.sides[0] and not t.sides[1] for t in damaged)
    ):
        problems.append(
            "the attacker controlled a damaged tile: it lies empty, one of at most three "
            "damaged tiles"
        )
    if reason in (Termination.SIEGE_HELD, Termination.SIEGE_FAILED) and (
        state.to_move != (defender if reason == Termination.SIEGE_HELD else state.to_move)
        or not opening
        or state.late_control
    ):
        problems.append(f"the siege ends ({reason}) at the end of a turn, not mid-turn")
    if reason == Termination.SIEGE_HELD and not state.exhausted:
        problems.append("the siege held: the last siege card must have been drawn (exhausted)")
    if reason == Termination.SIEGE_FAILED:
        for p in (attacker, defender):
            if play_chances(state._as_turn_of(p))[1]:
                problems.append(
                    f"the siege failed, but {_NAMES[p]} can play a card (nobody could any more)"
                )
        if state.to_move == attacker and provable(state):
            problems.append(
                "the siege failed after the defender's pass, but the attacker can still "
                "declare control"
            )
    return problems


def _role(state: State, player: int) -> str:
    return f"{'attacker' if player == state.attacker else 'defender'} ({_NAMES[player]})"


def _may_have_passed(state: State, player: int) -> tuple[bool, str]:
    """Whether ``player`` may have passed at some earlier turn, and if not, why.

    A player passes only when it truly cannot play a card. The attacker can
    always retreat to make room, so it passed only without a siege card in
    hand; the defender, also when its sides were full. A hand without a siege
    card is an empty one once the piles ran out, or (with tactics) a full hand
    of tactic cards, each since played, still held or given in an exchange.
    Cards leave an intact tile's side only for the discard pile (or, by
    treason, the attacker's side).
    """
    who = _role(state, player)
    tactics = state.rules.tactics
    if state.hand_sizes[player] == 0 or (tactics and _piles_ran_dry(state)):
        return True, ""
    held = state.hand_tactics[player] if state.hand_tactics is not None else 0
    reach = held + state.tactics_played[player] + EXCHANGED * _played(state, TacticCard.EXCHANGE)
    if tactics and reach >= state.rules.hand_size:
        return True, ""
    never = (
        f"the {who} never passed: it always held a siege card"
        if tactics
        else f"the {who} never passed: it holds siege cards, and a hand that runs out is never "
        "refilled"
    )
    if player == state.attacker:
        return False, never + ", and the attacker can always retreat to make room for one"
    gaps = sum(t.rule.size - len(t.sides[player]) for t in state.tiles if not t.damaged)
    if tactics:
        freed = len(state.discards) + 2 * _played(state, TacticCard.SUPPORT)
        freed += _played(state, TacticCard.RECRUITMENT) + _played(state, TacticCard.TREASON)
    else:
        # without tactic cards, only a 0 meeting the 11 of its colour leaves an intact tile
        freed = sum(
            1
            for c in state.discards
            if isinstance(c, Card) and c.value == 0 and Card(c.colour, 11) in state.discards
        )
    if gaps <= freed:
        return True, ""
    return False, (
        f"{never}, and its sides at intact tiles have room for {gaps} cards, more than have "
        "left them since"
    )


def _history_problems(state: State) -> list[str]:
    """The cards played against alternating turns (the attacker moves first)
    and the passes the rules allow; the oil thrown and the damage done."""
    problems: list[str] = []
    attacker, defender = state.attacker, state.defender
    holder = turn_holder(state)
    done = state.phase not in (Phase.OPENING, Phase.PLAY)
    # turns the attacker has taken more than the defender (its card or pass counted)
    lead = int(holder == attacker and done) + int(holder == defender and not done)
    # Every play puts a card from a hand on a tile, on the discard pile (0 meets
    # 11) or on its player's side (an action); only a support takes cards
    # back out of sight (two, into the deck).
    pending = len(state.support or ())
    plays = sum(len(side) for t in state.tiles for side in t.sides)
    plays += len(state.discards) + len(state.actions[0]) + len(state.actions[1]) + pending
    plays += 2 * (_played(state, TacticCard.SUPPORT) - (state.phase is Phase.SHUFFLE))
    played = state.tactics_played
    siege_plays = plays - played[0] - played[1]
    own = [
        max(
            0,
            sum(1 for t in state.tiles for c in t.sides[p] if isinstance(c, Card))
            - state.actions[p].count(TacticCard.RECRUITMENT)
            - state.actions[p].count(TacticCard.TREASON),
        )
        for p in (0, 1)
    ]
    low = played[attacker] + own[attacker]
    high = played[attacker] + siege_plays - own[defender]
    can_pass = {p: _may_have_passed(state, p) for p in (attacker, defender)}
    if can_pass[attacker][0] and can_pass[defender][0]:
        fits = True
    elif can_pass[defender][0]:
        fits = 2 * high - plays >= lead
    elif can_pass[attacker][0]:
        fits = 2 * low - plays <= lead
    else:
        fits = (plays + lead) % 2 == 0 and low <= (plays + lead) // 2 <= high
    if not fits:
        mine = f"{low}" if low == high else f"{low} to {high}"
        theirs = f"{plays - high}" if low == high else f"{plays - high} to {plays - low}"
        why = "; ".join(text for ok, text in can_pass.values() if not ok)
        problems.append(
            f"turns alternate from the attacker's first, but the attacker ({_NAMES[attacker]}) "
            f"has played {mine} cards and the defender {theirs}; {why}"
        )
    # Each cauldron discards one attacker card, in a defender's turn.
    thrown = OIL_CAULDRONS - state.oil
    back = 2 * _played(state, TacticCard.SUPPORT) + _played(state, TacticCard.RECRUITMENT)
    if thrown > len(state.discards) + back:
        problems.append(
            f"{thrown} oil cauldrons thrown, each discarding an attacker's card, but "
            f"{len(state.discards)} cards lie on the discard pile"
        )
    elif not can_pass[defender][0]:
        turns = plays - low + int(holder == defender)
        if thrown > turns:
            problems.append(
                f"{thrown} oil cauldrons thrown, one at most in each of the defender's "
                f"{turns} turns"
            )
    # Damaging a tile discarded the attacker's complete formation on its intact side.
    damaged = [str(t.number) for t in state.tiles if t.damaged]
    needed = sum(_INTACT_SIZES[t.number] for t in state.tiles if t.damaged)
    if needed > len(state.discards) + back:
        which = f"tiles {', '.join(damaged)} are" if len(damaged) > 1 else f"tile {damaged[0]} is"
        problems.append(
            f"{which} damaged, each by a control discarding the attacker's formation there "
            f"({needed} cards), but {len(state.discards)} cards lie on the discard pile"
        )
    return problems
