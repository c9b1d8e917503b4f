"""Collecting ``.feature`` files as pytest tests, with no Python test module to write.

pytest-bdd binds scenarios to test functions in a Python module. The oracle must run
features from any folder (the bundled ones, a committee's own) with no module beside them,
so each feature file becomes a ``pytest.Module`` whose module object is built in memory
(and handed to pytest through the node's public ``obj``): one test function per scenario,
made by pytest-bdd's own ``scenario`` (or by ``oracle.plugin.bdd``, which runs it faster).

The module also holds the step definitions pytest-bdd looks for, as fixtures visible to its
tests only: one per kind (``oracle.plugin.dispatch``), which runs each step through the
vocabulary of the file's game (the shared steps and the game's own module), so each game's
phrases are scoped to its own features and two games may use the same phrase. Each test
carries the scenario it runs, and an outline's test its example row, for its verdict
(``oracle.plugin.verdicts.scenario_key``).
"""

from __future__ import annotations

import json
import re
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import pytest_bdd

from oracle.plugin import dispatch
from oracle.plugin.verdicts import ScenarioRef, scenario_key
from oracle.suite.features import read_feature
from oracle.suite.runnable import test_names
from oracle.suite.vocabulary import vocabulary_for

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from oracle.plugin.run import OracleRun


def _finish(oracle_world: Any) -> None:
    """Runs after the last step passed: a rejection no step expected fails the scenario."""
    oracle_world.finish()


def _finish_repeated(oracle_world: Any, oracle_repeat: int) -> None:
    """``_finish``, for a test run ``--repeat N`` times (``verdicts.REPEAT_ARG``)."""
    oracle_world.finish()




def public_scenario_test(path: Path, name: str, body: Callable[..., Any]
                         ) -> Callable[..., Any]:
    """pytest-bdd's test for one scenario of a feature file, ending with ``body``: its public
    ``scenario`` (``--bdd-public``; else ``oracle.plugin.bdd.scenario_test``)."""
    return pytest_bdd.scenario(str(path), name, features_base_dir=str(path.parent))(body)


def collect_file(run: OracleRun, file_path: Path, parent: pytest.Collector
                 ) -> pytest.Collector | None:
    if file_path.suffix == ".feature":
        game = run.selection.game_of(file_path)
        if game is not None and game not in run.selection.selected_games():
            return None  # no rule of its game is selected: not even collected
        return FeatureFile.from_parent(parent, path=file_path)
    return None


