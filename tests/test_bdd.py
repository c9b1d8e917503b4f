"""pytest-bdd, reached two ways: its public API, and the faster runner of ``oracle.plugin.bdd``.

The faster runner uses pytest-bdd's internals, checked against the installed version when a
run starts; ``--bdd-public`` uses the public API only. Both must give the same reports, the
same hooks, the same test names and steps; a pytest-bdd the runner was not checked against
is refused, naming the way around. Nothing else may use a name pytest or pytest-bdd does not
publish (checked on the source).
"""

from __future__ import annotations

import ast
import functools
import json
import os
from pathlib import Path
from typing import Any

import pytest

from oracle.mutants.harness import game_cases
from oracle.plugin import bdd
from oracle.suite import runnable
from oracle.suite.games import discover_games

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _same(report: dict[str, Any]) -> Any:
    """A report without what differs from one run to the next (durations, the start)."""
    if isinstance(report, dict):
        return {k: _same(v) for k, v in report.items() if k not in ("duration", "started")}
    if isinstance(report, list):
        return [_same(v) for v in report]
    return report


HOOK_LOG = '''
"""Every pytest-bdd hook call of a run, with what it was given, into hooks.json."""
import json

LOG = []

def pytest_sessionstart():
    LOG.clear()

def pytest_sessionfinish():
    with open("hooks.json", "w") as f:
        json.dump(LOG, f)

def _log(name, step, step_func_args, **more):
    LOG.append([name, step.name, list(step_func_args), *more.values()])

def pytest_bdd_before_scenario(request, scenario):
    where = f"{request.node.path.parent.name}/{request.node.path.name}"
    LOG.append(["scenario", [where, request.node.name],
                [[s.type, s.name, s.line_number] for s in scenario.steps]])

def pytest_bdd_before_step(step):
    _log("before_step", step, {})

def pytest_bdd_before_step_call(step, step_func_args):
    _log("before_step_call", step, step_func_args)

def pytest_bdd_after_step(step, step_func_args):
    _log("after_step", step, step_func_args)

def pytest_bdd_step_error(step, step_func_args, exception):
    _log("step_error", step, step_func_args, error=type(exception).__name__)

def pytest_bdd_after_scenario(request):
    LOG.append(["end", request.node.name])
'''


@pytest.fixture
def both_ways(oracle, pytester):
    """Run ``rules-oracle run ARGS`` through the faster runner and through pytest-bdd's
    public API: (run, hook calls) each way."""
    pytester.makepyfile(hooklog=HOOK_LOG)
    pytester.syspathinsert()

    def run(*args: str) -> list[tuple[Any, list[Any]]]:
        out = []
        for way in ([], ["--bdd-public"]):
            result = oracle("run", *args, *way, "--", "-p", "hooklog")
            out.append((result, json.loads((pytester.path / "hooks.json").read_text())))
        return out

    return run


def test_the_bundled_suite_gives_the_same_report_and_hooks_both_ways(both_ways):
    """The whole bundled suite, with the Russian translation and the council's rulings: the
    same report, and pytest-bdd's hooks called alike (per scenario before_scenario with the
    steps as pytest-bdd renders them; per step before_step, before_step_call with the step's
    arguments, after_step; after_scenario). The kill matrix's harness runs each bundled
    scenario and row with the test name and the (kind, text) steps pytest-bdd gave it."""
    (fast, fast_hooks), (public, public_hooks) = both_ways(
        "--features", str(EXAMPLES / "russian"), "--features", str(EXAMPLES / "council-rulings"))
    assert fast.code == public.code == 0, fast.out + fast.err + public.out + public.err
    assert fast.scenarios() and _same(fast.report) == _same(public.report)
    assert fast_hooks == public_hooks
    _check_step_hooks(fast_hooks)
    ran = {tuple(line[1]): [(kind, text) for kind, text, _ in line[2]]
           for line in fast_hooks if line[0] == "scenario"}
    cases = [c for g in discover_games().values() for c in game_cases(g)]
    assert cases and len(ran) > len(cases)  # and the translation's, the rulings'
    for case in cases:
        assert ran[case.location.rpartition(":")[0], case.test_name] == list(case.steps), case


def test_a_failing_engine_gets_the_same_report_and_hooks_both_ways(both_ways):
    """A mutant that fails scenarios: the same failures, failed steps, messages and
    reproduce commands; step_error called with the exception for the step that failed."""
    (fast, fast_hooks), (public, public_hooks) = both_ways(
        "--engine", "mutant:lazy_reshuffle", "--rule", "ti4")
    assert fast.code == public.code == 1, fast.out + fast.err
    assert fast.scenarios("fail") and _same(fast.report) == _same(public.report)
    assert fast_hooks == public_hooks
    failed = _check_step_hooks(fast_hooks)
    assert failed and {f[3] for f in failed} == {"RuleViolation"}, failed


def _check_step_hooks(lines: list[list[Any]]) -> list[list[Any]]:
    """Each step's three hook calls in pytest-bdd's order; the step_error calls."""
    steps = [lines[i:i + 3] for i, line in enumerate(lines) if line[0] == "before_step"]
    ends = sum(1 for line in lines if line[0] == "end")
    assert steps and len(lines) == 3 * len(steps) + 2 * ends
    for before, call, after in steps:
        assert call[0::2] == ["before_step_call", ["step_text", "oracle_world"]], call
        assert after[0] in ("after_step", "step_error") and after[1:3] == [before[1], call[2]]
    return [after for *_, after in steps if after[0] == "step_error"]


