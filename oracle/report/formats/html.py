"""The HTML report (``--html PATH``): one self-contained page for a run or an engine matrix.

A run's page: the verdict, a summary table per game and status, then every rule as a
``<details>`` that opens to its scenarios, and each scenario that did not pass to its
message: the failing step, what went wrong, a reproduce command, the last exchanges with the
engine (``oracle.report.message`` splits the message; what it does not recognise is shown as
text). A matrix's page: the engines, the table of rules against engines (each cell a link
to that rule in that engine's report, further down the page), and each engine's report.

Rendering is generic over the model: every ``Status`` member has a style, a status this
code does not know is shown as its text, and filters offer the statuses the page holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from oracle.report.formats import Format
from oracle.report.formats.htmlcoverage import render_coverage_html
from oracle.report.formats.htmlpage import (
    badge,
    esc,
    filter_bar,
    href,
    page,
    row_attrs,
    status_order,
)
from oracle.report.formats.table import engine_line, trend_line
from oracle.report.matrix import (
    EngineColumn,
    Matrix,
    RuleRow,
    matrix_counts,
    passed_by_line,
)
from oracle.report.message import split_message
from oracle.report.model import Report, RuleResult, RulingResult, ScenarioResult
from oracle.report.trend import Trend, change_text


def _game(rule_id: str) -> str:
    return rule_id.partition(":")[0]


def _counts(statuses: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for s in statuses:
        counts[s] = counts.get(s, 0) + 1
    return counts


def _engine_facts(engine: Mapping[str, Any]) -> str:
    """The engine as a definition list: spec, seed, and what it said of itself per game."""
    facts = [("engine", engine.get("spec", "?")), ("seed", engine.get("seed", "?"))]
    for game, info in sorted(dict(engine.get("games") or {}).items()):
        info = info if isinstance(info, Mapping) else {}
        said = f"{info.get('name', '?')} {info.get('version', '')}".strip()
        label = info.get("label")
        facts.append((game, f"{said} ({label})" if label else said))
    return '<dl class="engine">' + "".join(
        f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in facts) + "</dl>"


def _summary_table(rules: tuple[RuleResult, ...], statuses: list[str]) -> str:
    """Rules per game and status, with a total line: readable without the script."""
    games = list(dict.fromkeys(_game(r.id) for r in rules))
    head = "".join(f"<th>{badge(s)}</th>" for s in statuses)
    lines = []
    for game in [*games, ""]:
        mine = [r for r in rules if not game or _game(r.id) == game]
        counts = _counts([str(r.status) for r in mine])
        cells = "".join(f'<td class="n">{counts.get(s, 0) or ""}</td>' for s in statuses)
        name = esc(game) if game else "<b>all</b>"
        lines.append(f'<tr><th>{name}</th><td class="n">{len(mine)}</td>{cells}</tr>')
    return (f'<table class="summary"><thead><tr><th>game</th><th>rules</th>{head}</tr>'
            f"</thead><tbody>{''.join(lines)}</tbody></table>")


def _message(text: str) -> str:
    """A scenario's message, its parts shown apart."""
    parts = split_message(text)
    out = []
    if parts.step:
        out.append(f'<p class="step">{esc(parts.step)}</p>')
    if parts.text:
        out.append(f'<pre class="text">{esc(parts.text)}</pre>')
    if parts.context:
        out.append(f'<p class="ctx mute">{esc(parts.context)}</p>')
    if parts.reproduce:
        out.append(f'<p>reproduce:</p><pre class="cmd"><code>{esc(parts.reproduce)}'
                   "</code></pre>")
    if parts.exchanges:
        items = "".join(
            f'<li class="{"req" if d == ">" else "rep"}">{esc(d)} {esc(x)}</li>'
            for d, x in parts.exchanges)
        out.append(f'<details class="exchanges" open><summary>last exchanges with the engine '
                   f'({len(parts.exchanges)})</summary><ol class="exchanges">{items}</ol>'
                   "</details>")
    return f'<div class="msg">{"".join(out)}</div>'


def _chain(s: ScenarioResult, prefix: str) -> str:
    """Which rule blocked the scenario, or which rules' scenario is charged here, linked."""
    def link(rule_id: str) -> str:
        return f'<a href="{href(prefix + rule_id)}"><code>{esc(rule_id)}</code></a>'

    out = []
    if s.blocked_by:
        out.append(f'<span class="chain">blocked by {link(s.blocked_by)}, which is charged'
                   "</span>")
    if s.charged_from:
        out.append('<span class="chain">charged here from the scenario of '
                   f"{', '.join(link(r) for r in s.charged_from)}</span>")
    return " ".join(out)


