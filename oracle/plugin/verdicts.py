"""From a finished test to a scenario verdict: its status, its message, how to reproduce it.

The verdict is made on the worker that ran the scenario (it alone has the engine's
transcript) and rides to the controller on ``report.user_properties``.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from oracle.engines.spec import DEFAULT_TIMEOUT
from oracle.report.model import USER_PROPERTY, ScenarioVerdict, Status
from oracle.scenario.diagnosis import Blame
from oracle.scenario.outcomes import EngineLacks, RuleViolation
from oracle.suite.bdd import example_row, scenario_behind

if TYPE_CHECKING:
    from oracle.plugin.run import OracleRun
    from oracle.scenario.world import ScenarioWorld

failed_step_key = pytest.StashKey[str]()


def classify(excinfo: pytest.ExceptionInfo[BaseException] | None) -> Status:
    """pass / fail / error / unsupported from how the test call ended.

    A rule violation (or any assertion) is ``fail``: the engine broke the rule.
    Anything else that went wrong (engine crash, protocol error, a scenario
    that cannot run) is ``error``; a missing capability is ``unsupported``.
    """
    if excinfo is None:
        return Status.PASS
    if isinstance(excinfo.value, EngineLacks | pytest.skip.Exception):
        return Status.UNSUPPORTED
    if isinstance(excinfo.value, RuleViolation | AssertionError):
        return Status.FAIL
    return Status.ERROR


def rules_of(item: pytest.Item) -> list[str]:
    """The rule ids a collected scenario cites (its ``rule`` marks)."""
    return [str(m.args[0]) for m in item.iter_markers("rule") if m.args]


def remember_failed_step(request: pytest.FixtureRequest, step: Any) -> None:
    """pytest-bdd tells which step failed; the verdict says so."""
    request.node.stash[failed_step_key] = f"line {step.line_number}: {step.keyword} {step.name}"


def attach(run: OracleRun, item: pytest.Item, call: pytest.CallInfo[None],
           report: pytest.TestReport) -> None:
    """Put the scenario's verdict on its call report (or on a setup that failed)."""
    if call.when == "call" or (call.when == "setup" and not report.passed):
        verdict = expected(run, report, make_verdict(run, item, call))
        report.user_properties = [*report.user_properties,
                                  (USER_PROPERTY, json.dumps(verdict.to_json()))]


def make_verdict(run: OracleRun, item: pytest.Item, call: pytest.CallInfo[None]
                 ) -> ScenarioVerdict:
    rules = rules_of(item)
    behind = scenario_behind(getattr(item, "obj", None))
    name, path, line = behind if behind else (item.name, Path(str(item.path)), 0)
    row = example_row(item)
    if row:  # each row of an Outline is a scenario of its own in the report
        name = f"{name} [{' | '.join(row.values())}]"
    status = classify(call.excinfo)
    message = ""
    blocked_by = None
    world: ScenarioWorld | None = getattr(item, "funcargs", {}).get("oracle_world")
    if call.excinfo is not None:
        message = str(call.excinfo.value).removeprefix("unsupported: ")
        step = item.stash.get(failed_step_key, None)
        if step:
            message = f"{step}\n{message}"
        if status == Status.FAIL and world is not None:
            blame = _blame(world, call.excinfo.value)
            if blame is not None:
                status, blocked_by = Status.BLOCKED, blame.rule
                message = (f"blocked by {blame.rule} ({blame.concept}): {blame.message}\n"
                           f"so this scenario's own check could not be trusted: {message}")
        if status in (Status.FAIL, Status.ERROR, Status.BLOCKED):
            message += reproduce(run, rules, item, world)
    engine: dict[str, Any] = {}
    if world is not None:
        info = world.client.info()
        engine = {"name": info.name, "version": info.version, "label": world.client.label}
    return ScenarioVerdict(
        name=name, game=rules[0].partition(":")[0], rules=tuple(rules), status=status,
        location=f"{run.short_path(path)}:{line}", message=message, duration=call.duration,
        engine=tuple(sorted(engine.items())), blocked_by=blocked_by,
        choices=tuple(world.cards.choices) if world is not None else (),
    )


def _blame(world: ScenarioWorld, failure: BaseException) -> Blame | None:
    """Which other rule to charge for a failed check (None: the scenario's own)."""
    if not isinstance(failure, RuleViolation):
        return None
    try:
        return world.blame(failure)
    except Exception:  # the engine broke while being asked: keep the plain failure
        return None


def expected(run: OracleRun, report: pytest.TestReport,
             verdict: ScenarioVerdict) -> ScenarioVerdict:
    """Apply the engine's known failures, the way pytest's xfail marks would."""
    known = run.expectations.match(verdict.rules, verdict.name) if run.expectations else None
    if known is None or verdict.status == Status.UNSUPPORTED:
        return verdict
    if verdict.status == Status.PASS and known.scenario is None:
        return verdict  # a rule-level entry: xpass only if the whole rule passes (build.py)
    where = f"{run.expectations.path}:{known.line}" if run.expectations else ""
    why = f"known failure ({where}): {known.reason}" + (f" [{known.issue}]" if known.issue else "")
    if verdict.status in (Status.FAIL, Status.ERROR):
        report.outcome, report.wasxfail = "skipped", why  # type: ignore[attr-defined]
        return dataclasses.replace(verdict, status=Status.XFAIL,
                                   message=f"{why}\n{verdict.message}")
    if run.strict_expectations:
        report.outcome = "failed"
        report.longrepr = (f"[XPASS(strict)] {why}: it passes now; remove the entry at "
                           f"{where}")
    else:
        report.wasxfail = why  # type: ignore[attr-defined]
    return dataclasses.replace(verdict, status=Status.XPASS,
                               message=f"{why}: it passes now; remove the entry at {where}")


def reproduce(run: OracleRun, rules: list[str], item: pytest.Item,
              world: ScenarioWorld | None) -> str:
    """The seed, a command that runs this scenario again, and the last exchanges."""
    lines = ["", f"engine {run.spec}, scenario seed {world.seed if world else '?'} "
             f"(run seed {run.seed})",
             f"reproduce: rules-oracle run --engine {shlex.quote(str(run.spec))} "
             f"--seed {run.seed} "
             + (f"--timeout {run.timeout:g} " if run.timeout != DEFAULT_TIMEOUT else "")
             + ("--strict-protocol " if run.strict else "")
             + f"--rule {rules[0]} -k {item.name!r}"]
    if world is not None and world.client.transcript:
        lines.append("last exchanges with the engine:")
        for request, reply in world.client.transcript[-4:]:
            lines.append(f"  > {json.dumps(request)[:300]}")
            lines.append(f"  < {json.dumps(reply)[:300]}")
    return "\n".join(lines)
