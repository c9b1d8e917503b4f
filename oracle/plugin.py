"""The pytest plugin: thin hooks that hand the work to small modules.

Registered through the ``pytest11`` entry point, so it is always loaded, and
inert until an engine is named (``--oracle-engine`` or the ``oracle_engine``
ini setting; ``rules-oracle run`` names one). Then it:

- checks the suite (``oracle.lint``) and refuses to run a suite that would
  lose a rule;
- loads the step library and collects ``.feature`` files (``oracle.collect``);
- turns rule tags into one ``rule(...)`` mark and selects rules;
- records each scenario's verdict as plain data (``oracle.verdicts``);
- adds the per-rule table to pytest's terminal summary and writes JSON and
  Markdown reports on the controller (``oracle.run``).
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd.scenario import scenario_wrapper_template_registry
from pytest_bdd.steps import step_function_context_registry

from oracle import schemas
from oracle.catalog import CatalogFileError
from oracle.collect import ExploreItem, FeatureFile
from oracle.engines import EngineSpec, EngineSpecError, load_factory
from oracle.expectations import ExpectationsError, load_expectations
from oracle.game import bundled_features_dir, discover_games
from oracle.lint import RULE_TAG, lint_games
from oracle.mutants import find_mutant
from oracle.pipe import DEFAULT_TIMEOUT
from oracle.run import OracleRun, run_key
from oracle.verdicts import USER_PROPERTY, ScenarioVerdict, classify
from oracle.world import ScenarioWorld

COMMON_STEPS = "oracle.steps.common"
failed_step_key = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rules-oracle", "rules-oracle conformance testing")
    group.addoption("--oracle-engine", metavar="SPEC", default=None,
                    help="engine to test: 'reference', 'reference:GAME', "
                         "'package.module:factory' or 'cmd:ARGV' (a process speaking the "
                         "protocol on stdin/stdout) (turns the oracle on)")
    group.addoption("--oracle-rule", metavar="ID", action="append", default=[],
                    help="run only the scenarios of this rule id and its sub-rules "
                         "(e.g. ti4:2.4); repeatable")
    group.addoption("--oracle-features", metavar="DIR", action="append", default=[],
                    help="another folder of game folders (each with game.yaml) to run")
    group.addoption("--oracle-seed", metavar="N", type=int, default=0,
                    help="base seed for every scenario's shuffles (default 0)")
    group.addoption("--oracle-json", metavar="PATH", default=None,
                    help="write the per-rule report as JSON")
    group.addoption("--oracle-markdown", metavar="PATH", default=None,
                    help="write the per-rule report as Markdown (for a CI job summary)")
    group.addoption("--oracle-timeout", metavar="SECONDS", type=float, default=None,
                    help="seconds an engine gets to answer each request (default "
                         f"{DEFAULT_TIMEOUT:g}); a late answer errors the scenario and the "
                         "engine is restarted")
    group.addoption("--oracle-strict-protocol", action="store_true", default=False,
                    help="validate every request and reply against the protocol's JSON "
                         "Schemas; a violation errors the scenario (needs jsonschema)")
    group.addoption("--oracle-explore", action="store_true", default=False,
                    help="also explore each game with Hypothesis (random legal and illegal "
                         "moves, invariants per rule); findings land under their rule ids")
    group.addoption("--oracle-explore-examples", metavar="N", type=int, default=60,
                    help="games Hypothesis tries per invariant (default 60)")
    group.addoption("--oracle-explore-out", metavar="DIR", default=None,
                    help="write each exploration counterexample as a .feature file here")
    group.addoption("--oracle-expectations", metavar="PATH", default=None,
                    help="YAML of this engine's known failures: they report xfail, and "
                         "xpass when they pass")
    group.addoption("--oracle-strict-expectations", action="store_true", default=False,
                    help="a known failure that passes (xpass) fails the run")
    parser.addini("oracle_engine", "engine spec to test (same as --oracle-engine)")
    parser.addini("oracle_expectations", "known-failures file (same as --oracle-expectations)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(id): the rule id (game:id) a scenario checks")
    spec_text = config.getoption("oracle_engine") or config.getini("oracle_engine")
    if not spec_text:
        return
    is_worker = hasattr(config, "workerinput")
    extra = [Path(d).resolve() for d in config.getoption("oracle_features")]
    roots = [bundled_features_dir(), *extra]
    try:
        spec = EngineSpec.parse(spec_text)
        if spec.kind == "python":
            load_factory(spec.target)
        games = discover_games(roots)
        if spec.kind == "mutant":
            find_mutant(games.values(), spec.target)
    except (EngineSpecError, CatalogFileError) as exc:
        raise pytest.UsageError(str(exc)) from exc
    except KeyError as exc:
        raise pytest.UsageError(f"--oracle-engine {spec_text}: {exc.args[0]}") from exc
    if spec.kind == "reference" and spec.target and spec.target not in games:
        raise pytest.UsageError(f"--oracle-engine {spec_text}: no bundled game {spec.target!r} "
                                f"(games: {', '.join(games)})")
    selected = _selected_rules(config.getoption("oracle_rule"), games)
    timeout, strict = _pipe_options(config, spec)
    run = OracleRun(
        spec=spec, games=games, seed=config.getoption("oracle_seed"), selected=selected,
        json_path=_path(config.getoption("oracle_json")),
        markdown_path=_path(config.getoption("oracle_markdown")),
        is_worker=is_worker, timeout=timeout, strict=strict,
    )
    expectations = (config.getoption("oracle_expectations")
                    or config.getini("oracle_expectations"))
    if expectations:
        try:
            run.expectations = load_expectations(
                Path(expectations), [i for g in games.values() for i in g.catalog.ids()])
        except ExpectationsError as exc:
            raise pytest.UsageError(str(exc)) from exc
    run.strict_expectations = config.getoption("oracle_strict_expectations")
    config.stash[run_key] = run
    config.pluginmanager.register(run, "rules-oracle-run")
    for module in dict.fromkeys([COMMON_STEPS, *(g.steps for g in games.values() if g.steps)]):
        config.pluginmanager.import_plugin(module)
    if not is_worker:
        _refuse_a_lossy_suite(games)
    if config.args_source == pytest.Config.ArgsSource.INVOCATION_DIR or not config.args:
        config.args = [str(r) for r in roots]


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(run_key, None)
    if run is not None:
        config.pluginmanager.unregister(run)
        del config.stash[run_key]


def _pipe_options(config: pytest.Config, spec: EngineSpec) -> tuple[float, bool]:
    """``--oracle-timeout`` and ``--oracle-strict-protocol``, refused where they cannot work."""
    timeout = config.getoption("oracle_timeout")
    if timeout is not None and not timeout > 0:
        raise pytest.UsageError(f"--oracle-timeout must be a positive number of seconds, "
                                f"got {timeout:g}")
    strict = bool(config.getoption("oracle_strict_protocol"))
    if strict:
        try:
            schemas.validator("reply")
        except ImportError as exc:
            raise pytest.UsageError(f"--oracle-strict-protocol: {exc}") from exc
    return (DEFAULT_TIMEOUT if timeout is None else timeout), strict


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def _selected_rules(wanted: list[str], games: dict[str, Any]) -> set[str] | None:
    if not wanted:
        return None
    every = [rid for g in games.values() for rid in g.catalog.ids()]
    selected: set[str] = set()
    for text in wanted:
        hits = [rid for rid in every
                if rid == text or rid.startswith(text + ".") or rid.startswith(text + ":")]
        if not hits:
            raise pytest.UsageError(f"--oracle-rule {text}: no such rule id; ids look like "
                                    f"{', '.join(every[:3])} …")
        selected.update(hits)
    return selected


def _refuse_a_lossy_suite(games: dict[str, Any]) -> None:
    steps = list(step_function_context_registry.values())
    problems, _ = lint_games(games.values(), games, steps)
    if problems:
        listing = "\n".join(str(p) for p in problems)
        raise pytest.UsageError(
            f"rules-oracle refuses to run: {len(problems)} problem(s) in the suite\n{listing}"
        )


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".feature" and run_key in parent.config.stash:
        return FeatureFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_bdd_apply_tag(tag: str, function: Callable[..., object]) -> object:
    """Map every rule tag (``@ti4:2.4``) onto one registered mark, ``rule("ti4:2.4")``."""
    if RULE_TAG.match(tag):
        return pytest.mark.rule(tag)(function)
    return None


def pytest_bdd_step_error(request: pytest.FixtureRequest, feature: Any, scenario: Any,
                          step: Any, exception: Exception) -> None:
    """Remember which step failed, so the verdict can say so."""
    request.node.stash[failed_step_key] = f"line {step.line_number}: {step.keyword} {step.name}"


def _rules_of(item: pytest.Item) -> list[str]:
    return [str(m.args[0]) for m in item.iter_markers("rule") if m.args]


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                   items: list[pytest.Item]) -> None:
    run = config.stash.get(run_key, None)
    if run is None:
        return
    if config.getoption("oracle_explore"):
        for game in run.games.values():
            if game.explore:
                items.append(ExploreItem.from_parent(
                    session, name=f"explore[{game.id}]", game=game,
                    examples=config.getoption("oracle_explore_examples"),
                    out_dir=config.getoption("oracle_explore_out")))
    if run.selected is None:
        return
    keep, drop = [], []
    for item in items:
        chosen = isinstance(item, ExploreItem) or set(_rules_of(item)) & run.selected
        (keep if chosen else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture
def oracle_world(request: pytest.FixtureRequest) -> ScenarioWorld:
    """The scenario's world: its game, its engine, its seed."""
    run = request.config.stash[run_key]
    rules = _rules_of(request.node)
    game = run.games[rules[0].partition(":")[0]]
    client = run.client_for(game)
    return ScenarioWorld(game, client, run.scenario_seed(game.id, request.node.name))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[
        None, pytest.TestReport, pytest.TestReport]:
    report = yield
    run = item.config.stash.get(run_key, None)
    if run is None or not _rules_of(item):
        return report
    if call.when == "call" or (call.when == "setup" and not report.passed):
        verdict = _expected(run, report, _verdict(run, item, call))
        report.user_properties = [*report.user_properties,
                                  (USER_PROPERTY, json.dumps(verdict.to_json()))]
    return report


