"""The Markdown report, for a CI job summary (``--markdown PATH``)."""

from __future__ import annotations

import re
import textwrap

from oracle.report.formats import Format
from oracle.report.formats.table import counts, engine_line
from oracle.report.model import FAILING, Report, RuleResult, RulingResult, Status


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Report) -> str:
    """A table (rulings as rows under their rule), then what failed and why, the rulings with
    their provenance, and what was not tested."""
    verdict = "conforms" if report.conforms else "does not conform"
    with_rulings = any(r.rulings for r in report.rules)
    out = [f"## rules-oracle: {engine_line(report.engine)} {verdict}", ""]
    out += [counts(report, " · "), ""]
    if with_rulings:
        out += ["| rule | status | passed | failed | rulings passed | text |",
                "|---|---|---:|---:|---:|---|"]
    else:
        out += ["| rule | status | passed | failed | text |", "|---|---|---:|---:|---|"]
    for r in report.rules:
        out += _rows(r, with_rulings)
    problems = [(r, s) for r in report.rules for s in r.scenarios if s.status in FAILING]
    problems += [(r, s) for r in report.rules for g in r.rulings if not g.probe
                 for s in g.scenarios if s.status in FAILING]
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
    if with_rulings or any(r.retired for r in report.rules):
        out += _rulings_section(report)
    untested = [r for r in report.rules if r.status in (Status.UNTESTABLE, Status.UNCOVERED)]
    if untested:
        out += ["", "### Not tested", ""]
        out += [f"- `{r.id}` {r.status}: {r.reason}" for r in untested]
    return "\n".join(out) + "\n"


def _rows(r: RuleResult, with_rulings: bool) -> list[str]:
    text = _cell(textwrap.shorten(r.text, 90, placeholder="…"))
    if r.added_by:
        text = f"*(added by {r.added_by})* {text}"
    status = f"**{r.status}**" if r.status in FAILING else str(r.status)
    tally = r.tally()
    ruled = f" {tally['rulings_passed']}/{tally['rulings']} |" if r.rulings else " |"
    rows = [f"| `{r.id}` | {status} | {r.count(Status.PASS)} | {r.count(*FAILING)} |"
            + (ruled if with_rulings else "") + f" {text} |"]
    for g in r.rulings:
        passed = sum(1 for s in g.scenarios if s.status == Status.PASS)
        failed = sum(1 for s in g.scenarios if s.status in FAILING)
        shown = f"**{g.status}**" if g.status in FAILING and not g.probe else str(g.status)
        rows.append(f"| ↳ `{g.id}` | {shown} ({_cell(g.status_text)}) | {passed} | {failed} |"
                    + (" |" if with_rulings else "")
                    + f" {_cell(g.agreement)}{' (probe)' if g.probe else ''}: "
                    f"{_cell(_linked(g.source))}; {g.date}; {_cell(g.authority)} |")
    return rows


def _linked(source: str) -> str:
    """A source with its URLs as Markdown links."""
    return re.sub(r"(https?://[^\s,;)]+)", r"<\1>", source)


def _rulings_section(report: Report) -> list[str]:
    out = ["", "### Rulings", ""]
    for r in report.rules:
        for g in r.rulings:
            out += _ruling_entry(r, g)
        for t in r.retired:
            verb = "replaced" if t.replaced else "retired"
            when = "" if t.effective else " once that ruling is official (it is not yet)"
            out.append(f"- `{r.id}` scenario **{t.name}** (`{t.location}`) {verb} by `{t.by}`"
                       f"{when}: {t.reason}")
    return out


def _ruling_entry(r: RuleResult, g: RulingResult) -> list[str]:
    probe = " — a probe: it counts for nothing and fails nothing" if g.probe else ""
    lines = [f"- `{g.id}` refines `{g.refines}`: **{g.status_text}**, {g.status} "
             f"({g.agreement}){probe}",
             f"  - source: {_linked(g.source)}; date: {g.date}; authority: {g.authority}; "
             f"written at `{g.location}`"]
    for s in g.scenarios:
        first = " — ".join(s.message.strip().splitlines()[:1])
        lines.append(f"  - {s.status}: {s.name} (`{s.location}`)"
                     + (f": {first}" if first else ""))
    return lines


FORMAT = Format("markdown", "write the per-rule report as Markdown (for a CI job summary)",
                render_markdown)
