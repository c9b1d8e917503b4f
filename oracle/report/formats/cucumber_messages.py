"""Cucumber Messages from the report (``--cucumber-messages PATH``): NDJSON, one envelope a line.

Why: Cucumber JSON (``--cucumber``) is Cucumber's legacy format; its own tools (the HTML
formatter, the JUnit and TestNG formatters, ``@cucumber/query``) read Cucumber Messages. The
feature files are read by Cucumber's own Gherkin parser (gherkin-official, which pytest-bdd
uses too) into its ``source``, ``gherkinDocument`` and ``pickle`` messages; each pickle is
then matched with its scenario in the report (its file, its line and, for an Outline row,
the row's values), and the run follows as ``testCase``, ``testCaseStarted``,
``testStepStarted``/``testStepFinished`` per step and ``testCaseFinished``, between
``testRunStarted`` and ``testRunFinished``. Every envelope follows the messages schema of
``@cucumber/messages`` (``cucumber_messages.schema.json`` beside this module, vendored: see
``vendor.md``; a test validates the output against it).

Steps run through the oracle's vocabulary, so the step definitions are the three that
pytest-bdd sees (Given, When, Then: ``oracle.plugin.dispatch``). Times are the report's
durations laid end to end from the moment the file is written. The scenarios whose feature
file is not at hand (a committee's folder given by an absolute path, an exploration) are
written as a Gherkin file of their own, from the steps their verdicts recorded, and parsed
like the others (the schema wants every pickle to point into a ``gherkinDocument``).
"""

from __future__ import annotations

import itertools
import platform
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gherkin.stream.gherkin_events import GherkinEvents

from oracle.engines.wire import dumps_line
from oracle.report.formats import Format
from oracle.report.model import Report, ScenarioResult
from oracle.suite.games import bundled_features_dir

PROTOCOL_VERSION = "34.2.1"
"""The version of the messages schema this follows (``@cucumber/messages`` on npm)."""

_STATUS = {"passed": "PASSED", "failed": "FAILED", "skipped": "SKIPPED"}
_KINDS = {"Context": "given", "Action": "when", "Outcome": "then"}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rules-oracle")
    except PackageNotFoundError:
        return "0"


def _timestamp(seconds: float) -> dict[str, int]:
    whole = int(seconds)
    return {"seconds": whole, "nanos": int((seconds - whole) * 1e9)}


def _find(uri: str) -> Path | None:
    """A feature file a report names (``ti4/drawing.feature``): the bundled features', or one
    under the current folder (a committee's), or the path as it is."""
    for candidate in (bundled_features_dir() / uri, Path.cwd() / uri, Path(uri)):
        if candidate.is_file():
            return candidate
    return None


