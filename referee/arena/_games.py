"""The arena's adapter over each game's own API (to be replaced by the shared game protocol).

Everything the arena needs from a game goes through :class:`ArenaGame`: dealing a
game from a seed, the state before the first move (built by the records layer,
so a record of the game replays exactly), a seat's view as JSON, the legal moves
a seat may be offered (computed on its view, so they reveal nothing hidden), the
visible text of a move for each seat, and chance plies the referee plays itself.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from referee.records import Record, RecordError, find_game
from referee.records._registry import GameFormat

__all__ = [
    "GAMES",
    "ArenaGame",
    "arena_game",
    "cards_json",
    "json_text",
    "move_json",
    "move_text",
    "moves_json",
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


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def _number(value: Any) -> str:
    """``_compact(value)``, quicker for a plain int."""
    return str(value) if type(value) is int else _compact(value)


def _numbers(values: Sequence[Any]) -> str:
    """``_compact(list(values))``, quicker for plain ints."""
    if all(type(v) is int for v in values):
        return "[" + ",".join(map(str, values)) + "]"
    return _compact(list(values))


#: The games the arena plays (names as in records).
GAMES = ("schotten-totten", "schotten-totten-2", "clans-and-glory")


class ArenaGame:
    """One game under one set of rules, as the arena sees it.

    >>> game = arena_game("schotten-totten", {"variants": ["tactics"]})
    >>> game.players, game.rules
    (2, {'edition': '2024', 'variants': ['tactics']})
    """

    name: str = ""
    players: int = 2
    #: Whether :meth:`chance` can ever give a ply (the referee asks only then).
    has_chance: bool = False
    #: Games in a match (Clanfehde, Rache); 1 for a single game.
    rounds: int = 1

    def __init__(self, rules: Mapping[str, Any]) -> None:
        self.format: GameFormat[Any] = find_game(self.name)
        self.rules: dict[str, Any] = self._normalise(rules)

    def _normalise(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    # --- set-up ---------------------------------------------------------------------

    def deal(self, rng: random.Random, first: int | None = None) -> tuple[int, dict[str, Any]]:
        """A random deal: ``(first, deal)`` as a full record carries them (``first``
        drawn at random unless given)."""
        raise NotImplementedError

    def record(self, first: int, deal: Mapping[str, Any], moves: Sequence[str] = ()) -> Record:
        """A full record of this game (no result, no names)."""
        return Record(game=self.name, moves=tuple(moves), rules=self.rules, first=first, deal=deal)

    def start(self, first: int, deal: Mapping[str, Any]) -> Any:
        """The state before the first move, built exactly as a record replays it."""
        return self.format.start(self.record(first, deal))

    # --- what a seat sees -------------------------------------------------------------

    def view_json(self, state: Any, seat: int) -> dict[str, Any]:
        """What ``seat`` sees of ``state`` as JSON (the visible position and its own hand)."""
        view = state.view(seat)
        data = dict(self.format.position_of(view).data)
        hand = view.hands[seat]
        data["hand"] = [] if hand is None else [str(c) for c in hand]
        data["phase"] = view.phase.value
        data.setdefault("deck_size", view.deck_size)
        if view.rules.tactics:
            data.setdefault("tactic_deck_size", view.tactic_deck_size)
        return data

    def view_text(self, state: Any, seat: int) -> str:
        """:meth:`view_json` as compact JSON text, as the protocol sends it (a game
        may write it faster than ``json.dumps``, but never differently)."""
        return _compact(self.view_json(state, seat))

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
        return None

    def visible_text(self, move: Any, mover: int, seat: int) -> str:
        """The text of ``move`` (by ``mover``) as ``seat`` may see it."""
        return str(move)

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


class _SchottenTotten(ArenaGame):
    name = "schotten-totten"

    def _normalise(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        fmt: Any = self.format
        data: dict[str, Any] = fmt.rules_json(fmt.rules_of(rules))
        self.tactics = "tactics" in data.get("variants", [])
        self._stone_texts: dict[int, tuple[Any, str]] = {}
        if "clanfehde" in rules.get("variants", []) or "rounds" in rules:
            # A Clanfehde match: every game is played under the match's rules.
            rounds = rules.get("rounds", 3)
            if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 99:
                raise RecordError(f"expected 1 to 99 rounds, got {rounds!r}", "", "rules.rounds")
            self.rounds = rounds
            data["variants"] = [*data.get("variants", []), "clanfehde"]
            data["rounds"] = rounds
        return data

    def deal(self, rng: random.Random, first: int | None = None) -> tuple[int, dict[str, Any]]:
        from referee.schotten_totten.state import CLAN_CARDS
        from referee.schotten_totten.tactics import TACTIC_CARDS

        deck = [str(c) for c in CLAN_CARDS.cards]
        rng.shuffle(deck)
        deal: dict[str, Any] = {"deck": deck}
        if "tactics" in self.rules.get("variants", []):
            tactics = [str(t) for t in TACTIC_CARDS]
            rng.shuffle(tactics)
            deal["tactics"] = tactics
        chosen = rng.randrange(2)
        return chosen if first is None else first, deal

    def view_text(self, state: Any, seat: int) -> str:
        # What view_json gives, written piece by piece: a stone's text is kept
        # while the stone object lives (states share unchanged stones), so a
        # turn encodes only what changed. It reads the state itself rather
        # than the seat's view (which costs as much as the rest): the table,
        # the counts and the seat's own hand, which the view shows alike.
        # tests/arena pins it to view_json, computed on the view.
        view = state
        cache = self._stone_texts
        if len(cache) > 4096:
            cache.clear()
        # The entry holds the stone, so its id stays its own while kept.
        pairs = list(map(cache.get, map(id, view.stones)))
        if None in pairs:  # stones that changed since they were last written
            pairs = [
                cache.get(id(stone)) or cache.setdefault(id(stone), (stone, _stone_text(stone)))
                for stone in view.stones
            ]
        texts = [pair[1] for pair in pairs if pair is not None]
        parts = [
            '{"stones":[',
            ",".join(texts),
            '],"to_move":',
            _number(view.to_move),
            ',"hand_sizes":',
            _numbers(view.hand_sizes),
        ]
        if view.discards:
            parts += ',"discards":', _compact([str(c) for c in view.discards])
        tactics = view.rules.tactics
        if tactics:
            parts += (
                ',"tactics_played":',
                _numbers(view.tactics_played),
                ',"jokers_played":',
                _numbers(view.jokers_played),
                ',"hand_tactics":',
                _numbers((view.tactics_in_hand(0), view.tactics_in_hand(1))),
            )
        # the position's turn fields (a game in play writes its phase there
        # unless it is the start of a turn), then the seat's hand
        early = view.phase.value != "play"
        if early:
            parts += ',"phase":', json_text(view.phase.value)
        if view.blank_turns:
            parts += ',"blank_turns":', _number(view.blank_turns)
        if view.under_piles[0] or view.under_piles[1]:
            parts += (
                ',"under_piles":',
                _compact([[p for p, _ in pile] for pile in view.under_piles]),
            )
        hand = view.hands[seat]
        parts += ',"hand":[', "" if hand is None else cards_json(hand), "]"
        if not early:
            parts += ',"phase":', json_text(view.phase.value)
        parts += ',"deck_size":', _number(view.deck_size)
        if tactics:
            parts += ',"tactic_deck_size":', _number(view.tactic_deck_size)
        parts.append("}")
        return "".join(parts)

    def legal_moves(self, state: Any, rng: random.Random) -> list[Any]:
        # The mover's moves depend on its own hand and the table only, so the
        # full state lists the same moves as the mover's view (the recruiter is
        # two decisions: its draws, then, with the drawn cards in hand, the
        # cards it puts back).
        moves: list[Any] = state.generate_legal_moves()  # a new list, computed once
        return moves

    def visible_json(self, move: Any, mover: int, seat: int) -> str:
        if seat == mover or not self.tactics:
            return move_json(move)
        return json_text(self.visible_text(move, mover, seat))

    def visible_text(self, move: Any, mover: int, seat: int) -> str:
        if seat == mover or not self.tactics:
            return move_text(move)
        from referee.schotten_totten.state import _as_seen_in_a_view

        # The cards the recruiter puts back are hidden: only their piles show.
        return str(_as_seen_in_a_view(move))


def _stone_text(stone: Any) -> str:
    """A Schotten Totten stone as the visible position writes it (compact JSON)."""
    sides = ",".join(["[" + cards_json(side) + "]" for side in stone.sides])
    text = '{"sides":[' + sides + "]"
    done = stone.completed
    if done[0] is not None and done[1] is not None:
        text += ',"first":' + ("0" if done[0] < done[1] else "1")
    if stone.owner is not None:
        text += ',"owner":' + _number(stone.owner)
    if stone.style is not None:
        text += ',"style":' + json_text(str(stone.style))
    return text + "}"


class _SchottenTotten2(ArenaGame):
    name = "schotten-totten-2"
    has_chance = True

    def _normalise(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        fmt: Any = self.format
        data: dict[str, Any] = fmt.rules_json(fmt.rules_of(rules))
        if "rache" in rules.get("variants", []):
            # A Rache match: two games with the roles swapped.
            self.rounds = 2
            data = {"variants": [*data.get("variants", []), "rache"], "rounds": 2}
        return data

    def deal(self, rng: random.Random, first: int | None = None) -> tuple[int, dict[str, Any]]:
        from referee.schotten_totten_2.wall import SIEGE_CARDS, TACTIC_CARDS

        deck = [str(c) for c in SIEGE_CARDS.cards]
        rng.shuffle(deck)
        deal: dict[str, Any] = {"deck": deck}
        if "tactics" in self.rules.get("variants", []):
            tactics = [t.value for t in TACTIC_CARDS]
            rng.shuffle(tactics)
            deal["tactics"] = tactics
        chosen = rng.randrange(2)
        return chosen if first is None else first, deal

    def chance(self, state: Any, rng: random.Random) -> Any | None:
        from referee.schotten_totten_2.moves import Shuffle
        from referee.schotten_totten_2.state import Phase

        if state.phase is not Phase.SHUFFLE:
            return None
        # Not the move legal_moves lists: a game started from a record has
        # chance_seed 0, so its dealt places would be known to every bot; the
        # match's own generator draws them (uniformly, as chance_outcomes says).
        size = state.deck_size + 2
        first, second = rng.sample(range(1, size + 1), 2)
        return Shuffle((first, second))

    def legal_moves(self, state: Any, rng: random.Random) -> list[Any]:
        # On the mover's view: an exchange names only the mover's own cards, and
        # the opponent answers it in its own ply without seeing the offer.
        moves: list[Any] = list(state.view(state.to_move).legal_moves())
        return moves

    def visible_text(self, move: Any, mover: int, seat: int) -> str:
        from referee.schotten_totten_2.moves import Exchange
        from referee.schotten_totten_2.state import _as_seen_in_a_view

        # The answering player chooses its three cards without seeing the offer
        # (it learns them when they reach its hand; its view's history ends
        # before the offer, which a list of plies cannot do, hence the marks).
        if isinstance(move, Exchange) and seat != mover:
            return "exchange ?,?,?"
        # Otherwise as every view shows it (a shuffle without its places).
        return str(_as_seen_in_a_view(move))


class _ClansAndGlory(ArenaGame):
    name = "clans-and-glory"

    def _normalise(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        fmt: Any = self.format
        self.players = fmt.players_of(rules)
        data: dict[str, Any] = fmt.rules_json(self.players)
        return data

    def deal(self, rng: random.Random, first: int | None = None) -> tuple[int, dict[str, Any]]:
        from referee.clans_and_glory.dealing import new_game

        state = new_game(players=self.players, seed=rng.getrandbits(63))
        return 0, dict(state.deal_to_json())

    def view_json(self, state: Any, seat: int) -> dict[str, Any]:
        view = state.view(seat)
        seats: list[dict[str, Any]] = []
        for place, placed in zip(view.layout.seats, view.table, strict=True):
            if placed is None:
                continue
            item: dict[str, Any] = {"seat": str(place)}
            if placed.card is None:
                item["down"] = True
            else:
                item["card"] = str(placed.card)
                if not placed.face_up:
                    item["down"] = True
            item["player"] = placed.player
            seats.append(item)
        return {
            "seats": seats,
            "free": [str(s) for s in state.free_seats()],
            "shields": [list(stack) for stack in view.shields],
            "hand_sizes": list(view.hand_sizes),
            "to_move": view.to_move,
            "hand": [str(c) for c in view.hands[seat]],
        }

    def legal_moves(self, state: Any, rng: random.Random) -> list[Any]:
        # The mover's view lists the same moves (its hand and the face-up cards).
        moves: list[Any] = list(state.legal_moves())
        return moves

    def visible_text(self, move: Any, mover: int, seat: int) -> str:
        if move.face_down and seat != mover:
            # Another player's face-down card is hidden: only the seat and options show.
            return str(move).replace(str(move.card), "?", 1)
        return str(move)

    def winners(self, state: Any) -> tuple[int, ...]:
        if state.outcome is None:
            return ()
        return tuple(state.outcome.winners)


_ADAPTERS: dict[str, type[ArenaGame]] = {
    cls.name: cls for cls in (_SchottenTotten, _SchottenTotten2, _ClansAndGlory)
}


def arena_game(name: str, rules: Mapping[str, Any] | None = None) -> ArenaGame:
    """The arena's adapter for game ``name`` under ``rules`` (a record's ``rules`` object).

    >>> arena_game("clans-and-glory", {"players": 3}).players
    3
    >>> arena_game("chess")
    Traceback (most recent call last):
    ...
    referee.records.RecordError: unknown game 'chess' (the arena plays: schotten-totten, schotten-totten-2, clans-and-glory)
    """
    cls = _ADAPTERS.get(name)
    if cls is None:
        raise RecordError(f"unknown game {name!r} (the arena plays: {', '.join(GAMES)})")
    return cls(rules or {})
