"""The documentation's shell examples run, its pictures exist, its test names are real.

The Python examples of the pages run as doctests (``--doctest-glob='*.md'``);
this module covers what doctest cannot: each ``referee ...`` command shown in
a ``sh`` block must exit as the page says, each picture a page shows must be
one that ``docs/hooks.py`` draws, and each test the Rulings page names must
exist.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import shlex
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: The pages whose ``sh`` blocks are run.
COMMAND_PAGES = [
    "README.md",
    "docs/getting-started.md",
    "docs/records.md",
    "docs/pictures.md",
    "docs/public-records.md",
]

_SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)
_EXIT_NOTE = re.compile(r"#.*\bexits with (\d)")
_PLACEHOLDER = re.compile(r"^(\[.*|[A-Z]+(\.\.\.)?\]?)$")


def _expected_status(args: list[str], line: str) -> int:
    """What the page says: an explicit ``# exits with N``, else 1 for validating a
    folder that holds deliberately illegal records, else 0."""
    note = _EXIT_NOTE.search(line)
    if note:
        return int(note.group(1))
    if args[:1] == ["validate"]:
        folders = [ROOT / a for a in args[1:] if (ROOT / a).is_dir()]
        if any(next(f.rglob("illegal-*"), None) for f in folders):
            return 1
    return 0


def shell_commands(page: str) -> list[tuple[list[str], int]]:
    """Every runnable ``referee`` command in the ``sh`` blocks of ``page``, with
    its expected exit status; synopsis lines with placeholders are left out."""
    found = []
    for block in _SH_BLOCK.findall((ROOT / page).read_text(encoding="utf-8")):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            while words:
                part = words[: words.index("&&")] if "&&" in words else words
                words = words[len(part) + 1 :]
                if part[:1] != ["referee"]:
                    continue  # pip, mkdocs, python -m pytest
                if any(_PLACEHOLDER.match(w) for w in part[1:]):
                    continue  # a synopsis such as 'referee show PATH [--ply N]'
                found.append((part[1:], _expected_status(part[1:], line)))
    return found


COMMANDS = [(page, args, status) for page in COMMAND_PAGES for args, status in shell_commands(page)]


def test_the_pages_show_commands() -> None:
    pages = {page for page, _, _ in COMMANDS}
    assert pages == set(COMMAND_PAGES)
    assert (["validate", "examples/records"], 0) in shell_commands("README.md")
    assert (["validate", "examples/illegal-records"], 1) in shell_commands("README.md")


@pytest.mark.parametrize(
    ("page", "args", "status"), COMMANDS, ids=[f"{p}:{' '.join(a)}" for p, a, _ in COMMANDS]
)
def test_shell_example_exits_as_the_page_says(
    page: str,
    args: list[str],
    status: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(ROOT)
    code = main(args)
    out, err = capsys.readouterr()
    assert code == status, f"{page}: referee {' '.join(args)}\n{out[-2000:]}\n{err}"
    assert out.strip()


def test_every_picture_shown_is_drawn_by_the_hook() -> None:
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    shown = {
        name
        for page in DOCS.rglob("*.md")
        for name in re.findall(r"\]\((?:\.\./)*images/([^)]+\.svg)\)", page.read_text("utf-8"))
    }
    assert shown, "the pages show pictures"
    assert shown <= set(hooks.PICTURES)


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