def _scenario(s: ScenarioResult, anchor: str, prefix: str) -> str:
    head = (f"{badge(s.status)} {esc(s.name)} <span class=\"loc\">{esc(s.location)}</span> "
            f'<span class="dur">{s.duration:.2f} s</span> {_chain(s, prefix)}')
    if not s.message:
        return f'<li id="{esc(anchor)}">{head}</li>'
    opened = " open" if s.failing else ""
    return (f'<li><details class="scenario" id="{esc(anchor)}"{opened}><summary>{head}'
            f"</summary>{_message(s.message)}</details></li>")


def _ruling(g: RulingResult, anchor: str, prefix: str) -> str:
    """A committee's ruling under its rule: its status (does the engine agree), its
    standing, its provenance (source, date, authority; the source as text, never a link
    out of the page), then its scenarios."""
    probe = ' <span class="mute">— a probe: counts for nothing, fails nothing</span>' \
        if g.probe else ""
    head = (f'<code class="id">{esc(g.id)}</code> {badge(g.status)} '
            f'<span class="standing">{esc(g.status_text)}</span> '
            f'<span class="mute">{esc(g.agreement)}</span>{probe}')
    facts = [("source", g.source), ("date", g.date), ("authority", g.authority),
             ("written at", g.location)]
    body = '<dl class="provenance">' + "".join(
        f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in facts if v) + "</dl>"
    if g.scenarios:
        body += '<ul class="scenarios">' + "".join(
            _scenario(s, f"{anchor}/s{k}", prefix) for k, s in enumerate(g.scenarios, 1)
        ) + "</ul>"
    opened = " open" if g.failing and not g.probe else ""
    return (f'<li><details class="ruling" id="{esc(anchor)}"{opened}><summary>{head}'
            f"</summary>{body}</details></li>")


def _rulings(r: RuleResult, anchor: str, prefix: str) -> str:
    """The rulings that refine a rule, and the scenarios rulings retire or replace."""
    out = ""
    if r.rulings:
        out += '<ul class="rulings">' + "".join(
            _ruling(g, f"{anchor}/{g.id.rpartition('/')[2]}", prefix) for g in r.rulings
        ) + "</ul>"
    for t in r.retired:
        verb = "replaced" if t.replaced else "retired"
        when = "" if t.effective else " once that ruling is official (it is not yet)"
        out += (f'<p class="retired mute">{esc(t.name)} <span class="loc">'
                f"{esc(t.location)}</span> {verb} by <code>{esc(t.by)}</code>{esc(when)}: "
                f"{esc(t.reason)}</p>")
    return out


def _rule(r: RuleResult, prefix: str, filterable: bool) -> str:
    """A rule as ``<details>``: summary line, reason, its scenarios, then its rulings."""
    anchor = prefix + r.id
    search = " ".join([r.id, r.text, *(g.id for g in r.rulings)])
    statuses = [r.status, *(g.status for g in r.rulings)]
    attrs = " " + row_attrs(statuses, _game(r.id), search) if filterable else ""
    opened = " open" if r.failing and filterable else ""
    tally = _counts([str(s.status) for s in r.scenarios])
    counts = " · ".join(f"{tally[s]} {esc(s)}" for s in status_order(tally))
    if r.rulings:
        agreed = r.tally()
        counts += (f" · rulings {agreed['rulings_passed']}/{agreed['rulings']} pass"
                   if counts else f"rulings {agreed['rulings_passed']}/{agreed['rulings']} "
                   "pass")
    added = (f'<span class="mute">(added by <code>{esc(r.added_by)}</code>)</span> '
             if r.added_by else "")
    body = f'<p class="reason mute">{esc(r.reason)}</p>' if r.reason else ""
    if r.scenarios:
        body += '<ul class="scenarios">' + "".join(
            _scenario(s, f"{anchor}/s{k}", prefix) for k, s in enumerate(r.scenarios, 1)
        ) + "</ul>"
    body += _rulings(r, anchor, prefix)
    return (f'<details class="rule" id="{esc(anchor)}"{attrs}{opened}><summary>'
            f'<code class="id">{esc(r.id)}</code> {badge(r.status)} '
            f'<span class="mute">{counts}</span> {added}<span class="text">{esc(r.text)}'
            f"</span></summary>{body}</details>")


def _rules(report: Report, prefix: str, filterable: bool) -> str:
    return "".join(_rule(r, prefix, filterable) for r in report.rules)


