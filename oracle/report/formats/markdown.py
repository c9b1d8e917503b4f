"""The Markdown report, for a CI job summary (``--markdown PATH``)."""

from __future__ import annotations

import textwrap

from oracle.report.formats import Format
from oracle.report.formats.table import counts, engine_line, explored
from oracle.report.model import FAILING, Report, Status


def render_markdown(report: Report) -> str:
    """A table, then what failed and why, then what was not tested."""
    verdict = "conforms" if report.conforms else "does not conform"
    out = [f"## rules-oracle: {engine_line(report.engine)} {verdict}", ""]
    out += [counts(report, " · "), ""]
    out += ["| rule | status | passed | failed | text |", "|---|---|---:|---:|---|"]
    for r in report.rules:
        text = textwrap.shorten(r.text, 90, placeholder="…").replace("|", "\\|")
        status = f"**{r.status}**" if r.status in FAILING else str(r.status)
        out.append(f"| `{r.id}` | {status} | {r.count(Status.PASS)} | {r.count(*FAILING)} "
                   f"| {text} |")
    problems = [(r, s) for r in report.rules for s in r.scenarios if s.status in FAILING]
    if problems:
        out += ["", "### Failures", ""]
        for r, s in problems:
            first = " — ".join(s.message.strip().splitlines()[:2]).replace("|", "\\|")
            out.append(f"- `{r.id}` {s.status}: **{s.name}** (`{s.location}`): {first}")
    blocked = [(r, s) for r in report.rules for s in r.scenarios if s.status == Status.BLOCKED]
    if blocked:
        out += ["", "### Blocked (not charged to their own rule)", ""]
        for r, s in blocked:
            out.append(f"- `{r.id}` **{s.name}** (`{s.location}`): blocked by `{s.blocked_by}`, "
                       "which is charged")
    explored_ = [(r, s) for r in report.rules for s in r.scenarios if s.exercised is not None]
    if explored_:
        out += ["", "### Exploration (states that exercised each invariant)", ""]
        out += [f"- `{r.id}` {explored(s)}" for r, s in explored_]
    untested = [r for r in report.rules if r.status in (Status.UNTESTABLE, Status.UNCOVERED)]
    if untested:
        out += ["", "### Not tested", ""]
        out += [f"- `{r.id}` {r.status}: {r.reason}" for r in untested]
    return "\n".join(out) + "\n"


FORMAT = Format("markdown", "write the per-rule report as Markdown (for a CI job summary)",
                render_markdown)
