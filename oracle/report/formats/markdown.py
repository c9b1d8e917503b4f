"""The Markdown report, for a CI job summary (``--markdown PATH``), the engine matrix and
the trend of rules across runs.

Shaped for the place it is read: what fails first (with why), then what was not tested,
and the rules that pass last, collapsed, so a long green list never hides a red line.
"""

from __future__ import annotations

import re
import textwrap

from oracle.report.coverage import UNCOVERED, Coverage, SentenceCoverage
from oracle.report.formats import Format
from oracle.report.formats.table import (
    counts,
    coverage_line,
    engine_line,
    explored,
    trend_line,
    untested_note,
)
from oracle.report.matrix import (
    EngineColumn,
    Matrix,
    RuleRow,
    matrix_counts,
    passed_by_line,
)
from oracle.report.model import (
    FAILING,
    Report,
    RuleResult,
    RulingResult,
    ScenarioResult,
    Status,
)
from oracle.report.trend import Trend, change_text

#: Cells that say nothing engine-specific beyond their status: no link to a message.
QUIET = frozenset({Status.PASS, Status.UNTESTABLE, Status.UNCOVERED})


def _cell(text: str) -> str:
    """Text safe inside a table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _code(text: str) -> str:
    """A code span around any text (a longer fence when the text holds backticks)."""
    text = _cell(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _first_lines(message: str, n: int = 2) -> str:
    return _cell(" — ".join(message.strip().splitlines()[:n]))


def _head(with_rulings: bool) -> list[str]:
    """Scenarios passed, failed and unsupported (not run); ``why``: what went untested."""
    if with_rulings:
        return ["| rule | status | passed | failed | unsupported | rulings passed | text | "
                "why not tested |", "|---|---|---:|---:|---:|---:|---|---|"]
    return ["| rule | status | passed | failed | unsupported | text | why not tested |",
            "|---|---|---:|---:|---:|---|---|"]


def render_markdown(report: Report) -> str:
    """Failures and why, then what was not tested, then the passing rules (collapsed);
    rulings as rows under their rule, and a section with their provenance."""
    verdict = "conforms" if report.conforms else "does not conform"
    if report.interrupted:
        verdict = "INTERRUPTED: a partial report of the scenarios that ran before the stop"
    with_rulings = any(r.rulings for r in report.rules)
    out = [f"## rules-oracle: {engine_line(report.engine)} {verdict}", ""]
    out += [counts(report, " · "), ""]
    problems = report.failures()
    if problems:
        out += ["### Failures", ""]
        for r, s in problems:
            out.append(f"- `{r.id}` {s.status}: **{s.name}** (`{s.location}`): "
                       f"{_first_lines(s.message)}")
        out.append("")
    blocked = report.blocked()
    if blocked:
        out += ["### Blocked (not charged to their own rule)", ""]
        for r, s in blocked:
            out.append(f"- `{r.id}` **{s.name}** (`{s.location}`): blocked by `{s.blocked_by}`, "
                       "which is charged")
        out.append("")
    explored_ = [(r, s) for r in report.rules for s in r.scenarios if s.exercised is not None]
    if explored_:
        out += ["### Exploration (states that exercised each invariant)", ""]
        out += [f"- `{r.id}` {explored(s)}" for r, s in explored_]
        out.append("")
    shown = [r for r in report.rules if r.status not in (Status.PASS, Status.UNTESTABLE)]
    if shown:
        out += ["### Rules that do not pass", "", *_head(with_rulings),
                *(row for r in shown for row in _rows(r, with_rulings)), ""]
    if with_rulings or any(r.retired for r in report.rules):
        out += _rulings_section(report)
    untested = [r for r in report.rules if r.status in (Status.UNTESTABLE, Status.UNCOVERED)]
    if untested:
        out += ["### Not tested", ""]
        out += [f"- `{r.id}` {r.status}: {r.reason}" for r in untested]
        out.append("")
    passing = [r for r in report.rules if r.status == Status.PASS]
    if passing:
        out += [f"<details><summary>{len(passing)} rules pass</summary>", "",
                *_head(with_rulings), *(row for r in passing for row in _rows(r, with_rulings)),
                "", "</details>", ""]
    return "\n".join(out)


def _anchor(ci: int, ri: int | None = None) -> str:
    return f"e{ci}" if ri is None else f"e{ci}r{ri}"


def _chain(s: ScenarioResult) -> str:
    if s.blocked_by:
        return f", blocked by {_code(s.blocked_by)}"
    if s.charged_from:
        return f", charged from {', '.join(_code(r) for r in s.charged_from)}"
    return ""


def _rule_messages(rule: RuleResult) -> list[str]:
    """A line per scenario that did not pass, or the rule's reason (which is all an
    ``unsupported`` rule has to say: its first scenario's missing capability)."""
    if rule.status == Status.UNSUPPORTED and rule.reason:
        return [f"- {_cell(rule.reason)}"]
    lines = [f"- {s.status}: **{_cell(s.name)}** ({_code(s.location)}){_chain(s)}: "
             f"{_first_lines(s.message)}" for s in rule.scenarios if s.status != Status.PASS]
    if lines or not rule.reason:
        return lines
    return [f"- {_cell(rule.reason)}"]


