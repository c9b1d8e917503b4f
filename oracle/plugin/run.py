"""The state of one oracle run, kept in ``config.stash`` (like pytest's junitxml ``LogXML``).

``OracleRun`` is built from the options (``OracleRun.from_config``), holds the games, the
engine connections and the verdicts the controller receives, and its hook methods check the
suite, select scenarios, record verdicts and write the reports. Only the controller (never
an xdist worker) checks the suite and writes reports.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import difflib
import functools
import json
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from oracle import options as run_options
from oracle.engines import ConnectOptions, EngineClient, EngineSpec, EngineSpecError, connect
from oracle.engines.spec import DEFAULT_TIMEOUT
from oracle.plugin.breaker import NOT_RUN_PROPERTY, Breaker, report_not_run, waiting
from oracle.plugin.gcpolicy import GcPolicy
from oracle.plugin.rerun import failed_in
from oracle.plugin.verdicts import rules_of, scenario_key, untraced_report
from oracle.report import Report, ReportFileError, ScenarioVerdict, Status, build_report
from oracle.report.expectations import Expectations, ExpectationsError, load_expectations
from oracle.report.formats import file_formats, formats
from oracle.report.formats.table import counts, engine_line, render_table, unsupported_summary
from oracle.report.judge import (
    Exit,
    coverage_shortfall,
    nothing_tested,
    stale_expectations,
)
from oracle.report.model import USER_PROPERTY, ScenarioResult, unique_scenarios
from oracle.report.repeats import merge_repeats
from oracle.report.write import OutputError, check_outputs, interrupted_path, write_atomic
from oracle.scenario.outcomes import EngineFault, NotInEdition
from oracle.scenario.seeds import scenario_seed
from oracle.suite import checked as suite_checked
from oracle.suite import editions as run_editions
from oracle.suite import reviews as run_reviews
from oracle.suite.catalog import CatalogFileError, Edition
from oracle.suite.features import FeatureSyntaxError, ScenarioDoc, read_feature
from oracle.suite.games import Game, discover_games, feature_roots, features_note, languages
from oracle.suite.lint import check_suite, find_rulings, rule_tags
from oracle.suite.rulings import Ruling, Rulings

run_key = pytest.StashKey["OracleRun"]()
order_key = pytest.StashKey[int]()

ORDER_PROPERTY = "rules_oracle.order"
"""The user property holding a test's place in the collection (see ``verdict_order``)."""



