"""Clans and Glory's action spaces: every move numbered, a legal mask, an observation.

The table has more seats with more players, so there is one space per player
count (:data:`ACTIONS`, or :func:`actions_for` with a custom layout). In each,
a move is a card, a seat, face up or down, and a shield or not. Cards are
numbered in :data:`~referee.clans_and_glory.CLAN_CARDS` order (``R3`` is 0,
``R4`` is 1, ..., ``W8`` is 41; the same numbers with every player count, even
for cards out of play), seats in the layout's order (``layout.seats``: t1s1 is
0, ...), and the four options are 0 face up, 1 face up with a shield, 2 face
down, 3 face down with a shield::

    id = (card * seats + seat) * 4 + option

=======  =====  ===============
players  seats  ``num_actions``
=======  =====  ===============
2        26     4,368
3        32     5,376
4        38     6,384
=======  =====  ===============

    >>> from referee.clans_and_glory import new_game, parse_move
    >>> space = ACTIONS[2]
    >>> space.num_actions
    4368
    >>> space.action_of(parse_move("R3@t1s1")), space.action_of(parse_move("R3@t1s2+shield"))
    (0, 5)
    >>> space.move_of(4367)
    parse_move('W8@t4s7+down+shield')
    >>> game = new_game(players=2, seed=1)
    >>> sum(space.legal_action_mask(game)) == len(game.legal_moves())
    True

The observation (:meth:`ClansAndGloryActions.observation`) is read from
``state.view(player)`` only, so it holds nothing that player may not see (no
other hand, no face of another player's face-down card, no removed card). Its
blocks are listed in :data:`OBSERVATION_LAYOUT` (per player count) and in each
space's ``observation_layout``, as (name, start, length). Players are counted
from the observer: "me", then the players after me in turn order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from referee.actions import action_index, check_game, observer_index, rewards_of
from referee.clans_and_glory.cards import CARDS, ID
from referee.clans_and_glory.layout import Layout, default_layout
from referee.clans_and_glory.moves import Placement
from referee.clans_and_glory.rules import FREE, HIDDEN, START, Board, action_ids
from referee.clans_and_glory.setup import SHIELDS_PER_PLAYER, setup_for
from referee.clans_and_glory.state import State

__all__ = [
    "ACTIONS",
    "OBSERVATION_LAYOUT",
    "ClansAndGloryActions",
    "action_space",
    "actions_for",
]

_C = len(CARDS)
#: The default layout of each player count.
_LAYOUTS = {players: default_layout(players) for players in (2, 3, 4)}


def _observation_blocks(
    players: int, seats: int, tableaus: int, stack: int
) -> tuple[tuple[str, int, int], ...]:
    blocks = [
        ("my hand: one per card", _C),
        ("card on each seat, face up or my own face down: seat-major, one per card", seats * _C),
        ("seat holds a face-down card (mine or another's)", seats),
        (
            "who placed each seat's card: seat-major, one-hot over start card, me, "
            "then the next players in turn order",
            seats * (players + 1),
        ),
        (
            "shield stack of each tableau, first placed first: tableau-major, "
            f"{stack} places, one-hot over me, then the next players in turn order",
            tableaus * stack * players,
        ),
        ("shields left: me, then the next players in turn order", players),
        ("cards in hand: me, then the next players in turn order", players),
        ("it is my turn", 1),
        ("my place in the turn order, one-hot (first to last)", players),
    ]
    out: list[tuple[str, int, int]] = []
    start = 0
    for name, length in blocks:
        out.append((name, start, length))
        start += length
    return tuple(out)


class ClansAndGloryActions:
    """The action space of one player count on one layout (see the module's table).

    Use :data:`ACTIONS` or :func:`actions_for`; a space refuses a state or view
    of another game with a ``TypeError`` (as every game's space does, see
    :func:`referee.actions.check_game`), and states of another player count or
    layout with a ``ValueError``.
    """

    #: The game's title, as error messages name it.
    game = "Clans and Glory"
    #: The classes of the game's states and views (a view is a State).
    state_types: tuple[type, ...] = (State,)

    #: How many action ids there are: 42 cards × seats × 4 options.
    num_actions: int
    #: Length of :meth:`observation`'s tuple.
    observation_size: int
    #: The observation's blocks: (name, start, length).
    observation_layout: tuple[tuple[str, int, int], ...]
    #: The largest number :meth:`observation` holds (a hand size or a shield count).
    observation_high: int

    def __init__(self, players: int, layout: Layout | None = None) -> None:
        setup = setup_for(players)
        self.players = players
        self.layout = _LAYOUTS[players] if layout is None else layout
        if not isinstance(self.layout, Layout) or self.layout.tableaus != setup.tableaus:
            raise ValueError(
                f"{players} players play on a layout of {setup.tableaus} tableaus, "
                f"not {self.layout!r}"
            )
        seats = self.layout.seats
        self._seats = len(seats)
        self._seat_at = {seat: i for i, seat in enumerate(seats)}
        self._stack = max(len(self.layout.seats_of(t)) for t in range(1, setup.tableaus + 1))
        self.num_actions = _C * self._seats * 4
        self.observation_layout = _observation_blocks(
            players, self._seats, setup.tableaus, self._stack
        )
        _name, start, length = self.observation_layout[-1]
        self.observation_size = start + length
        self.observation_high = max(*setup.hand_sizes, SHIELDS_PER_PLAYER)

    def __repr__(self) -> str:
        return f"<ClansAndGloryActions {self.players} players, {self.num_actions} ids>"

    # -- ids -------------------------------------------------------------------------

    def action_of(self, move: Placement | object) -> int:
        """The id of ``move``; ``ValueError`` for a seat not on this layout.

        >>> from referee.clans_and_glory import parse_move
        >>> ACTIONS[3].action_of(parse_move("G5@t6s1"))
        Traceback (most recent call last):
        ...
        ValueError: move 'G5@t6s1' has no action id: no seat t6s1 on this table
        """
        if not isinstance(move, Placement):
            raise ValueError(f"{move!r} is not a Clans and Glory move")
        seat = self._seat_at.get(move.seat)
        if seat is None:
            raise ValueError(
                f"move {str(move)!r} has no action id: no seat {move.seat} on this table"
            )
        option = 2 * move.face_down + move.shield
        return (ID[move.card] * self._seats + seat) * 4 + option

    def rewards(self, state: State) -> tuple[float, ...]:
        """+1 to every winner (all of them in a shared win) and -1 to every other
        player once the game is over; all 0 before (see
        :func:`referee.actions.rewards_of`)."""
        self._check(state)
        return rewards_of(state.outcome, self.players)

    def play(self, state: State, action: int) -> State:
        """The state after the move with id ``action``."""
        self._check(state)
        return state.play(self.move_of(action))

    def move_of(self, action: int) -> Placement:
        """The move with id ``action``.

        >>> ACTIONS[2].move_of(4368)
        Traceback (most recent call last):
        ...
        ValueError: no action 4368: ids are whole numbers 0-4367
        """
        number = action_index(action, self.num_actions)
        rest, option = divmod(number, 4)
        card, seat = divmod(rest, self._seats)
        return Placement._of(CARDS[card], self.layout.seats[seat], option >= 2, option % 2 == 1)

    # -- positions -------------------------------------------------------------------

    def _check(self, state: State) -> None:
        check_game(state, self.state_types, self.game)
        if state.num_players != self.players or not (
            state.layout is self.layout or state.layout == self.layout
        ):
            raise ValueError(
                f"this action space is for {self.players} players on its own layout; "
                f"the state has {state.num_players} players"
                + ("" if state.num_players != self.players else " on another layout")
            )

    def _legal_ids(self, state: State) -> list[int]:
        """The ids the player to move may play, ascending, read off the integer
        board (what ``playout`` hands a policy)."""
        self._check(state)
        if state.outcome is not None:
            return []
        board = state.board
        options, face_down, _pairs = board.options()
        return action_ids(options, face_down, board.supply[board.to_move] > 0, self._seats)

    def legal_action_mask(self, state: State) -> bytes:
        """One byte per id: 1 where the player to move may play it (all 0 once the
        game is over). A player's view gives its mask (all 0 when it is not that
        player's turn)."""
        mask = bytearray(self.num_actions)
        for action in self._legal_ids(state):
            mask[action] = 1
        return bytes(mask)

    def observation(self, state: State, player: int) -> tuple[int, ...]:
        """What ``player`` sees, as :attr:`observation_layout` lays it out.

        Read from ``state.view(player)`` alone (or from ``state`` itself when it
        is that player's view): two states with the same view give the same
        observation.
        """
        self._check(state)
        players = self.players
        player = observer_index(player, players)
        seen = state._viewer()
        if seen != "all" and seen != player:
            raise ValueError(f"a view of player {seen!r} cannot be observed as {player!r}")
        board = (state.view(player) if seen == "all" else state).board
        out = [0] * self.observation_size
        starts = [start for _name, start, _length in self.observation_layout]
        for card in board.hands[player] or ():
            out[card] = 1
        self._seats_observed(out, starts, board, player)
        stacks = starts[4]
        for tableau, stack in enumerate(board.shields):
            for place, owner in enumerate(stack):
                out[
                    stacks + (tableau * self._stack + place) * players + (owner - player) % players
                ] = 1
        left, sizes = starts[5], starts[6]
        for relative in range(players):
            other = (player + relative) % players
            out[left + relative] = board.supply[other]
            out[sizes + relative] = board.hand_sizes[other]
        out[starts[7]] = int(board.to_move == player and state.outcome is None)
        out[starts[8] + player] = 1
        return tuple(out)

    def _seats_observed(self, out: list[int], starts: list[int], board: Board, player: int) -> None:
        """The seat blocks: each seat's card (when seen), face down or not, and who placed it."""
        players, face_up = self.players, board.face_up
        on_seat, face_down, placer = starts[1], starts[2], starts[3]
        for i, (card, who) in enumerate(zip(board.seat_cards, board.seat_placers, strict=True)):
            if card == FREE:
                continue
            if card != HIDDEN:
                out[on_seat + i * _C + card] = 1
            if not face_up >> i & 1:
                out[face_down + i] = 1
            out[
                placer + i * (players + 1) + (0 if who == START else 1 + (who - player) % players)
            ] = 1


def actions_for(players: int, layout: Layout | None = None) -> ClansAndGloryActions:
    """The action space for ``players`` players (on ``layout``, by default the assumed one).

    >>> actions_for(4) is ACTIONS[4], actions_for(4).num_actions
    (True, 6384)
    """
    setup_for(players)  # refuses a player count other than 2-4
    if layout is None or layout == _LAYOUTS[players]:
        return ACTIONS[players]
    return ClansAndGloryActions(players, layout)


#: The action space of each player count on the default layout; read-only.
ACTIONS: Mapping[int, ClansAndGloryActions] = MappingProxyType(
    {players: ClansAndGloryActions(players) for players in (2, 3, 4)}
)

#: The observation's blocks per player count (name, start, length): the same as
#: ``ACTIONS[players].observation_layout``.
OBSERVATION_LAYOUT: Mapping[int, Sequence[tuple[str, int, int]]] = MappingProxyType(
    {players: space.observation_layout for players, space in ACTIONS.items()}
)


def action_space(state: State) -> ClansAndGloryActions:
    """The action space of ``state``: its player count's, on its layout, as
    every game's ``actions`` module gives it.

    >>> from referee.clans_and_glory import new_game
    >>> action_space(new_game(players=3, seed=1)) is ACTIONS[3]
    True
    """
    return actions_for(state.num_players, state.layout)
