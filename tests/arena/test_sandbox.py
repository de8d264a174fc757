"""Issue #22: no bot learns what it may not see, and no bot can touch another.

Real cheating bots (``spy_bot.py``, ``detached_bot.js``) play real honest ones:
each attack must fail or be contained, the honest bot must lose nothing by it,
and nothing may outlive the match.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import referee
import referee.arena._sandbox as sandbox_module
from referee.arena import (
    CommandBot,
    GameResult,
    Sandbox,
    SandboxUnavailable,
    arena_game,
    bot_seed,
    game_seed,
    live_processes,
    play_match,
    random_bot,
    sandbox_problem,
)
from referee.records import Match, validate_source
from tests.arena.procs import children, children_since, describe, new_marker, survivors

HERE = Path(__file__).parent
SPY = HERE / "spy_bot.py"
DETACHED = HERE / "detached_bot.js"
RANDOM_PY = str(HERE.parents[1] / "examples" / "bots" / "random_bot.py")
PACKAGE = str(Path(referee.__file__).resolve().parent)

needs_sandbox = pytest.mark.skipif(
    sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}"
)
pytestmark = needs_sandbox


@pytest.fixture
def started() -> list[int]:
    """This process's descendants before the test (see ``children_since``)."""
    return children()


def spy(mode: str, marker: str, folder: Path | None = None, **targets: Any) -> list[str]:
    """The spy's command line (its script copied into ``folder`` when given)."""
    script = SPY
    if folder is not None:
        folder.mkdir(exist_ok=True)
        script = folder / SPY.name
        shutil.copy(SPY, script)
    defaults = {"referee_pid": os.getpid(), "package": PACKAGE}
    return [sys.executable, str(script), mode, marker, json.dumps({**defaults, **targets})]


def reports(result: GameResult, bot: int = 0) -> dict[str, dict[str, Any]]:
    """The spy's reports in a game, by check (the spy is bot ``bot``)."""
    found: dict[str, dict[str, Any]] = {}
    for line in result.logs[result.bots.index(bot)]:
        data = json.loads(line)
        found[data.pop("check")] = data
    return found


def failed(outcome: object) -> bool:
    """Whether an attack's outcome is an error's name (it got nothing)."""
    return isinstance(outcome, str) and outcome.isupper()


