"""The state of one oracle run, kept in ``config.stash`` (like pytest's junitxml ``LogXML``).

``OracleRun`` is built from the options alone (``OracleRun.from_config``: ``Settings``, in
``pytest_configure``); when the session starts it finds what they name (``start``) and then
holds four parts, each a module of its own with one job: the selection
(``oracle.plugin.selection``: the games and what of them runs), the engine pool
(``oracle.plugin.pool``), the verdict sink (``oracle.plugin.sink``) and the garbage
collector policy (``oracle.plugin.gcpolicy``). Its hook methods say when each acts; what is
left here is the run's own: checking the suite, judging the exit status, the terminal
summary and writing the reports. Only the controller (never an xdist worker) checks the
suite and writes reports.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from oracle.engines import EngineSpecError
from oracle.plugin.breaker import NOT_RUN_PROPERTY, report_not_run
from oracle.plugin.gcpolicy import GcPolicy
from oracle.plugin.pool import EnginePool
from oracle.plugin.selection import Selection
from oracle.plugin.settings import Settings
from oracle.plugin.sink import ORDER_PROPERTY, VerdictSink, order_key
from oracle.plugin.verdicts import rules_of, untraced_report
from oracle.report import Report, ReportFileError, Status, build_report
from oracle.report.expectations import Expectations, ExpectationsError, load_expectations
from oracle.report.formats import formats
from oracle.report.formats.table import counts, engine_line, render_table, unsupported_summary
from oracle.report.judge import (
    Exit,
    coverage_shortfall,
    nothing_tested,
    stale_expectations,
)
from oracle.report.model import ScenarioResult, started_text, unique_scenarios
from oracle.report.write import OutputError, check_outputs, interrupted_path, write_atomic
from oracle.scenario.outcomes import NotInEdition
from oracle.scenario.seeds import scenario_seed
from oracle.suite import checked as suite_checked
from oracle.suite import editions as run_editions
from oracle.suite.catalog import CatalogFileError
from oracle.suite.lint import check_suite

__all__ = ["ORDER_PROPERTY", "OracleRun", "order_key", "run_key"]

run_key = pytest.StashKey["OracleRun"]()


@dataclass(eq=False)  # a plugin object: hashed by identity
class OracleRun:
    """One run: its options (``settings``), the selection (``selection``), the engines
    (``pool``), the verdicts received (``sink``), the garbage collector policy (``gc``), and
    what happened; its hook methods say when each part acts."""

    settings: Settings
    #: The games and what of them runs: discovered when the session starts (``start``).
    selection: Selection = field(init=False)
    #: The engines: opened when the session starts, after the selection (``start``).
    pool: EnginePool = field(init=False)
    expectations: Expectations | None = None
    #: How a scenario's test is made: (path, scenario name, body) -> test function; None is
    #: pytest-bdd's own ``scenario`` (``oracle.plugin.collect.public_scenario_test``). The
    #: plugin sets ``oracle.plugin.bdd``'s once pytest-bdd is checked (not ``--bdd-public``).
    scenario_test: Callable[..., Any] | None = None
    #: False when plain pytest was pointed at other tests with the engine named only in the
    #: ini file: then the oracle stays out of the way (no table, no exit status of its own).
    asked: bool = True
    #: When the run started (ISO 8601, UTC), for the report (a trend orders runs by it).
    started: str | None = None
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)  # said in the terminal summary
    written: list[Path] = field(default_factory=list)
    sink: VerdictSink = field(default_factory=VerdictSink)
    #: Python's cyclic garbage collector during the run (``oracle.plugin.gcpolicy``).
    gc: GcPolicy = field(default_factory=GcPolicy)
    report: Report | None = None

    @classmethod
    def from_config(cls, config: pytest.Config) -> OracleRun | None:
        """The run the options ask for, or None when no engine is named (the plugin is
        inert): the options parsed (``Settings``), nothing read from the file system yet."""
        settings = Settings.from_config(config)
        return cls(settings) if settings is not None else None

    def start(self, config: pytest.Config) -> None:
        """What the options name, found and checked when the session starts (on every
        process: an xdist worker needs the games and the engine too): the games and the
        selection, the engine (an in-process one made now, once: the one the run uses), the
        report paths, the expectations.

        Bad input (an unknown game or rule, a broken manifest or expectations file, an
        engine that cannot be made, a report path that cannot be written) is a
        ``pytest.UsageError`` that says what to write instead.
        """
        settings = self.settings
        try:
            self.selection = Selection.discover(
                list(settings.roots), rules=list(settings.rules), shard=settings.shard,
                all_games=settings.all_games, editions=settings.editions,
                lang=settings.lang, rerun_failed=settings.rerun_failed,
                rule_flag=settings.rule_flag, lang_flag=settings.lang_flag)
            games = self.selection.games
            self.pool = EnginePool.open(settings.spec, games, settings.connect,
                                        settings.max_timeouts)
            if not settings.is_worker:
                _check_output_paths(config, settings.outputs)
            if settings.expectations:
                self.expectations = load_expectations(
                    settings.expectations,
                    [i for g in games.values() for i in g.catalog.ids()]
                    + sorted(self.selection.rulings.added_ids()))
        except (EngineSpecError, CatalogFileError, ExpectationsError, OutputError,
                ReportFileError) as exc:
            raise pytest.UsageError(str(exc)) from exc

    # -- the scenarios and their engines ---------------------------------------------------------

    def start_engines(self, session: pytest.Session) -> None:
        """Start the engines of the collected scenarios before the first one runs
        (``EnginePool.start``): an engine that fails here is diagnosed once, and its
        scenarios are not run (``not_run``)."""
        games = (self.selection.game_of_item(item) for item in session.items)
        writer = None if self.settings.is_worker else session.config.get_terminal_writer()
        self.pool.start((g for g in games if g is not None), writer)

    def not_run(self, item: pytest.Item) -> bool:
        """End a scenario whose engine is given up at once: its ``error`` verdict (with the
        diagnosis) is reported without running it, and shown in no line of its own
        (``pytest_report_teststatus``). False for a scenario that should run."""
        game = self.selection.game_of_item(item)
        if game is None:
            return False
        key, trip = self.pool.tripped(game)
        if trip is None:
            return False
        report_not_run(self, item, key, trip, [(ORDER_PROPERTY, item.stash.get(order_key, -1))])
        return True

    def scenario_seed(self, game: str, name: str) -> int:
        return scenario_seed(self.settings.seed, game, name)

    def header(self) -> str:
        chosen, settings = self.selection, self.settings
        shard = f", shard {chosen.shard[0]}/{chosen.shard[1]}" if chosen.shard else ""
        note = f"\nrules-oracle: {chosen.features_note}" if chosen.features_note else ""
        editions = "".join(f", {g} as of edition {e.name}" for g, e in chosen.editions.items())
        note += f"\nrules-oracle: {chosen.rerun_note}" if chosen.rerun_note else ""
        repeat = f", each scenario {settings.repeat} times" if settings.repeat > 1 else ""
        return (f"rules-oracle: engine {settings.spec}, games {', '.join(chosen.games)}, seed "
                f"{settings.seed}{shard}{editions}{repeat} ({time.strftime('%Y-%m-%d')}){note}")

    # -- hooks (registered as a plugin) -------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """The games, the selection and the engine, found when the session starts
        (``start``; before xdist starts its workers, which do the same); then, on the
        controller, refuse before anything runs a suite that would lose a rule silently."""
        self.start(session.config)
        if self.settings.is_worker:
            return
        self.started = started_text()
        chosen = self.selection
        key = suite_checked.fingerprint(chosen.selected_games(), chosen.games, chosen.selected)
        if suite_checked.passed_before(key):
            return  # unchanged since it passed; the rulings are read (find_rulings) already
        checked = check_suite(chosen.selected_games(), chosen.games, chosen.wants)
        chosen.rulings = checked.rulings
        problems = checked.problems
        if problems:
            listing = "\n".join(str(p) for p in problems)
            raise pytest.UsageError(
                f"rules-oracle refuses to run: {len(problems)} problem(s) in the suite\n{listing}"
            )
        suite_checked.remember_passed(key)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> None:
        """The tests start (serially or, on xdist's controller, their distribution): the
        garbage collector is back on, and what was built before it is frozen; the engines
        are started (where scenarios run: not on xdist's controller)."""
        self.gc.resume(freeze=True)
        if not session.config.option.collectonly and not _distributes(session.config):
            self.start_engines(session)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None
                                ) -> bool | None:
        """A scenario on an engine the breaker gave up is not run (``not_run``)."""
        return True if self.not_run(item) else None

    def pytest_report_teststatus(self, report: pytest.TestReport, config: pytest.Config
                                 ) -> tuple[str, str, Any] | None:
        """A scenario not run on a given-up engine: counted as "not run", with no letter in
        the progress line (the terminal summary lists them in one line)."""
        if any(k == NOT_RUN_PROPERTY for k, _ in getattr(report, "user_properties", ())):
            return "not run", "", ("NOT RUN", {"yellow": True})
        return None

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        """A scenario citing a sentence the run's edition lacks is not run (not even its
        engine is asked): its verdict is ``untestable``, saying which sentences."""
        if self.selection.editions and (why := self.selection.not_in_edition(item)):
            raise NotInEdition(why)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]
                                  ) -> pytest.TestReport | None:
        """A failing scenario's report without pytest's traceback (``untraced_report``)."""
        return untraced_report(item, call) if rules_of(item) else None

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        self.interrupted = True

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """A test's verdict arrives (``VerdictSink.receive``); one not run tells the breaker
        why (on xdist's controller, the first it hears of a worker's trip)."""
        for trip, location in self.sink.receive(report):
            self.pool.breaker.heard(trip, location)

    @pytest.hookimpl(trylast=True, specname="pytest_runtest_logreport")
    def pytest_runtest_logreport_last(self, report: pytest.TestReport) -> None:
        """Once every plugin has read a report (this hook runs last), its verdict's JSON is
        dropped from it (``VerdictSink.release``)."""
        self.sink.release(report)

    def build(self) -> Report:
        chosen = self.selection
        catalogs = [run_editions.edition_catalog(g.catalog, chosen.editions[g.id])
                    if g.id in chosen.editions else g.catalog for g in chosen.report_games()]
        engine = {"spec": str(self.settings.spec), "seed": self.settings.seed,
                  "games": dict(sorted(self.sink.engines.items())),
                  **({"editions": {g: e.name for g, e in sorted(chosen.editions.items())}}
                     if chosen.editions else {})}
        known = self.expectations.whole_rules() if self.expectations else set()
        report = build_report(catalogs,
                              self.sink.in_order(self.settings.repeat, self.expectations),
                              engine, chosen.selected, known, chosen.rulings,
                              chosen.short_path, self.settings.lang)
        self.report = dataclasses.replace(report, interrupted=self.interrupted,
                                          shard=chosen.shard,  # type: ignore[arg-type]
                                          started=self.started, repeat=self.settings.repeat)
        return self.report

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.settings.is_worker or (not self.asked and not self.sink.verdicts):
            return
        report = self.report or self.build()
        terminalreporter.section("rules-oracle conformance")
        compact = terminalreporter.config.get_verbosity() <= -2
        width = terminalreporter.config.get_terminal_writer().fullwidth
        if self.pool.breaker.at_startup():  # every rule errs alike: the diagnosis says it once
            terminalreporter.line(engine_line(report.engine))
            terminalreporter.line(counts(report))
        else:
            terminalreporter.line(render_table(report, width, compact))
        for line in self.pool.breaker.summary(width):
            terminalreporter.line(line, red=line.startswith("rules-oracle:"))
        for line in unsupported_summary(report, width):
            terminalreporter.line(line)
        if self.selection.features_note:
            terminalreporter.line(self.selection.features_note)
        stale = stale_expectations(report)
        if stale:
            where = self.expectations.path if self.expectations else "the expectations file"
            strict = " (--strict-expectations: this fails the run)" \
                if self.settings.strict_expectations else ""
            terminalreporter.line(f"known failures that pass now, remove them from {where}"
                                  f"{strict}: {', '.join(stale)}")
        stale = [s for s in unique_scenarios(report.rules) if s.stale]
        if stale:
            terminalreporter.line(stale_note(stale), yellow=True)
        for note in self.notes:
            terminalreporter.line(f"rules-oracle: {note}", red=True, bold=True)
        for path in self.written:
            terminalreporter.line(f"report written to {path}")

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.pool.close()
        if self.settings.is_worker:
            return
        report = self.report or self.build()
        if not self.asked and not self.sink.verdicts:
            self._write(report)
            return
        if self.interrupted:
            session.exitstatus = Exit.INTERRUPTED
            self.notes.append("interrupted: the reports hold only the scenarios that ran, "
                              "written beside the requested paths (NAME.interrupted.EXT)")
        else:
            session.exitstatus = self._judge(report, session.exitstatus)
        if not self._write(report) and not self.interrupted:
            session.exitstatus = pytest.ExitCode.USAGE_ERROR

    def _judge(self, report: Report, status: int) -> int:
        """The run's exit status: pytest's, unless nothing was tested or a requirement
        (--strict-expectations, --require-coverage) is not met."""
        if self.pool.breaker.at_startup():
            self.notes.append("exit status 2: the engine did not start (its diagnosis is "
                              "above), so no scenario ran on it")
            return Exit.USAGE
        if status in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            empty = nothing_tested(report)
            if empty:
                self.notes.append(empty)
                return Exit.NOTHING_TESTED
        if status != pytest.ExitCode.OK:
            return status
        if stale_expectations(report) and self.settings.strict_expectations:
            return pytest.ExitCode.TESTS_FAILED  # stale known failures
        if any(r.status == Status.FLAKY for r in report.rules):
            return pytest.ExitCode.TESTS_FAILED  # some runs passed, pytest saw no failure
        if self.selection.shard and self.settings.require_coverage is not None:
            self.notes.append("--require-coverage is judged on the whole run: pass it to "
                              "'rules-oracle combine' with the shards' reports")
            return status
        short = coverage_shortfall(report, self.settings.require_coverage)
        if short:
            self.notes.append(short)
            return pytest.ExitCode.TESTS_FAILED
        return status

    def _write(self, report: Report) -> bool:
        """Write every requested format (an interrupted run's beside the requested path);
        True when all were written. A failure is said, and the other formats still go out."""
        ok = True
        for name, path in self.settings.outputs.items():
            target = interrupted_path(path) if report.interrupted else path
            try:
                chosen = formats()[name]
                write_atomic(target, chosen.chunks(report) if chosen.chunks
                             else chosen.render(report))
                self.written.append(target)
            except OSError as exc:
                ok = False
                self.notes.append(f"cannot write the {name} report to {target} ({exc}); "
                                  "the other reports were written")
        return ok


