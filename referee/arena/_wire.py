"""Views from the wire: the arena's messages, as a bot program receives them,
turned back into the game's own view objects.

A bot program reads its view as JSON. :class:`ViewReader` reads one game's
messages (the ``game`` message, then every ``turn`` in order) and gives, at each
turn, the same view object the referee hands an in-process bot (``==``, the
same ``hands`` and the same ``history``), which ``determinize`` and the
action spaces accept (and ``playout`` the full states ``determinize`` deals).
Each game's descriptor says how
(:attr:`referee.games.GameDescriptor.from_message`); a reader keeps what it
needs between the turns of its game, and knows nothing but what the messages
said.

>>> from referee.arena import play_game
>>> from referee.arena._bots import GameInfo
>>> turns = []
>>> result = play_game([lambda t: turns.append(t) or t.legal_moves[0]] * 2, seed=4)
>>> info = GameInfo("schotten-totten", {"edition": "2024"}, 0, 2, ("a", "b"),
...                 1, 0, None, None, None, first=result.record.first)
>>> reader = view_reader(info.to_json())
>>> mine = [t for t in turns if t.seat == 0]
>>> all(reader.view(t.to_json()) == t.view for t in mine)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.errors import RefereeError
from referee.games import GameDescriptor, find_game
from referee.records import Record, RecordError

__all__ = [
    "MessageError",
    "ReplayReader",
    "ViewReader",
    "view_from_message",
    "view_reader",
]


class MessageError(RefereeError):
    """A protocol message a view cannot be made from (reason ``bad_message``):
    not the message expected, a field missing or of the wrong kind, a ply out of
    order, or a move or card the game refuses. The message names what and where.

    >>> view_reader({"type": "turn"})
    Traceback (most recent call last):
    ...
    referee.arena._wire.MessageError: expected a 'game' message, not {'type': 'turn'}
    """

    def __init__(self, message: str) -> None:
        super().__init__("bad_message", message)


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _field(message: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    """``message[name]``, which must be of ``kind`` (a bool is never an int)."""
    value = message.get(name) if isinstance(message, Mapping) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
        what = message.get("type", "message") if isinstance(message, Mapping) else "message"
        raise MessageError(f"the {what} message's {name!r} is {_show(value)}")
    return value


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _typed(message: object, kind: str) -> Mapping[str, Any]:
    if not isinstance(message, Mapping) or message.get("type") != kind:
        raise MessageError(f"expected a {kind!r} message, not {_show(message)}")
    return message


class ViewReader:
    """Reads one game's messages as one seat receives them, and rebuilds its views.

    Made from the ``game`` message (:func:`view_reader` finds the game's own
    reader); then give it every ``turn`` of the game in order (:meth:`view`), and
    the ``end`` if you like (:meth:`end`). The ``seen`` moves of each message are
    read once, in ply order: a ply missing or read twice is a
    :class:`MessageError`, as is anything the game refuses.

    A game's reader overrides :meth:`_read` (one ``seen`` entry) and
    :meth:`_view` (the view at a turn whose ``seen`` is read).
    """

    def __init__(self, game: GameDescriptor[Any], message: Mapping[str, Any]) -> None:
        message = _typed(message, "game")
        if _field(message, "game", str) != game.name:
            raise MessageError(f"a {message['game']!r} game message given to {game.name!r}")
        #: The game's descriptor.
        self.game = game
        #: The game's rules (as records write them).
        self.rules: Mapping[str, Any] = _field(message, "rules", Mapping)
        #: How many players sit at the game.
        self.players: int = _field(message, "players", int)
        #: The seat whose messages these are.
        self.seat: int = _field(message, "seat", int)
        #: The seat that moves first (``0`` when the message does not say, as
        #: from a referee older than the ``first`` field).
        self.first: int = _field(message, "first", int) if "first" in message else 0
        low, high = game.players
        if not low <= self.players <= high:
            raise MessageError(f"{game.title} is played by {low} to {high}, not {self.players}")
        for name in ("seat", "first"):
            if not 0 <= getattr(self, name) < self.players:
                raise MessageError(f"the game message's {name!r} is {getattr(self, name)}")
        #: Plies read so far (every ``seen`` entry up to this ply).
        self.ply = 0
        #: The ply of the last turn read (its move comes in the next ``seen``).
        self.asked = 0
        #: Whether the ``end`` message was read.
        self.over = False

    def view(self, message: Mapping[str, Any]) -> Any:
        """The seat's view at the ``turn`` ``message`` (its ``seen`` read first)."""
        message = _typed(message, "turn")
        if self.over:
            raise MessageError("a turn message after the end of the game")
        if _field(message, "seat", int) != self.seat:
            raise MessageError(f"a turn for seat {message['seat']} read by seat {self.seat}")
        ply = _field(message, "ply", int)
        view = _field(message, "view", Mapping)
        seen = _field(message, "seen", list)
        if ply != self.ply + len(seen) + 1 or ply <= self.asked:
            raise MessageError(
                f"a turn for ply {ply} with {len(seen)} seen moves after {self.ply} plies"
            )
        kept = dict(self.__dict__)
        try:
            self._take(message)
            self.asked = ply
            return self._view(view)
        except BaseException:
            self.__dict__.update(kept)  # nothing half-read
            raise

    def end(self, message: Mapping[str, Any]) -> None:
        """Read the ``end`` message's ``seen`` moves (no turn may follow)."""
        message = _typed(message, "end")
        kept = dict(self.__dict__)
        try:
            self._take(message)
        except BaseException:
            self.__dict__.update(kept)
            raise
        self.over = True

    def _take(self, message: Mapping[str, Any]) -> None:
        """Read the ``seen`` entries of ``message`` (the caller restores on failure)."""
        seen = _field(message, "seen", list)
        for entry in seen:
            if not isinstance(entry, Mapping):
                raise MessageError(f"a seen entry is {_show(entry)}")
            ply = entry.get("ply")
            if ply != self.ply + 1 or isinstance(ply, bool):
                raise MessageError(f"seen ply {_show(ply)} after {self.ply} plies")
            if not isinstance(entry.get("move"), str) or not isinstance(entry.get("seat"), int):
                raise MessageError(f"a seen entry is {_show(entry)}")
            try:
                self._read(entry)
            except RefereeError as error:
                if isinstance(error, MessageError):
                    raise
                raise MessageError(f"ply {ply} ({entry['move']!r}): {error}") from None
            self.ply += 1

    def _read(self, entry: Mapping[str, Any]) -> None:
        """Take one ``seen`` entry (``ply``, ``seat``, ``move``)."""

    def _view(self, view: Mapping[str, Any]) -> Any:
        """The view, from the turn's ``view`` JSON and what was read before."""
        raise NotImplementedError


