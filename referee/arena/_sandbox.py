"""The sandbox a bot program runs in: bubblewrap namespaces, a private file system, limits.

Every bot program runs, by default, inside ``bwrap`` (bubblewrap, Linux) with:

* its own PID, IPC, network, UTS and cgroup namespaces: it sees no process but its
  own (not the referee, not the other bots), shares no System V IPC or abstract
  socket with anyone, and has no network but a loopback of its own;
* a file system built for it: the system folders (``/usr``, ``/etc``, ``/opt``
  and the ``/bin``-style links) and the folders its command names (its
  interpreter, its program's folder, the installed ``referee`` package) read-only,
  a private ``/tmp`` and a private, fresh working folder (its ``HOME``), each a
  size-limited tmpfs that vanishes with it; nothing else of the machine (the
  referee's working folder, other users' files) and never the referee's output
  (the records file, or its standard output and error when they are files: an
  empty file is mounted over them wherever they are otherwise visible);
* no capabilities, ``no_new_privs``, a new session (no controlling terminal, so
  no ``TIOCSTI``), a minimal environment (``PATH``, the locale, ``HOME``,
  ``TMPDIR``, and ``PYTHONPATH`` when the ``referee`` package needs it);
* resource limits (:class:`Sandbox`'s fields), counted per sandbox: when the
  referee runs as root the bot runs as a random unprivileged uid of its own,
  otherwise in a user namespace of its own;
* ``--die-with-parent``: when its ``bwrap`` dies (the referee kills it, or the
  referee itself dies), the sandbox's init dies and the kernel kills every
  process in the namespace, whatever the bot did to detach them.
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from referee.arena._limits import quoted

__all__ = [
    "EXIT_NO_SANDBOX",
    "HOME",
    "MAX_COUNT",
    "MAX_SIZE",
    "Sandbox",
    "SandboxUnavailable",
    "sandbox_problem",
]

#: The bot's working folder inside the sandbox (also its ``HOME``).
HOME = "/home/bot"
#: ``referee match``'s exit status when bot programs cannot be sandboxed here.
EXIT_NO_SANDBOX = 4

MIB = 1 << 20
GIB = 1 << 30
#: Largest size a :class:`Sandbox` limit may have (``memory``, ``address_space``,
#: ``file_size``, ``scratch``): 1 TiB.
MAX_SIZE = 1 << 40
#: Largest count a :class:`Sandbox` limit may have (``processes``, ``open_files``).
MAX_COUNT = 1 << 20

# Host folders every sandbox sees read-only (those that exist; the /bin-style
# links of a merged /usr are recreated as links).
_SYSTEM = ("/usr", "/etc", "/opt", "/nix/store")
_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# Folders that are never shown whole: everyone's scratch space, and the sandbox's own.
_SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/run", "/var", "/mnt", "/media", "/srv")
# Environment variables a bot is given (besides HOME, TMPDIR and PYTHONPATH).
_PASSED = ("PATH", "LANG", "LANGUAGE", "TZ")
_DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"


class SandboxUnavailable(RuntimeError):
    """Bot programs cannot be sandboxed on this machine (no bubblewrap, or no
    namespaces); the message says what to install or change. Trusted bots can
    still be played with ``sandbox=False`` (``referee match --no-sandbox``)."""


@dataclass(frozen=True)
class Sandbox:
    """How bot programs are confined (the defaults are what ``referee match`` uses).

    Limits are per process of the bot (``RLIMIT_*``), except ``processes``, which
    counts every process and thread of one sandbox together:

    * ``memory``: writable private memory (``RLIMIT_DATA``: the heap, anonymous
      maps), 2 GiB;
    * ``address_space``: all mapped memory (``RLIMIT_AS``, which also bounds shared
      maps), 8 GiB (Node and Java reserve far more address space than they use);
    * ``processes``: 64 (``RLIMIT_NPROC``, in a uid or user namespace of its own);
    * ``open_files``: 256 (``RLIMIT_NOFILE``);
    * ``file_size``: 64 MiB per file (``RLIMIT_FSIZE``); no core dumps;
    * ``scratch``: the size of each of ``/tmp``, ``/dev/shm`` and the working
      folder (tmpfs), 64 MiB.

    Sizes are at most :data:`MAX_SIZE` (1 TiB), counts at most :data:`MAX_COUNT`
    (``ValueError`` beyond).

    ``read`` lists more host paths the bots may read (data files, an interpreter
    outside the system folders); ``hide`` paths the bots must never read (an
    empty file or folder is mounted over them where they would be visible).

    >>> Sandbox().processes, Sandbox(memory=512 << 20).memory >> 20
    (64, 512)
    >>> Sandbox().hiding("games.jsonl").hide[0].endswith("games.jsonl")
    True
    """

    memory: int = 2 * GIB
    address_space: int = 8 * GIB
    processes: int = 64
    open_files: int = 256
    file_size: int = 64 * MIB
    scratch: int = 64 * MIB
    read: tuple[str, ...] = ()
    hide: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("memory", "address_space", "processes", "open_files", "file_size", "scratch"):
            value = getattr(self, name)
            high = MAX_COUNT if name in ("processes", "open_files") else MAX_SIZE
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= high:
                raise ValueError(
                    f"Sandbox {name} must be a whole number from 1 to {high}, not {quoted(value)}"
                )
        object.__setattr__(self, "read", tuple(os.fspath(p) for p in self.read))
        object.__setattr__(self, "hide", tuple(os.fspath(p) for p in self.hide))

    def hiding(self, *paths: str | os.PathLike[str]) -> Sandbox:
        """This sandbox, also hiding ``paths`` (made absolute) from the bots."""
        more = tuple(os.path.abspath(p) for p in paths)
        return replace(self, hide=self.hide + tuple(p for p in more if p not in self.hide))

    def command(
        self, argv: Sequence[str], cwd: str | None = None, hide: Sequence[str] = ()
    ) -> tuple[list[str], dict[str, str]]:
        """The command line and environment that run ``argv`` in this sandbox.

        Paths in ``argv`` are resolved against ``cwd`` (default: the referee's
        working folder) and made absolute; the bot starts in its fresh working
        folder :data:`HOME`. A program that cannot be found or run raises
        :class:`OSError` (before anything is started).
        """
        base = os.path.abspath(cwd or os.getcwd())
        program, visible = _resolve_program(argv[0], base)
        words = [program]
        for word in argv[1:]:
            path = os.path.join(base, word)
            if word and os.path.exists(path):
                resolved = _real_dir_path(path)
                words.append(resolved)
                visible.append(resolved if os.path.isdir(resolved) else os.path.dirname(resolved))
                visible.append(os.path.realpath(path))
            else:
                words.append(word)
        for extra in self.read:
            if os.path.exists(extra):
                visible.append(os.path.realpath(extra))
        env = _bot_environment()
        for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
            visible.append(os.path.realpath(prefix))
        package, python_path = _referee_package()
        visible.append(package)
        if python_path is not None:
            env["PYTHONPATH"] = python_path
        trees = _trees(visible)
        hidden = _hidden([*self.hide, *hide, *_referee_outputs()], trees)
        return [*self._bwrap(trees, hidden, env), *self._limits(), "--", *words], _bwrap_env()

    # --- the bwrap command line -------------------------------------------------------------

    def _bwrap(self, trees: list[str], hidden: list[str], env: dict[str, str]) -> list[str]:
        bwrap = shutil.which("bwrap") or "bwrap"
        args = [bwrap]
        root = os.geteuid() == 0
        if not root:
            args += ["--unshare-user", "--disable-userns"]
        args += [
            *("--unshare-pid", "--unshare-ipc", "--unshare-net", "--unshare-uts"),
            *("--unshare-cgroup-try", "--hostname", "arena"),
            *("--die-with-parent", "--new-session", "--clearenv"),
        ]
        for name, value in env.items():
            args += ["--setenv", name, value]
        for path in _SYSTEM:
            if os.path.isdir(path):
                args += ["--ro-bind", path, path]
        for link in _LINKS:
            if os.path.islink(link):
                args += ["--symlink", os.readlink(link), link]
            elif os.path.isdir(link):
                args += ["--ro-bind", link, link]
        size = str(self.scratch)
        args += ["--proc", "/proc", "--dev", "/dev"]
        args += ["--perms", "1777", "--size", size, "--tmpfs", "/dev/shm"]
        args += ["--perms", "1777", "--size", size, "--tmpfs", "/tmp"]
        made: set[str] = {"/", "/tmp", "/dev", "/proc", *_SYSTEM, *_LINKS}
        for tree in trees:
            args += _parents(tree, made)
            args += ["--ro-bind", tree, tree]
        args += _parents(HOME, made)
        args += ["--perms", "0777" if root else "0700", "--size", size, "--tmpfs", HOME]
        for path in hidden:
            if os.path.isdir(path):
                args += ["--perms", "0000", "--size", "4096", "--tmpfs", path]
            else:
                args += ["--ro-bind", "/dev/null", path]
        args += ["--remount-ro", "/", "--chdir", HOME]
        if root:
            # The bot gets a random unprivileged uid of its own (the kernel counts
            # processes per uid, and never limits uid 0), and no capabilities.
            uid = str(_fresh_uid())
            args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
            args += ["--cap-add", "CAP_SETPCAP", "--"]
            args += [_tool("setpriv"), "--reuid", uid, "--regid", uid, "--clear-groups"]
            args += ["--inh-caps=-all", "--bounding-set=-all"]
        else:
            args += ["--"]
        return args

    def _limits(self) -> list[str]:
        return [
            _tool("prlimit"),
            f"--nproc={self.processes}",
            f"--data={self.memory}",
            f"--as={self.address_space}",
            f"--nofile={self.open_files}",
            f"--fsize={self.file_size}",
            "--core=0",
        ]


# --- what the bot sees --------------------------------------------------------------------


def _resolve_program(program: str, base: str) -> tuple[str, list[str]]:
    """The program's path as the sandbox runs it, and the host folders it needs."""
    if "/" in program:
        found: str | None = os.path.join(base, program)
    else:
        found = shutil.which(program)
        if found is not None and _is_shim(found, program):
            found = sys.executable
    if found is None or not os.path.isfile(found):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
    if not os.access(found, os.X_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), program)
    path = _real_dir_path(found)
    visible = [path, os.path.dirname(path), os.path.dirname(os.path.realpath(path))]
    visible += _prefix_of(path)
    interpreter = _shebang(os.path.realpath(path))
    if interpreter is not None:
        visible += _prefix_of(interpreter)
        visible.append(os.path.dirname(os.path.realpath(interpreter)))
    return path, visible


