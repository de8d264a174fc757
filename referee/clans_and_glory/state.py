"""The Clans and Glory game state: its fields and the questions it answers.

A game is an immutable :class:`State`; :meth:`State.play` returns the next one::

    >>> from referee.clans_and_glory import new_game
    >>> game = new_game(players=2, seed=7)
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
    >>> game == new_game(players=2, seed=7)
    True

A player's view is a ``State`` too, with what that player cannot see as
``None``: the other hands, the faces of the others' face-down cards, the cards
removed at set-up and the deal.

Inside, the position is a :class:`~referee.clans_and_glory.rules.Board` of small
integers (``state.board``); the cards, seats and placed cards users see are
made from it when asked for. The rules of a turn are in
:mod:`~referee.clans_and_glory.rules`, the position checks in
:mod:`~referee.clans_and_glory.status`, the set-up in
:mod:`~referee.clans_and_glory.dealing`, how a state is made from another (by a
move, a referee's end, a view, a copy with parts changed) in
:mod:`~referee.clans_and_glory.made`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from referee.cards import Card
from referee.clans_and_glory import made
from referee.clans_and_glory.cards import CARDS, ID, ids_of
from referee.clans_and_glory.layout import Layout, Seat, default_layout
from referee.clans_and_glory.moves import Placement, parse_move
from referee.clans_and_glory.placed import InvalidStateError, Placed, is_int, table_of
from referee.clans_and_glory.placed import check_player as check_seat_player
from referee.clans_and_glory.render import render, status_line, who
from referee.clans_and_glory.rules import Board, LegalPlacements, Reason
from referee.clans_and_glory.scoring import ScoreSheet, score_board
from referee.clans_and_glory.setup import CLAN_CARDS, Setup, setup_for
from referee.clans_and_glory.status import checked_board, history_problems
from referee.errors import IllegalMoveError
from referee.game import LegalMoves, Outcome, Termination

if TYPE_CHECKING:
    from referee.records import Record

__all__ = ["InvalidStateError", "Placed", "Reason", "State"]

#: The ``game`` field of a deal's JSON description.
GAME_NAME = "clans_and_glory"


class State:
    """A Clans and Glory position: the whole table and every hand (the
    referee's), or what one player sees of it (:meth:`view`).

    Build one from its parts, checked (every problem at once, an
    :class:`InvalidStateError`)::

        >>> from referee.clans_and_glory import new_game
        >>> game = new_game(players=2, seed=1)
        >>> same = State(num_players=2, table=game.table, hands=game.hands,
        ...              shields=game.shields, removed=game.removed, deal=game.deal)
        >>> same == game, same.status()
        (True, ())

    ``table`` has one entry per seat of ``layout.seats`` (``None`` when free);
    ``hands`` are in card-set order (``None`` for a hand a view hides, then
    ``hand_sizes`` gives its size); ``shields`` holds one stack per tableau, the
    first shield placed first; ``removed`` are the cards taken out face down at
    set-up; ``deal`` the deck order the game was dealt from, if known;
    ``history`` the moves played since the deal; ``outcome`` a referee's end
    (resignation, timeout, forfeit, ply limit), the rules' end being derived.
    Two states are equal when their positions are (the deal and the history
    aside, as python-chess compares boards).
    """

    __slots__ = ("board", "deal", "history", "layout", "num_players", "outcome", "removed_ids")

    #: How many players sit at the table (2-4).
    num_players: int
    #: The seats and which touch.
    layout: Layout
    #: The position as small integers (see :class:`~referee.clans_and_glory.rules.Board`).
    board: Board
    #: The result once the game is over, else ``None``.
    outcome: Outcome | None
    #: The moves played since the deal (a view's is empty).
    history: tuple[Placement, ...]
    #: The deck order the game was dealt from (``None`` if unknown, as in a view).
    deal: tuple[Card, ...] | None
    #: The ids of the cards removed at set-up, lowest first (``None`` in a view).
    removed_ids: tuple[int, ...] | None

    def __init__(
        self,
        *,
        num_players: int,
        table: Sequence[Placed | None],
        hands: Sequence[Sequence[Card] | None],
        shields: Sequence[Sequence[int]] | None = None,
        to_move: int = 0,
        layout: Layout | None = None,
        hand_sizes: Sequence[int] | None = None,
        removed: Sequence[Card] | None = (),
        deal: Sequence[Card] | None = None,
        history: Sequence[Placement] = (),
        outcome: Outcome | None = None,
    ) -> None:
        if layout is None and is_int(num_players) and num_players in (2, 3, 4):
            layout = default_layout(num_players)
        board, removed_ids, dealt, moves = checked_board(
            num_players, layout, table, hands, shields, to_move, hand_sizes, removed, deal, history
        )
        assert layout is not None
        if outcome is None and board.is_over():
            outcome = board.scored(layout)
        made.fill(self, num_players, layout, board, outcome, moves, dealt, removed_ids)

    @classmethod
    def _made(
        cls,
        num_players: int,
        layout: Layout,
        board: Board,
        outcome: Outcome | None,
        history: tuple[Placement, ...],
        deal: tuple[Card, ...] | None,
        removed_ids: tuple[int, ...] | None,
    ) -> State:
        """A state of parts the library made itself from a well-formed one (no checks)."""
        state = object.__new__(cls)
        made.fill(state, num_players, layout, board, outcome, history, deal, removed_ids)
        return state

    def replace(self, **changes: Any) -> State:
        """A copy with some of the constructor's parts changed, checked by the
        constructor (what ``dataclasses.replace`` does for the other games' states).

        >>> from referee.clans_and_glory import new_game
        >>> game = new_game(players=2, seed=1)
        >>> game.replace(to_move=1).status()
        ('player 2 is to move, but 0 cards have been placed, so player 1 is',)
        >>> game.replace(seats=3)
        Traceback (most recent call last):
        ...
        TypeError: State.replace() got an unexpected keyword argument 'seats'
        """
        return made.replaced(self, changes)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"a State is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a State is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickle and copy through the constructor helper (the slots cannot be set otherwise).
        return (State._made, made.parts_of(self))

    def _key(self) -> tuple[object, ...]:
        return (self.num_players, self.board, self.outcome, self.removed_ids)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key() and (
            self.layout is other.layout or self.layout == other.layout
        )

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        seen = self._viewer()
        whose = "" if seen == "all" else f", seen by {who(seen)}"
        return (
            f"<Clans and Glory State: {self.num_players} players, "
            f"{status_line(self.outcome, self.to_move)}{whose}>"
        )

    # -- the position, as users see it --------------------------------------------

    @property
    def to_move(self) -> int:
        """Index of the player whose turn it is."""
        return self.board.to_move

    @property
    def setup(self) -> Setup:
        """The set-up rules for this player count."""
        return setup_for(self.num_players)

    @property
    def hands(self) -> tuple[tuple[Card, ...] | None, ...]:
        """Each player's hand in card-set order (``None`` for one a view hides)."""
        return tuple(None if h is None else tuple(CARDS[c] for c in h) for h in self.board.hands)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each player holds."""
        return self.board.hand_sizes

    @property
    def shields(self) -> tuple[tuple[int, ...], ...]:
        """Each tableau's shield stack (their owners), the first placed first."""
        return self.board.shields

    @property
    def table(self) -> tuple[Placed | None, ...]:
        """What lies on each seat of ``layout.seats`` (``None`` when free)."""
        return table_of(self.board)

    @property
    def removed(self) -> tuple[Card, ...] | None:
        """The cards removed face down at set-up, in card-set order (``None`` in a view)."""
        ids = self.removed_ids
        return None if ids is None else tuple(CARDS[c] for c in ids)

    def seat_card(self, seat: Seat) -> Placed | None:
        """What lies on ``seat`` (``None`` when it is free); a ``ValueError`` for no such seat.

        >>> from referee.clans_and_glory import new_game
        >>> new_game(players=2, seed=1).seat_card(Seat(5, 1))
        Traceback (most recent call last):
        ...
        ValueError: no seat Seat(5, 1) on this table (tableaus 1-4)
        """
        return self.table[self.layout.index(seat)]

    def free_seats(self) -> tuple[Seat, ...]:
        """The free seats, in layout order."""
        seats = self.layout.seats
        return tuple(seats[i] for i in ids_of(self.board.free))

    def shield_stack(self, tableau: int) -> tuple[int, ...]:
        """The owners of the shields on ``tableau``, the first placed first.

        Tableaus are numbered from 1; any other number is a ``ValueError``:

        >>> from referee.clans_and_glory import new_game
        >>> new_game(players=2, seed=1).shield_stack(0)
        Traceback (most recent call last):
        ...
        ValueError: no tableau 0 on this table (tableaus 1-4)
        """
        return self.board.shields[self.layout.check_tableau(tableau) - 1]

    def shields_left(self, player: int) -> int:
        """How many shields ``player`` still has in supply (of 5).

        >>> from referee.clans_and_glory import new_game
        >>> new_game(players=3, seed=1).shields_left(3)
        Traceback (most recent call last):
        ...
        ValueError: no player 3 in a 3-player game (players are 0-2)
        """
        check_seat_player(player, self.num_players)
        return self.board.supply[player]

    def fits(self, card: Card, seat: Seat) -> bool:
        """Whether ``card`` shares colour or rank with a face-up card touching ``seat``.

        >>> from referee.clans_and_glory import new_game, setup_for
        >>> game = new_game(players=3, deck=setup_for(3).deck())
        >>> str(game.seat_card(Seat(1, 2)).card), game.fits(Card("R", 7), Seat(1, 1))
        ('R7', True)
        >>> game.fits(Card("O", 5), Seat(1, 1)), game.fits(Card("O", 7), Seat(1, 5))
        (False, True)
        """
        if not isinstance(card, Card) or card not in CLAN_CARDS:
            raise ValueError(f"{card!r} is not a Clans and Glory card")
        return self.board.fits(ID[card], self.layout.index(seat))

    def visible_cards(self) -> Counter[Card]:
        """The cards every player sees, counted: the face-up cards on the table.

        >>> from referee.clans_and_glory import new_game
        >>> sum(new_game(players=2, seed=1).visible_cards().values())
        8
        """
        board = self.board
        return Counter(CARDS[board.seat_cards[seat]] for seat in ids_of(board.face_up))

    def status(self) -> tuple[str, ...]:
        """Why no game can reach this state, every reason at once (empty when
        none), like python-chess's ``Board.status()``; see
        :func:`referee.clans_and_glory.status.history_problems`.

        >>> from referee.clans_and_glory import new_game
        >>> game = new_game(players=2, seed=1)
        >>> bad = State(num_players=2, table=game.table, hands=game.hands,
        ...             shields=((0,), (), (), ()), to_move=1, removed=game.removed)
        >>> for problem in bad.status():
        ...     print(problem)
        player 2 is to move, but 0 cards have been placed, so player 1 is
        player 1 has a shield on tableau 1 but placed only 0 cards there
        """
        return tuple(history_problems(self))

    def is_valid(self) -> bool:
        """Whether :meth:`status` finds nothing."""
        return not self.status()

    def score(self) -> ScoreSheet:
        """The score sheet of the table as it stands (final once the game is over).

        Face-down cards are taken away first and score nothing.
        """
        return score_board(self.num_players, self.board, self.layout)

    # -- the end -----------------------------------------------------------------------

    def is_game_over(self) -> bool:
        """Whether the game has ended: the player who started with fewest cards
        has placed its last one, or a referee ended it."""
        return self.outcome is not None

    def resign(self, player: int) -> State:
        """The game ended by ``player``'s resignation: with two players the other
        wins, with more nobody does.

        >>> from referee.clans_and_glory import new_game
        >>> new_game(players=2, seed=1).resign(1).outcome.result()
        'player 1 wins (resignation)'
        """
        return self.end(Termination.RESIGNATION, loser=player)

    def end(self, termination: Termination, *, loser: int | None = None) -> State:
        """The game ended by a referee: ``resignation``, ``timeout`` or ``forfeit``
        of ``loser``, or ``ply_limit`` (no winner)."""
        return made.ended(self, termination, loser)

    # -- moves -----------------------------------------------------------------------

    def parse_move(self, text: str) -> Placement:
        """Read a move in Clans and Glory notation (see :mod:`.moves`)."""
        return parse_move(text)

    def legal_moves(self) -> LegalMoves[Placement]:
        """Every legal move of the player to move, made as asked for (empty once the
        game is over, or in a view on another player's turn): card by card in
        card-set order, seat by seat, without then with a shield.

        >>> from referee.clans_and_glory import new_game
        >>> game = new_game(players=4, seed=1)
        >>> moves = game.legal_moves()
        >>> all(game.is_legal(m) for m in moves), any(m.shield for m in moves)
        (True, True)
        """
        return LegalPlacements(self.board, self.layout, self.outcome is not None)

    def generate_legal_moves(self) -> list[Placement]:
        """Every legal move of the player to move, as a new list."""
        return list(self.legal_moves())

    def is_chance_node(self) -> bool:
        """Whether the next ply is chance: never (the deal is the game's only chance)."""
        return False

    def chance_outcomes(self) -> list[tuple[Placement, float]]:
        """The outcomes of a chance ply: none (see :meth:`is_chance_node`)."""
        return []

    def refusal(
        self, move: Placement | str, *, player: int | None = None
    ) -> IllegalMoveError | None:
        """Why ``move`` is refused (the error :meth:`play` would raise), or ``None``
        if it is legal; an ``InvalidMoveError`` for what is not a move at all.

        ``player``, when given, is who is trying to move.

        >>> from referee.clans_and_glory import new_game
        >>> game = new_game(players=2, seed=1)
        >>> game.refusal("G5@t1s1") is None
        True
        >>> print(game.refusal("G5@t1s1+down"))
        illegal move 'G5@t1s1+down': a card goes face down only when none fits face up, but R3 fits t2s1
        """
        return made.refusal(self, move, player)

    def is_legal(self, move: Placement | str, *, player: int | None = None) -> bool:
        """Whether ``move`` may be played now (by ``player``, when given); ``False``
        for anything that is not a move (malformed text included), as in every game."""
        try:
            return self.refusal(move, player=player) is None
        except ValueError:
            return False

    def play(self, move: Placement | str, *, player: int | None = None) -> State:
        """The state after ``move``; raises ``IllegalMoveError`` (with a reason) if
        refused, and changes nothing. ``player``, when given, is who is trying to
        move (refused with ``not_your_turn`` if it is not their turn)."""
        return made.played(self, move, player)

    # -- records and views -----------------------------------------------------------

    def deal_to_json(self) -> dict[str, object]:
        """The deal as JSON-ready data: player count and deck order (and a custom layout).

        The deck lists the cards in play top first: the cards removed at random,
        then the start cards (in start-seat order), then each player's hand in
        turn order. :func:`~referee.clans_and_glory.state_from_deal` reads it back.

        >>> from referee.clans_and_glory import new_game, state_from_deal
        >>> game = new_game(players=2, seed=3)
        >>> data = game.deal_to_json()
        >>> sorted(data), len(data["deck"])
        (['deck', 'game', 'players'], 28)
        >>> state_from_deal(2, data) == game
        True
        """
        if self.deal is None:
            raise ValueError("this state does not know its deal (a view, or a loaded position)")
        data: dict[str, object] = {
            "game": GAME_NAME,
            "players": self.num_players,
            "deck": [str(c) for c in self.deal],
        }
        if self.layout != default_layout(self.num_players):
            data["layout"] = self.layout.to_json()
        return data

    def to_record(self) -> Record:
        """The game so far as a full record (the deal must be known).

        >>> from referee.records import validate
        >>> from referee.clans_and_glory import new_game
        >>> record = new_game(players=3, seed=2).resign(2).to_record()
        >>> record.result, validate(record).legal
        ({'winner': None, 'reason': 'resignation', 'loser': 2}, True)
        """
        from referee.clans_and_glory.record import FORMAT

        return FORMAT.record_of(self)

    def view(self, player: int | None) -> State:
        """What ``player`` may see, as a ``State``: the other hands, the faces of the
        others' face-down cards, the removed cards and the deal are ``None``; the
        view has no history. ``None`` is a spectator's view: every hand hidden.

        >>> from referee.clans_and_glory import new_game
        >>> view = new_game(players=3, seed=2).view(1)
        >>> view.hand_sizes, [hand is None for hand in view.hands], view.to_move
        ((9, 9, 8), [True, False, True], 0)
        >>> new_game(players=3, seed=2).view(None).hands
        (None, None, None)
        """
        return made.seen_by(self, player)

    def _viewer(self) -> int | str | None:
        """``"all"`` for a full state; else the player whose view this is (``None``:
        a spectator's)."""
        return made.viewer(self)

    def __str__(self) -> str:
        return render(self)

    def _repr_svg_(self) -> str:
        """The picture of the position, for Jupyter (see :mod:`referee.svg`)."""
        from referee.svg import render_svg

        return render_svg(self)
