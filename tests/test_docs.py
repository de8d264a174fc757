"""Every code block on every page runs, its pictures exist, its test names are real.

The rule: each fenced code block of ``README.md`` and of every page under
``docs/`` is either run here (or by doctest) and checked, or listed in
:data:`NOT_RUN` with the reason it cannot be.

- ``pycon`` blocks (and indented ``>>>`` examples) run as doctests: pytest
  collects every page with ``--doctest-glob='*.md'``;
- ``python`` blocks run, as scripts, from a copy of the repository's layout
  (links to its folders) in a fresh temporary folder, so that what they write
  lands there;
- ``sh`` blocks run line by line from that folder: ``referee`` commands in
  this process, anything else in a shell; each must exit as the page says
  (``# exits with N``), else 0 (1 for validating a folder of illegal records);
- ``console`` and ``text`` blocks that show a session (``$ command`` lines
  followed by the output) run each command and compare the output shown,
  where ``...`` stands for anything;
- an output sample without its command (a ``text`` or ``json`` block) is
  checked against the output of the command in :data:`OUTPUT_OF`.

Each picture a page shows must be one that ``docs/hooks.py`` draws, each test
the Rulings page names must exist, and the site must load nothing from the
network (no web fonts).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]

#: Blocks that do not run, by page and first line, each with the reason.
NOT_RUN: dict[tuple[str, str], str] = {
    ("docs/arena.md", "$ referee match examples/bots/random_bot.py examples/bots/greedy.py --game schotten-totten -n 200 --records games.jsonl"): "200 games between two bot processes: minutes; tests/arena plays matches through the same command",
    ("docs/arena.md", "referee match BOT BOT... [--game G] [--rules JSON] [--variant V] [-n N] [--jobs J]"): "a synopsis with placeholders",
    ("docs/adding-a-game.md", '[project.entry-points."referee.games"]'): "a third-party package's pyproject.toml",
    ("docs/adding-a-game.md", 'GAME: GameDescriptor[State] = GameDescriptor('): "an excerpt of tests/protocol/race_game.py, which tests/protocol/test_descriptors.py installs and plays",
    ("docs/arena.md", '> {"type":"hello","protocol":"referee-arena/1"}'): "a transcript of the arena protocol's messages; tests/arena/test_arena.py checks the protocol",
    ("docs/arena.md", "{"): "a record as referee match writes it (its deal depends on the match seed); tests/arena/test_records.py validates such records",
    ("docs/arena.md", "from referee.arena import play_match, play_game, random_bot, tally, render_table"): "100 games with a bot process each (minutes); tests/arena calls play_match the same way on fewer games",
    ("docs/distributed.md", "$ pip install 'referee[dask]'   # dask[distributed]; pyarrow for Parquet results; fsspec and s3fs for URLs"): "installs packages",
    ("docs/distributed.md", "$ referee validate games.jsonl --dask local:4     # a local cluster of 4 worker processes"): "starts a local Dask cluster; tests/distributed runs the same on its own corpus",
    ("docs/distributed.md", "$ referee validate s3://games/2024/ --dask tcp://10.0.0.5:8786 --quiet"): "needs a Dask cluster at that address and an S3 bucket; tests/distributed/test_object_storage.py runs the same against moto",
    ("docs/distributed.md", "$ export AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=..."): "needs S3 credentials and a Dask cluster; tests/distributed/test_object_storage.py covers it",
    ("docs/distributed.md", "from dask.distributed import Client"): "needs a Dask cluster at 10.0.0.5 (and pandas); tests/distributed covers validate_on_dask and match_on_dask on a local cluster",
    ("docs/distributed.md", "referee match examples/bots/random_bot.py examples/bots/greedy.py -n 4 --seed 5 --dask local:2"): "starts a local Dask cluster; tests/distributed/test_arena.py plays matches on one",
    ("docs/games/schotten-totten-2.md", "{"): "the shape of a match document, its decks and moves elided",
    ("docs/prover.md", "case                                   pool  exact med      p99      max  cpsat med      max  brute med  brute/exact"): "timings measured by benchmarks/prover_bench.py",
    ("docs/records.md", '--8<-- "referee/schemas/record.schema.json"'): "the schema file itself, included when the site is built",
    ("docs/records.md", '--8<-- "referee/schemas/match.schema.json"'): "the schema file itself, included when the site is built",
    ("docs/records.md", '--8<-- "referee/schemas/position.schema.json"'): "the schema file itself, included when the site is built",
    ("docs/records.md", '[project.entry-points."referee.games"]'): "a third-party package's pyproject.toml",
    ("docs/reference-bots.md", "referee match referee.bots.mcts:choose examples/bots/greedy.py --game schotten-totten -n 20"): "20 games at 0.5 s a move take minutes; tests/arena/test_bot.py runs MODULE:FUNCTION bots through referee match",
    ("docs/reference-bots.md", 'python benchmarks/bots_strength.py --games 20 --core 0 --game "schotten-totten" --game "schotten-totten tactics" --game "clans-and-glory 2p" --game "clans-and-glory 4p"'): "the strength benchmark: the better part of an hour of CPU time; the page shows what it printed",
    ("docs/reliability.md", "REFEREE_FUZZ_EXAMPLES=3000 python -m pytest tests/reliability/test_fuzz_records.py"): "the reliability suite at its long budgets: many minutes",
    ("docs/reliability.md", "python tools/soundness.py [--count N] [--seed S] [--shapes SHAPE ...] [--time-limit SECONDS]"): "a synopsis with placeholders",
}  # fmt: skip

#: Commands that never run, wherever they appear: what they would do.
NEVER: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^pip install\b"), "installs packages (the tests run installed)"),
    (re.compile(r"^bash \.ci/setup\b"), "installs system packages"),
    (
        re.compile(r"^python -m pytest( -n \d+)?$"),
        "the whole test suite, which this test is part of",
    ),
]

#: Output samples shown without their command: the command that prints them.
OUTPUT_OF: dict[tuple[str, str], str] = {
    ("docs/analysis.md", "examples/records/schotten-totten/full-2024.json: schotten-totten, 100 moves, player 1 wins (three_adjacent)"): "referee analyze examples/records/schotten-totten/full-2024.json",
    ("docs/getting-started.md", "stone 2, player 1: claimable: three_of_a_kind (18) stands; the opponent's best is color (23)"): "referee claimable examples/positions/blue-seven.json",
    ("docs/getting-started.md", "examples/illegal-records/schotten-totten/illegal-claim-not-proven.json: illegal at ply 24 'claim 4' [claim_not_proven]: illegal move 'claim 4': the opponent can still beat your sum (11): adding B8 makes color (18)"): "referee validate examples/illegal-records/schotten-totten/illegal-claim-not-proven.json",
    ("docs/records.md", "examples/records/schotten-totten/full-2024.json: ok (schotten-totten, full record, ... plies, game over, player ... wins (...))"): "referee validate examples/records/schotten-totten/full-2024.json",
    ("docs/records.md", '{"where": "examples/illegal-records/schotten-totten/illegal-claim-not-proven.json", "game": "schotten-totten", "public": false, "legal": false, "plies": 23, "error": {"round": null, "ply": 24, "move": "claim 4", "reason": "claim_not_proven", "message": "illegal move \'claim 4\': the opponent can still beat your sum (11): adding B8 makes color (18)", "evidence": {"verdict": "not_claimable", "claimant": {"added": [], "wildcards": [], "kind": "sum", "total": 11}, "opponent_best": {"added": ["B8"], "wildcards": [], "kind": "color", "total": 18}, "opponent_complete": false, "odds": {"beating": 38, "total": 42, "probability": 0.9047619047619048}}}, ...}'): "referee validate --json examples/illegal-records/schotten-totten/illegal-claim-not-proven.json",
}  # fmt: skip

_FENCE = re.compile(
    r"^(?P<indent> *)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```", re.M | re.S
)
_EXIT_NOTE = re.compile(r"#.*\bexits with (\d)")
_PLACEHOLDER = re.compile(r"^(\[.*|[A-Z]+(\.\.\.)?\]?)$")


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    lang: str
    body: str

    @property
    def first(self) -> str:
        return self.body.splitlines()[0] if self.body.strip() else ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.page, self.first)

    def __str__(self) -> str:
        return f"{self.page}:{self.line} ({self.lang or 'no language'})"


def blocks() -> list[Block]:
    found = []
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        page = path.relative_to(ROOT).as_posix()
        for match in _FENCE.finditer(text):
            indent = len(match["indent"])
            body = "\n".join(line[indent:] for line in match["body"].splitlines())
            line = text[: match.start()].count("\n") + 1
            found.append(Block(page, line, match["lang"], body))
    return found


BLOCKS = blocks()


def kind_of(block: Block) -> str:
    """How a block is checked: doctest, python, sh, session, output, or not-run."""
    if block.key in NOT_RUN:
        return "not-run"
    if block.key in OUTPUT_OF:
        return "output"
    if block.lang == "pycon":
        return "doctest"
    if block.lang in ("python", "sh"):
        return block.lang
    if block.lang in ("console", "text") and block.first.startswith("$ "):
        return "session"
    return "unchecked"


def test_every_block_is_run_or_says_why_not() -> None:
    unchecked = [str(b) for b in BLOCKS if kind_of(b) == "unchecked"]
    assert unchecked == [], "run these blocks, or list them in NOT_RUN with a reason"
    # Every entry of the tables names a block that is there.
    keys = {b.key for b in BLOCKS}
    assert set(NOT_RUN) <= keys, sorted(set(NOT_RUN) - keys)
    assert set(OUTPUT_OF) <= keys, sorted(set(OUTPUT_OF) - keys)
    assert all(reason.strip() for reason in NOT_RUN.values())
    # pycon blocks are doctests: each page holding one is collected as such.
    pages = {b.page for b in BLOCKS if kind_of(b) == "doctest"}
    assert all(">>>" in b.body for b in BLOCKS if kind_of(b) == "doctest")
    assert pages <= {p.relative_to(ROOT).as_posix() for p in PAGES}
    assert {kind_of(b) for b in BLOCKS} >= {"doctest", "python", "sh", "session", "output"}


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh folder laid out like the repository (links to its folders and
    files), the current directory while a block runs: what a block writes
    lands here, never in the repository."""
    for entry in ROOT.iterdir():
        if entry.name in (".git", "site") or entry.name.startswith(".pytest"):
            continue
        (tmp_path / entry.name).symlink_to(entry)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return tmp_path


