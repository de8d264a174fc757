"""What every game in the library has in common: outcomes and the game protocol.

Games are immutable states: :meth:`GameState.play` returns the next state and
leaves the old one untouched, so a refused move can never half-change a game.
Every game's ``State`` implements :class:`GameState` in full (see
``docs/protocol.md``): a program written against it runs unchanged on all three
games.

    >>> from referee import schotten_totten as st
    >>> game = st.new_game(seed=1)
    >>> moves = game.legal_moves()
    >>> len(moves) == moves.count() and bool(moves) and moves[0] in moves
    True
    >>> after = game.play(moves[0], player=game.to_move)
    >>> after.history == (moves[0],)
    True
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar, runtime_checkable

# The protocol's two sequence types live in their own module; they are
# named here (and pickled as this module's), with the history's markers.
from referee._sequences import _NO_MOVE as _NO_MOVE
from referee._sequences import HIDDEN_START as HIDDEN_START
from referee._sequences import NO_HISTORY as NO_HISTORY
from referee._sequences import History, LegalMoves
from referee.errors import InvalidDealError

if TYPE_CHECKING:
    from collections import Counter

    from referee.errors import IllegalMoveError
    from referee.prover import ClaimVerdict
    from referee.records import Record

__all__ = [
    "ClaimGame",
    "GameState",
    "GameView",
    "History",
    "LegalMoves",
    "MoveText",
    "Outcome",
    "Termination",
    "check_max_plies",
    "check_player",
    "check_rng",
    "check_seed",
    "check_view",
]

MoveT = TypeVar("MoveT")
MoveT_co = TypeVar("MoveT_co", covariant=True)


class MoveText:
    """Base of move values whose ``repr`` is the parse call, like python-chess.

    A move class defines ``__str__`` (its notation); ``repr(move)`` is then
    ``parse_move('...')``, which reads the same move back.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


class Termination(StrEnum):
    """How a game (or a match) ended. The values are the ``reason`` strings of
    records, unchanged on the wire.

    >>> Termination.FIVE_STONES == "five_stones", Termination("resignation")
    (True, <Termination.RESIGNATION: 'resignation'>)
    """

    # Schotten Totten
    THREE_ADJACENT = "three_adjacent"
    FIVE_STONES = "five_stones"
    BLOCKED = "blocked"
    # Schotten Totten 2
    CONTROLLED_DAMAGED_TILE = "controlled_damaged_tile"
    FOURTH_TILE_DAMAGED = "fourth_tile_damaged"
    SIEGE_HELD = "siege_held"
    SIEGE_FAILED = "siege_failed"
    # any game on a line, in the kernel's words (a plain game, referee.line.plain)
    ADJACENT_PLACES = "adjacent_places"
    PLACES_HELD = "places_held"
    # Clans and Glory
    MOST_POINTS = "most_points"
    MOST_CARDS = "most_cards"
    SHARED = "shared"
    # a referee's end of a game still in play (every game)
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    FORFEIT = "forfeit"
    PLY_LIMIT = "ply_limit"
    # matches (Clanfehde, Rache)
    POINTS = "points"
    DRAW = "draw"
    WON_BOTH = "won_both"
    ATTACKER_LEFT_MORE_CARDS = "attacker_left_more_cards"
    DEFENDER_KEPT_MORE_WALL_AND_OIL = "defender_kept_more_wall_and_oil"
    FURTHER_GAME_NEEDED = "further_game_needed"


