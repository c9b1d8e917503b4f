"""Building a run's report: every rule of every catalog, joined to the scenario verdicts.

Every rule of every catalog in the run appears, covered or not: a report that leaves out
the rules nobody tested would read as a clean bill of health.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from oracle.report.model import (
    Report,
    RuleResult,
    ScenarioResult,
    ScenarioVerdict,
    Status,
    summarise,
)
from oracle.suite.catalog import Catalog

NOT_SELECTED = "not selected in this run"
"""The reason an uncovered rule gives when the run's --rule left it out."""

#: Which scenario status decides a rule's status, most telling first. A blocked scenario
#: leaves its rule unverified: the rule is blocked unless it fails outright.
_DECIDING = (Status.FAIL, Status.ERROR, Status.XPASS, Status.BLOCKED, Status.XFAIL,
             Status.PASS)


def rule_status(testable: bool, scenario_statuses: Iterable[Status]) -> Status:
    """A rule's status from its scenarios': any failure fails it; all unsupported is
    unsupported; none at all (or only explorations that never exercised it) is uncovered."""
    if not testable:
        return Status.UNTESTABLE
    statuses = set(scenario_statuses) - {Status.UNCOVERED}
    if not statuses:
        return Status.UNCOVERED
    return next((s for s in _DECIDING if s in statuses), Status.UNSUPPORTED)


def scenario_order(location: str, name: str, steps: Iterable[Any] = ()) -> tuple[Any, ...]:
    """Where a scenario sorts in its rule: by file and line (exploration after), so that a
    serial run, an xdist run and combined shards list scenarios in one order."""
    where, _, line = location.rpartition(":")
    texts = tuple(getattr(s, "text", "") for s in steps)  # outline rows share a line
    if line.isdigit():
        return (0, where, int(line), name, texts)
    return (1, location, 0, name, texts)


def build_report(
    catalogs: Iterable[Catalog],
    verdicts: Iterable[ScenarioVerdict],
    engine: Mapping[str, Any],
    selected: set[str] | None = None,
    expected_to_fail: set[str] | None = None,
) -> Report:
    """Join verdicts to catalog rules; every catalog rule gets a result.

    ``expected_to_fail`` are rule ids an expectations file lists as known
    failures: such a rule whose scenarios all pass now is ``xpass``.
    """
    by_rule: dict[str, list[ScenarioResult]] = {}
    ran = set()
    for verdict in sorted(verdicts, key=lambda v: scenario_order(v.location, v.name, v.steps)):
        ran.add((verdict.location, verdict.name))
        for rule_id in verdict.rules:
            by_rule.setdefault(rule_id, []).append(ScenarioResult.of(verdict))
        if verdict.status == Status.BLOCKED and verdict.blocked_by:
            by_rule.setdefault(verdict.blocked_by, []).append(ScenarioResult.charge(verdict))
    results = []
    for catalog in catalogs:
        for rule in catalog.rules:
            scenarios = by_rule.get(rule.id, [])
            status = rule_status(rule.testable, [v.status for v in scenarios])
            reason = ""
            if status == Status.PASS and expected_to_fail and rule.id in expected_to_fail:
                status, reason = Status.XPASS, "listed as a known failure, but it passes now"
            if status == Status.UNTESTABLE:
                reason = rule.untestable_reason or ""
            elif status == Status.UNCOVERED:
                reason = (NOT_SELECTED if selected is not None
                          and rule.id not in selected else scenarios[0].message
                          if scenarios else "no scenario for it ran")
            elif status == Status.UNSUPPORTED:
                reason = scenarios[0].message
            results.append(RuleResult(rule.id, status, rule.text, tuple(scenarios), reason))
    return Report(dict(engine), tuple(results), summarise(results, len(ran)))