class ReplayReader(ViewReader):
    """A reader for a game whose views are states with hidden parts ``None`` (the
    line games): it replays every ``seen`` move on the public start of the game
    (a public record's replay, both hands hidden), and at each turn puts the
    seat's hand (``view.hand``) in and takes the seat's view of that, so the
    view's history is told as every view tells it.

    ``parse_card`` reads a card of the hand; ``masked(entry)`` is ``True`` for a
    ``seen`` entry the game cannot replay as it stands (a subclass handles it).
    """

    def __init__(
        self,
        game: GameDescriptor[Any],
        message: Mapping[str, Any],
        parse_card: Callable[[str], Any],
    ) -> None:
        super().__init__(game, message)
        self.parse_card = parse_card
        record = Record(game=game.name, moves=(), rules=self.rules, first=self.first)
        try:
            #: The game as everybody sees it (both hands hidden), after every ply read.
            self.state: Any = game.format.start(record)
        except RecordError as error:
            raise MessageError(f"the game message's rules: {error}") from None

    def _read(self, entry: Mapping[str, Any]) -> None:
        self.state = self.state.play(entry["move"])

    def _hand(self, view: Mapping[str, Any]) -> tuple[Any, ...]:
        """The seat's hand, read from its view's JSON."""
        texts = _field(view, "hand", list)
        if not all(isinstance(text, str) for text in texts):
            raise MessageError(f"the view's hand {_show(texts)} is not a list of cards")
        try:
            return tuple(self.parse_card(text) for text in texts)
        except (ValueError, TypeError) as error:
            raise MessageError(f"the view's hand {_show(texts)}: {error}") from None

    def _with_hand(self, state: Any, hand: tuple[Any, ...]) -> Any:
        """``state`` with the seat's hand known."""
        if len(hand) != state.hand_sizes[self.seat]:
            raise MessageError(
                f"the view's hand holds {len(hand)} cards, but the seat holds "
                f"{state.hand_sizes[self.seat]} after ply {self.ply}"
            )
        hands = list(state.hands)
        hands[self.seat] = hand
        try:
            return dataclasses.replace(state, hands=tuple(hands))
        except ValueError as error:
            raise MessageError(f"the view's hand does not fit the game: {error}") from None

    def _view(self, view: Mapping[str, Any]) -> Any:
        state = self._with_hand(self.state, self._hand(view))
        if state.to_move != view.get("to_move", state.to_move):
            raise MessageError(
                f"the view says seat {_show(view.get('to_move'))} is to move, "
                f"the moves read say seat {state.to_move}"
            )
        return state.view(self.seat)


def view_reader(message: Mapping[str, Any]) -> ViewReader:
    """The reader of the game the ``game`` ``message`` starts, for its seat
    (the game's descriptor's ``from_message``).

    >>> view_reader({"type": "game", "game": "chess"})
    Traceback (most recent call last):
    ...
    referee.arena._wire.MessageError: field 'game': unknown game 'chess' (known: clans-and-glory, schotten-totten, schotten-totten-2)
    """
    message = _typed(message, "game")
    try:
        game = find_game(_field(message, "game", str))
    except RecordError as error:
        raise MessageError(str(error)) from None
    if game.from_message is None:
        raise MessageError(f"{game.title} cannot rebuild its views from messages")
    reader: ViewReader = game.from_message(message)
    return reader


def view_from_message(
    game: Mapping[str, Any],
    turn: Mapping[str, Any],
    *,
    earlier: Sequence[Mapping[str, Any]] = (),
) -> Any:
    """The view object of ``turn`` (a ``turn`` message) in the game the ``game``
    message started; ``earlier`` are the game's turn messages before it, in order
    (their ``seen`` moves make the history). A bot that keeps a
    :class:`ViewReader` for the game does the same without reading them again.
    """
    reader = view_reader(game)
    for message in earlier:
        reader._take(_typed(message, "turn"))
    return reader.view(turn)
