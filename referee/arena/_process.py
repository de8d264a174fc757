"""A bot's process: started in its own process group, read with deadlines, always killed.

The referee never blocks on a bot: reads and writes wait with a deadline
(``select``), lines have a maximum length, and :meth:`BotProcess.kill` ends the
whole process group on every path out. A sandboxed bot's process is its
``bwrap``: killing it kills the sandbox's init, and with it every process the
bot started, whatever it did to detach them (see :mod:`referee.arena._sandbox`).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import select
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence

__all__ = ["MAX_DETAIL_CHARS", "BotFault", "BotProcess", "cut", "live_processes"]

#: How long a bot may take to exit after ``quit`` before it is killed.
QUIT_GRACE = 0.5
#: How much of a bot's standard error is kept (the end of it): a bot that writes
#: without end costs the referee neither memory nor disk.
STDERR_KEPT = 1 << 14
#: Longest fault detail (characters): what goes into a result's ``detail``, often
#: quoting what the bot sent, is cut to this (see :func:`cut`).
MAX_DETAIL_CHARS = 300

_SURROGATE = re.compile("[\ud800-\udfff]")


def cut(text: str, limit: int) -> str:
    """``text`` as the referee keeps what a bot sent: at most ``limit`` characters
    (a cut marked ``...``), with lone surrogates (JSON can carry them, UTF-8
    cannot) replaced by U+FFFD, so that a record holding it can be written.

    >>> cut("x" * 1000, 10), cut("fine", 10), cut("\\ud800!", 10)
    ('xxxxxxx...', 'fine', '\ufffd!')
    """
    if len(text) > limit:
        text = text[: max(0, limit - 3)] + "..."
    if not text.isascii():
        text = _SURROGATE.sub("\ufffd", text)
    return text


class BotFault(Exception):
    """A bot broke the rules of the arena; ``fault`` is a stable code.

    ``timeout`` faults end a game as ``timeout``; the others as ``forfeit``.
    ``detail`` says what happened, in at most :data:`MAX_DETAIL_CHARS` characters.

    >>> len(BotFault("invalid_json", "not a JSON line: " + "x" * 10**6).detail)
    300
    """

    def __init__(self, fault: str, detail: str) -> None:
        detail = cut(detail, MAX_DETAIL_CHARS)
        super().__init__(f"{fault}: {detail}")
        self.fault = fault
        self.detail = detail

    @property
    def is_timeout(self) -> bool:
        """Whether the bot ran out of time (rather than breaking the protocol)."""
        return self.fault == "timeout"


_LIVE: set[BotProcess] = set()
_LIVE_LOCK = threading.Lock()


def live_processes() -> list[int]:
    """Process ids of the bot processes this interpreter has started and not yet killed."""
    with _LIVE_LOCK:
        return [p.pid for p in _LIVE]


@atexit.register
def _kill_all() -> None:
    with _LIVE_LOCK:
        processes = list(_LIVE)
    for process in processes:
        process.kill()


class BotProcess:
    """One running bot program, spoken to in lines of bytes."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        max_line: int,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.argv = list(argv)
        self.max_line = max_line
        self._buffer = bytearray()
        self._eof = False
        # Standard error goes through a pipe that a thread drains into a bounded
        # tail (a file would grow as long as the bot writes).
        self._tail = bytearray()
        self._tail_lock = threading.Lock()
        self._stop_draining = threading.Event()
        err_read, err_write = os.pipe()
        try:
            self._popen = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err_write,
                start_new_session=True,
                bufsize=0,
                cwd=cwd,
                env=env,
            )
        except OSError as error:
            os.close(err_read)
            raise BotFault(
                "crash", f"cannot start {self.argv[0]!r}: {error.strerror or error}"
            ) from None
        finally:
            os.close(err_write)
        self._drainer = threading.Thread(
            target=self._drain_stderr, args=(err_read,), name="bot-stderr", daemon=True
        )
        self._drainer.start()
        self.pid = self._popen.pid
        with _LIVE_LOCK:
            _LIVE.add(self)
        assert self._popen.stdin is not None and self._popen.stdout is not None
        self._in = self._popen.stdin.fileno()
        self._out = self._popen.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._killed = False

    # --- writing --------------------------------------------------------------------

    def write(self, data: bytes, deadline: float) -> None:
        """Write ``data`` whole before ``deadline`` (a ``time.monotonic`` value)."""
        view = memoryview(data)
        while view:
            try:
                sent = os.write(self._in, view)
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BotFault("timeout", "the bot does not read its input") from None
                select.select([], [self._in], [], left)
                continue
            except (BrokenPipeError, OSError):
                raise self._gone("closed its input") from None
            view = view[sent:]

    # --- reading --------------------------------------------------------------------

    def readline(self, deadline: float | None) -> bytes:
        """The next line (without its newline); waits until ``deadline`` at most."""
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                if end > self.max_line:
                    raise BotFault("line_too_long", f"a line longer than {self.max_line} bytes")
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                return line
            if len(buffer) > self.max_line:
                raise BotFault("line_too_long", f"a line longer than {self.max_line} bytes")
            if self._eof:
                if buffer:
                    raise self._gone(f"stopped in the middle of a line ({bytes(buffer[:40])!r})")
                raise self._gone("closed its output")
            try:
                chunk = os.read(self._out, 1 << 16)
            except BlockingIOError:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise BotFault("timeout", "no answer in time") from None
                select.select([self._out], [], [], left)
                continue
            if not chunk:
                self._eof = True
            buffer += chunk

    def available_lines(self) -> list[bytes]:
        """The complete lines the bot has written so far, without waiting."""
        lines: list[bytes] = []
        while not self._eof:
            try:
                chunk = os.read(self._out, 1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                self._eof = True
            self._buffer += chunk
            if len(self._buffer) > 4 * self.max_line:
                break
        while b"\n" in self._buffer:
            lines.append(self.readline(None))
        return lines

    def _gone(self, what: str) -> BotFault:
        code = self._popen.poll()
        if code is None:
            try:
                code = self._popen.wait(0.5)
            except subprocess.TimeoutExpired:
                code = None
        tail = self.stderr_tail()
        detail = f"the bot {what}"
        if code is not None:
            detail += f" (exit status {code})"
        if tail:
            # The end of it says most: cut from the front to fit the detail.
            detail += "; its last error output: "
            quoted, room = repr(tail), MAX_DETAIL_CHARS - len(detail)
            if len(quoted) > room:
                quoted = "..." + quoted[len(quoted) - max(room - 3, 0) :]
            detail += quoted
        return BotFault("crash" if code is not None else "closed", detail)

    def stderr_tail(self, size: int = 300) -> str:
        """The end of what the bot wrote to its standard error (at most the last
        :data:`STDERR_KEPT` bytes are kept)."""
        if not self._killed:
            # Give the drainer a moment to take what a crashing bot wrote last
            # (the pipe ends when the bot has exited, unless a child holds it).
            self._drainer.join(1.0 if self._popen.poll() is not None else 0.05)
        with self._tail_lock:
            tail = bytes(self._tail[-size:])
        return tail.decode("utf-8", "replace").strip()

    def _drain_stderr(self, fd: int) -> None:
        """Keep the end of the bot's standard error until it closes (or the bot is
        killed: a grandchild that escaped the process group may hold the pipe)."""
        try:
            while not self._stop_draining.is_set():
                ready, _, _ = select.select([fd], [], [], 0.2)
                if not ready:
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return
                with self._tail_lock:
                    self._tail += chunk
                    if len(self._tail) > STDERR_KEPT:
                        del self._tail[:-STDERR_KEPT]
        except OSError:
            return
        finally:
            os.close(fd)

    # --- ending -----------------------------------------------------------------------

    def close(self, goodbye: bytes = b"") -> None:
        """Say goodbye, give the bot a moment to exit, then kill whatever is left."""
        if self._killed:
            return
        if goodbye:
            with contextlib.suppress(BotFault):
                self.write(goodbye, time.monotonic() + 0.1)
        try:
            assert self._popen.stdin is not None
            self._popen.stdin.close()
        except OSError:
            pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._popen.wait(QUIT_GRACE)
        self.kill()

    def interrupt(self) -> None:
        """Kill the bot's process group now, from any thread (whoever is reading
        from the bot sees it gone; :meth:`kill` still reaps it)."""
        if not self._killed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)

    def kill(self) -> None:
        """Kill the bot's whole process group and reap it (safe to call twice)."""
        if self._killed:
            return
        self._killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._popen.wait(5)
        for stream in (self._popen.stdin, self._popen.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._stop_draining.set()
        self._drainer.join(1.0)
        with _LIVE_LOCK:
            _LIVE.discard(self)
