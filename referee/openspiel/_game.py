"""The OpenSpiel game and state over any of the library's games (see :mod:`referee.openspiel`).

The library's state plays every move. This module adds what OpenSpiel needs
on top: the deal and every draw as chance nodes (one card at a time), action
ids from the game's action space, the players' strings and tensors from their
views, and returns from the outcome.

A draw is chance at the moment a card is drawn: the state under the adapter
keeps its piles in some order, and when a move draws from the unseen part of a
pile the adapter first asks chance for each card drawn, moves the card chosen
to the place drawn from (swapping it with an unseen card: the unseen part's
order is nobody's knowledge) and only then plays the move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyspiel

from referee.game import Termination
from referee.openspiel._tables import HIDDEN, PUBLIC, TABLES, Table

__all__ = ["RefereeGame", "RefereeState", "register"]


@dataclass(frozen=True, slots=True)
class _Step:
    """One ply of the library's game: the state before, the move, the state after."""

    parent: _Step | None
    before: Any
    move: Any
    after: Any


@dataclass(frozen=True, slots=True)
class _Node:
    """Everything an OpenSpiel state holds, immutable (a clone shares it).

    ``game`` is the library's state (``None`` while the deal goes on; the
    cards dealt so far are ``dealt``). ``pending`` is a move waiting for its
    draws, ``slots`` the ``(pile, place)`` of each draw chance still has to
    decide. ``placed`` are the cards whose place in a pile is known (Schotten
    Totten 2's support). ``plies`` counts the players' decisions, ``steps``
    the library's plies so far.
    """

    game: Any = None
    dealt: tuple[Any, ...] = ()
    pending: Any = None
    slots: tuple[tuple[int, int], ...] = ()
    placed: frozenset[Any] = frozenset()
    plies: int = 0
    steps: _Step | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self  # immutable: OpenSpiel's clone deep-copies every attribute


def _cards(cards: Sequence[Any] | None) -> str:
    return " ".join(sorted(map(str, cards or ())))


class RefereeGame(pyspiel.Game):
    """One of the library's games as an OpenSpiel game (made by ``pyspiel.load_game``)."""

    #: The game's short name (each registered game is a subclass that sets it).
    short_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        short_name = self.short_name
        params = dict(params or {})
        _long_name, defaults, make, _players = TABLES[short_name]
        unknown = sorted(set(params) - set(defaults))
        if unknown:
            raise ValueError(f"{short_name} has no parameter {unknown[0]!r}")
        table: Table = make({**defaults, **params})
        self.table = table
        zero_sum = table.zero_sum
        super().__init__(
            _game_type(short_name, zero_sum=zero_sum),
            pyspiel.GameInfo(
                num_distinct_actions=table.space(
                    table.start(table.pool[: len(table.slots)])
                ).num_actions,
                max_chance_outcomes=table.max_chance_outcomes,
                num_players=table.players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if zero_sum else None,
                max_game_length=table.max_game_length,
            ),
            {**defaults, **params},
        )
        self._first = _Node()

    def new_initial_state(self) -> RefereeState:
        """A new game, before its deal."""
        return RefereeState(self, self._first)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        """The observer of a player's information state (``perfect_recall``) or
        observation; only a player's own view is offered."""
        if params:
            raise ValueError(f"the referee's games take no observation parameters, not {params!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "the referee's games observe from one player's view only "
                "(public_info=True, private_info=SINGLE_PLAYER)"
            )
        return _Observer(self.table, perfect_recall=bool(iig_obs_type.perfect_recall))


