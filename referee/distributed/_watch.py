"""Waiting on a Dask cluster without ever hanging: the client side's one way to
ask the scheduler for workers and a future for its result."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from referee.distributed._settings import ClusterFailure, _timeout

if TYPE_CHECKING:  # the module imports Dask only when a cluster is used
    from distributed import Client, Future

__all__: list[str] = []

#: Why Dask cancels a future when its scheduler is gone, in our words.
_SCHEDULER_GONE = {
    "scheduler-connection-lost": "the connection closed",
    "scheduler-restart": "the scheduler restarted",
}


class _Watch:
    """Waits on the cluster without ever hanging: a scheduler that stops
    answering, or a cluster left without a worker, raises a ClusterFailure
    within the timeout (plus a second's poll)."""

    def __init__(self, client: Client, timeout: float | None) -> None:
        self.client = client
        self.timeout = _timeout(timeout)
        self.poll = min(1.0, self.timeout / 4)
        self.address = str(getattr(client.scheduler, "address", None) or "?")
        self.idle_since: float | None = None

    def lost(self, error: BaseException | str) -> ClusterFailure:
        if isinstance(error, TimeoutError):
            error = f"no answer within {self.timeout:g} s"
        elif isinstance(error, BaseException):
            error = f"{type(error).__name__}: {error}".split("\n")[0]
        return ClusterFailure(f"lost the Dask scheduler at {self.address!r} ({error})")

    @contextlib.contextmanager
    def guard(self) -> Iterator[None]:
        """Dask's errors of communication, as a ClusterFailure."""
        try:
            yield
        except (OSError, TimeoutError) as error:  # CommClosedError is an OSError
            raise self.lost(error) from None

    def workers(self) -> dict[str, int]:
        """The threads of each worker, asked of the scheduler (within the timeout)."""
        if self.client.status != "running":
            raise self.lost(f"the client is {self.client.status}")
        with self.guard():
            workers: dict[str, int] = self.client.nthreads(callback_timeout=self.timeout)
        return workers

    def wait_for_workers(self) -> dict[str, int]:
        deadline = time.monotonic() + self.timeout
        while not (workers := self.workers()):
            if time.monotonic() > deadline:
                raise ClusterFailure(
                    f"no worker joined the Dask scheduler at {self.address!r} "
                    f"within {self.timeout:g} s"
                )
            time.sleep(self.poll)
        return workers

    def check(self) -> None:
        """Fail if the scheduler does not answer, or has had no worker for too long."""
        now = time.monotonic()
        if self.workers():
            self.idle_since = None
        elif self.idle_since is None:
            self.idle_since = now
        elif now - self.idle_since > self.timeout:
            raise ClusterFailure(
                f"the Dask scheduler at {self.address!r} has had no worker for {self.timeout:g} s"
            )

    def result(self, future: Future[Any]) -> Any:
        """The future's result; its task's own error as it is; a ClusterFailure
        when the cluster fails while it waits."""
        from distributed.client import FutureCancelledError

        while True:
            try:
                return future.result(timeout=self.poll)
            except FutureCancelledError as error:
                if error.reason in _SCHEDULER_GONE or self.client.status != "running":
                    raise self.lost(_SCHEDULER_GONE.get(error.reason, error.reason)) from None
                raise
            except (OSError, TimeoutError) as error:  # TimeoutError: not done yet
                if future.status == "error":  # the task raised it
                    raise
                if not isinstance(error, TimeoutError):
                    raise self.lost(error) from None
            self.check()
