"""The report as typed, frozen values: statuses, scenario verdicts, rule results, the report.

Why typed: a report is read back by tools (expectations, diff, combine, a matrix of engines)
as well as written, so it is a value with a schema (``oracle/protocol/schemas/v1/report.json``)
and a loader (``Report.from_json``, ``load_report``), never a dict passed around. Scenario
verdicts travel from pytest-xdist workers to the controller on ``report.user_properties``
(xdist serialises those), which is why they round-trip through JSON.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

USER_PROPERTY = "rules_oracle.verdict"
"""The ``user_properties`` key a scenario's verdict rides on."""

REPORT_VERSION = 1
"""The version of the report's JSON layout; it changes by additions only."""


def started_text(moment: datetime.datetime | None = None) -> str:
    """How a report records when its run started (``Report.started``): ISO 8601 in UTC, to
    the second, ``2026-11-27T12:04:05Z``; ``moment`` is now when not given. One writer, so
    that runs placed by their files' times order among those that record it."""
    if moment is None:
        moment = datetime.datetime.now(datetime.UTC)
    return moment.astimezone(datetime.UTC).isoformat(timespec="seconds").replace(
        "+00:00", "Z")


class Status(StrEnum):
    """Every status a scenario or a rule can have in a report."""

    PASS = "pass"
    FAIL = "fail"  # the engine breaks the rule
    ERROR = "error"  # the engine crashed, answered errored, or broke the protocol
    UNSUPPORTED = "unsupported"  # the engine lacks a capability the scenario needs
    #: Another rule's check failed first: this scenario could not test its own rule, and the
    #: other rule is charged (``blocked_by``). Shown, never counted as this rule's failure.
    BLOCKED = "blocked"
    XFAIL = "xfail"  # a known failure (an expectations file) that still fails
    XPASS = "xpass"  # a known failure that passes now
    #: ``--repeat N``: the scenario's runs (the same seed, the same requests) ended
    #: differently (``outcomes``); a failure, since the engine broke the rule in some run.
    FLAKY = "flaky"
    #: A rule the catalog says no scenario can test (with why), or one the run's edition
    #: lacks; a scenario citing a sentence the run's edition lacks (``--edition``).
    UNTESTABLE = "untestable"
    UNCOVERED = "uncovered"  # rules only: no scenario of it ran (or it was not selected)


#: ``uncovered`` as a scenario status is exploration's: an invariant no explored move
#: exercised, which therefore says nothing about its rules; ``untestable`` a scenario that
#: rests on a sentence the run's edition lacks (it does not run).
SCENARIO_STATUSES = (Status.PASS, Status.FAIL, Status.ERROR, Status.BLOCKED,
                     Status.UNSUPPORTED, Status.XFAIL, Status.XPASS, Status.UNCOVERED,
                     Status.UNTESTABLE, Status.FLAKY)
RULE_STATUSES = (Status.PASS, Status.FAIL, Status.ERROR, Status.FLAKY, Status.BLOCKED,
                 Status.XFAIL, Status.XPASS, Status.UNSUPPORTED, Status.UNTESTABLE,
                 Status.UNCOVERED)
FAILING = frozenset({Status.FAIL, Status.ERROR, Status.FLAKY})
#: What counts as a rule passing: its scenarios pass (a known failure that passes now too).
PASSING = frozenset({Status.PASS, Status.XPASS})
TESTED = frozenset({Status.PASS, Status.FAIL, Status.ERROR, Status.BLOCKED, Status.XFAIL,
                    Status.XPASS, Status.FLAKY})
"""Scenario statuses that mean the scenario ran on the engine (unsupported did not)."""
NOT_PASSING = frozenset({Status.FAIL, Status.ERROR, Status.BLOCKED, Status.XFAIL, Status.FLAKY})
"""Scenario statuses of a scenario that ran and did not pass (what a baseline lists)."""

NOT_SELECTED = "not selected in this run"
"""The reason an uncovered rule gives when the run's --rule left it out."""


