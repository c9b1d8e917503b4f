"""From a finished test to a scenario verdict: its status, its message, how to reproduce it.

The verdict is made on the worker that ran the scenario (it alone has the engine's
transcript) and rides to the controller on ``report.user_properties``.
"""

from __future__ import annotations

import json
import re
import shlex
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from oracle import options
from oracle.report.classify import classify_exception, judge
from oracle.report.message import EXCHANGES
from oracle.report.model import FAILING, USER_PROPERTY, ScenarioVerdict, Status, StepResult
from oracle.scenario.diagnosis import Blame
from oracle.scenario.outcomes import (
    UnexpectedRejection,
)
from oracle.suite.runnable import row_name

if TYPE_CHECKING:
    from oracle.plugin.run import OracleRun
    from oracle.scenario.world import ScenarioWorld

failed_step_key = pytest.StashKey[str]()
steps_key = pytest.StashKey[list[list[Any]]]()
rules_key = pytest.StashKey[tuple[str, ...]]()


@dataclass(frozen=True)
class ScenarioRef:
    """The scenario behind a collected test: its name, file and line, its test function's
    name, and an outline's example rows (each a row's (column, value) pairs)."""

    name: str
    path: Path
    line: int
    test: str
    rows: tuple[tuple[tuple[str, str], ...], ...] = ()

    def row(self, n: int | None) -> dict[str, str] | None:
        """The n-th example row (None for a plain scenario's test)."""
        return dict(self.rows[n]) if n is not None and n < len(self.rows) else None


#: Set on each scenario's test when it is collected (``oracle.plugin.collect``): the
#: scenario, and which of an outline's example rows the test runs.
scenario_key = pytest.StashKey[tuple[ScenarioRef, int]]()


REPEAT_ARG = "oracle_repeat"
"""What a scenario's test takes under ``--repeat N``: which of its runs it is (1 to N). The
plugin parametrises it (``pytest_generate_tests``, after an Outline's rows), so each run is
a test of its own, with its own report and verdict, on every worker and shard alike; the
run's verdicts are made one at the end (``oracle.report.repeats``); each run's test id is
``repeat_id``."""


def repeat_id(n: int, count: int) -> str:
    """The test id of the n-th of ``count`` runs of a scenario (``--repeat N``):
    ``test_x[run2of3]``."""
    return f"run{n}of{count}"


_REPEAT_ID = re.compile(r"(\[|-)run\d+of\d+\]$")


def run_of(item: pytest.Item, count: int) -> str:
    """``run 2 of 3`` for the second of a scenario's tests under ``--repeat 3`` (its
    ``REPEAT_ARG`` parameter, from pytest's ``callspec``), or ``""`` for a test that runs
    once."""
    callspec = getattr(item, "callspec", None)  # a pytest.Function that was parametrised
    n = callspec.params.get(REPEAT_ARG) if callspec is not None else None
    return "" if n is None else f"run {n} of {count}"


def unrepeated(name: str) -> str:
    """A test's name without its run (``test_x[run2of3]`` -> ``test_x``; an Outline row's
    ``test_x[2-run2of3]`` -> ``test_x[2]``): what its seed comes from, so that every run of
    a scenario, and a run without ``--repeat``, plays the same game."""
    found = _REPEAT_ID.search(name)
    if found is None:
        return name
    return name[:found.start()] + ("]" if found.group(1) == "-" else "")


def scenario_identity(item: pytest.Item) -> tuple[str, str, Path, int]:
    """A collected scenario's name as written, its name in reports (an Outline's row with its
    values), its feature file and its line (0 for a test that is no scenario)."""
    behind = item.stash.get(scenario_key, None)
    if behind is None:
        return item.name, item.name, Path(str(item.path)), 0
    ref, row = behind
    return ref.name, row_name(ref.name, ref.row(row)), ref.path, ref.line


def classify(excinfo: pytest.ExceptionInfo[BaseException] | None) -> Status:
    """pass / fail / error / unsupported from how the test call ended."""
    return classify_exception(excinfo.value if excinfo is not None else None)


def rules_of(item: pytest.Item) -> list[str]:
    """The rule ids a collected scenario cites (its ``rule`` marks), read once per item
    (collection, the world and each of the three reports ask)."""
    rules = item.stash.get(rules_key, None)
    if rules is None:
        rules = item.stash[rules_key] = tuple(
            str(m.args[0]) for m in item.iter_markers("rule") if m.args)
    return list(rules)


def remember_failed_step(request: pytest.FixtureRequest, step: Any) -> None:
    """pytest-bdd tells which step failed; the verdict says so."""
    request.node.stash[failed_step_key] = f"line {step.line_number}: {step.keyword} {step.name}"


def remember_steps(request: pytest.FixtureRequest, scenario: Any) -> None:
    """The scenario's steps as pytest-bdd rendered them, each skipped until it ends."""
    request.node.stash[steps_key] = [[s.keyword, s.name, s.line_number, "skipped"]
                                     for s in scenario.steps]


