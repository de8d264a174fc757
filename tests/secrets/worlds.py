"""Two worlds a player cannot tell apart, and what may be reached from a view.

A *world* is a game replayed through the public ``play()`` API from a deal. Its
twin is the same game with two cards that one viewer has never seen swapped:
in the deal (hands, piles, cards removed at set-up) and in every move that
names them (a recruiter's returns, an exchange offer). Which cards a viewer has
seen is worked out here from the full states of the game, one by one, never
from the views under test: a player sees its own hand at every ply and every
card lying face up (on the table, discarded, played as an action), and, once an
exchange is answered, the cards both sides gave.
"""

from __future__ import annotations

import dataclasses
import gc
import importlib
import random
import types
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from referee import clans_and_glory as cg
from referee import schotten_totten as st
from referee import schotten_totten_2 as st2
from referee.cards import Card
from referee.game import History
from referee.schotten_totten.tactics import Tactic
from referee.schotten_totten_2.moves import ExchangeReply
from referee.schotten_totten_2.wall import TacticCard

#: The card types of every game (a ``Card`` is a clan or siege card).
CARD_TYPES = (Card, Tactic, TacticCard)

Piles = tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class Game:
    """One game and variant, as the tests need it."""

    name: str
    package: str
    #: (seed, first player) -> a start dealt from a seed
    dealt: Callable[[int, int], Any]
    #: start -> its piles, each a tuple of cards in deal order
    piles: Callable[[Any], Piles]
    #: (piles, a start of the same game, salt) -> the start they deal (``salt``
    #: changes what no player may see of the start, such as a deal's chance)
    rebuild: Callable[[Piles, Any, int], Any]
    #: state -> the cards lying face up for everyone
    public: Callable[[Any], Iterable[Any]]
    #: (state, player) -> the cards that player holds or placed face down
    private: Callable[[Any, int], Iterable[Any]]
    players: int = 2

    @property
    def viewers(self) -> tuple[int | None, ...]:
        return (*range(self.players), None)

    def module(self, name: str) -> Any:
        return importlib.import_module(f"{self.package}.{name}")


# --- Schotten Totten ---------------------------------------------------------------------


def _st_piles(start: Any) -> Piles:
    return ((*start.hands[0], *start.hands[1], *start.deck), tuple(start.tactic_deck))


def _st_rebuild(piles: Piles, like: Any, salt: int) -> Any:
    tactics = piles[1] if like.rules.tactics else None
    return st.new_game(deck=piles[0], tactic_deck=tactics, first=like.to_move, rules=like.rules)


def _st_public(state: Any) -> Iterator[Any]:
    for stone in state.stones:
        if stone.style is not None:
            yield stone.style
        for side in stone.sides:
            yield from side
    yield from state.discards


def _st(name: str, rules: st.Rules) -> Game:
    return Game(
        name=name,
        package="referee.schotten_totten",
        dealt=lambda seed, first: st.new_game(seed=seed, first=first, rules=rules),
        piles=_st_piles,
        rebuild=_st_rebuild,
        public=_st_public,
        private=lambda state, p: state.hands[p],
    )


# --- Schotten Totten 2 -------------------------------------------------------------------


def _st2_rebuild(piles: Piles, like: Any, salt: int) -> Any:
    tactics = piles[1] if like.rules.tactics else None
    start = st2.new_game(
        deck=piles[0], tactic_deck=tactics, attacker=like.attacker, rules=like.rules
    )
    # The deal's chance (where a support's cards land) is the referee's secret.
    start = dataclasses.replace(start, chance_seed=salt)
    return dataclasses.replace(start, past=History.begin(start))


def _st2_public(state: Any) -> Iterator[Any]:
    for tile in state.tiles:
        for side in tile.sides:
            yield from side
    yield from state.discards
    for played in state.actions:
        yield from played
    if state.support is not None:
        yield from state.support


def _st2(name: str, rules: st2.Rules) -> Game:
    return Game(
        name=name,
        package="referee.schotten_totten_2",
        dealt=lambda seed, first: st2.new_game(seed=seed, attacker=first, rules=rules),
        piles=_st_piles,
        rebuild=_st2_rebuild,
        public=_st2_public,
        private=lambda state, p: state.hands[p],
    )


# --- Clans and Glory ---------------------------------------------------------------------


