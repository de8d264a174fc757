"""Arena matches on a Dask cluster: the same games and table as a local run with the same seed."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.distributed import match_on_dask
from tests.distributed.conftest import start_cluster
from tests.distributed.test_faults import kill_a_busy_worker

distributed = pytest.importorskip("distributed")
arena = pytest.importorskip("referee.arena")

BOTS = Path(__file__).parents[2] / "examples" / "bots"
RANDOM_PY, GREEDY_PY = str(BOTS / "random_bot.py"), str(BOTS / "greedy.py")


def signature(results: list[object]) -> list[tuple[object, ...]]:
    return [(r.round, r.bots, r.names, r.record, r.points, r.reason, r.fault) for r in results]


def test_match_on_dask_gives_the_local_games_table_and_records(
    client: distributed.Client, tmp_path: Path
) -> None:
    # Command bots: started on the workers, one process per seat per game.
    bots = [RANDOM_PY, GREEDY_PY]
    local = arena.play_match(bots, "schotten-totten", games=6, seed=3, records=tmp_path / "a.jsonl")
    seen: list[int] = []
    spread = match_on_dask(
        client,
        bots,
        "schotten-totten",
        games=6,
        seed=3,
        records=tmp_path / "b.jsonl",
        on_game=lambda r: seen.append(r.round),
    )
    assert all(r.fault is None for r in local)  # the bots really played
    assert signature(spread) == signature(local)
    assert arena.render_table(arena.tally(spread, 2)) == arena.render_table(arena.tally(local, 2))
    assert (tmp_path / "b.jsonl").read_text() == (tmp_path / "a.jsonl").read_text()
    assert seen == list(range(6))


def test_match_on_dask_in_process_bots_with_options(client: distributed.Client) -> None:
    bots = [arena.random_bot] * 3
    options = {"rules": {"players": 3}, "max_plies": 40}
    local = arena.play_match(bots, "clans-and-glory", games=9, seed=8, **options)
    out = io.StringIO()
    spread = match_on_dask(client, bots, "clans-and-glory", games=9, seed=8, records=out, **options)
    assert signature(spread) == signature(local)
    assert len(out.getvalue().splitlines()) == 9


def test_match_game_lost_with_its_worker_is_played_once() -> None:
    bots = [RANDOM_PY, GREEDY_PY]
    local = arena.play_match(bots, "schotten-totten-2", games=10, seed=5)
    with start_cluster() as cluster, distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        results: list[object] = []

        def kill_after_two(result: object) -> None:
            results.append(result)
            if len(results) == 2:
                kill_a_busy_worker(client, pids, prefix="referee-match-")

        spread = match_on_dask(
            client, bots, "schotten-totten-2", games=10, seed=5, window=4, on_game=kill_after_two
        )
        survivors = client.run(os.getpid)
    assert not set(pids) <= set(survivors)  # a worker was replaced
    assert all(r.fault is None for r in local)
    assert signature(spread) == signature(local)


def test_match_on_dask_refuses_a_negative_number_of_games(client: distributed.Client) -> None:
    with pytest.raises(ValueError, match="the number of games must be 0 or more, not -1"):
        match_on_dask(client, [arena.random_bot] * 2, games=-1)


def test_cli_match_on_dask_prints_the_local_table_and_records(tmp_path: Path) -> None:
    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                *(sys.executable, "-m", "referee", "match", RANDOM_PY, GREEDY_PY),
                *("-n", "4", "--seed", "5", "--json", *extra),
            ],
            capture_output=True,
            text=True,
            timeout=240,
        )

    local = run("--records", str(tmp_path / "a.jsonl"))
    spread = run("--records", str(tmp_path / "b.jsonl"), "--dask", "local:2")
    assert local.returncode == spread.returncode == 0, spread.stderr
    assert spread.stdout == local.stdout and '"games": 4' in local.stdout
    assert (tmp_path / "b.jsonl").read_text() == (tmp_path / "a.jsonl").read_text()
    refused = run("--dask", "local:zero")
    assert refused.returncode == 2 and "local:N" in refused.stderr


def test_cli_match_on_dask_starts_relative_bots_from_the_clients_folder(
    client: distributed.Client, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The workers sit in another folder than the client, as on a real cluster.
    monkeypatch.chdir(BOTS.parent)
    assert str(BOTS.parent) not in client.run(os.getcwd).values()
    bots = ["bots/random_bot.py", f"{sys.executable} bots/greedy.py"]
    args = ["match", *bots, "-n", "2", "--seed", "4", "--json"]
    assert main(args) == 0
    local = capsys.readouterr().out
    assert main([*args, "--dask", client.scheduler.address]) == 0
    assert capsys.readouterr().out == local
    rows = json.loads(local)
    assert [row["name"] for row in rows] == ["random_bot.py", "greedy.py"]
    assert all(row["faults"] == 0 for row in rows)  # both really played
