"""A cheating bot: it tries what a bot author with bad intentions would, and reports.

Usage: spy_bot.py MODE MARKER TARGETS, where TARGETS is a JSON object naming what
to go after (the referee's pid, the records file, a listening port, ...). MODE:

* ``spy``: at its first turn it attacks (reads the referee's and any other
  process's ``/proc`` entries, opens other processes' pipes, reads the records
  file and the referee's folder, dumps its environment, reaches for the network,
  writes outside its folders, checks its capabilities and terminal), and at its
  first turn in every game tries to rebuild the deal from its seed;
* ``bomb``: also forks, allocates and opens files until refused (the limits);
* ``leave``: leaves children behind (``setsid``, ``setpgid``, a double fork);
* ``memory``: remembers its starting hand of every game, in memory and in every
  writable place it can find, and reports all it remembers at each game's start;
* ``kill_all``: sends SIGKILL to every process it may signal (``kill(-1)``): never
  run it outside a sandbox.

Every report is a ``log`` line ``{"check": ..., ...}``; then it plays random moves.
MARKER goes on the command line of every process it starts. The harmful modes
(``spy``, ``bomb``, ``kill_all``) run only inside the test's sandbox (its init
carries the marker); anywhere else they report ``refused`` and just play: run
unconfined, they would write into every pipe of the machine.
"""

import contextlib
import errno
import json
import os
import random
import signal
import socket
import stat
import subprocess
import sys
import time

MODE, MARKER, TARGETS, SAFE = "", "", {}, False
SLEEPER = "import time; time.sleep(600)"


def send(message):
    os.write(1, (json.dumps(message, separators=(",", ":")) + "\n").encode())


def report(check, **found):
    send({"type": "log", "text": json.dumps({"check": check, **found}, separators=(",", ":"))})


def outcome(action):
    """What ``action()`` gave, or the name of the error that stopped it."""
    try:
        result = action()
    except OSError as error:
        return errno.errorcode.get(error.errno, type(error).__name__) if error.errno else "OSError"
    except Exception as error:  # a report, whatever happened
        return type(error).__name__
    return result if result is not None else "ok"


def read(path, size=4096):
    with open(path, "rb") as handle:
        return f"read {len(handle.read(size))} bytes"


# --- attacks ------------------------------------------------------------------------------


def processes():
    """Every process visible in /proc: those without the marker are someone else's."""
    foreign = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    line = handle.read()
            except OSError:
                continue
            if MARKER.encode() not in line:
                foreign.append(line[:60].decode("utf-8", "replace"))
    return foreign


def pipes():
    """Open every file or pipe another process holds (its standard streams): the
    processes of its own sandbox (the marker on their command line) excepted."""
    opened = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if MARKER.encode() in handle.read():
                    continue
            fds = os.listdir(f"/proc/{entry}/fd")
        except OSError:
            continue
        for fd in fds:
            for flags in (os.O_WRONLY | os.O_NONBLOCK, os.O_RDONLY | os.O_NONBLOCK):
                try:
                    handle = os.open(f"/proc/{entry}/fd/{fd}", flags)
                except OSError:
                    continue
                # Only ever into a pipe (never a file or a terminal, whatever happens).
                if flags & os.O_WRONLY and stat.S_ISFIFO(os.fstat(handle).st_mode):
                    with contextlib.suppress(OSError):
                        os.write(handle, b'{"type":"resign"}\n')
                os.close(handle)
                opened.append(f"{entry}/{fd}")
    return opened


def sandboxed():
    """Whether this bot runs in its test's sandbox: the namespace's init (pid 1) is
    its own bwrap, with the marker on its command line. The harmful modes refuse
    to run anywhere else (outside a sandbox they would reach the whole machine)."""
    try:
        with open("/proc/1/cmdline", "rb") as handle:
            return MARKER.encode() in handle.read()
    except OSError:
        return False


def network():
    def tcp(host, port):
        with socket.create_connection((host, port), timeout=1):
            return "connected"

    def unix(address):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(1)
            sock.connect(address)
            return "connected"

    return {
        "loopback": outcome(lambda: tcp("127.0.0.1", TARGETS.get("port", 9))),
        "outside": outcome(lambda: tcp("1.1.1.1", 53)),
        "abstract": outcome(lambda: unix("\0" + TARGETS.get("abstract", "referee"))),
        "unix": outcome(lambda: unix(TARGETS.get("unix", "/nonexistent.sock"))),
    }


def writes():
    def write(path):
        with open(path, "a") as handle:
            handle.write("x")

    places = {
        "root": "/x",
        "usr": "/usr/x",
        "etc": "/etc/passwd",
        "own_folder": os.path.join(os.path.dirname(os.path.abspath(__file__)), "x"),
        "referee": os.path.join(TARGETS["package"], "x"),
        "records": TARGETS.get("records", "/nonexistent"),
        "home": os.path.join(os.environ.get("HOME", "/nonexistent"), "x"),
        "tmp": "/tmp/x",
    }
    return {name: outcome(lambda path=path: write(path)) for name, path in places.items()}


def status():
    fields = {}
    with open("/proc/self/status") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in ("CapEff", "CapPrm", "CapBnd", "CapAmb", "NoNewPrivs", "Uid"):
                fields[key] = value.split()[0]
    return fields


