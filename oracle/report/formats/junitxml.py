"""JUnit XML from the report (``--junitxml PATH``), with rule ids and statuses as properties.

Why our own rather than pytest's ``--junitxml``: CI dashboards (GitLab, Jenkins, GitHub
test reporters) read JUnit, and what they should show is rules. Each scenario is a test
case named by its scenario and classed by its rule, carrying ``rule``, ``rule_status`` and
``status`` properties; a rule with no scenario that ran (untestable, uncovered) is a skipped
case with its reason, so that every rule of the report appears. Written from the report, it
is complete under xdist, written atomically and marked when the run was interrupted.
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


def _case(suite: ET.Element, rule: RuleResult, scenario: ScenarioResult | None,
          ruling: RulingResult | None = None) -> str:
    """Add one test case; return its outcome: passed, failure, error or skipped.

    A ruling's scenario carries the ruling's id, standing and provenance as properties too;
    a probe's (pending, disputed, superseded) that the engine disagrees with is skipped,
    never a failure: it fails nothing in the run either."""
    name = scenario.name if scenario else f"{rule.id} ({rule.status})"
    where, _, line = (scenario.location if scenario else "").rpartition(":")
    case = ET.SubElement(suite, "testcase", classname=rule.id, name=name,
                         time=f"{scenario.duration:.4f}" if scenario else "0")
    if where and line.isdigit():
        case.set("file", where)
        case.set("line", line)
    status = scenario.status if scenario else rule.status
    extra = [] if ruling is None else [
        ("ruling", ruling.id), ("ruling_status", ruling.status_text),
        ("ruling_source", ruling.source), ("ruling_date", ruling.date),
        ("ruling_authority", ruling.authority), ("probe", str(ruling.probe).lower())]
    _properties(case, [("rule", rule.id), ("rule_status", str(rule.status)),
                       ("status", str(status)), *extra])
    message = scenario.message if scenario else rule.reason
    first = message.strip().splitlines()[0] if message.strip() else str(status)
    if ruling is not None and ruling.probe and status != Status.PASS:
        ET.SubElement(case, "skipped", message=f"probe ({ruling.status_text}), {status}: "
                      f"{first}")
        return "skipped"
    if status == Status.FAIL:
        ET.SubElement(case, "failure", message=first, type="fail").text = message
        return "failure"
    if status == Status.ERROR:
        ET.SubElement(case, "error", message=first, type="error").text = message
        return "error"
    if scenario is None or status in _SKIPPED:
        ET.SubElement(case, "skipped", message=f"{status}: {first}")
        return "skipped"
    return "passed"


def render_junit(report: Report) -> str:
    root = ET.Element("testsuites", name="rules-oracle")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    games = list(dict.fromkeys(r.id.partition(":")[0] for r in report.rules))
    for game in games:
        suite = ET.SubElement(root, "testsuite", name=game)
        _properties(suite, [("engine", str(report.engine.get("spec", "?"))),
                            ("seed", str(report.engine.get("seed", 0))),
                            ("interrupted", str(report.interrupted).lower())])
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for rule in (r for r in report.rules if r.id.partition(":")[0] == game):
            cases = [(s, None) for s in rule.scenarios or [None]] + [
                (s, g) for g in rule.rulings for s in g.scenarios]
            for scenario, ruling in cases:
                outcome = _case(suite, rule, scenario, ruling)
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


FORMAT = Format("junitxml", "write the report as JUnit XML (a test case per scenario, with "
                "rule ids and statuses as properties)", render_junit)