def render_html(report: Report) -> str:
    """A run's page: verdict, engine, summary table, filters, every rule."""
    verdict = ('<p class="verdict good">conforms</p>' if report.conforms
               else '<p class="verdict bad">does not conform</p>')
    if report.interrupted:
        verdict = ('<p class="verdict bad">interrupted: this report is partial, rules not '
                   'reached are shown as not run</p>') + verdict
    statuses = [str(r.status) for r in report.rules]
    order = status_order(statuses)
    games = list(dict.fromkeys(_game(r.id) for r in report.rules))
    scenarios = report.summary.get("scenarios", 0)
    body = (f"<header><h1>rules-oracle: {esc(engine_line(report.engine))}</h1>{verdict}"
            f"{_engine_facts(report.engine)}</header>"
            f'<section><h2>Summary</h2><p>{len(report.rules)} rules, {esc(scenarios)} '
            f"scenarios</p>{_summary_table(report.rules, order)}</section>"
            f"<section><h2>Rules</h2>{filter_bar(_counts(statuses), games, len(statuses), 'rules')}"
            f'<div class="rules">{_rules(report, "r/", True)}</div></section>')
    return page(f"rules-oracle: {engine_line(report.engine)}", body, report.interrupted)


def _column_head(ci: int, col: EngineColumn) -> str:
    return f'<th><a href="{href(f"e{ci}")}">{ci}</a><small>{esc(col.spec)}</small></th>'


def _engines_table(matrix: Matrix) -> str:
    lines = []
    for ci, col in enumerate(matrix.columns, 1):
        if col.report is None:
            run = '<span class="bad">no report</span>'
        else:
            run = ('<span class="good">conforms</span>' if col.conforms
                   else '<span class="bad">does not conform</span>')
        lines.append(f'<tr><td class="n"><a href="{href(f"e{ci}")}">{ci}</a></td>'
                     f"<td><code>{esc(col.spec)}</code></td><td>{run}</td>"
                     f'<td class="n">{esc(col.exit_code)}</td>'
                     f"<td>{esc(matrix_counts(matrix, col))}</td></tr>")
    return ('<table class="engines"><thead><tr><th>#</th><th>engine</th><th>run</th>'
            f"<th>exit</th><th>rules</th></tr></thead><tbody>{''.join(lines)}</tbody></table>")


def _matrix_table(matrix: Matrix, last: str = "passed by",
                  last_of: Callable[[RuleRow], str] | None = None) -> str:
    """Rules against columns (engines, or runs), each cell a link to the rule in that
    column's report on the page; the ``last`` column (the agreement, or a trend's first
    change) before the rule's text."""
    last_of = last_of or (lambda row: str(matrix.agreement(row)))
    head = "".join(_column_head(ci, c) for ci, c in enumerate(matrix.columns, 1))
    lines = []
    for row in matrix.rows:
        cells = matrix.cells(row)
        tds = "".join(
            f"<td>{badge(cell.status, row_link(ci, col, row.id))}</td>"
            for ci, (col, cell) in enumerate(zip(matrix.columns, cells, strict=True), 1))
        attrs = row_attrs([c.status for c in cells], row.game, f"{row.id} {row.text}")
        lines.append(f'<tr id="{esc("m/" + row.id)}" {attrs}><th><code class="id">'
                     f'{esc(row.id)}</code></th>{tds}<td class="n">'
                     f'{esc(last_of(row))}</td><td class="text">{esc(row.text)}</td>'
                     "</tr>")
    return (f'<table class="matrix"><thead><tr><th>rule</th>{head}<th>{esc(last)}</th>'
            f"<th>text</th></tr></thead><tbody>{''.join(lines)}</tbody></table>")


def _disagreements(matrix: Matrix) -> str:
    """How many engines pass how many rules, then the rows where they disagree (listed
    first: the candidates for a ruling), each linked to its row of the matrix."""
    line = passed_by_line(matrix)
    rows = matrix.disagreements()
    if not rows:
        return f"<p>{esc(line)}</p>" if line else ""
    items = []
    for row in rows:
        passing, failing = (", ".join(map(str, side)) for side in matrix.sides(row))
        items.append(f'<tr><th><a href="{href("m/" + row.id)}"><code class="id">'
                     f"{esc(row.id)}</code></a></th><td>{esc(matrix.agreement(row))}</td>"
                     f"<td>{esc(passing)}</td><td>{esc(failing)}</td>"
                     f'<td class="text">{esc(row.text)}</td></tr>')
    return (f"<p>{esc(line)}</p><table class=\"matrix disagree\"><thead><tr><th>rule</th>"
            "<th>passed by</th><th>pass</th><th>fail</th><th>text</th></tr></thead>"
            f"<tbody>{''.join(items)}</tbody></table>")


def row_link(ci: int, col: EngineColumn, rule_id: str) -> str:
    """Where a cell links: the rule in the engine's report, or the engine's error."""
    if col.report is None or (col.report.rule(rule_id) is None
                              and col.report.ruling(rule_id) is None):
        return f"e{ci}"
    return f"e{ci}/{rule_id}"


