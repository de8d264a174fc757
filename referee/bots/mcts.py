"""The search reference bot: information-set Monte Carlo tree search over action ids.

:class:`MCTS` searches one tree over what its player knows (single-observer
information-set MCTS, after Cowling, Powley and Whitehouse, 2012). Each
iteration deals the unseen cards anew (the game's ``determinize``: a full
state its player cannot tell from the view), walks down the tree along the
moves that this deal allows, choosing by UCB1 with availability counts,
adds one node, plays the game out to its end and credits every node on the
way with the result of the player who moved into it. Children are keyed by
the game's action ids (:mod:`referee.actions`), so the same move is the same
child whichever deal the iteration drew. After the budget (iterations, seconds
or both) the most visited move at the root is played.

Chance plies (:meth:`is_chance_node`, Schotten Totten 2's shuffle) are drawn
with the game's ``chance`` and are not nodes of the tree; the other draws are
in the deal. Playouts use the game's fast ``playout`` where its descriptor
has one (every bundled game), else a loop over ``legal_moves()`` and ``play()``
that claims whatever can be claimed and otherwise plays the best of three
random moves by the greedy bot's liking (a card where the player's cards
there share its colour or run on from it).

With an iteration budget (and no time budget) the search is deterministic:
the same view, the same ``rng`` state, the same move.

>>> import random
>>> from referee import schotten_totten as st
>>> view = st.new_game(seed=1).view(0)
>>> bot = MCTS(iterations=30)
>>> move = bot.choose(view, random.Random(7), None)
>>> move in view.legal_moves(), move == bot.choose(view, random.Random(7), None)
(True, True)
>>> MCTS(iterations=0)
Traceback (most recent call last):
...
ValueError: iterations must be a whole number of at least 1, not 0
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.bots._adapter import check_time_left, legal_moves_of
from referee.cards import Card
from referee.games import GameDescriptor, descriptor_of

if TYPE_CHECKING:
    from referee.arena import Turn
    from referee.game import Outcome

__all__ = ["DEFAULT_SECONDS", "MAX_ITERATIONS", "MAX_SECONDS", "MCTS", "bot", "choose"]

#: Seconds :func:`choose` (and ``MCTS()`` without a budget) thinks about a move.
DEFAULT_SECONDS = 0.5
#: The largest iteration budget (a bound against a typing slip).
MAX_ITERATIONS = 10_000_000
#: The largest time budget per move, in seconds (one day).
MAX_SECONDS = 86_400.0
#: Plies after which a playout is cut short and scored as a draw (no game is this long).
_MAX_PLAYOUT_PLIES = 2000
#: Moves a playout plays at once when it can (claims: they only ever help the claimer).
_CLAIMS = frozenset({"Claim", "Control"})


def _check_iterations(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ITERATIONS:
        raise ValueError(f"iterations must be a whole number of at least 1, not {value!r}")
    return value


def _check_seconds(name: str, value: object, high: float) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or math.isnan(value)
        or not 0 < value <= high
    ):
        raise ValueError(
            f"{name} must be a number of seconds above 0 and at most {high:g}, not {value!r}"
        )
    return float(value)


class _Node:
    """A node of the tree: the player who moved into it, its visits, its
    availability (how often its move was legal when its parent was reached),
    the sum of its mover's results, and its children by action id."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[int, _Node] = {}


def _points(outcome: Outcome | None, players: int) -> tuple[float, ...]:
    """Each player's result as the arena counts it: 1 for a sole winner, ½ for
    a shared win, ½ each when nobody wins, else 0."""
    winners = () if outcome is None else tuple(outcome.winners)
    if not winners:
        return (0.5,) * players
    share = 1.0 if len(winners) == 1 else 0.5
    return tuple(share if p in winners else 0.0 for p in range(players))