@dataclass(frozen=True, slots=True)
class StepResult:
    """One step of a scenario as it ran: passed, failed, or skipped (never reached)."""

    keyword: str
    text: str
    line: int
    status: str  # "passed", "failed" or "skipped" (Cucumber's words)

    def to_json(self) -> dict[str, Any]:
        return {"keyword": self.keyword, "text": self.text, "line": self.line,
                "status": self.status}

    @classmethod
    def from_json(cls, data: Mapping[str, Any],
                  shared: dict[Any, Any] | None = None) -> StepResult:
        if shared is None:
            return cls(data["keyword"], data["text"], int(data["line"]), data["status"])
        return _one(shared, cls(_one(shared, data["keyword"]), _one(shared, data["text"]),
                                int(data["line"]), _one(shared, data["status"])))


def _one(shared: dict[Any, Any], value: Any) -> Any:
    """``value``, or the equal value met before (``shared`` maps each to the first seen):
    a large run's verdicts repeat the same step texts, statuses, rules and engine many
    thousands of times, and each read from JSON is a new copy."""
    try:
        return shared.setdefault(value, value)
    except TypeError:  # an unhashable value (an engine's odd version field): as it is
        return value


def _same(value: Any) -> Any:
    return value


class ReportFileError(Exception):
    """A report file that cannot be read as a rules-oracle report; the message says why."""


