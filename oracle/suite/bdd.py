"""The one module that uses pytest-bdd beyond its public API.

pytest-bdd's public API (``given``/``when``/``then``, ``parsers``, ``scenario``) is what the
step library uses. The oracle also needs four things pytest-bdd keeps internal: the
registry of step definitions (to list, lint and run steps by their text), the Gherkin
document with line numbers (duplicate scenario names, tag lines), the test-function names
pytest-bdd would give a scenario, and the scenario behind a collected test. Each is wrapped
here, so a minor release of pytest-bdd that moves one of them breaks this module only.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pytest_bdd import parsers, scenario
from pytest_bdd.exceptions import GherkinParseError
from pytest_bdd.feature import get_feature
from pytest_bdd.gherkin_parser import GherkinDocument, get_gherkin_document
from pytest_bdd.scenario import get_python_name_generator, scenario_wrapper_template_registry
from pytest_bdd.steps import StepFunctionContext, step_function_context_registry

from oracle.suite import cache

__all__ = [
    "DISPATCH",
    "ROUTES",
    "STEP_FIXTURE_PREFIX",
    "GherkinDocument",
    "GherkinParseError",
    "RenderedScenario",
    "StepFunctionContext",
    "example_row",
    "gherkin_document",
    "literal_hint",
    "python_names",
    "rendered_scenarios",
    "route_steps",
    "routes_to",
    "scenario_behind",
    "scenario_test",
    "share_parses",
    "step_definitions",
    "step_fixtures",
]

STEP_FIXTURE_PREFIX = "pytestbdd_stepdef_"
"""pytest-bdd injects each step definition into its module as a fixture named so."""


def step_definitions(modules: Iterable[str]) -> list[StepFunctionContext]:
    """Every step definition of these modules (imported here), in definition order."""
    wanted = list(dict.fromkeys(modules))
    # By the module object, not its name: a module imported again (pytester's in-process
    # runs drop the modules a run imported) leaves its first definitions in pytest-bdd's
    # registry as long as anything holds them, and they would match every step twice.
    namespaces = {id(vars(importlib.import_module(name))): name for name in wanted}
    by_module: dict[str, list[StepFunctionContext]] = {name: [] for name in wanted}
    for context in list(step_function_context_registry.values()):
        name = namespaces.get(id(getattr(context.step_func, "__globals__", None)))
        if name is not None:
            by_module[name].append(context)
    return [c for name in wanted for c in by_module[name]]


def step_fixtures(module: ModuleType) -> dict[str, Any]:
    """The fixtures through which pytest-bdd finds a module's step definitions; copying
    them into another module makes those steps visible to that module's tests only."""
    return {k: v for k, v in vars(module).items() if k.startswith(STEP_FIXTURE_PREFIX)}


def routes_to(module: ModuleType) -> dict[str, str]:
    """Step kind -> the name of the fixture of ``module``'s one definition of that kind (for
    ``ROUTES``; pytest-bdd names them ``pytestbdd_stepdef_KIND_PATTERN``)."""
    routes: dict[str, str] = {}
    for name in step_fixtures(module):
        kind = name.removeprefix(STEP_FIXTURE_PREFIX).partition("_")[0]
        routes[kind] = name if kind not in routes else ""  # two of a kind: no route
    return {kind: name for kind, name in routes.items() if name}


def literal_hint(context: StepFunctionContext) -> tuple[str, tuple[str, ...]] | None:
    """Literal text any step a definition matches must hold: ``(prefix, parts)``, the text it
    starts with and text it contains; None when that cannot be told (then try the regex).

    Read from ``parsers.re`` patterns (pytest-bdd matches them in full) and exact strings;
    anything unexpected (another parser, case-insensitive or verbose flags) gives None, so
    a change in pytest-bdd costs speed, never a match.
    """
    parser = context.parser
    if type(parser) is parsers.string:
        return str(parser.name), ()
    regex = getattr(parser, "regex", None)
    if type(parser) is not parsers.re or not isinstance(regex, re.Pattern) \
            or regex.flags & (re.IGNORECASE | re.VERBOSE):
        return None
    return regex_literals(regex.pattern)


