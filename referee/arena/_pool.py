"""A match's games handed out and their results handed over in order: in this
thread, or to a pool of worker threads.

Mirrors: the games on one deal (one per seat rotation) are played by different
bot processes (each worker has a set of bots per seat rotation), and a deal's
records are written only once all its games are over.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from referee.arena._bots import Bot
from referee.arena._games import ArenaGame
from referee.arena._playing import GameResult, game_of_match
from referee.arena._sandbox import Sandbox
from referee.arena._seats import Seats

__all__ = ["MatchRun"]


class MatchRun:
    """A match being played: what every worker needs, and the records file."""

    def __init__(
        self,
        adapter: ArenaGame,
        bots: list[Bot],
        box: Sandbox | None,
        seed: int,
        games: int,
        limits: dict[str, Any],
        on_game: Callable[[GameResult], None] | None,
    ) -> None:
        self.adapter = adapter
        self.bots = bots
        self.box = box
        self.seed = seed
        self.games = games
        self.limits = limits
        self.on_game = on_game
        self.rotations = len(bots)
        self.hide: tuple[str, ...] = ()
        self.out: IO[str] | None = None

    def play(
        self, records: str | Path | IO[str] | None, jobs: int
    ) -> Generator[GameResult, None, None]:
        with _output(records) as out:
            self.out = out
            self.hide = _paths_of(records, out)
            if jobs == 1:
                yield from self._alone()
            else:
                yield from self._workers(jobs)

    def _game(self, seats: Seats, index: int) -> GameResult:
        return game_of_match(self.adapter, seats, index, self.seed, **self.limits)

    def _write(self, results: Sequence[GameResult]) -> None:
        if self.out is not None:
            for result in results:
                self.out.write(result.record.dumps() + "\n")
            self.out.flush()

    def _alone(self) -> Iterator[GameResult]:
        """The games one after the other, in this thread."""
        pools: dict[int, Seats] = {}  # one set of bot processes per seat rotation
        deal: list[GameResult] = []
        aborted = True
        try:
            for index in range(self.games):
                seats = pools.get(index % self.rotations)
                if seats is None:
                    seats = pools[index % self.rotations] = Seats(self.bots, self.box, self.hide)
                result = self._game(seats, index)
                if self.on_game is not None:
                    self.on_game(result)
                deal.append(result)
                if len(deal) == self.rotations or index == self.games - 1:
                    # A deal's records are written once every game on it is over.
                    self._write(deal)
                    done, deal = deal, []
                    yield from done
            aborted = False
        finally:  # also when the caller stops early, or an interrupt comes
            for seats in pools.values():
                seats.close(abort=aborted)

    def _workers(self, jobs: int) -> Iterator[GameResult]:
        """The games played by ``jobs`` threads, each with its own bots; the
        results handed over in order (see :class:`_Pool`)."""
        pool = _Pool(self, jobs)
        # Each worker says when it is done, bots stopped: a Thread.join that a
        # KeyboardInterrupt broke may return early the next time.
        done = [threading.Event() for _ in range(jobs)]
        started: list[threading.Event] = []
        try:
            for flag in done:
                threading.Thread(target=pool.run, args=(flag,), daemon=True).start()
                started.append(flag)
            while (ready := pool.ready()) is not None:
                yield from ready
                del ready
        except BaseException as error:  # interrupted, or the caller stopped: stop every bot now
            pool.abort(error)
            for flag in started:
                flag.wait()
            raise
        for flag in started:
            flag.wait()
        if pool.errors:
            raise pool.errors[0]


class _Pool:
    """The worker threads of a match and what they share, under ``lock``: the
    games given out, the results finished, written and handed over. A worker
    takes a game only while fewer than ``window`` games separate it from the
    next result to hand over."""

    def __init__(self, match: MatchRun, jobs: int) -> None:
        self.match = match
        self.window = (2 * jobs + 1) * match.rotations
        self.lock = threading.Condition()
        self.finished: dict[int, GameResult] = {}
        self.taken = self.written = self.handed = 0  # games given out, written, handed over
        self.errors: list[BaseException] = []
        self.everyone: list[Seats] = []  # every worker's bots, to stop them all on an abort
        self.stop = threading.Event()

    def run(self, finished_flag: threading.Event) -> None:
        """A worker thread: play games while there are any, then set ``finished_flag``."""
        try:
            self._work()
        finally:
            finished_flag.set()

    def _work(self) -> None:
        pools: dict[int, Seats] = {}  # one set of bot processes per seat rotation
        aborted = False
        try:
            while (index := self._take()) is not None:
                result = self.match._game(self._seats(pools, index), index)
                if not self._done(index, result):
                    return
        except BaseException as error:  # a referee bug or an interrupt: stop the others
            aborted = True
            with self.lock:
                self.errors.append(error)
                self.lock.notify_all()
        finally:
            for seats in pools.values():
                seats.close(abort=aborted or bool(self.errors))

    def _take(self) -> int | None:
        """The next game to play, once the window lets it (``None``: no more)."""
        games = self.match.games
        with self.lock:
            while (
                not self.errors and self.taken < games and self.taken >= self.handed + self.window
            ):
                self.lock.wait()
            if self.errors or self.taken >= games:
                return None
            index, self.taken = self.taken, self.taken + 1
            return index

    def _seats(self, pools: dict[int, Seats], index: int) -> Seats:
        """This worker's bots for the seat rotation of game ``index``."""
        rotation = index % self.match.rotations
        seats = pools.get(rotation)
        if seats is None:
            match = self.match
            seats = Seats(match.bots, match.box, match.hide, self.stop)
            with self.lock:
                self.everyone.append(seats)
            pools[rotation] = seats
        return seats

    def _done(self, index: int, result: GameResult) -> bool:
        """Keep the result of game ``index`` and write the deals now complete
        (``False``: the match was stopped during this game, which does not count)."""
        with self.lock:
            if self.errors:
                return False
            self.finished[index] = result
            if self.match.on_game is not None:
                self.match.on_game(result)
            self._write_deals()
            self.lock.notify_all()
        return True

    def _write_deals(self) -> None:
        """Write every deal whose games are all finished, in order (holding the lock)."""
        games, rotations = self.match.games, self.match.rotations
        while self.written < games:
            end = min(games, (self.written // rotations + 1) * rotations)
            if any(k not in self.finished for k in range(self.written, end)):
                break
            self.match._write([self.finished[k] for k in range(self.written, end)])
            self.written = end

    def ready(self) -> list[GameResult] | None:
        """The results to hand over next, in order, once there are any (``None``:
        the match is over, or stopped)."""
        with self.lock:
            while not self.errors and self.handed == self.written < self.match.games:
                self.lock.wait()
            if self.errors or self.handed >= self.match.games:
                return None
            ready = [self.finished.pop(k) for k in range(self.handed, self.written)]
            self.handed = self.written
            self.lock.notify_all()
        return ready

    def abort(self, error: BaseException) -> None:
        """Stop the match for ``error``: no new game or bot, every running bot killed."""
        with self.lock:
            self.errors.append(error)
            self.stop.set()
            stopping = list(self.everyone)
            self.lock.notify_all()
        for seats in stopping:
            seats.interrupt()


def _paths_of(target: str | Path | IO[str] | None, out: IO[str] | None) -> tuple[str, ...]:
    """The file the records go to, when it has a name (to hide it from the bots)."""
    if isinstance(target, (str, Path)):
        return (os.path.abspath(target),)
    name = getattr(out, "name", None)
    return (os.path.abspath(name),) if isinstance(name, str) and os.path.exists(name) else ()


@contextmanager
def _output(target: str | Path | IO[str] | None) -> Iterator[IO[str] | None]:
    if target is None or not isinstance(target, (str, Path)):
        yield target
        return
    with open(target, "w", encoding="utf-8") as handle:
        yield handle