def _is_shim(path: str, name: str) -> bool:
    """Whether ``path`` is a version manager's wrapper script for this Python (pyenv's
    shims need the whole manager): the sandbox runs the referee's own Python instead."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    return name in ("python", "python3", version) and "shims" in Path(path).parts


def _real_dir_path(path: str) -> str:
    """``path`` with its folders resolved (symbolic links followed) but its own name kept."""
    return os.path.join(
        os.path.realpath(os.path.dirname(os.path.abspath(path))), os.path.basename(path)
    )


def _prefix_of(executable: str) -> list[str]:
    """The installation a program in ``PREFIX/bin`` needs: a Python's prefix (its
    ``lib/python*``), or a virtual environment's folder."""
    found: list[str] = []
    for path in {os.path.abspath(executable), os.path.realpath(executable)}:
        folder = os.path.dirname(path)
        if os.path.basename(folder) != "bin":
            continue
        prefix = os.path.dirname(folder)
        lib = Path(prefix, "lib")
        if Path(prefix, "pyvenv.cfg").is_file() or (lib.is_dir() and any(lib.glob("python3*"))):
            found.append(os.path.realpath(prefix))
    return found


def _shebang(path: str) -> str | None:
    """The interpreter a script names on its ``#!`` line (``env NAME`` looked up)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
    if not words:
        return None
    if os.path.basename(words[0]) == "env" and len(words) > 1:
        return shutil.which(words[-1])
    return words[0]


def _referee_package() -> tuple[str, str | None]:
    """The ``referee`` package's folder (bots may ``import referee``), and the
    ``PYTHONPATH`` that finds it when it is not installed in the interpreter."""
    package = os.path.realpath(Path(__file__).resolve().parents[1])
    parent = os.path.dirname(package)
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)}
    if any(_inside(parent, prefix) for prefix in prefixes):
        return package, None
    return package, parent


def _inside(path: str, tree: str) -> bool:
    return path == tree or path.startswith(tree.rstrip("/") + "/")


def _trees(paths: Sequence[str]) -> list[str]:
    """The folders and files to bind: existing, never ``/``, a home folder or a
    shared scratch folder as a whole (a program there gets only its own file),
    none inside another or inside a system folder, parents first."""
    homes = {os.path.realpath(Path.home()), "/root", "/home", *_SHARED}
    homes.update(os.path.realpath(p) for p in _SHARED if os.path.exists(p))
    if os.path.isdir("/home"):
        homes.update(os.path.realpath(p) for p in Path("/home").iterdir())
    chosen: set[str] = set()
    for path in paths:
        if not path or not os.path.exists(path):
            continue
        path = os.path.realpath(path)
        if path == "/" or path in homes:
            continue
        chosen.add(path)
    system = [p for p in (*_SYSTEM, "/proc", "/dev") if os.path.isdir(p)]
    ordered = sorted(chosen, key=lambda p: (p.count("/"), p))
    kept: list[str] = []
    for path in ordered:
        if any(_inside(path, tree) for tree in (*system, *kept)):
            continue
        kept.append(path)
    return kept


def _hidden(paths: Sequence[str], trees: Sequence[str]) -> list[str]:
    """The paths to cover: those that exist and would be visible in the sandbox."""
    visible = [*trees, *(p for p in _SYSTEM if os.path.isdir(p))]
    hidden: list[str] = []
    for path in paths:
        real = os.path.realpath(path)
        visible_here = any(_inside(real, tree) for tree in visible)
        if visible_here and os.path.exists(real) and real not in hidden:
            hidden.append(real)
    return hidden


def _referee_outputs() -> list[str]:
    """The files behind the referee's standard output and error (when files)."""
    found: list[str] = []
    for fd in (1, 2):
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                found.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
    return found


