"""No public name of the library is a table a caller could change: a dict, list
or set in a module's ``__all__`` would let one program change every game in its
process (the rules read their tables at every ply)."""

from __future__ import annotations

import importlib
import pkgutil

import referee


def test_no_public_name_is_a_mutable_table() -> None:
    found = []
    for info in pkgutil.walk_packages(referee.__path__, "referee."):
        if info.name.endswith("__main__"):
            continue  # runs the command line
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name, None)  # a lazy submodule is not loaded yet
            if isinstance(value, dict | list | set | bytearray) and not isinstance(value, type):
                refuses = type(value).__setitem__ is not dict.__setitem__
                if not (isinstance(value, dict) and refuses):
                    found.append(f"{info.name}.{name} ({type(value).__name__})")
    assert found == []
