"""The conformance report: its typed model, how it is built, its formats, known failures.

- ``model``: statuses, scenario verdicts, rule results, the report, and its loader;
- ``build``: every catalog rule joined to the verdicts of its scenarios;
- ``formats``: the registry of ways to write a report (table, JSON, Markdown, JUnit XML,
  Cucumber JSON, badge, ...);
- ``expectations``: an engine's known failures, reported ``xfail`` and ``xpass``;
- ``judge``: the exit status a report earns (nothing tested, coverage required);
- ``write``: output paths checked before a run, files written whole, interrupted paths;
- ``combine``: the shards of a run into the report one run gives; ``diff``: two runs.
"""

from oracle.report.build import build_report
from oracle.report.model import (
    FAILING,
    RULE_STATUSES,
    SCENARIO_STATUSES,
    Report,
    ReportFileError,
    RuleResult,
    ScenarioResult,
    ScenarioVerdict,
    Status,
    load_report,
)

__all__ = [
    "FAILING",
    "RULE_STATUSES",
    "SCENARIO_STATUSES",
    "Report",
    "ReportFileError",
    "RuleResult",
    "ScenarioResult",
    "ScenarioVerdict",
    "Status",
    "build_report",
    "load_report",
]