def render_matrix_markdown(matrix: Matrix) -> str:
    """Engines (numbered), the matrix with each telling cell linked to its message, the
    messages."""
    verdict = "every engine conforms" if matrix.conforms else "not every engine conforms"
    out = [f"## rules-oracle matrix: {len(matrix.columns)} engines, {len(matrix.rows)} rules; "
           f"{verdict}", "", "| # | engine | run | rules |", "|---:|---|---|---|"]
    for ci, col in enumerate(matrix.columns, 1):
        if col.report is None:
            run = f"[**no report**](#{_anchor(ci)}) (exit {col.exit_code})"
        else:
            run = ("conforms" if col.conforms else "**does not conform**") + \
                f" (exit {col.exit_code})"
        out.append(f"| {ci} | {_code(col.spec)} | {run} | {matrix_counts(matrix, col)} |")
    numbers = " | ".join(str(i) for i in range(1, len(matrix.columns) + 1))
    if passed_by_line(matrix):
        out += ["", passed_by_line(matrix).capitalize() + "."]
    disagree = matrix.disagreements()
    if disagree:
        out += ["", "### Where the engines disagree (candidates for a ruling)", "",
                "| passed by | rule | pass | fail | text |", "|---|---|---|---|---|"]
        for row in disagree:
            passing, failing = (", ".join(map(str, side)) for side in matrix.sides(row))
            text = textwrap.shorten(row.text, 80, placeholder="…").replace("|", "\\|")
            out.append(f"| {matrix.agreement(row)} | `{row.id}` | {passing} | {failing} | "
                       f"{text} |")
    out += ["", f"| rule | {numbers} | passed by | text |",
            "|---|" + "---|" * len(matrix.columns) + "---|---|"]
    messages: list[str] = []
    for ri, row in enumerate(matrix.rows):
        cells = [_matrix_cell(matrix, row, ci, col, ri, messages)
                 for ci, col in enumerate(matrix.columns, 1)]
        text = textwrap.shorten(row.text, 80, placeholder="…").replace("|", "\\|")
        out.append(f"| `{row.id}` | {' | '.join(cells)} | {matrix.agreement(row)} | {text} |")
    errors = [(ci, c) for ci, c in enumerate(matrix.columns, 1) if c.report is None]
    if messages or errors:
        out += ["", "### Messages", ""]
        for ci, col in errors:
            out += [f'<a id="{_anchor(ci)}"></a>', "",
                    f"#### {ci}. {_code(col.spec)}: the run gave no report", "", "```",
                    col.error.replace("```", "'''"), "```", ""]
        out += messages
    return "\n".join(out) + "\n"