def _engine_section(ci: int, col: EngineColumn, matrix: Matrix) -> str:
    head = f"{ci}. <code>{esc(col.spec)}</code> "
    if col.report is None:
        return (f'<details class="engine" id="e{ci}" open><summary>{head}'
                f'<span class="bad">the run gave no report</span> '
                f'<span class="mute">(exit {esc(col.exit_code)})</span></summary>'
                f'<pre class="text">{esc(col.error)}</pre></details>')
    verdict = ('<span class="good">conforms</span>' if col.conforms
               else '<span class="bad">does not conform</span>')
    return (f'<details class="engine" id="e{ci}"><summary>{head}{verdict} '
            f'<span class="mute">{esc(matrix_counts(matrix, col))}</span></summary>'
            f"{_engine_facts(col.report.engine)}{_rules(col.report, f'e{ci}/', False)}"
            "</details>")


def _row_counts(matrix: Matrix) -> dict[str, int]:
    """How many rows show each status in some column (what the filters offer)."""
    row_statuses = [" ".join(dict.fromkeys(str(c.status) for c in matrix.cells(r)))
                    for r in matrix.rows]
    return _counts([s for line in row_statuses for s in line.split()])


def render_trend_html(trend: Trend) -> str:
    """A trend's page: the runs (oldest first), the rules that changed, filters, every rule
    run by run (each cell a link to the rule in that run's report), each run's report."""
    matrix = trend.matrix
    runs = "".join(
        f'<tr><td class="n"><a href="{href(f"e{i}")}">{i}</a></td><td>{esc(run.when)}'
        + (' <span class="mute">(file time)</span>' if run.by_file_time else "")
        + f"</td><td><code>{esc(run.report.engine.get('spec', '?'))}</code></td>"
        f"<td><code>{esc(run.path.name)}</code></td>"
        f"<td>{esc(matrix_counts(matrix, col))}</td></tr>"
        for i, (run, col) in enumerate(zip(trend.runs, matrix.columns, strict=True), 1))
    changed = "".join(
        f'<tr><th><a href="{href("m/" + row.id)}"><code class="id">{esc(row.id)}</code></a>'
        f"</th><td>{esc(change_text(trend.first_change(row)))}</td>"
        f'<td class="n">{len(trend.changes(row))}</td>'
        f"<td>{badge(trend.statuses(row)[-1])}</td></tr>" for row in trend.changed())
    notes = "".join(f'<p class="mute">{esc(note)}</p>' for note in trend.notes)
    body = (f"<header><h1>rules-oracle trend: {trend.runs_text}, {len(trend.rows)} "
            f"rules</h1><p>{esc(trend_line(trend))}</p>{notes}</header>"
            '<section><h2>Runs, oldest first</h2><table class="runs"><thead><tr><th>#</th>'
            "<th>started</th><th>engine</th><th>report</th><th>rules</th></tr></thead>"
            f"<tbody>{runs}</tbody></table></section>"
            + ('<section><h2>Rules that changed</h2><table class="matrix changed"><thead><tr>'
               "<th>rule</th><th>first change</th><th>changes</th><th>now</th></tr></thead>"
               f"<tbody>{changed}</tbody></table></section>" if changed else "")
            + _grid_sections(matrix, "Every rule, run by run", _matrix_table(
                matrix, "first change", lambda r: change_text(trend.first_change(r))),
                "Each run's report"))
    return page(f"rules-oracle trend: {trend.runs_text}", body)


def _grid_sections(matrix: Matrix, title: str, table: str, reports: str) -> str:
    """The filters and the grid of rules against columns, then each column's report (the
    grid's cells link into them)."""
    return (f"<section><h2>{esc(title)}</h2>"
            f"{filter_bar(_row_counts(matrix), matrix.games(), len(matrix.rows), 'rules')}"
            f"{table}</section><section><h2>{esc(reports)}</h2>"
            + "".join(_engine_section(ci, c, matrix)
                      for ci, c in enumerate(matrix.columns, 1)) + "</section>")


def render_matrix_html(matrix: Matrix) -> str:
    """A matrix's page: engines, filters, rules against engines, each engine's report."""
    verdict = ('<p class="verdict good">every engine conforms</p>' if matrix.conforms
               else '<p class="verdict bad">not every engine conforms</p>')
    body = (f"<header><h1>rules-oracle matrix: {len(matrix.columns)} engines, "
            f"{len(matrix.rows)} rules</h1>{verdict}</header>"
            f"<section><h2>Engines</h2>{_engines_table(matrix)}</section>"
            + (f"<section><h2>Where the engines disagree</h2>{_disagreements(matrix)}"
               "</section>" if matrix.columns else "")
            + _grid_sections(matrix, "Rules against engines", _matrix_table(matrix),
                             "Each engine's report"))
    return page(f"rules-oracle matrix: {len(matrix.columns)} engines", body)


FORMAT = Format("html", "write the per-rule report as one self-contained HTML page",
                render_html, matrix=render_matrix_html, coverage=render_coverage_html,
                trend=render_trend_html)