def test_an_unchecked_pytest_bdd_is_refused_naming_the_way_around(oracle, monkeypatch):
    from importlib.metadata import version

    monkeypatch.setattr(bdd, "CHECKED", ("0.1",))
    run = oracle("run", "--rule", "ti4:2.4")
    assert run.code == 2 and run.report is None, run.out + run.err
    said = run.out + run.err
    assert f"the installed pytest-bdd is {version('pytest-bdd')}" in said
    assert "--bdd-public" in said and "--oracle-bdd-public" in said
    run = oracle("run", "--rule", "ti4:2.4", "--bdd-public")
    assert run.code == 0 and run.status("ti4:2.4") == "pass", run.out + run.err


def test_test_names_are_those_pytest_bdd_scenarios_gives(pytester):
    """Every bundled scenario's test name (its seed derives from it) is the name pytest-bdd's
    public ``scenarios`` gives it, in a test module of its own feature file."""
    files = [p for g in discover_games().values() for p in g.feature_files()]
    for i, path in enumerate(files):
        pytester.makepyfile(**{f"test_names_{i}": "from pytest_bdd import scenarios\n"
                                                  f"scenarios({str(path)!r})\n"})
    result = pytester.runpytest_inprocess("--collect-only", "-q", "-p", "no:cacheprovider")
    given: dict[str, list[str]] = {}
    for line in result.stdout.lines:
        module, sep, test = line.partition(".py::")
        if sep:
            names = given.setdefault(module, [])
            name = test.partition("[")[0]
            if name not in names:
                names.append(name)
    assert len(given) == len(files), result.stdout.str()
    for i, path in enumerate(files):
        assert list(runnable.test_names(path).values()) == given[f"test_names_{i}"], path


# -- no private name of pytest or pytest-bdd outside oracle/plugin/bdd.py ---------------------

GUARDED = ROOT / "oracle" / "plugin" / "bdd.py"
SOURCES = [p for folder in ("oracle", "steps", "tests", "benchmarks", "examples")
           for p in sorted((ROOT / folder).rglob("*.py"))
           if p not in (GUARDED, Path(__file__).resolve()) and "node_modules" not in p.parts]


def _private_names() -> set[str]:
    """The single-underscore names pytest's and pytest-bdd's public classes and modules
    hold: reading or overriding any of them is using pytest outside its public API."""
    import pytest_bdd
    from pytest_bdd import parsers

    owners: list[Any] = [pytest_bdd, parsers, pytest.TerminalReporter, pytest.CallInfo]
    owners += [getattr(pytest, n) for n in dir(pytest) if isinstance(getattr(pytest, n), type)]
    names = {n for owner in owners for n in dir(owner)
             if n.startswith("_") and not n.startswith("__")}
    return names | {"_tw", "_fixturemanager", "_pyfuncitem", "_report_sections",
                    "_fixture_defs", "_pytest_bdd_example", "_arg2fixturedefs"}


@functools.cache
def _scan(path: Path) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """The private names a file defines (functions, classes, attributes and variables it
    assigns), and each place it imports, reads, overrides or names one: (where, name)."""
    defined: set[str] = set()
    uses: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        line = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and node.module:
            uses.append((line, f"import {node.module}"))
        elif isinstance(node, ast.Import):
            uses += [(line, f"import {a.name}") for a in node.names]
        elif isinstance(node, ast.Attribute):
            (defined.add(node.attr) if isinstance(node.ctx, ast.Store)
             else uses.append((line, node.attr)))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
            uses.append((line, f"def {node.name}"))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.startswith(("_", "pytest_bdd.", "pytestbdd_")):
            uses.append((line, f"{node.value!r}"))
    return frozenset(d for d in defined if d.startswith("_")), tuple(uses)


def _offends(use: str, private: set[str]) -> bool:
    """Whether one use (``_scan``) is of pytest's or pytest-bdd's private side."""
    if use.startswith("import "):
        module = use.removeprefix("import ")
        return module.split(".")[0] == "_pytest" or (
            module.startswith("pytest_bdd.") and module != "pytest_bdd.parsers")
    name = use.removeprefix("def ").strip("'")
    return name in private or name.startswith(("_pytest.", "pytest_bdd.", "pytestbdd_"))


def test_nothing_but_oracle_plugin_bdd_uses_a_private_name_of_pytest_or_pytest_bdd():
    """No import of ``_pytest`` or of pytest-bdd's modules (but ``parsers``), no attribute,
    override or string naming a private member of pytest's or pytest-bdd's public classes
    (``_tw``, ``_fixturemanager``, ``_getobj``, ...), anywhere but the guarded module."""
    known = {"_tw", "_getobj", "_fixturemanager", "_report_sections", "_pytest_bdd_example"}
    private = _private_names()
    assert known <= private
    # A private name the oracle's own code defines too is the oracle's (no way to tell).
    private -= {n for p in SOURCES for n in _scan(p)[0]} - known
    found = [f"{where}: {use}" for p in SOURCES for where, use in _scan(p)[1]
             if _offends(use, private)]
    assert not found, found
    assert any(_offends(use, private) for _, use in _scan(GUARDED)[1]), \
        "the check sees what the guarded module uses"


def test_the_checked_series_is_the_installed_one():
    """CHECKED names the series this module was written against; the installed one is
    among them (else every run here would refuse to start)."""
    from importlib.metadata import version

    assert ".".join(version("pytest-bdd").split(".")[:2]) in bdd.CHECKED
    bdd.check()
    assert os.path.basename(bdd.__file__) == "bdd.py"