class RefereeState(pyspiel.State):
    """A position of an OpenSpiel referee game; :attr:`game` is the library's state."""

    def __init__(self, game: RefereeGame, node: _Node) -> None:
        super().__init__(game)
        self._table = game.table
        self._node = node

    # -- what the adapter adds -----------------------------------------------------------

    @property
    def game(self) -> Any:
        """The library's state (``None`` during the deal). While a move waits
        for its draws it is the state before that move."""
        return self._node.game

    def _space(self) -> Any:
        return self._table.space(self._node.game)

    def _candidates(self) -> tuple[str, list[int]]:
        """The pending draw's pile name and the places chance picks its card from."""
        node, table = self._node, self._table
        pile_no, place = node.slots[0]
        name = table.piles[pile_no]
        pile = getattr(node.game, name)
        fixed = table.fixed(node.game, pile_no, node.placed)
        return name, [i for i in range(place, len(pile)) if i not in fixed]

    # -- OpenSpiel's interface ------------------------------------------------------------

    def current_player(self) -> int:
        node = self._node
        game = node.game
        if game is None or node.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if game.is_game_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if game.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        return int(game.to_move)

    def is_terminal(self) -> bool:
        game = self._node.game
        return game is not None and self._node.pending is None and bool(game.is_game_over())

    def _legal_actions(self, player: int) -> list[int]:
        from referee.actions import legal_actions

        return legal_actions(self._space(), self._node.game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node, table = self._node, self._table
        if node.game is None:
            left = sorted(table.kind_id(c) for c in table.pool if c not in set(node.dealt))
            return [(kind, 1.0 / len(left)) for kind in left]
        if node.pending is not None:
            name, places = self._candidates()
            pile = getattr(node.game, name)
            counts = Counter(table.kind_id(pile[i]) for i in places)
            return [(kind, n / len(places)) for kind, n in sorted(counts.items())]
        return sorted((table.chance_id(move), p) for move, p in node.game.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        node, table = self._node, self._table
        if node.game is None:
            dealt = (*node.dealt, table.kinds[action])
            if len(dealt) < len(table.slots):
                self._node = replace(node, dealt=dealt)
            else:
                self._node = replace(node, dealt=dealt, game=table.start(dealt))
        elif node.pending is not None:
            self._draw(table.kinds[action])
        elif node.game.is_chance_node():
            move = table.chance_move(action)
            placed = table.placed_after(node.placed, node.game, move)
            self._node = replace(node, placed=placed)
            self._step(node.game, move)
        else:
            self._decide(int(action))

    def _decide(self, action: int) -> None:
        """A player's move: played at once, or kept until chance draws its cards."""
        node, table = self._node, self._table
        game = node.game
        move = self._space().move_of(action)
        after = game.play(move)
        slots: list[tuple[int, int]] = []
        for pile_no, name in enumerate(table.piles):
            drawn = getattr(game, name + "_size") - getattr(after, name + "_size")
            fixed = table.fixed(game, pile_no, node.placed)
            slots.extend((pile_no, place) for place in range(drawn) if place not in fixed)
        self._node = replace(node, plies=node.plies + 1)
        if slots:
            self._node = replace(self._node, pending=move, slots=tuple(slots))
        else:
            self._step(game, move, after)

    def _draw(self, card: Any) -> None:
        """Chance's card for the pending draw: put in its place, then the move played
        once every draw is decided."""
        node, table = self._node, self._table
        name, places = self._candidates()
        pile = list(getattr(node.game, name))
        place = node.slots[0][1]
        at = next(i for i in places if table.kinds[table.kind_id(pile[i])] == card)
        pile[place], pile[at] = pile[at], pile[place]
        game = replace(node.game, **{name: tuple(pile)})
        if node.slots[1:]:
            self._node = replace(node, game=game, slots=node.slots[1:])
        else:
            self._node = replace(node, game=game, pending=None, slots=())
            self._step(game, node.pending)

    def _step(self, before: Any, move: Any, after: Any = None) -> None:
        """Record the library's ply ``move`` from ``before``; a game still going at
        the ply limit ends there (a bound never reached in play: see the docs)."""
        if after is None:
            after = before.play(move)
        node = self._node
        if node.plies >= self._table.max_game_length and not after.is_game_over():
            after = after.end(Termination.PLY_LIMIT)
        self._node = replace(node, game=after, steps=_Step(node.steps, before, move, after))

    def _action_to_string(self, player: int, action: int) -> str:
        node, table = self._node, self._table
        if player != pyspiel.PlayerId.CHANCE:
            return str(self._space().move_of(action))
        if node.game is None:
            receiver = table.slots[len(node.dealt)]
            card = table.kinds[action]
            if receiver == HIDDEN:
                return f"remove {card} face down"
            if receiver == PUBLIC:
                return f"start card {card}"
            return f"deal {card} to player {receiver + 1}"
        if node.pending is not None:
            return f"draw {table.kinds[action]}"
        return str(table.chance_move(action))

    def returns(self) -> list[float]:
        game = self._node.game
        if not self.is_terminal():
            return [0.0] * self._table.players
        return list(self._space().rewards(game))

    def __str__(self) -> str:
        node = self._node
        if node.game is None:
            return f"dealing: {' '.join(map(str, node.dealt))}"
        text = str(node.game)
        if node.pending is not None:
            text += f"\n(drawing for {node.pending})"
        return text

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> RefereeState:
        """A state ``player_id`` cannot tell from this one: the same information
        state, the cards it never saw drawn again (OpenSpiel's information-set
        searches call it). ``probability_sampler()`` gives a float in [0, 1)
        that seeds the draw, so a seeded sampler gives the same state again."""
        from referee.openspiel._resample import resample

        return resample(self, player_id, probability_sampler)

    # -- what a player knows ------------------------------------------------------------

    def information_state_text(self, player: int) -> str:
        """``player``'s information state: every move as it saw it and its hand
        whenever the hand changed, from the deal on (perfect recall)."""
        node, table = self._node, self._table
        head = f"player {player + 1}"
        if node.game is None:
            mine = [
                c for c, r in zip(node.dealt, table.slots, strict=False) if r in (player, PUBLIC)
            ]
            return f"{head}\ndealt: {_cards(mine)}"
        steps: list[_Step] = []
        step = node.steps
        while step is not None:
            steps.append(step)
            step = step.parent
        steps.reverse()
        first = steps[0].before if steps else node.game
        lines = [head, f"hand: {_cards(first.hands[player])}"]
        for text, hand in zip(
            _seen(table, node.game, steps, player), _hands(first, steps, player), strict=False
        ):
            lines.append(text if hand is None else f"{text} | hand: {hand}")
        return "\n".join(lines)

    def observation_text(self, player: int) -> str:
        """What ``player`` sees now: its view as the game's text."""
        node, table = self._node, self._table
        if node.game is None:
            mine = [
                c for c, r in zip(node.dealt, table.slots, strict=False) if r in (player, PUBLIC)
            ]
            return f"dealing; dealt to player {player + 1}: {_cards(mine)}"
        return str(table.descriptor.text(node.game.view(player)))

    def observation_values(self, player: int) -> tuple[int, ...]:
        """``player``'s observation as the action space encodes it (all 0 during the deal)."""
        node = self._node
        if node.game is None:
            return ()
        return tuple(self._space().observation(node.game, player))


def _seen(table: Table, game: Any, steps: Sequence[_Step], player: int) -> list[str]:
    """The library's plies as ``player`` saw them (the game's commentary says
    how where it knows, else the view's history)."""
    moves = [str(step.move) for step in steps]
    told = table.descriptor.commentary.seen_moves([s.before for s in steps], moves, player)
    if told is not None:
        return list(told)
    return [str(move) for move in game.view(player).history]


def _hands(first: Any, steps: Sequence[_Step], player: int) -> list[str | None]:
    """``player``'s hand after each ply where it changed, else ``None``."""
    out: list[str | None] = []
    last = first.hands[player]
    for step in steps:
        hand = step.after.hands[player]
        out.append(None if hand == last else _cards(hand))
        last = hand
    return out


class _Observer:
    """OpenSpiel's Python observer: a player's information state or observation."""

    def __init__(self, table: Table, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        start = table.start(table.pool[: len(table.slots)])
        size = table.space(start).observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RefereeState, player: int) -> None:
        values = state.observation_values(player)
        self.tensor.fill(0)
        if values:
            self.tensor[:] = values

    def string_from(self, state: RefereeState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.observation_text(player)


def _game_type(short_name: str, *, zero_sum: bool) -> Any:
    long_name, defaults, _make, (low, high) = TABLES[short_name]
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


#: The class registered for each game (a class, not a function: OpenSpiel keeps
#: its creators until the process ends, and a class outlives the interpreter's
#: teardown where a function would be freed without the GIL and abort the exit).
GAME_CLASSES: dict[str, type[RefereeGame]] = {
    short_name: type(
        "".join(part.title() for part in short_name.split("_")[1:]) + "Game",
        (RefereeGame,),
        {"short_name": short_name, "__module__": __name__},
    )
    for short_name in TABLES
}


def register() -> None:
    """Register every game with OpenSpiel (once; later calls do nothing)."""
    known = set(pyspiel.registered_names())
    for short_name, game_class in GAME_CLASSES.items():
        if short_name not in known:
            zero_sum = game_class().table.zero_sum
            pyspiel.register_game(_game_type(short_name, zero_sum=zero_sum), game_class)