@dataclass(eq=False)  # a plugin object: hashed by identity
class OracleRun:
    """One run: which engine, which games, which rules, and what happened."""

    spec: EngineSpec
    games: dict[str, Game]
    roots: list[Path]
    seed: int = 0
    selected: set[str] | None = None
    outputs: dict[str, Path] = field(default_factory=dict)  # format name -> path
    is_worker: bool = False
    timeout: float = DEFAULT_TIMEOUT  # per request (--oracle-timeout)
    startup_timeout: float | None = None  # a process's start and handshake
    strict: bool = False  # validate every live message against the schemas
    expectations: Expectations | None = None
    strict_expectations: bool = False
    explore: bool = False
    explore_examples: int = 60
    explore_out: str | None = None
    require_coverage: float | None = None
    shard: tuple[int, int] | None = None
    all_games: bool = False
    #: Show rule texts in this language where catalogs have it (``--lang ru``).
    lang: str | None = None
    #: The edition each game runs as of (``--edition``); a game not named, its canonical.
    editions: dict[str, Edition] = field(default_factory=dict)
    #: Run scenarios through pytest-bdd's public API only (``--bdd-public``); else the
    #: plugin sets ``scenario_test`` to ``oracle.plugin.bdd``'s once pytest-bdd is checked.
    bdd_public: bool = False
    #: How a scenario's test is made: (path, scenario name, body) -> test function; None is
    #: pytest-bdd's own ``scenario`` (``oracle.plugin.collect.public_scenario_test``).
    scenario_test: Callable[..., Any] | None = None
    #: Every option's value by name, for the reproduce command of a failure.
    values: dict[str, Any] = field(default_factory=dict)
    #: False when plain pytest was pointed at other tests with the engine named only in the
    #: ini file: then the oracle stays out of the way (no table, no exit status of its own).
    asked: bool = True
    verdicts: list[ScenarioVerdict] = field(default_factory=list)
    #: Each verdict's test's place in the collection, so that a report lists scenarios in
    #: one order however xdist's workers interleave them.
    verdict_order: list[int] = field(default_factory=list)
    engines: dict[str, dict[str, Any]] = field(default_factory=dict)
    _clients: dict[str, EngineClient] = field(default_factory=dict)
    #: ``--rerun-failed``: the (location, name) of the scenarios to run again (None: all).
    rerun: frozenset[tuple[str, str]] | None = None
    rerun_note: str = ""
    #: How many times each scenario runs (``--repeat N``): its verdicts are made one, and
    #: ``flaky`` where they differ (``oracle.report.repeats``).
    repeat: int = 1
    #: When the run started (ISO 8601, UTC), for the report (a trend orders runs by it).
    started: str | None = None
    #: Engines given up (failed at start-up, or too many timeouts in a row), and why.
    breaker: Breaker = field(default_factory=lambda: Breaker(EngineSpec("reference")))
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)  # said in the terminal summary
    written: list[Path] = field(default_factory=list)
    _short_paths: dict[Path, str] = field(default_factory=dict)
    #: The values the verdicts share (``ScenarioVerdict.from_json``): each step text,
    #: status, rule tuple... kept once, however many verdicts repeat it.
    _shared: dict[Any, Any] = field(default_factory=dict)
    _games_of: dict[Path, Game | None] = field(default_factory=dict)
    #: Each folder's review stamps, read once per process (``stale_of``).
    _reviews: dict[Path, run_reviews.Reviews] = field(default_factory=dict)
    #: Python's cyclic garbage collector during the run (``oracle.plugin.gcpolicy``).
    gc: GcPolicy = field(default_factory=GcPolicy)
    report: Report | None = None
    #: Where the bundled features come from, when that is worth saying (a checkout's, and
    #: the installed copy differs): shown in the header and the summary.
    features_note: str = ""
    #: The committee's rulings among the run's scenarios (read on every process: a worker
    #: needs them to tell a probe, the controller to report them).
    rulings: Rulings = field(default_factory=Rulings)

    @classmethod
    def from_config(cls, config: pytest.Config) -> OracleRun | None:
        """The run the options ask for, or None when no engine is named (the plugin is inert).

        Bad input (an unknown engine, game or rule, a broken manifest or expectations file,
        an engine that cannot be made, a report path that cannot be written) is a
        ``pytest.UsageError`` that says what to write instead.
        """
        values = run_options.read(config)
        if not values["engine"]:
            return None
        if values["explore_out"] and not values["explore"]:
            raise pytest.UsageError("--explore-out DIR writes exploration counterexamples, so "
                                    "it needs --explore; add --explore, or leave it out")
        note = features_note()
        roots = feature_roots(values["features"])
        is_worker = hasattr(config, "workerinput")
        try:
            spec = EngineSpec.parse(values["engine"])
            games = discover_games(roots)
            _check_feature_roots(roots[1:], games)
            kind = spec.engine_kind
            # An in-process engine is checked by being made, once: the run keeps it (below).
            made_now = not kind.process and not kind.per_game(spec)
            if not made_now:
                kind.check(spec, games)
            outputs = {f.name: Path(values[f.name]) for f in file_formats()
                       if values.get(f.name)}
            if not is_worker:
                _check_output_paths(config, outputs)
            shard = tuple(int(n) for n in values["shard"].split("/")) \
                if values["shard"] else None
            rulings = find_rulings(games.values(), games)
            check_lang(values.get("lang"), games, run_options.spelled(config, "lang"))
            run = cls(
                spec=spec, games=games, roots=roots, seed=values["seed"],
                selected=selected_rules(values["rule"], games, rulings,
                                        run_options.spelled(config, "rule")),
                outputs=outputs,
                rulings=rulings, features_note=note,
                is_worker=is_worker, timeout=values["timeout"] or DEFAULT_TIMEOUT,
                startup_timeout=values["startup_timeout"],
                strict=_strict(values["strict_protocol"]),
                strict_expectations=values["strict_expectations"],
                explore=values["explore"], explore_examples=values["explore_examples"],
                explore_out=values["explore_out"],
                require_coverage=values["require_coverage"], shard=shard,  # type: ignore[arg-type]
                all_games=values["all_games"], values=values, lang=values.get("lang"),
                bdd_public=values["bdd_public"],
                breaker=Breaker(spec, values["max_timeouts"]), repeat=values["repeat"] or 1,
                editions=run_editions.choose_editions(values.get("edition") or (), games),
            )
            if made_now:
                run._clients["*"] = connect(spec, games, run.connect_options())
            if values["rerun_failed"]:
                run.rerun, run.rerun_note = _rerun(Path(values["rerun_failed"]))
            if values["expectations"]:
                run.expectations = load_expectations(
                    Path(values["expectations"]),
                    [i for g in games.values() for i in g.catalog.ids()]
                    + sorted(rulings.added_ids()))
        except (EngineSpecError, CatalogFileError, ExpectationsError, OutputError,
                ReportFileError) as exc:
            raise pytest.UsageError(str(exc)) from exc
        return run

    # -- engines ---------------------------------------------------------------------------

    def _engine_key(self, game: Game) -> str:
        return game.id if self.spec.engine_kind.per_game(self.spec) else "*"

    def client_for(self, game: Game) -> EngineClient:
        """The engine a game's scenarios run on, connected once per process."""
        key = self._engine_key(game)
        if key not in self._clients:
            games = {game.id: game} if key != "*" else self.games
            self._clients[key] = connect(self.spec, games, self.connect_options())
        return self._clients[key]

    def connect_options(self) -> ConnectOptions:
        return ConnectOptions(timeout=self.timeout, startup_timeout=self.startup_timeout,
                              strict=self.strict)

    def engine_for(self, game: Game) -> EngineClient:
        """The engine for a scenario, described (handshake done), or EngineFault at once.

        The circuit breaker (``oracle.plugin.breaker``): an engine that fails at start-up
        (its handshake fails, it crashes or hangs before describing itself) is not restarted
        for every scenario, nor is one that timed out ``--max-timeouts`` requests in a row:
        every later scenario on it ends ``error`` with the diagnosis without a request, so
        a broken engine costs one start or a few timeouts, not one per scenario.
        """
        key = self._engine_key(game)
        trip = self.breaker.tripped(key, self._clients.get(key))
        if trip is not None:
            raise EngineFault(trip.message)
        try:
            client = self.client_for(game)
            client.info()
        except EngineSpecError as exc:
            if key in self._clients:
                self._clients[key].close()
            raise EngineFault(self.breaker.failed_to_start(key, exc).message) from None
        return client

    def start_engines(self, session: pytest.Session) -> None:
        """Start the engines of the collected scenarios before the first one runs, showing
        "starting engine ... (N s)" while the handshake is waited for: an engine that fails
        here is diagnosed once, and its scenarios are not run (``not_run``)."""
        games: dict[str, Game] = {}
        for item in session.items:
            rules = rules_of(item)
            game = self.games.get(rules[0].partition(":")[0]) if rules else None
            if game is not None:
                games.setdefault(self._engine_key(game), game)
        writer = None if self.is_worker else session.config.get_terminal_writer()
        for key, game in games.items():
            what = f"starting engine {self.spec}" + (f" for {game.id}" if key != "*" else "")
            with contextlib.suppress(EngineFault), waiting(writer, what):
                self.engine_for(game)

    def not_run(self, item: pytest.Item) -> bool:
        """End a scenario whose engine is given up at once: its ``error`` verdict (with the
        diagnosis) is reported without running it, and shown in no line of its own
        (``pytest_report_teststatus``). False for a scenario that should run."""
        rules = rules_of(item)
        game = self.games.get(rules[0].partition(":")[0]) if rules else None
        if game is None:
            return False
        key = self._engine_key(game)
        trip = self.breaker.tripped(key, self._clients.get(key))
        if trip is None:
            return False
        report_not_run(self, item, key, trip, [(ORDER_PROPERTY, item.stash.get(order_key, -1))])
        return True

    def close_engines(self) -> None:
        """Stop the engine processes this process started (closing their stdin first)."""
        for client in self._clients.values():
            client.close()

    def scenario_seed(self, game: str, name: str) -> int:
        return scenario_seed(self.seed, game, name)

    def in_shard(self, key: str) -> bool:
        """Whether what ``key`` names (``shard_key``) runs in this run's shard (``--shard
        K/N``): the same split on every machine, whatever the paths and the order of
        collection, and every example row of a scenario in the same shard."""
        if self.shard is None:
            return True
        index, count = self.shard
        return zlib.crc32(key.encode("utf-8")) % count == index - 1

    def shard_key(self, scenario: ScenarioDoc) -> str:
        """What places a scenario in a shard: its game, file name and name (no folder, which
        differs between machines)."""
        game = self.game_of(scenario.path)
        return f"{game.id if game else ''}/{scenario.path.name}::{scenario.name}"

    def wants(self, scenario: ScenarioDoc) -> bool:
        """Whether to collect a scenario: it cites a selected rule, or nothing is selected.

        Unselected scenarios are not built at all, so a one-rule run of a large suite does
        not pay for the rest. If no scenario cites a selected rule (an untestable one, say),
        everything is collected and deselected as it always was, so such a run still ends
        as before rather than as a run that collected nothing.
        """
        if self.selected is None or not self._selection_has_scenarios:
            return True
        return not self.selected.isdisjoint(rule_tags(scenario.tag_names))

    @functools.cached_property
    def _selection_has_scenarios(self) -> bool:
        assert self.selected is not None
        for game in self.games.values():
            for path in game.feature_files():
                with contextlib.suppress(FeatureSyntaxError):  # the suite checks say so
                    for scenario in read_feature(path).scenarios:
                        if not self.selected.isdisjoint(rule_tags(scenario.tag_names)):
                            return True
        return False

    def ruling_of(self, path: Path, name: str) -> Ruling | None:
        """The ruling a scenario (feature file, name) belongs to, if any."""
        return self.rulings.of_test(path, name)

    def scenario_doc(self, path: Path, name: str) -> ScenarioDoc | None:
        """A scenario (feature file, name) as parsed, for its verdict: from the file's parse,
        which every process has (cached) once it collected the file; None when it is gone."""
        try:
            return read_feature(path).by_name.get(name)
        except (OSError, FeatureSyntaxError):
            return None

    def cites_of(self, path: Path, name: str) -> tuple[str, ...]:
        """The sentence anchors a scenario (feature file, name) cites."""
        scenario = self.scenario_doc(path, name)
        return scenario.cited_anchors if scenario is not None else ()

    def stale_of(self, path: Path, scenario: ScenarioDoc) -> tuple[str, ...]:
        """The anchors a scenario of the feature file ``path`` cites whose text changed since
        it was reviewed (its folder's ``reviews.yaml``), or that the rules no longer have: it
        is ``stale``."""
        game = self.game_of(path)
        folder = run_reviews.folder_of(path, game) if game is not None else None
        if folder is None:
            return ()
        if folder not in self._reviews:
            try:
                self._reviews[folder] = run_reviews.Reviews.read(folder)
            except CatalogFileError as exc:
                raise EngineFault(str(exc)) from exc
        return run_reviews.staleness(scenario, self._reviews[folder], self.games).stale

    def not_in_edition(self, item: pytest.Item) -> str | None:
        """Why a collected scenario cannot be tested as of its game's edition (``--edition``:
        it cites a sentence the edition lacks), or None."""
        rules = rules_of(item)
        game = self.games.get(rules[0].partition(":")[0]) if rules else None
        edition = self.editions.get(game.id) if game is not None else None
        behind = item.stash.get(scenario_key, None)
        if game is None or edition is None or behind is None:
            return None
        return run_editions.not_in_edition(game.catalog, edition,
                                           self.cites_of(behind[0].path, behind[0].name))

    def retired(self, scenario: ScenarioDoc) -> bool:
        """Whether an official ruling retires (or replaces) this scenario: it does not run."""
        game = self.game_of(scenario.path)
        return game is not None and self.rulings.retired(scenario, game.id) is not None

    def game_of(self, path: Path) -> Game | None:
        """The game whose folders hold a feature file (worked out once a file: it is asked
        for every scenario, and ``Path.is_relative_to`` is slow)."""
        if path not in self._games_of:
            self._games_of[path] = next(
                (game for game in self.games.values()
                 if any(path.is_relative_to(f) for f in (game.folder, *game.extra_folders))),
                None)
        return self._games_of[path]

    def short_path(self, path: Path) -> str:
        """A feature file's path as reports show it: from its features root, or from the
        current folder when it is under it (a committee's folder), else in full."""
        shown = self._short_paths.get(path)
        if shown is None:
            here = Path.cwd()
            shown = str(path.relative_to(here)) if path.is_relative_to(here) else str(path)
            for game in self.games.values():
                if path.is_relative_to(game.folder.parent):
                    shown = str(path.relative_to(game.folder.parent))
                    break
            self._short_paths[path] = shown
        return shown

    def header(self) -> str:
        shard = f", shard {self.shard[0]}/{self.shard[1]}" if self.shard else ""
        note = f"\nrules-oracle: {self.features_note}" if self.features_note else ""
        editions = "".join(f", {g} as of edition {e.name}" for g, e in self.editions.items())
        note += f"\nrules-oracle: {self.rerun_note}" if self.rerun_note else ""
        repeat = f", each scenario {self.repeat} times" if self.repeat > 1 else ""
        return (f"rules-oracle: engine {self.spec}, games {', '.join(self.games)}, seed "
                f"{self.seed}{shard}{editions}{repeat} ({time.strftime('%Y-%m-%d')}){note}")

    def selected_games(self) -> list[Game]:
        """The games a --rule selects (every game without one): only their feature files
        are checked and collected, and only they are explored."""
        if self.selected is None:
            return list(self.games.values())
        added = self.rulings.added_ids()
        return [g for g in self.games.values()
                if (set(g.catalog.ids()) | {i for i in added if i.startswith(f"{g.id}:")})
                & self.selected]

    def report_games(self) -> list[Game]:
        """The games a report lists: the selected ones, or every game with --all-games."""
        return list(self.games.values()) if self.all_games else self.selected_games()

    # -- hooks (registered as a plugin) -------------------------------------------------------

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Refuse, before anything runs, a suite that would lose a rule silently."""
        if self.is_worker:
            return
        self.started = datetime.datetime.now(datetime.UTC).isoformat(
            timespec="seconds").replace("+00:00", "Z")
        key = suite_checked.fingerprint(self.selected_games(), self.games, self.selected)
        if suite_checked.passed_before(key):
            return  # unchanged since it passed; the rulings are read (find_rulings) already
        checked = check_suite(self.selected_games(), self.games, self.wants)
        self.rulings = checked.rulings
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
        if self.editions and (why := self.not_in_edition(item)):
            raise NotInEdition(why)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]
                                  ) -> pytest.TestReport | None:
        """A failing scenario's report without pytest's traceback (``untraced_report``)."""
        return untraced_report(item, call) if rules_of(item) else None

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        self.interrupted = True

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown" or (report.when == "setup" and report.passed):
            return  # verdicts ride on the call report (or on a setup that failed)
        order = next((int(v) for k, v in report.user_properties if k == ORDER_PROPERTY), -1)
        not_run = next((v for k, v in report.user_properties if k == NOT_RUN_PROPERTY), None)
        for key, value in report.user_properties:
            if key == USER_PROPERTY:
                verdict = ScenarioVerdict.from_json(json.loads(value), self._shared)
                self.verdicts.append(verdict)
                self.verdict_order.append(order)
                if verdict.engine:
                    self.engines.setdefault(verdict.game, dict(verdict.engine))
                if not_run is not None:
                    self.breaker.heard(not_run, verdict.location)

    @pytest.hookimpl(trylast=True, specname="pytest_runtest_logreport")
    def pytest_runtest_logreport_last(self, report: pytest.TestReport) -> None:
        """Once every plugin has read a report (this hook runs last), drop its verdict's
        JSON from it: pytest keeps every report to the end of the run, and the verdict is
        in ``verdicts`` already (about 1.5 KB a scenario, 15 MB in a 10,000-test run)."""
        if any(k == USER_PROPERTY for k, _ in report.user_properties):
            report.user_properties = [(k, v) for k, v in report.user_properties
                                      if k != USER_PROPERTY]

    def build(self) -> Report:
        catalogs = [run_editions.edition_catalog(g.catalog, self.editions[g.id])
                    if g.id in self.editions else g.catalog for g in self.report_games()]
        engine = {"spec": str(self.spec), "seed": self.seed,
                  "games": dict(sorted(self.engines.items())),
                  **({"editions": {g: e.name for g, e in sorted(self.editions.items())}}
                     if self.editions else {})}
        known = self.expectations.whole_rules() if self.expectations else set()
        ordered = [v for _, v in sorted(zip(self.verdict_order, self.verdicts, strict=True),
                                        key=lambda pair: pair[0])]
        if self.repeat > 1:
            ordered = merge_repeats(ordered)
        report = build_report(catalogs, ordered, engine, self.selected, known, self.rulings,
                              self.short_path, self.lang)
        self.report = dataclasses.replace(report, interrupted=self.interrupted,
                                          shard=self.shard,  # type: ignore[arg-type]
                                          started=self.started, repeat=self.repeat)
        return self.report

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker or (not self.asked and not self.verdicts):
            return
        report = self.report or self.build()
        terminalreporter.section("rules-oracle conformance")
        compact = terminalreporter.config.get_verbosity() <= -2
        width = terminalreporter.config.get_terminal_writer().fullwidth
        if self.breaker.at_startup():  # every rule errs alike: the diagnosis says it once
            terminalreporter.line(engine_line(report.engine))
            terminalreporter.line(counts(report))
        else:
            terminalreporter.line(render_table(report, width, compact))
        for line in self.breaker.summary(width):
            terminalreporter.line(line, red=line.startswith("rules-oracle:"))
        for line in unsupported_summary(report, width):
            terminalreporter.line(line)
        if self.features_note:
            terminalreporter.line(self.features_note)
        stale = stale_expectations(report)
        if stale:
            where = self.expectations.path if self.expectations else "the expectations file"
            strict = " (--strict-expectations: this fails the run)" \
                if self.strict_expectations else ""
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
        self.close_engines()
        if self.is_worker:
            return
        report = self.report or self.build()
        if not self.asked and not self.verdicts:
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
        if self.breaker.at_startup():
            self.notes.append("exit status 2: the engine did not start (its diagnosis is "
                              "above), so no scenario ran on it")
            return Exit.USAGE
        if status in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            unsupported = [v for v in self.verdicts if v.status == Status.UNSUPPORTED]
            empty = nothing_tested([v.status for v in self.verdicts],
                                   unsupported[0].message if unsupported else "")
            if empty:
                self.notes.append(empty)
                return Exit.NOTHING_TESTED
        if status != pytest.ExitCode.OK:
            return status
        if stale_expectations(report) and self.strict_expectations:
            return pytest.ExitCode.TESTS_FAILED  # stale known failures
        if any(r.status == Status.FLAKY for r in report.rules):
            return pytest.ExitCode.TESTS_FAILED  # some runs passed, pytest saw no failure
        if self.shard and self.require_coverage is not None:
            self.notes.append("--require-coverage is judged on the whole run: pass it to "
                              "'rules-oracle combine' with the shards' reports")
            return status
        short = coverage_shortfall(report, self.require_coverage)
        if short:
            self.notes.append(short)
            return pytest.ExitCode.TESTS_FAILED
        return status

    def _write(self, report: Report) -> bool:
        """Write every requested format (an interrupted run's beside the requested path);
        True when all were written. A failure is said, and the other formats still go out."""
        ok = True
        for name, path in self.outputs.items():
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


def _rerun(path: Path) -> tuple[frozenset[tuple[str, str]] | None, str]:
    """``--rerun-failed``'s scenarios and what the header says of them."""
    failed = failed_in(path)
    if not failed:
        return None, f"--rerun-failed {path}: no scenario failed there; running every one"
    return failed, (f"--rerun-failed {path}: running the {len(failed)} scenario(s) that "
                    "failed, errored or were blocked there")


def _distributes(config: pytest.Config) -> bool:
    """Whether this process is pytest-xdist's controller (its workers run the scenarios)."""
    return config.pluginmanager.has_plugin("dsession")


def _strict(wanted: bool) -> bool:
    """``--strict-protocol``, refused where the validator cannot be loaded."""
    if wanted:
        from oracle.protocol import validate

        try:
            validate.validator("reply")
        except ImportError as exc:
            raise pytest.UsageError(f"--oracle-strict-protocol: {exc}") from exc
    return bool(wanted)


def _check_feature_roots(extra: list[Path], games: dict[str, Game]) -> None:
    """Refuse a --features folder that adds nothing: no game folder, no folder of a game's
    scenarios. Run as given, it would silently test only the bundled suite."""
    for root in extra:
        used = any(g.folder.parent == root or any(f.parent == root for f in g.extra_folders)
                   for g in games.values())
        if not used:
            raise CatalogFileError(
                f"--features {root}: holds no game folder (with a game.yaml) and no folder "
                f"named after a game holding .feature files (games: {', '.join(games)}); "
                "give the folder that holds them, e.g. --features my-rulings for "
                "my-rulings/ti4/*.feature")


def _check_output_paths(config: pytest.Config, outputs: dict[str, Path]) -> None:
    """Every report path (ours and pytest's own --junitxml) writable, none shared."""
    named = {f"--{name.replace('_', '-')}": path for name, path in outputs.items()}
    xmlpath = getattr(config.option, "xmlpath", None)
    if xmlpath:
        named["pytest's --junitxml"] = Path(xmlpath)
    check_outputs(named)


def selected_rules(wanted: list[str], games: dict[str, Game], rulings: Rulings | None = None,
                   flag: str = "--oracle-rule") -> set[str] | None:
    """The rule ids ``--rule`` selects (each id and its sub-rules, or a whole game, or a
    committee namespace its rulings add), or None for every rule; a ``pytest.UsageError``
    for an id no catalog has, offering the closest ids (``flag``: the option as the user
    spelt it)."""
    if not wanted:
        return None
    every = [rid for g in games.values() for rid in g.catalog.ids()]
    every += sorted(rulings.added_ids()) if rulings else []
    selected: set[str] = set()
    for text in wanted:
        hits = [rid for rid in every
                if rid == text or rid.startswith(text + ".") or rid.startswith(text + ":")]
        if not hits:
            close = difflib.get_close_matches(text, [*every, *games], n=5, cutoff=0.6)
            offer = (f"did you mean {', '.join(close)}?" if close else
                     f"ids look like {', '.join(every[:3])} …")
            raise pytest.UsageError(
                f"{flag} {text}: no rule has this id; {offer} (a game id alone, "
                f"{' or '.join(games)}, selects all its rules; the JSON report lists "
                "every id)")
        selected.update(hits)
    return selected


def check_lang(lang: str | None, games: dict[str, Game], flag: str = "--oracle-lang") -> None:
    """Refuse a ``--lang`` no catalog has rule texts in, naming the languages there are."""
    if not lang:
        return
    known = languages(games.values())
    if lang not in known:
        raise pytest.UsageError(f"{flag} {lang}: no catalog has its rule texts in {lang!r}; "
                                f"the languages there are: {', '.join(known)}")
