"""``--rerun-failed REPORT``: run again only what did not pass in a report (pytest's ``--lf``).

Why: after a red CI run, the developer fixing the engine wants the failing scenarios back in
seconds, not the whole suite, and the report already names them. A scenario is known by its
location and name as reports give them (an Outline's row by its values), so the selection
holds on another machine, under xdist and with ``--jobs``. A report in which nothing failed
reruns every selected scenario, as pytest's ``--lf`` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from oracle.plugin.verdicts import scenario_identity
from oracle.report.model import NOT_PASSING, Status, load_report

if TYPE_CHECKING:
    from oracle.plugin.selection import Selection

NOT_PASSED = NOT_PASSING - {Status.XFAIL}
"""What a rerun runs again: a known failure (xfail) is not news, an unsupported one cannot
run."""


def failed_in(path: Path) -> frozenset[tuple[str, str]]:
    """The (location, name) of every scenario that failed, errored, was blocked or flaky in
    the JSON report at ``path`` (``ReportFileError`` if it is not one)."""
    report = load_report(path)
    return frozenset((s.location, s.name) for rule in report.rules
                     for s in (*rule.scenarios, *(x for g in rule.rulings for x in g.scenarios))
                     if s.status in NOT_PASSED)


def wanted(selection: Selection, item: pytest.Item) -> bool:
    """Whether ``item`` runs again: it did not pass in the report (or nothing failed there)."""
    if selection.rerun is None:
        return True
    _, name, path, line = scenario_identity(item)
    return (f"{selection.short_path(path)}:{line}", name) in selection.rerun