def render_trend_markdown(trend: Trend) -> str:
    """The runs (numbered, oldest first), the rules that changed with their first change,
    then every rule's status in each run."""
    out = [f"## rules-oracle trend: {trend.runs_text}, {len(trend.rows)} rules", "",
           "| # | started | engine | report | rules |", "|---:|---|---|---|---|"]
    for i, (run, col) in enumerate(zip(trend.runs, trend.matrix.columns, strict=True), 1):
        when = run.when + (" (file time)" if run.by_file_time else "")
        out.append(f"| {i} | {_cell(when)} | {_code(str(run.report.engine.get('spec', '?')))}"
                   f" | {_code(run.path.name)} | {matrix_counts(trend.matrix, col)} |")
    out += ["", *(f"- {_cell(note)}" for note in trend.notes), "",
            trend_line(trend).capitalize() + "."]
    changed = trend.changed()
    if changed:
        out += ["", "### Rules that changed", "", "| rule | first change | changes | now |",
                "|---|---|---:|---|"]
        for row in changed:
            now = trend.statuses(row)[-1]
            out.append(f"| `{row.id}` | {change_text(trend.first_change(row))} | "
                       f"{len(trend.changes(row))} | {_shown(now)} |")
    numbers = " | ".join(str(i) for i in range(1, len(trend.runs) + 1))
    out += ["", "### Every rule, run by run", "", f"| rule | {numbers} | first change |",
            "|---|" + "---|" * len(trend.runs) + "---|"]
    for row in trend.rows:
        cells = " | ".join(_shown(s) for s in trend.statuses(row))
        out.append(f"| `{row.id}` | {cells} | {change_text(trend.first_change(row))} |")
    return "\n".join(out) + "\n"


def _shown(status: Status) -> str:
    """A status in a table: bold when it fails a run."""
    return f"**{status}**" if status in FAILING else str(status)


def _matrix_cell(matrix: Matrix, row: RuleRow, ci: int, col: EngineColumn, ri: int,
                 messages: list[str]) -> str:
    """A cell's text, linked (and its message added to ``messages``) when it has one."""
    cell = matrix.cell(row, col)
    shown = _shown(cell.status)
    if col.report is None:
        return f"[{shown}](#{_anchor(ci)})"
    if cell.status in QUIET:
        return shown
    if row.ruling:
        ruling = col.report.ruling(row.id)
        lines = [f"- {s.status}: **{_cell(s.name)}** ({_code(s.location)}): "
                 f"{_first_lines(s.message)}" for s in (ruling.scenarios if ruling else ())
                 if s.status != Status.PASS]
    else:
        rule = col.report.rule(row.id)
        if rule is None:
            return shown
        lines = _rule_messages(rule)
    if not lines:
        return shown
    messages += [f'<a id="{_anchor(ci, ri)}"></a>', "",
                 f"#### {_code(row.id)} on {ci}. {_code(col.spec)}: {cell.status}", "",
                 *lines, ""]
    return f"[{shown}](#{_anchor(ci, ri)})"


def _rows(r: RuleResult, with_rulings: bool) -> list[str]:
    text = _cell(textwrap.shorten(r.text, 90, placeholder="…"))
    if r.added_by:
        text = f"*(added by {r.added_by})* {text}"
    status = _shown(r.status)
    tally = r.tally()
    ruled = f" {tally['rulings_passed']}/{tally['rulings']} |" if r.rulings else " |"
    rows = [f"| `{r.id}` | {status} | {r.count(Status.PASS)} | {r.failed()} | "
            f"{r.count(Status.UNSUPPORTED)} |" + (ruled if with_rulings else "")
            + f" {text} | {_cell(untested_note(r)) or '–'} |"]
    for g in r.rulings:
        passed, failed, unsupported = (g.count(Status.PASS), g.failed(),
                                       g.count(Status.UNSUPPORTED))
        shown = f"**{g.status}**" if g.failing and not g.probe else str(g.status)
        rows.append(f"| ↳ `{g.id}` | {shown} ({_cell(g.status_text)}) | {passed} | {failed} | "
                    f"{unsupported} |" + (" |" if with_rulings else "")
                    + f" {_cell(g.agreement)}{' (probe)' if g.probe else ''}: "
                    f"{_cell(_linked(g.source))}; {g.date}; {_cell(g.authority)} | – |")
    return rows