def _scenario_nodes(children: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for child in children:
        if "scenario" in child:
            yield child["scenario"]
        elif "rule" in child:
            yield from _scenario_nodes(child["rule"].get("children", []))


def _keys(document: dict[str, Any]) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Each scenario's and Examples row's AST node id -> (the scenario's line, the row's
    values): how a pickle is told apart from the others of its file."""
    keys: dict[str, tuple[int, tuple[str, ...]]] = {}
    for scenario in _scenario_nodes(document.get("feature", {}).get("children", [])):
        line = scenario["location"]["line"]
        keys[scenario["id"]] = (line, ())
        for examples in scenario.get("examples", []):
            for row in examples.get("tableBody", []):
                keys[row["id"]] = (line, tuple(c["value"] for c in row["cells"]))
    return keys


def _results(report: Report) -> dict[tuple[str, str], tuple[ScenarioResult, list[str], bool]]:
    """Each scenario once, by (location, name): its line under its own rule, the rules it
    cites, and whether it is a probe's (a ruling under debate: it fails nothing)."""
    found: dict[tuple[str, str], tuple[ScenarioResult, list[str], bool]] = {}
    for rule, scenario, ruling in report.each_scenario():
        key = (scenario.location, scenario.name)
        if key in found:
            found[key][1].append(rule.id)
        else:
            found[key] = (scenario, [rule.id], ruling is not None and ruling.probe)
    return found


def _rebuilt(uri: str, scenarios: list[tuple[tuple[str, str], ScenarioResult, list[str]]]
             ) -> tuple[str, dict[tuple[str, str], int]]:
    """A Gherkin file of scenarios whose own file is not at hand, from the steps their
    verdicts recorded, and each scenario's line in it."""
    lines = [f"Feature: {uri}", "  Rebuilt by rules-oracle from its report: the feature file "
             "was not at hand.", ""]
    where: dict[tuple[str, str], int] = {}
    for key, scenario, rules in scenarios:
        lines.append("  " + " ".join(f"@{rule}" for rule in rules))
        where[key] = len(lines) + 1
        lines.append(f"  Scenario: {scenario.name}")
        steps = scenario.steps or ()
        lines += [f"    {step.keyword.strip()} {step.text}" for step in steps]
        if not steps:  # it ended before its first step (an exploration, an engine given up)
            lines.append(f"    Then {scenario.name}")
        lines.append("")
    return "\n".join(lines), where


class _Writer:
    """The envelopes, in order, with ids of its own beside the Gherkin parser's."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.lines: list[bytes] = []
        self.ids = (f"ro-{n}" for n in itertools.count(1))
        self.definitions = {kind: next(self.ids) for kind in ("given", "when", "then")}
        self.clock = time.time()

    def emit(self, **envelope: Any) -> None:
        self.lines.append(dumps_line(envelope))

    def render(self) -> str:
        self.emit(meta={
            "protocolVersion": PROTOCOL_VERSION,
            # An interrupted run's partial report says so on its first line, as every
            # format's does: the messages have no field for it but this free name.
            "implementation": {"name": "rules-oracle (INTERRUPTED: a partial report)"
                               if self.report.interrupted else "rules-oracle",
                               "version": _version()},
            "runtime": {"name": platform.python_implementation(),
                        "version": platform.python_version()},
            "os": {"name": platform.system() or "unknown", "version": platform.release()},
            "cpu": {"name": platform.machine() or "unknown"}})
        results = _results(self.report)
        pickles = self._documents(results)
        for kind, definition in self.definitions.items():
            self.emit(stepDefinition={
                "id": definition,
                "pattern": {"source": f"^(.*)$ (any {kind} step of the game's vocabulary)",
                            "type": "REGULAR_EXPRESSION"},
                "sourceReference": {"uri": "oracle/suite/dispatch.py"}})
        run = next(self.ids)
        self.emit(testRunStarted={"timestamp": _timestamp(self.clock), "id": run})
        cases = []
        for key, (scenario, _, probe) in results.items():
            pickle = pickles[key]
            steps = [{"id": next(self.ids), "pickleStepId": step["id"],
                      "stepDefinitionIds": [self.definitions[_KINDS.get(step.get("type", ""),
                                                                        "given")]],
                      "stepMatchArgumentsLists": [{"stepMatchArguments": []}]}
                     for step in pickle["steps"]]
            case = {"id": next(self.ids), "pickleId": pickle["id"], "testSteps": steps,
                    "testRunStartedId": run}
            self.emit(testCase=case)
            cases.append((case, scenario, probe))
        for case, scenario, probe in cases:
            self._run(case, scenario, probe)
        self.emit(testRunFinished={
            "success": self.report.conforms and not self.report.interrupted,
            "timestamp": _timestamp(self.clock), "testRunStartedId": run,
            **({"message": "INTERRUPTED: a partial report of the scenarios that ran"}
               if self.report.interrupted else {})})
        return b"".join(self.lines).decode("utf-8")

    def _documents(self, results: dict[tuple[str, str], Any]) -> dict[tuple[str, str], Any]:
        """``source``, ``gherkinDocument`` and ``pickle`` of every feature file the report
        names (rebuilt from the verdicts where it is not at hand); the pickles by the
        report's (location, name)."""
        events = GherkinEvents(GherkinEvents.Options(True, True, True))
        names = {(loc.rpartition(":")[0], int(loc.rpartition(":")[2]), name): (loc, name)
                 for loc, name in results if loc.rpartition(":")[2].isdigit()}
        matched: dict[tuple[str, str], Any] = {}
        for uri in dict.fromkeys(loc.rpartition(":")[0] for loc, _ in results):
            path = _find(uri) if uri else None
            if path is not None:
                self._parse(events, uri, path.read_text(encoding="utf-8"), names, matched)
        missing: dict[str, list[tuple[str, str]]] = {}
        for key in results:
            if key not in matched:
                missing.setdefault(key[0].rpartition(":")[0] or key[0], []).append(key)
        for uri, keys in missing.items():
            text, lines = _rebuilt(uri, [(key, *results[key][:2]) for key in keys])
            self._parse(events, uri, text, {(uri, line, results[key][0].name): key
                                            for key, line in lines.items()}, matched)
        return matched

    def _parse(self, events: GherkinEvents, uri: str, text: str,
               names: dict[tuple[str, int, str], tuple[str, str]],
               matched: dict[tuple[str, str], Any]) -> None:
        source = {"source": {"uri": uri, "data": text,
                             "mediaType": "text/x.cucumber.gherkin+plain"}}
        keys: dict[str, tuple[int, tuple[str, ...]]] = {}
        for envelope in events.enum(source):
            if "gherkinDocument" in envelope:
                keys = _keys(envelope["gherkinDocument"])
            if "pickle" in envelope:
                pickle = envelope["pickle"]
                line, row = keys.get(pickle["astNodeIds"][-1], (0, ()))
                name = pickle["name"] + (f" [{' | '.join(row)}]" if row else "")
                key = names.get((uri, line, name))
                if key is None:
                    continue  # not run: retired, not selected, another shard's
                matched[key] = pickle
            self.emit(**envelope)

    def _run(self, case: dict[str, Any], scenario: ScenarioResult, probe: bool) -> None:
        started = next(self.ids)
        self.emit(testCaseStarted={"attempt": 0, "id": started, "testCaseId": case["id"],
                                   "timestamp": _timestamp(self.clock)})
        statuses = self._statuses(scenario, probe, len(case["testSteps"]))
        each = scenario.duration / max(len(case["testSteps"]), 1)
        for step, (status, message) in zip(case["testSteps"], statuses, strict=True):
            self.emit(testStepStarted={"testCaseStartedId": started, "testStepId": step["id"],
                                       "timestamp": _timestamp(self.clock)})
            self.clock += each
            result: dict[str, Any] = {"status": status, "duration": _timestamp(each)}
            if message:
                result["message"] = message
            self.emit(testStepFinished={"testCaseStartedId": started, "testStepId": step["id"],
                                        "testStepResult": result,
                                        "timestamp": _timestamp(self.clock)})
        self.emit(testCaseFinished={"testCaseStartedId": started, "willBeRetried": False,
                                    "timestamp": _timestamp(self.clock)})

    @staticmethod
    def _statuses(scenario: ScenarioResult, probe: bool, count: int
                  ) -> list[tuple[str, str]]:
        """Each step's status and message: as it ran; skipped, all, for an unsupported
        scenario; pending where it failed for a known failure or a probe (they fail
        nothing); a failure before the first step is the first step's."""
        known = scenario.known or probe
        failed = "PENDING" if known else "FAILED"
        if not scenario.played:
            return [("SKIPPED", scenario.message if i == 0 else "") for i in range(count)]
        ran = [(_STATUS.get(s.status, "UNKNOWN"), "") for s in scenario.steps][:count]
        ran += [("SKIPPED", "")] * (count - len(ran))
        bad = scenario.not_passing
        if bad and not any(s == "FAILED" for s, _ in ran) and ran:
            ran[0] = ("FAILED", "")
        return [(failed if s == "FAILED" else s, scenario.message if s == "FAILED" else m)
                for s, m in ran]


def render_cucumber_messages(report: Report) -> str:
    return _Writer(report).render()


FORMAT = Format("cucumber_messages", "write the run as Cucumber Messages (NDJSON, what "
                "Cucumber's own tools read), the pickles tagged with their rule ids",
                render_cucumber_messages)
