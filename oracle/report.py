"""The per-rule conformance report: built from verdicts and catalogs, rendered three ways.

Every rule of every catalog in the run appears, covered or not: a report that
leaves out the rules nobody tested would read as a clean bill of health.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from oracle.catalog import Catalog
from oracle.verdicts import ScenarioVerdict

RULE_STATUSES = ("pass", "fail", "error", "xfail", "xpass", "unsupported", "untestable",
                 "uncovered")
FAILING = ("fail", "error")


@dataclass(frozen=True)
class RuleResult:
    """One rule's status in a run and the scenarios that decided it."""

    id: str
    status: str
    text: str
    scenarios: tuple[ScenarioVerdict, ...] = ()
    reason: str = ""

    def count(self, status: str) -> int:
        return sum(1 for s in self.scenarios if s.status == status)


@dataclass(frozen=True)
class ConformanceReport:
    engine: dict[str, Any]
    rules: tuple[RuleResult, ...]
    summary: dict[str, int] = field(default_factory=dict)

    @property
    def conforms(self) -> bool:
        """True when no applicable rule fails or errors."""
        return not any(r.status in FAILING for r in self.rules)

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "rules": [
                {
                    "id": r.id,
                    "status": r.status,
                    "text": r.text,
                    **({"reason": r.reason} if r.reason else {}),
                    "scenarios": [
                        {"name": s.name, "status": s.status, "location": s.location,
                         "message": s.message, "duration": round(s.duration, 4)}
                        for s in r.scenarios
                    ],
                }
                for r in self.rules
            ],
            "summary": self.summary,
        }


def _rule_status(testable: bool, verdicts: list[ScenarioVerdict]) -> str:
    if not testable:
        return "untestable"
    statuses = {v.status for v in verdicts}
    if not statuses:
        return "uncovered"
    for status in ("fail", "error", "xpass", "xfail"):
        if status in statuses:
            return status
    return "pass" if "pass" in statuses else "unsupported"


def build_report(
    catalogs: Iterable[Catalog],
    verdicts: Iterable[ScenarioVerdict],
    engine: dict[str, Any],
    selected: set[str] | None = None,
    expected_to_fail: set[str] | None = None,
) -> ConformanceReport:
    """Join verdicts to catalog rules; every catalog rule gets a result.

    ``expected_to_fail`` are rule ids an expectations file lists as known
    failures: such a rule whose scenarios all pass now is ``xpass``.
    """
    by_rule: dict[str, list[ScenarioVerdict]] = {}
    for verdict in verdicts:
        for rule_id in verdict.rules:
            by_rule.setdefault(rule_id, []).append(verdict)
    results = []
    for catalog in catalogs:
        for rule in catalog.rules:
            scenarios = by_rule.get(rule.id, [])
            status = _rule_status(rule.testable, scenarios)
            reason = ""
            if status == "pass" and expected_to_fail and rule.id in expected_to_fail:
                status, reason = "xpass", "listed as a known failure, but it passes now"
            if status == "untestable":
                reason = rule.untestable_reason or ""
            elif status == "uncovered":
                reason = ("not selected in this run" if selected is not None
                          and rule.id not in selected else "no scenario for it ran")
            elif status == "unsupported":
                reason = scenarios[0].message
            results.append(RuleResult(rule.id, status, rule.text, tuple(scenarios), reason))
    summary = {s: sum(1 for r in results if r.status == s) for s in RULE_STATUSES}
    summary["rules"] = len(results)
    summary["scenarios"] = len({(v.location, v.name) for v in by_rule_values(by_rule)})
    return ConformanceReport(engine, tuple(results), summary)


def by_rule_values(by_rule: dict[str, list[ScenarioVerdict]]) -> list[ScenarioVerdict]:
    return [v for vs in by_rule.values() for v in vs]


def _engine_line(engine: dict[str, Any]) -> str:
    names = "; ".join(f"{g}: {e.get('name', '?')} {e.get('version', '')}".strip()
                      for g, e in sorted(engine.get("games", {}).items()))
    return f"engine {engine.get('spec', '?')} ({names or 'no game ran'})"


def render_table(report: ConformanceReport, width: int = 100) -> str:
    """The terminal table: id, status, scenarios passed/failed, the rule text cut to width."""
    id_w = max([len(r.id) for r in report.rules] + [4])
    head = f"{'rule':<{id_w}}  {'status':<11} {'pass':>4} {'fail':>4}  text"
    lines = [_engine_line(report.engine), head, "-" * min(width, max(len(head), 40))]
    text_w = max(width - len(head) + 4, 20)
    for r in report.rules:
        failed = r.count("fail") + r.count("error")
        text = textwrap.shorten(r.text, text_w, placeholder="…")
        lines.append(f"{r.id:<{id_w}}  {r.status:<11} {r.count('pass'):>4} {failed:>4}  {text}")
        if r.status in ("untestable", "unsupported") and r.reason:
            lines.append(f"{'':<{id_w}}  └ {textwrap.shorten(r.reason, width - id_w - 4)}")
    counts = ", ".join(f"{n} {s}" for s, n in report.summary.items()
                       if s in RULE_STATUSES and n)
    lines.append(f"{report.summary.get('rules', 0)} rules: {counts}")
    return "\n".join(lines)


def render_markdown(report: ConformanceReport) -> str:
    """Markdown for a CI job summary: a table, then what failed and why."""
    verdict = "conforms" if report.conforms else "does not conform"
    out = [f"## rules-oracle: {_engine_line(report.engine)} {verdict}", ""]
    counts = " · ".join(f"{n} {s}" for s, n in report.summary.items()
                        if s in RULE_STATUSES and n)
    out += [f"{report.summary.get('rules', 0)} rules: {counts}", ""]
    out += ["| rule | status | passed | failed | text |", "|---|---|---:|---:|---|"]
    for r in report.rules:
        failed = r.count("fail") + r.count("error")
        text = textwrap.shorten(r.text, 90, placeholder="…").replace("|", "\\|")
        status = f"**{r.status}**" if r.status in FAILING else r.status
        out.append(f"| `{r.id}` | {status} | {r.count('pass')} | {failed} | {text} |")
    problems = [(r, s) for r in report.rules for s in r.scenarios if s.status in FAILING]
    if problems:
        out += ["", "### Failures", ""]
        for r, s in problems:
            first = " — ".join(s.message.strip().splitlines()[:2]).replace("|", "\\|")
            out.append(f"- `{r.id}` {s.status}: **{s.name}** (`{s.location}`): {first}")
    untestable = [r for r in report.rules if r.status in ("untestable", "uncovered")]
    if untestable:
        out += ["", "### Not tested", ""]
        out += [f"- `{r.id}` {r.status}: {r.reason}" for r in untestable]
    return "\n".join(out) + "\n"