def _parents(path: str, made: set[str]) -> list[str]:
    """``--dir`` arguments making ``path``'s missing parents traversable (``bwrap``
    would create them readable by root only)."""
    args: list[str] = []
    parts = Path(path).parents
    for parent in reversed(list(parts)):
        text = str(parent)
        if text in made:
            continue
        made.add(text)
        args += ["--perms", "0755", "--dir", text]
    made.add(path)
    return args


def _bwrap_env() -> dict[str, str]:
    """The environment the ``bwrap`` process is started with (it passes nothing on:
    the bot's is set with ``--setenv``)."""
    return {"PATH": os.environ.get("PATH", _DEFAULT_PATH)}


def _bot_environment() -> dict[str, str]:
    """The bot's environment: no secret of the referee's, only what programs need."""
    env = {name: os.environ[name] for name in _PASSED if name in os.environ}
    env.update({k: v for k, v in os.environ.items() if k.startswith("LC_")})
    env.setdefault("PATH", _DEFAULT_PATH)
    env["HOME"] = HOME
    env["TMPDIR"] = "/tmp"
    return env


def _fresh_uid() -> int:
    """A random unprivileged uid for one sandbox (between 2^30 and 2^31)."""
    return (1 << 30) + secrets.randbelow(1 << 30)


def _tool(name: str) -> str:
    return shutil.which(name) or f"/usr/bin/{name}"


