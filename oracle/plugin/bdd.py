"""The one module that uses pytest-bdd beyond its public API: a faster way to run a scenario.

Everything else reaches pytest-bdd through its public API: ``scenario`` makes each test (and
parses the feature file), the step decorators define the dispatchers
(``oracle.plugin.dispatch``), ``parsers`` read step texts, and its hooks report each step.
Run that way (``--bdd-public``), pytest-bdd finds each step's definition by trying every
fixture of the session, injects it as a fixture, reads the function's signature and calls
it through pytest's fixture code: about twice the time of a whole scenario here, measured
by ``benchmarks/run.py --only scenario``. This module keeps that time down, and keeps
pytest-bdd's records of a test no longer than its reporters need them, through names
pytest-bdd does not publish:

- ``scenario_test``: the test pytest-bdd's ``scenario`` makes, with the same marks,
  parametrisation and scenario (its template renders each example row), runs its steps
  straight to their kind's dispatcher, calling every pytest-bdd hook around each step in
  pytest-bdd's order with the arguments pytest-bdd gives them (``run_scenario``);
- what pytest-bdd keeps for its reporters about each test (the scenario as run, a copy for
  each report) is let go once the test's reports are logged: about 10 KB a test that
  nothing reads afterwards, half the peak memory of a 10,000-test run (``Release``).

Why one guarded module: pytest-bdd may move any of these names in any release, and a
quiet fallback would change the oracle's speed or behaviour with no test failing. So the
installed version is checked when a run starts (``check``): one not checked here is a
usage error (exit 2) that names it and ``--bdd-public``, the way around. The oracle's tests
run the whole bundled suite both ways and require the same reports.
"""

from __future__ import annotations

import importlib.metadata
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import scenario

from oracle.plugin.dispatch import DISPATCHERS, PARSER, run_step

CHECKED = ("9.0",)
"""The pytest-bdd release series (major.minor) this module was checked against."""

try:
    from pytest_bdd.exceptions import StepDefinitionNotFoundError as _NotFound
    from pytest_bdd.reporting import scenario_reports_registry as _scenario_reports
    from pytest_bdd.reporting import test_report_context_registry as _report_contexts
    from pytest_bdd.scenario import scenario_wrapper_template_registry as _templates
except ImportError as exc:  # refused by ``check``, never used
    _MISSING: str | None = str(exc)
else:
    _MISSING = None

_Failed = pytest.fail.Exception


class UnsupportedBdd(Exception):
    """The installed pytest-bdd is not one this module was checked against."""


def check() -> None:
    """Refuse (``UnsupportedBdd``) a pytest-bdd this module was not checked against."""
    version = importlib.metadata.version("pytest-bdd")
    series = ".".join(version.split(".")[:2])
    if series not in CHECKED or _MISSING is not None:
        why = f" ({_MISSING})" if _MISSING else ""
        raise UnsupportedBdd(
            f"rules-oracle runs each step through pytest-bdd's internals, checked against "
            f"pytest-bdd {', '.join(f'{s}.x' for s in CHECKED)}; the installed pytest-bdd is "
            f"{version}{why}, which may have moved them. Run with --bdd-public (pytest: "
            f"--oracle-bdd-public) to use pytest-bdd's public API only: the same verdicts, "
            "about twice the time per scenario. Or install a pytest-bdd the oracle was "
            f"checked against: pip install 'pytest-bdd=={CHECKED[-1]}.*'")


