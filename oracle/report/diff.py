"""What changed between two runs' reports: the question a pull request's CI asks.

``rules-oracle diff OLD.json NEW.json`` compares rules and scenarios by id and name:

- regressed: failing now (``fail`` or ``error``) and not failing before; a scenario that
  appears failing counts too, since that is how a new regression inside a rule that already
  had a known failure shows;
- fixed: failing before and not now;
- changed: any other change of status (say ``pass`` to ``unsupported``: coverage lost);
- appeared / disappeared: rules or scenarios in one report only.

A regression makes the command exit 1, so a workflow can fail on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from oracle.report.model import FAILING, Report, Status


@dataclass(frozen=True)
class Change:
    """One rule or scenario whose status differs between the two reports."""

    kind: str  # "rule" or "scenario"
    rule: str
    name: str  # the scenario's name; the rule id again for a rule
    old: Status | None  # None: not in the old report
    new: Status | None  # None: not in the new report

    @property
    def category(self) -> str:
        if self.old is None:
            return "regressed" if self.new in FAILING else "appeared"
        if self.new is None:
            return "disappeared"
        if self.new in FAILING and self.old not in FAILING:
            return "regressed"
        if self.old in FAILING and self.new not in FAILING:
            return "fixed"
        return "changed"

    def __str__(self) -> str:
        what = self.rule if self.kind == "rule" else f"{self.rule} scenario {self.name!r}"
        return f"{what}: {self.old or '(absent)'} -> {self.new or '(absent)'}"


CATEGORIES = ("regressed", "fixed", "changed", "appeared", "disappeared")


@dataclass(frozen=True)
class ReportDiff:
    changes: tuple[Change, ...] = field(default_factory=tuple)

    def of(self, category: str) -> list[Change]:
        return [c for c in self.changes if c.category == category]

    @property
    def regressed(self) -> bool:
        return bool(self.of("regressed"))

    def render(self) -> str:
        """Plain text (valid Markdown too): a heading per category with changes."""
        if not self.changes:
            return "no change: every rule and scenario has the status it had\n"
        out = []
        for category in CATEGORIES:
            found = self.of(category)
            if found:
                out.append(f"{category} ({len(found)}):")
                out += [f"- {c}" for c in found]
        return "\n".join(out) + "\n"


def _scenarios(report: Report) -> Iterator[tuple[tuple[str, str], Status]]:
    for rule in report.rules:
        for scenario in rule.scenarios:
            yield (rule.id, scenario.name), scenario.status


def diff_reports(old: Report, new: Report) -> ReportDiff:
    """Every rule and scenario whose status differs, in the new report's order."""
    changes: list[Change] = []
    old_rules = {r.id: r.status for r in old.rules}
    new_rules = {r.id: r.status for r in new.rules}
    for rid in [*new_rules, *(r for r in old_rules if r not in new_rules)]:
        before, after = old_rules.get(rid), new_rules.get(rid)
        if before != after:
            changes.append(Change("rule", rid, rid, before, after))
    old_scen, new_scen = dict(_scenarios(old)), dict(_scenarios(new))
    for key in [*new_scen, *(k for k in old_scen if k not in new_scen)]:
        before, after = old_scen.get(key), new_scen.get(key)
        if before != after:
            changes.append(Change("scenario", key[0], key[1], before, after))
    return ReportDiff(tuple(changes))
