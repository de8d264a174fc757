"""Scoring: how each tableau's cards are handed out to the shields on it.

At the end each tableau's shield stack is turned over, so the first shield
placed there comes first. It takes every face-up card of the lowest rank on the
tableau, the next shield takes the next rank up, and so on; shields beyond the
number of ranks take nothing, and ranks beyond the number of shields go to
nobody. Face-down cards are removed first and count for nothing.

The first tip of the rulebook: two shields on a tableau with only 4s and 6s;
a 3 on the last free seat means the 6s go to nobody::

    >>> cards = [Card("R", 4), Card("G", 4), Card("B", 6), Card("Y", 6)]
    >>> print(score_tableau(1, cards, shields=(0, 1)))
    t1 (shields, first placed first: player 1, player 2)
      player 1 takes the 4s: R4 G4 = 8
      player 2 takes the 6s: Y6 B6 = 12
    >>> print(score_tableau(1, [*cards, Card("P", 3)], shields=(0, 1)))
    t1 (shields, first placed first: player 1, player 2)
      player 1 takes the 3s: P3 = 3
      player 2 takes the 4s: R4 G4 = 8
      nobody takes the 6s: Y6 B6
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from referee.cards import Card
from referee.clans_and_glory.cards import CARDS, RANK, ids_of
from referee.clans_and_glory.setup import CLAN_CARDS
from referee.game import Outcome, Termination

if TYPE_CHECKING:
    from referee.clans_and_glory.layout import Layout
    from referee.clans_and_glory.rules import Board

__all__ = [
    "Award",
    "ScoreSheet",
    "TableauScore",
    "final_outcome",
    "score_board",
    "score_sheet",
    "score_tableau",
]


@dataclass(frozen=True, slots=True)
class Award:
    """The cards of one rank on one tableau, given to the owner of one shield."""

    player: int
    rank: int
    cards: tuple[Card, ...]

    @property
    def points(self) -> int:
        """The cards' total value."""
        return self.rank * len(self.cards)


@dataclass(frozen=True, slots=True)
class TableauScore:
    """How one tableau scores.

    ``shields`` lists the stack's owners with the first shield placed first;
    ``awards`` has one entry per shield that took a rank (lowest rank first);
    ``unclaimed`` holds the face-up cards of ranks that no shield took, and
    ``face_down`` the face-down cards (worth nothing).
    """

    tableau: int
    shields: tuple[int, ...]
    awards: tuple[Award, ...]
    unclaimed: tuple[Card, ...]
    face_down: tuple[Card, ...] = ()

    def points(self, player: int) -> int:
        """What ``player`` scores on this tableau."""
        return sum(a.points for a in self.awards if a.player == player)

    def cards(self, player: int) -> int:
        """How many cards ``player`` collects on this tableau."""
        return sum(len(a.cards) for a in self.awards if a.player == player)

    def __str__(self) -> str:
        owners = ", ".join(f"player {p + 1}" for p in self.shields) or "none"
        lines = [f"t{self.tableau} (shields, first placed first: {owners})"]
        for award in self.awards:
            cards = " ".join(map(str, award.cards))
            lines.append(
                f"  player {award.player + 1} takes the {award.rank}s: {cards} = {award.points}"
            )
        for rank in sorted({c.value for c in self.unclaimed}):
            cards = " ".join(str(c) for c in self.unclaimed if c.value == rank)
            lines.append(f"  nobody takes the {rank}s: {cards}")
        if self.face_down:
            lines.append("  face down, worth nothing: " + " ".join(map(str, self.face_down)))
        return "\n".join(lines)


