"""JUnit XML from the report (``--junitxml PATH``), with rule ids and statuses as properties.

Why our own rather than pytest's ``--junitxml``: CI dashboards (GitLab, Jenkins, GitHub
test reporters) read JUnit, and what they should show is rules. Each scenario is one test
case (whatever the rules it cites, blocked or not: a dashboard counts scenarios), classed by
the rule it is charged to (a blocked scenario's is the rule that blocked it) and carrying
``rule`` (the rules it cites), ``rule_status`` and ``status`` properties. Every rule of the
report is a property of its game's test suite with its status (and why, for a rule no
scenario tested), so that every rule appears. Written from the report, it is complete
under xdist, written atomically and marked when the run was interrupted.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.etree import ElementTree as ET

from oracle.report.formats import Format
from oracle.report.model import Report, RuleResult, RulingResult, ScenarioResult, Status

_SKIPPED = (Status.UNSUPPORTED, Status.XFAIL, Status.UNTESTABLE)


def _properties(parent: ET.Element, items: Iterable[tuple[str, str]]) -> None:
    props = ET.SubElement(parent, "properties")
    for name, value in items:
        ET.SubElement(props, "property", name=name, value=value)


def _case(suite: ET.Element, charged: RuleResult, rules: str, scenario: ScenarioResult,
          status: Status, ruling: RulingResult | None = None) -> str:
    """Add one scenario's test case; return its outcome: passed, failure, error or skipped.

    A ruling's scenario carries the ruling's id, standing and provenance as properties too;
    a probe's (pending, disputed, superseded) that the engine disagrees with is skipped,
    never a failure: it fails nothing in the run either."""
    where, _, line = scenario.location.rpartition(":")
    case = ET.SubElement(suite, "testcase", classname=charged.id, name=scenario.name,
                         time=f"{scenario.duration:.4f}")
    if where and line.isdigit():
        case.set("file", where)
        case.set("line", line)
    extra = [] if ruling is None else [
        ("ruling", ruling.id), ("ruling_status", ruling.status_text),
        ("ruling_source", ruling.source), ("ruling_date", ruling.date),
        ("ruling_authority", ruling.authority), ("probe", str(ruling.probe).lower())]
    blocked = [("blocked_by", scenario.blocked_by)] if scenario.blocked_by else []
    _properties(case, [("rule", rules), ("rule_status", str(charged.status)),
                       ("status", str(scenario.status)), *blocked, *extra])
    message = scenario.message
    first = message.strip().splitlines()[0] if message.strip() else str(status)
    if ruling is not None and ruling.probe and status != Status.PASS:
        ET.SubElement(case, "skipped", message=f"probe ({ruling.status_text}), {status}: "
                      f"{first}")
        return "skipped"
    if status in (Status.FAIL, Status.FLAKY):  # flaky: failed in some of its runs
        ET.SubElement(case, "failure", message=first, type=str(status)).text = message
        return "failure"
    if status == Status.ERROR:
        ET.SubElement(case, "error", message=first, type="error").text = message
        return "error"
    if status in _SKIPPED:
        ET.SubElement(case, "skipped", message=f"{status}: {first}")
        return "skipped"
    return "passed"


def _scenarios(report: Report
               ) -> list[tuple[RuleResult, str, ScenarioResult, Status, RulingResult | None]]:
    """Each scenario once: the rule charged (a blocked scenario's blocker), the rules it
    cites, its line under its own rule, and its outcome (a blocked one's is its charge's)."""
    charges = report.charges()
    seen: dict[tuple[str, str], list[str]] = {}
    found = []
    for rule, scenario, ruling in report.each_scenario():
        key = (scenario.location, scenario.name)
        if key in seen:  # a scenario citing several rules: one case, every rule
            seen[key].append(rule.id)
            continue
        seen[key] = [rule.id]
        charged, status = rule, scenario.status
        if key in charges:
            charged, status = charges[key][0], charges[key][1].status
        found.append((charged, key, scenario, status, ruling))
    return [(charged, " ".join(seen[key]), scenario, status, ruling)
            for charged, key, scenario, status, ruling in found]


def render_junit(report: Report) -> str:
    root = ET.Element("testsuites", name="rules-oracle")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    games = list(dict.fromkeys(r.id.partition(":")[0] for r in report.rules))
    for game in games:
        rules = [r for r in report.rules if r.id.partition(":")[0] == game]
        suite = ET.SubElement(root, "testsuite", name=game)
        _properties(suite, [("engine", str(report.engine.get("spec", "?"))),
                            ("seed", str(report.engine.get("seed", 0))),
                            ("interrupted", str(report.interrupted).lower()),
                            *((r.id, f"{r.status}: {r.reason}" if r.reason and not
                               r.scenarios else str(r.status)) for r in rules)])
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        game_report = Report(report.engine, tuple(rules))
        for charged, cited, scenario, status, ruling in _scenarios(game_report):
            outcome = _case(suite, charged, cited, scenario, status, ruling)
            counts["tests"] += 1
            if outcome != "passed":
                counts[{"failure": "failures", "error": "errors"}.get(
                    outcome, "skipped")] += 1
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    head = '<?xml version="1.0" encoding="utf-8"?>'
    if report.interrupted:
        head += "<!-- rules-oracle: INTERRUPTED run, a partial report -->"
    return head + "\n" + ET.tostring(root, encoding="unicode") + "\n"


FORMAT = Format("junitxml", "write the report as JUnit XML (one test case per scenario, with "
                "rule ids and statuses as properties)", render_junit)