@contextlib.contextmanager
def listeners(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A TCP port, an abstract Unix socket and a Unix socket file, all listening."""
    tcp = socket.create_server(("127.0.0.1", 0))
    abstract_name = new_marker()
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind("\0" + abstract_name)
    abstract.listen()
    path = str(tmp_path / "referee.sock")
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(path)
    unix.listen()
    try:
        yield {
            "port": tcp.getsockname()[1],
            "abstract": abstract_name,
            "unix": path,
            "sockets": (tcp, abstract, unix),
        }
    finally:
        for sock in (tcp, abstract, unix):
            sock.close()


def nobody_called(sockets: tuple[socket.socket, ...]) -> bool:
    for sock in sockets:
        sock.setblocking(False)
        try:
            sock.accept()[0].close()
        except BlockingIOError:
            continue
        return False
    return True


# --- what a bot can see and do --------------------------------------------------------------


def test_a_spy_learns_nothing_and_harms_no_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: list[int]
) -> None:
    monkeypatch.setenv("REFEREE_TEST_SECRET", "hunter2")
    secret = tmp_path / "secret.txt"
    secret.write_text("the referee's own file")
    bots = tmp_path / "bots"
    records = bots / "games.jsonl"  # in the spy's own (visible) folder: hidden all the same
    marker = new_marker()
    with listeners(tmp_path) as targets:
        command = spy(
            "spy",
            marker,
            bots,
            records=str(records),
            secret=str(secret),
            cwd=os.getcwd(),
            **{k: v for k, v in targets.items() if k != "sockets"},
        )
        results = play_match([command, RANDOM_PY], "schotten-totten", games=2, records=records)
        assert nobody_called(targets["sockets"])
    assert [r.fault for r in results] == [None, None]  # the honest bot lost nothing
    for result in results:
        found = reports(result)
        assert found["seed"]["found"] is False
    found = reports(results[0])
    assert set(found) >= {"referee", "processes", "pipes", "files", "environment", "network"}
    # The referee's process is out of sight.
    assert all(failed(v) for v in found["referee"].values()), found["referee"]
    assert found["processes"]["foreign"] == []
    assert found["pipes"]["opened"] == []
    # The records being written, the referee's files and its folder are out of reach.
    files = found["files"]
    assert failed(files["records"]) or files["records"] == "read 0 bytes", files
    assert failed(files["secret"]), files
    listing = files["referee_cwd"]
    assert failed(listing) or not {"pyproject.toml", "README.md"} & set(listing), files
    # A minimal environment: no secret of the referee's.
    environment = found["environment"]
    allowed = {"PATH", "HOME", "TMPDIR", "LANG", "LANGUAGE", "TZ", "PYTHONPATH", "PWD"}
    assert {n for n in environment["names"] if not n.startswith("LC_")} <= allowed
    # No network, not even the machine's loopback.
    network = found["network"]
    assert all(failed(v) for v in network.values()), network
    # Writable: its home and its /tmp only.
    writes = found["writes"]
    assert writes.pop("home") == writes.pop("tmp") == "ok"
    assert all(failed(v) for v in writes.values()), writes
    # No terminal, no capabilities, no way to gain privileges.
    status = found["status"]
    assert failed(status["tty"])
    assert status["CapEff"] == status["CapPrm"] == status["CapAmb"] == "0" * 16
    assert status["NoNewPrivs"] == "1"
    if os.geteuid() == 0:
        assert status["Uid"] != "0" and status["CapBnd"] == "0" * 16
    # The records are intact and whole.
    assert all(report.legal for report in validate_source(records))
    assert len(records.read_text().splitlines()) == 2
    assert survivors(marker) == [] and live_processes() == [] and children_since(started) == []


def test_the_spy_refuses_to_attack_outside_a_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its harmful modes check that they run in their own sandbox first (this test
    process is not in one)."""
    import tests.arena.spy_bot as spy_bot

    monkeypatch.setattr(spy_bot, "MARKER", new_marker())
    assert spy_bot.sandboxed() is False


def test_a_bomb_is_contained_by_the_limits(started: list[int]) -> None:
    marker = new_marker()
    box = Sandbox(memory=256 << 20, processes=24, open_files=64)
    command = spy("bomb", marker)
    results = play_match([command, RANDOM_PY], "schotten-totten", games=1, sandbox=box)
    assert results[0].fault is None, results[0].record.result
    limits = reports(results[0])["limits"]
    assert 0 < limits["forks"] < box.processes
    assert 0 < limits["allocated"] <= box.memory
    assert 0 < limits["files"] <= box.open_files
    assert survivors(marker) == [] and children_since(started) == []


def test_default_limits_are_those_documented() -> None:
    box = Sandbox()
    assert (box.memory, box.address_space, box.processes) == (2 << 30, 8 << 30, 64)
    assert (box.open_files, box.file_size, box.scratch) == (256, 64 << 20, 64 << 20)
    with pytest.raises(
        ValueError, match=r"Sandbox processes must be a whole number from 1 to .*, not 0"
    ):
        Sandbox(processes=0)
    with pytest.raises(
        ValueError,
        match=r"Sandbox memory must be a whole number from 1 to 1099511627776, not 1152921504606846976$",
    ):
        Sandbox(memory=1 << 60)  # once, prlimit could not read it and every bot crashed


def test_a_bot_killing_everything_it_may_finds_no_one() -> None:
    """``kill(-1, SIGKILL)`` reaches every process its sender may signal: in the
    sandbox, no one (the opponent, the referee, the sandbox's init are all out of
    reach), so both bots play on."""
    marker = new_marker()
    command = spy("kill_all", marker)
    results = play_match([command, RANDOM_PY], "schotten-totten", games=2)
    assert [r.fault for r in results] == [None, None]
    assert all(reports(r)["killed"]["outcome"] in ("ok", "ESRCH") for r in results)
    assert survivors(marker) == []


# --- nothing outlives the match -----------------------------------------------------------


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_children_die_with_the_sandbox(started: list[int]) -> None:
    """setsid, setpgid, a double fork (Python) and a detached Node child: all gone."""
    leaver, detached = new_marker(), new_marker()
    bots = [spy("leave", leaver), ["node", str(DETACHED), detached]]
    results = play_match(bots, "schotten-totten", games=2)
    assert [r.fault for r in results] == [None, None]
    assert all("left" in reports(r) for r in results)
    assert all(any("left child" in line for line in r.logs[r.bots.index(1)]) for r in results)
    assert survivors(leaver) == [] and survivors(detached) == []
    assert live_processes() == [] and children_since(started) == []


def test_unsandboxed_children_would_outlive_the_match() -> None:
    """The check above can fail: without the sandbox, a setsid child escapes."""
    marker = new_marker()
    try:
        play_match([spy("leave", marker), RANDOM_PY], "schotten-totten", games=1, sandbox=False)
        assert survivors(marker, wait=0.5) != []
    finally:
        for pid in survivors(marker, wait=0):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupted_match_leaves_nothing(jobs: int, started: list[int]) -> None:
    marker = new_marker()

    sent: list[int] = []

    def interrupt(result: GameResult) -> None:
        if jobs == 1:
            raise KeyboardInterrupt
        if not sent:  # the main thread is waiting for the workers: Ctrl-C, once
            sent.append(result.round)
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        play_match(
            [spy("leave", marker), RANDOM_PY],
            "schotten-totten",
            games=40,
            jobs=jobs,
            on_game=interrupt,
        )
    assert survivors(marker) == [], describe(survivors(marker, wait=0))
    assert live_processes() == [] and children_since(started) == []


# --- seeds ---------------------------------------------------------------------------------


def test_a_bots_seed_is_its_own_and_reproducible() -> None:
    """A program bot is told :func:`bot_seed` of the match seed, game and seat (not
    the deal's seed); an in-process bot's ``rng`` is seeded with the same."""
    rngs: list[Any] = []

    def note(turn: Any) -> Any:
        if not rngs or rngs[-1][1] is not turn.rng:
            rngs.append((turn.seat, turn.rng, turn.rng.getstate()))
        return turn.rng.choice(turn.legal_moves)

    command = spy("spy", new_marker())
    results = play_match([command, note], "schotten-totten", games=2, seed=12345)
    for result, (seat, _, state) in zip(results, rngs, strict=True):
        told = reports(result)["seed"]["seed"]
        assert told == bot_seed(12345, result.round, result.bots.index(0))
        assert told != result.seed == game_seed(12345, result.round // 2)
        assert seat == result.bots.index(1)
        assert state == random.Random(bot_seed(12345, result.round, seat)).getstate()


def test_the_seed_guesser_finds_a_leaked_deal_seed() -> None:
    """The spy's guesses work: handed the deal's seed (as the old arena did), it finds
    the deal; handed its own seed, it does not."""
    from tests.arena.spy_bot import guesses

    adapter = arena_game("schotten-totten")

    def hand(match: int, index: int) -> list[str]:
        first, deal = adapter.deal(random.Random(game_seed(match, index // 2)))
        return sorted(map(str, adapter.start(first, deal).hands[0]))

    secret = 2**63 + 99
    for index in range(4):
        deal_seed = game_seed(secret, index // 2)
        assert guesses(deal_seed, 0, index, hand(secret, index)) == deal_seed
        assert guesses(bot_seed(secret, index, 0), 0, index, hand(secret, index)) is None
    # A guessable match seed gives the deals away, whatever the bot is told.
    assert guesses(bot_seed(3, 1, 0), 0, 1, hand(3, 1)) == game_seed(3, 0)


def test_bot_seeds_and_deal_seeds_are_statistically_independent() -> None:
    """Over many matches, no bit of a bot's seed agrees with any bit of its deal's
    seed more than chance allows (5 standard deviations; deterministic inputs)."""
    pairs = [
        (game_seed(match, index // 2), bot_seed(match, index, seat))
        for match in range(500)
        for index in range(4)
        for seat in range(2)
    ]
    n = len(pairs)
    bound = 5 * 0.5 / n**0.5

    def bits(values: list[int], bit: int) -> int:
        """Bit ``bit`` of every value, as one integer (value k at bit k)."""
        return sum(((v >> bit) & 1) << k for k, v in enumerate(values))

    deals = [bits([d for d, _ in pairs], i) for i in range(48)]
    bots = [bits([b for _, b in pairs], j) for j in range(48)]
    everyone = (1 << n) - 1
    for i, deal in enumerate(deals):
        for j, bot in enumerate(bots):
            agree = (~(deal ^ bot) & everyone).bit_count() / n
            assert abs(agree - 0.5) < bound, (i, j, agree)
    assert len({b for _, b in pairs}) == n  # no two bot seeds alike


def test_records_are_written_a_deal_at_a_time(tmp_path: Path) -> None:
    """A deal's records appear once every game on it is over (its mirror too)."""
    for game, bots in (("schotten-totten", 2), ("clans-and-glory", 3)):
        out = tmp_path / f"{game}.jsonl"
        lines_then: list[tuple[int, int]] = []

        def look(
            result: GameResult, out: Path = out, lines_then: list[tuple[int, int]] = lines_then
        ) -> None:
            lines_then.append((result.round, len(out.read_text().splitlines())))

        play_match([random_bot] * bots, game, games=2 * bots, records=out, on_game=look)
        assert lines_then == [(i, (i // bots) * bots) for i in range(2 * bots)]
        assert len(out.read_text().splitlines()) == 2 * bots


# --- mirrored deals --------------------------------------------------------------------------


def _memories(results: list[GameResult], bots: int) -> list[tuple[dict[int, Any], dict[int, Any]]]:
    """For each game (each game of a Clanfehde match): each seat's starting hand, and
    what the bot in it remembered."""
    games: list[tuple[dict[int, Any], dict[int, Any]]] = []
    for result in results:
        logs_per_game: list[list[list[str]]] = []
        if isinstance(result.record, Match):
            logs_per_game = [list(g.meta.get("logs", [])) for g in result.record.games]
        else:
            logs_per_game = [[list(x) for x in result.logs]]
        for logs in logs_per_game:
            hands: dict[int, Any] = {}
            remembered: dict[int, Any] = {}
            for seat, lines in enumerate(logs):
                for line in lines:
                    data = json.loads(line)
                    if data.get("check") == "memory":
                        hands[seat] = data["hand"]
                        remembered[seat] = data["remembered"]
            assert len(hands) == bots
            games.append((hands, remembered))
    return games


def _learned(games: list[tuple[dict[int, Any], dict[int, Any]]]) -> int:
    """How many times a bot remembered another seat's starting hand of its game."""
    return sum(
        other in known
        for hands, remembered in games
        for seat, known in remembered.items()
        for s, other in hands.items()
        if s != seat
    )


@pytest.mark.parametrize(
    ("game", "rules", "bots", "jobs"),
    [
        ("schotten-totten", {}, 2, 1),
        ("clans-and-glory", {"players": 3}, 3, 2),
        ("schotten-totten", {"variants": ["clanfehde"], "rounds": 2}, 2, 1),
    ],
)
def test_no_bot_remembers_a_mirrored_deal(
    game: str, rules: dict[str, Any], bots: int, jobs: int
) -> None:
    commands = [spy("memory", new_marker()) for _ in range(bots)]
    results = play_match(commands, game, rules=rules, games=2 * bots * jobs, jobs=jobs)
    assert all(r.fault is None for r in results)
    games = _memories(results, bots)
    assert any(any(r.values()) for _, r in games)  # they did remember earlier games
    assert _learned(games) == 0


def test_unsandboxed_bots_can_remember_a_mirrored_deal(tmp_path: Path) -> None:
    """The check above can fail: without the sandbox, a file shared by the bot's
    processes carries a hand over to the mirrored game."""
    shared = str(tmp_path / "shared.json")
    commands = [spy("memory", new_marker(), places=[shared]) for _ in range(2)]
    results = play_match(commands, "schotten-totten", games=4, sandbox=False)
    assert _learned(_memories(results, 2)) > 0


# --- where the sandbox cannot be made --------------------------------------------------------


def test_without_bubblewrap_the_cli_refuses_and_says_how(tmp_path: Path) -> None:
    """No bwrap on the PATH: exit status 4 and how to install it; --no-sandbox plays,
    with a warning."""
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {**os.environ, "PATH": str(empty)}
    command = [sys.executable, "-m", "referee", "match", RANDOM_PY, RANDOM_PY, "-n", "2"]
    refused = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert refused.returncode == 4, refused.stderr
    assert "apt-get install bubblewrap" in refused.stderr
    assert "--no-sandbox" in refused.stderr
    assert refused.stdout == ""
    played = subprocess.run(
        [*command, "--no-sandbox", "--seed", "4"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    assert "warning: --no-sandbox" in played.stderr
    assert played.stdout.splitlines()[0].split()[:2] == ["bot", "games"]
    assert "match seed" not in played.stderr  # the seed was given
    drawn = subprocess.run(
        [*command, "--no-sandbox"], capture_output=True, text=True, env=env, timeout=120
    )
    assert drawn.returncode == 0 and "referee: match seed " in drawn.stderr


def test_without_a_sandbox_the_api_refuses_program_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sandbox_module._PROBED, os.geteuid(), "no bubblewrap (a test)")
    with pytest.raises(SandboxUnavailable, match="no bubblewrap"):
        play_match([RANDOM_PY, random_bot], games=1)
    with pytest.raises(SandboxUnavailable):
        play_match([CommandBot([sys.executable, RANDOM_PY], sandbox=True), random_bot], games=1)
    assert play_match([random_bot, random_bot], games=1)[0].fault is None  # trusted code
    assert play_match([RANDOM_PY, random_bot], games=1, sandbox=False)[0].fault is None
    trusted = CommandBot([sys.executable, RANDOM_PY], sandbox=False)
    assert play_match([trusted, random_bot], games=1)[0].fault is None


# --- the sandbox's command line ---------------------------------------------------------------


def test_the_command_line_hides_outputs_and_never_shows_a_whole_home(tmp_path: Path) -> None:
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "bot.py").write_text("print()\n")
    (folder / "games.jsonl").write_text("")
    argv, env = Sandbox().command(
        [sys.executable, "bot.py", "--depth", "3"],
        cwd=str(folder),
        hide=[str(folder / "games.jsonl")],
    )
    real = str(folder.resolve())
    assert argv[-3:] == [f"{real}/bot.py", "--depth", "3"]
    assert argv[argv.index(f"{real}/games.jsonl") - 2 : argv.index(f"{real}/games.jsonl")] == [
        "--ro-bind",
        "/dev/null",
    ]  # hidden, although visible
    binds = [argv[i + 1] for i, a in enumerate(argv) if a == "--ro-bind"]
    assert real in binds and "/" not in binds and str(Path.home()) not in binds
    assert env == {"PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin")}
    with pytest.raises(FileNotFoundError):
        Sandbox().command(["no-such-program-anywhere"])
    # A program in a shared or home folder: its file alone is shown.
    shown = sandbox_module._trees(["/", "/tmp", "/home", str(Path.home()), f"{real}/bot.py"])
    assert shown == [f"{real}/bot.py"]
    with pytest.raises(PermissionError):
        Sandbox().command([str(folder / "games.jsonl")])


# --- a referee that is not root ----------------------------------------------------------------

NON_ROOT = textwrap.dedent(
    """
    import json, os, sys
    from referee.arena import play_match, Sandbox
    command, random_py = json.loads(sys.argv[1]), sys.argv[2]
    box = Sandbox(processes=24)
    results = play_match([command, random_py], "schotten-totten", games=2, sandbox=box)
    print(json.dumps({"uid": os.geteuid(), "faults": [r.fault for r in results],
                      "logs": [r.logs[r.bots.index(0)] for r in results]}))
    """
)


@pytest.mark.skipif(os.geteuid() != 0, reason="the tests run as a non-root user already")
def test_a_referee_that_is_not_root_sandboxes_its_bots_too(tmp_path: Path) -> None:
    """The referee runs as ``nobody`` (in a mount namespace where its Python is
    reachable): the bots run in a user namespace of their own, with the same view
    and the same limits (counted per user namespace)."""
    folder = Path(tmp_path_nonroot := os.path.join("/tmp", new_marker()))
    folder.mkdir(mode=0o777)
    try:
        folder.chmod(0o777)
        marker = new_marker()
        command = spy("bomb", marker, folder)
        reachable = {
            os.path.realpath(p)
            for p in (sys.prefix, sys.base_prefix, Path(PACKAGE).parent, RANDOM_PY)
        }
        outer = ["bwrap", "--bind", "/", "/", "--perms", "0755", "--tmpfs", "/root"]
        made = {"/", "/root"}
        for path in sorted(p for p in reachable if p.startswith("/root/")):
            for parent in reversed(Path(path).parents):
                if str(parent) not in made:
                    made.add(str(parent))
                    outer += ["--perms", "0755", "--dir", str(parent)]
            outer += ["--ro-bind", path, path]
        inner = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
        run = subprocess.run(
            [*outer, *inner, sys.executable, "-c", NON_ROOT, json.dumps(command), RANDOM_PY],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path_nonroot,
            env={**os.environ, "PYTHONPATH": str(Path(PACKAGE).parent)},
        )
        assert run.returncode == 0, run.stderr
        data = json.loads(run.stdout.splitlines()[-1])
        assert data["uid"] == 65534 and data["faults"] == [None, None]
        found = {json.loads(x).pop("check"): json.loads(x) for x in data["logs"][0]}
        for entry in found.values():
            entry.pop("check")
        assert found["processes"]["foreign"] == []
        assert found["pipes"]["opened"] == []
        assert all(failed(v) for k, v in found["referee"].items()), found["referee"]
        assert 0 < found["limits"]["forks"] < 24
        assert found["writes"]["home"] == "ok"
        assert failed(found["writes"]["root"]) and failed(found["writes"]["own_folder"])
        assert survivors(marker) == []
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --- Dask workers -----------------------------------------------------------------------------


def test_dask_workers_sandbox_their_bots_and_hide_the_records(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    from referee.distributed import match_on_dask

    bots = tmp_path / "bots"
    records = bots / "games.jsonl"  # visible to the spy's folder: hidden all the same
    marker = new_marker()
    command = spy("spy", marker, bots, records=str(records))
    with distributed.Client(processes=False, n_workers=1, dashboard_address=":0") as client:
        results = match_on_dask(client, [command, RANDOM_PY], games=2, records=records)
    assert [r.fault for r in results] == [None, None]
    found = reports(results[0])
    assert found["processes"]["foreign"] == [] and found["pipes"]["opened"] == []
    files = found["files"]
    assert failed(files["records"]) or files["records"] == "read 0 bytes", files
    assert len(records.read_text().splitlines()) == 2
    assert survivors(marker) == []


def test_cli_refuses_a_missing_sandbox_read_path() -> None:
    run = subprocess.run(
        [
            *(sys.executable, "-m", "referee", "match", RANDOM_PY, RANDOM_PY),
            "--sandbox-read",
            "/nope",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "--sandbox-read: no such file or folder '/nope'" in run.stderr