#: The ends a referee gives a game still in play; a player who loses by one is the ``loser``.
REFEREE_ENDS = frozenset(
    {Termination.RESIGNATION, Termination.TIMEOUT, Termination.FORFEIT, Termination.PLY_LIMIT}
)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, like python-chess's ``Outcome``.

    ``termination`` says how (a :class:`Termination`; a string with one of its
    values is converted); ``winner`` is the winning player's index (0-based,
    ``None`` when nobody or several players win); ``winners`` every winner, in
    every game: ``(winner,)``, several players for a shared win, or none;
    ``scores`` the final scores where the game keeps score; ``loser`` the player
    who resigned, ran out of time or forfeited.

        >>> Outcome("five_stones", 0)
        Outcome(Termination.FIVE_STONES, winner=0)
        >>> Outcome(Termination.FIVE_STONES, 0).reason, Outcome("five_stones", 0).winners
        ('five_stones', (0,))
        >>> Outcome("shared", None, (20, 20, 9), winners=(0, 1)).winners
        (0, 1)
        >>> Outcome("shared", 1, winners=(0, 1))
        Traceback (most recent call last):
        ...
        ValueError: winner 1 must be the only winner, not one of (0, 1)
    """

    termination: Termination
    winner: int | None
    scores: tuple[int, ...] | None = None
    loser: int | None = None
    winners: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if type(self.termination) is not Termination:
            object.__setattr__(self, "termination", Termination(self.termination))
        winners = tuple(self.winners)
        if self.winner is not None:
            if winners not in ((), (self.winner,)):
                raise ValueError(
                    f"winner {self.winner!r} must be the only winner, not one of {winners!r}"
                )
            winners = (self.winner,)
        elif len(winners) == 1:
            raise ValueError(f"one winner is winner={winners[0]!r}, not winners={winners!r}")
        object.__setattr__(self, "winners", winners)

    def __repr__(self) -> str:
        shared = self.winners if len(self.winners) > 1 else None
        extra = "".join(
            f", {name}={value!r}"
            for name, value in (("scores", self.scores), ("loser", self.loser), ("winners", shared))
            if value is not None
        )
        return f"Outcome(Termination.{self.termination.name}, winner={self.winner!r}{extra})"

    @property
    def reason(self) -> str:
        """The termination's code as a plain string (the record's ``reason``)."""
        return self.termination.value

    def result(self) -> str:
        """The result for people: ``"player 1 wins (five_stones)"`` (players counted from 1).

        >>> Outcome("ply_limit", None).result()
        'no winner (ply_limit)'
        >>> Outcome("shared", None, winners=(0, 2)).result()
        'players 1 and 3 share the win (shared)'
        """
        if len(self.winners) > 1:
            names = " and ".join(str(p + 1) for p in self.winners)
            return f"players {names} share the win ({self.reason})"
        if self.winner is None:
            return f"no winner ({self.reason})"
        return f"player {self.winner + 1} wins ({self.reason})"


@runtime_checkable
class GameView(Protocol[MoveT_co]):
    """What a player (or a spectator) sees of a game: :meth:`GameState.view`."""

    @property
    def to_move(self) -> int:
        """Index of the player whose decision it is."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""
        ...

    @property
    def num_players(self) -> int:
        """How many players the game has."""
        ...

    def is_game_over(self) -> bool:
        """Whether the game has ended."""
        ...

    def legal_moves(self) -> Sequence[MoveT_co]:
        """The viewer's legal moves as far as it can tell."""
        ...


