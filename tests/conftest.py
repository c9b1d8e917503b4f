"""Helpers for testing the oracle from the outside: run it as a user would."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

pytest_plugins = ["pytester"]

# CI: derandomised and no example database, so a run never flakes or writes into the tree.
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@dataclass
class OracleRun:
    """What a `rules-oracle run` subprocess did: exit code, output, and its JSON report."""

    code: int
    out: str
    err: str
    report: dict[str, Any] | None

    def status(self, rule_id: str) -> str:
        assert self.report is not None, self.out + self.err
        return next(r["status"] for r in self.report["rules"] if r["id"] == rule_id)

    def flagged(self) -> set[str]:
        assert self.report is not None, self.out + self.err
        return {r["id"] for r in self.report["rules"] if r["status"] in ("fail", "error")}


@pytest.fixture
def oracle(pytester: pytest.Pytester) -> Callable[..., OracleRun]:
    """Run `rules-oracle ARGS` in a subprocess in a scratch directory, with a JSON report."""

    def run(*args: str, report: bool = True) -> OracleRun:
        out_path = pytester.path / "report.json"
        if out_path.exists():
            out_path.unlink()
        extra = ["--json", str(out_path)] if report and args[:1] == ("run",) else []
        argv = [*args[:1], *extra, *args[1:]]
        result = pytester.run(sys.executable, "-m", "oracle.cli", *argv, timeout=600)
        data = json.loads(out_path.read_text()) if out_path.exists() else None
        return OracleRun(result.ret, result.stdout.str(), result.stderr.str(), data)

    return run


@pytest.fixture
def engine_module(pytester: pytest.Pytester) -> Callable[[str, str], Path]:
    """Write a Python engine module into the scratch directory (importable there)."""

    def write(name: str, source: str) -> Path:
        return pytester.makepyfile(**{name: source})

    return write