@dataclass(frozen=True, slots=True)
class ScenarioVerdict:
    """How one scenario ended, and for which rules it speaks."""

    name: str
    game: str
    rules: tuple[str, ...]
    status: Status
    location: str
    message: str = ""
    duration: float = 0.0
    engine: tuple[tuple[str, Any], ...] = ()
    #: For a blocked scenario: the rule whose check failed first, which is charged instead.
    blocked_by: str | None = None
    #: The cards the oracle chose for the scenario's card variables ("card A = Lucky Shot").
    choices: tuple[str, ...] = ()
    steps: tuple[StepResult, ...] = ()
    #: A blocked scenario whose engine answered ``errored`` to an action ``blocked_by``
    #: governs: that rule is charged an ``error``, not a ``fail``.
    blocked_by_error: bool = False
    #: An ``error`` charged to no rule: a check that no sentence of the rules states failed
    #: (``oracle.suite.governs``, unstated). Its own rules are left unverified, like a
    #: blocked scenario's; the run still fails.
    uncharged: bool = False
    #: Exploration only: how many explored states (after a setup or a move) exercised the
    #: invariant; 0 makes it ``uncovered``, whatever else happened.
    exercised: int | None = None
    #: The ruling this scenario belongs to (``ti4:2.6.2/r1``), if it is one.
    ruling: str | None = None
    #: A pending, disputed or superseded ruling's scenario: never fails the run.
    probe: bool = False
    #: The sentence anchors the scenario cites (``ti4:2.4#2``): what its expectations rest on.
    cites: tuple[str, ...] = ()
    #: The cited anchors whose text changed since the scenario was reviewed against it, or
    #: that the rules no longer have (``oracle.suite.reviews``): its verdict stands, and
    #: says nothing of the new words until someone re-reads it.
    stale: tuple[str, ...] = ()
    #: ``flaky`` only (``--repeat N``): each run's status, in the order they ran.
    outcomes: tuple[Status, ...] = ()

    def to_json(self) -> dict[str, Any]:
        # Field by field (``asdict`` deep-copies every value; each scenario pays for this).
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["status"] = str(self.status)
        data["rules"] = list(self.rules)
        data["engine"] = dict(self.engine)
        data["choices"] = list(self.choices)
        data["cites"] = list(self.cites)
        data["steps"] = [s.to_json() for s in self.steps]
        if self.exercised is None:
            del data["exercised"]
        if not self.uncharged:
            del data["uncharged"]
        if not self.blocked_by_error:
            del data["blocked_by_error"]
        if self.stale:
            data["stale"] = list(self.stale)
        else:
            del data["stale"]
        if self.outcomes:
            data["outcomes"] = [str(o) for o in self.outcomes]
        else:
            del data["outcomes"]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any],
                  shared: dict[Any, Any] | None = None) -> ScenarioVerdict:
        """The verdict of ``to_json``'s data; with ``shared``, each value equal to one met
        before (by any verdict read with the same dict) is that one (``_one``)."""
        one = functools.partial(_one, shared) if shared is not None else _same
        return cls(
            name=data["name"], game=one(data["game"]), rules=one(tuple(data["rules"])),
            status=Status(data["status"]), location=one(data["location"]),
            message=one(data.get("message", "")), duration=float(data.get("duration", 0.0)),
            engine=one(tuple(sorted(dict(data.get("engine") or {}).items()))),
            blocked_by=data.get("blocked_by"), choices=one(tuple(data.get("choices", ()))),
            uncharged=bool(data.get("uncharged", False)), exercised=data.get("exercised"),
            blocked_by_error=bool(data.get("blocked_by_error", False)),
            steps=one(tuple(StepResult.from_json(s, shared) for s in data.get("steps") or ())),
            ruling=data.get("ruling"), probe=bool(data.get("probe", False)),
            cites=one(tuple(data.get("cites", ()))), stale=one(tuple(data.get("stale", ()))),
            outcomes=tuple(Status(o) for o in data.get("outcomes", ())),
        )


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """A scenario's line in a report (what a verdict keeps once it is filed under a rule)."""

    name: str
    status: Status
    location: str
    message: str = ""
    duration: float = 0.0
    #: Under a blocked scenario's own rule: the rule that blocked it.
    blocked_by: str | None = None
    #: Under the rule a blocked scenario charges: the rules that scenario was written for.
    charged_from: tuple[str, ...] = ()
    #: The cards chosen for the scenario's card variables.
    choices: tuple[str, ...] = ()
    steps: tuple[StepResult, ...] = ()
    #: Exploration only: the explored states that exercised the invariant.
    exercised: int | None = None
    #: The sentence anchors the scenario cites (``ti4:2.4#2``), for tools that join
    #: scenarios to the sentences of the rules (coverage, errata).
    cites: tuple[str, ...] = ()
    #: The cited anchors whose text changed since the scenario was reviewed (``stale``).
    stale: tuple[str, ...] = ()
    #: A ``flaky`` scenario's outcomes, run by run (``--repeat N``).
    outcomes: tuple[Status, ...] = ()
    #: An ``error`` charged to no rule (``ScenarioVerdict.uncharged``).
    uncharged: bool = False

    @property
    def counts_as(self) -> Status:
        """The status this scenario gives its rule: an error charged to no rule leaves the
        rule unverified (``blocked``), never failed."""
        return Status.BLOCKED if self.uncharged else self.status

    @property
    def failing(self) -> bool:
        """The engine broke the rule here (``fail``), broke down (``error``), or did both
        and not the same way twice (``flaky``)."""
        return self.status in FAILING

    @property
    def known(self) -> bool:
        """A known failure (``xfail``, an expectations file lists it): it fails nothing."""
        return self.status == Status.XFAIL

    @property
    def played(self) -> bool:
        """Whether the engine played it (``unsupported``: it could not, nothing ran)."""
        return self.status != Status.UNSUPPORTED

    @property
    def not_passing(self) -> bool:
        """It ran and did not pass: failing, blocked, or a known failure."""
        return self.status in NOT_PASSING

    @classmethod
    def of(cls, verdict: ScenarioVerdict) -> ScenarioResult:
        """The scenario under its own rules. A blocked scenario that is a known failure
        (``xfail``, charged to the rule that blocked it) is still ``blocked`` there: its own
        rule was not tested, known or not."""
        status = Status.BLOCKED if verdict.blocked_by else verdict.status
        return cls(verdict.name, status, verdict.location, verdict.message,
                   verdict.duration, verdict.blocked_by, choices=verdict.choices,
                   steps=verdict.steps, exercised=verdict.exercised, cites=verdict.cites,
                   stale=verdict.stale, outcomes=verdict.outcomes,
                   uncharged=verdict.uncharged)

    @classmethod
    def charge(cls, verdict: ScenarioVerdict) -> ScenarioResult:
        """The failure a blocked scenario charges to the rule that blocked it: ``fail`` (an
        ``error`` when the engine errored on an action that rule governs), ``xfail`` when an
        expectations file lists it as known, ``flaky`` when it was blocked in some of its
        runs only (``--repeat``)."""
        status = (verdict.status if verdict.status in (Status.XFAIL, Status.FLAKY)
                  else Status.ERROR if verdict.blocked_by_error else Status.FAIL)
        return cls(verdict.name, status, verdict.location, verdict.message,
                   verdict.duration, charged_from=verdict.rules, choices=verdict.choices,
                   steps=verdict.steps, cites=verdict.cites, stale=verdict.stale,
                   outcomes=verdict.outcomes)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "status": str(self.status),
                                "location": self.location, "message": self.message,
                                "duration": round(self.duration, 4)}
        if self.blocked_by:
            data["blocked_by"] = self.blocked_by
        if self.charged_from:
            data["charged_from"] = list(self.charged_from)
        if self.choices:
            data["choices"] = list(self.choices)
        if self.steps:
            data["steps"] = [s.to_json() for s in self.steps]
        if self.exercised is not None:
            data["exercised"] = self.exercised
        if self.cites:
            data["cites"] = list(self.cites)
        if self.stale:
            data["stale"] = list(self.stale)
        if self.outcomes:
            data["outcomes"] = [str(o) for o in self.outcomes]
        if self.uncharged:
            data["uncharged"] = True
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScenarioResult:
        return cls(data["name"], Status(data["status"]), data.get("location", ""),
                   data.get("message", ""), float(data.get("duration", 0.0)),
                   data.get("blocked_by"), tuple(data.get("charged_from", ())),
                   tuple(data.get("choices", ())),
                   tuple(StepResult.from_json(s) for s in data.get("steps") or ()),
                   data.get("exercised"), tuple(data.get("cites", ())),
                   tuple(data.get("stale", ())),
                   tuple(Status(o) for o in data.get("outcomes", ())),
                   bool(data.get("uncharged", False)))