def regex_literals(pattern: str) -> tuple[str, tuple[str, ...]] | None:
    """``(prefix, parts)`` of a regex matched in full: the literal text it starts with, and
    the runs of literal text outside any group, which every match contains. None for a
    top-level alternation. Conservative: anything unclear ends a run of literal text."""
    runs: list[str] = []
    run, prefix, depth, i = "", None, 0, 0

    def end_run() -> None:
        nonlocal run, prefix
        if prefix is None:
            prefix = run
        if run:
            runs.append(run)
        run = ""

    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            escaped = pattern[i + 1:i + 2]
            literal = escaped and not escaped.isalnum()
            i += 2
            if depth == 0:
                if literal and not _quantified(pattern, i):
                    run += escaped
                else:
                    end_run()
            continue
        if c == "[":
            i = _class_end(pattern, i)
            if depth == 0:
                end_run()
            continue
        i += 1
        if c == "(":
            if depth == 0:
                end_run()
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth:
            continue
        elif c == "|":
            return None
        elif c in ".^$*+?{}" or _quantified(pattern, i):
            end_run()
        else:
            run += c
    end_run()
    return prefix or "", tuple(runs)


def _quantified(pattern: str, i: int) -> bool:
    """Whether the element ending just before ``i`` is followed by a quantifier."""
    return pattern[i:i + 1] in ("*", "+", "?", "{")


def _class_end(pattern: str, i: int) -> int:
    """The index just after the character class starting at ``pattern[i] == "["``."""
    j = i + 1
    if pattern[j:j + 1] == "^":
        j += 1
    if pattern[j:j + 1] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1


def gherkin_document(path: Path) -> GherkinDocument:
    """The Gherkin document of a feature file, with every line number (GherkinParseError
    carries the line and its text when the file does not parse).

    Parsed once per content: a document is kept in memory and in the cache folder
    (``oracle.suite.cache``) under the hash of the file's bytes and of the parser's code,
    and pytest-bdd reads the same document (``share_parses``).
    """
    data = path.read_bytes()
    key = cache.content_key(data, *_parser_versions())
    doc = _documents.get(key)
    if doc is None:
        doc = cache.load("gherkin", key)
        if not isinstance(doc, GherkinDocument):
            doc = _parse_document(str(path))
            cache.store("gherkin", key, doc)
        _documents[key] = doc
    return doc


_documents: dict[str, GherkinDocument] = {}
_parse_document = get_gherkin_document


@functools.cache
def _parser_versions() -> tuple[str, ...]:
    """What identifies the parser's code: its modules' files, sizes and times (a version
    change replaces them), and the Python that pickles the documents."""
    import gherkin.parser
    import pytest_bdd.gherkin_parser

    stamps = [sys.version]
    for module in (gherkin.parser, pytest_bdd.gherkin_parser):
        stat = os.stat(module.__file__ or "")
        stamps.append(f"{module.__file__}:{stat.st_size}:{stat.st_mtime_ns}")
    return tuple(stamps)


ROUTES = "__oracle_step_routes__"
"""The attribute of a test module naming, per step kind, the one step-definition fixture
its steps go to (``route_steps``)."""


