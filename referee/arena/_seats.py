"""The bots of a match at the table: the seeds drawn from the match's secret seed,
the seating of each round, and the bot sessions of one seat rotation.

Seeds: a match has one secret seed (given, or drawn from the operating system).
Each deal's seed and each bot's seed for each game are drawn from it by a keyed
hash (BLAKE2b) under different labels, so a bot's seed tells nothing about any
deal to whoever does not know the match's seed.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Sequence

from referee.arena._bots import Bot, Session
from referee.arena._sandbox import Sandbox

__all__ = ["Seats", "Stopped", "bot_seed", "game_seed", "match_seed", "seating"]


def _derive(seed: int, *label: object) -> int:
    """A 48-bit number drawn from ``seed`` for ``label`` by keyed BLAKE2b (a
    pseudo-random function): numbers for different labels are independent to
    whoever does not know ``seed``."""
    key = hashlib.blake2b(str(int(seed)).encode(), digest_size=32).digest()
    text = " ".join(str(part) for part in label).encode()
    return int.from_bytes(hashlib.blake2b(text, key=key, digest_size=6).digest(), "big")


def game_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of a match played with ``seed`` (the deal
    is ``random.Random(game_seed(seed, deal))``'s).

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    """
    return _derive(seed, "deal", deal)


def bot_seed(seed: int, index: int, seat: int, game: int = 0) -> int:
    """The seed the bot in ``seat`` is given for game ``index`` of a match played
    with ``seed`` (``game``: the game's number within a Clanfehde or Rache match).
    Drawn from ``seed`` under another label than the deals: knowing it tells
    nothing about any deal unless ``seed`` is known (or can be guessed).

    >>> bot_seed(0, 0, 0) != bot_seed(0, 0, 1) != game_seed(0, 0)
    True
    """
    return _derive(seed, "bot", index, game, seat)


def match_seed() -> int:
    """A fresh secret match seed (64 bits from the operating system).

    >>> match_seed() != match_seed()
    True
    """
    return secrets.randbits(64)


def seating(round: int, bots: int) -> tuple[int, ...]:
    """Which bot sits in each seat in round ``round`` (from 0): rotated every round, so
    each deal is played once from every seat.

    >>> seating(0, 2), seating(1, 2), seating(2, 3)
    ((0, 1), (1, 0), (2, 0, 1))
    """
    shift = round % bots
    return tuple((seat + shift) % bots for seat in range(bots))


class Stopped(Exception):
    """The match was stopped (interrupted): no new bot is started."""


class Seats:
    """One session per bot, started on demand, replaced after a fault. A match has
    one set per worker and seat rotation, so that a bot process never plays two
    games on the same deal."""

    def __init__(
        self,
        bots: Sequence[Bot],
        sandbox: Sandbox | None = None,
        hide: Sequence[str] = (),
        stop: threading.Event | None = None,
    ) -> None:
        self.bots = list(bots)
        self.sandbox = sandbox
        self.hide = tuple(hide)
        self.stop = stop
        self.sessions: list[Session | None] = [None] * len(bots)
        # Names as the results show them: a name given twice gets a number.
        given = [bot.name for bot in bots]
        self.names = [
            f"{name} #{given[:index].count(name) + 1}" if given.count(name) > 1 else name
            for index, name in enumerate(given)
        ]

    def get(self, index: int) -> Session:
        session = self.sessions[index]
        if session is None:
            if self.stop is not None and self.stop.is_set():
                raise Stopped("the match was stopped")
            session = self.bots[index].session(self.sandbox, self.hide)
            self.sessions[index] = session
        return session

    def drop(self, index: int, *, abort: bool = False) -> None:
        session = self.sessions[index]
        self.sessions[index] = None
        if session is not None:
            if abort:
                session.abort()
            else:
                session.close()

    def close(self, *, abort: bool = False) -> None:
        for index in range(len(self.sessions)):
            self.drop(index, abort=abort)

    def interrupt(self) -> None:
        """Kill every running bot now (from another thread: the match is aborted)."""
        for session in list(self.sessions):
            if session is not None:
                session.interrupt()