def stale_note(stale: list[ScenarioResult]) -> str:
    """One paragraph naming the stale scenarios (an outline once, not per row) and what to
    do about them."""
    once = list({s.location: s for s in stale}.values())
    names = "; ".join(f"{s.name.partition(' [')[0]} ({s.location}: {', '.join(s.stale)})"
                      for s in once[:5])
    more = f"; and {len(once) - 5} more" if len(once) > 5 else ""
    return (f"rules-oracle: {len(once)} scenario(s) stale: the text they cite changed since "
            f"they were reviewed, so their verdicts say nothing of the new words: {names}{more}"
            ". Re-read each against the new text ('rules-oracle errata' shows what changed), "
            "update its Cites: lines, then 'rules-oracle review'.")




def _distributes(config: pytest.Config) -> bool:
    """Whether this process is pytest-xdist's controller (its workers run the scenarios)."""
    return config.pluginmanager.has_plugin("dsession")




def _check_output_paths(config: pytest.Config, outputs: Mapping[str, Path]) -> None:
    """Every report path (ours and pytest's own --junitxml) writable, none shared."""
    named = {f"--{name.replace('_', '-')}": path for name, path in outputs.items()}
    xmlpath = getattr(config.option, "xmlpath", None)
    if xmlpath:
        named["pytest's --junitxml"] = Path(xmlpath)
    check_outputs(named)