def step_ended(request: pytest.FixtureRequest, step: Any, status: str) -> None:
    for entry in request.node.stash.get(steps_key, []):
        if entry[2] == step.line_number and entry[1] == step.name and entry[3] == "skipped":
            entry[3] = status
            return


def attach(run: OracleRun, item: pytest.Item, call: pytest.CallInfo[None],
           report: pytest.TestReport) -> None:
    """Put the scenario's verdict on its call report (or on a setup that failed), with the
    rule ids and statuses as properties pytest's own --junitxml writes, and make a failure
    read as the oracle's message rather than a traceback through pytest's internals."""
    if call.when == "call" or (call.when == "setup" and not report.passed):
        verdict = make_verdict(run, item, call)
        for key in (steps_key, failed_step_key):  # in the verdict now: the item keeps none
            if key in item.stash:
                del item.stash[key]
        verdict = probed(report, verdict) if verdict.probe else expected(run, report, verdict)
        report.user_properties = [
            *report.user_properties, (USER_PROPERTY, json.dumps(verdict.to_json())),
            ("rule", " ".join(verdict.rules)), ("status", str(verdict.status))]
        if report.failed and (verdict.status in FAILING or verdict.status == Status.BLOCKED):
            report.longrepr = failure_text(verdict, item.config.get_terminal_writer().fullwidth,
                                           run_of(item, run.settings.repeat))


