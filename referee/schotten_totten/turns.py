"""Position checks of the turns (part of ``State.status()``, see
:mod:`~referee.schotten_totten.status`): what the phase says happened this
turn, what the last turn left, and the cards each player has played against
alternating turns and the passes the rules allow.

>>> from referee.schotten_totten import new_game
>>> phase_problems(new_game(seed=1)), turn_problems(new_game(seed=1))
([], [])
"""

from __future__ import annotations

from referee.cards import Card
from referee.schotten_totten import claims
from referee.schotten_totten.cards import Tactic
from referee.schotten_totten.state import Phase, State

__all__ = ["claimable", "phase_problems", "piles_ran_dry", "turn_problems"]

_RECRUITER = Tactic("recruiter")
_TRAITOR = Tactic("traitor")
_MUD = Tactic("mud_fight")
#: The phases that follow a card played this turn.
_PLAYED = frozenset({Phase.AFTER_PLAY, Phase.RECRUIT_RETURN, Phase.AFTER_RECRUIT})
#: The ruses that take a card off a side (the strategist, the banshee, the traitor).
_MOVERS = frozenset({Tactic("strategist"), Tactic("banshee"), _TRAITOR})


def piles_ran_dry(state: State) -> bool:
    """Whether both piles may have run out at some point: every card left in
    them is one the recruiter put back (piles are never refilled otherwise)."""
    under = len(state.under_piles[0]) + len(state.under_piles[1])
    return state.deck_size + state.tactic_deck_size <= under


def claimable(state: State, player: int) -> list[int]:
    """The stones ``player`` could prove a claim to now."""
    return [
        number
        for number, stone in enumerate(state.stones, start=1)
        if stone.owner is None
        and stone.complete(player)
        and claims.verdict(state, stone, player, "exact").holds
    ]


def phase_problems(state: State) -> list[str]:
    """Where the turn stands: what its phase says has happened this turn."""
    problems: list[str] = []
    mover = state.to_move
    phase = state.phase
    claimed_now = state.blank_turns == -1
    if claimed_now and not state.stones_of(mover):
        problems.append(
            f"blank_turns -1 says player {mover + 1} has claimed a stone this turn, "
            "but it holds none"
        )
    if claimed_now and phase is Phase.PLAY and not state.claims_now():
        problems.append(
            "blank_turns -1 says a stone was claimed this turn, but the turn has not "
            "reached its claims (stones are claimed after playing)"
        )
    recruiting = phase in (Phase.RECRUIT_RETURN, Phase.AFTER_RECRUIT)
    if recruiting and (not state.discards or state.discards[-1] != _RECRUITER):
        problems.append(
            f"the {phase.value} phase comes right after the recruiter, but it is not the "
            "last card discarded"
        )
    if phase is Phase.RECRUIT_RETURN:
        if any(state.under_piles):
            problems.append(
                "the recruiter has not put its cards back yet, but cards lie under the piles"
            )
        if state.hand_sizes[mover] == 0:
            problems.append("the recruiter's hand is empty: it has nothing to put back")
    if phase is Phase.AFTER_RECRUIT and state.hand_sizes[mover] > 0:
        back = sum(1 for pile in state.under_piles for p, _ in pile if p == mover)
        if back < 2:
            problems.append(
                f"player {mover + 1} has cards left after the recruiter, so it put two cards "
                f"under the piles, but {back} lie there"
            )
    if phase is Phase.AFTER_PASS and state.can_play_card(mover):
        problems.append(
            f"player {mover + 1} has passed this turn, but it can lay a clan card "
            "(a player passes only when it cannot)"
        )
    if phase is Phase.AFTER_PASS and state.rules.early_bird:
        claims = claimable(state, mover)
        if claims:
            problems.append(
                f"player {mover + 1} has passed this turn with Der frühe Vogel, but it can "
                f"still prove a claim at stone {claims[0]} (claims come before the pass)"
            )
    if state.blank_turns >= 1 and state.outcome is None:
        problems += _last_turn_problems(state)
    return problems


def _last_turn_problems(state: State) -> list[str]:
    """The other player's last turn was a pass that claimed nothing (blank)."""
    problems: list[str] = []
    other = 1 - state.to_move
    unchanged = state.phase in (Phase.PLAY, Phase.AFTER_PASS)
    if unchanged and state.can_play_card(other):
        problems.append(
            f"blank_turns {state.blank_turns} says player {other + 1} passed last turn, "
            "but it can lay a clan card"
        )
    elif not unchanged and not _may_have_passed(state, other)[0]:
        problems.append(
            f"blank_turns {state.blank_turns} says player {other + 1} passed last turn, "
            f"but {_may_have_passed(state, other)[1]}"
        )
    if unchanged:
        claims = claimable(state, other)
        if claims:
            problems.append(
                f"blank_turns {state.blank_turns} says player {other + 1} passed last turn "
                f"and claimed nothing, but it can prove a claim at stone {claims[0]} "
                "(a turn with a pass claims what it can)"
            )
    return problems