def _cg_public(state: Any) -> Iterator[Any]:
    for placed in state.table:
        if placed is not None and placed.face_up:
            yield placed.card


def _cg_private(state: Any, player: int) -> Iterator[Any]:
    yield from state.hands[player]
    for placed in state.table:
        if placed is not None and placed.player == player:
            yield placed.card


def _cg(players: int) -> Game:
    return Game(
        name=f"clans-and-glory {players}",
        package="referee.clans_and_glory",
        dealt=lambda seed, first: cg.new_game(players=players, seed=seed),
        piles=lambda start: (start.deal,),
        rebuild=lambda piles, like, salt: cg.new_game(
            players=players, deck=piles[0], layout=like.layout
        ),
        public=_cg_public,
        private=_cg_private,
        players=players,
    )


GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        _st("schotten-totten 2024", st.Rules()),
        _st("schotten-totten 1999", st.Rules(edition="1999")),
        _st("schotten-totten early-bird", st.Rules(early_bird=True)),
        _st("schotten-totten tactics", st.Rules(tactics=True)),
        _st("schotten-totten tactics early-bird", st.Rules(tactics=True, early_bird=True)),
        _st2("schotten-totten-2", st2.Rules()),
        _st2("schotten-totten-2 tactics", st2.Rules(tactics=True)),
        _cg(2),
        _cg(3),
        _cg(4),
    )
}

# --- playing ---------------------------------------------------------------------------

#: Moves that make the game's secrets interesting: tactic cards, ruses, actions.
_PLAIN_MOVES = {"PlayCard", "Draw", "EndTurn", "Pass", "Claim", "Control", "Retreat", "Oil"}
#: Phases where a secret is in the middle of being made.
_SECRET_PHASES = {"recruit_return", "after_recruit", "shuffle", "exchange"}


def _special(move: Any) -> bool:
    name = type(move).__name__
    if name == "PlayCard":
        return type(move.card) is not Card
    return name not in _PLAIN_MOVES


def random_game(game: Game, seed: int, first: int, plies: int, stop_at_secret: bool) -> Any:
    """A game dealt from ``seed`` and played ``plies`` plies (or to its end) with
    random legal moves, preferring tactic cards and ruses; with ``stop_at_secret``
    it stops at the first phase after ``plies % 100`` plies where a secret is
    being made (a pending exchange, a recruiter's return, a support's shuffle),
    if one comes."""
    rng = random.Random(seed)
    state = game.dealt(seed, first)
    played = 0
    if stop_at_secret:
        plies %= 100  # the first secret after that, not the end of the game
    while not state.is_game_over():
        phase = getattr(getattr(state, "phase", None), "value", None)
        if played >= plies and (not stop_at_secret or phase in _SECRET_PHASES):
            break
        moves = list(state.legal_moves())
        special = [m for m in moves if _special(m)]
        state = state.play(rng.choice(special if special and rng.random() < 0.6 else moves))
        played += 1
    return state


def moves_of(state: Any) -> tuple[Any, ...]:
    return tuple(state.history)


def start_of(game: Game, state: Any) -> Any:
    """The start a full state was dealt from (its deal rebuilt for Clans and Glory)."""
    if game.package == "referee.clans_and_glory":
        return game.rebuild(game.piles(state), state, 0)
    start = state.past.start
    assert start is not None, "a full state knows its start"
    return start


def replay(start: Any, moves: Sequence[Any]) -> list[Any]:
    """Every state from ``start`` on, through the public ``play()``."""
    states = [start]
    for move in moves:
        states.append(states[-1].play(move))
    return states


def seen_by(
    game: Game, states: Sequence[Any], moves: Sequence[Any], viewer: int | None
) -> set[Any]:
    """Every card ``viewer`` (``None``: a spectator) has seen along ``states``."""
    seen: set[Any] = set()
    for i, state in enumerate(states):
        seen.update(game.public(state))
        if viewer is not None:
            seen.update(game.private(state, viewer))
        if i < len(moves) and type(moves[i]) is ExchangeReply:
            # an answered exchange shows both sides' three cards to everyone
            seen.update(state.exchange or ())
            seen.update(moves[i].give)
    return seen


def secret_cards(game: Game, start: Any, seen: set[Any]) -> list[Any]:
    """The cards of the deal that ``seen`` misses, each one of a kind (a second
    joker cannot be told from the first, so jokers are never swapped)."""
    cards = [card for pile in game.piles(start) for card in pile]
    counts = Counter(cards)
    return sorted(
        (c for c in counts if counts[c] == 1 and c not in seen),
        key=lambda c: (str(type(c)), str(c)),
    )


