"""The command-line example on the Clans and Glory page is run, and its output must match.

Issue 12 point 14: the page once printed a ``validate`` summary ("8 games: ...")
that the command never printed. Each ``$ referee ...`` line of the page's
``console`` blocks is run here; the lines after it, up to the next ``$``, are
the expected output, compared as doctest does with ``...`` for lines left out.
A ``> file`` sends the output to a file (in a scratch folder that sees the
repository's ``examples``); ``# exits with N`` gives the expected exit status.
"""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "games" / "clans-and-glory.md"
_CONSOLE = re.compile(r"^```console\n(.*?)^```", re.MULTILINE | re.DOTALL)
_EXIT = re.compile(r"#\s*exits with (\d)")


def examples() -> list[tuple[str, str]]:
    """Each ``$ referee`` command of the page with the output it shows."""
    found: list[tuple[str, str]] = []
    for block in _CONSOLE.findall(PAGE.read_text(encoding="utf-8")):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = chunk.partition("\n")
            found.append((command, output))
    return found


def test_the_page_has_console_examples() -> None:
    commands = [c for c, _ in examples()]
    assert any(c.startswith("referee validate examples/records/clans-and-glory") for c in commands)
    assert len(commands) >= 5


def test_the_console_examples_print_what_the_page_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    checker = doctest.OutputChecker()
    for command, expected in examples():
        words = shlex.split(command, comments=True)
        assert words[0] == "referee", command
        target = None
        if ">" in words:
            at = words.index(">")
            words, target = words[:at], words[at + 1]
        note = _EXIT.search(command)
        code = main(words[1:])
        out, _ = capsys.readouterr()
        assert code == (int(note.group(1)) if note else 0), command
        if target is not None:
            (tmp_path / target).write_text(out, encoding="utf-8")
            out = ""
        assert checker.check_output(expected, out, doctest.ELLIPSIS), (
            f"$ {command}\nexpected:\n{expected}\ngot:\n{out}"
        )
