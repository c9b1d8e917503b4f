"""``rules-oracle run --repeat N``: each scenario's N verdicts made one, ``flaky`` where they
differ.

Why: every scenario runs with the same seed and sends the same requests each time, so an
engine that conforms gives the same outcome every time. One whose outcomes differ (a pass,
then a failure) breaks the rule some of the time: a single run would have said ``pass`` or
``fail`` by luck, and the next run the other. So such a scenario is ``flaky``, a status of
its own, with the outcomes seen in the order they ran (WPT's stability check reports a test
the same way, with each status it gave; its ``known_intermittent`` lists them in
expectations), and it fails the run: the engine broke the rule in at least one run. The
message is that of the first run that did not pass, so a report shows what went wrong and
how to reproduce it, and says how many runs gave what.

An expectations file's ``known_flaky`` entries (``oracle.report.expectations``) make such a
scenario's runs that did not pass ``xfail``, and its runs together ``xfail`` too, with their
outcomes: known, so the run stays green, while a flaky scenario no entry lists still fails
it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from oracle.report.model import ScenarioVerdict, Status

if TYPE_CHECKING:
    from oracle.report.expectations import Expectations

#: Outcomes that say nothing went wrong: the run to show is the first not among them.
_CLEAN = (Status.PASS, Status.XPASS)


def merge_repeats(verdicts: Iterable[ScenarioVerdict], expectations: Expectations | None = None
                  ) -> list[ScenarioVerdict]:
    """One verdict per scenario (its location and name: an Outline's row by its values),
    from the verdicts of its repeated runs in the order they ran; first seen, first
    listed. ``expectations``: the run's file, whose ``known_flaky`` entries it applies."""
    runs: dict[tuple[str, str], list[ScenarioVerdict]] = {}
    for verdict in verdicts:
        runs.setdefault((verdict.location, verdict.name), []).append(verdict)
    return [merge(group, expectations) for group in runs.values()]


def merge(runs: list[ScenarioVerdict], expectations: Expectations | None = None
          ) -> ScenarioVerdict:
    """A scenario's runs as one verdict: the first run's when every run ended alike, else
    ``flaky`` (``xfail`` when ``expectations`` lists it as known flaky), with every run's
    outcome (``outcomes``) and the first unclean run's steps, blame and message (prefixed
    with what the runs gave)."""
    outcomes = tuple(v.status for v in runs)
    if len(set(outcomes)) == 1:
        return runs[0]
    shown = next((i for i, v in enumerate(runs) if v.status not in _CLEAN), 0)
    base = runs[shown]
    known = expectations.known_flaky(runs) if expectations is not None else None
    head = (f"{'known flaky' if known else 'flaky'}: {len(runs)} runs of this scenario (the "
            f"same seed, the same requests) gave {', '.join(outcomes)}; run {shown + 1} "
            f"({base.status}) follows")
    return replace(base, status=Status.XFAIL if known else Status.FLAKY, outcomes=outcomes,
                   message=f"{head}\n{base.message}" if base.message else head,
                   duration=sum(v.duration for v in runs) / len(runs))


def outcomes_text(outcomes: Iterable[Status | str]) -> str:
    """``pass 2, fail 1``: how many runs gave each outcome, first given first."""
    counted: dict[str, int] = {}
    for outcome in outcomes:
        counted[str(outcome)] = counted.get(str(outcome), 0) + 1
    return ", ".join(f"{status} {n}" for status, n in counted.items())
