"""A cluster that fails, or cannot be used as asked, fails loudly: within the
documented timeout (shortened here through ``REFEREE_DASK_TIMEOUT``), with a
clear message, a summary of what was done, and exit status 3 (2 for a bad
address), never a traceback or a hang.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from itertools import islice
from pathlib import Path

import psutil
import pytest

from referee.cli import main
from referee.distributed import (
    ClusterFailure,
    connect,
    max_local_workers,
    validate_on_dask,
)
from referee.records import ValidationReport
from tests.distributed.conftest import scheduler_process

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "records"
BOTS = ROOT / "examples" / "bots"
# A lost scheduler is seen at once; the workers start with the client, so the
# wait for them is not cut short.
LONG = {**os.environ, "REFEREE_DASK_TIMEOUT": "60"}
SUMMARY = re.compile(r"(\d+) records: (\d+) legal, (\d+) illegal, (\d+) unreadable")


def status(report: ValidationReport) -> str:
    if report.input_error is not None:
        return "unreadable"
    return "legal" if report.legal else "illegal"


# --- the scheduler lost, or no worker ---------------------------------------------------


@pytest.mark.parametrize(
    ("stop", "reason"),
    [
        (signal.SIGTERM, "the connection closed"),  # the scheduler closes, politely
        (signal.SIGKILL, "the connection closed"),
        (signal.SIGSTOP, "no answer within 2 s"),  # it hangs: only the timeout tells
    ],
    ids=["SIGTERM", "SIGKILL", "SIGSTOP"],
)
def test_scheduler_stopped_mid_run_ends_the_run_with_a_summary(
    stop: signal.Signals, reason: str, corpus_10k: Path, local_10k: list[ValidationReport]
) -> None:
    # A hung scheduler is seen only after the timeout: make it short, once the
    # worker has joined (its start is not what is tested).
    hangs = stop == signal.SIGSTOP
    with scheduler_process(workers=1, joined=hangs) as cluster:
        run = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "referee",
                "validate",
                "--quiet",
                str(corpus_10k),
                "--dask",
                cluster.address,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**LONG, "REFEREE_DASK_TIMEOUT": "2"} if hangs else LONG,
        )
        assert run.stdout is not None
        # The client has printed (not through a buffer that communicate() would skip).
        first = os.read(run.stdout.fileno(), 1 << 16)
        for worker in cluster.workers:
            worker.send_signal(signal.SIGSTOP)  # so that it cannot end before the scheduler
        cluster.scheduler.send_signal(stop)
        out, err = run.communicate(timeout=120)
    assert run.returncode == 3, err
    lines = (first + out).decode().splitlines()
    found = SUMMARY.fullmatch(lines[-1])
    assert found, lines[-1]
    done = int(found[1])
    assert 0 < done < len(local_10k)
    # What was printed is the local report of the first games, and the summary counts them.
    checked = local_10k[:done]
    assert lines[:-1] == [r.summary() for r in checked if status(r) != "legal"]
    assert [int(n) for n in found.groups()[1:]] == [
        sum(status(r) == s for r in checked) for s in ("legal", "illegal", "unreadable")
    ]
    assert err.decode() == (
        f"referee: lost the Dask scheduler at {cluster.address!r} ({reason}); "
        f"stopped after {done} records, the rest were not checked\n"
    )


def test_scheduler_without_workers_fails_within_the_timeout(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REFEREE_DASK_TIMEOUT", "1")
    with scheduler_process() as cluster:
        assert main(["validate", str(EXAMPLES), "--dask", cluster.address]) == 3
    out, err = capsys.readouterr()
    assert out == "0 records: 0 legal, 0 illegal, 0 unreadable\n"
    assert err == (
        f"referee: no worker joined the Dask scheduler at {cluster.address!r} within 1 s; "
        "stopped after 0 records, the rest were not checked\n"
    )


def test_cluster_left_without_workers_fails_after_the_timeout(
    corpus_10k: Path, local_10k: list[ValidationReport]
) -> None:
    with (
        distributed.LocalCluster(
            n_workers=1, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        reports = validate_on_dask(client, [corpus_10k], partition_bytes=100_000, timeout=1)
        got = list(islice(reports, 500))
        cluster.scale(0)  # the last worker leaves, and none comes back
        with pytest.raises(ClusterFailure) as failure:
            got += reports
    assert str(failure.value) == (
        f"the Dask scheduler at {cluster.scheduler_address!r} has had no worker for 1 s"
    )
    assert got == local_10k[: len(got)]  # each game finished is reported once, in order


def test_unreachable_scheduler_exits_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REFEREE_DASK_TIMEOUT", "0.5")
    assert main(["validate", str(EXAMPLES), "--dask", "tcp://127.0.0.1:9"]) == 3
    out, err = capsys.readouterr()
    assert out == "0 records: 0 legal, 0 illegal, 0 unreadable\n"
    assert err.startswith(
        "referee: cannot reach the Dask scheduler at 'tcp://127.0.0.1:9' within 0.5 s: "
    )


@pytest.mark.parametrize(
    "answer", [b"", b"HTTP/1.0 400 Bad request\r\n\r\n"], ids=["silent", "web"]
)
def test_a_service_that_is_not_a_scheduler_exits_3_within_the_timeout(answer: bytes) -> None:
    """A web server (or a silent service) at the address: Dask would wait for
    ever on its handshake, or read the answer as a huge frame."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    held: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = server.accept()
                held.append(conn)
                if answer:
                    conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "referee",
                "validate",
                str(EXAMPLES),
                "--dask",
                f"tcp://127.0.0.1:{port}",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "REFEREE_DASK_TIMEOUT": "2"},
            check=False,
        )
    finally:
        server.close()
        for conn in held:
            conn.close()
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    assert f"at 'tcp://127.0.0.1:{port}'" in done.stderr.splitlines()[-1]


