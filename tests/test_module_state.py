"""The rules keep nothing in their modules: no function of a game package or
of the line kernel writes into a module-level container, rebinds a global or
is a cache (``functools.cache``, ``lru_cache``): a cache in a module would keep
one game's positions, or a view's history, for the next caller. What a rule
needs to keep lives on the state (kept verdicts, masks, tables). A write
through another name (``memo = _MEMO; memo[k] = v``) is not seen: review
catches those."""

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
    """The names a module binds outside its functions and classes (at its top
    level, or in a top-level ``if``, ``try`` or ``with``)."""
    names: set[str] = set()
    statements: list[ast.stmt] = list(tree.body)
    while statements:
        node = statements.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(node, ast.If | ast.Try | ast.With):
            for block in ("body", "orelse", "finalbody", "handlers"):
                statements += getattr(node, block, [])
            continue
        if isinstance(node, ast.ExceptHandler):
            statements += node.body
            continue
        targets: list[ast.expr] = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for target in targets:
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


#: Decorators that keep what a function returned, in the function.
CACHES = frozenset({"cache", "lru_cache", "cached_property"})


def _kept(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Where ``function`` keeps something between calls: a ``global`` or a cache decorator."""
    found = [f"line {n.lineno}: global" for n in ast.walk(function) if isinstance(n, ast.Global)]
    for decorator in function.decorator_list:
        named = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = named.attr if isinstance(named, ast.Attribute) else getattr(named, "id", "")
        if name in CACHES:
            found.append(f"line {decorator.lineno}: @{name}")
    return found


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


def test_every_module_is_checked() -> None:
    assert {p.parent.name for p in _files()} == set(PACKAGES) and len(_files()) > 60


@pytest.mark.parametrize("path", _files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_function_keeps_anything_in_its_module(path: Path) -> None:
    tree = ast.parse(path.read_text())
    names = _module_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            local = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
            found += _writes(node, names - local)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found += _kept(node)
    assert not found, f"{path.name} keeps state in its module: {sorted(set(found))}"


def test_the_check_sees_a_cache_in_a_global() -> None:
    tree = ast.parse(
        "_LAST = [None]\n"
        "try:\n    _MEMO = {}\nexcept ImportError:\n    pass\n"
        "def f(x):\n    _LAST[0] = x\n    CACHE.setdefault(x, 1)\n    _MEMO[x] = 2\n"
        "@functools.lru_cache\ndef g(x):\n    global _N\n    return x\n"
    )
    f, g = tree.body[2], tree.body[3]
    assert isinstance(f, ast.FunctionDef) and isinstance(g, ast.FunctionDef)
    assert _writes(f, _module_names(tree) | {"CACHE"}) == [
        "line 7: _LAST",
        "line 8: CACHE",
        "line 9: _MEMO",
    ]
    assert _kept(g) == ["line 12: global", "line 10: @lru_cache"]