def _swapped(value: Any, x: Any, y: Any) -> Any:
    if isinstance(value, CARD_TYPES):
        return y if value == x else x if value == y else value
    if type(value) is tuple:
        return tuple(_swapped(v, x, y) for v in value)
    return value


def cards_named(move: Any) -> Iterator[Any]:
    """Every card ``move`` names."""
    for f in dataclasses.fields(move):
        value = getattr(move, f.name)
        for item in value if type(value) is tuple else (value,):
            if isinstance(item, CARD_TYPES):
                yield item


def swap_move(move: Any, x: Any, y: Any) -> Any:
    """``move`` with the cards ``x`` and ``y`` swapped wherever it names them."""
    changes = {}
    for f in dataclasses.fields(move):
        value = getattr(move, f.name)
        new = _swapped(value, x, y)
        if new != value or type(new) is not type(value):
            changes[f.name] = new
    return dataclasses.replace(move, **changes) if changes else move


def swap_piles(piles: Piles, x: Any, y: Any) -> Piles:
    return tuple(tuple(_swapped(card, x, y) for card in pile) for pile in piles)


@dataclass(frozen=True)
class Twins:
    """A game (``real``) and its twin (``twin``), the same for ``viewer``; the cards
    ``viewer`` never saw (``secrets``) and the pair swapped."""

    real: Any
    twin: Any
    viewer: int | None
    secrets: tuple[Any, ...]
    swapped: tuple[Any, Any]


def twins(
    game: Game, state: Any, viewer: int | None, pick: int, salts: tuple[int, int]
) -> Twins | None:
    """``state`` replayed from its deal, and the same game with two cards
    ``viewer`` never saw swapped (``pick`` chooses which two); ``None`` when no
    such pair can be swapped and still replay."""
    start = start_of(game, state)
    moves = moves_of(state)
    states = replay(start, moves)
    seen = seen_by(game, states, moves, viewer)
    secrets = secret_cards(game, start, seen)
    pairs = [(x, y) for i, x in enumerate(secrets) for y in secrets[i + 1 :] if type(x) is type(y)]
    if not pairs:
        return None
    random.Random(pick).shuffle(pairs)
    if pick % 2:
        # Half the time, a secret card some move names comes first (a card the
        # opponent put back with the recruiter, an offer not yet answered, a
        # card placed face down): the moves must hide it too.
        named = {card for move in moves for card in cards_named(move)}
        pairs.sort(key=lambda pair: pair[0] not in named and pair[1] not in named)
    piles = game.piles(start)
    real = replay(game.rebuild(piles, start, salts[0]), moves)[-1]
    for x, y in pairs[:20]:
        try:
            other = replay(
                game.rebuild(swap_piles(piles, x, y), start, salts[1]),
                [swap_move(m, x, y) for m in moves],
            )
        except ValueError:
            continue  # the swap changed a hidden hand's options: another pair
        twin = other[-1]
        # the test's own premise: the twin's viewer saw exactly what the real one's did
        assert seen_by(game, other, moves_of(twin), viewer) == seen
        return Twins(real, twin, viewer, tuple(secrets), (x, y))
    return None


# --- what a view reaches ---------------------------------------------------------------

_LEAVES = (type, types.ModuleType, str, bytes, int, float, complex, bool, type(None))


def reachable(root: object) -> Iterator[object]:
    """Every object reachable from ``root`` through references (``gc``), except
    through classes and modules (the library's code, shared by everyone): of a
    function only its closure and defaults are followed, not its globals."""
    stack = [root]
    visited: set[int] = set()
    keep: list[object] = []  # ids stay unique while the walk runs
    while stack:
        obj = stack.pop()
        if id(obj) in visited:
            continue
        visited.add(id(obj))
        keep.append(obj)
        yield obj
        if isinstance(obj, _LEAVES):
            continue
        if isinstance(obj, types.FunctionType):
            stack.extend(c.cell_contents for c in obj.__closure__ or ())
            stack.extend(obj.__defaults__ or ())
            continue
        if isinstance(obj, types.MethodType):
            stack.append(obj.__self__)
            continue
        stack.extend(gc.get_referents(obj))
