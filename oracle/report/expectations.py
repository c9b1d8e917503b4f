"""Per-engine expectations: the known failures an engine team keeps in its own repository.

An engine that breaks three rules today should still get a green CI that
turns red on a *new* break. So a team lists its known failures (a whole rule,
or one scenario, with the reason and an issue link) in a YAML file; a known
failure runs and is reported ``xfail``; one that passes now is ``xpass``, and
``--strict-expectations`` makes that fail the run, so stale entries get
removed. ``rules-oracle expectations --from r.json`` writes the file from a
run's JSON report.

File format::

    # expectations for my engine
    known_failures:
      - rule: ti4:2.4
        reason: hand limit not implemented yet
        issue: https://example.org/my-engine/issues/12
      - scenario: Sabotage cancels a card: no effect, both discarded
        reason: cancelled cards stay in hand (fix pending)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from oracle.report.model import Report, Status


class ExpectationsError(Exception):
    """A malformed expectations file; the message names the file, the line and the fix."""


@dataclass(frozen=True)
class KnownFailure:
    """One entry: a rule id or a scenario name that is expected to fail, and why."""

    reason: str
    rule: str | None = None
    scenario: str | None = None
    issue: str | None = None
    line: int = 0

    def matches(self, rules: Iterable[str], scenario: str) -> bool:
        if self.scenario is not None and self.scenario != scenario:
            return False
        return self.rule is None or self.rule in rules


@dataclass(frozen=True)
class Expectations:
    path: Path
    entries: tuple[KnownFailure, ...]

    def match(self, rules: Iterable[str], scenario: str) -> KnownFailure | None:
        rules = tuple(rules)
        return next((e for e in self.entries if e.matches(rules, scenario)), None)


def load_expectations(path: Path, known_ids: Iterable[str]) -> Expectations:
    """Read and check an expectations file against the catalogs' rule ids."""
    try:
        text = path.read_text(encoding="utf-8")
        root = yaml.compose(text)
    except (OSError, yaml.YAMLError) as exc:
        raise ExpectationsError(f"{path}: cannot read the expectations file ({exc})") from exc
    data: Any = yaml.safe_load(text) if root is not None else None
    if not isinstance(data, dict) or not isinstance(data.get("known_failures"), list):
        raise ExpectationsError(
            f"{path}:1: an expectations file needs a 'known_failures:' list; write it with "
            "'rules-oracle expectations --from report.json'"
        )
    nodes = next(v for k, v in root.value if k.value == "known_failures").value
    ids = set(known_ids)
    entries = []
    for node, entry in zip(nodes, data["known_failures"], strict=True):
        line = node.start_mark.line + 1
        if not isinstance(entry, dict) or not (entry.get("rule") or entry.get("scenario")):
            raise ExpectationsError(f"{path}:{line}: each known failure needs 'rule' (e.g. "
                                    f"ti4:2.4) or 'scenario' (its name), got {entry!r}")
        if not entry.get("reason"):
            raise ExpectationsError(f"{path}:{line}: say why this failure is expected "
                                    "('reason: ...'), so the next reader knows when to remove it")
        rule = entry.get("rule")
        if rule is not None and str(rule) not in ids:
            raise ExpectationsError(f"{path}:{line}: {rule!r} is not a rule id of any catalog "
                                    "in this run")
        entries.append(KnownFailure(
            reason=str(entry["reason"]), rule=str(rule) if rule else None,
            scenario=entry.get("scenario"), issue=entry.get("issue"), line=line))
    return Expectations(path, tuple(entries))


def from_report(report: Report) -> str:
    """An expectations file listing every scenario a report flags (fail, error or xfail).

    One entry per failing scenario (with its rule), not per rule: with a rule-level entry,
    a new failure in a rule that already had a known one would stay ``xfail``, and the run
    green. A rule-level entry can still be written by hand (leave out ``scenario``).
    """
    flagged = (Status.FAIL, Status.ERROR, Status.XFAIL)
    entries = []
    for rule in report.rules:
        for scenario in rule.scenarios:
            if scenario.status not in flagged:
                continue
            lines = [ln for ln in scenario.message.strip().splitlines()
                     if not ln.startswith(("line ", "known failure ("))]
            why = lines[0] if lines else str(scenario.status)
            entries.append({"rule": rule.id, "scenario": scenario.name, "reason": why[:200],
                            "issue": ""})
    spec = report.engine.get("spec", "?")
    header = (f"# Known failures of engine {spec}, written by "
              "'rules-oracle expectations --from', one per failing scenario.\n# Fill in "
              "each issue link; remove an entry when its scenario passes "
              "(--strict-expectations reports it as xpass).\n")
    return header + yaml.safe_dump({"known_failures": entries}, sort_keys=False,
                                   allow_unicode=True, width=100)
