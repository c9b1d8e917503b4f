"""The Markdown report, for a CI job summary (``--markdown PATH``).

Shaped for the place it is read: what fails first (with why), then what was not tested,
and the rules that pass last, collapsed, so a long green list never hides a red line.
"""

from __future__ import annotations

import textwrap

from oracle.report.formats import Format
from oracle.report.formats.table import counts, engine_line
from oracle.report.model import FAILING, Report, RuleResult, Status

_HEAD = ["| rule | status | passed | failed | text |", "|---|---|---:|---:|---|"]


def _row(r: RuleResult) -> str:
    text = textwrap.shorten(r.text, 90, placeholder="…").replace("|", "\\|")
    status = f"**{r.status}**" if r.status in FAILING else str(r.status)
    return (f"| `{r.id}` | {status} | {r.count(Status.PASS)} | {r.count(*FAILING)} "
            f"| {text} |")


def render_markdown(report: Report) -> str:
    """Failures and why, then what was not tested, then the passing rules (collapsed)."""
    verdict = "conforms" if report.conforms else "does not conform"
    if report.interrupted:
        verdict = "INTERRUPTED: a partial report of the scenarios that ran before the stop"
    out = [f"## rules-oracle: {engine_line(report.engine)} {verdict}", ""]
    out += [counts(report, " · "), ""]
    problems = [(r, s) for r in report.rules for s in r.scenarios if s.status in FAILING]
    if problems:
        out += ["### Failures", ""]
        for r, s in problems:
            first = " — ".join(s.message.strip().splitlines()[:2]).replace("|", "\\|")
            out.append(f"- `{r.id}` {s.status}: **{s.name}** (`{s.location}`): {first}")
        out.append("")
    blocked = [(r, s) for r in report.rules for s in r.scenarios if s.status == Status.BLOCKED]
    if blocked:
        out += ["### Blocked (not charged to their own rule)", ""]
        for r, s in blocked:
            out.append(f"- `{r.id}` **{s.name}** (`{s.location}`): blocked by `{s.blocked_by}`, "
                       "which is charged")
        out.append("")
    shown = [r for r in report.rules if r.status not in (Status.PASS, Status.UNTESTABLE)]
    if shown:
        out += ["### Rules that do not pass", "", *_HEAD, *(_row(r) for r in shown), ""]
    untested = [r for r in report.rules if r.status in (Status.UNTESTABLE, Status.UNCOVERED)]
    if untested:
        out += ["### Not tested", ""]
        out += [f"- `{r.id}` {r.status}: {r.reason}" for r in untested]
        out.append("")
    passing = [r for r in report.rules if r.status == Status.PASS]
    if passing:
        out += [f"<details><summary>{len(passing)} rules pass</summary>", "", *_HEAD,
                *(_row(r) for r in passing), "", "</details>", ""]
    return "\n".join(out)


FORMAT = Format("markdown", "write the per-rule report as Markdown (for a CI job summary)",
                render_markdown)