class MCTS:
    """A search bot with a budget of ``iterations`` per move, ``seconds`` per
    move, or both (it stops at the first reached; at least one iteration is
    always run); neither: :data:`DEFAULT_SECONDS`. ``exploration`` is UCB1's
    constant (results count 0 to 1). ``name`` names it in the arena.

    An instance is both forms of a bot: ``bot.choose(view, rng, time_left)``,
    and ``bot(turn)`` for :func:`referee.arena.play_match`. With a game clock
    (``time_left`` not ``None``) it never thinks more than a twentieth of the
    time left on one move. ``clock`` is what the time budget is read from:
    wall time by default; ``time.process_time`` counts only this process's CPU
    time (for a benchmark on a machine shared with other work).

    >>> from referee.arena import play_game
    >>> from referee.bots import greedy_bot
    >>> result = play_game([MCTS(iterations=20), greedy_bot], "clans-and-glory", seed=2)
    >>> result.names, result.reason
    (('mcts', 'greedy'), 'most_points')
    >>> MCTS(seconds=-1)
    Traceback (most recent call last):
    ...
    ValueError: seconds must be a number of seconds above 0 and at most 86400, not -1
    """

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        *,
        exploration: float = 0.7,
        name: str = "mcts",
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if iterations is None and seconds is None:
            seconds = DEFAULT_SECONDS
        self.iterations = None if iterations is None else _check_iterations(iterations)
        self.seconds = None if seconds is None else _check_seconds("seconds", seconds, MAX_SECONDS)
        if (
            isinstance(exploration, bool)
            or not isinstance(exploration, (int, float))
            or not 0 <= exploration < math.inf
        ):
            raise ValueError(f"exploration must be a number of at least 0, not {exploration!r}")
        self.exploration = float(exploration)
        if not isinstance(name, str) or not name:
            raise ValueError(f"a bot's name is a non-empty string, not {name!r}")
        self.__name__ = name
        if not callable(clock):
            raise TypeError(f"clock must be a function that returns seconds, not {clock!r}")
        self.clock = clock
        #: Iterations the last search ran (for benchmarks and curious authors).
        self.last_iterations = 0

    def __repr__(self) -> str:
        return (
            f"MCTS(iterations={self.iterations!r}, seconds={self.seconds!r}, "
            f"exploration={self.exploration!r}, name={self.__name__!r}, clock={self.clock!r})"
        )

    def __call__(self, turn: Turn) -> Any:
        """The arena's form: the move for ``turn`` (reads its view, rng and clock only)."""
        return self.choose(turn.view, turn.rng, turn.time_left)

    def choose(self, view: Any, rng: random.Random, time_left: float | None = None) -> Any:
        """The move of ``view``'s player after a search within the budget
        (a move forced by the rules is played at once, drawing nothing from ``rng``)."""
        left = check_time_left(time_left)
        moves = legal_moves_of(view, rng)
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        game = descriptor_of(view)
        if game is None or game.determinize is None or game.action_space is None:
            raise TypeError(f"MCTS needs a game with determinize and action ids, not {view!r:.80}")
        seconds = self.seconds
        if left is not None:
            seconds = min(left / 20, seconds if seconds is not None else math.inf)
        return _Search(game, view, moves, random.Random(rng.getrandbits(64)), self.exploration).run(
            self.iterations, seconds, self
        )


