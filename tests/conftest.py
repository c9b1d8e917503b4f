"""Helpers for testing the oracle from the outside: run it as a user would.

Most tests run ``rules-oracle ARGS`` in this process (``oracle``): the same ``main`` a
shell would call, with its output captured and the engine modules a test writes forgotten
afterwards, at a fraction of a subprocess's start-up cost. The few behaviours that only a
real process shows (signals, a stray conftest on disk, the console script) ask for one with
``oracle(..., process=True)``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import configuration, settings

pytest_plugins = ["pytester"]

# CI: derandomised and no example database, so a run never flakes or writes into the tree.
settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# Hypothesis's own files (its cache of each test module's constants, written even with no
# example database) go to a temporary folder, never into the checkout: set on import, so
# that the xdist controller and every worker see it before any test module is collected.
configuration.set_hypothesis_home_dir(
    Path(tempfile.gettempdir()) / f"rules-oracle-tests-hypothesis-{os.getuid()}")


# The oracle's cache folder (parses kept across runs, ``oracle.suite.cache``) is a temporary
# folder of this test session, for every process of it (the xdist workers, the commands the
# tests start): one test run never reads what another left, nor fills the user's cache. Set
# on import, before test modules read any feature file, by the first process (the xdist
# controller), which removes it at the end; its workers inherit it.
_OWN_CACHE = "RULES_ORACLE_TESTS_CACHE"
if _OWN_CACHE not in os.environ:
    os.environ[_OWN_CACHE] = tempfile.mkdtemp(prefix="rules-oracle-tests-cache-")
    _MADE_CACHE: str | None = os.environ[_OWN_CACHE]
else:
    _MADE_CACHE = None
os.environ["RULES_ORACLE_CACHE_DIR"] = os.environ[_OWN_CACHE]


def pytest_unconfigure(config: pytest.Config) -> None:
    if _MADE_CACHE is not None:
        shutil.rmtree(_MADE_CACHE, ignore_errors=True)


@pytest.fixture
def oracle_cache() -> Path:
    """This test session's cache folder (``RULES_ORACLE_CACHE_DIR``)."""
    return Path(os.environ["RULES_ORACLE_CACHE_DIR"])


@dataclass
class OracleRun:
    """What a `rules-oracle` command did: exit code, output, and its JSON report."""

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

    def scenarios(self, status: str | None = None) -> list[dict[str, Any]]:
        assert self.report is not None, self.out + self.err
        return [s for r in self.report["rules"] for s in r["scenarios"]
                if status is None or s["status"] == status]


@contextlib.contextmanager
def _isolated(folder: Path) -> Iterator[None]:
    """Forget the modules imported from ``folder`` (test engines) and restore sys.path."""
    path, modules = list(sys.path), set(sys.modules)
    try:
        yield
    finally:
        sys.path[:] = path
        for name in set(sys.modules) - modules:
            file = getattr(sys.modules[name], "__file__", None) or ""
            if file.startswith(str(folder)):
                del sys.modules[name]


def cli_in_process(folder: Path, argv: list[str]) -> tuple[int, str, str]:
    from oracle.cli import main

    out, err = io.StringIO(), io.StringIO()
    with _isolated(folder), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: --help, --version, a bad option
            code = exc.code if isinstance(exc.code, int) else 2
    return int(code), out.getvalue(), err.getvalue()


@pytest.fixture
def oracle(pytester: pytest.Pytester) -> Callable[..., OracleRun]:
    """Run `rules-oracle ARGS` in a scratch directory (in this process unless
    ``process=True``), with a JSON report for `run` unless ``report=False``."""

    def run(*args: str, report: bool = True, process: bool = False) -> OracleRun:
        out_path = pytester.path / "report.json"
        if out_path.exists():
            out_path.unlink()
        extra = ["--json", str(out_path)] if report and args[:1] == ("run",) else []
        argv = [*args[:1], *extra, *args[1:]]
        if process:
            result = pytester.run(sys.executable, "-m", "oracle.cli", *argv, timeout=600)
            code, out, err = result.ret, result.stdout.str(), result.stderr.str()
        else:
            code, out, err = cli_in_process(pytester.path, argv)
        data = json.loads(out_path.read_text()) if out_path.exists() else None
        return OracleRun(int(code), out, err, data)

    return run


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module (``tests/browser.py``); skips where missing."""
    from browser import headless_chromium

    yield from headless_chromium()


@pytest.fixture
def engine_module(pytester: pytest.Pytester) -> Callable[[str, str], Path]:
    """Write a Python engine module into the scratch directory (importable there)."""

    def write(name: str, source: str) -> Path:
        return pytester.makepyfile(**{name: source})

    return write


#: The longest tests (exploration shrinks whole games): started first, so that under
#: pytest-xdist no worker is left running one of them alone at the end.
LONG_FIRST = ("test_explore_eu.py", "test_explore.py", "test_explore_differential.py",
              "test_node_engine.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)

    items.sort(key=rank)  # stable: each file keeps its order


def count_ti4_scenarios(rule: str | None = None) -> int:
    """How many scenarios (an Outline's rows each) the bundled TI4 features hold, of one
    rule and its sub-rules (what --rule selects) or all: tests that count a run's
    scenarios follow the features, not a number."""
    from oracle.mutants.harness import game_cases
    from oracle.suite.games import discover_games

    return sum(1 for case in game_cases(discover_games()["ti4"])
               if rule is None or any(r == rule or r.startswith(f"{rule}.")
                                      for r in case.rules))


@pytest.fixture
def ti4_scenarios() -> Callable[..., int]:
    return count_ti4_scenarios
