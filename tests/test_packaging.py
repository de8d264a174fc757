"""The package's metadata: one version, a licence, an sdist that can run its tests."""

from __future__ import annotations

import tomllib
from importlib.metadata import metadata, version
from pathlib import Path

import pytest

import referee
from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_has_one_source() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project
    assert "version" in project["dynamic"]
    assert version("referee") == referee.__version__


def test_the_licence_is_an_spdx_expression_with_its_file() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert metadata("referee").get("License-Expression") == "MIT"


def test_the_sdist_manifest_carries_tests_and_examples() -> None:
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    for needed in ("recursive-include tests", "recursive-include examples", "CHANGELOG.md"):
        assert any(needed in line for line in manifest), needed


def test_the_command_line_tells_its_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"referee {referee.__version__}"
