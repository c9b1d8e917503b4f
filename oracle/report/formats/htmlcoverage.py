"""The sentence coverage page (``rules-oracle coverage --html PATH``), for a rules committee.

Laid out the way Catala lays out law beside code: the rules text read top to bottom, a
sentence per row, and beside each sentence what checks it (the scenarios citing it, with
their verdicts on an engine when one ran, the mutants those scenarios fail, the rulings
refining it) or why nothing can (its waiver). The totals per game come first; an uncovered
sentence is marked in red, so what the suite does not check shows at a glance. The related
chapters' context sentences follow in a section of their own (never uncovered), then the
scenarios that cite no sentence at all.

Same shell as the run's page (``htmlpage``: self-contained, nothing loaded, every text
escaped, the filters by status, game and text), so this is not a second HTML writer.
"""

from __future__ import annotations

from itertools import groupby

from oracle.report.coverage import (
    COVERED,
    SENTENCE_STATUSES,
    UNCOVERED,
    WAIVED,
    CitingScenario,
    Coverage,
    SentenceCoverage,
)
from oracle.report.formats.htmlpage import badge, esc, filter_bar, href, page, row_attrs
from oracle.report.formats.table import coverage_line


def _totals(coverage: Coverage) -> str:
    """Per game: sentences by status, context (cited), scenarios citing nothing."""
    head = ("<tr><th>game</th><th>sentences</th>" + "".join(
        f"<th>{badge(s)}</th>" for s in (COVERED, WAIVED, UNCOVERED))
        + "<th>context (cited)</th><th>scenarios citing nothing</th>"
        + ("<th>covered, no mutant fails it</th>" if coverage.mutants is not None else "")
        + "</tr>")
    lines = []
    for game in coverage.games:
        t = coverage.totals(game)
        uncovered = (f'<a href="{href("g/" + game)}" class="bad">{t["uncovered"]}</a>'
                     if t["uncovered"] else "0")
        unbacked = (f'<td class="n">{t["covered_without_mutant"]}</td>'
                    if coverage.mutants is not None else "")
        lines.append(
            f'<tr><th>{esc(t["title"])} <code>{esc(game)}</code></th>'
            f'<td class="n">{t["sentences"]}</td><td class="n">{t["covered"]}</td>'
            f'<td class="n">{t["waived"]}</td><td class="n">{uncovered}</td>'
            f'<td class="n">{t["context"]} ({t["context_cited"]})</td>'
            f'<td class="n">{t["uncited_scenarios"]}</td>{unbacked}</tr>')
    return (f'<table class="summary totals"><thead>{head}</thead><tbody>{"".join(lines)}'
            "</tbody></table>")


def _scenario(c: CitingScenario, mutants_ran: bool) -> str:
    """A citing scenario beside its sentence: its verdicts (with an engine), name, place,
    ruling, and the mutants it fails on."""
    verdicts = " ".join(badge(status) for _, status in c.rows)
    ruling = (f' <span class="mute">ruling <code>{esc(c.ruling)}</code> ({esc(c.standing)}'
              f'{", a probe: counts for nothing" if c.probe else ""})</span>'
              if c.ruling else "")
    kills = ""
    if mutants_ran:
        if c.mutants:
            kills = (f'<details class="kills"><summary>fails on {len(c.mutants)} '
                     f'mutant{"s" if len(c.mutants) != 1 else ""}</summary><code>'
                     + "</code>, <code>".join(esc(m) for m in c.mutants)
                     + "</code></details>")
        else:
            kills = '<div class="mute">fails on no mutant</div>'
    return (f"<li>{verdicts} {esc(c.name)} <span class=\"loc\">{esc(c.location)}</span>"
            f"{ruling}{kills}</li>")


def _sentence(s: SentenceCoverage, coverage: Coverage, filterable: bool) -> str:
    number = s.anchor.rpartition("#")[2]
    # Why it is waived goes with its words; why it is uncovered, where checks would be.
    reason = (f'<p class="reason mute">{esc(s.reason)}</p>' if s.reason and s.status == WAIVED
              else "")
    words = (f'<div class="words"><a class="anchor" href="{href(s.anchor)}" '
             f'title="{esc(s.anchor)}">#{esc(number)}</a>{badge(s.status)} '
             f"{esc(s.text)}{reason}</div>")
    if s.scenarios:
        checks = ('<ul class="scenarios">' + "".join(
            _scenario(c, coverage.mutants is not None) for c in s.scenarios) + "</ul>")
        if s.status == UNCOVERED:
            checks += f'<p class="none">{esc(s.reason)}</p>'
    elif s.status == UNCOVERED:
        checks = '<p class="none">no scenario checks this sentence</p>'
    else:
        checks = '<p class="mute">no scenario cites it</p>'
    if s.rulings:
        checks += ('<p class="mute">refined by ' + ", ".join(
            f"<code>{esc(r.id)}</code> ({esc(r.standing)})" for r in s.rulings) + "</p>")
    attrs = ""
    if filterable:
        verdict = s.verdict
        statuses = [s.status, *([verdict] if verdict is not None else [])]
        attrs = " " + row_attrs(statuses, s.game, f"{s.anchor} {s.text}")
    return (f'<div class="sentence s-{esc(s.status)}" id="{esc(s.anchor)}"{attrs}>{words}'
            f'<div class="checks">{checks}</div></div>')


