"""The arena's adapter over a game: :class:`ArenaGame`, built from the game's descriptor.

Everything the arena needs from a game goes through :class:`ArenaGame`: dealing a
game from a seed, the state before the first move (built by the records layer,
so a record of the game replays exactly), a seat's view as JSON, the legal moves
a seat may be offered (computed on its view, so they reveal nothing hidden), the
visible text of a move for each seat, and chance plies the referee plays itself.

The adapter of a game is its descriptor's ``arena`` (a subclass that writes
views faster or hides parts of moves), else :class:`ArenaGame` itself, which
plays any game from its descriptor alone (see :mod:`referee.games`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from referee.games import GameDescriptor, find_game
from referee.records import Record, RecordError
from referee.records._registry import GameFormat

__all__ = [
    "ArenaGame",
    "arena_game",
    "cards_json",
    "compact_json",
    "json_text",
    "move_json",
    "move_text",
    "moves_json",
    "number_json",
    "numbers_json",
]

_TEXTS: dict[Any, str] = {}
_MAX_TEXTS = 200_000


def move_text(move: Any) -> str:
    """``str(move)``, remembered: the same few hundred moves are written again and again.

    >>> from referee.schotten_totten import parse_move
    >>> move_text(parse_move("R7@3"))
    'R7@3'
    """
    text = _TEXTS.get(move)
    if text is None:
        text = str(move)
        if len(_TEXTS) >= _MAX_TEXTS:
            _TEXTS.clear()
        _TEXTS[move] = text
    return text


_QUOTED: dict[str, str] = {}


def json_text(text: str) -> str:
    """``json.dumps(text)``, remembered (card and move texts come back every turn).

    >>> print(json_text("R7@3"), json_text("café"))
    "R7@3" "caf\\u00e9"
    """
    quoted = _QUOTED.get(text)
    if quoted is None:
        quoted = json.dumps(text)
        if len(_QUOTED) >= _MAX_TEXTS:
            _QUOTED.clear()
        _QUOTED[text] = quoted
    return quoted


#: Most objects kept by identity (they live as long as they are kept).
_MAX_KEPT = 20_000
_MOVES_JSON: dict[int, tuple[Any, str]] = {}
_CARDS_JSON: dict[int, tuple[Any, str]] = {}


def moves_json(moves: Sequence[Any]) -> str:
    """The JSON list of the texts of ``moves``, without its brackets.

    Games hand out the same move objects again and again (a card's plays are
    built once), so each object's quoted text is kept by identity: cheaper than
    hashing the move. The object is kept with it, so its id is not reused.

    >>> from referee.schotten_totten import parse_move
    >>> print(moves_json([parse_move("R7@3"), parse_move("draw")]))
    "R7@3","draw"
    """
    return _texts_json(_MOVES_JSON, moves)


def move_json(move: Any) -> str:
    """The quoted text of one move, kept by identity like :func:`moves_json`.

    >>> from referee.schotten_totten import parse_move
    >>> print(move_json(parse_move("R7@3")))
    "R7@3"
    """
    pair = _MOVES_JSON.get(id(move))
    if pair is None:
        return _texts_json(_MOVES_JSON, (move,))
    return pair[1]


def cards_json(cards: Sequence[Any]) -> str:
    """The JSON list of the texts (``str``) of ``cards``, without its brackets
    (kept by identity, like :func:`moves_json`: a game's cards are made once).

    >>> from referee.cards import Card
    >>> print(cards_json([Card("R", 7), Card("B", 1)]))
    "R7","B1"
    """
    return _texts_json(_CARDS_JSON, cards)


def _texts_json(kept: dict[int, tuple[Any, str]], items: Sequence[Any]) -> str:
    try:
        # A kept id is a live object's (the entry holds the object), so no other
        # object can have it meanwhile.
        return ",".join([pair[1] for pair in map(kept.__getitem__, map(id, items))])
    except KeyError:  # an object not seen yet
        pass
    if len(kept) > _MAX_KEPT:
        kept.clear()
    texts = []
    for item in items:
        pair = kept.get(id(item))
        if pair is None:
            pair = kept[id(item)] = (item, json_text(str(item)))
        texts.append(pair[1])
    return ",".join(texts)


def compact_json(data: Any) -> str:
    """``data`` as compact JSON text, as the protocol sends it.

    >>> print(compact_json({"to_move": 0, "hand": ["R7"]}))
    {"to_move":0,"hand":["R7"]}
    """
    return json.dumps(data, separators=(",", ":"))


def number_json(value: Any) -> str:
    """``compact_json(value)``, quicker for a plain int.

    >>> number_json(3), number_json(None)
    ('3', 'null')
    """
    return str(value) if type(value) is int else compact_json(value)


def numbers_json(values: Sequence[Any]) -> str:
    """``compact_json(list(values))``, quicker for plain ints.

    >>> numbers_json((6, 5))
    '[6,5]'
    """
    if all(type(v) is int for v in values):
        return "[" + ",".join(map(str, values)) + "]"
    return compact_json(list(values))


class ArenaGame:
    """One game under one set of rules, as the arena sees it.

    This class plays any game from its descriptor: it deals with the
    descriptor's ``deal`` and writes the deal as the game's own record does,
    shows a seat the visible position plus its own hand, offers the moves of
    the seat's view, and writes every move as it is. A game's descriptor may
    name a subclass instead (``arena``).

    >>> game = arena_game("schotten-totten", {"variants": ["tactics"]})
    >>> game.players, game.rules
    (2, {'edition': '2024', 'variants': ['tactics']})
    """

    #: Whether :meth:`chance` can ever give a ply (the referee asks only then).
    has_chance: bool = False
    #: Games in a match (Clanfehde, Rache); 1 for a single game.
    rounds: int = 1
    #: Whether a ply may show a seat an earlier, masked move in full (see :meth:`revealed`).
    reveals: bool = False

    def __init__(self, game: GameDescriptor[Any], rules: Mapping[str, Any]) -> None:
        self.game = game
        #: The game's name in records.
        self.name: str = game.name
        self.format: GameFormat[Any] = game.format
        #: How many players sit at the game (set by :meth:`_normalise` when it varies).
        self.players: int = game.players[0]
        self.has_chance = game.chance is not None
        self.rules: dict[str, Any] = self._normalise(rules)

    def _normalise(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        """The rules as the game's records write them (a RecordError for rules it
        refuses); sets :attr:`players` and :attr:`rounds`."""
        if "rounds" in rules:
            raise RecordError(f"{self.game.title} has no matches in the arena", "", "rules.rounds")
        sample = self._dealt(random.Random(0), rules)
        self.players = sample.num_players
        data: dict[str, Any] = dict(sample.to_record().rules)
        return data

    def _dealt(self, rng: random.Random, rules: Mapping[str, Any]) -> Any:
        deal = self.game.deal
        if deal is None:
            raise RecordError(
                f"{self.game.title} cannot be dealt at random: the arena cannot play it"
            )
        return deal(rng, rules)

    # --- set-up ---------------------------------------------------------------------

    def deal(self, rng: random.Random, first: int | None = None) -> tuple[int, dict[str, Any]]:
        """A random deal: ``(first, deal)`` as a full record carries them (``first``
        drawn at random unless given)."""
        record = self._dealt(rng, self.rules).to_record()
        return record.first if first is None else first, dict(record.deal or {})

    def next_first(self, first: int, winner: int | None) -> int:
        """Who starts a match's next game after one started by ``first`` and won
        by ``winner`` (``None``: nobody): by default the other player."""
        return 1 - first

    def record(self, first: int, deal: Mapping[str, Any], moves: Sequence[str] = ()) -> Record:
        """A full record of this game (no result, no names)."""
        return Record(game=self.name, moves=tuple(moves), rules=self.rules, first=first, deal=deal)

    def start(self, first: int, deal: Mapping[str, Any]) -> Any:
        """The state before the first move, built exactly as a record replays it."""
        return self.format.start(self.record(first, deal))

    # --- what a seat sees -------------------------------------------------------------

    def view_json(self, state: Any, seat: int) -> dict[str, Any]:
        """What ``seat`` sees of ``state`` as JSON: the visible position, and its
        own ``hand`` in a game whose states hold ``hands``."""
        view = state.view(seat)
        data = dict(self.format.position_of(view).data)
        hands = getattr(view, "hands", None)  # a game may have no hands at all
        if hands is not None:
            hand = hands[seat]
            data["hand"] = [] if hand is None else [str(c) for c in hand]
        return data

    def view_text(self, state: Any, seat: int) -> str:
        """:meth:`view_json` as compact JSON text, as the protocol sends it (a game
        may write it faster than ``json.dumps``, but never differently)."""
        return compact_json(self.view_json(state, seat))

    def view(self, state: Any, seat: int) -> Any:
        """The game's own view object for ``seat``."""
        return state.view(seat)

    def legal_moves(self, state: Any, rng: random.Random) -> list[Any]:
        """The moves offered to the seat to move, none of them naming a card it
        cannot see (by default computed on its view; ``rng`` stands in for
        choices a game cannot yet ask the right player for)."""
        moves: list[Any] = list(state.view(state.to_move).legal_moves())
        return moves

    def chance(self, state: Any, rng: random.Random) -> Any | None:
        """A ply of chance the referee plays itself (``None`` when a player decides)."""
        chance = self.game.chance
        return None if chance is None else chance(state, rng)

    def visible_text(self, move: Any, mover: int, seat: int) -> str:
        """The text of ``move`` (by ``mover``) as ``seat`` may see it."""
        return str(move)

    def revealed(self, played: Sequence[tuple[int, Any]], index: int, seat: int) -> int | None:
        """The index in ``played`` (``(mover, move)`` pairs) of an earlier move that
        ``seat`` was shown masked and learns in full with ``played[index]``, or
        ``None`` (asked only when :attr:`reveals` is true)."""
        return None

    def visible_json(self, move: Any, mover: int, seat: int) -> str:
        """:meth:`visible_text` quoted as JSON."""
        return json_text(self.visible_text(move, mover, seat))

    def winners(self, state: Any) -> tuple[int, ...]:
        """The players who share the win of a finished game (empty: nobody won)."""
        outcome = state.outcome
        if outcome is None or outcome.winner is None:
            return ()
        return (int(outcome.winner),)

    def result_of(self, state: Any) -> dict[str, Any]:
        """The JSON result of a finished game."""
        return self.format.result_of(state.outcome)


def arena_game(name: str, rules: Mapping[str, Any] | None = None) -> ArenaGame:
    """The arena's adapter for game ``name`` under ``rules`` (a record's ``rules``
    object): the descriptor's ``arena``, else :class:`ArenaGame`.

    >>> arena_game("clans-and-glory", {"players": 3}).players
    3
    >>> arena_game("chess")
    Traceback (most recent call last):
    ...
    referee.records.RecordError: field 'game': unknown game 'chess' (known: clans-and-glory, schotten-totten, schotten-totten-2)
    """
    game = find_game(name)
    adapter = ArenaGame if game.arena is None else game.arena
    return adapter(game, rules or {})