def score_tableau(
    tableau: int,
    face_up: Iterable[Card],
    shields: Sequence[int],
    face_down: Iterable[Card] = (),
) -> TableauScore:
    """Hand out one tableau's face-up cards; ``shields`` is in placement order.

    More shields than ranks: the last shields take nothing.

    >>> score = score_tableau(2, [Card("R", 5)], shields=(1, 0, 1))
    >>> [(a.player, a.rank, a.points) for a in score.awards]
    [(1, 5, 5)]
    >>> score_tableau(1, ["R5"], shields=(0,))
    Traceback (most recent call last):
    ...
    ValueError: face-up cards must be Clans and Glory cards, not 'R5'
    """
    if isinstance(tableau, bool) or not isinstance(tableau, int) or tableau < 1:
        raise ValueError(f"tableaus are numbered from 1, not {tableau!r}")
    face_up, face_down = tuple(face_up), tuple(face_down)
    for name, given in (("face-up", face_up), ("face-down", face_down)):
        for card in given:
            if not isinstance(card, Card) or card not in CLAN_CARDS:
                raise ValueError(f"{name} cards must be Clans and Glory cards, not {card!r}")
    if isinstance(shields, str) or not all(
        isinstance(p, int) and not isinstance(p, bool) and 0 <= p < 4 for p in shields
    ):
        raise ValueError(f"shields are listed by their owners (players 0-3), not {shields!r}")
    cards = sorted(face_up, key=lambda c: (c.value, CLAN_CARDS.colour_index(c.colour)))
    ranks = sorted({c.value for c in cards})
    awards = tuple(
        Award(player, rank, tuple(c for c in cards if c.value == rank))
        for player, rank in zip(shields, ranks, strict=False)
    )
    taken = set(ranks[: len(shields)])
    return TableauScore(
        tableau=tableau,
        shields=tuple(shields),
        awards=awards,
        unclaimed=tuple(c for c in cards if c.value not in taken),
        face_down=tuple(face_down),
    )


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Every tableau's score and each player's totals.

    ``points`` and ``cards`` are per player; ``winners`` are the players with
    the most points, ties broken by most cards; more than one means a shared win.
    """

    players: int
    tableaus: tuple[TableauScore, ...]
    points: tuple[int, ...]
    cards: tuple[int, ...]
    winners: tuple[int, ...]

    def outcome(self) -> Outcome:
        """The result as an :class:`~referee.game.Outcome`.

        ``reason`` is ``most_points``, ``most_cards`` (points tied, cards
        decided) or ``shared`` (``winner`` is ``None``; see :attr:`winners`).
        """
        if len(self.winners) > 1:
            return Outcome(Termination.SHARED, None, self.points, winners=self.winners)
        winner = self.winners[0]
        rivals = [p for p in range(self.players) if p != winner]
        tied = any(self.points[p] == self.points[winner] for p in rivals)
        return Outcome(
            Termination.MOST_CARDS if tied else Termination.MOST_POINTS, winner, self.points
        )

    def __str__(self) -> str:
        lines = [str(t) for t in self.tableaus]
        lines.append(
            "totals: "
            + ", ".join(
                f"player {p + 1} {self.points[p]} points "
                f"({self.cards[p]} card{'' if self.cards[p] == 1 else 's'})"
                for p in range(self.players)
            )
        )
        return "\n".join(lines)


def score_sheet(players: int, tableaus: Iterable[TableauScore]) -> ScoreSheet:
    """Add up the tableaus and decide the winners.

    The rulebook's example: one player's cards 8+8+7+7+7+6+6+5 make 54.

    >>> t1 = score_tableau(1, [Card("R", 5), Card("G", 6), Card("B", 6)], shields=(0, 0))
    >>> t2 = score_tableau(2, [Card("R", 7), Card("G", 7), Card("Y", 7)], shields=(0,))
    >>> t3 = score_tableau(3, [Card("R", 3), Card("R", 8), Card("G", 8)], shields=(1, 0))
    >>> sheet = score_sheet(2, [t1, t2, t3])
    >>> sheet.points, sheet.cards, sheet.winners
    ((54, 3), (8, 1), (0,))
    >>> sheet.outcome()
    Outcome(Termination.MOST_POINTS, winner=0, scores=(54, 3))
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ValueError(f"Clans and Glory is for 2 to 4 players, not {players!r}")
    tableaus = tuple(tableaus)
    if not all(isinstance(t, TableauScore) for t in tableaus):
        raise ValueError("score_sheet adds up TableauScores (from score_tableau)")
    owners = {a.player for t in tableaus for a in t.awards}
    if any(p >= players for p in owners):
        raise ValueError(f"a shield belongs to player {max(owners)}, not one of 0-{players - 1}")
    points = tuple(sum(t.points(p) for t in tableaus) for p in range(players))
    cards = tuple(sum(t.cards(p) for t in tableaus) for p in range(players))
    best = max((points[p], cards[p]) for p in range(players))
    winners = tuple(p for p in range(players) if (points[p], cards[p]) == best)
    return ScoreSheet(players, tableaus, points, cards, winners)


def final_outcome(
    num_players: int,
    seat_cards: Sequence[int],
    face_up: int,
    shields: Sequence[Sequence[int]],
    tableau_masks: Sequence[int],
) -> Outcome:
    """The outcome of the scoring above, on the integer table the rules keep
    (see :class:`~referee.clans_and_glory.rules.Board`): the card id on each
    seat, the mask of the face-up seats, each tableau's shield stack and seats.
    It is :func:`score_sheet`'s ``outcome()`` without the sheet (tested equal).

    >>> from referee.clans_and_glory.cards import ID
    >>> # t1: seats 0-2, R4 and G4 face up on 0 and 1, B6 face down on 2
    >>> cards = [ID[Card("R", 4)], ID[Card("G", 4)], ID[Card("B", 6)]]
    >>> final_outcome(2, cards, 0b011, [(1, 0)], [0b111])
    Outcome(Termination.MOST_POINTS, winner=1, scores=(0, 8))
    """
    points = [0] * num_players
    cards = [0] * num_players
    for stack, seats in zip(shields, tableau_masks, strict=True):
        if not stack:
            continue
        ranks = []
        shown = face_up & seats
        while shown:
            low = shown & -shown
            ranks.append(RANK[seat_cards[low.bit_length() - 1]])
            shown ^= low
        # the first shield placed takes the lowest rank, the next the next one up
        for owner, rank in zip(stack, sorted(set(ranks)), strict=False):
            count = ranks.count(rank)
            points[owner] += rank * count
            cards[owner] += count
    best = max(zip(points, cards, strict=True))
    winners = tuple(p for p in range(num_players) if (points[p], cards[p]) == best)
    scores = tuple(points)
    if len(winners) > 1:
        return Outcome(Termination.SHARED, None, scores, winners=winners)
    winner = winners[0]
    tied = points.count(points[winner]) > 1
    return Outcome(Termination.MOST_CARDS if tied else Termination.MOST_POINTS, winner, scores)


def score_board(players: int, board: Board, layout: Layout) -> ScoreSheet:
    """The score sheet of an integer board (see
    :class:`~referee.clans_and_glory.rules.Board`) as the table stands;
    ``State.score()``. A face-down card a view hides is left out."""
    scores = []
    cards, face_up, hidden = board.seat_cards, board.face_up, ~board.face_up & ~board.free
    for tableau, seats in enumerate(layout.tableau_masks):
        up = [CARDS[cards[s]] for s in ids_of(seats & face_up)]
        down = [CARDS[cards[s]] for s in ids_of(seats & hidden) if cards[s] >= 0]
        scores.append(score_tableau(tableau + 1, up, board.shields[tableau], down))
    return score_sheet(players, scores)