@dataclass(frozen=True)
class RetiredScenario:
    """A scenario a ruling retires (it no longer runs) or replaces (the ruling runs instead);
    a probe's retirement is shown, not applied (``effective`` False)."""

    name: str
    location: str
    by: str  # the ruling's id
    reason: str
    replaced: bool = False
    effective: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "location": self.location, "by": self.by,
                "reason": self.reason, "replaced": self.replaced, "effective": self.effective}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RetiredScenario:
        return cls(data["name"], data.get("location", ""), data["by"], data.get("reason", ""),
                   bool(data.get("replaced", False)), bool(data.get("effective", True)))


PROBE_STANDINGS = ("pending", "disputed", "superseded")
"""Standings of a ruling that make it a probe: shown with whether the engine agrees, never
counted towards its rule nor failing a run."""


@dataclass(frozen=True)
class RulingResult:
    """A ruling's row under its rule: its provenance and standing, and how its scenarios ran
    (``pass``: the engine agrees with the ruling)."""

    id: str
    status: Status
    standing: str  # official | pending | disputed | superseded
    refines: str
    source: str
    date: str
    authority: str
    location: str = ""
    superseded_by: str | None = None
    scenarios: tuple[ScenarioResult, ...] = ()

    @property
    def probe(self) -> bool:
        return self.standing in PROBE_STANDINGS

    @property
    def failing(self) -> bool:
        """The engine disagrees with an official ruling (a probe's disagreement fails
        nothing: ``failing`` says what its scenarios show, ``probe`` whether it counts)."""
        return self.status in FAILING

    def count(self, *statuses: Status) -> int:
        return sum(1 for s in self.scenarios if s.status in statuses)

    def failed(self) -> int:
        return self.count(*FAILING)

    @property
    def status_text(self) -> str:
        """The ruling's ``Status:`` line: ``official``, ``superseded by ID``, ..."""
        return f"superseded by {self.superseded_by}" if self.superseded_by else self.standing

    @property
    def agreement(self) -> str:
        """What the status says of the engine and the ruling, in a committee's words."""
        lacking = sum(1 for s in self.scenarios if s.status == Status.UNSUPPORTED)
        if self.status == Status.UNSUPPORTED and lacking < len(self.scenarios):
            return f"the engine cannot play {lacking} of its {len(self.scenarios)} scenarios"
        return {Status.PASS: "the engine agrees", Status.FAIL: "the engine disagrees",
                Status.ERROR: "the engine errored", Status.BLOCKED: "blocked by another rule",
                Status.UNSUPPORTED: "the engine cannot play it",
                Status.XFAIL: "a known failure", Status.XPASS: "a known failure that passes",
                Status.UNCOVERED: "not run"}.get(self.status, str(self.status))

    def provenance(self) -> str:
        """``source, date, authority``: one line for tables."""
        return f"{self.source}; {self.date}; {self.authority}"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "status": str(self.status), "standing": self.standing,
                "probe": self.probe, "refines": self.refines,
                "provenance": {"source": self.source, "date": self.date,
                               "authority": self.authority, "status": self.status_text},
                "location": self.location,
                **({"superseded_by": self.superseded_by} if self.superseded_by else {}),
                "scenarios": [s.to_json() for s in self.scenarios]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RulingResult:
        given = data.get("provenance", {})
        return cls(data["id"], Status(data["status"]), data.get("standing", "official"),
                   data.get("refines", ""), given.get("source", ""), given.get("date", ""),
                   given.get("authority", ""), data.get("location", ""),
                   data.get("superseded_by"),
                   tuple(ScenarioResult.from_json(s) for s in data.get("scenarios", [])))