def test_match_scheduler_stopped_mid_match_keeps_the_games_done(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    with scheduler_process(workers=1) as cluster:
        run = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "referee",
                "match",
                str(BOTS / "random_bot.py"),
                str(BOTS / "greedy.py"),
                "-n",
                "500",
                "--json",
                "--progress",
                "--records",
                str(records),
                "--dask",
                cluster.address,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=LONG,
        )
        assert run.stderr is not None
        shown = b""  # the progress bar on standard error counts the games done
        while b" 1/500 games" not in shown and (piece := os.read(run.stderr.fileno(), 4096)):
            shown += piece
        for worker in cluster.workers:
            worker.send_signal(signal.SIGSTOP)
        cluster.scheduler.send_signal(signal.SIGTERM)
        out, err = run.communicate(timeout=120)
    assert run.returncode == 3, shown + err
    done = len(records.read_text().splitlines())
    assert 1 <= done < 500
    assert [row["games"] for row in json.loads(out)] == [done, done]
    message = (shown + err).decode().rsplit("\n", 2)[-2]
    assert message == (
        f"referee: lost the Dask scheduler at {cluster.address!r} (the connection closed); "
        f"stopped after {done} of 500 games"
    )
    assert b"Traceback" not in err


# --- addresses that cannot work ---------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("tls://127.0.0.1:9", "a tls:// scheduler needs Dask's TLS settings for the client"),
        ("ucx://127.0.0.1:9", "ucx:// needs Dask's UCX support"),
        ("inproc://127.0.0.1/1/1", "an inproc:// scheduler lives in another process"),
        ("foo://127.0.0.1:9", "unknown scheme 'foo'"),
        ("local:99999999999999", "asks for 99999999999999 worker processes: at most"),
        ("local:1000", "asks for 1000 worker processes: at most"),
        (f"local:{max_local_workers() + 1}", f"at most {max_local_workers()} on this machine"),
    ],
)
@pytest.mark.parametrize("command", ["validate", "match"])
def test_address_that_cannot_work_is_refused_at_once(
    address: str, message: str, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if address.startswith("ucx") and distributed.comm.registry.backends.get("ucx") is None:
        pytest.skip("no ucx:// in this Dask")
    inputs = [str(EXAMPLES)] if command == "validate" else [str(BOTS / "random_bot.py")] * 2
    assert main([command, *inputs, "--dask", address]) == 2
    out, err = capsys.readouterr()
    assert message in err and err.startswith("referee: ") and err.count("\n") == 1
    assert "Traceback" not in err and out == ""


def test_bad_timeout_setting_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REFEREE_DASK_TIMEOUT", "soon")
    assert main(["validate", str(EXAMPLES), "--dask", "local:1"]) == 2
    assert (
        "REFEREE_DASK_TIMEOUT must be seconds (0 to 86400), not 'soon'" in capsys.readouterr().err
    )


def test_tls_scheduler_with_dasks_tls_settings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("cryptography")
    dask = pytest.importorskip("dask")
    security = distributed.Security.temporary()
    settings = {
        "distributed.comm.tls.ca-file": security.tls_ca_file,
        "distributed.comm.tls.client.cert": security.tls_client_cert,
        "distributed.comm.tls.client.key": security.tls_client_key,
    }
    with distributed.LocalCluster(
        n_workers=1,
        processes=False,
        protocol="tls",
        host="127.0.0.1",
        security=security,
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tls://")
        assert main(["validate", str(EXAMPLES)]) == 0
        alone = capsys.readouterr().out
        with dask.config.set(settings):
            assert main(["validate", str(EXAMPLES), "--dask", address]) == 0
    assert capsys.readouterr().out == alone


# --- a local cluster -----------------------------------------------------------------------


def listening(pid: int | None = None) -> set[tuple[str, int]]:
    """The addresses the process listens on (TCP)."""
    process = psutil.Process(pid)
    return {
        (c.laddr.ip, c.laddr.port)
        for c in process.net_connections(kind="tcp")
        if c.status == psutil.CONN_LISTEN
    }


def test_local_cluster_is_on_loopback_without_dashboard_or_inherited_sockets() -> None:
    before = listening()
    with connect("local:2") as client:
        info = client.scheduler_info()
        mine = listening() - before
        workers = client.run(listening)
        http = info["services"]["dashboard"]  # Dask's HTTP server, always started...
        with pytest.raises(urllib.error.HTTPError, match="404"):
            urllib.request.urlopen(f"http://127.0.0.1:{http}/status", timeout=10)  # ...bare
    assert info["address"].startswith("tcp://127.0.0.1:")
    assert mine and all(ip == "127.0.0.1" for ip, _ in mine)
    assert ("127.0.0.1", http) in mine
    scheduler_port = int(info["address"].rsplit(":", 1)[1])
    assert len(workers) == 2
    for address, sockets in workers.items():
        assert address.startswith("tcp://127.0.0.1:")
        # Each worker listens on its own loopback port and holds none of the client's.
        assert sockets and all(ip == "127.0.0.1" for ip, _ in sockets)
        assert not sockets & mine and scheduler_port not in {port for _, port in sockets}
