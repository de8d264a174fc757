"""Reaching a cluster: a client for a scheduler's address, or a local cluster
started for the run, within a timeout and with Dask's logging silenced."""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from referee.distributed._settings import (
    DASHBOARD_VARIABLE,
    LOCAL_WORKERS_PER_CORE,
    ClusterError,
    ClusterFailure,
    _cores,
    _timeout,
    max_local_workers,
)

if TYPE_CHECKING:  # the module imports Dask only when a cluster is used
    from distributed import Client, LocalCluster, Security

__all__ = ["connect"]


@contextlib.contextmanager
def connect(
    address: str, *, timeout: float | None = None, dashboard: str | None = None
) -> Iterator[Client]:
    """A client for ``address``: a scheduler such as ``tcp://host:8786`` (or
    ``tls://host:8786`` with Dask's TLS settings), or ``local`` / ``local:N``
    for a cluster of N worker processes on this machine (default: one per
    core; at most :func:`max_local_workers`), listening on the loopback
    interface only. A local cluster is closed on exit.

    ``timeout`` (default :data:`DEFAULT_TIMEOUT`, or ``REFEREE_DASK_TIMEOUT``)
    bounds the wait for the scheduler. A local cluster has Dask's dashboard
    only when asked: at ``dashboard`` (or ``REFEREE_DASK_DASHBOARD``), such as
    ``127.0.0.1:8787``.

    A bad address is a :class:`ClusterError`; a scheduler that cannot be
    reached is a :class:`ClusterFailure`. Dask's own log messages are silenced
    while the client is open: its failures come as exceptions.
    """
    seconds = _timeout(timeout)
    workers = _local_workers(address)
    try:
        from distributed import Client
    except ImportError as error:
        raise ClusterError(
            f"Dask is not installed ({error}): pip install 'referee[dask]'"
        ) from None
    with _silenced("distributed"):
        yield from _connect(Client, address, workers, seconds, dashboard)


@contextlib.contextmanager
def _silenced(name: str) -> Iterator[None]:
    """The logger ``name`` and all those under it (Dask gives some their own
    level) say nothing for a while."""
    loggers = [logging.getLogger(name)] + [
        logger
        for key, logger in list(logging.root.manager.loggerDict.items())
        if key.startswith(f"{name}.") and isinstance(logger, logging.Logger)
    ]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _connect(
    client_class: type[Client],
    address: str,
    workers: int | None,
    seconds: float,
    dashboard: str | None,
) -> Iterator[Client]:
    if workers is not None:
        with (
            _local_cluster(workers, dashboard) as cluster,
            client_class(cluster, timeout=seconds) as client,
        ):
            yield client
        return
    security = _security(address)
    client = _started(
        lambda: client_class(address, timeout=seconds, security=security), address, seconds
    )
    try:
        yield client
    finally:
        # A scheduler already gone must not hold the exit up.
        with contextlib.suppress(Exception):
            client.close(timeout=min(seconds, 1.0))


def _started(start: Callable[[], Client], address: str, seconds: float) -> Client:
    """The client ``start()`` makes, within ``seconds`` (and a grace second).

    Dask bounds the connection by its ``timeout`` but not every wait after it:
    a service that is not a Dask scheduler (a web server, say) can answer the
    handshake with bytes Dask reads as a huge frame, or hold it open, and the
    client's start then waits for ever. So the start runs in a daemon thread,
    and a start that has not finished in time is a :class:`ClusterFailure`.
    """
    made: list[Client] = []
    failed: list[BaseException] = []
    lock, abandoned = threading.Lock(), threading.Event()

    def run() -> None:
        try:
            client = start()
        except BaseException as error:
            failed.append(error)
            return
        with lock:
            if not abandoned.is_set():
                made.append(client)
                return
        with contextlib.suppress(Exception):  # too late: nobody will use it
            client.close(timeout=1.0)

    thread = threading.Thread(target=run, name="referee-dask-connect", daemon=True)
    thread.start()
    thread.join(seconds + 1.0)
    with lock:
        if made:
            return made[0]
        abandoned.set()
    if not failed:
        raise ClusterFailure(
            f"no Dask scheduler answered at {address!r} within {seconds:g} s "
            "(is it a Dask scheduler's address?)"
        )
    error = failed[0]
    if isinstance(error, OSError | TimeoutError | MemoryError):
        raise ClusterFailure(
            f"cannot reach the Dask scheduler at {address!r} within {seconds:g} s: "
            f"{type(error).__name__}: {error}"
        ) from None
    if isinstance(error, ValueError | TypeError):
        raise ClusterError(f"cannot use the Dask scheduler address {address!r}: {error}") from None
    raise error


