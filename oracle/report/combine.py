"""Combining the reports of CI shards into the report one run would have given.

Why: a CI matrix (``rules-oracle run --shard K/N`` on N machines) is the distributed engine
when one machine is not enough; its N reports must add up to exactly the report of one run
(same rules, statuses, scenario lists in the same order), or CI would judge the engine on a
different verdict than a developer's laptop. Each shard's report lists every rule of its
games; a rule's scenarios are spread over the shards. So the scenarios are merged per rule,
ordered as a run orders them (``oracle.report.build.scenario_order``), and each rule's
status is decided again from all of them, by the same function a run uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from oracle.report.build import rule_result, ruling_status, scenario_order
from oracle.report.model import (
    NOT_SELECTED,
    Report,
    RuleResult,
    RulingResult,
    ScenarioResult,
    Status,
    summarise,
    unique_scenarios,
)


class CombineError(Exception):
    """Reports that are not the shards of one run; the message says which and why."""


def _check(reports: Sequence[tuple[str, Report]]) -> None:
    if not reports:
        raise CombineError("give the JSON reports of the shards to combine")
    first_name, first = reports[0]
    for name, report in reports[1:]:
        if report.repeat != first.repeat:
            raise CombineError(f"{name} ran each scenario {report.repeat} time(s) but "
                               f"{first_name} {first.repeat}: shards of one run share --repeat")
        for key in ("spec", "seed"):
            if report.engine.get(key) != first.engine.get(key):
                raise CombineError(
                    f"{name} ran engine {key} {report.engine.get(key)!r} but {first_name} ran "
                    f"{first.engine.get(key)!r}: shards of one run share --engine and --seed")
        if [r.id for r in report.rules] != [r.id for r in first.rules]:
            raise CombineError(f"{name} lists other rules than {first_name}: shards of one run "
                               "select the same rules (the same --rule, --features and games)")
    shards = [(name, r.shard) for name, r in reports]
    if any(shard is not None for _, shard in shards):
        counts = {shard[1] for _, shard in shards if shard}
        unsharded = [name for name, shard in shards if shard is None]
        if unsharded or len(counts) != 1:
            raise CombineError("the reports are not shards of one split: "
                               + ", ".join(f"{n}: {'whole run' if s is None else f'{s[0]}/{s[1]}'}"
                                           for n, s in shards))
        count = counts.pop()
        seen: dict[int, str] = {}
        for name, shard in shards:
            assert shard is not None
            if shard[0] in seen:
                raise CombineError(f"{seen[shard[0]]} and {name} are both shard "
                                   f"{shard[0]}/{count}")
            seen[shard[0]] = name
        missing = [f"{k}/{count}" for k in range(1, count + 1) if k not in seen]
        if missing:
            raise CombineError(f"shard {', '.join(missing)} is missing: combine all {count} "
                               "shards, or the report would pass rules nobody ran")


def _ordered(scenarios: Iterable[ScenarioResult]) -> list[ScenarioResult]:
    return sorted(scenarios, key=lambda s: scenario_order(s.location, s.name, s.steps))


def _merge_rulings(rules: Sequence[RuleResult]) -> list[RulingResult]:
    """A rule's rulings, each with its scenarios from every shard and its status decided
    again from all of them."""
    by_id: dict[str, list[RulingResult]] = {}
    for rule in rules:
        for ruling in rule.rulings:
            by_id.setdefault(ruling.id, []).append(ruling)
    merged = []
    for parts in by_id.values():
        scenarios = _ordered(s for g in parts for s in g.scenarios)
        merged.append(replace(parts[0], status=ruling_status(s.status for s in scenarios),
                              scenarios=tuple(scenarios)))
    return merged


def _merge_rule(rules: Sequence[RuleResult]) -> RuleResult:
    """A rule's result rebuilt from every shard's scenarios, as a run builds it
    (``oracle.report.build.rule_result``). What a report does not store is read from the
    shards: a rule no scenario can test is ``untestable`` in each with no scenario deciding
    it; one left out by ``--rule`` is ``NOT_SELECTED`` in each; a rule-level known failure
    is ``xpass`` in a shard where its scenarios passed."""
    first = rules[0]
    scenarios = _ordered(s for r in rules for s in r.scenarios)
    rulings = _merge_rulings(rules)
    catalog_untestable = all(r.status == Status.UNTESTABLE and not r.deciding() for r in rules)
    return rule_result(
        first.id, first.text, not catalog_untestable, scenarios, rulings,
        untestable_reason=first.reason if catalog_untestable else "",
        not_selected=all(r.reason == NOT_SELECTED for r in rules),
        known_failure=any(r.status == Status.XPASS for r in rules),
        retired=first.retired, added_by=first.added_by)


def combine(reports: Sequence[tuple[str, Report]]) -> Report:
    """The report of the whole run from its shards' reports (``(file name, report)`` pairs,
    for messages). CombineError when they are not all the shards of one run."""
    _check(reports)
    first = reports[0][1]
    rules = tuple(_merge_rule([r.rules[i] for _, r in reports])
                  for i in range(len(first.rules)))
    games: dict[str, Any] = {}
    for _, report in reports:
        for game, info in report.engine.get("games", {}).items():
            games.setdefault(game, info)
    engine = {**first.engine, "games": dict(sorted(games.items()))}
    started = [r.started for _, r in reports if r.started]
    return Report(engine, rules, summarise(rules, len(unique_scenarios(rules))),
                  interrupted=any(r.interrupted for _, r in reports),
                  started=min(started) if started else None, repeat=first.repeat)
