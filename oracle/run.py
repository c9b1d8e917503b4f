"""The state of one oracle run, kept in ``config.stash`` (like pytest's junitxml LogXML).

``OracleRun`` holds the options, the games, the engines, and the verdicts the
controller receives; its hook methods record verdicts and write the report.
Only the controller (never an xdist worker) writes reports.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from oracle.engines import EngineClient, EngineSpec, EngineSpecError, load_factory, make_engine
from oracle.expectations import Expectations
from oracle.game import Game
from oracle.inprocess import GuardedEngine
from oracle.mutants import find_mutant
from oracle.pipe import DEFAULT_TIMEOUT, PipeEngine
from oracle.report import ConformanceReport, build_report, render_markdown, render_table
from oracle.verdicts import USER_PROPERTY, ScenarioVerdict

run_key = pytest.StashKey["OracleRun"]()


@dataclass(eq=False)  # a plugin object: hashed by identity
class OracleRun:
    """One run: which engine, which games, which rules, and what happened."""

    spec: EngineSpec
    games: dict[str, Game]
    seed: int = 0
    selected: set[str] | None = None
    json_path: Path | None = None
    markdown_path: Path | None = None
    is_worker: bool = False
    timeout: float = DEFAULT_TIMEOUT  # per request, for cmd: engines (--oracle-timeout)
    strict: bool = False  # validate every live message against the schemas
    expectations: Expectations | None = None
    strict_expectations: bool = False
    verdicts: list[ScenarioVerdict] = field(default_factory=list)
    engines: dict[str, dict[str, Any]] = field(default_factory=dict)
    _clients: dict[str, EngineClient] = field(default_factory=dict)
    report: ConformanceReport | None = None

    # -- engines ---------------------------------------------------------------

    def client_for(self, game: Game) -> EngineClient:
        """The engine a game's scenarios run on, made once per process."""
        key = game.id if self.spec.kind == "reference" and not self.spec.target else "*"
        if key not in self._clients:
            if self.spec.kind == "cmd":  # one process per run (per xdist worker)
                label = str(self.spec)
                pipe = PipeEngine(self.spec.argv, timeout=self.timeout, strict=self.strict,
                                  label=label)
                self._clients[key] = EngineClient(pipe, label)
                return self._clients[key]
            if self.spec.kind == "mutant":
                try:
                    _, mutant = find_mutant(self.games.values(), self.spec.target)
                except KeyError as exc:
                    raise EngineSpecError(str(exc.args[0])) from exc
                label = f"mutant:{mutant.name}"
                self._clients[key] = self._in_process(mutant, label)
                return self._clients[key]
            if self.spec.kind == "reference":
                wanted = self.spec.target or game.id
                owner = self.games.get(wanted)
                if owner is None or not owner.reference_engine:
                    raise EngineSpecError(f"no bundled reference engine for {wanted!r}")
                target, label = owner.reference_engine, f"reference:{wanted}"
            else:
                target = label = self.spec.target
            self._clients[key] = self._in_process(load_factory(target), label)
        return self._clients[key]

    def _in_process(self, factory: Callable[[], Any], label: str) -> EngineClient:
        """A Python engine behind a watchdog, so that a hang errors one scenario only."""
        make_engine(factory, label)  # fail early, as a usage error, if it makes no engine
        guarded = GuardedEngine(lambda: make_engine(factory, label), label, self.timeout)
        return EngineClient(guarded, label, strict=self.strict)

    def close_engines(self) -> None:
        """Stop the engine processes this process started (closing their stdin first)."""
        for client in self._clients.values():
            if isinstance(client.engine, PipeEngine):
                client.engine.close()

    def scenario_seed(self, game: str, name: str) -> int:
        """A per-scenario seed: stable across runs and xdist workers, changed by --oracle-seed."""
        return zlib.crc32(f"{self.seed}:{game}:{name}".encode())

    # -- hooks (registered as a plugin) ---------------------------------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown" or (report.when == "setup" and report.passed):
            return  # verdicts ride on the call report (or on a setup that failed)
        for key, value in report.user_properties:
            if key == USER_PROPERTY:
                verdict = ScenarioVerdict.from_json(json.loads(value))
                self.verdicts.append(verdict)
                if verdict.engine:
                    self.engines.setdefault(verdict.game, dict(verdict.engine))

    def build(self) -> ConformanceReport:
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
        terminalreporter.line(render_table(report, terminalreporter._tw.fullwidth))
        stale = [r.id for r in report.rules if r.status == "xpass"]
        if stale:
            where = self.expectations.path if self.expectations else "the expectations file"
            strict = " (--strict-expectations: this fails the run)" \
                if self.strict_expectations else ""
            terminalreporter.line(f"known failures that pass now, remove them from {where}"
                                  f"{strict}: {', '.join(stale)}")
        for path in (self.json_path, self.markdown_path):
            if path:
                terminalreporter.line(f"report written to {path}")

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.close_engines()
        if self.is_worker:
            return
        report = self.report or self.build()
        stale = [r.id for r in report.rules if r.status == "xpass"]
        if stale and self.strict_expectations and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED  # stale known failures
        if self.json_path:
            self.json_path.parent.mkdir(parents=True, exist_ok=True)
            self.json_path.write_text(json.dumps(report.to_json(), indent=2) + "\n",
                                      encoding="utf-8")
        if self.markdown_path:
            self.markdown_path.parent.mkdir(parents=True, exist_ok=True)
            self.markdown_path.write_text(render_markdown(report), encoding="utf-8")