@dataclass(frozen=True)
class RuleResult:
    """One rule's status in a run and the scenarios that decided it.

    ``scenarios`` are the rule's own (and failures charged to it); ``rulings`` are the
    committee's rulings that refine it, each with its own scenarios: an official ruling's
    count towards the rule's status, a probe's do not.
    """

    id: str
    status: Status
    text: str
    scenarios: tuple[ScenarioResult, ...] = ()
    reason: str = ""
    rulings: tuple[RulingResult, ...] = ()
    retired: tuple[RetiredScenario, ...] = ()
    #: A rule id a committee added (not in the catalog): the ruling that declares it.
    added_by: str | None = None

    def count(self, *statuses: Status) -> int:
        return sum(1 for s in self.scenarios if s.status in statuses)

    def failed(self) -> int:
        """How many of its scenarios fail or error (failures charged to it included)."""
        return self.count(*FAILING)

    def blocked(self) -> tuple[ScenarioResult, ...]:
        """Its scenarios that tripped over another rule's failure first (``blocked_by``)."""
        return tuple(s for s in self.scenarios if s.status == Status.BLOCKED)

    def flaky(self) -> tuple[ScenarioResult, ...]:
        """Its scenarios whose runs ended differently (``--repeat N``; ``outcomes``)."""
        return tuple(s for s in self.scenarios if s.status == Status.FLAKY)

    def unsupported(self) -> tuple[ScenarioResult, ...]:
        """Its scenarios the engine could not play (not run; the message says why)."""
        return tuple(s for s in self.scenarios if s.status == Status.UNSUPPORTED)

    def explored(self) -> tuple[ScenarioResult, ...]:
        """Its exploration verdicts (``--explore``: an invariant and how often it held)."""
        return tuple(s for s in self.scenarios if s.exercised is not None)

    def own(self) -> tuple[ScenarioResult, ...]:
        """The scenarios written for this rule (not the failures other rules' blocked
        scenarios charge to it)."""
        return tuple(s for s in self.scenarios if not s.charged_from)

    def deciding(self) -> tuple[ScenarioResult, ...]:
        """The scenarios its status is decided from: its own, the failures charged to it,
        and its official rulings' (a probe's count for nothing)."""
        return (*self.scenarios, *(s for g in self.rulings if not g.probe for s in g.scenarios))

    @property
    def passing(self) -> bool:
        return self.status in PASSING

    @property
    def failing(self) -> bool:
        return self.status in FAILING

    @property
    def applicable(self) -> bool:
        """Whether a verdict on it is wanted: testable (as of the run's edition) and selected
        (an unselected rule is ``uncovered``, ``NOT_SELECTED``)."""
        return self.status != Status.UNTESTABLE and not (
            self.status == Status.UNCOVERED and self.reason == NOT_SELECTED)

    def tally(self) -> dict[str, int]:
        """How many of its own scenarios and of its rulings pass, of how many."""
        return {"scenarios_passed": self.count(Status.PASS),
                "scenarios": len(self.scenarios),
                "rulings_passed": sum(1 for r in self.rulings if r.status == Status.PASS),
                "rulings": len(self.rulings)}

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id, "status": str(self.status), "text": self.text,
            **({"reason": self.reason} if self.reason else {}),
            "scenarios": [s.to_json() for s in self.scenarios]}
        if self.rulings or self.retired or self.added_by:
            data["tally"] = self.tally()
            data["rulings"] = [r.to_json() for r in self.rulings]
            data["retired"] = [r.to_json() for r in self.retired]
        if self.added_by:
            data["added_by"] = self.added_by
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RuleResult:
        return cls(data["id"], Status(data["status"]), data.get("text", ""),
                   tuple(ScenarioResult.from_json(s) for s in data.get("scenarios", [])),
                   data.get("reason", ""),
                   tuple(RulingResult.from_json(r) for r in data.get("rulings", [])),
                   tuple(RetiredScenario.from_json(r) for r in data.get("retired", [])),
                   data.get("added_by"))


