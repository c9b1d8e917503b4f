"""The state of one oracle run, kept in ``config.stash`` (like pytest's junitxml ``LogXML``).

``OracleRun`` is built from the options (``OracleRun.from_config``), holds the games, the
engine connections and the verdicts the controller receives, and its hook methods check the
suite, select scenarios, record verdicts and write the reports. Only the controller (never
an xdist worker) checks the suite and writes reports.
"""

from __future__ import annotations

import json
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from oracle import options as run_options
from oracle.engines import ConnectOptions, EngineClient, EngineSpec, EngineSpecError, connect
from oracle.engines.spec import DEFAULT_TIMEOUT
from oracle.report import Report, ScenarioVerdict, Status, build_report
from oracle.report.expectations import Expectations, ExpectationsError, load_expectations
from oracle.report.formats import file_formats, formats
from oracle.report.formats.table import render_table, unsupported_summary
from oracle.report.model import USER_PROPERTY
from oracle.suite.catalog import CatalogFileError
from oracle.suite.games import Game, bundled_features_dir, discover_games
from oracle.suite.lint import lint_games

run_key = pytest.StashKey["OracleRun"]()


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
    strict: bool = False  # validate every live message against the schemas
    expectations: Expectations | None = None
    strict_expectations: bool = False
    explore: bool = False
    explore_examples: int = 60
    explore_out: str | None = None
    verdicts: list[ScenarioVerdict] = field(default_factory=list)
    engines: dict[str, dict[str, Any]] = field(default_factory=dict)
    _clients: dict[str, EngineClient] = field(default_factory=dict)
    report: Report | None = None

    @classmethod
    def from_config(cls, config: pytest.Config) -> OracleRun | None:
        """The run the options ask for, or None when no engine is named (the plugin is inert).

        Bad input (an unknown engine, game or rule, a broken manifest or expectations file)
        is a ``pytest.UsageError`` that says what to write instead.
        """
        values = run_options.read(config)
        if not values["engine"]:
            return None
        roots = [bundled_features_dir(), *(Path(d).resolve() for d in values["features"])]
        try:
            spec = EngineSpec.parse(values["engine"])
            games = discover_games(roots)
            spec.engine_kind.check(spec, games)
            run = cls(
                spec=spec, games=games, roots=roots, seed=values["seed"],
                selected=selected_rules(values["rule"], games),
                outputs={f.name: Path(values[f.name]) for f in file_formats()
                         if values.get(f.name)},
                is_worker=hasattr(config, "workerinput"),
                timeout=values["timeout"] or DEFAULT_TIMEOUT,
                strict=_strict(values["strict_protocol"]),
                strict_expectations=values["strict_expectations"],
                explore=values["explore"], explore_examples=values["explore_examples"],
                explore_out=values["explore_out"],
            )
            if values["expectations"]:
                run.expectations = load_expectations(
                    Path(values["expectations"]),
                    [i for g in games.values() for i in g.catalog.ids()])
        except (EngineSpecError, CatalogFileError, ExpectationsError) as exc:
            raise pytest.UsageError(str(exc)) from exc
        return run

    # -- engines ---------------------------------------------------------------------------

    def client_for(self, game: Game) -> EngineClient:
        """The engine a game's scenarios run on, connected once per process."""
        kind = self.spec.engine_kind
        key = game.id if kind.per_game(self.spec) else "*"
        if key not in self._clients:
            games = {game.id: game} if kind.per_game(self.spec) else self.games
            self._clients[key] = connect(self.spec, games,
                                         ConnectOptions(timeout=self.timeout, strict=self.strict))
        return self._clients[key]

    def close_engines(self) -> None:
        """Stop the engine processes this process started (closing their stdin first)."""
        for client in self._clients.values():
            client.close()

    def scenario_seed(self, game: str, name: str) -> int:
        """A per-scenario seed: stable across runs and xdist workers, changed by --seed."""
        return zlib.crc32(f"{self.seed}:{game}:{name}".encode())

    def game_of(self, path: Path) -> Game | None:
        """The game whose folders hold a feature file."""
        for game in self.games.values():
            if any(path.is_relative_to(f) for f in (game.folder, *game.extra_folders)):
                return game
        return None

    def short_path(self, path: Path) -> str:
        for game in self.games.values():
            if path.is_relative_to(game.folder.parent):
                return str(path.relative_to(game.folder.parent))
        return str(path)

    def header(self) -> str:
        return (f"rules-oracle: engine {self.spec}, games {', '.join(self.games)}, seed "
                f"{self.seed} ({time.strftime('%Y-%m-%d')})")

    # -- hooks (registered as a plugin) -------------------------------------------------------

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Refuse, before anything runs, a suite that would lose a rule silently."""
        if self.is_worker:
            return
        problems, _ = lint_games(self.games.values(), self.games)
        if problems:
            listing = "\n".join(str(p) for p in problems)
            raise pytest.UsageError(
                f"rules-oracle refuses to run: {len(problems)} problem(s) in the suite\n{listing}"
            )

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown" or (report.when == "setup" and report.passed):
            return  # verdicts ride on the call report (or on a setup that failed)
        for key, value in report.user_properties:
            if key == USER_PROPERTY:
                verdict = ScenarioVerdict.from_json(json.loads(value))
                self.verdicts.append(verdict)
                if verdict.engine:
                    self.engines.setdefault(verdict.game, dict(verdict.engine))

    def build(self) -> Report:
        catalogs = [g.catalog for g in self.games.values()]
        engine = {"spec": str(self.spec), "seed": self.seed, "games": self.engines}
        known = {e.rule for e in self.expectations.entries
                 if e.rule and e.scenario is None} if self.expectations else set()
        self.report = build_report(catalogs, self.verdicts, engine, self.selected, known)
        return self.report

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker:
            return
        report = self.report or self.build()
        terminalreporter.section("rules-oracle conformance")
        width = terminalreporter._tw.fullwidth
        terminalreporter.line(render_table(report, width))
        for line in unsupported_summary(report, width):
            terminalreporter.line(line)
        stale = [r.id for r in report.rules if r.status == Status.XPASS]
        if stale:
            where = self.expectations.path if self.expectations else "the expectations file"
            strict = " (--strict-expectations: this fails the run)" \
                if self.strict_expectations else ""
            terminalreporter.line(f"known failures that pass now, remove them from {where}"
                                  f"{strict}: {', '.join(stale)}")
        for path in self.outputs.values():
            terminalreporter.line(f"report written to {path}")

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.close_engines()
        if self.is_worker:
            return
        report = self.report or self.build()
        stale = [r.id for r in report.rules if r.status == Status.XPASS]
        if stale and self.strict_expectations and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED  # stale known failures
        for name, path in self.outputs.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(formats()[name].render(report), encoding="utf-8")


def _strict(wanted: bool) -> bool:
    """``--strict-protocol``, refused where the validator cannot be loaded."""
    if wanted:
        from oracle.protocol import validate

        try:
            validate.validator("reply")
        except ImportError as exc:
            raise pytest.UsageError(f"--oracle-strict-protocol: {exc}") from exc
    return bool(wanted)


def selected_rules(wanted: list[str], games: dict[str, Game]) -> set[str] | None:
    """The rule ids ``--rule`` selects (each id and its sub-rules, or a whole game), or None
    for every rule; a ``pytest.UsageError`` for an id no catalog has."""
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
