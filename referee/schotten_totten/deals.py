"""The visible card movements of a Schotten Totten record, for :mod:`referee.deals`.

The deal gives each player the first 6 (7 with tactics) clan cards, player 1
first; every later card comes from the top of the clan pile or the tactic pile
by a visible draw. The recruiter draws in the order written and (in the same
move or the next, ``return ...``) puts its two cards under their piles, named
or (in a public record) hidden as ``clan`` or ``tactic``; a hidden tactic card is never the second joker of a player who has
played one (it stays in hand).

    >>> from referee.records import Record
    >>> record = Record("schotten-totten", ("spy@1",), {"variants": ["tactics"]})
    >>> answer = solve(problem(record))
    >>> answer.fits, answer.ply, answer.reason
    (False, 1, 'card_never_held')
"""

from __future__ import annotations

from dataclasses import replace

from referee.deals import DealAnswer, DealProblem, Draw, Event, Lacks, PutBack, Spend, solve
from referee.line.deals import DealWalk, with_deal
from referee.records import Record
from referee.schotten_totten.moves import (
    Banshee,
    EndTurn,
    Pass,
    PlayCard,
    Recruit,
    Strategist,
    Traitor,
    parse_move,
)
from referee.schotten_totten.moves import Draw as DrawMove
from referee.schotten_totten.moves import PutBack as PutBackMove
from referee.schotten_totten.record import SchottenTottenFormat
from referee.schotten_totten.state import CLAN_CARDS, State
from referee.schotten_totten.tactics import TACTIC_CARDS, Tactic, parse_card

__all__ = ["full_record", "problem", "solve"]


def problem(record: Record, upto: int | None = None) -> DealProblem:
    """The deal question of ``record``'s first ``upto`` moves (all by default),
    which must read and follow the turn order (a turn ends with its ``draw``
    or ``done``); the rules judge them apart, so a move they refuse still
    gets its deal question."""
    piles = ("clan", CLAN_CARDS.cards, TACTIC_CARDS)
    walk = DealWalk(SchottenTottenFormat(), record, upto, piles, parse_move, (DrawMove, EndTurn))
    joker_played = [False, False]
    clan = frozenset(walk.piles["clan"])
    for ply, move in walk:
        player, state = walk.player, walk.state
        # with room on its side, a player who passes holds no clan card
        if (
            isinstance(move, Pass)
            and isinstance(state, State)
            and any(stone.room(player) for stone in state.stones)
        ):
            walk.events.append(Lacks(ply, player, clan))
        walk.events += _events(move, ply, player, joker_played[player])
        if isinstance(move, PlayCard) and move.card == Tactic("joker"):
            joker_played[player] = True
    return walk.problem()


def _events(move: object, ply: int, player: int, joker_played: bool) -> list[Event]:
    if isinstance(move, PlayCard):
        return [Spend(ply, player, str(move.card))]
    if isinstance(move, DrawMove):
        return [Draw(ply, player, move.pile or "clan")]
    if isinstance(move, Strategist | Banshee | Traitor):
        return [Spend(ply, player, type(move).__name__.lower())]
    if isinstance(move, Recruit | PutBackMove):
        events: list[Event] = []
        if isinstance(move, Recruit):
            events.append(Spend(ply, player, "recruiter"))
            events += [Draw(ply, player, pile) for pile in move.draws]
        for item in move.returns if isinstance(move, Recruit) else move.cards:
            if isinstance(item, str):
                # the second joker, once unplayable, stays in hand (RULINGS 14)
                kept = ("joker",) if item == "tactic" and joker_played else ()
                events.append(PutBack(ply, player, item, None, kept))
            else:
                pile = "tactic" if isinstance(item, Tactic) else "clan"
                events.append(PutBack(ply, player, pile, str(item)))
        return events
    return []


def full_record(record: Record, answer: DealAnswer) -> Record:
    """``record`` with the deal of ``answer`` (and any hidden recruiter return
    named), which replays as a full record."""
    moves = list(record.moves)
    if answer.hidden:
        found = problem(record)
        named = {
            index: answer.hidden[index]
            for index, event in enumerate(found.events)
            if isinstance(event, PutBack) and event.card is None
        }
        by_ply: dict[int, list[str]] = {}
        for index, card in sorted(named.items()):
            by_ply.setdefault(found.events[index].ply, []).append(card)
        for ply, cards in by_ply.items():
            text = moves[ply - 1]
            move = parse_move(text) if isinstance(text, str) else text
            assert isinstance(move, Recruit | PutBackMove)
            chosen = iter(cards)
            # a hidden return (its pile's name) becomes the card the deal put there
            items = move.returns if isinstance(move, Recruit) else move.cards
            named_items = tuple(
                parse_card(next(chosen)) if isinstance(item, str) else item for item in items
            )
            if isinstance(move, Recruit):
                moves[ply - 1] = str(replace(move, returns=named_items))
            else:
                moves[ply - 1] = str(PutBackMove(named_items))
    return with_deal(record, answer, "clan", moves)
