"""The pytest plugin: thin hooks that forward to the modules that do the work.

Registered through the ``pytest11`` entry point, so it is always loaded, and inert until an
engine is named (``--oracle-engine`` or the ``oracle_engine`` ini setting; ``rules-oracle
run`` names one). Then ``pytest_configure`` parses the options into the run's state
(``run.OracleRun``: ``settings.Settings``, nothing read from the file system yet) and
registers it; when the session starts that object finds the games and the engine, and it
checks the suite, selects scenarios, collects verdicts and writes the reports. The rest
forwards in a line or two:

- ``collect``: feature files become test modules, each with its game's steps;
- ``verdicts``: a finished scenario becomes a verdict riding on its report;
- the options come from one table (``oracle.options``) shared with the command line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from typing import Any

import pytest

from oracle import options
from oracle.plugin import bdd, collect, rerun, verdicts
from oracle.plugin.run import OracleRun, run_key
from oracle.plugin.sink import ORDER_PROPERTY, order_key
from oracle.report.model import USER_PROPERTY
from oracle.scenario.world import ScenarioWorld
from oracle.suite.lint import RULE_TAG

__all__ = ["oracle_world"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rules-oracle", "rules-oracle conformance testing")
    for option in options.run_options():
        option.add_to_pytest(group, parser)
    group.addoption(options.FROM_CLI, action="store_true", dest="oracle_from_cli",
                    help=argparse.SUPPRESS)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(id): the rule id (game:id) a scenario checks")
    run = OracleRun.from_config(config)
    if run is None:
        return
    config.stash[run_key] = run
    config.pluginmanager.register(run, "rules-oracle-run")
    if not run.settings.bdd_public:  # pytest-bdd checked, each scenario run by oracle.plugin.bdd
        bdd.install(config)
        run.scenario_test = bdd.scenario_test
    run.gc.pause()  # until the tests start: checking and collecting make no garbage
    roots = [str(r) for r in run.settings.roots]
    source = config.args_source
    if source == pytest.Config.ArgsSource.INVOCATION_DIR or not config.args:
        config.args = roots
    elif source == pytest.Config.ArgsSource.TESTPATHS:
        # An engine's repository whose ini sets testpaths: its tests, and the scenarios.
        config.args = [*config.args, *roots]
    else:  # paths given: if none holds scenarios and the engine is only the ini's, stand by
        run.asked = bool(config.getoption(options.ENGINE.dest)) or any(
            _reaches(arg, run.settings.roots) for arg in config.args)


def _reaches(arg: str, roots: Sequence[Path]) -> bool:
    """Whether a pytest argument (a path, maybe with ``::``) is or holds a features folder."""
    path = Path(arg.split("::")[0]).resolve()
    return any(path.is_relative_to(r) or r.is_relative_to(path) for r in roots)


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(run_key, None)
    if run is not None:
        run.gc.thaw()  # also a run that never reached its tests (a usage error, --collect-only)
        config.pluginmanager.unregister(run)
        del config.stash[run_key]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    run = parent.config.stash.get(run_key, None)
    return collect.collect_file(run, file_path, parent) if run is not None else None


@pytest.hookimpl(tryfirst=True)
def pytest_bdd_apply_tag(tag: str, function: Callable[..., object]) -> object:
    """Map every rule tag (``@ti4:2.4``) onto one registered mark, ``rule("ti4:2.4")``."""
    return pytest.mark.rule(tag)(function) if RULE_TAG.match(tag) else None


def pytest_bdd_before_scenario(request: pytest.FixtureRequest, feature: Any,
                               scenario: Any) -> None:
    """Before the first step: the steps are noted (for step-level reports), and the
    scenario is unsupported unless the engine has all it needs."""
    verdicts.remember_steps(request, scenario)
    if run_key in request.config.stash:
        world = request.getfixturevalue("oracle_world")
        world.prepare([(step.type, step.name) for step in scenario.steps])


def pytest_bdd_before_step(request: pytest.FixtureRequest, feature: Any, scenario: Any,
                           step: Any, step_func: Any) -> None:
    """The world is told which step runs, so that an action remembers the step that sent
    it (a rejection found later is reported there)."""
    if run_key in request.config.stash:
        world = request.getfixturevalue("oracle_world")
        world.step = (step.line_number, step.keyword, step.name)


def pytest_bdd_after_step(request: pytest.FixtureRequest, feature: Any, scenario: Any,
                          step: Any, step_func: Any, step_func_args: Any) -> None:
    verdicts.step_ended(request, step, "passed")


def pytest_bdd_step_error(request: pytest.FixtureRequest, feature: Any, scenario: Any,
                          step: Any, exception: Exception) -> None:
    verdicts.remember_failed_step(request, step)
    verdicts.step_ended(request, step, "failed")


@pytest.hookimpl(trylast=True)  # after pytest's own (an Outline's rows): each row's runs together
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``--repeat N``: each scenario's test runs N times, as N tests (``verdicts.REPEAT_ARG``)."""
    run = metafunc.config.stash.get(run_key, None)
    repeat = run.settings.repeat if run is not None else 1
    if repeat > 1 and verdicts.REPEAT_ARG in metafunc.fixturenames:
        metafunc.parametrize(verdicts.REPEAT_ARG, range(1, repeat + 1),
                             ids=[verdicts.repeat_id(n, repeat) for n in range(1, repeat + 1)])


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                   items: list[pytest.Item]) -> None:
    run = config.stash.get(run_key, None)
    if run is None:
        return
    if run.settings.explore:
        items += collect.explore_items(run, session)
    selection = run.selection
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []  # the engine repo's own tests are not ours to select
    for item in items:
        if not (isinstance(item, collect.ExploreItem) or verdicts.rules_of(item)):
            continue
        chosen = selection.selected is None or isinstance(item, collect.ExploreItem) or (
            set(verdicts.rules_of(item)) & selection.selected)
        if selection.rerun is not None:  # --rerun-failed: what did not pass there, not explorations
            chosen = chosen and not isinstance(item, collect.ExploreItem) and rerun.wanted(
                selection, item)
        (keep if chosen else drop).append(item)
    if selection.shard:  # a scenario of another shard was never built; an exploration is split so
        ours: list[pytest.Item] = []
        for item in keep:
            other = isinstance(item, collect.ExploreItem) and not selection.in_shard(
                f"explore:{item.game.id}")
            (drop if other else ours).append(item)
        keep = ours
    if drop:
        config.hook.pytest_deselected(items=drop)
        dropped = {id(item) for item in drop}
        items[:] = [item for item in items if id(item) not in dropped]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Number the tests in collection order: the same on every xdist worker and serially."""
    if session.config.stash.get(run_key, None) is not None:
        for index, item in enumerate(session.items):
            item.stash[order_key] = index


@pytest.fixture
def oracle_world(request: pytest.FixtureRequest) -> ScenarioWorld:
    """The scenario's world: its game, its engine, its seed, the rules it is written for.

    The engine's transcript is cleared first, so that a failure shows this scenario's
    exchanges only, even when it fails before reaching the engine."""
    run = request.config.stash[run_key]
    rules = tuple(verdicts.rules_of(request.node))
    game = run.selection.games[rules[0].partition(":")[0]]
    client = run.pool.engine_for(game)
    client.transcript.clear()
    seed = run.scenario_seed(game.id, verdicts.unrepeated(request.node.name))
    return ScenarioWorld(game, client, seed, rules)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[
        None, pytest.TestReport, pytest.TestReport]:
    report = yield
    run = item.config.stash.get(run_key, None)
    if run is not None and verdicts.rules_of(item):
        verdicts.attach(run, item, call, report)
    if run is not None and order_key in item.stash and any(
            k == USER_PROPERTY for k, _ in report.user_properties):
        report.user_properties = [*report.user_properties,
                                  (ORDER_PROPERTY, item.stash[order_key])]
    return report


def pytest_report_header(config: pytest.Config) -> str | None:
    run = config.stash.get(run_key, None)
    return run.header() if run is not None else None
