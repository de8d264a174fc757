"""The rules of a Clans and Glory turn, in the order the rulebook gives them.

A turn (rulings 3 to 5):

1. the player to move places one card from its hand on a free seat;
2. face up, the card must share its colour or its rank with a face-up card
   beside the seat or opposite it;
3. only when no card in hand fits any free seat face up does a card go face
   down, on any free seat;
4. then the player may put one of its five shields on the stack of the
   tableau just played to;
5. the game ends when the player dealt the fewest cards (the last in turn
   order) has placed its last card.

Each rule is written once, here, on the integer :class:`Board`;
:meth:`State.play <referee.clans_and_glory.State.play>` checks a move with
:func:`refusal_of` and applies it with :meth:`Board.placed`, and
:func:`~referee.clans_and_glory.playout.playout` runs the same two on its own
loop. A refused move names the rule it breaks::

    >>> from referee.clans_and_glory import new_game
    >>> new_game(players=2, seed=7).play("G5@t1s1+down")
    Traceback (most recent call last):
    ...
    referee.errors.IllegalMoveError: illegal move 'G5@t1s1+down': player 1 does not hold G5

**The fit rule on integers.** Each seat index is a bit. A card's two traits are
its colour and its rank (:data:`~referee.clans_and_glory.cards.TRAITS`);
``Board.traits[t]`` is the mask of the seats touching a face-up card with trait
``t``. A card fits exactly the free seats in ``traits[colour] | traits[rank]``,
and placing a card face up on a seat adds the seats touching it
(``Layout.touch_masks``) to its two traits' masks.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from referee.clans_and_glory.cards import CARDS, TRAITS, ids_of
from referee.clans_and_glory.moves import Placement
from referee.clans_and_glory.scoring import final_outcome
from referee.game import LegalMoves, Outcome

if TYPE_CHECKING:
    from referee.clans_and_glory.layout import Layout

__all__ = [
    "FREE",
    "HIDDEN",
    "START",
    "Board",
    "LegalPlacements",
    "Reason",
    "action_ids",
    "nth_placement",
    "refusal_of",
]

#: ``Board.seat_cards``: a free seat.
FREE = -1
#: ``Board.seat_cards``: a face-down card whose face the view hides.
HIDDEN = -2
#: ``Board.seat_placers``: a start card (or a free seat), placed by no player.
START = -1


class Reason(StrEnum):
    """The stable reason codes of refused Clans and Glory moves."""

    MALFORMED_MOVE = "malformed_move"
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_TAKEN = "seat_taken"
    NO_MATCH = "no_match"
    FACE_DOWN_WITH_FIT = "face_down_with_fit"
    NO_SHIELDS_LEFT = "no_shields_left"


#: Per card in hand (lowest id first): the card's id and the mask of the seats
#: it may go on.
Options = list[tuple[int, int]]


class Board(NamedTuple):
    """The table, the hands and the shields as small integers: what the rules read.

    Seats are indices into ``layout.seats``; cards are ids
    (:mod:`referee.clans_and_glory.cards`). ``seat_cards`` holds a card id per
    seat, :data:`FREE` or :data:`HIDDEN`; ``seat_placers`` who placed it
    (:data:`START` for a start card); ``free`` and ``face_up`` are seat masks;
    ``traits`` has one seat mask per trait (see the module); ``hands`` one tuple
    of ids per player (lowest first; ``None`` when a view hides it);
    ``shields`` one stack of owners per tableau, the first placed first;
    ``supply`` the shields each player has left.
    """

    seat_cards: tuple[int, ...]
    seat_placers: tuple[int, ...]
    free: int
    face_up: int
    traits: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    shields: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    to_move: int

    def options(self) -> tuple[Options, bool, int]:
        """The legal placements of the player to move (rules 1 to 3): per card in
        hand, the free seats it fits face up; when no card fits anywhere, every
        free seat for every card, and ``True`` (they go face down); and how many
        (card, seat) pairs that makes. Nothing for a hand the view hides."""
        hand = self.hands[self.to_move]
        if hand is None:
            return [], False, 0
        traits, free = self.traits, self.free
        options = []
        pairs = 0
        for card in hand:
            colour, rank = TRAITS[card]
            seats = (traits[colour] | traits[rank]) & free
            if seats:
                options.append((card, seats))
                pairs += seats.bit_count()
        if options or not free:
            return options, False, pairs
        return [(card, free) for card in hand], True, len(hand) * free.bit_count()

    def fits(self, card: int, seat: int) -> bool:
        """Rule 2: whether ``card`` shares its colour or rank with a face-up card
        touching ``seat`` (so may go face up there, if the seat is free)."""
        colour, rank = TRAITS[card]
        return bool((self.traits[colour] | self.traits[rank]) >> seat & 1)

    def first_fit(self) -> tuple[int, int] | None:
        """Rule 3's test: the first card in hand and seat it fits, if any."""
        options, down, _pairs = self.options()
        if down or not options:
            return None
        card, seats = options[0]
        return card, (seats & -seats).bit_length() - 1

    def placed(self, layout: Layout, card: int, seat: int, face_down: bool, shield: bool) -> Board:
        """The board after the player to move places ``card`` on ``seat`` (and a
        shield on that seat's tableau), the move already checked: the card leaves
        the hand and lies on the seat; face up, it lends its colour and rank to
        the seats touching it; the turn passes to the next player."""
        cards, placers, free, face_up, traits, hands, sizes, shields, supply, mover = self
        bit = 1 << seat
        on_seats, by = list(cards), list(placers)
        on_seats[seat] = card
        by[seat] = mover
        if not face_down:
            face_up |= bit
            colour, rank = TRAITS[card]
            touching = layout.touch_masks[seat]
            shown = list(traits)
            shown[colour] |= touching
            shown[rank] |= touching
            traits = tuple(shown)
        hand = hands[mover]
        if hand is not None:
            at = hand.index(card)
            hand = (*hand[:at], *hand[at + 1 :])
        hands = (*hands[:mover], hand, *hands[mover + 1 :])
        sizes = (*sizes[:mover], sizes[mover] - 1, *sizes[mover + 1 :])
        if shield:
            tableau = layout.seat_tableaus[seat]
            shields = (*shields[:tableau], (*shields[tableau], mover), *shields[tableau + 1 :])
            supply = (*supply[:mover], supply[mover] - 1, *supply[mover + 1 :])
        after = mover + 1
        return Board(
            tuple(on_seats),
            tuple(by),
            free ^ bit,
            face_up,
            traits,
            hands,
            sizes,
            shields,
            supply,
            after if after < len(sizes) else 0,
        )

    def seen_by(self, player: int | None) -> Board:
        """The board as ``player`` sees it (``None``: a spectator): the other
        hands ``None``, the others' face-down cards :data:`HIDDEN`."""
        cards = self.seat_cards
        for seat, (card, placer) in enumerate(zip(cards, self.seat_placers, strict=True)):
            if card >= 0 and placer != player and not self.face_up >> seat & 1:
                cards = (*cards[:seat], HIDDEN, *cards[seat + 1 :])
        hands = tuple(hand if p == player else None for p, hand in enumerate(self.hands))
        return self._replace(seat_cards=cards, hands=hands)

    def is_over(self) -> bool:
        """Rule 5: whether the last player in turn order has placed its last card."""
        return not self.hand_sizes[-1]

    def scored(self, layout: Layout) -> Outcome:
        """Rule 5's scoring of this table (see :func:`~referee.clans_and_glory.scoring.final_outcome`)."""
        return final_outcome(
            len(self.hand_sizes), self.seat_cards, self.face_up, self.shields, layout.tableau_masks
        )


