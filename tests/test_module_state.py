"""The rules keep nothing in their modules: no function of a game package or
of the line kernel writes into a module-level container (a cache in a global
would keep one game's positions, or a view's history, for the next caller).
What a rule needs to keep lives on the state (kept verdicts, masks, tables)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "referee"
PACKAGES = ("line", "schotten_totten", "schotten_totten_2", "clans_and_glory")
#: Methods that change a list, dict or set in place.
MUTATORS = frozenset(
    {
        "append", "extend", "insert", "remove", "pop", "clear", "update", "setdefault",
        "add", "discard", "popitem", "sort", "reverse", "__setitem__", "__delitem__",
    }
)  # fmt: skip


def _files() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).glob("*.py"))


def _module_names(tree: ast.Module) -> set[str]:
    """The names a module binds at its top level."""
    names: set[str] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for target in targets:
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def _writes(function: ast.AST, names: set[str]) -> list[str]:
    """Where ``function`` changes a container bound to one of ``names``."""
    found = []
    for node in ast.walk(function):
        target = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
            target = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
        ):
            target = node.func.value
        if isinstance(target, ast.Name) and target.id in names:
            found.append(f"line {node.lineno}: {target.id}")
    return found


@pytest.mark.parametrize("path", _files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_function_writes_into_a_module_level_container(path: Path) -> None:
    tree = ast.parse(path.read_text())
    names = _module_names(tree)
    writes = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            local = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
            writes += _writes(node, names - local)
    assert not writes, f"{path.name} changes module-level containers: {sorted(set(writes))}"


def test_the_check_sees_a_cache_in_a_global() -> None:
    tree = ast.parse("_LAST = [None]\ndef f(x):\n    _LAST[0] = x\n    CACHE.setdefault(x, 1)\n")
    function = tree.body[1]
    assert _writes(function, _module_names(tree) | {"CACHE"}) == ["line 3: _LAST", "line 4: CACHE"]