def _owners(sentences: list[SentenceCoverage], coverage: Coverage, prefix: str,
            filterable: bool) -> str:
    """Sentences under the rule (or context item) they belong to, in order."""
    group = " data-group" if filterable else ""
    out = []
    for owner, mine in groupby(sentences, key=lambda s: s.owner):
        rows = list(mine)
        label = f' <span class="mute">{esc(rows[0].label)}</span>' if rows[0].label else ""
        out.append(f'<article class="owner"{group} id="{esc(prefix + owner)}">'
                   f'<h4><code class="id">{esc(owner)}</code>{label}</h4>'
                   + "".join(_sentence(s, coverage, filterable) for s in rows) + "</article>")
    return "".join(out)


def _law(sentences: tuple[SentenceCoverage, ...], coverage: Coverage, prefix: str,
         filterable: bool) -> str:
    """Sentences grouped by game, then rule; context ones by chapter (a chapter opens by
    itself when a scenario cites one of its sentences), then item. Only the rules'
    sentences are rows the filters act on (a context sentence has no status of its own to
    filter by)."""
    out = []
    for game, in_game in groupby(sentences, key=lambda s: s.game):
        out.append(f'<h3 id="{esc(prefix + game)}">{esc(coverage.games.get(game, game))} '
                   f"<code>{esc(game)}</code></h3>")
        for (chapter, title), in_chapter in groupby(
                in_game, key=lambda s: (s.chapter, s.chapter_title)):
            rows = list(in_chapter)
            body = _owners(rows, coverage, prefix, filterable)
            if not chapter:
                out.append(body)
                continue
            cited = sum(1 for s in rows if s.scenarios)
            opened = " open" if cited else ""
            out.append(f'<details class="chapter" id="{esc(f"{prefix}chapter/{chapter}")}"{opened}>'
                       f"<summary><code>{esc(chapter)}</code> {esc(title)} "
                       f'<span class="mute">{len(rows)} sentences, {cited} cited</span>'
                       f"</summary>{body}</details>")
    return f'<div class="law">{"".join(out)}</div>'


def _uncited(coverage: Coverage) -> str:
    if not coverage.uncited:
        return ""
    items = "".join(f"<li>{esc(u.name)} <span class=\"loc\">{esc(u.location)}</span> "
                    f'<span class="mute">{esc(", ".join(u.rules))}</span></li>'
                    for u in coverage.uncited)
    return (f"<section><h2>Scenarios citing no sentence ({len(coverage.uncited)})</h2>"
            '<p class="mute">They check something, but no reader can tell which sentence: '
            "add a <code>Cites: ANCHOR</code> line to each.</p>"
            f'<ul class="scenarios">{items}</ul></section>')


def render_coverage_html(coverage: Coverage) -> str:
    """The committee's page: totals, the rules text with what checks each sentence, the
    context sentences, the scenarios citing nothing."""
    if coverage.complete:
        verdict = ('<p class="verdict good">every sentence of every testable rule is covered '
                   "or waived</p>")
    else:
        missing = sum(1 for s in coverage.sentences if s.status == UNCOVERED)
        verdict = (f'<p class="verdict bad">{missing} sentence{"s" if missing != 1 else ""} '
                   "no scenario checks</p>")
    engine = coverage.engine
    facts = [("engine", f"{engine.get('spec', '?')} (exit {engine.get('exit_code')})"
              if engine else "none: the scenarios' verdicts are not shown"),
             ("mutants", f"{coverage.mutants} run: each scenario lists those it fails on"
              if coverage.mutants is not None else "not run"),
             *((("command", coverage.command),) if coverage.command else ())]
    statuses = [str(x) for s in coverage.sentences for x in
                (s.status, *([s.verdict] if s.verdict is not None else []))]
    counts = {s: statuses.count(s) for s in dict.fromkeys(statuses)}
    notes = "".join(f'<p class="mute">{esc(n)}</p>' for n in coverage.notes)
    body = (
        '<main class="coverage"><header><h1>rules-oracle coverage: the rules text, sentence '
        f"by sentence</h1>{verdict}<p>{esc(coverage_line(coverage))}</p>"
        '<dl class="engine">' + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>"
                                        for k, v in facts) + "</dl></header>"
        f"<section><h2>Totals</h2>{_totals(coverage)}{notes}</section>"
        f"<section><h2>Rules</h2>"
        + filter_bar(counts, list(coverage.games), len(coverage.sentences), "sentences",
                     picks=(UNCOVERED, *(["failing"] if engine else [])), search="sentence",
                     first=SENTENCE_STATUSES)
        + _law(coverage.sentences, coverage, "g/", True) + "</section>"
        + (f"<section><h2>Context: the related chapters ({len(coverage.context)} sentences)"
           "</h2><p class=\"mute\">Statements the rules lean on (turn order, the steps of a "
           "phase): citable, never rules, never uncovered.</p>"
           + _law(coverage.context, coverage, "x/", False) + "</section>"
           if coverage.context else "")
        + _uncited(coverage) + "</main>")
    return page("rules-oracle coverage", body)