def refusal_of(
    board: Board,
    layout: Layout,
    over: bool,
    card: int,
    seat: int,
    face_down: bool,
    shield: bool,
    player: int | None = None,
    named: object = None,
) -> tuple[Reason, str] | None:
    """Why placing ``card`` on ``seat`` is refused, as ``(reason, why)``, or
    ``None`` when the rules allow it; checked in the rulebook's order.
    ``seat`` is ``-1`` for a seat not on this table (``named``: the seat the
    move names); ``player``, when given, is who tries to move; ``over`` whether
    the game has ended."""
    mover = board.to_move
    if over:
        return Reason.GAME_OVER, "the game is over"
    if player is not None and player != mover:
        return Reason.NOT_YOUR_TURN, f"it is player {mover + 1}'s turn, not player {player + 1}'s"
    hand = board.hands[mover]
    if hand is None:
        why = f"player {mover + 1}'s hand is hidden in this view"
        return Reason.CARD_NOT_IN_HAND, why
    if card not in hand:
        return Reason.CARD_NOT_IN_HAND, f"player {mover + 1} does not hold {CARDS[card]}"
    if seat < 0:
        return Reason.NO_SUCH_SEAT, f"there is no seat {named} on this table"
    where = layout.seats[seat]
    if not board.free >> seat & 1:
        return Reason.SEAT_TAKEN, f"seat {where} is taken"
    if not face_down:
        if not board.fits(card, seat):
            why = (
                f"{CARDS[card]} shares neither colour nor rank with a face-up card "
                f"beside or opposite {where}"
            )
            return Reason.NO_MATCH, why
    else:
        fit = board.first_fit()
        if fit is not None:
            why = (
                f"a card goes face down only when none fits face up, but {CARDS[fit[0]]} "
                f"fits {layout.seats[fit[1]]}"
            )
            return Reason.FACE_DOWN_WITH_FIT, why
    if shield and not board.supply[mover]:
        return Reason.NO_SHIELDS_LEFT, f"player {mover + 1} has no shields left"
    return None


