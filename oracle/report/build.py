"""Building a run's report: every rule of every catalog, joined to the scenario verdicts.

Every rule of every catalog in the run appears, covered or not: a report that leaves out
the rules nobody tested would read as a clean bill of health. A committee's rulings appear
as rows under the rule they refine (an official ruling counts like the rule's own scenarios;
a probe is shown with whether the engine agrees, and counts for nothing), the scenarios they
retire are shown with the reason, and the rule ids they add follow their game's catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oracle.report.model import (
    NOT_SELECTED,
    Report,
    RetiredScenario,
    RuleResult,
    RulingResult,
    ScenarioResult,
    ScenarioVerdict,
    Status,
    summarise,
)
from oracle.suite.catalog import Catalog, Rule

if TYPE_CHECKING:
    from oracle.suite.rulings import Ruling, Rulings

#: Which scenario status decides a rule's status, most telling first. A blocked scenario
#: leaves its rule unverified: the rule is blocked unless it fails outright.
_DECIDING = (Status.FAIL, Status.ERROR, Status.FLAKY, Status.XPASS, Status.BLOCKED,
             Status.XFAIL, Status.PASS)


def rule_status(testable: bool, scenario_statuses: Iterable[Status]) -> Status:
    """A rule's status from its scenarios': any failure fails it; all unsupported is
    unsupported; none at all (or only explorations that never exercised it) is uncovered;
    only scenarios the run's edition cannot test (``--edition``) is untestable."""
    if not testable:
        return Status.UNTESTABLE
    statuses = set(scenario_statuses) - {Status.UNCOVERED}
    if statuses == {Status.UNTESTABLE}:
        return Status.UNTESTABLE
    statuses.discard(Status.UNTESTABLE)
    if not statuses:
        return Status.UNCOVERED
    return next((s for s in _DECIDING if s in statuses), Status.UNSUPPORTED)


def ruling_status(scenario_statuses: Iterable[Status]) -> Status:
    """A ruling's status from its scenarios': as a rule's, except that a ruling the engine
    plays only in part is ``unsupported``, never ``pass``. A ruling is one answer to one
    question: "the engine agrees" must mean with all of it, not with the part it could
    play."""
    statuses = list(scenario_statuses)
    status = rule_status(True, statuses)
    if status == Status.PASS and Status.UNSUPPORTED in statuses:
        return Status.UNSUPPORTED
    return status


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
    rulings: Rulings | None = None,
    locate: Callable[[Path], str] = str,
    lang: str | None = None,
) -> Report:
    """Join verdicts to catalog rules (and the rules rulings add); every rule gets a result.

    ``expected_to_fail`` are rule ids an expectations file lists as known
    failures: such a rule whose scenarios all pass now is ``xpass``. ``lang``: rule texts
    in that language (and its numbering) where the catalog has them.
    """
    by_rule: dict[str, list[ScenarioResult]] = {}
    by_ruling: dict[str, list[ScenarioResult]] = {}
    ran = set()
    for verdict in sorted(verdicts, key=lambda v: scenario_order(v.location, v.name, v.steps)):
        ran.add((verdict.location, verdict.name))
        if verdict.ruling:
            by_ruling.setdefault(verdict.ruling, []).append(ScenarioResult.of(verdict))
        else:
            for rule_id in verdict.rules:
                by_rule.setdefault(rule_id, []).append(ScenarioResult.of(verdict))
        if verdict.blocked_by and not verdict.probe:  # blocked, or known (xfail) blocked
            by_rule.setdefault(verdict.blocked_by, []).append(ScenarioResult.charge(verdict))
    results = []
    for catalog in catalogs:
        added = rulings.added_rules(catalog.game) if rulings else []
        for rule in (*catalog.rules, *added):
            results.append(rule_result(
                rule.id, rule.text_in(lang), rule.testable, by_rule.get(rule.id, []),
                [ruling_result(r, by_ruling.get(r.id, []), locate)
                 for r in (rulings.of_rule(rule.id) if rulings else [])],
                untestable_reason=rule.untestable_reason,
                not_selected=selected is not None and rule.id not in selected,
                known_failure=bool(expected_to_fail) and rule.id in expected_to_fail,
                retired=_retired(rule, rulings, locate), added_by=_declarer(rule, rulings)))
    return Report(dict(engine), tuple(results), summarise(results, len(ran)))


