"""The Clans and Glory game state: set-up, legal moves, playing, the end and views.

A game is an immutable :class:`State`; :meth:`State.play` returns the next one::

    >>> game = new_game(2, seed=7)
    >>> game.to_move, [len(h) for h in game.hands], game.shields_left(0)
    (0, [9, 8], 5)
    >>> move = game.legal_moves()[0]
    >>> after = game.play(str(move))
    >>> after.to_move, len(after.hands[0]), after.seat_card(move.seat).card == move.card
    (1, 8, True)

A refused move raises and changes nothing:

    >>> game.play("G5@t9s1")
    Traceback (most recent call last):
    ...
    referee.errors.IllegalMoveError: illegal move 'G5@t9s1': player 1 does not hold G5
    >>> game == new_game(2, seed=7)
    True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from referee.cards import Card, InvalidCardError
from referee.clans_and_glory.layout import Layout, Seat, default_layout
from referee.clans_and_glory.moves import Placement, parse_move
from referee.clans_and_glory.scoring import ScoreSheet, score_sheet, score_tableau
from referee.clans_and_glory.setup import (
    CLAN_CARDS,
    SHIELDS_PER_PLAYER,
    InvalidDealError,
    Setup,
    setup_for,
)
from referee.errors import IllegalMoveError, InvalidMoveError, RefereeError
from referee.game import LegalMoves, Outcome, Termination, check_player, referee_end

if TYPE_CHECKING:
    from referee.records import Record

__all__ = [
    "HiddenCard",
    "InvalidStateError",
    "Placed",
    "Reason",
    "State",
    "View",
    "new_game",
    "random_playout",
    "state_from_deal",
]

#: The ``game`` field of a deal's JSON description.
_GAME_NAME = "clans_and_glory"
_DEAL_FIELDS = frozenset({"game", "players", "deck", "layout"})


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


@dataclass(frozen=True, slots=True)
class Placed:
    """A card on a seat: who placed it (``None`` for a start card) and which way up.

    >>> Placed(Card("G", 9))
    Traceback (most recent call last):
    ...
    referee.clans_and_glory.state.InvalidStateError: a placed card must be one of the 42 Clans and Glory cards, not Card('G', 9)
    """

    card: Card
    player: int | None = None
    face_up: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card) or self.card not in CLAN_CARDS:
            raise InvalidStateError(
                f"a placed card must be one of the 42 Clans and Glory cards, not {self.card!r}"
            )
        if self.player is not None and not (_is_int(self.player) and 0 <= self.player < 4):
            raise InvalidStateError(
                f"who placed a card is a player index 0-3 (None for a start card), "
                f"not {self.player!r}"
            )
        if not isinstance(self.face_up, bool):
            raise InvalidStateError(f"face_up must be True or False, not {self.face_up!r}")


class InvalidStateError(RefereeError):
    """A Clans and Glory state that cannot exist (reason ``invalid_state``).

    The message lists every problem found, not just the first.
    """

    def __init__(self, message: str) -> None:
        super().__init__("invalid_state", message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class HiddenCard:
    """In a :class:`View`: a face-down card another player placed (its face unknown)."""

    player: int | None


def _fits(
    layout: Layout, face_up_at: Callable[[Seat], Card | None], card: Card, seat: Seat
) -> bool:
    """Whether ``card`` shares colour or rank with a face-up card touching ``seat``."""
    for other in layout.touching(seat):
        shown = face_up_at(other)
        if shown is not None and (shown.colour == card.colour or shown.value == card.value):
            return True
    return False


# -- the hot path of playouts ------------------------------------------------------------
#
# Moves and placed cards are immutable values, so each one is built (and checked)
# once and shared; a layout's "touching" relation is kept as seat indices. The
# memos are keyed by immutable values and bounded; states carry nothing of them.

_MEMO_LIMIT = 1 << 14
#: (card, seat) -> its placements: face up, + shield, face down, face down + shield
_PLACEMENTS: dict[tuple[Card, Seat], tuple[Placement, Placement, Placement, Placement]] = {}
#: (card, player, face up) -> the placed card
_PLACED: dict[tuple[Card, int | None, bool], Placed] = {}
#: the last layout seen and, per seat index, the indices of the seats it touches
#: (one tuple, read and replaced whole)
_TOUCHING: list[tuple[Layout | None, tuple[tuple[int, ...], ...]]] = [(None, ())]


#: players -> the default layout (a layout is immutable: one serves every game)
_DEFAULT_LAYOUTS: dict[int, Layout] = {}


def _default_layout(players: int) -> Layout:
    found = _DEFAULT_LAYOUTS.get(players)
    if found is None:
        found = _DEFAULT_LAYOUTS[players] = default_layout(players)
    return found


def _placements_of(card: Card, seat: Seat) -> tuple[Placement, Placement, Placement, Placement]:
    found = _PLACEMENTS.get((card, seat))
    if found is None:
        found = (
            Placement(card, seat),
            Placement(card, seat, shield=True),
            Placement(card, seat, face_down=True),
            Placement(card, seat, face_down=True, shield=True),
        )
        if len(_PLACEMENTS) >= _MEMO_LIMIT:
            _PLACEMENTS.clear()
        _PLACEMENTS[card, seat] = found
    return found


def _placed(card: Card, player: int | None, face_up: bool) -> Placed:
    found = _PLACED.get((card, player, face_up))
    if found is None:
        found = Placed(card, player, face_up)
        if len(_PLACED) >= _MEMO_LIMIT:
            _PLACED.clear()
        _PLACED[card, player, face_up] = found
    return found


def _touching(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """Per seat index of ``layout``, the indices of the seats touching it."""
    last = _TOUCHING[0]
    if last[0] is not layout:
        index = layout.index
        touching = tuple(
            tuple(index(other) for other in layout.touching(seat)) for seat in layout.seats
        )
        last = _TOUCHING[0] = (layout, touching)
    return last[1]


def _fitting(
    layout: Layout, table: Sequence[Placed | HiddenCard | None]
) -> list[tuple[Seat, set[str], set[int]]]:
    """Per free seat, in layout order: the colours and values of the face-up cards
    touching it (a card fits face up there when it shares one of them)."""
    touching = _touching(layout)
    seats = layout.seats
    free = []
    for i, placed in enumerate(table):
        if placed is None:
            colours: set[str] = set()
            values: set[int] = set()
            for j in touching[i]:
                other = table[j]
                if type(other) is Placed and other.face_up:
                    colours.add(other.card.colour)
                    values.add(other.card.value)
            free.append((seats[i], colours, values))
    return free


def _fast_placements(
    layout: Layout,
    table: Sequence[Placed | HiddenCard | None],
    hand: Sequence[Card],
    shields_left: int,
) -> list[Placement]:
    """Every legal placement for a hand: face up where it fits, else face down
    anywhere; each with and without a shield while shields are left. In hand
    order, then layout order."""
    free = _fitting(layout, table)
    options = [
        (card, seat)
        for card in hand
        for seat, colours, values in free
        if card.colour in colours or card.value in values
    ]
    at = 0
    if not options:
        options = [(card, seat) for card in hand for seat, _, _ in free]
        at = 2
    made = _PLACEMENTS.get
    if shields_left > 0:
        return [
            move
            for card, seat in options
            for move in (made((card, seat)) or _placements_of(card, seat))[at : at + 2]
        ]
    return [(made((card, seat)) or _placements_of(card, seat))[at] for card, seat in options]


def _illegal(move: Placement, reason: str, why: str) -> IllegalMoveError:
    return IllegalMoveError(reason, f"illegal move {str(move)!r}: {why}")


@dataclass(frozen=True)
class State:
    """A Clans and Glory position with everything known (the referee's view).

    ``table`` has one entry per seat of ``layout.seats`` (``None`` when free);
    ``hands`` are in card-set order; ``shields`` holds one stack per tableau,
    the first shield placed first; ``removed`` are the cards taken out face down
    at set-up; ``deal`` is the deck order the game was dealt from; ``moves``
    are the moves played so far.
    """

    players: int
    layout: Layout
    deal: tuple[Card, ...]
    removed: tuple[Card, ...]
    table: tuple[Placed | None, ...]
    hands: tuple[tuple[Card, ...], ...]
    shields: tuple[tuple[int, ...], ...]
    to_move: int = 0
    moves: tuple[Placement, ...] = ()
    #: A referee's end of the game (resignation, timeout, forfeit, ply limit), if any.
    ended: Outcome | None = None

    def __post_init__(self) -> None:
        # A state must be well formed: checked once here, every problem at once.
        # (States made by play() skip this: a legal move keeps a state well formed.)
        _check_structure(self)

    @classmethod
    def _trusted(cls, **fields: Any) -> State:
        """A state built by the library itself from a well-formed one (no checks)."""
        state = object.__new__(cls)
        for name, value in fields.items():
            object.__setattr__(state, name, value)
        return state

    # -- facts ------------------------------------------------------------------------

    @property
    def setup(self) -> Setup:
        """The set-up rules for this player count."""
        return setup_for(self.players)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each player holds."""
        return tuple(len(hand) for hand in self.hands)

    def seat_card(self, seat: Seat) -> Placed | None:
        """What lies on ``seat`` (``None`` when it is free); a ``ValueError`` for no such seat.

        >>> new_game(2, seed=1).seat_card(Seat(5, 1))
        Traceback (most recent call last):
        ...
        ValueError: no seat Seat(5, 1) on this table (tableaus 1-4)
        """
        return self.table[self.layout.index(seat)]

    def _face_up_at(self, seat: Seat) -> Card | None:
        placed = self.table[self.layout.index(seat)]
        return placed.card if placed is not None and placed.face_up else None

    def free_seats(self) -> tuple[Seat, ...]:
        """The free seats, in layout order."""
        return tuple(s for s, p in zip(self.layout.seats, self.table, strict=True) if p is None)

    def shield_stack(self, tableau: int) -> tuple[int, ...]:
        """The owners of the shields on ``tableau``, the first placed first.

        Tableaus are numbered from 1; any other number is a ``ValueError``:

        >>> new_game(2, seed=1).shield_stack(0)
        Traceback (most recent call last):
        ...
        ValueError: no tableau 0 on this table (tableaus 1-4)
        """
        return self.shields[self.layout.check_tableau(tableau) - 1]

    def shields_left(self, player: int) -> int:
        """How many shields ``player`` still has in supply (of 5).

        >>> new_game(3, seed=1).shields_left(3)
        Traceback (most recent call last):
        ...
        ValueError: no player 3 in a 3-player game (players are 0-2)
        """
        _check_player(player, self.players)
        return SHIELDS_PER_PLAYER - sum(stack.count(player) for stack in self.shields)

    def fits(self, card: Card, seat: Seat) -> bool:
        """Whether ``card`` may go face up on ``seat`` (colour or rank of a touching card).

        >>> game = new_game(3, deck=setup_for(3).deck())
        >>> str(game.seat_card(Seat(1, 2)).card), game.fits(Card("R", 7), Seat(1, 1))
        ('R7', True)
        >>> game.fits(Card("O", 5), Seat(1, 1)), game.fits(Card("O", 7), Seat(1, 5))
        (False, True)
        """
        return _fits(self.layout, self._face_up_at, card, seat)

    # -- well-formedness --------------------------------------------------------------

    def status(self) -> tuple[str, ...]:
        """Why no game can reach this state, every reason at once (empty when
        none), like python-chess's ``Board.status()``.

        The constructor already refuses what cannot exist at all (duplicate cards,
        a wrong number of tableaus, seven shields of one player); this checks a
        well-formed state against a game's history: the cards in play for the
        player count, the start cards on the start seats, hand sizes against the
        cards each player placed, whose turn it is, a shield only where its owner
        placed a card and in an order the turns allow, every face-up card a player
        placed matching a card placed before it beside or opposite, every
        face-down card placed when no card in its player's hand fitted, and the
        removed cards. Loading a position refuses it when this is not empty.

        >>> new_game(2, seed=1).status()
        ()
        >>> game = new_game(2, seed=1)
        >>> bad = State(2, game.layout, game.deal, game.removed, game.table, game.hands,
        ...             ((0,), (), (), ()), to_move=1)
        >>> for problem in bad.status():
        ...     print(problem)
        player 2 is to move, but 0 cards have been placed, so player 1 is
        player 1 has a shield on tableau 1 but placed only 0 cards there
        """
        return tuple(_history_problems(self))

    def is_valid(self) -> bool:
        """Whether :meth:`status` finds nothing."""
        return not self.status()

    # -- the end ---------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: the player who started with fewest cards
        has placed its last one, or a referee ended it (same as :meth:`is_game_over`)."""
        # The last player (setup.last_player) holds fewest cards.
        return self.ended is not None or not self.hands[self.players - 1]

    def is_game_over(self) -> bool:
        """Whether the game has ended (the protocol's name for :attr:`is_over`)."""
        return self.is_over

    @property
    def num_players(self) -> int:
        """How many players sit at the table (the same as :attr:`players`)."""
        return self.players

    @property
    def history(self) -> tuple[Placement, ...]:
        """The moves played since the start (the same as :attr:`moves`)."""
        return self.moves

    def resign(self, player: int) -> State:
        """The game ended by ``player``'s resignation: with two players the other
        wins, with more nobody does.

        >>> new_game(players=2, seed=1).resign(1).outcome.result()
        'player 1 wins (resignation)'
        """
        return self.end(Termination.RESIGNATION, loser=player)

    def end(self, termination: Termination, *, loser: int | None = None) -> State:
        """The game ended by a referee: ``resignation``, ``timeout`` or ``forfeit``
        of ``loser``, or ``ply_limit`` (no winner)."""
        if self.is_over:
            raise IllegalMoveError(
                Reason.GAME_OVER, f"cannot end with {termination}: the game is over"
            )
        outcome = referee_end(termination, loser, self.players)
        return State._trusted(**{**self._fields(), "ended": outcome})

    def _fields(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def to_record(self) -> Record:
        """The game so far as a full record (the deal is always known).

        >>> from referee.records import validate
        >>> record = new_game(players=3, seed=2).resign(2).to_record()
        >>> record.result, validate(record).legal
        ({'winner': None, 'reason': 'resignation', 'loser': 2}, True)
        """
        from referee.clans_and_glory.record import FORMAT

        return FORMAT.record_of(self)

    def score(self) -> ScoreSheet:
        """The score sheet of the table as it stands (final once the game is over).

        Face-down cards are taken away first and score nothing.
        """
        scores = []
        for tableau in range(1, self.layout.tableaus + 1):
            up: list[Card] = []
            down: list[Card] = []
            for seat in self.layout.seats_of(tableau):
                placed = self.seat_card(seat)
                if placed is not None:
                    (up if placed.face_up else down).append(placed.card)
            scores.append(score_tableau(tableau, up, self.shield_stack(tableau), down))
        return score_sheet(self.players, scores)

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""
        if self.ended is not None:
            return self.ended
        return self.score().outcome() if self.is_over else None

    # -- moves -----------------------------------------------------------------------

    def parse_move(self, text: str) -> Placement:
        """Read a move in Clans and Glory notation (see :mod:`.moves`)."""
        return parse_move(text)

    def legal_moves(self) -> LegalMoves[Placement]:
        """Every legal move of the player to move, as a lazy view (empty once the
        game is over; see :class:`~referee.game.LegalMoves`).

        >>> game = new_game(4, seed=1)
        >>> moves = game.legal_moves()
        >>> all(game.is_legal(m) for m in moves), any(m.shield for m in moves)
        (True, True)
        """
        return LegalMoves(self.generate_legal_moves)

    def generate_legal_moves(self) -> list[Placement]:
        """Every legal move of the player to move, as a new list."""
        if self.is_over:
            return []
        mover = self.to_move
        left = SHIELDS_PER_PLAYER - sum(stack.count(mover) for stack in self.shields)
        return _fast_placements(self.layout, self.table, self.hands[mover], left)

    def refusal(
        self, move: Placement | str, *, player: int | None = None
    ) -> IllegalMoveError | None:
        """Why ``move`` is refused (an error to raise), or ``None`` if it is legal.

        ``player``, when given, is who is trying to move.
        """
        move = self._as_move(move)
        mover = self.to_move
        if self.is_over:
            return _illegal(move, Reason.GAME_OVER, "the game is over")
        if player is not None and check_player(player, self.players) != mover:
            return _illegal(
                move,
                Reason.NOT_YOUR_TURN,
                f"it is player {mover + 1}'s turn, not player {player + 1}'s",
            )
        if move.card not in self.hands[mover]:
            return _illegal(
                move, Reason.CARD_NOT_IN_HAND, f"player {mover + 1} does not hold {move.card}"
            )
        if move.seat not in self.layout:
            return _illegal(
                move, Reason.NO_SUCH_SEAT, f"there is no seat {move.seat} on this table"
            )
        placed = self.seat_card(move.seat)
        if placed is not None:
            return _illegal(move, Reason.SEAT_TAKEN, f"seat {move.seat} is taken")
        if not move.face_down and not self.fits(move.card, move.seat):
            return _illegal(
                move,
                Reason.NO_MATCH,
                f"{move.card} shares neither colour nor rank with a face-up card "
                f"beside or opposite {move.seat}",
            )
        if move.face_down:
            fit = self._first_fit()
            if fit is not None:
                return _illegal(
                    move,
                    Reason.FACE_DOWN_WITH_FIT,
                    f"a card goes face down only when none fits face up, but {fit[0]} fits {fit[1]}",
                )
        if move.shield and self.shields_left(mover) == 0:
            return _illegal(move, Reason.NO_SHIELDS_LEFT, f"player {mover + 1} has no shields left")
        return None

    def _first_fit(self) -> tuple[Card, Seat] | None:
        free = self.free_seats()
        for card in self.hands[self.to_move]:
            for seat in free:
                if self.fits(card, seat):
                    return card, seat
        return None

    def is_legal(self, move: Placement | str, *, player: int | None = None) -> bool:
        """Whether ``move`` may be played now; ``False`` for anything that is not a
        move (malformed text included), as in every game."""
        try:
            return self.refusal(move, player=player) is None
        except InvalidMoveError:
            return False

    def play(self, move: Placement | str, *, player: int | None = None) -> State:
        """The state after ``move``; raises ``IllegalMoveError`` (with a reason) if refused.

        ``player``, when given, is who is trying to move (refused if not their turn).
        """
        move = self._as_move(move)
        error = self.refusal(move, player=player)
        if error is not None:
            raise error
        mover = self.to_move
        index = self.layout.index(move.seat)
        hands = list(self.hands)
        hands[mover] = tuple(c for c in hands[mover] if c != move.card)
        shields = list(self.shields)
        if move.shield:
            shields[move.tableau - 1] = (*shields[move.tableau - 1], mover)
        table = list(self.table)
        table[index] = _placed(move.card, mover, not move.face_down)
        return State._trusted(
            players=self.players,
            layout=self.layout,
            deal=self.deal,
            removed=self.removed,
            table=tuple(table),
            hands=tuple(hands),
            shields=tuple(shields),
            to_move=(mover + 1) % self.players,
            moves=(*self.moves, move),
        )

    def _play_untracked(self, move: Placement | str) -> State:
        """:meth:`play`, named as in the other games (validation calls it)."""
        return self.play(move)

    def _as_move(self, move: Placement | str) -> Placement:
        if isinstance(move, str):
            return parse_move(move)
        if not isinstance(move, Placement):
            raise InvalidMoveError(f"malformed move {move!r}: expected a Placement or its text")
        return move

    # -- records and views -----------------------------------------------------------

    def deal_to_json(self) -> dict[str, object]:
        """The deal as JSON-ready data: player count and deck order (and a custom layout).

        The deck lists the cards in play top first: the cards removed at random,
        then the start cards (in start-seat order), then each player's hand in
        turn order. :func:`state_from_deal` reads it back.

        >>> game = new_game(2, seed=3)
        >>> data = game.deal_to_json()
        >>> sorted(data), len(data["deck"])
        (['deck', 'game', 'players'], 28)
        >>> state_from_deal(2, data) == game
        True
        """
        data: dict[str, object] = {
            "game": _GAME_NAME,
            "players": self.players,
            "deck": [str(c) for c in self.deal],
        }
        if self.layout != default_layout(self.players):
            data["layout"] = self.layout.to_json()
        return data

    def view(self, player: int | None) -> View:
        """What ``player`` may see: other hands as counts, others' face-down cards hidden.

        ``None`` is a spectator's view: every hand and face-down card hidden.

        >>> view = new_game(3, seed=2).view(1)
        >>> view.hand_sizes, len(view.hand), view.viewer
        ((9, 9, 8), 9, 1)
        >>> new_game(3, seed=2).view(None).hand
        ()
        """
        if player is not None:
            _check_player(player, self.players)
        table: list[Placed | HiddenCard | None] = []
        for placed in self.table:
            if placed is not None and not placed.face_up and placed.player != player:
                table.append(HiddenCard(placed.player))
            else:
                table.append(placed)
        return View(
            viewer=player,
            players=self.players,
            layout=self.layout,
            table=tuple(table),
            hand=() if player is None else self.hands[player],
            hand_sizes=self.hand_sizes,
            shields=self.shields,
            to_move=self.to_move,
            outcome=self.outcome,
        )

    def __str__(self) -> str:
        return _render(
            self.players,
            self.layout,
            self.table,
            self.shields,
            [" ".join(map(str, h)) or "empty" for h in self.hands],
            self.to_move,
            self.outcome,
            self.hand_sizes,
        )

    def _repr_svg_(self) -> str:
        """The picture of the position, for Jupyter (see :mod:`referee.svg`)."""
        from referee.svg import render_svg

        return render_svg(self)


@dataclass(frozen=True)
class View:
    """One player's view of a position: other hands as counts, their face-down cards hidden.

    ``table`` holds :class:`HiddenCard` where another player's face-down card lies.
    """

    viewer: int | None
    players: int
    layout: Layout
    table: tuple[Placed | HiddenCard | None, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    shields: tuple[tuple[int, ...], ...]
    to_move: int
    outcome: Outcome | None

    def _face_up_at(self, seat: Seat) -> Card | None:
        placed = self.table[self.layout.index(seat)]
        return placed.card if isinstance(placed, Placed) and placed.face_up else None

    @property
    def num_players(self) -> int:
        """How many players the game has (the game protocol's name for ``players``)."""
        return self.players

    def is_game_over(self) -> bool:
        """Whether the game has ended, as the viewed state's :meth:`State.is_game_over`.

        >>> game = new_game(2, seed=5)
        >>> game.view(0).is_game_over(), game.resign(1).view(0).is_game_over()
        (False, True)
        """
        return self.outcome is not None

    def legal_moves(self) -> LegalMoves[Placement]:
        """The viewer's legal moves when it is the viewer's turn (else empty).

        >>> game = new_game(2, seed=5)
        >>> game.view(0).legal_moves() == game.legal_moves(), list(game.view(1).legal_moves())
        (True, [])
        """
        return LegalMoves(self._legal_moves)

    def _legal_moves(self) -> list[Placement]:
        if self.outcome is not None or self.to_move != self.viewer:
            return []
        left = SHIELDS_PER_PLAYER - sum(stack.count(self.viewer) for stack in self.shields)
        return _fast_placements(self.layout, self.table, self.hand, left)

    def __str__(self) -> str:
        hands = [
            " ".join(map(str, self.hand)) or "empty" if p == self.viewer else "hidden"
            for p in range(self.players)
        ]
        text = _render(
            self.players,
            self.layout,
            self.table,
            self.shields,
            hands,
            self.to_move,
            self.outcome,
            self.hand_sizes,
        )
        who = "a spectator" if self.viewer is None else f"player {self.viewer + 1}"
        return f"{text}\nseen by {who}"

    def _repr_svg_(self) -> str:
        """The picture of the position, for Jupyter (see :mod:`referee.svg`)."""
        from referee.svg import render_svg

        return render_svg(self)


# -- well-formedness -------------------------------------------------------------------


def _check_player(player: object, players: int) -> None:
    if not _is_int(player) or not 0 <= player < players:  # type: ignore[operator]
        raise ValueError(
            f"no player {player!r} in a {players}-player game (players are 0-{players - 1})"
        )


def _is_clan_card(value: object) -> bool:
    return isinstance(value, Card) and value in CLAN_CARDS


def _as_tuple(state: State, name: str, value: object) -> tuple[Any, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise InvalidStateError(
            f"invalid Clans and Glory state: {name} must be a tuple, not {type(value).__name__}"
        )
    return tuple(value)


def _check_structure(state: State) -> None:
    """Refuse a state that cannot exist at all, naming every problem."""
    if not _is_int(state.players) or state.players not in (2, 3, 4):
        raise InvalidStateError(f"Clans and Glory is for 2 to 4 players, not {state.players!r}")
    setup = setup_for(state.players)
    layout = state.layout
    if not isinstance(layout, Layout):
        raise InvalidStateError(
            f"invalid Clans and Glory state: the layout must be a Layout, not {layout!r}"
        )
    # Plain sequences become tuples, so the state is immutable all the way down.
    for name in ("deal", "removed", "table", "hands", "shields", "moves"):
        object.__setattr__(state, name, _as_tuple(state, name, getattr(state, name)))
    object.__setattr__(state, "hands", tuple(_as_tuple(state, "a hand", h) for h in state.hands))
    object.__setattr__(
        state, "shields", tuple(_as_tuple(state, "a shield stack", s) for s in state.shields)
    )
    players = state.players
    problems: list[str] = []
    if layout.tableaus != setup.tableaus:
        problems.append(
            f"{players} players play on {setup.tableaus} tableaus, not {layout.tableaus}"
        )
    if len(state.table) != len(layout.seats):
        problems.append(f"the table has {len(state.table)} entries for {len(layout.seats)} seats")
    for seat, placed in zip(layout.seats, state.table, strict=False):
        if placed is not None and not isinstance(placed, Placed):
            problems.append(f"seat {seat} holds {placed!r}, not a Placed card or None")
        elif placed is not None and placed.player is not None and placed.player >= players:
            problems.append(f"seat {seat}: no player {placed.player} placed it")
    if len(state.hands) != players:
        problems.append(f"{len(state.hands)} hands for {players} players")
    for player, hand in enumerate(state.hands):
        foreign = [c for c in hand if not _is_clan_card(c)]
        if foreign:
            problems.append(
                f"player {player + 1}'s hand holds {foreign[0]!r}, not a Clans and Glory card"
            )
    for name in ("removed", "deal"):
        foreign = [c for c in getattr(state, name) if not _is_clan_card(c)]
        if foreign:
            problems.append(f"{name} holds {foreign[0]!r}, not a Clans and Glory card")
    if len(state.shields) != layout.tableaus:
        problems.append(
            f"{len(state.shields)} shield stacks for {layout.tableaus} tableaus (one per tableau)"
        )
    owners = [p for stack in state.shields for p in stack]
    strangers = [p for p in owners if not _is_int(p) or not 0 <= p < players]
    if strangers:
        problems.append(f"a shield belongs to {strangers[0]!r}, not a player 0-{players - 1}")
    for player in range(players):
        if owners.count(player) > SHIELDS_PER_PLAYER:
            problems.append(
                f"player {player + 1} has {owners.count(player)} shields out, "
                f"but only {SHIELDS_PER_PLAYER}"
            )
    if not _is_int(state.to_move) or not 0 <= state.to_move < players:
        problems.append(f"to_move must be a player 0-{players - 1}, not {state.to_move!r}")
    if not all(isinstance(m, Placement) for m in state.moves):
        problems.append("moves must be Placements")
    seen: Counter[Card] = Counter(
        [p.card for p in state.table if isinstance(p, Placed)]
        + [c for hand in state.hands for c in hand if _is_clan_card(c)]
        + [c for c in state.removed if _is_clan_card(c)]
    )
    repeated = sorted(c for c, n in seen.items() if n > 1)
    if repeated:
        problems.append(
            "a card lies in two places (table, hands, removed): " + " ".join(map(str, repeated))
        )
    if problems:
        raise InvalidStateError("invalid Clans and Glory state: " + "; ".join(problems))


def _count(number: int, noun: str = "card") -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _history_problems(state: State) -> Iterable[str]:
    """Every way a well-formed state disagrees with any game's history."""
    setup = state.setup
    layout = state.layout
    players = state.players
    table = list(zip(layout.seats, state.table, strict=True))
    on_table = [(seat, p) for seat, p in table if p is not None]
    # the cards in play
    out = sorted(
        {p.card for _, p in on_table}.union(*state.hands, state.removed) - set(setup.deck())
    )
    if out:
        yield f"not in play with {players} players: " + " ".join(map(str, out))
    # the start cards
    starts = set(layout.start_seats)
    for seat, placed in table:
        if seat in starts and (placed is None or placed.player is not None or not placed.face_up):
            yield f"start seat {seat} must hold a face-up start card"
        elif seat not in starts and placed is not None and placed.player is None:
            yield f"seat {seat} holds a start card but is not a start seat"
    # hands against the cards placed, and whose turn it is
    placed_by = [sum(1 for _, p in on_table if p.player == q) for q in range(players)]
    total = sum(placed_by)
    for player in range(players):
        dealt = setup.hand_sizes[player]
        if placed_by[player] + len(state.hands[player]) != dealt:
            yield (
                f"player {player + 1} holds {_count(len(state.hands[player]))} and placed "
                f"{placed_by[player]}, but was dealt {dealt}"
            )
        turns = total // players + (1 if player < total % players else 0)
        if placed_by[player] != turns:
            yield (
                f"player {player + 1} placed {_count(placed_by[player])}, but after "
                f"{total} moves in turn order it must have placed {turns}"
            )
    if state.to_move != total % players:
        yield (
            f"player {state.to_move + 1} is to move, but {_count(total)} "
            f"{'has' if total == 1 else 'have'} been placed, "
            f"so player {total % players + 1} is"
        )
    # shields go only on a tableau just played to
    for tableau, stack in enumerate(state.shields, start=1):
        counted = True
        for player in sorted(set(stack)):
            cards = sum(1 for seat, p in on_table if seat.tableau == tableau and p.player == player)
            if stack.count(player) > cards:
                counted = False
                yield (
                    f"player {player + 1} has a shield on tableau {tableau} "
                    f"but placed only {_count(cards)} there"
                )
        if counted and not _stack_in_turn_order(stack, placed_by, players):
            owners = " ".join(str(p + 1) for p in stack)
            yield (
                f"the shields on tableau {tableau} (players {owners}, first placed first) lie "
                "in an order the turns do not allow: player p's k-th card is the "
                "(k-1)*players+p-th placed"
            )
    # a face-up card must have matched when it was placed; cards never leave the table
    face_up_at = {seat: p.card for seat, p in on_table if p.face_up}
    unmatched = set()
    for seat, placed in on_table:
        fitted = _fits(layout, face_up_at.get, placed.card, seat)
        if placed.player is not None and placed.face_up and not fitted:
            unmatched.add(seat)
            yield f"{placed.card} on {seat} matches no face-up card beside or opposite it"
    # ... and a card placed before it: some order places each after one it matches
    early = {seat: card for seat, card in face_up_at.items() if seat in starts}
    waiting = {seat: card for seat, card in face_up_at.items() if seat not in early}
    grown = True
    while grown:
        grown = False
        for seat, card in list(waiting.items()):
            if _fits(layout, early.get, card, seat):
                early[seat] = waiting.pop(seat)
                grown = True
    circle = [f"{card} on {seat}" for seat, card in waiting.items() if seat not in unmatched]
    if circle:
        yield (
            f"{', '.join(circle)} match only one another: whichever was placed first "
            "matched no card already on the table"
        )
    # a face-down card goes down only when no card in hand fits a free seat; the
    # start cards were on the table then, and its player held its current hand
    free = [seat for seat, p in table if p is None]
    start_up = {seat: p.card for seat, p in table if seat in starts and p is not None and p.face_up}
    for seat, placed in on_table:
        if placed.face_up or placed.player is None:
            continue
        held = (placed.card, *state.hands[placed.player])
        fit = next(
            (
                (card, there)
                for card in held
                for there in (seat, *free)
                if _fits(layout, start_up.get, card, there)
            ),
            None,
        )
        if fit is not None:
            card, there = fit
            yield (
                f"{placed.card} lies face down on {seat}, but when it was placed player "
                f"{placed.player + 1} held {card}, which fitted {there} beside a start card "
                "(a card goes face down only when none fits)"
            )
    # the cards removed at set-up
    if len(state.removed) != setup.random_removals:
        yield f"{len(state.removed)} cards removed at set-up, not {setup.random_removals}"
    unaccounted = sorted(
        set(setup.deck())
        - {p.card for _, p in on_table}
        - set().union(*state.hands)
        - set(state.removed)
    )
    if unaccounted:
        yield "cards in play that are nowhere: " + " ".join(map(str, unaccounted))


def _stack_in_turn_order(stack: Sequence[int], placed_by: Sequence[int], players: int) -> bool:
    """Whether shields by ``stack``'s owners (first placed first) can have been
    placed in that order: player p's k-th card (from 0) was placed at turn
    ``k * players + p``, and each shield goes on with one of its owner's cards."""
    last = -1
    for player in stack:
        # the owner's first turn after the last shield's
        turn = player + max(0, (last - player) // players + 1) * players
        if turn >= player + placed_by[player] * players:
            return False
        last = turn
    return True


# -- set-up ----------------------------------------------------------------------------


def new_game(
    players: int = 2,
    *,
    seed: int | None = None,
    deck: Sequence[Card] | None = None,
    layout: Layout | None = None,
) -> State:
    """Set up a game for 2-4 players from a seed or an explicit deck order.

    With ``seed``, the cards in play (:meth:`Setup.deck`) are shuffled with
    ``random.Random(seed)``. ``deck`` gives the order directly, top first: the
    cards removed face down, then the start cards in start-seat order, then
    each player's hand in turn order. Player 0 moves first; the last player
    holds one card fewer and moves last.

    >>> game = new_game(3, deck=setup_for(3).deck())
    >>> [str(c) for c in game.removed], [len(h) for h in game.hands]
    (['R3', 'R4', 'R5', 'R6'], [9, 9, 8])
    >>> new_game(2, seed=11) == new_game(2, seed=11)
    True

    Bad arguments are refused at once, each with an ``InvalidDealError`` (a ``ValueError``):

    >>> new_game(2, seed=1.0)
    Traceback (most recent call last):
    ...
    referee.clans_and_glory.setup.InvalidDealError: the seed must be an integer or None, not 1.0
    """
    setup = setup_for(players)
    if seed is not None and (not _is_int(seed)):
        raise InvalidDealError("field_type", f"the seed must be an integer or None, not {seed!r}")
    if seed is not None and deck is not None:
        raise InvalidDealError("field_type", "give a seed or a deck, not both")
    if layout is not None and not isinstance(layout, Layout):
        raise InvalidDealError("layout", f"the layout must be a Layout, not {layout!r}")
    if deck is None:
        order = list(setup.deck())
        random.Random(seed).shuffle(order)
    else:
        if isinstance(deck, str | bytes) or not isinstance(deck, Sequence):
            raise InvalidDealError(
                "field_type", f"the deck must be a sequence of cards, not {type(deck).__name__}"
            )
        order = list(deck)
        _check_deck(setup, order)
    layout = _default_layout(players) if layout is None else layout
    _check_layout(setup, layout)
    removed = tuple(order[: setup.random_removals])
    start_end = setup.random_removals + setup.start_cards
    starts = dict(zip(layout.start_seats, order[setup.random_removals : start_end], strict=True))
    hands = []
    at = start_end
    for size in setup.hand_sizes:
        hands.append(tuple(sorted(order[at : at + size], key=CLAN_CARDS.as_pair)))
        at += size
    table = tuple(
        _placed(starts[seat], None, True) if seat in starts else None for seat in layout.seats
    )
    # Built here from a checked deck and layout: well formed without the constructor's checks.
    return State._trusted(
        players=players,
        layout=layout,
        deal=tuple(order),
        removed=removed,
        table=table,
        hands=tuple(hands),
        shields=((),) * layout.tableaus,
        to_move=0,
        moves=(),
    )


def _check_deck(setup: Setup, order: Sequence[object]) -> None:
    wanted = setup.deck()
    not_cards = [c for c in order if not _is_clan_card(c)]
    if not_cards:
        hint = (
            " (card texts must be read first: CLAN_CARDS.parse(text), or give the deal "
            "to state_from_deal)"
            if isinstance(not_cards[0], str)
            else ""
        )
        raise InvalidDealError(
            "field_type",
            f"the deck must hold Clans and Glory cards, not {not_cards[0]!r}{hint}",
        )
    foreign = [c for c in order if c not in wanted]
    missing = [c for c in wanted if c not in order]
    counts = Counter(order)
    repeated = sorted(c for c, n in counts.items() if n > 1)  # type: ignore[type-var]
    if foreign or missing or repeated:
        problems = []
        if foreign:
            problems.append("not in play " + " ".join(map(str, foreign[:5])))
        if missing:
            problems.append("missing " + " ".join(map(str, missing[:5])))
        if repeated:
            problems.append("repeated " + " ".join(map(str, repeated[:5])))
        raise InvalidDealError(
            "not_a_permutation",
            f"deal field 'deck' must hold each of the {len(wanted)} cards in play with "
            f"{setup.players} players exactly once: " + "; ".join(problems),
        )


def _check_layout(setup: Setup, layout: Layout) -> None:
    if not isinstance(layout, Layout):
        raise InvalidDealError("layout", "the layout must be a Layout")
    if layout.tableaus != setup.tableaus:
        raise InvalidDealError(
            "layout",
            f"invalid layout: {setup.players} players play on {setup.tableaus} tableaus, "
            f"not {layout.tableaus}",
        )
    if len(layout.start_seats) != setup.start_cards:
        raise InvalidDealError(
            "layout",
            f"invalid layout: {setup.players} players need {setup.start_cards} start seats, "
            f"not {len(layout.start_seats)}",
        )
    placements = setup.hand_sizes[setup.last_player] * setup.players
    if len(layout.seats) < setup.start_cards + placements:
        raise InvalidDealError(
            "layout",
            f"invalid layout: {setup.players} players need at least "
            f"{setup.start_cards + placements} seats, not {len(layout.seats)}",
        )


def state_from_deal(players: int, deal: Mapping[str, object]) -> State:
    """Set up the game a deal describes (see :meth:`State.deal_to_json`), checking it.

    >>> state_from_deal(2, {"deck": ["R3"]})
    Traceback (most recent call last):
    ...
    referee.clans_and_glory.setup.InvalidDealError: deal field 'deck' must hold each of the 28 cards in play with 2 players exactly once: missing R4 R5 R6 O3 O4
    >>> state_from_deal(2, {"deck": "R3 R4"})
    Traceback (most recent call last):
    ...
    referee.clans_and_glory.setup.InvalidDealError: deal field 'deck' must be a list of card texts like 'R7'
    """
    setup = setup_for(players)
    if not isinstance(deal, Mapping):
        raise InvalidDealError("field_type", "the deal must be a JSON object (a mapping)")
    unknown = sorted(str(k) for k in deal if k not in _DEAL_FIELDS)
    if unknown:
        raise InvalidDealError(
            "field_unknown",
            f"deal field {unknown[0]!r} is unknown (known: deck, game, layout, players)",
        )
    if "game" in deal and deal["game"] != _GAME_NAME:
        raise InvalidDealError(
            "field_type", f"deal field 'game' must be {_GAME_NAME!r}, not {deal['game']!r}"
        )
    if "players" in deal and (isinstance(deal["players"], bool) or deal["players"] != players):
        raise InvalidDealError(
            "players", f"deal field 'players' is {deal['players']!r}, but the game has {players}"
        )
    if "deck" not in deal:
        raise InvalidDealError("field_missing", "deal field 'deck' is missing")
    texts = deal["deck"]
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise InvalidDealError(
            "field_type", "deal field 'deck' must be a list of card texts like 'R7'"
        )
    try:
        cards = [CLAN_CARDS.parse(t) for t in texts]
    except InvalidCardError as error:
        raise InvalidDealError("field_type", f"deal field 'deck': {error}") from None
    layout = Layout.from_json(deal["layout"]) if "layout" in deal else None
    return new_game(setup.players, deck=cards, layout=layout)


def random_playout(seed: int, *, players: int = 3) -> list[str]:
    """The moves of a game dealt from ``seed`` and played with random legal moves.

    The same seed gives the same game, and the moves replay on ``new_game``:

    >>> moves = random_playout(4, players=2)
    >>> len(moves), moves == random_playout(4, players=2)
    (16, True)
    >>> game = new_game(2, seed=4)
    >>> for text in moves:
    ...     game = game.play(text)
    >>> game.outcome is not None
    True
    """
    game = new_game(players, seed=seed)
    chooser = random.Random(f"playout {seed}")
    moves: list[str] = []
    while not game.is_over:
        move = chooser.choice(game.legal_moves())
        moves.append(str(move))
        game = game.play(move)
    return moves


# -- the picture -----------------------------------------------------------------------


def _cell(placed: Placed | HiddenCard | None) -> str:
    if placed is None:
        return "--"
    if isinstance(placed, HiddenCard):
        return "##"
    return str(placed.card) if placed.face_up else str(placed.card).lower()


def _render(
    players: int,
    layout: Layout,
    table: Iterable[Placed | HiddenCard | None],
    shields: Sequence[tuple[int, ...]],
    hands: Sequence[str],
    to_move: int,
    outcome: Outcome | None,
    sizes: Sequence[int],
) -> str:
    cells = [_cell(p) for p in table]
    if outcome is None:
        status = f"player {to_move + 1} to move"
    elif outcome.winner is None:
        status = f"game over, shared win ({outcome.reason})"
    else:
        status = f"game over, player {outcome.winner + 1} wins ({outcome.reason})"
    lines = [f"Clans and Glory, {players} players: {status}"]
    if layout.grid is not None:
        width = 4
        columns = max(c for _, c in layout.grid) + 1
        rows = max(r for r, _ in layout.grid) + 1
        header = [" "] * (columns * width)
        for tableau in range(1, layout.tableaus + 1):
            column = layout.grid[layout.index(layout.seats_of(tableau)[0])][1]
            label = f"t{tableau}"
            header[column * width : column * width + len(label)] = label
        lines.append("".join(header).rstrip())
        grid = [[" " * width] * columns for _ in range(rows)]
        for (row, column), cell in zip(layout.grid, cells, strict=True):
            grid[row][column] = cell.ljust(width)
        lines.extend("".join(row).rstrip() for row in grid)
        if layout == default_layout(players):
            lines.append(
                "seats: s1 s2 s3 top row, s4 s5 s6 bottom row, s7 the head seats at the ends"
            )
    else:
        for tableau in range(1, layout.tableaus + 1):
            seats = layout.seats_of(tableau)
            lines.append(
                f"t{tableau}: " + " ".join(f"s{s.number}={cells[layout.index(s)]}" for s in seats)
            )
    lines.append(
        "shields (first placed first): "
        + "  ".join(
            f"t{t}: " + (" ".join(str(p + 1) for p in stack) or "-")
            for t, stack in enumerate(shields, start=1)
        )
    )
    for player in range(players):
        left = SHIELDS_PER_PLAYER - sum(stack.count(player) for stack in shields)
        lines.append(
            f"player {player + 1}: {sizes[player]} card{'' if sizes[player] == 1 else 's'} "
            f"({hands[player]}), {left} shields left"
        )
    return "\n".join(lines)
