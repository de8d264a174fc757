"""Position checks: whether a Schotten Totten position could arise from a
deal by legal play (``State.status()``, like python-chess's ``Board.status()``).

Checked: cards used twice or not adding up, sides over their size, owners
without their complete formation or whose claim the table cannot prove, the
outcome against the stones (a won game stops at the winner's claim, in its own
turn), tactic and joker counts against the table, hand sizes against the piles
(full while a pile has cards), the cards each player has played against
alternating turns and the passes the rules allow, the phase against what it
says happened this turn, blank turns, and the recruiter's cards under the
piles. Each problem names where (``"stone 3: ..."``, ``"player 2 ..."``).

>>> from referee.schotten_totten import new_game
>>> problems(new_game(seed=1))
[]
"""

from __future__ import annotations

from collections import Counter

from referee.cards import Card
from referee.game import REFEREE_ENDS, Outcome, Termination
from referee.line.tactics import JOKER
from referee.schotten_totten import claims
from referee.schotten_totten.cards import CLAN_CARDS, ELITE, TACTIC_CARDS, AnyCard, Tactic, copies
from referee.schotten_totten.rules import winner as stones_winner
from referee.schotten_totten.state import PILE_NAMES, Phase, State
from referee.schotten_totten.turns import claimable, phase_problems, piles_ran_dry, turn_problems

__all__ = ["full_hand", "problems"]

_JOKER = JOKER
_RECRUITER = Tactic("recruiter")
_BANSHEE = Tactic("banshee")
_STRATEGIST = Tactic("strategist")


def problems(state: State) -> list[str]:
    """Every reason ``state`` cannot arise from a deal by legal play (see :meth:`State.status`)."""
    found = _card_problems(state)
    found += _stone_problems(state)
    found += _tactic_problems(state)
    found += _under_pile_problems(state)
    if found:
        # The counts below build on the cards, the stones and the tactic counts.
        return found
    found += _hand_problems(state)
    found += _outcome_problems(state)
    found += phase_problems(state)
    if not found:
        found += turn_problems(state)
    return found


def _card_problems(state: State) -> list[str]:
    """Every card once, and the hidden cards add up."""
    problems: list[str] = []
    counts: Counter[AnyCard] = Counter(state.discards)
    for stone in state.stones:
        if stone.style is not None:
            counts[stone.style] += 1
        for side in stone.sides:
            counts.update(side)
    for hand in state.hands:
        counts.update(hand or ())
    counts.update(state.deck or ())
    counts.update(state.tactic_deck or ())
    for card, count in counts.items():
        if count > (copies(card) if type(card) is Tactic else 1):
            problems.append(f"card {card} is used {count} times")
    if not state.rules.tactics and any(type(c) is Tactic for c in counts):
        problems.append("tactic cards lie on the table but the rules play without tactics")
    for p in (0, 1):
        hand = state.hands[p]
        if hand is not None and len(hand) != state.hand_sizes[p]:
            problems.append(
                f"player {p + 1}'s hand holds {len(hand)} cards, hand_sizes says "
                f"{state.hand_sizes[p]}"
            )
        elif hand is None and not 0 <= state.hand_tactics[p] <= state.hand_sizes[p]:
            problems.append(f"player {p + 1} holds {state.hand_tactics[p]} tactic cards")
    for pile, size, name in (
        (state.deck, state.deck_size, "clan pile"),
        (state.tactic_deck, state.tactic_deck_size, "tactic pile"),
    ):
        if pile is not None and len(pile) != size:
            problems.append(f"the {name} holds {len(pile)} cards, its size says {size}")
    return problems or _total_problems(state)


def _total_problems(state: State) -> list[str]:
    """The clan cards and the tactic cards add up, hidden ones included."""
    problems: list[str] = []
    seen_clans = len(state.visible_cards())
    clans = sum(state.clans_in_hand(p) for p in (0, 1))
    if seen_clans + clans + state.deck_size != len(CLAN_CARDS.cards):
        problems.append(
            f"the clan cards do not add up: {len(CLAN_CARDS.cards)} in the game, {seen_clans} "
            f"on the table or discarded, {clans} in the hands and {state.deck_size} in the pile"
        )
    seen_tactics = sum(state.visible_tactics().values())
    held = sum(state.tactics_in_hand(p) for p in (0, 1))
    total = len(TACTIC_CARDS) if state.rules.tactics else 0
    if seen_tactics + held + state.tactic_deck_size != total:
        problems.append(
            f"the tactic cards do not add up: {total} in the game, {seen_tactics} played, "
            f"{held} in the hands and {state.tactic_deck_size} in the tactic pile"
        )
    return problems