@runtime_checkable
class GameState(Protocol[MoveT]):
    """The protocol every game's state implements in full (see ``docs/protocol.md``).

    Players are numbered from 0 in Python and JSON; sentences for people say
    "player 1", "player 2".
    """

    @property
    def to_move(self) -> int:
        """Index of the player whose decision it is."""
        ...

    @property
    def num_players(self) -> int:
        """How many players the game has."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""
        ...

    @property
    def history(self) -> tuple[MoveT, ...]:
        """The moves played since the start, first to last."""
        ...

    def is_game_over(self) -> bool:
        """Whether the game has ended (by its rules or by a referee's end)."""
        ...

    def legal_moves(self) -> LegalMoves[MoveT]:
        """Every legal move for the player to move (empty once the game is over)."""
        ...

    def parse_move(self, text: str) -> MoveT:
        """Read a move in the game's notation (raises ``InvalidMoveError``)."""
        ...

    def is_legal(self, move: MoveT | str) -> bool:
        """Whether ``move`` may be played now."""
        ...

    def play(self, move: MoveT | str, *, player: int | None = None) -> Self:
        """The state after ``move`` (raises ``IllegalMoveError`` if refused;
        ``player``, when given, must be the player to move: ``not_your_turn``)."""
        ...

    def refusal(self, move: MoveT | str, *, player: int | None = None) -> IllegalMoveError | None:
        """The error :meth:`play` would raise for ``move``, or ``None`` if it is legal."""
        ...

    def status(self) -> tuple[str, ...]:
        """Why no game can reach this position, every reason at once (empty: none)."""
        ...

    def visible_cards(self) -> Counter[Any]:
        """The cards every player sees, counted."""
        ...

    def is_chance_node(self) -> bool:
        """Whether the next ply is chance rather than a player's decision."""
        ...

    def chance_outcomes(self) -> list[tuple[MoveT, float]]:
        """A chance ply's outcomes with their chances (empty at a decision)."""
        ...

    def view(self, player: int | None) -> GameView[MoveT]:
        """What ``player`` sees; ``None``: a spectator, with every hand hidden."""
        ...

    def resign(self, player: int) -> Self:
        """The game ended by ``player``'s resignation."""
        ...

    def end(self, termination: Termination, *, loser: int | None = None) -> Self:
        """The game ended by a referee: resignation, timeout or forfeit of
        ``loser``, or the ply limit (no loser)."""
        ...

    def to_record(self) -> Record:
        """The game so far as a record that ``referee validate`` accepts."""
        ...


@runtime_checkable
class ClaimGame(GameState[MoveT], Protocol[MoveT]):
    """A game whose places (stones, tiles) are claimed with a proof."""

    def claim_verdict(self, place: int, *, player: int | None = None) -> ClaimVerdict:
        """The prover's verdict on ``player`` (default: to move) claiming ``place``."""
        ...


def referee_end(termination: Termination | str, loser: int | None, players: int) -> Outcome:
    """The outcome of a referee's end: the other player of two wins a
    resignation, timeout or forfeit (with more players nobody does); a ply
    limit has no winner. Raises ``ValueError`` for anything else.

    >>> referee_end("timeout", 1, 2)
    Outcome(Termination.TIMEOUT, winner=0, loser=1)
    """
    kind = Termination(termination)
    if kind not in REFEREE_ENDS:
        raise ValueError(
            f"{kind.value!r} is not a referee's end (use resignation, timeout, forfeit or ply_limit)"
        )
    if kind is Termination.PLY_LIMIT:
        if loser is not None:
            raise ValueError("a ply limit has no loser")
        return Outcome(kind, None)
    if isinstance(loser, bool) or not isinstance(loser, int) or not 0 <= loser < players:
        raise ValueError(
            f"a {kind.value} needs the losing player's index (0-{players - 1}), not {loser!r}"
        )
    return Outcome(kind, 1 - loser if players == 2 else None, None, loser)


def referee_result(
    outcome: Outcome | None, plies: int, game_result: Callable[[Outcome], dict[str, Any]]
) -> dict[str, Any] | None:
    """The JSON ``result`` a record carries after ``plies`` moves: none while the
    game goes on, a referee's end (resignation, timeout, forfeit, ply limit) in the
    arena's format, and any other end as the game's own ``game_result``.

        >>> referee_result(Outcome("resignation", 1, loser=0), 12, dict)
        {'winner': 1, 'reason': 'resignation', 'loser': 0}
    """
    if outcome is None:
        return None
    if outcome.termination is Termination.PLY_LIMIT:
        return {"winner": None, "reason": outcome.reason, "plies": plies}
    if outcome.termination in REFEREE_ENDS:
        return {"winner": outcome.winner, "reason": outcome.reason, "loser": outcome.loser}
    return game_result(outcome)


def check_player(player: object, players: int) -> int:
    """``player`` as a player index of a game of ``players`` players, or a
    ``ValueError`` that says which numbers there are (a bool is no player).

    >>> check_player(1, 2)
    1
    >>> check_player(True, 2)
    Traceback (most recent call last):
    ...
    ValueError: no player True: players are numbered 0-1
    """
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise ValueError(f"no player {player!r}: players are numbered 0-{players - 1}")
    return player


def check_rng(rng: object) -> random.Random:
    """``rng`` if it is a :class:`random.Random` (what determinizations draw
    from), else a ``TypeError`` that says how to make one.

    >>> check_rng(7)
    Traceback (most recent call last):
    ...
    TypeError: expected a random.Random (such as random.Random(7)), not 7
    """
    if not isinstance(rng, random.Random):
        hint = f"random.Random({rng!r})" if isinstance(rng, int) else "random.Random(seed)"
        raise TypeError(f"expected a random.Random (such as {hint}), not {rng!r}")
    return rng


def check_max_plies(max_plies: object) -> int | None:
    """``max_plies`` if it is a whole number of plies (0 or more) or ``None``
    (no limit), else a ``ValueError``: what every game's ``playout`` accepts.

    >>> check_max_plies(10), check_max_plies(None)
    (10, None)
    >>> check_max_plies(-1)
    Traceback (most recent call last):
    ...
    ValueError: max_plies must be a whole number of plies or None, not -1
    """
    if max_plies is not None and (type(max_plies) is not int or max_plies < 0):
        raise ValueError(f"max_plies must be a whole number of plies or None, not {max_plies!r}")
    return max_plies


def check_seed(seed: object, *, given: object = None, what: str = "a deck") -> int | None:
    """``seed`` if it is a whole number or ``None``, else an
    :class:`~referee.errors.InvalidDealError`: what every game's ``new_game``
    accepts. ``given``, when not ``None``, is the card order the caller gave
    too (``what`` names it): a seed and an order together are refused.

    >>> check_seed(7), check_seed(None)
    (7, None)
    >>> check_seed(1.0)
    Traceback (most recent call last):
    ...
    referee.errors.InvalidDealError: seed must be a whole number or None, not 1.0
    """
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InvalidDealError("field_type", f"seed must be a whole number or None, not {seed!r}")
    if seed is not None and given is not None:
        raise InvalidDealError("field_type", f"give a seed or {what}, not both")
    return seed


def check_view(view: object, kinds: type | tuple[type, ...], game: str) -> None:
    """Refuse what a ``determinize`` of ``game`` cannot read: ``view`` must be one
    of ``kinds`` (that game's state or view), else a ``TypeError`` that names
    what it got (another game's view is named with its module).

    >>> check_view(7, int, "Counting")
    >>> check_view("R7", int, "Schotten Totten")
    Traceback (most recent call last):
    ...
    TypeError: determinize takes a Schotten Totten view (state.view(player)) or state, not str 'R7'
    """
    if not isinstance(view, kinds):
        kind = type(view)
        if kind.__module__ == "builtins":
            got = f"{kind.__name__} {reprlib.repr(view)}"
        else:
            got = f"a {kind.__module__}.{kind.__qualname__}"
        raise TypeError(f"determinize takes a {game} view (state.view(player)) or state, not {got}")
