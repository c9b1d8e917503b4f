"""Where a run's verdicts arrive: each test's report carries its scenario's verdict (made
where the scenario ran, ``oracle.plugin.verdicts``), and the controller keeps them here, in
the order the tests were collected, whatever order xdist's workers or ``--jobs``' shards
finish in.

Its own object, held by the run (``OracleRun.sink``), because receiving is the one job of a
run that grows with the suite: a verdict is kept once, its repeated values shared
(``ScenarioVerdict.from_json``), and its JSON dropped from the pytest report that carried it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

from oracle.plugin.breaker import NOT_RUN_PROPERTY
from oracle.report.model import USER_PROPERTY, ScenarioVerdict
from oracle.report.repeats import merge_repeats

if TYPE_CHECKING:
    from oracle.report.expectations import Expectations

order_key = pytest.StashKey[int]()
"""Each collected test's place in the collection (``pytest_collection_finish``)."""

ORDER_PROPERTY = "rules_oracle.order"
"""The user property holding a test's place in the collection (``order_key``)."""


@dataclass(eq=False)
class VerdictSink:
    """The verdicts the controller received, each with its test's place in the collection,
    and the engines they name."""

    verdicts: list[ScenarioVerdict] = field(default_factory=list)
    #: Each verdict's test's place in the collection, so that a report lists scenarios in
    #: one order however xdist's workers interleave them.
    order: list[int] = field(default_factory=list)
    #: Each game's engine as its verdicts describe it (name, version, label).
    engines: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The values the verdicts share (``ScenarioVerdict.from_json``): each step text,
    #: status, rule tuple... kept once, however many verdicts repeat it.
    _shared: dict[Any, Any] = field(default_factory=dict)

    def receive(self, report: pytest.TestReport) -> list[tuple[str, str]]:
        """Keep the verdicts ``report`` carries; for each scenario that was not run (its
        engine given up), the trip it carries and its location, for the breaker."""
        if report.when == "teardown" or (report.when == "setup" and report.passed):
            return []  # verdicts ride on the call report (or on a setup that failed)
        order = next((int(v) for k, v in report.user_properties if k == ORDER_PROPERTY), -1)
        not_run = next((v for k, v in report.user_properties if k == NOT_RUN_PROPERTY), None)
        unrun: list[tuple[str, str]] = []
        for key, value in report.user_properties:
            if key == USER_PROPERTY:
                verdict = ScenarioVerdict.from_json(json.loads(value), self._shared)
                self.verdicts.append(verdict)
                self.order.append(order)
                if verdict.engine:
                    self.engines.setdefault(verdict.game, dict(verdict.engine))
                if not_run is not None:
                    unrun.append((not_run, verdict.location))
        return unrun

    @staticmethod
    def release(report: pytest.TestReport) -> None:
        """Drop a report's verdict JSON once every plugin has read it: pytest keeps every
        report to the end of the run, and the verdict is kept here already (about 1.5 KB a
        scenario, 15 MB in a 10,000-test run)."""
        if any(k == USER_PROPERTY for k, _ in report.user_properties):
            report.user_properties = [(k, v) for k, v in report.user_properties
                                      if k != USER_PROPERTY]

    def in_order(self, repeat: int = 1, expectations: Expectations | None = None
                 ) -> list[ScenarioVerdict]:
        """The verdicts in collection order; under ``--repeat N`` each scenario's runs made
        one verdict (``oracle.report.repeats.merge_repeats``, with the run's expectations:
        its known flaky scenarios)."""
        ordered = [v for _, v in sorted(zip(self.order, self.verdicts, strict=True),
                                        key=lambda pair: pair[0])]
        return merge_repeats(ordered, expectations) if repeat > 1 else ordered