@dataclass(frozen=True)
class Report:
    """A run's conformance report: the engine, every catalog rule's result, a summary."""

    engine: Mapping[str, Any]
    rules: tuple[RuleResult, ...]
    summary: Mapping[str, int] = field(default_factory=dict)
    #: The run was interrupted (Ctrl-C, SIGTERM): the report holds what ran until then.
    interrupted: bool = False
    #: ``(K, N)`` for the K-th of N shards of a run (``--shard K/N``); None for a whole run.
    shard: tuple[int, int] | None = None
    #: When the run started (ISO 8601, UTC, to the second): what orders runs in a trend.
    #: None in a report built elsewhere (and in reports written before it was recorded).
    started: str | None = None
    #: How many times each scenario ran (``--repeat N``); 1 for a plain run.
    repeat: int = 1

    @property
    def conforms(self) -> bool:
        """True when no applicable rule fails or errors, and no scenario errors charged to
        no rule."""
        return not any(r.status in FAILING or any(s.uncharged for s in r.scenarios)
                       for r in self.rules)

    def rule(self, rule_id: str) -> RuleResult | None:
        return next((r for r in self.rules if r.id == rule_id), None)

    def applicable(self) -> list[RuleResult]:
        """The rules a verdict is wanted on (``RuleResult.applicable``): what a badge or
        ``--require-coverage`` counts."""
        return [r for r in self.rules if r.applicable]

    def tested(self) -> bool:
        """Whether any scenario deciding an applicable rule ran on the engine."""
        return any(s.status in TESTED for r in self.applicable() for s in r.deciding())

    def scenarios(self) -> list[ScenarioResult]:
        """Every scenario of the report once (``unique_scenarios``): the rules' own, then
        their rulings'; a charge is not a scenario of its own."""
        return unique_scenarios(self.rules)

    def unsupported(self) -> list[ScenarioResult]:
        """Every scenario the engine could not play, once (rulings' too)."""
        return [s for s in self.scenarios() if s.status == Status.UNSUPPORTED]

    def ran(self) -> bool:
        """Whether any scenario of the report ran on the engine (``TESTED``: it passed,
        failed, errored, was blocked, known to fail or flaky), a probe's too."""
        return any(s.status in TESTED for s in self.scenarios())

    def failures(self) -> list[tuple[RuleResult, ScenarioResult]]:
        """Every failing scenario with the rule it is charged to: the rules' own and the
        failures charged to them, then their official rulings'."""
        return [*((r, s) for r in self.rules for s in r.scenarios if s.failing),
                *((r, s) for r in self.rules for g in r.rulings if not g.probe
                  for s in g.scenarios if s.failing)]

    def blocked(self) -> list[tuple[RuleResult, ScenarioResult]]:
        """Every blocked scenario under its own rule; ``blocked_by`` names the rule it
        charges, where the charge is listed (``charged_from``)."""
        return [(r, s) for r in self.rules for s in r.blocked()]

    def each_scenario(self) -> Iterator[tuple[RuleResult, ScenarioResult, RulingResult | None]]:
        """Every scenario under each rule it was written for (its own line, not a charge),
        then its rulings' (with the ruling): a scenario citing several rules comes once per
        rule."""
        for rule in self.rules:
            for s in rule.own():
                yield rule, s, None
            for g in rule.rulings:
                for s in g.scenarios:
                    yield rule, s, g

    def charges(self) -> dict[tuple[str, str], tuple[RuleResult, ScenarioResult]]:
        """Each blocked scenario, by (location, name), with the rule it charges and the
        charge's line there (``fail``, or ``xfail`` when known)."""
        return {(s.location, s.name): (r, s) for r in self.rules for s in r.scenarios
                if s.charged_from}

    def ruling(self, ruling_id: str) -> RulingResult | None:
        """A committee's ruling by its id (``ti4:2.6.2/r1``), under whichever rule."""
        return next((g for r in self.rules for g in r.rulings if g.id == ruling_id), None)

    def to_json(self) -> dict[str, Any]:
        """The report as data; ``interrupted`` comes first, so that a partial report says
        so at its top."""
        return {**({"interrupted": True} if self.interrupted else {}),
                "version": REPORT_VERSION, "engine": dict(self.engine),
                **({"started": self.started} if self.started else {}),
                **({"repeat": self.repeat} if self.repeat != 1 else {}),
                **({"shard": {"index": self.shard[0], "count": self.shard[1]}}
                   if self.shard else {}),
                "rules": [r.to_json() for r in self.rules], "summary": dict(self.summary)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Report:
        shard = data.get("shard")
        return cls(dict(data.get("engine", {})),
                   tuple(RuleResult.from_json(r) for r in data.get("rules", [])),
                   dict(data.get("summary", {})), bool(data.get("interrupted", False)),
                   (int(shard["index"]), int(shard["count"])) if shard else None,
                   data.get("started"), int(data.get("repeat", 1)))


def unique_scenarios(rules: Iterable[RuleResult]) -> list[ScenarioResult]:
    """Every scenario of a report once: the rules' own and their rulings' (a scenario citing
    several rules, or charged to the rule that blocked it, is listed under each), first
    listing kept. Its length is the summary's ``scenarios``."""
    seen: dict[tuple[str, str], ScenarioResult] = {}
    for rule in rules:
        for s in (*rule.scenarios, *(x for g in rule.rulings for x in g.scenarios)):
            seen.setdefault((s.location, s.name), s)
    return list(seen.values())


def summarise(rules: Iterable[RuleResult], scenarios: int) -> dict[str, int]:
    """Counts per rule status (every status, zeros included), the rules and the scenarios;
    with rulings, how many there are, how many are probes, and how many of those the engine
    agrees with."""
    rules = list(rules)
    summary = {str(s): sum(1 for r in rules if r.status == s) for s in RULE_STATUSES}
    summary["rules"] = len(rules)
    summary["scenarios"] = scenarios
    rulings = [g for r in rules for g in r.rulings]
    if rulings:
        summary["rulings"] = len(rulings)
        summary["probes"] = sum(1 for g in rulings if g.probe)
        summary["probes_agreeing"] = sum(1 for g in rulings if g.probe
                                         and g.status == Status.PASS)
    return summary


def load_report(path: Path) -> Report:
    """Read a JSON report written by ``rules-oracle run --json``, checked against its schema."""
    return Report.from_json(read_checked(path, "report", "rules-oracle run --json"))


def read_checked(path: Path, schema: str, written_by: str) -> Any:
    """A JSON file the oracle wrote, checked against its schema (``report``, ``matrix``);
    ``ReportFileError`` naming the file, what is wrong, and the command that writes it."""
    from oracle.engines.wire import loads

    try:
        data = loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ReportFileError(f"{path}: cannot read the {schema} ({exc}); pass the file "
                              f"written by '{written_by}'") from exc
    from oracle.protocol import validate

    found = validate.problems(schema, data)
    if found:
        raise ReportFileError(f"{path}: not a rules-oracle {schema}: {'; '.join(found[:3])}")
    return data