def route_steps() -> None:
    """Let pytest-bdd find the definition of a step of an oracle feature module directly.

    pytest-bdd 9 finds a step's definition by looking among every fixture name of the
    session (``find_fixturedefs_for_step``, about thirty lookups per step), then registers
    the hits under a synthetic fixture name and asks pytest for its value
    (``get_step_function``); and it reads each step function's signature twice per step.
    A module that names its definitions in ``ROUTES`` (the vocabulary's three dispatchers,
    ``oracle.suite.dispatch``, which match any text) gets the definition of its step's
    kind handed over directly (resolved once per module, through pytest's own fixture
    lookup, filtered exactly as pytest-bdd filters), and signatures are read once per
    function; a dispatcher is then run straight (``_step_runner``), with every hook
    pytest-bdd calls around a step. Other modules, a step the route does not match, other
    step functions, and any pytest-bdd without these functions take pytest-bdd's own way.
    """
    # By module path: ``pytest_bdd.scenario`` the attribute is the function ``scenario``.
    bdd_compat = importlib.import_module("pytest_bdd.compat")
    bdd_scenario = importlib.import_module("pytest_bdd.scenario")
    original = getattr(bdd_scenario, "find_fixturedefs_for_step", None)
    original_get = getattr(bdd_scenario, "get_step_function", None)
    getfixturedefs = getattr(bdd_compat, "getfixturedefs", None)
    if original is None or original_get is None or getfixturedefs is None \
            or getattr(original, "routed", False):
        return

    def routed(step: Any, fixturemanager: Any, node: Any) -> Iterator[Any]:
        routes = getattr(getattr(node, "module", None), ROUTES, None)
        name = routes.get(step.type) if isinstance(routes, dict) else None
        if name is None:
            yield from original(step, fixturemanager, node)
            return
        for fixturedef in getfixturedefs(fixturemanager, name, node) or []:
            context = step_function_context_registry.get(fixturedef.func)
            if context is not None and context.type in (None, step.type) \
                    and context.parser.is_matching(step.name):
                yield fixturedef

    def direct(request: Any, step: Any) -> StepFunctionContext | None:
        context = _routed_context(request, step, getfixturedefs)
        return context if context is not None else original_get(request, step)

    routed.routed = True  # type: ignore[attr-defined]
    bdd_scenario.find_fixturedefs_for_step = routed
    bdd_scenario.get_step_function = direct
    original_execute = getattr(bdd_scenario, "_execute_step_function", None)
    if original_execute is not None:
        bdd_scenario._execute_step_function = _step_runner(original_execute)
    if hasattr(bdd_scenario, "signature") and hasattr(bdd_scenario, "get_required_args"):
        bdd_scenario.signature = _signature
        bdd_scenario.get_required_args = _required_args


_CONTEXTS = "__oracle_step_contexts__"
"""The attribute of a routed test module caching, per step kind, its route's definition."""


def _routed_context(request: Any, step: Any, getfixturedefs: Callable[..., Any]
                    ) -> StepFunctionContext | None:
    """The definition ``ROUTES`` sends a step to, if it matches the step (else None: then
    pytest-bdd searches as it always does)."""
    module = getattr(request.node, "module", None)
    routes = getattr(module, ROUTES, None)
    if not isinstance(routes, dict):
        return None
    contexts = vars(module).setdefault(_CONTEXTS, {})
    if step.type not in contexts:
        found = None
        name = routes.get(step.type)
        for fixturedef in (getfixturedefs(request._fixturemanager, name, request.node)
                           if name else None) or []:
            context = step_function_context_registry.get(fixturedef.func)
            if context is not None and context.type in (None, step.type):
                found = context  # the last one visible: the closest, as pytest picks
        contexts[step.type] = found
    context = contexts[step.type]
    return context if context is not None and context.parser.is_matching(step.name) else None


_Failed = pytest.fail.Exception

DISPATCH = "__oracle_dispatch__"
"""The attribute marking a step function that runs any step of its kind itself, given the
scenario's world and the step's text (``oracle.suite.dispatch``)."""


def _step_runner(original: Callable[..., Any]) -> Callable[..., Any]:
    """pytest-bdd's ``_execute_step_function``, with a dispatcher (``DISPATCH``) run directly.

    Why: for each step pytest-bdd parses the text with the definition's regex, reads the
    function's signature, asks pytest for each parameter as a fixture and calls the function
    through pytest's fixture-calling code, which allows ``yield`` steps. A dispatcher takes
    the whole text and the world, and never yields: that is a tenth of a scenario's time,
    spent finding what is known. Every hook is still called, in pytest-bdd's order and with
    the arguments it passes (``step_func_args`` is what the dispatcher gets), so reporting
    (``--cucumberjson``, the gherkin terminal reporter, the oracle's step records) sees the
    same steps; any other step function goes through pytest-bdd's own code."""

    def execute(request: Any, scenario: Any, step: Any, context: Any) -> None:
        __tracebackhide__ = True
        run = getattr(context.step_func, DISPATCH, None)
        if run is None or context.target_fixture is not None:
            original(request, scenario, step, context)
            return
        hook = request.config.hook
        args = {"oracle_world": request.getfixturevalue("oracle_world"),
                "step_text": step.name}
        kw = {"request": request, "feature": scenario.feature, "scenario": scenario,
              "step": step, "step_func": context.step_func, "step_func_args": {}}
        hook.pytest_bdd_before_step(**kw)  # before the arguments are known, as pytest-bdd
        try:
            kw["step_func_args"] = args
            hook.pytest_bdd_before_step_call(**kw)
            # What the hooks saw is what runs (a hook may change the arguments, as with
            # pytest-bdd's own call).
            run(args["oracle_world"], context.type or step.type, args["step_text"])
        except (Exception, _Failed) as exception:  # what pytest-bdd reports as a step error
            hook.pytest_bdd_step_error(exception=exception, **kw)
            raise
        hook.pytest_bdd_after_step(**kw)

    execute.direct = True  # type: ignore[attr-defined]
    return execute


