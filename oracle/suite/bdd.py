"""The one module that uses pytest-bdd beyond its public API.

pytest-bdd's public API (``given``/``when``/``then``, ``parsers``, ``scenario``) is what the
step library uses. The oracle also needs four things pytest-bdd keeps internal: the
registry of step definitions (to list, lint and run steps by their text), the Gherkin
document with line numbers (duplicate scenario names, tag lines), the test-function names
pytest-bdd would give a scenario, and the scenario behind a collected test. Each is wrapped
here, so a minor release of pytest-bdd that moves one of them breaks this module only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from pytest_bdd import scenario
from pytest_bdd.exceptions import GherkinParseError
from pytest_bdd.gherkin_parser import GherkinDocument, get_gherkin_document
from pytest_bdd.scenario import get_python_name_generator, scenario_wrapper_template_registry
from pytest_bdd.steps import StepFunctionContext, step_function_context_registry

__all__ = [
    "STEP_FIXTURE_PREFIX",
    "GherkinDocument",
    "GherkinParseError",
    "StepFunctionContext",
    "example_row",
    "gherkin_document",
    "python_names",
    "scenario_behind",
    "scenario_test",
    "step_definitions",
    "step_fixtures",
]

STEP_FIXTURE_PREFIX = "pytestbdd_stepdef_"
"""pytest-bdd injects each step definition into its module as a fixture named so."""


def step_definitions(modules: Iterable[str]) -> list[StepFunctionContext]:
    """Every step definition of these modules (imported here), in definition order."""
    wanted = list(dict.fromkeys(modules))
    for name in wanted:
        importlib.import_module(name)
    by_module: dict[str, list[StepFunctionContext]] = {name: [] for name in wanted}
    for context in list(step_function_context_registry.values()):
        module = context.step_func.__module__
        if module in by_module:
            by_module[module].append(context)
    return [c for name in wanted for c in by_module[name]]


def step_fixtures(module: ModuleType) -> dict[str, Any]:
    """The fixtures through which pytest-bdd finds a module's step definitions; copying
    them into another module makes those steps visible to that module's tests only."""
    return {k: v for k, v in vars(module).items() if k.startswith(STEP_FIXTURE_PREFIX)}


def gherkin_document(path: Path) -> GherkinDocument:
    """The Gherkin document of a feature file, with every line number (GherkinParseError
    carries the line and its text when the file does not parse)."""
    return get_gherkin_document(str(path))


def scenario_test(path: Path, name: str, body: Callable[..., Any]) -> Callable[..., Any]:
    """pytest-bdd's test function for one scenario of a feature file, ending with ``body``."""
    return scenario(str(path), name, features_base_dir=str(path.parent))(body)


def python_names(name: str) -> Iterator[str]:
    """The test-function names pytest-bdd would give a scenario, first choice first."""
    return iter(get_python_name_generator(name))


def scenario_behind(test_function: object) -> tuple[str, Path, int] | None:
    """(scenario name, feature file, line) of a test made by ``scenario_test``."""
    template = scenario_wrapper_template_registry.get(test_function)  # type: ignore[arg-type]
    if template is None:
        return None
    return template.name, Path(template.feature.filename), template.line_number


def example_row(item: object) -> dict[str, str] | None:
    """The example row a Scenario Outline's test runs with (None for a plain scenario)."""
    callspec = getattr(item, "callspec", None)
    row = getattr(callspec, "params", {}).get("_pytest_bdd_example") if callspec else None
    return {str(k): str(v) for k, v in row.items()} if row else None
