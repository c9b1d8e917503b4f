"""Per-engine expectations: the known failures an engine team keeps in its own repository.

An engine that breaks three rules today should still get a green CI that
turns red on a *new* break. So a team lists its known failures (a whole rule,
or one scenario, with the reason and an issue link) in a YAML file; a known
failure runs and is reported ``xfail``; one that passes now is ``xpass``, and
``--strict-expectations`` makes that fail the run, so stale entries get
removed. ``rules-oracle expectations --from r.json`` writes the file from a
run's JSON report: one entry per scenario that did not pass (fail, error, or blocked),
under the rule it is charged to (a blocked scenario's is the rule that blocked it), so a
run on the same engine with that file is green, also under ``--strict-expectations``.

A scenario whose outcome is luck (``flaky`` under ``--repeat N``: its runs ended
differently) is listed under ``known_flaky``, as WPT's expectations list a test's
``known_intermittent`` statuses: each run of it that does not pass is ``xfail``, each that
passes is ``pass``, and its runs together are ``xfail`` with their ``outcomes``, so the run
stays green; a flaky scenario no entry lists still fails the run. A known failure that
passes in some runs only is not a known flaky one: it stays ``flaky`` (move it to
``known_flaky`` if that is what it is).

File format::

    # expectations for my engine
    known_failures:
      - rule: ti4:2.4
        reason: hand limit not implemented yet
        issue: https://example.org/my-engine/issues/12
      - scenario: Sabotage cancels a card: no effect, both discarded
        reason: cancelled cards stay in hand (fix pending)
    known_flaky:
      - rule: ti4:2.4
        scenario: The player chooses the seven cards to keep and discards the rest
        reason: the limit comes from an unseeded generator (fix pending)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from oracle.report.model import Report, ScenarioVerdict, Status
from oracle.suite import filecheck

LISTS = ("known_failures", "known_flaky")
"""The lists of an expectations file: the known failures, the scenarios known to be flaky."""


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
    #: Listed under ``known_flaky``: its runs may pass or fail (``xfail`` when they fail).
    flaky: bool = False

    def matches(self, rules: Iterable[str], scenario: str) -> bool:
        if self.scenario is not None and self.scenario != scenario:
            return False
        return self.rule is None or self.rule in rules

    def where(self, path: Path) -> str:
        kind = "known flaky" if self.flaky else "known failure"
        why = f"{kind} ({path}:{self.line}): {self.reason}"
        return why + (f" [{self.issue}]" if self.issue else "")


def charged_rules(verdict: ScenarioVerdict) -> tuple[str, ...]:
    """The rules a scenario's outcome is charged to: for a blocked scenario the rule whose
    check failed first (its own rule was never tested), else the rules it cites."""
    if verdict.blocked_by and verdict.status == Status.BLOCKED:
        return (verdict.blocked_by,)
    return verdict.rules


@dataclass(frozen=True)
class Expectations:
    path: Path
    entries: tuple[KnownFailure, ...]
    #: ``known_flaky``: scenarios (or rules) whose runs may pass or fail.
    flaky: tuple[KnownFailure, ...] = ()

    def match(self, rules: Iterable[str], scenario: str) -> KnownFailure | None:
        """The first known failure, else the first known flaky entry, that lists a scenario
        of this name charged to one of these rules."""
        rules = tuple(rules)
        return next((e for e in (*self.entries, *self.flaky) if e.matches(rules, scenario)),
                    None)

    def known_flaky(self, runs: Iterable[ScenarioVerdict]) -> KnownFailure | None:
        """The ``known_flaky`` entry that lists a scenario whose runs (``--repeat N``)
        ended differently, if its runs are what that entry allows: a run that did not pass
        is ``xfail`` by that entry; None when one is ``xpass`` (a known failure that
        passes in some runs is not known to be flaky)."""
        runs = tuple(runs)
        if any(v.status == Status.XPASS for v in runs):
            return None
        for verdict in runs:
            if verdict.status == Status.XFAIL:  # a blocked one keeps the rule it is charged
                charged = (verdict.blocked_by,) if verdict.blocked_by else verdict.rules
                entry = self.match(charged, verdict.name)
                return entry if entry is not None and entry.flaky else None
        return None

    def whole_rules(self) -> set[str]:
        """The rules listed as known failures as a whole (an entry with no scenario): such a
        rule is ``xpass`` when every scenario of it passes."""
        return {e.rule for e in self.entries if e.rule and e.scenario is None}

    def known(self, verdict: ScenarioVerdict) -> KnownFailure | None:
        """The entry that lists this scenario's outcome as known, if any.

        A failure, error or blocked scenario is known when an entry names its scenario (or
        none) under a rule it is charged to (``charged_rules``): a scenario listed as
        blocked by ti4:2.4 that now fails its own rule is a new failure. A passing scenario
        is known when a known failure names it, under whichever rule of its game (it passes
        now: ``xpass``); a rule-level entry is judged on the whole rule (``build_report``).
        A known flaky scenario that passes is simply ``pass``: passing is one of its
        outcomes.
        """
        if verdict.status in (Status.FAIL, Status.ERROR, Status.BLOCKED):
            return self.match(charged_rules(verdict), verdict.name)
        if verdict.status == Status.PASS:
            return next((e for e in self.entries if e.scenario == verdict.name
                         and (e.rule is None or e.rule.partition(":")[0] == verdict.game)),
                        None)
        return None

    def apply(self, verdict: ScenarioVerdict) -> tuple[ScenarioVerdict, KnownFailure | None]:
        """The verdict with this file applied (``xfail``: known and still failing;
        ``xpass``: known and passing now), and the entry that matched."""
        entry = self.known(verdict)
        if entry is None:
            return verdict, None
        why = entry.where(self.path)
        if verdict.status == Status.PASS:
            return replace(verdict, status=Status.XPASS, message=(
                f"{why}: it passes now; remove the entry at {self.path}:{entry.line}")), entry
        return replace(verdict, status=Status.XFAIL, message=f"{why}\n{verdict.message}"), entry


def load_expectations(path: Path, known_ids: Iterable[str]) -> Expectations:
    """Read and check an expectations file against the catalogs' rule ids."""
    try:
        text = path.read_text(encoding="utf-8")
        root = yaml.compose(text)
    except (OSError, yaml.YAMLError) as exc:
        raise ExpectationsError(f"{path}: cannot read the expectations file ({exc})") from exc
    data: Any = yaml.safe_load(text) if root is not None else None
    if not isinstance(data, dict) or not any(isinstance(data.get(k), list) for k in LISTS):
        raise ExpectationsError(
            f"{path}:1: an expectations file needs a 'known_failures:' list (or a "
            "'known_flaky:' one); write it with 'rules-oracle expectations --from report.json'"
        )
    if found := filecheck.problem(path, data, "expectations", text):
        raise ExpectationsError(f"{found}; see 'rules-oracle expectations --help'")
    ids = set(known_ids)
    lists = {k.value: v for k, v in root.value}
    failures, flaky = ([_entry(path, node, entry, ids, flaky=name == "known_flaky")
                        for node, entry in zip(lists[name].value, data[name], strict=True)]
                       if isinstance(data.get(name), list) else [] for name in LISTS)
    return Expectations(path, tuple(failures), tuple(flaky))