@functools.lru_cache(maxsize=4096)
def _signature(func: Callable[..., Any]) -> inspect.Signature:
    """``inspect.signature``, read once per step function."""
    return inspect.signature(func)


def _required_args(func: Callable[..., Any]) -> list[str]:
    """pytest-bdd's ``get_required_args`` (parameters it fills from fixtures), read once."""
    return list(_required_names(func))


@functools.lru_cache(maxsize=4096)
def _required_names(func: Callable[..., Any]) -> tuple[str, ...]:
    return tuple(p.name for p in _signature(func).parameters.values()
                 if p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty)


def share_parses() -> None:
    """Make pytest-bdd read feature files through ``gherkin_document``, so that a file is
    parsed once per content for the suite checks and the collection alike. Done by the
    plugin for oracle runs only; if pytest-bdd no longer has the function, nothing changes
    (the files are then parsed twice, as before)."""
    bdd_parser = importlib.import_module("pytest_bdd.parser")
    original = getattr(bdd_parser, "get_gherkin_document", None)
    if original is None or getattr(original, "shared_by_oracle", False):
        return

    def shared(abs_filename: str, encoding: str = "utf-8") -> GherkinDocument:
        if encoding.lower().replace("-", "").replace("_", "") != "utf8":
            return original(abs_filename, encoding)
        return gherkin_document(Path(abs_filename))

    shared.shared_by_oracle = True  # type: ignore[attr-defined]
    bdd_parser.get_gherkin_document = shared


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


def row_name(name: str, row: Mapping[str, str] | None) -> str:
    """How the report names one row of a Scenario Outline: each row is a scenario of its
    own, named by its values ("Name [Bob | rejected]")."""
    return f"{name} [{' | '.join(row.values())}]" if row else name


@dataclass(frozen=True)
class RenderedScenario:
    """One runnable scenario as pytest-bdd would run it: an outline gives one per example row.

    ``steps`` are (kind, text, line) with the background first and ``<placeholders>``
    filled in; ``example_id`` is pytest-bdd's parametrisation id (``None`` for a plain
    scenario), which pytest appends to the test name in brackets.
    """

    name: str
    line: int
    example_id: str | None
    steps: tuple[tuple[str, str, int], ...]
    row: tuple[tuple[str, str], ...] = ()  # the example row's (column, value) pairs


def rendered_scenarios(path: Path, name: str) -> list[RenderedScenario]:
    """The scenario ``name`` of a feature file, rendered exactly as pytest-bdd renders it
    when it runs the test (``ScenarioTemplate.render`` per example row)."""
    template = get_feature(str(path.parent), path.name).scenarios[name]
    rows: list[tuple[str | None, dict[str, str]]] = [
        ("-".join(context.values()), context)
        for examples in template.examples for context in examples.as_contexts()]
    out = []
    for example_id, context in rows or [(None, {})]:
        scenario = template.render(context)
        out.append(RenderedScenario(
            scenario.name, template.line_number, example_id,
            tuple((s.type, s.name, s.line_number) for s in scenario.steps),
            tuple((str(k), str(v)) for k, v in context.items())))
    return out
