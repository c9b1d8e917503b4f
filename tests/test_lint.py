"""The tree stays ruff-clean (the rules in pyproject.toml): CI runs this, so a lint error
fails the build like any other test instead of waiting for someone to run ruff by hand."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def ruff() -> str:
    found = shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed (it is in the test extra: pip install -e '.[test]')")
    return found


def test_ruff_finds_nothing(ruff: str) -> None:
    done = subprocess.run([ruff, "check", "--no-cache", str(ROOT)], capture_output=True,
                          text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_fails_on_a_lint_error(ruff: str, tmp_path: Path) -> None:
    """The check above can fail: the same command on a file with an unused import does."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    done = subprocess.run([ruff, "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"),
                           str(bad)], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "F401" in done.stdout, done.stdout + done.stderr
