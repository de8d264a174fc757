"""The soundness command: a small sample in CI, and that it catches what it should.

The large run is ``python tools/soundness.py --count 2000`` (see
docs/reliability.md); here a few questions per shape keep CI fast. The tool
is not part of the package: it is loaded from ``tools/`` by its path.
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib.util
import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest

from referee.prover import ClaimVerdict, Verdict, Wildcard, decide_claim
from referee.schotten_totten.state import BLIND_FORMATION, FORMATION, MUD_FORMATION
from tests.reliability._support import ROOT, examples

TOOL = ROOT / "tools" / "soundness.py"


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_soundness_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


soundness = _load_tool()


def test_the_tools_doctests_pass() -> None:
    failed, tried = doctest.testmod(soundness, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failed == 0


def test_the_tool_is_not_in_the_package() -> None:
    assert not (ROOT / "referee" / "soundness.py").exists()
    assert TOOL.is_file()


def test_a_small_sample_of_every_shape_agrees(capsys: pytest.CaptureFixture[str]) -> None:
    count = examples(12)
    assert soundness.main(["--count", str(count), "--seed", "7"]) == 0
    out = capsys.readouterr().out
    for name in soundness.SHAPES:
        row = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert row.split()[-5:-3] == [str(count), "0"], row  # checked, disagreements
    assert f"{count * len(soundness.SHAPES)} questions: 0 disagreements" in out


def test_every_rule_shape_of_the_games_is_covered() -> None:
    rules = {shape.rule for shape in soundness.SHAPES.values()}
    assert {FORMATION, BLIND_FORMATION, MUD_FORMATION} <= rules
    wall = pytest.importorskip("referee.schotten_totten_2.wall")
    assert {rule for tile in wall.WALL for rule in tile} <= rules


def test_both_decks_and_wildcards_on_both_sides_are_dealt() -> None:
    import random

    rng = random.Random(3)
    seen = set()
    for index in range(200):
        deck = soundness.DECKS[index % 2]
        question = soundness.deal_question(rng, soundness.SHAPES["3-all"], deck)
        wild = [
            any(isinstance(p, Wildcard) for p in side)
            for side in (question.claimant, question.opponent)
        ]
        seen.add((question.colours, *wild))
    assert {(6, True, True), (5, True, True), (6, False, False), (5, False, False)} <= seen


def _flip_cpsat(*args: Any, **kwargs: Any) -> ClaimVerdict:
    verdict = decide_claim(*args, **kwargs)
    if kwargs.get("engine") != "cpsat":
        return verdict
    flipped = Verdict.NOT_CLAIMABLE if verdict.holds else Verdict.CLAIMABLE
    return dataclasses.replace(verdict, verdict=flipped)


def test_a_disagreement_fails_the_run_and_is_printed_in_full(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(soundness, "decide_claim", _flip_cpsat)
    assert soundness.main(["--count", "3", "--shapes", "3-sum", "2-all"]) == 1
    out = capsys.readouterr().out
    assert "6 questions: 6 disagreements" in out
    assert "[3-sum] first of 3" in out and "claimant:" in out and "pool (" in out
    assert "cpsat:" in out and "opponent_best" in out


def test_undecided_is_counted_not_a_disagreement(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def undecided(*args: Any, **kwargs: Any) -> ClaimVerdict:
        verdict = decide_claim(*args, **kwargs)
        if kwargs.get("engine") == "cpsat":
            return dataclasses.replace(verdict, verdict=Verdict.UNDECIDED, opponent_best=None)
        return verdict

    monkeypatch.setattr(soundness, "decide_claim", undecided)
    assert soundness.main(["--count", "2", "--shapes", "4-all"]) == 0
    out = capsys.readouterr().out
    assert "2 questions: 0 disagreements, 2 undecided" in out
    assert "[4-all] first undecided question" in out


def test_bad_command_lines_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert soundness.main(["--shapes", "5-everything"]) == 2
    assert soundness.main(["--count", "-1"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_python_tools_soundness_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--count", "2", "--shapes", "3-run"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "2 questions: 0 disagreements" in done.stdout
