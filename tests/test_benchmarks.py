"""The benchmarks still run against the code: each script imports (so a name it
reads from the library, private ones included, still exists), and the loop
floor measures a few plies of each line game. Their figures are printed by
the scripts, never asserted here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _load(path: Path) -> ModuleType:
    """The script as a module (registered while it runs: dataclasses look it up)."""
    name = f"benchmark_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


@pytest.mark.parametrize("path", sorted(BENCHMARKS.glob("*.py")), ids=lambda p: p.name)
def test_every_benchmark_imports(path: Path) -> None:
    module = _load(path)
    assert callable(getattr(module, "main", None)), f"{path.name} has no main()"


def test_the_loop_floor_measures_both_line_games() -> None:
    floor = _load(BENCHMARKS / "loop_floor.py")
    for make in (floor._st, floor._st2):
        deal, state, remake = make()
        assert not deal(1).is_game_over()
        assert floor._floor_per_ply(state, remake, 50) > 0