def _stone_problems(state: State) -> list[str]:
    """Sides within their size, completion times, owners with a provable claim."""
    problems: list[str] = []
    for number, stone in enumerate(state.stones, start=1):
        size = stone.rule.size
        for p in (0, 1):
            side = stone.sides[p]
            if len(side) > size:
                problems.append(f"stone {number}: player {p + 1} has more than {size} cards")
            if any(type(c) is Tactic and c.kind != "elite" for c in side):
                problems.append(f"stone {number}: only clan cards and elite troops lie on a side")
            done = stone.completed[p]
            if (done is None) == (len(side) == size):
                problems.append(
                    f"stone {number}: player {p + 1}'s side is "
                    f"{'complete' if len(side) == size else 'incomplete'} but its completion "
                    f"time is {done!r}"
                )
        if stone.style is not None and stone.style.kind != "style":
            problems.append(f"stone {number}: {stone.style} is not a combat style")
        first, second = stone.completed
        if first is not None and first == second:
            problems.append(
                f"stone {number}: both sides completed at ply {first}; one of them was first"
            )
        owner = stone.owner
        if owner is None:
            continue
        if len(stone.sides[owner]) != size:
            problems.append(
                f"stone {number}: player {owner + 1} holds it without a complete formation"
            )
        elif (
            len(stone.sides[1 - owner]) <= size
            and not claims.verdict(state, stone, owner, "exact").holds
        ):
            # A claim proven earlier stays provable: since then the opposing side
            # of a claimed stone is frozen and only more cards became visible.
            problems.append(
                f"stone {number}: player {owner + 1}'s claim cannot be proven from this table"
            )
    return problems


def _tactic_problems(state: State) -> list[str]:
    """Tactic cards played against the table, the tactic limit and the jokers."""
    problems: list[str] = []
    played = state.tactics_played
    # every tactic card played lies on the table or the discard pile
    visible = sum(state.visible_tactics().values())
    if abs(played[0] - played[1]) > 1:
        problems.append(f"tactics played {list(played)}: one player is two ahead")
    if sum(played) != visible:
        problems.append(
            f"tactics played {list(played)} but {visible} tactic cards are on the table"
        )
    for p in (0, 1):
        elite = sum(1 for s in state.stones for c in s.sides[p] if type(c) is Tactic)
        # (the traitor takes clan cards only: every elite troop on a side is its player's)
        if played[p] < elite:
            problems.append(
                f"player {p + 1} has {elite} tactic cards on its side but played {played[p]}"
            )
        jokers = sum(s.sides[p].count(_JOKER) for s in state.stones)
        if jokers > 1:
            problems.append(f"player {p + 1} has two jokers on its side")
        if jokers and not state.jokers_played[p]:
            problems.append(f"player {p + 1} has a joker on its side but jokers_played says no")
        if state.jokers_played[p] and played[p] == 0:
            problems.append(f"player {p + 1} played a joker but no tactic card")
    # Only the banshee (always) and the strategist (when it does not move it)
    # discard a card from a side.
    taken = [c for c in state.discards if not isinstance(c, Tactic) or c.name in ELITE]
    throwers = [c for c in state.discards if c in (_BANSHEE, _STRATEGIST)]
    if len(taken) > len(throwers):
        problems.append(
            f"{' '.join(map(str, taken))} lie on the discard pile, but only the banshee and "
            "the strategist discard a card from a side"
        )
    elif _BANSHEE in state.discards and not taken:
        problems.append("the banshee has been played, but no card it discarded lies on the pile")
    jokers_seen = state.visible_tactics()[_JOKER]
    if sum(state.jokers_played) != jokers_seen:
        problems.append(
            f"{jokers_seen} jokers lie on the table but jokers_played says "
            f"{sum(state.jokers_played)} players have played one"
        )
    return problems


def _under_pile_problems(state: State) -> list[str]:
    """The recruiter's cards under the piles: at most its two, all of one player."""
    problems: list[str] = []
    piles = ((state.deck, state.deck_size), (state.tactic_deck, state.tactic_deck_size))
    for under, (pile, size), name in zip(state.under_piles, piles, PILE_NAMES, strict=True):
        if under and not state.rules.tactics:
            problems.append("cards lie under a pile but the rules play without tactics")
        if len(under) > size:
            problems.append(f"{len(under)} cards lie under the {name} pile of {size} cards")
        for p, item in under:
            if p not in (0, 1) or not (item == name or _pile_of(item) == name):
                problems.append(f"under the {name} pile: {item!r} of player {p!r}")
        known = [c for _, c in under]
        if pile is not None and under and list(pile[len(pile) - len(under) :]) != known:
            problems.append(f"the {name} pile does not end with the cards put under it")
    returned = [p for pile in state.under_piles for p, _ in pile]
    if returned and not problems:
        # The game has one recruiter: it puts two cards back, once.
        if len(returned) > 2 or len(set(returned)) > 1:
            problems.append(
                f"{len(returned)} cards lie under the piles, put back by players "
                f"{sorted({p + 1 for p in returned})}: the one recruiter puts back two, once"
            )
        elif _RECRUITER not in state.discards or state.tactics_played[returned[0]] == 0:
            problems.append(
                f"player {returned[0] + 1} put cards under the piles but has not played "
                "the recruiter"
            )
    return problems


