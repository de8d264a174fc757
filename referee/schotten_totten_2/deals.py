"""The visible card movements of a Schotten Totten 2 record, for :mod:`referee.deals`.

The deal gives each player the first 6 (7 with tactics) siege cards, player 1
first; every later card comes from the top of the siege deck or the tactic pile
by a visible draw. Action cards leave the hand when played; an exchange's offer
and its answer name the 3 cards each hand gives; the support shuffles two discarded (so known)
siege cards into the deck, at the places its ``shuffle`` names (a public record
may leave them out: then the deck below is a multiset again, see
:mod:`referee.deals`). A player who passes holds no card it could play; when the
record ends saying the siege failed, neither player holds a card it could play
on its next turn.

    >>> from referee.records import Record
    >>> record = Record("schotten-totten-2", ("joker@1",), {"variants": ["tactics"]})
    >>> answer = solve(problem(record))
    >>> answer.fits, answer.ply, answer.reason
    (False, 1, 'card_never_held')
"""

from __future__ import annotations

from referee.deals import (
    DealAnswer,
    DealProblem,
    Draw,
    Event,
    Insert,
    Lacks,
    Receive,
    Spend,
    solve,
)
from referee.game import Termination
from referee.line.deals import DealWalk, with_deal
from referee.records import Record
from referee.schotten_totten_2.moves import (
    Desertion,
    EndTurn,
    Exchange,
    ExchangeReply,
    Explosion,
    Pass,
    PlayCard,
    Recruitment,
    Redeploy,
    Shuffle,
    Support,
    Treason,
    parse_move,
)
from referee.schotten_totten_2.moves import Draw as DrawMove
from referee.schotten_totten_2.record import SchottenTotten2Format
from referee.schotten_totten_2.state import State
from referee.schotten_totten_2.wall import SIEGE_CARDS, TACTIC_CARDS, TacticCard

__all__ = ["full_record", "problem", "solve"]

_ACTIONS = {
    Redeploy: "redeploy",
    Recruitment: "recruitment",
    Desertion: "desertion",
    Treason: "treason",
    Explosion: "explosion",
    Support: "support",
}


def problem(record: Record, upto: int | None = None) -> DealProblem:
    """The deal question of ``record``'s first ``upto`` moves (all by default),
    which must read and follow the turn order (a turn ends with its ``draw``
    or ``done``); the rules judge them apart, so a move they refuse still
    gets its deal question."""
    piles = ("siege", SIEGE_CARDS.cards, TACTIC_CARDS)
    walk = DealWalk(SchottenTotten2Format(), record, upto, piles, parse_move, (DrawMove, EndTurn))
    support: tuple[str, ...] = ()
    offer: tuple[str, ...] = ()  # the cards of an exchange waiting for its answer
    for ply, move in walk:
        player, state = walk.player, walk.state
        if isinstance(move, Support):
            support = tuple(str(c) for c in move.cards)
        if isinstance(move, Pass) and isinstance(state, State):
            walk.events.append(Lacks(ply, player, _playable(state)))
        if isinstance(move, Exchange):
            offer = tuple(str(c) for c in move.give)
        walk.events += _events(move, ply, player, support, offer)
    state = walk.state
    if (
        len(walk.moves) == len(record.moves)
        and isinstance(state, State)
        and state.outcome is not None
        and state.outcome.termination is Termination.SIEGE_FAILED
    ):
        # The siege failed: neither player could play on its next turn (RULINGS
        # Schotten Totten 2, 7). A public replay ends there when some hands
        # consistent with what it sees play nothing; the deal must give such hands.
        for who in (state.attacker, state.defender):
            lacks = Lacks(len(walk.moves), who, _playable(state._as_turn_of(who)), _FAILED)
            walk.events.append(lacks)
    return walk.problem()


_FAILED = "can play nothing more (the siege failed)"


def _playable(state: State) -> frozenset[str]:
    """The cards the player to move could play now if it held them, after any
    opening action still open to it (the attacker's retreat, the defender's
    oil), as the rules judge a known hand: a player who passes, or cannot
    play when the siege fails, holds none of them."""
    player, opponent = state.to_move, 1 - state.to_move
    cards: set[str] = set()
    for variant in state._opening_variants():
        open_tiles = [t.number for t in variant.tiles if t.room(player)]
        if open_tiles:
            cards.update(str(c) for c in SIEGE_CARDS.cards)
        if not variant.rules.tactics or (
            variant.tactics_played[player] > variant.tactics_played[opponent]
        ):
            continue
        for card in dict.fromkeys(TACTIC_CARDS):
            if card is TacticCard.EXCHANGE:
                playable = variant.hand_sizes[player] > 3 and variant.hand_sizes[opponent] >= 3
            else:
                playable = bool(variant._tactic_plays(card, open_tiles))
            if playable:
                cards.add(str(card))
    return frozenset(cards)


def _events(
    move: object, ply: int, player: int, support: tuple[str, ...], offer: tuple[str, ...]
) -> list[Event]:
    """The card movements of one ply; ``player`` holds the turn (an exchange's
    answer is the other player's ply, within that turn)."""
    if isinstance(move, PlayCard):
        return [Spend(ply, player, str(move.card))]
    if isinstance(move, DrawMove):
        return [Draw(ply, player, move.pile or "siege")]
    if isinstance(move, Shuffle):
        return [Insert(ply, "siege", support, move.positions)]
    if isinstance(move, Exchange):
        # the mover holds the offered cards now; they stay in its hand until
        # the answer swaps them
        held = [str(c) for c in move.give]
        return [
            Spend(ply, player, "exchange"),
            *(Spend(ply, player, c) for c in held),
            *(Receive(ply, player, c) for c in held),
        ]
    if isinstance(move, ExchangeReply):
        other = 1 - player
        return [
            *(Spend(ply, player, c) for c in offer),
            *(Spend(ply, other, str(c)) for c in move.give),
            *(Receive(ply, player, str(c)) for c in move.give),
            *(Receive(ply, other, c) for c in offer),
        ]
    name = _ACTIONS.get(type(move))
    return [] if name is None else [Spend(ply, player, name)]


def full_record(record: Record, answer: DealAnswer) -> Record:
    """``record`` with the deal of ``answer`` (and any unrecorded shuffle
    places filled in), which replays as a full record."""
    moves = list(record.moves)
    if answer.positions:
        found = problem(record)
        for index, places in answer.positions.items():
            ply = found.events[index].ply
            moves[ply - 1] = str(Shuffle((places[0], places[1])))
    return with_deal(record, answer, "siege", moves)