class _Search:
    """One search from one view."""

    def __init__(
        self,
        game: GameDescriptor[Any],
        view: Any,
        moves: list[Any],
        rng: random.Random,
        exploration: float,
    ) -> None:
        assert game.action_space is not None and game.determinize is not None
        self.view = view
        self.rng = rng
        self.space = game.action_space(view)
        self.determinize = game.determinize
        self.chance = game.chance
        self.playout = game.playout
        self.players: int = view.num_players
        self.exploration = exploration
        self.root = _Node(-1)
        self.root_moves = {self.space.action_of(m): m for m in moves}

    def run(self, iterations: int | None, seconds: float | None, owner: MCTS) -> Any:
        clock = owner.clock
        deadline = None if seconds is None else clock() + seconds
        done = 0
        while done == 0 or (
            (iterations is None or done < iterations) and (deadline is None or clock() < deadline)
        ):
            self.iterate()
            done += 1
        owner.last_iterations = done
        children = self.root.children
        # The most visited move; ties to the better average, then the lower id.
        best = max(
            children,
            key=lambda a: (children[a].visits, children[a].total / max(1, children[a].visits), -a),
        )
        return self.root_moves[best]

    def _chance(self, state: Any) -> Any:
        if self.chance is not None:
            move = self.chance(state, self.rng)
            if move is not None:
                return move
        outcomes = state.chance_outcomes()
        moves = [m for m, _ in outcomes]
        weights = [p for _, p in outcomes]
        return self.rng.choices(moves, weights)[0]

    def iterate(self) -> None:
        rng, space, c = self.rng, self.space, self.exploration
        state = self.determinize(self.view, rng)
        node = self.root
        path = []
        while state.outcome is None:
            if state.is_chance_node():
                state = state.play(self._chance(state))
                continue
            moves = _listed(state)
            ids = [space.action_of(m) for m in moves]
            if node is self.root:
                # The deal cannot change the root player's own moves; keep to the view's.
                keep = [k for k, a in enumerate(ids) if a in self.root_moves]
                moves, ids = [moves[k] for k in keep], [ids[k] for k in keep]
            if not ids:
                break  # (never for the bundled games) play out from here
            children = node.children
            untried = []
            for k, a in enumerate(ids):
                child = children.get(a)
                if child is None:
                    untried.append(k)
                else:
                    child.avail += 1
            if untried:
                k = untried[rng.randrange(len(untried))]
                child = _Node(state.to_move)
                child.avail = 1
                children[ids[k]] = child
                state = state.play(moves[k])
                path.append(child)
                break
            best_k, best_value = 0, -math.inf
            for k, a in enumerate(ids):
                child = children[a]
                value = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if value > best_value:
                    best_k, best_value = k, value
            node = children[ids[best_k]]
            state = state.play(moves[best_k])
            path.append(node)
        points = _points(self.rollout(state), self.players)
        for node in path:
            node.visits += 1
            node.total += points[node.mover]

    def rollout(self, state: Any) -> Outcome | None:
        """The outcome of ``state`` played to its end (``None``: cut short)."""
        if state.outcome is not None:
            return state.outcome  # type: ignore[no-any-return]
        if self.playout is not None:
            return self.playout(state, self.rng)
        rng = self.rng
        sample = _SAMPLE
        for _ in range(_MAX_PLAYOUT_PLIES):
            if state.is_chance_node():
                state = state.play(self._chance(state))
            else:
                moves = _listed(state)
                move = moves[0]  # the line games list their claims first
                if type(move).__name__ not in _CLAIMS:
                    n = len(moves)
                    move = moves[rng.randrange(n)] if n > 1 else move
                    if sample > 1 and n > 1:
                        best = _line_score(state, move)
                        for _ in range(sample - 1):
                            other = moves[rng.randrange(n)]
                            value = _line_score(state, other)
                            if value > best:
                                move, best = other, value
                state = state.play(move)
            if state.outcome is not None:
                return state.outcome  # type: ignore[no-any-return]
        return None


def _listed(state: Any) -> list[Any]:
    """The legal moves of a full state, as a new list."""
    generate = getattr(state, "generate_legal_moves", None)
    moves: list[Any] = generate() if generate is not None else list(state.legal_moves())
    return moves


#: Moves a line game's playout draws at random before it plays the one
#: :func:`_line_score` likes best (1: uniform playouts). Three won 16 of 20
#: Schotten Totten games against greedy where uniform playouts won 13, at 300
#: iterations a move on the same deals.
_SAMPLE = 3


def _line_score(state: Any, move: Any) -> float:
    """The greedy bot's liking for ``move`` in a line game, read from objects."""
    if type(move).__name__ != "PlayCard":
        return 1.0
    card = move.card
    if type(card) is not Card:
        return 1.0
    place: int = getattr(move, "stone", None) or move.tile
    places = getattr(state, "stones", None) or state.tiles
    colour, value = card
    score = float(value)
    for other in places[place - 1].sides[state.to_move]:
        if type(other) is Card:
            if other.colour == colour:
                score += 4
            step = other.value - value
            if step == 0:
                score += 5
            elif step in (1, -1):
                score += 3
    return score


#: The default search bot (:data:`DEFAULT_SECONDS` a move) in the arena's form.
bot = MCTS()


def choose(view: Any, rng: random.Random, time_left: float | None = None) -> Any:
    """The default search bot's move (:data:`DEFAULT_SECONDS` a move, at most a
    twentieth of ``time_left``): the program form, ``referee.bots.mcts:choose``."""
    return bot.choose(view, rng, time_left)
