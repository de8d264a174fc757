"""The runnable scripts in examples/scripts work as their docstrings say."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "examples" / "scripts" / script), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_is_stone_claimable() -> None:
    done = run("is_stone_claimable.py", "examples/positions/blue-seven.json")
    assert done.returncode == 0, done.stderr
    assert "stone 2, player 1: claimable" in done.stdout


def test_validate_folder_pinpoints_illegal_records() -> None:
    done = run("validate_folder.py", "examples/illegal-records/schotten-totten")
    assert done.returncode == 1, done.stderr
    assert "illegal-pass-with-cards.json: ply 1 'pass' breaks pass_not_allowed" in done.stdout


def test_random_bot_finishes_a_game() -> None:
    done = run("random_bot.py", "3")
    assert done.returncode == 0, done.stderr
    assert "game over" in done.stdout.splitlines()[0]


def test_no_example_script_shadows_a_standard_module() -> None:
    """A script's folder comes first on ``sys.path``: an example bot named
    ``random.py`` imported itself for ``import random`` on a fresh interpreter
    (found from a clean virtual environment, where nothing had imported the
    standard ``random`` before the bot)."""
    scripts = sorted(Path(__file__).parents[1].joinpath("examples").rglob("*.py"))
    assert scripts
    shadowing = [p.name for p in scripts if p.stem in sys.stdlib_module_names]
    assert shadowing == []