def _verdict(run: OracleRun, item: pytest.Item, call: pytest.CallInfo[None]) -> ScenarioVerdict:
    rules = _rules_of(item)
    template = scenario_wrapper_template_registry.get(getattr(item, "obj", None))
    name = template.name if template else item.name
    path = Path(template.feature.filename if template else str(item.path))
    location = f"{_short(path, run)}:{template.line_number if template else 0}"
    status = classify(call.excinfo)
    message = ""
    world = getattr(item, "funcargs", {}).get("oracle_world")
    if call.excinfo is not None:
        message = str(call.excinfo.value).removeprefix("unsupported: ")
        step = item.stash.get(failed_step_key, None)
        if step:
            message = f"{step}\n{message}"
        if status in ("fail", "error"):
            message += _reproduce(run, rules, item, world)
    engine: dict[str, Any] = {}
    if world is not None:
        info = world.client.info()
        engine = {"name": info.name, "version": info.version, "label": world.client.label}
    return ScenarioVerdict(
        name=name, game=rules[0].partition(":")[0], rules=tuple(rules), status=status,
        location=location, message=message, duration=call.duration,
        engine=tuple(sorted(engine.items())),
    )


def _expected(run: OracleRun, report: pytest.TestReport,
              verdict: ScenarioVerdict) -> ScenarioVerdict:
    """Apply the engine's known failures, the way pytest's xfail marks would."""
    known = run.expectations.match(verdict.rules, verdict.name) if run.expectations else None
    if known is None or verdict.status == "unsupported":
        return verdict
    if verdict.status == "pass" and known.scenario is None:
        return verdict  # a rule-level entry: xpass only if the whole rule passes (report.py)
    where = f"{run.expectations.path}:{known.line}" if run.expectations else ""
    why = f"known failure ({where}): {known.reason}" + (f" [{known.issue}]" if known.issue else "")
    if verdict.status in ("fail", "error"):
        report.outcome, report.wasxfail = "skipped", why  # type: ignore[attr-defined]
        return dataclasses.replace(verdict, status="xfail",
                                   message=f"{why}\n{verdict.message}")
    if run.strict_expectations:
        report.outcome = "failed"
        report.longrepr = (f"[XPASS(strict)] {why}: it passes now; remove the entry at "
                           f"{where}")
    else:
        report.wasxfail = why  # type: ignore[attr-defined]
    return dataclasses.replace(verdict, status="xpass",
                               message=f"{why}: it passes now; remove the entry at {where}")