def _entry(path: Path, node: yaml.Node, entry: Any, ids: set[str], *, flaky: bool
           ) -> KnownFailure:
    line = node.start_mark.line + 1
    what = "known flaky scenario" if flaky else "known failure"
    if not isinstance(entry, dict) or not (entry.get("rule") or entry.get("scenario")):
        raise ExpectationsError(f"{path}:{line}: each {what} needs 'rule' (e.g. ti4:2.4) or "
                                f"'scenario' (its name), got {entry!r}")
    if not entry.get("reason"):
        raise ExpectationsError(f"{path}:{line}: say why this {what} is expected "
                                "('reason: ...'), so the next reader knows when to remove it")
    rule = entry.get("rule")
    if rule is not None and str(rule) not in ids:
        raise ExpectationsError(f"{path}:{line}: {rule!r} is not a rule id of any catalog "
                                "in this run")
    return KnownFailure(reason=str(entry["reason"]), rule=str(rule) if rule else None,
                        scenario=entry.get("scenario"), issue=entry.get("issue"), line=line,
                        flaky=flaky)


def from_report(report: Report) -> str:
    """An expectations file listing every scenario of a report that did not pass (fail,
    error, blocked, or already a known failure), each once, under the rule it is charged to;
    a flaky one (``--repeat N``: its runs ended differently, or it is already known to be
    flaky) under ``known_flaky``.

    One entry per scenario, not per rule: with a rule-level entry, a new failure in a rule
    that already had a known one would stay ``xfail``, and the run green. A blocked
    scenario is listed under the rule that blocked it (its charge), not its own: left out,
    the next run is red on it; under its own rule, a run where that rule is finally tested
    and fails would stay green. A rule-level entry can still be written by hand (leave out
    ``scenario``).
    """
    lists: dict[str, dict[tuple[str, str], dict[str, str]]] = {k: {} for k in LISTS}
    seen: set[tuple[str, str]] = set()
    for rule in report.rules:
        for scenario in rule.deciding():  # a probe's never fail: none needed
            key = (scenario.location, scenario.name)
            if not scenario.not_passing or key in seen:
                continue
            seen.add(key)
            lines = [ln for ln in scenario.message.strip().splitlines()
                     if not ln.startswith(("line ", "known failure (", "known flaky (",
                                           "flaky: ", "known flaky: "))]
            why = lines[0] if lines else str(scenario.status)
            flaky = (scenario.status == Status.FLAKY or bool(scenario.outcomes)
                     or scenario.message.startswith("known flaky"))
            lists["known_flaky" if flaky else "known_failures"][key] = {
                "rule": scenario.blocked_by or rule.id, "scenario": scenario.name,
                "reason": why[:200], "issue": ""}
    spec = report.engine.get("spec", "?")
    header = (f"# Known failures of engine {spec}, written by 'rules-oracle expectations "
              "--from':\n# one per scenario that did not pass (fail, error, blocked), under "
              "the rule it is charged to;\n# a scenario whose runs ended differently "
              "(--repeat N: flaky) under known_flaky.\n# Fill in each issue link; remove an "
              "entry when its scenario passes (--strict-expectations reports a known\n# "
              "failure that passes as xpass).\n")
    data: dict[str, Any] = {"known_failures": list(lists["known_failures"].values())}
    if lists["known_flaky"]:
        data["known_flaky"] = list(lists["known_flaky"].values())
    return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