def _linked(source: str) -> str:
    """A source with its URLs as Markdown links."""
    return re.sub(r"(https?://[^\s,;)]+)", r"<\1>", source)


def _rulings_section(report: Report) -> list[str]:
    out = ["### Rulings", ""]
    for r in report.rules:
        for g in r.rulings:
            out += _ruling_entry(r, g)
        for t in r.retired:
            verb = "replaced" if t.replaced else "retired"
            when = "" if t.effective else " once that ruling is official (it is not yet)"
            out.append(f"- `{r.id}` scenario **{t.name}** (`{t.location}`) {verb} by `{t.by}`"
                       f"{when}: {t.reason}")
    return [*out, ""]


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


def render_coverage_markdown(coverage: Coverage) -> str:
    """Totals per game, then what the suite does not check (the uncovered sentences, with
    why), then every sentence with what checks it, and the context sentences (collapsed)."""
    out = [f"## rules-oracle coverage: {coverage_line(coverage)}", ""]
    out += ["| game | sentences | covered | waived | uncovered | context (cited) | "
            "scenarios citing nothing |", "|---|---:|---:|---:|---:|---:|---:|"]
    for game in coverage.games:
        t = coverage.totals(game)
        uncovered = f"**{t['uncovered']}**" if t["uncovered"] else "0"
        out.append(f"| {_cell(t['title'])} (`{game}`) | {t['sentences']} | {t['covered']} | "
                   f"{t['waived']} | {uncovered} | {t['context']} ({t['context_cited']}) | "
                   f"{t['uncited_scenarios']} |")
    out += ["", *(f"- {_cell(note)}" for note in coverage.notes)]
    missing = [s for s in coverage.sentences if s.status == UNCOVERED]
    if missing:
        out += ["", f"### Uncovered sentences ({len(missing)})", "",
                "| sentence | text | why |", "|---|---|---|"]
        out += [f"| `{s.anchor}` | {_cell(s.text)} | {_cell(s.reason)} |" for s in missing]
    out += ["", f"<details><summary>Every sentence ({len(coverage.sentences)})</summary>", "",
            *_sentence_table(coverage.sentences, coverage), "", "</details>"]
    if coverage.context:
        out += ["", f"<details><summary>Context sentences ({len(coverage.context)}): the "
                "related chapters, citable, never uncovered</summary>", "",
                *_sentence_table(coverage.context, coverage), "", "</details>"]
    return "\n".join(out) + "\n"


def _sentence_table(sentences: tuple[SentenceCoverage, ...], coverage: Coverage) -> list[str]:
    verdicts = coverage.engine is not None
    head = "| sentence | status | text | scenarios | mutants | rulings |" + (
        " verdict |" if verdicts else "")
    lines = [head, "|---" * head.count(" |") + "|"]
    for s in sentences:
        status = f"**{s.status}**" if s.status == UNCOVERED else s.status
        text = _cell(textwrap.shorten(s.text, 160, placeholder="…"))
        if s.reason:
            text += f" *({_cell(s.reason)})*"
        scenarios = "<br>".join(
            f"{_cell(c.name)}" + (f" ({c.standing} ruling)" if c.ruling else "")
            for c in s.scenarios) or "–"
        mutants = str(len(s.mutants)) if coverage.mutants is not None else "–"
        rulings = ", ".join(_code(r.id) for r in s.rulings) or "–"
        lines.append(f"| `{s.anchor}` | {status} | {text} | {scenarios} | {mutants} | "
                     f"{rulings} |" + (f" {s.verdict or '–'} |" if verdicts else ""))
    return lines


FORMAT = Format("markdown", "write the per-rule report as Markdown (for a CI job summary)",
                render_markdown, matrix=render_matrix_markdown,
                coverage=render_coverage_markdown, trend=render_trend_markdown)
