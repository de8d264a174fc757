"""Schotten Totten 2 on the shared kernel: its state is a ``LineState``, its
tiles are kernel places, and its modules keep nothing from ply to ply."""

from __future__ import annotations

import ast
import dataclasses
import pickle
import random
import sys
from pathlib import Path

import pytest

from referee import schotten_totten_2 as st2
from referee.line import LineState
from referee.line.place import Place
from referee.schotten_totten_2.made import evolve
from referee.schotten_totten_2.wall import INDEX, Card

PACKAGE = Path(st2.__file__).parent


def _modules() -> list[str]:
    return sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")


def test_the_state_is_a_line_state_and_its_tiles_are_places() -> None:
    game = st2.new_game(seed=2)
    assert isinstance(game, LineState) and all(isinstance(t, Place) for t in game.tiles)
    assert [t.size for t in game.tiles] == [3, 4, 3, 2, 3, 4, 3]
    assert st2.Tile(4, True).size == 4  # the gate's damaged side takes four


@pytest.mark.parametrize("tactics", [False, True])
def test_every_tile_knows_its_siege_cards_as_masks(tactics: bool) -> None:
    for seed in range(6):
        state = st2.new_game(seed=seed, rules=st2.Rules(tactics=tactics))
        rng = random.Random(seed)
        while state.outcome is None:
            for tile in state.tiles:
                for player in (0, 1):
                    plain = [c for c in tile.sides[player] if type(c) is Card]
                    assert tile.masks[player] == INDEX.mask(plain)
                assert tile.size == tile.rule.size
            state = state.play(rng.choice(state.legal_moves()))


def test_a_copied_or_pickled_tile_has_proved_nothing() -> None:
    state = st2.new_game(seed=9)
    rng = random.Random(9)
    while not any(t.kept.verdicts[state.attacker] for t in state.tiles):
        state = state.play(rng.choice(state.legal_moves()))
    proved = next(t for t in state.tiles if t.kept.verdicts[state.attacker])
    for copy in (pickle.loads(pickle.dumps(proved)), dataclasses.replace(proved)):
        assert copy == proved and copy.kept.verdicts == [None, None]
        assert copy.masks == proved.masks and copy.size == proved.size


def test_evolve_is_replace_without_its_checks() -> None:
    game = st2.new_game(seed=1)
    assert evolve(game, ply=3) == dataclasses.replace(game, ply=3)
    odd = evolve(game, hand_sizes=(6, 60))  # State(...) would refuse it
    assert odd.hand_sizes == (6, 60) and game.hand_sizes == (6, 6)
    with pytest.raises(TypeError, match="plyy"):
        evolve(game, plyy=3)


@pytest.mark.parametrize("name", _modules())
def test_no_global_no_exec_no_id_keys(name: str) -> None:
    tree = ast.parse((PACKAGE / f"{name}.py").read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, ast.Global | ast.Nonlocal), name
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("exec", "eval", "id"), (name, node.lineno)
        if isinstance(node, ast.Attribute):
            assert node.attr != "__class__" or not isinstance(node.ctx, ast.Store), name


def _module_state() -> dict[tuple[str, str], int]:
    """The size of every dict, list and set each module of the package holds."""
    sizes = {}
    for name, module in sys.modules.items():
        if name.startswith("referee.schotten_totten_2"):
            for attr, value in vars(module).items():
                if type(value) in (dict, list, set):
                    sizes[name, attr] = len(value)
    return sizes


def test_the_modules_keep_nothing_from_game_to_game() -> None:
    before = _module_state()
    for seed in range(8):
        for tactics in (False, True):
            state = st2.new_game(seed=seed, rules=st2.Rules(tactics=tactics))
            rng = random.Random(seed)
            while state.outcome is None:
                state = state.play(rng.choice(state.legal_moves()))
            state.view(0).legal_moves()
    assert _module_state() == before