def run_command(
    words: list[str], capsys: pytest.CaptureFixture[str], line: str
) -> tuple[int, str, str]:
    """One command line: ``referee`` in this process, anything else (or a line
    with redirections) in a shell."""
    if words[:1] == ["referee"] and not re.search(r"[<>|;]", line):
        capsys.readouterr()
        code = main(words[1:])
        out, err = capsys.readouterr()
        return code, out, err
    if line.startswith("referee "):
        line = f"{shlex.quote(sys.executable)} -m {line}"
    done = subprocess.run(line, shell=True, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


def expected_status(args: list[str], line: str) -> int:
    """What the page says: an explicit ``# exits with N``, else 1 for validating a
    folder that holds deliberately illegal records, else 0."""
    note = _EXIT_NOTE.search(line)
    if note:
        return int(note.group(1))
    if args[:2] == ["referee", "validate"]:
        folders = [ROOT / a for a in args[2:] if (ROOT / a).is_dir()]
        if any(next(f.rglob("illegal-*"), None) for f in folders):
            return 1
    return 0


def commands(body: str) -> list[tuple[list[str], str]]:
    """Each command of a ``sh`` block (split at ``&&``), with its whole line
    (which may say how it exits); the synopses with placeholders and the
    :data:`NEVER` commands left out."""
    found = []
    for line in body.splitlines():
        words = shlex.split(line, comments=True)
        while words:
            part = words[: words.index("&&")] if "&&" in words else words
            words = words[len(part) + 1 :]
            if any(pattern.match(shlex.join(part)) for pattern, _ in NEVER):
                continue
            if part[:1] == ["referee"] and any(_PLACEHOLDER.match(w) for w in part[1:]):
                continue  # a synopsis such as 'referee show PATH [--ply N]'
            found.append((part, line))
    return found


def by_kind(kind: str) -> list[Block]:
    return [b for b in BLOCKS if kind_of(b) == kind]


@pytest.mark.parametrize("block", by_kind("sh"), ids=str)
def test_shell_blocks_exit_as_the_page_says(
    block: Block, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for words, line in commands(block.body):
        code, out, err = run_command(words, capsys, shlex.join(words))
        status = expected_status(words, line)
        assert code == status, f"{block}: {line}\n{out[-2000:]}\n{err[-2000:]}"


@pytest.mark.parametrize("block", by_kind("python"), ids=str)
def test_python_blocks_run(block: Block, workdir: Path) -> None:
    code = compile(block.body, f"{block.page}:{block.line}", "exec")
    exec(code, {"__name__": "__docs__"})


def matches(shown: str, actual: str) -> bool:
    """Whether output ``actual`` is what ``shown`` shows: ``...`` alone on a line
    stands for any lines, within a line for any text."""
    if not shown.strip():
        return not actual.strip()
    pattern = []
    for line in shown.strip("\n").splitlines():
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pieces = [re.escape(p) for p in line.rstrip().split("...")]
            pattern.append("[^\n]*".join(pieces) + r"[ \t]*\n")
    return re.fullmatch("".join(pattern), actual.rstrip("\n") + "\n") is not None


@pytest.mark.parametrize("block", by_kind("session"), ids=str)
def test_shown_sessions_print_what_they_show(
    block: Block, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sessions: list[tuple[str, list[str]]] = []
    for line in block.body.splitlines():
        if line.startswith("$ "):
            sessions.append((line[2:], []))
        else:
            sessions[-1][1].append(line)
    for command, output in sessions:
        words = shlex.split(command, comments=True)
        _, out, err = run_command(words, capsys, command.split(" #")[0])
        assert matches("\n".join(output), out + err), f"{block}: $ {command}\n{out}{err}"


@pytest.mark.parametrize("block", by_kind("output"), ids=str)
def test_output_samples_are_what_their_command_prints(
    block: Block, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = OUTPUT_OF[block.key]
    _, out, err = run_command(shlex.split(command), capsys, command)
    # A sample shows the first lines of the output.
    assert matches(block.body + "\n...", out + err), f"{block}: {command}\n{out}{err}"


def test_matches_reads_ellipses() -> None:
    assert matches("a ... c\n...\nz", "a b c\nx\ny\nz\n")
    assert not matches("a ... c", "a b d\n")
    assert not matches("one", "one\ntwo\n")
    assert matches("", "") and not matches("", "something\n")


def test_every_picture_shown_is_drawn_by_the_hook() -> None:
    hooks = docs_hooks()
    shown = {
        name
        for page in DOCS.rglob("*.md")
        for name in re.findall(r"\]\((?:\.\./)*images/([^)]+\.svg)\)", page.read_text("utf-8"))
    }
    assert shown, "the pages show pictures"
    assert shown <= set(hooks.PICTURES)
    # Each game's page shows pictures of its positions.
    for game in ("schotten-totten", "schotten-totten-2", "clans-and-glory"):
        text = (DOCS / "games" / f"{game}.md").read_text(encoding="utf-8")
        assert f"](../images/{game}/" in text, game


def docs_hooks() -> object:
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    return hooks


def test_the_site_loads_nothing_from_the_network(tmp_path: Path) -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^theme:\n(?:  .*\n)*?  font: false$", config, re.M), "no web fonts"
    assert "extra_css" not in config and "extra_javascript" not in config
    hooks = docs_hooks()
    # The check the site build runs on every built page (a warning fails --strict).
    (tmp_path / "index.html").write_text(
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">'
        '<script src="//cdn.example.org/x.js"></script><a href="https://example.org">a link</a>',
        encoding="utf-8",
    )
    (tmp_path / "ok.html").write_text(
        '<link rel="stylesheet" href="assets/main.css"><a href="https://example.org">fine</a>',
        encoding="utf-8",
    )
    found = hooks.external_resources(tmp_path)  # type: ignore[attr-defined]
    assert len(found) == 2 and all(f.startswith("index.html") for f in found)


def test_the_replay_screenshot_is_shown_and_shows_a_card_played() -> None:
    hooks = docs_hooks()
    name, ply, _ = hooks.SCREENSHOT  # type: ignore[attr-defined]
    from referee.records import load_record

    move = load_record(ROOT / "examples" / "records" / name).moves[ply - 1]
    assert "@" in move and " " not in move, move  # a card played, not a draw
    assert "<!-- replay-screenshot -->" in (DOCS / "replay.md").read_text(encoding="utf-8")


def test_every_test_named_on_the_rulings_page_exists() -> None:
    text = (DOCS / "rulings.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(tests/[\w/]+\.py)::(test_\w+)`", text))
    assert len(named) > 30
    missing = []
    for path, test in sorted(named):
        module = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        functions = {n.name for n in module.body if isinstance(n, ast.FunctionDef)}
        if test not in functions:
            missing.append(f"{path}::{test}")
    assert not missing


def test_the_doctests_cover_every_page() -> None:
    """pytest collects the pages as doctests (see pyproject.toml)."""
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "--doctest-glob='*.md'" in config
    assert re.search(r'testpaths = \[[^\]]*"docs"[^\]]*"README.md"', config)
    assert sys.version_info >= (3, 11)