def _short(path: Path, run: OracleRun) -> str:
    for game in run.games.values():
        if path.is_relative_to(game.folder.parent):
            return str(path.relative_to(game.folder.parent))
    return str(path)


def _reproduce(run: OracleRun, rules: list[str], item: pytest.Item,
               world: ScenarioWorld | None) -> str:
    lines = ["", f"engine {run.spec}, scenario seed {world.seed if world else '?'} "
             f"(run seed {run.seed})",
             f"reproduce: rules-oracle run --engine {shlex.quote(str(run.spec))} "
             f"--seed {run.seed} "
             + (f"--timeout {run.timeout:g} " if run.timeout != DEFAULT_TIMEOUT else "")
             + ("--strict-protocol " if run.strict else "")
             + f"--rule {rules[0]} -k {item.name!r}"]
    if world is not None and world.client.transcript:
        lines.append("last exchanges with the engine:")
        for request, reply in world.client.transcript[-4:]:
            lines.append(f"  > {json.dumps(request)[:300]}")
            lines.append(f"  < {json.dumps(reply)[:300]}")
    return "\n".join(lines)


def pytest_report_header(config: pytest.Config) -> str | None:
    run = config.stash.get(run_key, None)
    if run is None:
        return None
    return f"rules-oracle: engine {run.spec}, games {', '.join(run.games)}, seed {run.seed} " \
           f"({time.strftime('%Y-%m-%d')})"