def rule_result(rule_id: str, text: str, testable: bool, own: Iterable[ScenarioResult],
                refining: Iterable[RulingResult], *, untestable_reason: str = "",
                not_selected: bool = False, known_failure: bool = False,
                retired: tuple[RetiredScenario, ...] = (), added_by: str | None = None
                ) -> RuleResult:
    """One rule's result from its scenarios (its own and the failures charged to it) and
    its rulings': its status (``rule_status``; ``xpass`` for a known failure that passes)
    and the reason a rule that was not tested gives. A run builds each rule with it, and
    ``oracle.report.combine`` rebuilds each from its shards' scenarios with it, so that
    the two cannot disagree."""
    own, refining = tuple(own), tuple(refining)
    counting = [*own, *(s for r in refining if not r.probe for s in r.scenarios)]
    status = rule_status(testable, [s.counts_as for s in counting])
    scenarios = [s for s in counting if s.exercised is None]
    if status == Status.PASS and scenarios and all(
            s.counts_as == Status.UNSUPPORTED for s in scenarios):
        # Exploration can fail a rule, but not pass one the engine could run no scenario
        # of: an invariant standing for several rules held on an engine that lacks what
        # every scenario of this one needs (an engine that cannot appoint passed
        # 6.action-cards.8, "play the card ... or Appoint", on cards conserved).
        status = Status.UNSUPPORTED
        counting = [*scenarios, *(s for s in counting if s not in scenarios)]
    reason = _reason(status, counting, refining, untestable_reason, not_selected)
    if status == Status.PASS and known_failure:
        status, reason = Status.XPASS, KNOWN_PASSES
    return RuleResult(rule_id, status, text, own, reason, refining, retired, added_by)


KNOWN_PASSES = "listed as a known failure, but it passes now"
"""The reason of an ``xpass`` rule."""


def _reason(status: Status, counting: list[ScenarioResult], refining: tuple[RulingResult, ...],
            untestable_reason: str, not_selected: bool) -> str:
    if status == Status.UNTESTABLE:
        return untestable_reason or (counting[0].message if counting else "")
    if status == Status.UNCOVERED:
        if not_selected:
            return NOT_SELECTED
        if counting:  # explorations that never exercised it say why
            return counting[0].message
        if refining and all(r.probe for r in refining):
            return "only rulings that are probes (pending, disputed or superseded) refine it"
        return "no scenario for it ran"
    if status == Status.UNSUPPORTED:
        return counting[0].message
    return ""


def ruling_result(ruling: Ruling, scenarios: list[ScenarioResult],
                  locate: Callable[[Path], str] = str) -> RulingResult:
    """A ruling's row: its provenance, and its status from how its scenarios ran."""
    return RulingResult(
        ruling.id, ruling_status(s.status for s in scenarios), str(ruling.standing),
        ruling.refines,
        ruling.source, ruling.date, ruling.authority, f"{locate(ruling.path)}:{ruling.line}",
        ruling.superseded_by, tuple(scenarios))


def _retired(rule: Rule, rulings: Rulings | None, locate: Callable[[Path], str]
             ) -> tuple[RetiredScenario, ...]:
    if rulings is None:
        return ()
    return tuple(RetiredScenario(t.scenario, _relocate(t.location, locate), t.by, t.reason,
                                 t.replaced, t.effective)
                 for ruling in sorted(rulings.by_id.values(), key=lambda r: r.id)
                 for t in ruling.retires if rule.id in t.rules)


def _relocate(location: str, locate: Callable[[Path], str]) -> str:
    path, _, line = location.rpartition(":")
    return f"{locate(Path(path))}:{line}" if path else location


def _declarer(rule: Rule, rulings: Rulings | None) -> str | None:
    """The ruling that adds a committee rule id: an official one if any, else the first."""
    if rulings is None or rule.kind != "committee":
        return None
    adding = [r for r in rulings.of_rule(rule.id) if r.adds is not None]
    return next((r.id for r in adding if not r.probe), adding[0].id if adding else None)