# -- legal moves as action ids and as moves -------------------------------------------


def nth_placement(options: Options, shields: bool, index: int) -> tuple[int, int, bool]:
    """The ``index``-th legal placement (from 0), as ``(card, seat, shield)``:
    placements run card by card (lowest id first), then seat by seat (layout
    order), each without then with a shield when ``shields`` are left — the
    order of their action ids, and of ``legal_moves()``."""
    pair, option = divmod(index, 2) if shields else (index, 0)
    for card, seats in options:
        count = seats.bit_count()
        if pair < count:
            for _ in range(pair):
                seats &= seats - 1
            return card, (seats & -seats).bit_length() - 1, option == 1
        pair -= count
    raise IndexError(f"no legal placement {index}")


def action_ids(options: Options, face_down: bool, shields: bool, seats: int) -> list[int]:
    """The legal action ids, ascending (see :mod:`referee.clans_and_glory.actions`:
    ``(card * seats + seat) * 4 + option``)."""
    first = 2 if face_down else 0
    chosen = (first, first + 1) if shields else (first,)
    ids: list[int] = []
    for card, free in options:
        base = card * seats
        while free:
            low = free & -free
            at = (base + low.bit_length() - 1) * 4
            ids.extend(at + option for option in chosen)
            free ^= low
    return ids


class LegalPlacements(LegalMoves[Placement]):
    """The legal moves of a position, made only as asked for: ``len``, truth and
    indexing (so ``random.choice``) read the integer options and build one
    :class:`Placement` per index asked; iterating, ``in`` and equality build
    the whole list. Order: card by card, seat by seat, without then with a
    shield (the order of the action ids)."""

    __slots__ = ("_count", "_down", "_layout", "_options", "_shields")

    def __init__(self, board: Board, layout: Layout, over: bool) -> None:
        super().__init__(self._every)
        options, down, pairs = ([], False, 0) if over else board.options()
        self._options = options
        self._down = down
        self._shields = bool(board.supply[board.to_move])
        self._layout = layout
        self._count = pairs * 2 if self._shields else pairs

    def _every(self) -> list[Placement]:
        seats, down = self._layout.seats, self._down
        shields = (False, True) if self._shields else (False,)
        moves = []
        for card, free in self._options:
            for seat in ids_of(free):
                moves += [Placement._of(CARDS[card], seats[seat], down, s) for s in shields]
        return moves

    def _made(self, index: int) -> Placement:
        card, seat, shield = nth_placement(self._options, self._shields, index)
        return Placement._of(CARDS[card], self._layout.seats[seat], self._down, shield)

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def count(self, value: object = ...) -> int:
        """How many legal moves (with an argument: how often ``value`` occurs, 0 or 1)."""
        if value is ...:
            return self._count
        return super().count(value)

    def __getitem__(self, index: int | slice) -> Placement | Sequence[Placement]:  # type: ignore[override]
        if isinstance(index, slice) or self._moves is not None:
            return self._list()[index]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("legal move index out of range")
        return self._made(index)
