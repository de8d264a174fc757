"""What the parts of :mod:`referee.distributed` share: the errors of a cluster,
the timeout and where it is set, and how many local workers a machine may start."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from referee.errors import RefereeError

__all__ = [
    "DASHBOARD_VARIABLE",
    "DEFAULT_TIMEOUT",
    "LOCAL_WORKERS_PER_CORE",
    "TIMEOUT_VARIABLE",
    "ClusterError",
    "ClusterFailure",
    "max_local_workers",
]

#: Seconds to wait, by default, for the scheduler to answer (when connecting or
#: at any time during a run), for a first worker to join it, and for a worker
#: to come back when none is left. Past that the run stops with a ClusterFailure.
DEFAULT_TIMEOUT = 30.0
#: The environment variable that sets that timeout for the command line.
TIMEOUT_VARIABLE = "REFEREE_DASK_TIMEOUT"
#: The environment variable that asks ``local`` for Dask's dashboard, at this
#: address (e.g. ``127.0.0.1:8787``); without it a local cluster has none.
DASHBOARD_VARIABLE = "REFEREE_DASK_DASHBOARD"
#: ``local:N`` starts at most this many worker processes per core.
LOCAL_WORKERS_PER_CORE = 2


class ClusterError(RefereeError):
    """The cluster cannot be used as asked: Dask missing, a bad address
    (``local:0``, ``tls://`` without TLS settings), standard input."""

    def __init__(self, message: str, reason: str = "cluster") -> None:
        super().__init__(reason, message)


class ClusterFailure(ClusterError):
    """The cluster failed: its scheduler unreachable or lost, or no worker
    within the timeout. ``done`` holds what was finished before (the games of
    :func:`match_on_dask`); the command line exits with status 3."""

    def __init__(self, message: str, done: Sequence[Any] = ()) -> None:
        super().__init__(message, "cluster_failed")
        self.done = tuple(done)


def max_local_workers() -> int:
    """How many worker processes ``local:N`` may start on this machine:
    :data:`LOCAL_WORKERS_PER_CORE` per core this process may use."""
    return LOCAL_WORKERS_PER_CORE * _cores()


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _timeout(timeout: float | None) -> float:
    """``timeout``, or the one the environment sets, or the default."""
    if timeout is None:
        text = os.environ.get(TIMEOUT_VARIABLE, "").strip()
        if not text:
            return DEFAULT_TIMEOUT
        try:
            timeout = float(text)
        except ValueError:
            timeout = math.nan
        if not 0 < timeout <= 86_400:
            raise ClusterError(f"{TIMEOUT_VARIABLE} must be seconds (0 to 86400), not {text!r}")
        return timeout
    if not 0 < timeout <= 86_400:
        raise ValueError(f"the timeout must be seconds (0 to 86400), not {timeout!r}")
    return float(timeout)


def _refuse_stdin(paths: Iterable[str | Path]) -> None:
    if any(str(p) == "-" for p in paths):
        raise ClusterError(
            "standard input cannot be spread over a cluster: give files the workers can read"
        )
