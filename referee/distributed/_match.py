"""Arena matches on the cluster: one task per game, the results in game order."""

from __future__ import annotations

import contextlib
import os
import shlex
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from referee.distributed._settings import ClusterFailure
from referee.distributed._watch import _Watch
from referee.games import DEFAULT_GAME
from referee.records._sources import locate
from referee.records._stream import is_url

if TYPE_CHECKING:  # the module imports Dask only when a cluster is used
    from distributed import Client, Future

__all__ = ["match_on_dask"]


def match_on_dask(
    client: Client,
    bots: Sequence[Any],
    game: str = DEFAULT_GAME,
    *,
    games: int = 2,
    seed: int = 0,
    records: str | Path | IO[str] | None = None,
    window: int | None = None,
    on_game: Callable[[Any], None] | None = None,
    base: str | None = None,
    timeout: float | None = None,
    **options: Any,
) -> list[Any]:
    """``referee.arena.play_match`` with its games spread over the cluster's workers.

    Game ``i`` is ``referee.arena.match_game(bots, game, i, seed=seed, ...)``
    run as one task keyed by the match's seed and ``i``: its seats and deal come
    from the seed alone, so a game lost with its worker is played again from
    the start and counted once. The bots are started on the workers (a command
    bot must be installed there; an in-process bot is shipped with the task);
    the words of a bot command that name files in ``base`` (default: the
    current folder) are made absolute here, so that a worker in another folder
    finds them. The results come back in game order, as from ``play_match``
    with the same seed; ``records`` receives every game's full record as a JSON
    line, in game order, and ``on_game`` is called with each result in game
    order. ``options`` are ``play_match``'s: ``rules``, ``move_time``,
    ``game_time``, ``max_plies``, ``ask_forced``, ``sandbox`` (bot programs are
    sandboxed on the workers unless ``sandbox=False``; a records file named
    here is hidden from them too). Needs ``referee.arena``.

    A cluster that fails raises a :class:`ClusterFailure` within ``timeout``
    seconds (see :func:`validate_on_dask`) whose ``done`` holds the games
    finished before, all of them written to ``records``.
    """
    import importlib

    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    arena = importlib.import_module("referee.arena")
    if games < 0:
        raise ValueError(f"the number of games must be 0 or more, not {games}")
    sandbox = options.get("sandbox", True)
    if sandbox is not False and isinstance(records, (str, Path)):
        options["sandbox"] = (arena.Sandbox() if sandbox is True else sandbox).hiding(records)
    here = os.getcwd() if base is None else base
    bots = [_bot_for_workers(bot, here, arena) for bot in bots]
    watch = _Watch(client, timeout)
    if window is None:
        window = max(4, 3 * sum(watch.wait_for_workers().values())) if games else 1
    run = uuid.uuid4().hex[:12]
    pending: deque[tuple[int, Future[Any]]] = deque()
    indices = iter(range(games))
    results: list[Any] = []

    def submit() -> None:
        with watch.guard():
            for index in indices:
                key = f"referee-match-{run}-seed{seed}-game{index}"
                future = client.submit(
                    arena.match_game, bots, game, index, seed=seed, key=key, **options
                )
                pending.append((index, future))
                if len(pending) >= window:
                    return

    with contextlib.ExitStack() as stack:
        out: IO[str] | None
        if isinstance(records, (str, Path)):
            out = stack.enter_context(open(records, "w", encoding="utf-8"))
        else:
            out = records
        try:
            submit()
            while pending:
                index, future = pending.popleft()
                try:
                    result = watch.result(future)
                except (KilledWorker, FutureCancelledError) as error:
                    raise ClusterFailure(
                        f"game {index + 1} was lost on the cluster: {type(error).__name__}: "
                        f"{error}".split("\n")[0]
                    ) from None
                future.release()
                submit()
                results.append(result)
                if out is not None:
                    out.write(result.record.dumps() + "\n")
                    out.flush()
                if on_game is not None:
                    on_game(result)
        except ClusterFailure as failure:
            raise ClusterFailure(str(failure), done=results) from None
    return results


def _bot_for_workers(spec: Any, base: str, arena: Any) -> Any:
    """``spec`` as a worker in another folder should start it: a script path
    made absolute, the words of a command that name files in ``base`` made
    absolute (the bot keeps the name it has without Dask)."""
    if isinstance(spec, str):
        words = shlex.split(spec)
        if len(words) == 1 and words[0].endswith((".py", ".js")):
            return shlex.quote(locate(words[0], base))  # the worker picks its runner
    elif isinstance(spec, Sequence) and not isinstance(spec, bytes):
        words = [str(word) for word in spec]
    else:
        return spec  # a Bot object or a callable: as it is
    if not words:
        return spec  # refused on the worker, as without Dask
    name = arena.as_bot(words).name
    absolute = [
        word
        if word.startswith("-") or is_url(word) or not os.path.exists(locate(word, base))
        else locate(word, base)
        for word in words
    ]
    return arena.CommandBot(absolute, name=name)
