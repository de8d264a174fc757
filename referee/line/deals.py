"""The deal questions of games on a line (see :mod:`referee.deals`): what
every such game's record shows the same way.

Both hands are dealt from the top of the main pile, player 1's first; a
record whose moves pass is replayed alongside (a pass says what the hand
cannot hold, which depends on the table); a found deal is written back into
the record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from referee.cards import CardSet
from referee.deals import DealAnswer, DealProblem, Draw, Event, Spend
from referee.errors import RefereeError
from referee.line.moves import Claim, Play, plain_reader
from referee.records import Record

__all__ = ["DealWalk", "PlainDeals", "dealt", "follow", "replay_for_passes", "with_deal"]


def dealt(
    main: str, cards: Sequence[object], tactics: Sequence[object] | None, hand_size: int
) -> tuple[dict[str, tuple[str, ...]], list[Event]]:
    """The piles of a deal question (``main`` and, with ``tactics``, ``"tactic"``)
    and its first events: each player draws a hand from the main pile.

    >>> piles, events = dealt("clan", ["R1", "R2", "R3", "R4"], None, 2)
    >>> piles, [(e.player, e.pile) for e in events]
    ({'clan': ('R1', 'R2', 'R3', 'R4')}, [(0, 'clan'), (0, 'clan'), (1, 'clan'), (1, 'clan')])
    """
    piles = {main: tuple(str(c) for c in cards)}
    if tactics is not None:
        piles["tactic"] = tuple(str(t) for t in tactics)
    events: list[Event] = [Draw(0, player, main) for player in (0, 1) for _ in range(hand_size)]
    return piles, events


def replay_for_passes(game_format: Any, record: Record, moves: Sequence[object]) -> Any:
    """The start of ``record`` without its deal when a move passes (a pass
    depends on the table, so such a record is replayed), else ``None``."""
    if any(str(m) == "pass" for m in moves):
        return game_format.start(replace(record, deal=None))
    return None


def follow(state: Any, move: object) -> Any:
    """``state`` after ``move``, or ``None`` once the rules refuse a move: the
    deal question still stands for it, but the table is no longer followed,
    so later passes lack nothing."""
    if state is None:
        return None
    try:
        return state.play(move)
    except RefereeError:
        return None


class DealWalk:
    """A record's moves walked for its deal question: iterating gives each
    ``(ply, move)`` of the first ``upto`` moves (all by default; a move object
    in the record also replays) while :attr:`player` is the player whose turn
    it is and :attr:`state` the table before the move (followed only when a
    move passes, see :func:`replay_for_passes` and :func:`follow`); a move of
    a ``turn_ends`` type passes the turn. The game appends to :attr:`events`
    and the walk's :meth:`problem` is the question. ``rules`` are the
    record's rules as ``game_format.rules_of`` reads them; the piles are
    ``main`` and, with tactics, ``"tactic"``."""

    def __init__(
        self,
        game_format: Any,
        record: Record,
        upto: int | None,
        piles: tuple[str, Sequence[object], Sequence[object]],
        parse: Callable[[str], object],
        turn_ends: tuple[type, ...],
    ) -> None:
        main, cards, tactic_cards = piles
        self.rules: Any = game_format.rules_of(record.rules, record.where)
        tactics = tactic_cards if self.rules.tactics else None
        self.piles, self.events = dealt(main, cards, tactics, self.rules.hand_size)
        self.moves = record.moves if upto is None else record.moves[:upto]
        # the rules accepted the record's start
        self.player = 1 if record.first == 1 else 0
        self.state: Any = replay_for_passes(game_format, record, self.moves)
        self._parse, self._turn_ends = parse, turn_ends

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        for ply, text in enumerate(self.moves, start=1):
            move = self._parse(text) if isinstance(text, str) else text
            yield ply, move
            self.state = follow(self.state, move)
            if isinstance(move, self._turn_ends):
                self.player = 1 - self.player

    def problem(self) -> DealProblem:
        """The deal question: the piles and the events so far."""
        return DealProblem(self.piles, tuple(self.events))


def with_deal(record: Record, answer: DealAnswer, main: str, moves: Sequence[str]) -> Record:
    """``record`` with the deal of ``answer`` (main pile as ``deck``, tactic pile
    as ``tactics``) and ``moves`` (some written out in full by the game)."""
    assert answer.deal is not None
    deal: dict[str, list[str]] = {"deck": list(answer.deal[main])}
    if "tactic" in answer.deal:
        deal["tactics"] = list(answer.deal["tactic"])
    return replace(record, deal=deal, moves=tuple(moves))


class PlainDeals:
    """The deal question of a plain game's public record (see
    :mod:`referee.line.plain`): each card played came from its player's hand,
    and every play draws from the ``"deck"`` while it has cards; a claim keeps
    the turn.

    >>> from referee.cards import CardSet
    >>> deals = PlainDeals(CardSet("RB", ("red", "blue"), range(1, 6)), 2)
    >>> [(e.ply, e.player) for e in deals.problem(Record("game", ("R1@1",))).events[4:]]
    [(1, 0), (1, 0)]
    """

    def __init__(self, cards: CardSet, hand: int) -> None:
        self.cards, self.hand, self._read = cards, hand, plain_reader(cards)

    def problem(self, record: Record, upto: int | None = None) -> DealProblem:
        """The deal question of ``record``'s first ``upto`` moves (all by default)."""
        piles, events = dealt("deck", self.cards.cards, None, self.hand)
        player, pile = (1 if record.first == 1 else 0), len(self.cards.cards) - 2 * self.hand
        for ply, text in enumerate(record.moves[:upto], 1):
            move = self._read(text)
            if type(move) is Play:
                events.append(Spend(ply, player, str(move.card)))
                if pile:
                    events.append(Draw(ply, player, "deck"))
                    pile -= 1
            player = player if type(move) is Claim else 1 - player
        return DealProblem(piles, tuple(events))

    def full_record(self, record: Record, answer: DealAnswer) -> Record:
        """``record`` with the deal ``answer`` found."""
        return with_deal(record, answer, "deck", record.moves)