def attack():
    referee = TARGETS["referee_pid"]
    report(
        "referee",
        cmdline=outcome(lambda: read(f"/proc/{referee}/cmdline")),
        environ=outcome(lambda: read(f"/proc/{referee}/environ")),
        fd=outcome(lambda: os.listdir(f"/proc/{referee}/fd")),
        mem=outcome(lambda: read(f"/proc/{referee}/mem")),
        cwd=outcome(lambda: os.listdir(f"/proc/{referee}/cwd")),
    )
    report("processes", foreign=processes())
    report("pipes", opened=pipes())
    report(
        "files",
        records=outcome(lambda: read(TARGETS.get("records", "/nonexistent"))),
        secret=outcome(lambda: read(TARGETS.get("secret", "/nonexistent"))),
        referee_cwd=outcome(lambda: sorted(os.listdir(TARGETS.get("cwd", "/nonexistent")))),
    )
    report("environment", names=sorted(os.environ))
    report("network", **network())
    report("writes", **writes())
    report("status", tty=outcome(lambda: os.close(os.open("/dev/tty", os.O_RDWR))), **status())


def limits():
    forks = 0
    try:
        while forks < 1000:
            pid = os.fork()
            if pid == 0:
                time.sleep(600)
                os._exit(0)
            forks += 1
    except OSError:
        pass
    allocated, chunks = 0, []
    try:
        while allocated < 64 << 30:
            chunks.append(bytes(16 << 20))  # mapped, never touched: address space only
            allocated += 16 << 20
    except MemoryError:
        pass
    chunks.clear()
    files, handles = 0, []
    try:
        while files < 100_000:
            handles.append(os.open("/dev/null", os.O_RDONLY))
            files += 1
    except OSError:
        pass
    for handle in handles:
        os.close(handle)
    report("limits", forks=forks, allocated=allocated, files=files)


def leave():
    """Children that try to outlive the bot, each with the marker on its command line."""
    sleeper = [sys.executable, "-c", SLEEPER, MARKER]
    subprocess.Popen(sleeper, start_new_session=True)  # setsid
    subprocess.Popen(sleeper, process_group=0)  # setpgid
    if os.fork() == 0:  # a double fork: the grandchild is orphaned at once
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, sleeper)
        os._exit(0)
    os.wait()
    report("left", children=3)


# --- seeds --------------------------------------------------------------------------------


def guesses(seed, seat, round_, hand, game="schotten-totten"):
    """The candidate deal seeds a cheater would try, given the seed it was told: does
    any of them deal ``hand`` to ``seat``? (Importable: the test checks that it would
    find the deal from the deal's own seed.)"""
    from referee.arena import arena_game, bot_seed, game_seed

    adapter = arena_game(game)
    candidates = {seed, seed // 10, seed - seat, seed ^ seat, seed - 1, seed + 1}
    if (seed - 7 * seat - 1) % 31 == 0:
        candidates.add((seed - 7 * seat - 1) // 31)  # the old bot-seed formula, inverted
    for deal in range(round_ // 2 + 2):
        candidates.add(game_seed(seed, deal))  # the seed taken for the match's
        candidates.add(bot_seed(seed, deal, 0))
    for small in range(64):  # a guessable match seed
        candidates.add(game_seed(small, round_ // 2))
    for candidate in candidates:
        first, deal = adapter.deal(random.Random(candidate))
        state = adapter.start(first, deal)
        if sorted(map(str, state.hands[seat])) == sorted(hand):
            return candidate
    return None


# --- memory across games ------------------------------------------------------------------


def remember(hand):
    """What this process remembers, from its memory and any file it could leave."""
    places = TARGETS.get("places") or (
        [os.path.join(os.environ["HOME"], "memory.json"), "/tmp/m.json", "/dev/shm/m.json"]
        if SAFE  # the machine's own folders are no place to leave files in
        else []
    )
    known = list(MEMORY)
    for place in places:
        try:
            with open(place) as handle:
                known += [h for h in json.load(handle) if h not in known]
        except (OSError, ValueError):
            continue
    MEMORY.append(hand)
    for place in places:
        try:
            with open(place, "w") as handle:
                json.dump([*known, hand] if hand not in known else known, handle)
        except OSError:
            continue
    report("memory", hand=hand, remembered=known)


MEMORY = []


def main():
    seed, seat, first_turn, attacked = 0, 0, True, False
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send({"type": "hello", "protocol": "referee-arena/1", "name": f"spy-{MODE}"})
        elif kind == "game":
            seed, seat, round_ = message["seed"], message["seat"], message["round"]
            first_turn = True
            send({"type": "ready"})
            if MODE == "kill_all" and SAFE:  # in a sandbox: no one else to kill
                report("killed", outcome=outcome(lambda: os.kill(-1, signal.SIGKILL)))
        elif kind == "turn":
            if first_turn:
                first_turn = False
                hand = sorted(message["view"]["hand"])
                if MODE == "memory":
                    remember(hand)
                elif not attacked:
                    attacked = True
                    if MODE in ("spy", "bomb", "kill_all") and not SAFE:
                        report("refused", reason="not in a sandbox")
                    if MODE in ("spy", "bomb") and SAFE:
                        attack()
                    if MODE == "bomb" and SAFE:
                        limits()
                    if MODE == "leave":
                        leave()
                if MODE == "spy":
                    found = guesses(seed, seat, round_, hand)
                    report("seed", seed=seed, found=found is not None)
            send({"type": "move", "move": random.choice(message["legal"])})
        elif kind == "quit":
            return


if __name__ == "__main__":
    MODE, MARKER, TARGETS = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    SAFE = sandboxed()
    main()