def full_hand(state: State, player: int) -> int:
    """The size of ``player``'s hand at this point of the turn while the piles
    have never run out: full, one card fewer right after playing one, two more
    between the recruiter's draws and its returns."""
    full = state.rules.hand_size
    if player != state.to_move:
        return full
    if state.phase is Phase.AFTER_PLAY:
        return full - 1
    if state.phase is Phase.RECRUIT_RETURN:
        return full + 2
    return full


def _hand_problems(state: State) -> list[str]:
    """Hands hold their full size unless the piles have run out (RULINGS:
    positions): a card is drawn after every card played while a pile has one."""
    problems: list[str] = []
    dry = piles_ran_dry(state)
    left = state.deck_size + state.tactic_deck_size
    for p in (0, 1):
        size, full = state.hand_sizes[p], full_hand(state, p)
        if size > full:
            problems.append(f"player {p + 1} holds {size} cards: a hand holds at most {full} here")
        elif size < full and not dry:
            problems.append(
                f"player {p + 1} holds {size} cards but {left} cards are still to draw: "
                f"a hand is refilled to {state.rules.hand_size} after every card played "
                "while a pile has cards"
            )
    return problems


def _outcome_problems(state: State) -> list[str]:
    """The outcome against the stones, and a won game ended by the winner's claim."""
    problems: list[str] = []
    outcome = state.outcome
    winners = [o for o in (stones_winner(state.stones, p) for p in (0, 1)) if o is not None]
    if len(winners) == 2:
        problems.append("both players hold three adjacent or five stones")
        return problems
    if winners and outcome != winners[0]:
        won = winners[0]
        problems.append(
            f"player {(won.winner or 0) + 1} has won ({won.reason}) but the game is not over"
        )
    elif winners:
        problems += _winning_claim_problems(state, winners[0])
    elif outcome is not None and outcome.reason in REFEREE_ENDS:
        pass  # a referee may end a game in play at any point
    elif outcome is not None and outcome.winner is not None:
        problems.append(f"the game is marked won by player {outcome.winner + 1}")
    blocked = outcome is not None and outcome.reason == Termination.BLOCKED
    if blocked != (state.blank_turns >= 2) and not winners:
        problems.append(
            f"blank_turns is {state.blank_turns} and the outcome {outcome}: a game ends "
            "blocked exactly after two turns in a row pass and claim nothing"
        )
    if not -1 <= state.blank_turns <= 2:
        problems.append(
            f"blank_turns is {state.blank_turns}: it counts 0, 1 or 2 turns (-1 after a claim)"
        )
    if blocked:
        problems += _blocked_problems(state)
    return problems


def _winning_claim_problems(state: State, won: Outcome) -> list[str]:
    """A won game ended at once by the winner's claim, in its own turn."""
    winner = won.winner
    assert winner is not None
    if state.to_move != winner:
        return [
            f"player {winner + 1} has won ({won.reason}) by claiming in its own turn, so "
            f"player {state.to_move + 1} cannot be to move"
        ]
    if not state.claims_now():
        return [
            f"player {winner + 1} has won by a claim, but no stone is claimed in the "
            f"{state.phase.value} phase"
        ]
    if state.blank_turns != -1:
        return [
            f"player {winner + 1} has won by a claim this turn, so blank_turns is -1, "
            f"not {state.blank_turns}"
        ]
    return []


def _blocked_problems(state: State) -> list[str]:
    """A blocked game: both players passed and claimed nothing, and nothing changed."""
    problems: list[str] = []
    if state.phase is not Phase.PLAY:
        problems.append(
            f"a blocked game ends at the end of a turn, not in its {state.phase.value} phase"
        )
    for p in (0, 1):
        # Nothing changed since either blank turn: both players passed then.
        if state.can_play_card(p):
            problems.append(f"the game is blocked, but player {p + 1} can lay a clan card")
        claims = claimable(state, p)
        if claims:
            problems.append(
                f"the game is blocked, but player {p + 1} can prove a claim at stone "
                f"{claims[0]} (a turn with a pass claims what it can)"
            )
    return problems


def _pile_of(card: object) -> str | None:
    return "clan" if type(card) is Card else "tactic" if type(card) is Tactic else None
