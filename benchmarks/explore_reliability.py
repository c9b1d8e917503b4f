"""Exploration's reliability: how often each exploration test passes when its games are random.

Run by hand (minutes; rates are not tests):

    python benchmarks/explore_reliability.py [--runs 50] [-k EXPR] [--jobs 2] [--json PATH]
                                             [FILE ...]

Why: the tests explore with the derandomised profile ("rules-oracle-ci"), so the games they
play are fixed by Hypothesis's version and internals, not by the engine; a mutant found in 17
random runs of 20 passed here and survived in CI, which played other games. What a test
expects exploration to find must be found in (nearly) every random run at the test's own
budget. This runs the tests themselves (``tests/test_explore*.py`` unless FILEs are named),
each ``--runs`` times, with ``RULES_ORACLE_EXPLORE_PROFILE=dev`` (``default_budget``: new
games each run), and prints each test's pass rate, worst first, with the first line of what
failed. The cases are the tests' own (their parametrize lists, their budgets, their
assertions): a new test is measured without being listed here. A test that explores nothing
passes every run; one below 49/50 depends on luck.

This module is also the pytest plugin that repeats every test (``-p explore_reliability``,
as pytest-repeat does: a parametrized autouse fixture), and gathers the outcomes on the
controller (``pytest_runtest_logreport``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
_RUNS = "RULES_ORACLE_RELIABILITY_RUNS"
_OUT = "RULES_ORACLE_RELIABILITY_OUT"
_REPEAT = "_explore_reliability_run"


# -- the plugin ------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _explore_reliability_run(request: pytest.FixtureRequest) -> int:
    return int(getattr(request, "param", 0))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    runs = int(os.environ.get(_RUNS, "1"))
    if runs > 1 and _REPEAT in metafunc.fixturenames:
        metafunc.parametrize(_REPEAT, range(runs), indirect=True,
                             ids=[f"run{i}" for i in range(runs)])


_outcomes: dict[str, list[Any]] = defaultdict(list)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """On the controller (and without xdist, in the one process): each run's outcome."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if report.when == "call" or report.outcome != "passed":
        if report.when == "teardown" and report.outcome == "passed":
            return
        why = "" if report.passed else _first_line(report)
        _outcomes[_base(report.nodeid)].append([report.outcome, why])


def _base(nodeid: str) -> str:
    """The test's id without its run number (``test[a-run3]`` -> ``test[a]``)."""
    head, sep, params = nodeid.partition("[")
    if not sep:
        return nodeid
    kept = [p for p in params.rstrip("]").split("-") if not p.startswith("run")]
    return f"{head}[{'-'.join(kept)}]" if kept else head


def _first_line(report: pytest.TestReport) -> str:
    text = str(report.longrepr or "")
    lines = [line for line in text.splitlines() if line.startswith("E ")]
    return (lines[0][1:].strip() if lines else text.splitlines()[-1] if text else "")[:150]


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = os.environ.get(_OUT)
    if out and not os.environ.get("PYTEST_XDIST_WORKER"):
        Path(out).write_text(json.dumps(_outcomes))


# -- the command -----------------------------------------------------------------------------


def measure(files: list[str], runs: int, keyword: str | None, jobs: str) -> dict[str, Any]:
    """Run the tests ``runs`` times each with random games: per test, its outcomes."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "outcomes.json"
        env = {**os.environ, "RULES_ORACLE_EXPLORE_PROFILE": "dev", _RUNS: str(runs),
               _OUT: str(out),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "benchmarks"),
                                                          os.environ.get("PYTHONPATH")]))}
        env.pop("CI", None)  # CI=true would load the tests' derandomised Hypothesis profile
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "explore_reliability",
               "-p", "no:cacheprovider", "-n", jobs, *files]
        if keyword:
            cmd += ["-k", keyword]
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=False)
        seconds = time.perf_counter() - start
        if not out.exists():
            raise SystemExit(f"pytest wrote no outcomes; run it by hand: {' '.join(cmd)}")
        return {"seconds": seconds, "runs": runs, "tests": json.loads(out.read_text())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="test files (default: tests/test_explore*.py)")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("-k", dest="keyword", help="pytest -k expression: only those tests")
    parser.add_argument("--jobs", default="2", help="pytest-xdist workers (-n)")
    parser.add_argument("--all", action="store_true",
                        help="list every test, not only those that missed a run")
    parser.add_argument("--json", type=Path, help="write the outcomes here")
    ns = parser.parse_args()
    files = ns.files or sorted(str(p.relative_to(ROOT))
                               for p in (ROOT / "tests").glob("test_explore*.py"))
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores; {ns.runs} random runs of each test in {', '.join(files)}"
          + (f" -k {ns.keyword!r}" if ns.keyword else ""), flush=True)
    result = measure(files, ns.runs, ns.keyword, ns.jobs)
    rows = []
    for test, outcomes in result["tests"].items():
        passed = sum(1 for outcome, _ in outcomes if outcome == "passed")
        skipped = sum(1 for outcome, _ in outcomes if outcome == "skipped")
        why = next((w for outcome, w in outcomes if outcome == "failed"), "")
        rows.append((passed / max(len(outcomes) - skipped, 1), test, passed, len(outcomes),
                     skipped, why))
    rows.sort()
    shown = [r for r in rows if ns.all or r[2] + r[4] < r[3]]
    for _, test, passed, n, skipped, why in shown:
        rate = "skipped" if skipped == n else f"{passed}/{n - skipped}"
        print(f"{rate:>8}  {test}" + (f"\n          first miss: {why}" if why else ""))
    missed = sum(1 for r in rows if r[2] + r[4] < r[3])
    print(f"{len(rows)} tests, {missed} missed at least one run; {len(rows) - missed} passed "
          f"all {ns.runs} runs ({result['seconds']:.0f} s)")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if ns.json:
        ns.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