# --- is the sandbox available? -------------------------------------------------------------

_PROBE_LOCK = threading.Lock()
_PROBED: dict[int, str | None] = {}


def sandbox_problem() -> str | None:
    """Why bot programs cannot be sandboxed here (``None``: they can). Tried once per
    process: a sandbox like a bot's runs ``true``."""
    euid = os.geteuid()
    with _PROBE_LOCK:
        if euid not in _PROBED:
            _PROBED[euid] = _probe()
        return _PROBED[euid]


_INSTALL = (
    "install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap; Fedora: "
    "dnf install bubblewrap; Arch: pacman -S bubblewrap)"
)
_NO_SANDBOX = (
    "or, for bots you trust, play without the sandbox (referee match --no-sandbox, "
    "or sandbox=False in Python)"
)


def _bwrap_version() -> tuple[int, ...] | None:
    """bubblewrap's version (``None``: it does not say)."""
    try:
        said = subprocess.run(
            ["bwrap", "--version"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = said.split()
    try:
        return tuple(int(part) for part in words[-1].split(".")[:2]) if words else None
    except ValueError:
        return None


def _probe() -> str | None:
    if not sys.platform.startswith("linux"):
        return f"the bot sandbox needs Linux (bubblewrap), not {sys.platform}; {_NO_SANDBOX}"
    if shutil.which("bwrap") is None:
        return f"the bot sandbox needs bubblewrap ('bwrap'), which is not installed: {_INSTALL}; {_NO_SANDBOX}"
    version = _bwrap_version()
    if version is not None and version < (0, 8):
        found = ".".join(map(str, version))
        return (
            f"the bot sandbox needs bubblewrap 0.8 or later (tmpfs sizes, --disable-userns), "
            f"not {found}: {_INSTALL} from a newer release; {_NO_SANDBOX}"
        )
    for tool in ("prlimit", "setpriv") if os.geteuid() == 0 else ("prlimit",):
        if shutil.which(tool) is None:
            return (
                f"the bot sandbox needs {tool!r} (util-linux), which is not installed: "
                f"install util-linux; {_NO_SANDBOX}"
            )
    true = shutil.which("true") or "/usr/bin/true"
    argv, env = Sandbox().command([true])
    try:
        done = subprocess.run(argv, env=env, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap cannot run here ({error}); {_NO_SANDBOX}"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip()[-300:]
        return (
            f"bubblewrap cannot make a sandbox here ({said or f'exit status {done.returncode}'}): "
            "it needs user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu "
            "24.04 and later also kernel.apparmor_restrict_unprivileged_userns=0), or, for "
            "a referee running as root, the right to mount (a container may forbid both); "
            f"{_NO_SANDBOX}"
        )
    return None