def _local_workers(address: str) -> int | None:
    """How many workers ``local[:N]`` asks for (None: not a local cluster)."""
    kind, colon, count = address.partition(":")
    if kind != "local":
        return None
    limit = max_local_workers()
    if not colon:
        return _cores()
    if not (count.isascii() and count.isdigit()) or int(count[:30]) < 1:
        raise ClusterError(f"expected local or local:N with N at least 1, got {address!r}")
    if len(count) > 30 or int(count) > limit:
        raise ClusterError(
            f"{address!r} asks for {count} worker processes: at most {limit} on this machine "
            f"({LOCAL_WORKERS_PER_CORE} per core)"
        )
    return int(count)


@contextlib.contextmanager
def _local_cluster(workers: int, dashboard: str | None) -> Iterator[LocalCluster]:
    """A cluster of ``workers`` processes on the loopback interface.

    The workers are forked from a fresh *forkserver* process (with Dask and
    referee already imported), not from this one, so they hold none of its
    sockets (the scheduler's among them) nor its threads' locks, and start in
    a fraction of a second once that server is up. As with Dask's own local
    clusters, a script that starts one must guard its entry point with
    ``if __name__ == "__main__":`` (the server imports the script's module).
    """
    import multiprocessing.forkserver

    import dask
    from distributed import LocalCluster
    from distributed.utils import get_mp_context

    dashboard = dashboard or os.environ.get(DASHBOARD_VARIABLE) or None
    options: dict[str, Any] = {}
    settings: dict[str, Any] = {"distributed.worker.multiprocessing-method": "forkserver"}
    if dashboard is None:
        # The scheduler always starts an HTTP server: on loopback, any free
        # port, and with nothing to serve.
        options["scheduler_kwargs"] = {"dashboard_address": "127.0.0.1:0"}
        settings["distributed.scheduler.http.routes"] = []
    with dask.config.set(settings):
        get_mp_context().set_forkserver_preload(
            ["distributed", "referee.distributed", "referee.records"]
        )
        # Its imports (a second or so) go on while the scheduler starts here.
        multiprocessing.forkserver.ensure_running()
        with LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=dashboard,
            silence_logs=logging.ERROR,
            **options,
        ) as cluster:
            yield cluster


def _security(address: str) -> Security:
    """Dask's security settings for ``address``, from Dask's configuration;
    a ClusterError for an address that cannot work from here."""
    from distributed import Security
    from distributed.comm import registry
    from distributed.comm.addressing import parse_address

    try:
        scheme, _ = parse_address(address)
    except ValueError as error:
        raise ClusterError(f"cannot use the Dask scheduler address {address!r}: {error}") from None
    if scheme not in registry.backends:
        raise ClusterError(
            f"cannot use the Dask scheduler address {address!r}: unknown scheme {scheme!r} "
            f"(tcp://, tls://, ws:// or wss://)"
        )
    if scheme == "inproc":
        raise ClusterError(f"{address!r}: an inproc:// scheduler lives in another process")
    if scheme == "ucx" and importlib.util.find_spec("distributed_ucxx") is None:
        raise ClusterError(
            f"{address!r}: ucx:// needs Dask's UCX support (pip install distributed-ucxx); "
            "use a tcp:// or tls:// address"
        )
    try:
        security = Security()
        context = security.get_connection_args("client")["ssl_context"]
    except (OSError, ValueError) as error:  # ssl.SSLError is an OSError
        raise ClusterError(f"Dask's TLS settings cannot be used: {error}") from None
    if scheme == "tls" and context is None:
        raise ClusterError(
            f"{address!r}: a tls:// scheduler needs Dask's TLS settings for the client: "
            "distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and "
            "distributed.comm.tls.client.key in Dask's configuration (or the environment "
            "variables DASK_DISTRIBUTED__COMM__TLS__CA_FILE, ...__CLIENT__CERT, ...__CLIENT__KEY)"
        )
    return security