def _may_have_passed(state: State, player: int) -> tuple[bool, str]:
    """Whether ``player`` may have passed at some earlier turn, and if not, why.

    A player passes only when it cannot lay a clan card: its hand holds none,
    or every stone is claimed or full on its side. Without tactic cards both
    last: a claim is for good, cards never leave a side, and a hand that ran
    out of cards is never refilled; so a player who can lay a card now never
    passed. With them, ruses and Mud Fight may since have made room, and a
    hand may have held only tactic cards (or nothing once the piles ran out).
    """
    if not state.rules.tactics:
        if state.can_play_card(player):
            return False, (
                f"player {player + 1} never passed: it can lay a clan card now, and without "
                "tactic cards a player who once could not never can again"
            )
        return True, ""
    # Every open stone was claimed or full on its side when it passed; since
    # then a ruse took at most one card off a side and Mud Fight made one side bigger.
    gaps = sum(
        stone.rule.size - len(stone.sides[player]) for stone in state.stones if stone.owner is None
    )
    ruses = sum(1 for c in state.discards if c in _MOVERS)
    mud = any(s.owner is None and s.style == _MUD for s in state.stones)
    if gaps <= ruses + mud:
        return True, ""
    if piles_ran_dry(state):
        return True, ""
    # Or its full hand held only tactic cards, each of them since played, still
    # held or put back by the recruiter.
    reach = (
        state.tactics_in_hand(player)
        + state.tactics_played[player]
        + 2 * (_RECRUITER in state.discards)
    )
    if reach >= state.rules.hand_size:
        return True, ""
    return False, (
        f"player {player + 1} never passed: its side has room for {gaps} cards, more than "
        f"the ruses played could have made, and it never held {state.rules.hand_size} "
        "tactic cards at once"
    )


def turn_problems(state: State) -> list[str]:
    """The cards each player has played against alternating turns and the
    passes the rules allow (RULINGS: positions)."""
    problems: list[str] = []
    mover, other = state.to_move, 1 - state.to_move
    played = state.tactics_played
    # Every play puts one card from a hand on a side, on a stone (a combat
    # style) or on the discard pile (a ruse); a ruse moves or discards a card
    # of a side. So the plays are the cards on the table and discarded.
    plays = sum(len(side) for s in state.stones for side in s.sides)
    plays += sum(1 for s in state.stones if s.style is not None) + len(state.discards)
    clan_plays = plays - played[0] - played[1]
    traitor = int(_TRAITOR in state.discards)
    own = [
        max(0, sum(1 for s in state.stones for c in s.sides[p] if type(c) is Card) - traitor)
        for p in (0, 1)
    ]
    # The mover's plays lie between these (the rest are the other player's).
    low = played[mover] + own[mover]
    high = played[mover] + clan_plays - own[other]
    starting = state.phase is Phase.PLAY
    if state.phase in _PLAYED and high == 0:
        problems.append(
            f"the {state.phase.value} phase says player {mover + 1} has played a card this "
            "turn, but none of its cards is on the table"
        )
    if state.phase in (Phase.RECRUIT_RETURN, Phase.AFTER_RECRUIT) and played[mover] == 0:
        problems.append(f"player {mover + 1} has played the recruiter but no tactic card")
    problem = _alternation(state, plays, low, high, starting, "played")
    if problem is not None:
        problems.append(problem)
    # After the piles ran out no card is drawn, so the cards missing from each
    # hand are plays since then, and those alternate too (the two hands were
    # full then); the recruiter, putting cards back, breaks this count.
    recruited = _RECRUITER in state.discards
    if piles_ran_dry(state) and not recruited and not problems:
        missing = [state.rules.hand_size - state.hand_sizes[p] for p in (0, 1)]
        problem = _alternation(
            state,
            missing[0] + missing[1],
            missing[mover],
            missing[mover],
            starting,
            "played since the piles ran out",
        )
        if problem is not None:
            problems.append(problem)
    return problems


def _alternation(
    state: State, total: int, low: int, high: int, starting: bool, what: str
) -> str | None:
    """Whether ``total`` plays, of which the mover made ``low`` to ``high``,
    fit alternating turns (either player may have started) with the passes
    the players may have made; the problem if they do not."""
    mover, other = state.to_move, 1 - state.to_move
    can_pass = {p: _may_have_passed(state, p) for p in (0, 1)}
    # turns taken = plays + passes; with the mover's turn under way counted,
    # the mover has taken as many turns as the other player, or one more.
    lead = int(starting)
    fits: bool
    if can_pass[0][0] and can_pass[1][0]:
        fits = True
    elif can_pass[other][0]:
        fits = 2 * high + lead - total >= 0
    elif can_pass[mover][0]:
        fits = 2 * low + lead - total <= 1
    else:
        need = -((lead - total) // 2)  # the fewest mover plays with 2x + lead - total >= 0
        fits = low <= need <= high
    if fits:
        return None
    mine = f"{low}" if low == high else f"{low} to {high}"
    theirs = f"{total - high}" if low == high else f"{total - high} to {total - low}"
    why = "; ".join(text for p, (ok, text) in sorted(can_pass.items()) if not ok)
    return (
        f"turns alternate, but player {mover + 1} (to move) has {what} {mine} cards and "
        f"player {other + 1} {theirs}; {why}"
    )