def untraced_report(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport | None:
    """The report of a scenario whose setup or call raised, made without a traceback; None
    (pytest makes it) for anything else.

    Why: pytest renders a traceback for every failure, parsing the source of each frame's
    file (about 45 ms a scenario: most of the time of a run against a broken engine), and
    ``attach`` replaces it with the oracle's own message anyway. A skip (``unsupported``)
    keeps pytest's report, as does a teardown error, which no verdict explains.
    """
    excinfo = call.excinfo
    if excinfo is None or call.when == "teardown" or isinstance(excinfo.value,
                                                                pytest.skip.Exception):
        return None
    # pytest's own report of the phase as if it had passed (its captured output, keywords
    # and properties), then the failure's outcome and text, and the phase's times.
    report = pytest.TestReport.from_item_and_call(
        item, pytest.CallInfo.from_call(lambda: None, call.when))
    report.outcome = "failed"
    report.longrepr = f"{type(excinfo.value).__name__}: {excinfo.value}"
    report.duration, report.start, report.stop = call.duration, call.start, call.stop
    return report


def failure_text(verdict: ScenarioVerdict, width: int = 0, run: str = "") -> str:
    """What the terminal shows for a failing scenario: the rule and scenario, then the
    verdict's message (the failing step, what was expected and seen, the seed, the
    command that reproduces it, the scenario's last exchanges), fitted to ``width``
    columns when given: prose wraps, an exchange's JSON is cut with "…", and the first line
    and the reproduce command stay whole, to be searched for and pasted (the report keeps
    every message whole). ``run``: which run of the scenario this was (``run 2 of 3``)."""
    head = f"{' '.join(verdict.rules)} {verdict.status}: {verdict.name} ({verdict.location})"
    head += f", {run}" if run else ""
    lines = verdict.message.splitlines()
    if lines and lines[0].startswith("line "):
        lines[0] = f"failing step: {lines[0]}"
        if len(lines) > 1 and lines[1]:
            lines[1] = f"what went wrong: {lines[1]}"
    if not width:
        return "\n".join([head, *(f"  {line}" if line else "" for line in lines)])
    out = [head]  # whole, like pytest's own header: what one greps for
    for line in lines:
        indent = "  " + " " * (len(line) - len(line.lstrip()))
        if not line.strip() or line.lstrip().startswith("reproduce: ") or len(line) + 2 <= width:
            out.append(f"  {line}" if line else "")
        elif line.lstrip()[:2] in ("> ", "< "):
            out.append(f"  {line}"[:width - 1] + "…")
        else:
            out += textwrap.wrap(line.strip(), width, initial_indent=indent,
                                 subsequent_indent=indent + "  ", break_on_hyphens=False)
    return "\n".join(out)


def probed(report: pytest.TestReport, verdict: ScenarioVerdict) -> ScenarioVerdict:
    """A probe (a pending, disputed or superseded ruling's scenario) never fails the run:
    pytest is told it is an expected failure, and the verdict keeps what happened (``fail``:
    the engine disagrees with the ruling), for the ruling's row."""
    if report.failed:
        why = (f"probe: ruling {verdict.ruling} is not official, so the engine's "
               f"{verdict.status} here fails nothing")
        report.outcome, report.wasxfail = "skipped", why  # type: ignore[attr-defined]
    return verdict


def make_verdict(run: OracleRun, item: pytest.Item, call: pytest.CallInfo[None]
                 ) -> ScenarioVerdict:
    rules = rules_of(item)
    # A ruling is declared on the scenario (an outline's every row is one of its scenarios):
    # looked up by the scenario's own name, before a row's values are added to it.
    written, name, path, line = scenario_identity(item)
    ruling = run.selection.ruling_of(path, written)
    scenario = run.selection.scenario_doc(path, written) if line else None  # one lookup for both
    cites = scenario.cited_anchors if scenario is not None else ()
    stale = run.selection.stale_of(path, scenario) if scenario is not None else ()
    world: ScenarioWorld | None = getattr(item, "funcargs", {}).get("oracle_world")
    status, blame = judge(world, call.excinfo.value if call.excinfo else None)
    message = ""
    blocked_by = blame.rule if blame else None
    entries = item.stash.get(steps_key, [])
    if call.excinfo is not None:
        message = str(call.excinfo.value).removeprefix("unsupported: ")
        step = item.stash.get(failed_step_key, None)
        if isinstance(call.excinfo.value, UnexpectedRejection) and call.excinfo.value.step:
            step = _fail_where_sent(entries, call.excinfo.value.step) or step
        if step:
            message = f"{step}\n{message}"
        if blame is not None:
            message = charged_text(blame, message)
        if status in (Status.FAIL, Status.ERROR, Status.BLOCKED):
            message += reproduce(run, rules, item, world)
    steps = tuple(StepResult(*entry) for entry in entries)
    engine: dict[str, Any] = {}
    if world is not None:
        info = world.client.info()
        engine = {"name": info.name, "version": info.version, "label": world.client.label}
    return ScenarioVerdict(
        name=name, game=rules[0].partition(":")[0], rules=tuple(rules), status=status,
        location=f"{run.selection.short_path(path)}:{line}", message=message,
        duration=call.duration,
        engine=tuple(sorted(engine.items())), blocked_by=blocked_by,
        uncharged=blame is not None and blame.rule is None,
        blocked_by_error=blame is not None and blame.error,
        choices=tuple(world.cards.choices) if world is not None else (), steps=steps,
        ruling=ruling.id if ruling else None, probe=bool(ruling and ruling.probe),
        cites=cites, stale=stale,
    )


def _fail_where_sent(entries: list[list[Any]], sent: tuple[int, str, str]) -> str | None:
    """An unexpected rejection happened at the step that sent the action: that step failed,
    and the later step that found it out never made its own check (skipped). Its line, as
    the failing step; None if the step is not among the scenario's."""
    line, keyword, text = sent
    found = next((e for e in entries if e[2] == line and e[1] == text), None)
    if found is None:
        return None
    for entry in entries:
        if entry[3] == "failed":
            entry[3] = "skipped"
    found[3] = "failed"
    return f"line {line}: {keyword} {text}"


def charged_text(blame: Blame, message: str) -> str:
    """A charged scenario's message: what was charged where, then its own failure."""
    if blame.rule is None:
        return (f"charged to no rule ({blame.concept}): {blame.message}\n"
                f"no sentence of the rules states this check, so the scenario ends error "
                f"and no rule is charged: {message}")
    return (f"blocked by {blame.rule} ({blame.concept}): {blame.message}\n"
            f"so this scenario's own check could not be trusted: {message}")


def expected(run: OracleRun, report: pytest.TestReport,
             verdict: ScenarioVerdict) -> ScenarioVerdict:
    """Apply the engine's known failures (``Expectations.apply``), and tell pytest, the way
    its xfail marks would: a known failure is an expected failure, a known one that passes
    now an unexpected pass (a failure under ``--strict-expectations``)."""
    if run.expectations is None:
        return verdict
    verdict, entry = run.expectations.apply(verdict)
    if entry is None:
        return verdict
    why = entry.where(run.expectations.path)
    if verdict.status == Status.XFAIL:
        report.outcome, report.wasxfail = "skipped", why  # type: ignore[attr-defined]
    elif run.settings.strict_expectations:
        report.outcome = "failed"
        report.longrepr = (f"[XPASS(strict)] {why}: it passes now; remove the entry at "
                           f"{run.expectations.path}:{entry.line}")
    else:
        report.wasxfail = why  # type: ignore[attr-defined]
    return verdict


def reproduce(run: OracleRun, rules: list[str], item: pytest.Item,
              world: ScenarioWorld | None) -> str:
    """The seed, a command that runs this scenario again with every option that shaped it
    (engine, features, seed, timeout, strictness, expectations), and the scenario's last
    exchanges with the engine (none if it failed before reaching it)."""
    game = rules[0].partition(":")[0]
    seed = world.seed if world else run.scenario_seed(game, unrepeated(item.name))
    test = getattr(item, "originalname", None) or item.name
    command = ["rules-oracle", "run", *options.reproduce_args(run.settings.values),
               "--rule", rules[0], "-k", test]
    lines = ["", f"engine {run.settings.spec}, scenario seed {seed} (run seed {run.settings.seed})",
             f"reproduce: {shlex.join(command)}"]
    if world is not None and world.client.transcript:
        lines.append(EXCHANGES)
        for request, reply in world.client.transcript[-4:]:
            lines.append(f"  > {json.dumps(request)[:300]}")
            lines.append(f"  < {json.dumps(reply)[:300]}")
    else:
        lines.append("the scenario ended before it exchanged anything with the engine")
    return "\n".join(lines)