def scenario_test(path: Path, name: str, body: Callable[..., Any]) -> Callable[..., Any]:
    """pytest-bdd's test for one scenario of a feature file, ending with ``body``, run by
    ``run_scenario``."""
    public = scenario(str(path), name, features_base_dir=str(path.parent))(body)
    template = _templates[public]
    feature = template.feature
    arguments = [p.name for p in inspect.signature(body).parameters.values()
                 if p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty]

    # The parameters pytest-bdd's test function has: pytest gives the row the same way.
    def scenario_wrapper(request: pytest.FixtureRequest,
                         _pytest_bdd_example: dict[str, str]) -> Any:
        __tracebackhide__ = True
        run_scenario(request, feature, template.render(_pytest_bdd_example))
        return body(*(request.getfixturevalue(a) for a in arguments))

    scenario_wrapper.__doc__ = public.__doc__
    # pytest-bdd's marks: the row parametrisation, the body's fixtures, the scenario's tags.
    scenario_wrapper.pytestmark = list(getattr(public, "pytestmark", []))  # type: ignore[attr-defined]
    return scenario_wrapper


def run_scenario(request: pytest.FixtureRequest, feature: Any, scenario: Any) -> None:
    """Run a rendered scenario as pytest-bdd 9.0 runs one (``_execute_scenario``), each step
    handed to its kind's dispatcher.

    pytest-bdd would search every fixture for the step's definition, inject it as a
    fixture, parse the text with the dispatcher's regex (which takes all of it), read the
    function's signature and call it through pytest's fixture code; the dispatcher is known
    and takes the world and the whole text, so it is called. The hooks are pytest-bdd's,
    in its order and with its arguments (``step_func_args`` as its parse and fixtures give
    them), so its reporters (``--cucumberjson``, the gherkin terminal reporter) and the
    oracle's step records see the same steps."""
    __tracebackhide__ = True
    hook = request.config.hook
    hook.pytest_bdd_before_scenario(request=request, feature=feature, scenario=scenario)
    try:
        for step in scenario.steps:
            func = DISPATCHERS.get(step.type)
            if func is None or not PARSER.is_matching(step.name):  # as pytest-bdd, no match
                exc = _NotFound(
                    f"Step definition is not found: {step}. Line {step.line_number} in "
                    f'scenario "{scenario.name}" in the feature "{feature.filename}"')
                hook.pytest_bdd_step_func_lookup_error(request=request, feature=feature,
                                                       scenario=scenario, step=step,
                                                       exception=exc)
                raise exc
            kw: dict[str, Any] = {"request": request, "feature": feature,
                                  "scenario": scenario, "step": step, "step_func": func,
                                  "step_func_args": {}}
            hook.pytest_bdd_before_step(**kw)
            try:
                args = {"step_text": step.name,
                        "oracle_world": request.getfixturevalue("oracle_world")}
                kw["step_func_args"] = args
                hook.pytest_bdd_before_step_call(**kw)
                # What the hooks saw is what runs (a hook may change the arguments).
                run_step(args["oracle_world"], step.type, args["step_text"])
            except (Exception, _Failed) as exception:  # what pytest-bdd reports as a step error
                hook.pytest_bdd_step_error(exception=exception, **kw)
                raise
            hook.pytest_bdd_after_step(**kw)
    finally:
        hook.pytest_bdd_after_scenario(request=request, feature=feature, scenario=scenario)


class Release:
    """Lets go of what pytest-bdd keeps for its reporters about a test once they have read
    it: the scenario as it ran (kept per item for the whole run) after the test's last
    report, and each report's copy of it after the report is logged (read by pytest-bdd's
    cucumber JSON and gherkin reporters as it is logged; pytest keeps every report)."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None
                                ) -> Any:
        try:
            return (yield)
        finally:
            _scenario_reports.pop(item, None)

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        _report_contexts.pop(report, None)


def kept() -> tuple[int, int]:
    """How many tests and reports pytest-bdd still keeps records of (for the tests)."""
    return len(_scenario_reports), len(_report_contexts)


def install(config: pytest.Config) -> None:
    """Check pytest-bdd (``pytest.UsageError`` when this module cannot run it) and start
    letting go of its per-test records."""
    try:
        check()
    except UnsupportedBdd as exc:
        raise pytest.UsageError(str(exc)) from None
    if not config.pluginmanager.has_plugin("rules-oracle-bdd"):
        config.pluginmanager.register(Release(), "rules-oracle-bdd")