class FeatureFile(pytest.Module):
    """A feature file, collected like a test module of its scenarios and its game's steps."""

    def collect(self) -> Iterable[pytest.Item | pytest.Collector]:
        from oracle.plugin.run import run_key

        run = self.config.stash[run_key]
        self.obj, scenarios = self._module(run)
        items = list(super().collect())
        seen: dict[str, int] = {}
        for item in items:
            ref = scenarios.get(getattr(item, "originalname", ""))
            if ref is not None and isinstance(item, pytest.Item):
                # An outline's tests come in the order of its rows (pytest-bdd parametrises
                # its test with them, in order), each row's runs together (--repeat N):
                # the n-th is the (n // N)-th row.
                n = seen[ref.test] = seen.get(ref.test, -1) + 1
                item.stash[scenario_key] = (ref, n // run.settings.repeat)
        return items

    def _module(self, run: OracleRun) -> tuple[types.ModuleType, dict[str, ScenarioRef]]:
        """The test module of the file's selected scenarios, and the scenario behind each
        test function (by its name)."""
        path = self.path
        module = types.ModuleType(f"oracle_features.{path.parent.name}.{path.stem}")
        module.__file__ = str(path)
        chosen = run.selection
        game = chosen.game_of(path)
        if game is not None:
            vocabulary_for(game)  # the game's step modules, imported now: errors show here
            dispatch.define_in(module)
        scenarios: dict[str, ScenarioRef] = {}
        make = run.scenario_test or public_scenario_test
        body = _finish if run.settings.repeat == 1 else _finish_repeated
        names = test_names(path)  # over every scenario: a test's name (and seed) is the same
        for scenario in read_feature(path).scenarios:  # whatever the selection
            if chosen.retired(scenario):
                continue  # an official ruling retired it: shown in reports, never run
            # Not selected: no test to build (only to deselect); another shard's: none at all.
            if chosen.wants(scenario) and chosen.in_shard(chosen.shard_key(scenario)):
                test = names[scenario.name]
                setattr(module, test, make(path, scenario.name, body))
                scenarios[test] = ScenarioRef(scenario.name, path, scenario.line, test,
                                              scenario.examples)
        return module, scenarios


def explore_items(run: OracleRun, session: pytest.Session) -> list[pytest.Item]:
    """One exploration item per game that has an exploration model."""
    return [ExploreItem.from_parent(session, name=f"explore[{game.id}]", game=game,
                                    examples=run.settings.explore_examples,
                                    out_dir=run.settings.explore_out)
            for game in run.selection.selected_games() if game.explore]


class ExploreItem(pytest.Item):
    """Exploration of one game on the engine, reported per invariant under its rule ids."""

    def __init__(self, *, game: Any, examples: int, out_dir: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.examples, self.out_dir = game, examples, out_dir

    def runtest(self) -> None:
        from oracle.explore import default_budget, explore
        from oracle.plugin.run import run_key
        from oracle.report.model import USER_PROPERTY
        from oracle.scenario.outcomes import EngineLacks, RuleViolation

        run = self.config.stash[run_key]
        client = run.pool.engine_for(self.game)
        info = client.info()
        if self.game.id not in info.games:
            raise EngineLacks(f"engine {info.name!r} does not play {self.game.id!r}")
        result = explore(self.game, client, run.settings.seed, default_budget(self.examples),
                         progress=None if run.settings.is_worker else self._progress)
        engine = tuple(sorted({"name": info.name, "version": info.version,
                               "label": client.label}.items()))
        for verdict in explore_verdicts(self.game.id, result, engine):
            self.user_properties.append((USER_PROPERTY, json.dumps(verdict.to_json())))
        rate = result.moves / result.seconds if result.seconds else 0.0
        self.user_properties.append(("rules_oracle.explore_rate", f"{rate:.0f}"))
        found = [f for f in result.findings.values() if f is not None]
        if self.out_dir and found:
            folder = Path(self.out_dir) / self.game.id
            folder.mkdir(parents=True, exist_ok=True)
            for finding in found:
                slug = re.sub(r"\W+", "-", finding.name.removeprefix("explore: ")).strip("-")
                (folder / f"explored-{slug}.feature").write_text(
                    finding.feature(self.game), encoding="utf-8")
        if found or result.errors:
            raise RuleViolation("\n\n".join(f"{f.name}: {f.message}\n{f.scenario}"
                                            for f in [*found, *result.errors]))

    def _progress(self, done: int, total: int, what: str) -> None:
        """A line every tenth of the games, so a long exploration is not a silent one."""
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None and self.config.get_verbosity() > -2:
            reporter.write_line(f"explore {self.game.id}: [{done + 1}/{total}] {what}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str | Any:
        """The counterexamples as scenarios, not a traceback through Hypothesis and pluggy."""
        from oracle.scenario.outcomes import RuleViolation

        if isinstance(excinfo.value, RuleViolation):
            return f"exploration of {self.game.id} found rule violations:\n\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.game.folder, 0, f"explore {self.game.id}"


def explore_verdicts(game: str, result: Any, engine: tuple[tuple[str, Any], ...]) -> list[Any]:
    """One verdict per invariant, under its rule ids: ``fail`` with the shrunk scenario,
    ``pass`` only when some explored state exercised it (the count says how many), else
    ``uncovered``; and one ``error`` per engine fault, with the scenario that reproduces it.
    """
    from oracle.explore import ExploreResult
    from oracle.report.model import ScenarioVerdict, Status

    assert isinstance(result, ExploreResult)
    skipped = result.skipped()
    tail = f"; skipped, as the engine lacks them: {skipped}" if skipped else ""
    if result.games_cut:
        tail += f"; {result.games_cut} game(s) ended early by a slip reported below"
    share = result.seconds / max(len(result.findings), 1)
    verdicts = []
    for inv in result.invariants:
        finding, n = result.findings.get(inv.name), result.exercised.get(inv.name, 0)
        status = Status(result.status(inv.name))
        if finding is not None:
            message = f"{finding.message}\n\n{finding.scenario}"
            if not finding.confirmed:
                message += "\n(the Then lines could not be confirmed on the reference engine)"
        elif n:
            message = (f"held over {n} explored state(s) that exercised it, of "
                       f"{result.moves} moves in {result.games} game(s){tail}")
        else:
            message = (f"not exercised: none of {result.moves} explored moves in "
                       f"{result.games} game(s) reached a state it speaks about{tail}")
        verdicts.append(ScenarioVerdict(
            name=f"explore: {inv.name}", game=game,
            rules=finding.rules if finding else inv.rules, status=status,
            location=f"explore:{game}", message=message, duration=share, engine=engine,
            exercised=n))
    for error in result.errors:
        verdicts.append(ScenarioVerdict(
            name=error.name, game=game, rules=error.rules, status=Status.ERROR,
            location=f"explore:{game}", message=f"{error.message}\n\n{error.scenario}",
            engine=engine))
    return verdicts
