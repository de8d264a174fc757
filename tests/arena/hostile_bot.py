"""A bot that misbehaves in one chosen way (the arena's hostile-bot suite).

Usage: hostile_bot.py MODE MARKER. It plays random legal moves, and breaks the
protocol as MODE says once it has played a few plies (at its first turn for the
modes that start badly). "chatty" never breaks a rule, but logs far more than
the referee keeps, and names itself with a long, unprintable name; "medley"
(named the same) misbehaves in one of MEDLEY's ways each game, by its seed. MARKER is on the command line of the bot and of any
child it starts, so that a test can look for them among the machine's processes
(a sandboxed bot sees pids of its own namespace only).
"""

import json
import os
import random
import signal
import subprocess
import sys
import time

MODE, MARKER = "", ""  # set from the command line (importing this module runs nothing)
# Just under the referee's 1 MiB line limit, with room for the JSON around it.
NEAR_LIMIT = (1 << 20) - 200
# Text no log line, name or detail should carry into a record whole: control
# characters, a lone surrogate (valid JSON, not UTF-8), a character outside the BMP.
NASTY = "\n\x1b[2J\ud800\U0001f600\u2028<"
# The misbehaviours "medley" draws from, one per game (by the bot's seed).
MEDLEY = ("huge_move", "huge_invalid", "enormous", "flood", "chatty", "illegal")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def misbehave(message):
    """Break the protocol at this turn (never returns normally for most modes),
    after a log line that says so (the record keeps a faulty bot's logs)."""
    send({"type": "log", "text": f"about to break the protocol: {MODE}"})
    if MODE in ("hang", "hang_child"):
        if MODE == "hang_child":  # a child that would outlive a careless referee
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", MARKER])
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(600)
    elif MODE == "slow":
        time.sleep(1.5)
        send({"type": "move", "move": message["legal"][0]})
    elif MODE == "crash_mid":
        raise RuntimeError("the bot fell over")
    elif MODE == "garbage":
        sys.stdout.write("this is not JSON\n")
        sys.stdout.flush()
    elif MODE == "half_line":
        sys.stdout.write('{"type": "move", "mo')
        sys.stdout.flush()
        os._exit(0)
    elif MODE == "huge_move":  # parseable, distinct every time, and as long as a line may be
        words = " ".join(random.choice(("R7", "B3", "spy", "clan")) for _ in range(NEAR_LIMIT // 3))
        send({"type": "move", "move": ("return " + words)[:NEAR_LIMIT]})
    elif MODE == "huge_invalid":
        sys.stdout.write("{" * (NEAR_LIMIT // 2) + "not JSON" * (NEAR_LIMIT // 16) + "\n")
        sys.stdout.flush()
    elif MODE == "enormous":
        sys.stdout.write('{"type": "log", "text": "' + "x" * (3 << 20) + '"}\n')
        sys.stdout.flush()
    elif MODE == "flood":
        while True:
            send({"type": "log", "text": "still thinking"})
    elif MODE == "illegal":
        send({"type": "move", "move": "claim 1" if "claim 1" not in message["legal"] else "pass"})
    elif MODE == "wrong_player":
        send({"type": "move", "seat": 1 - message["seat"], "move": message["legal"][0]})
    elif MODE == "close_stdout":
        os.close(1)
        time.sleep(600)
    time.sleep(600)


def main():
    global MODE
    medley = MODE == "medley"
    if MODE == "crash_start":
        sys.exit(3)
    turns = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            version = "referee-arena/0" if MODE == "old_protocol" else "referee-arena/1"
            name = f"hostile-{MODE}"
            if MODE in ("chatty", "medley"):
                name = (name + NASTY) * 1000
            send({"type": "hello", "protocol": version, "name": name})
        elif kind == "game":
            if medley:
                MODE = MEDLEY[message["seed"] % len(MEDLEY)]
            send({"type": "ready"})
        elif kind == "turn":
            turns += 1
            if MODE == "chatty":  # more and longer logs than the referee keeps, every turn
                for _ in range(25):
                    send({"type": "log", "text": NASTY * 200})
            elif turns >= 3 and MODE not in ("ignore_end",):
                misbehave(message)
            send({"type": "move", "move": random.choice(message["legal"])})
        elif kind == "end" and MODE == "ignore_end":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            send({"type": "move", "move": "claim 1"})
        elif kind == "quit" and MODE != "ignore_end":
            return
    if MODE == "ignore_end":
        time.sleep(600)


if __name__ == "__main__":
    MODE, MARKER = sys.argv[1], sys.argv[2]
    main()
