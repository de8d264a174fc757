"""Validating a corpus on a Dask cluster (the optional ``referee[dask]`` extra).

A JSON Lines corpus is cut into partitions by byte range; each worker reads only
its own range and validates each line there. A line belongs to the partition in
which it *starts*: a partition skips the tail of a line begun before it and reads
its own last line to the end, even past its range. Whole JSON files go out in
small batches. Only the per-game reports come back to the client, in corpus
order, through a bounded window of partitions in flight, so the client's memory
stays flat however large the corpus is.

The report is the one ``referee validate`` prints without Dask, byte for byte:
the sources are listed by the same function
(:func:`referee.records._sources.list_sources`) and their lines read by the
same one (:func:`referee.records._stream.iter_lines`). Each game is keyed by its
source and line; a worker lost mid-run only sends its partitions to another
worker, and a partition that cannot be read becomes an *unreadable* report
instead of stopping the run. A cluster that fails (its scheduler lost, or no
worker for :data:`DEFAULT_TIMEOUT` seconds) stops the run with a
:class:`ClusterFailure`, never a hang.

The reading needs no cluster, which makes the line-boundary rule easy to see:

    >>> import tempfile, pathlib
    >>> corpus = pathlib.Path(tempfile.mkdtemp()) / "corpus.jsonl"
    >>> line = '{"game": "schotten-totten", "moves": ["pass"]}'
    >>> _ = corpus.write_text(f"{line}\\n\\n{line}\\n")
    >>> parts = plan_partitions([str(corpus)], partition_bytes=40)
    >>> [(p.start, p.end) for p in parts]
    [(0, 40), (40, 80), (80, 95)]
    >>> [[(g.line, g.offset) for g in read_partition(p).games] for p in parts]
    [[(1, 0)], [(2, 48)], []]
    >>> [read_partition(p).lines for p in parts]
    [1, 2, 0]

The first line runs past byte 40 but is read whole by the first partition; the
second partition starts inside it, so it skips to the blank line (its local
line 1) and the next game (local line 2, byte 48), which it reads to the end;
the third partition starts inside that game and has nothing of its own.

``lines`` counts every line that starts in the partition (blank ones too), so
the client turns the partition-local ``line`` into the corpus line number.

The work is split by job: :mod:`~referee.distributed._partitions` plans and
reads partitions (on the workers), :mod:`~referee.distributed._validate` sends
them through the cluster and puts the reports in corpus order,
:mod:`~referee.distributed._match` plays arena matches,
:mod:`~referee.distributed._connect` reaches or starts a cluster,
:mod:`~referee.distributed._watch` waits on it without hanging, and
:mod:`~referee.distributed._results` writes reports for later analysis.
Import every name from here. Dask sends a task's function by its module and
name, so a worker imports :mod:`~referee.distributed._partitions` to run
:func:`plan_partitions` and :func:`read_partition`.
"""

from __future__ import annotations

from referee.distributed._connect import connect
from referee.distributed._match import match_on_dask
from referee.distributed._partitions import (
    DEFAULT_PARTITION_BYTES,
    MIN_PARTITION_BYTES,
    KeyedReport,
    Partition,
    PartitionResult,
    plan_partitions,
    read_partition,
)
from referee.distributed._results import ResultsWriter
from referee.distributed._settings import (
    DASHBOARD_VARIABLE,
    DEFAULT_TIMEOUT,
    LOCAL_WORKERS_PER_CORE,
    TIMEOUT_VARIABLE,
    ClusterError,
    ClusterFailure,
    max_local_workers,
)
from referee.distributed._validate import _Ledger as _Ledger
from referee.distributed._validate import (
    validate_on_address,
    validate_on_dask,
    validate_partitions,
)

__all__ = [
    "DASHBOARD_VARIABLE",
    "DEFAULT_PARTITION_BYTES",
    "DEFAULT_TIMEOUT",
    "LOCAL_WORKERS_PER_CORE",
    "MIN_PARTITION_BYTES",
    "TIMEOUT_VARIABLE",
    "ClusterError",
    "ClusterFailure",
    "KeyedReport",
    "Partition",
    "PartitionResult",
    "ResultsWriter",
    "connect",
    "match_on_dask",
    "max_local_workers",
    "plan_partitions",
    "read_partition",
    "validate_on_address",
    "validate_on_dask",
    "validate_partitions",
]
