"""The terminal table: one line per rule, for pytest's terminal summary."""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from oracle.report.coverage import COVERED, UNCOVERED, WAIVED, Coverage
from oracle.report.formats import Format
from oracle.report.matrix import Matrix, RuleRow, matrix_counts, passed_by_line
from oracle.report.model import (
    RULE_STATUSES,
    Report,
    RuleResult,
    ScenarioResult,
    Status,
)
from oracle.report.repeats import outcomes_text
from oracle.report.trend import Trend, change_text


def engine_line(engine: Mapping[str, Any]) -> str:
    """``engine SPEC (game: name version; ...)``: which engine a report is about."""
    names = "; ".join(f"{g}: {e.get('name', '?')} {e.get('version', '')}".strip()
                      for g, e in sorted(engine.get("games", {}).items()))
    editions = "".join(f"; {g} as of edition {e}"
                       for g, e in sorted(engine.get("editions", {}).items()))
    return f"engine {engine.get('spec', '?')} ({names or 'no game ran'}{editions})"


def counts(report: Report, sep: str = ", ") -> str:
    """``N rules: 3 pass, 1 fail`` (and, with rulings, how many are probes)."""
    shown = sep.join(f"{n} {s}" for s, n in report.summary.items()
                     if s in RULE_STATUSES and n)
    line = f"{report.summary.get('rules', 0)} rules: {shown}"
    if report.summary.get("rulings"):
        probes = report.summary.get("probes", 0)
        line += (f"; {report.summary['rulings']} rulings, {probes} of them probes "
                 f"(the engine agrees with {report.summary.get('probes_agreeing', 0)})")
    return line


def explored(s: ScenarioResult) -> str:
    """An explored invariant's line: its status and how many explored states exercised it
    (a pass over none would say nothing, so it is ``uncovered``)."""
    return f"{s.status}, exercised by {s.exercised} explored state(s): {s.name}"


def render_table(report: Report, width: int = 100, compact: bool = False) -> str:
    """The terminal table: id, status, scenarios passed, failed and unsupported (not run),
    the rule text cut to width; under a rule, why it was not tested or what of it was not
    (in full, wrapped: the reason is what to act on), its rulings (with provenance and
    standing) and retired scenarios.

    ``compact`` (``-q``) leaves out the rules that pass or are untestable."""
    id_w = max([len(r.id) for r in report.rules] + [4])
    with_rulings = any(r.rulings for r in report.rules)
    extra = f" {'rulings':>7}" if with_rulings else ""
    head = f"{'rule':<{id_w}}  {'status':<11} {'pass':>4} {'fail':>4} {'unsup':>5}{extra}  text"
    lines = [engine_line(report.engine), head, "-" * min(width, max(len(head), 40))]
    if report.interrupted:
        lines.insert(0, "INTERRUPTED: a partial report of the scenarios that ran before the stop")
    text_w = max(width - len(head) + 4, 20)
    for r in report.rules:
        if compact and r.status in (Status.PASS, Status.UNTESTABLE):
            continue
        failed = r.failed()
        text = textwrap.shorten(r.text, text_w, placeholder="…")
        tally = r.tally()
        ruled = f" {tally['rulings_passed']}/{tally['rulings']:<5}" if r.rulings else \
            " " * len(extra)
        lines.append(f"{r.id:<{id_w}}  {r.status:<11} {r.count(Status.PASS):>4} {failed:>4}"
                     f" {r.count(Status.UNSUPPORTED):>5}{ruled}  {text}")
        room = max(width - id_w - 4, 30)
        for note in rule_notes(r):
            wrapped = textwrap.wrap(note, room, break_on_hyphens=False) or [""]
            lines.append(f"{'':<{id_w}}  └ {wrapped[0]}")
            lines += [f"{'':<{id_w}}    {more}" for more in wrapped[1:]]
    lines.append(counts(report))
    return "\n".join(lines)


def rule_notes(r: RuleResult) -> list[str]:
    """What is said under a rule's row: why it is untested, what blocked its scenarios, its
    rulings with their provenance, and the scenarios rulings retire."""
    notes = []
    if r.added_by:
        notes.append(f"added by ruling {r.added_by} (not in the rules text)")
    if untested := untested_note(r):
        notes.append(untested)
    notes += [*(blocked(s) for s in r.blocked()), *(explored(s) for s in r.explored())]
    notes += flaky_notes(r)
    for g in r.rulings:
        probe = ", a probe: counts for nothing" if g.probe else ""
        notes.append(f"ruling {g.id} [{g.status_text}] {g.status} ({g.agreement}{probe}): "
                     f"{g.provenance()}")
    for t in r.retired:
        verb = "replaced" if t.replaced else "retired"
        when = "" if t.effective else " (once it is official)"
        notes.append(f"{verb} by {t.by}{when}: {t.name!r}: {t.reason}")
    return notes


def blocked(s: ScenarioResult) -> str:
    """A blocked scenario's line: the rule that blocked it (in which of its runs, when it
    ran ``--repeat N`` times and was blocked in some only)."""
    runs = f" in some runs ({outcomes_text(s.outcomes)})" if s.outcomes else ""
    return f"blocked by {s.blocked_by}{runs}: {s.name}"


def flaky_notes(r: RuleResult, limit: int = 5) -> list[str]:
    """The rule's flaky scenarios (``--repeat N``): how their runs ended, the first
    ``limit`` of them."""
    found = r.flaky()
    notes = [f"flaky ({outcomes_text(s.outcomes)} of {len(s.outcomes)} runs): {s.name}"
             for s in found[:limit]]
    if len(found) > limit:
        notes.append(f"and {len(found) - limit} more flaky scenarios (each is in the reports, "
                     "with its outcomes)")
    return notes


def untested_note(r: RuleResult) -> str:
    """Why a rule, or some of its scenarios, went untested: an untestable or unsupported
    rule's reason, or how many of its scenarios were not run and why the first was not."""
    if r.status in (Status.UNTESTABLE, Status.UNSUPPORTED) and r.reason:
        return r.reason
    unsupported = r.unsupported()
    if unsupported:
        return (f"{len(unsupported)} of {len(r.scenarios)} scenarios not run (unsupported): "
                f"{_last_line(unsupported[0].message)}")
    return ""


def _last_line(message: str) -> str:
    """What a message ends with: an unsupported scenario's reason."""
    return message.strip().splitlines()[-1] if message.strip() else "no reason given"


#: How ``ScenarioWorld.require`` words a missing capability (the rest: a comma list).
LACKS = "the engine does not declare "


def unsupported_summary(report: Report, width: int = 100, limit: int = 6) -> list[str]:
    """Why scenarios were unsupported: the capabilities they wait for, most wanted first
    (what to give the engine next), then the other reasons. When nothing at all ran, say so
    plainly, so that an adapter that answers ``unsupported`` to everything is not mistaken
    for a conforming engine."""
    unsupported = report.unsupported()  # the rulings' scenarios too
    wanted: Counter[str] = Counter()
    other: Counter[str] = Counter()
    for s in unsupported:
        reason = _last_line(s.message)
        if reason.startswith(LACKS):
            wanted.update(reason.removeprefix(LACKS).split(", "))
        else:
            other[reason] += 1
    if not unsupported:
        return []
    lines = [f"unsupported: {len(unsupported)} of {len(report.scenarios())} scenarios (not run)"]
    for title, counts in (
            ("the capabilities they wait for, most wanted first (a scenario may wait for "
             "several)", wanted),
            (("the other reasons, most common first (the engine's, or which card of a class "
              "the scenario needs)") if wanted else
             "why, most common first (the engine's reason, or which card of a class the "
             "scenario needs)", other)):
        if counts:
            lines += textwrap.wrap(f"{title}:", width, initial_indent="  ",
                                   subsequent_indent="    ")
            for what, n in counts.most_common(limit):
                wrapped = textwrap.wrap(what, max(width - 9, 20), break_on_hyphens=False)
                lines += [f"{n:>7}  {wrapped[0]}", *(f"{'':>7}  {w}" for w in wrapped[1:])]
            if len(counts) > limit:
                lines.append(f"         and {len(counts) - limit} more (--json lists each "
                             "scenario's)")
    return lines


def render_matrix_table(matrix: Matrix, width: int = 100) -> str:
    """The engines, numbered, then one line per rule with a status column per engine."""
    lines = _columns(matrix, width)
    lines += _disagreements(matrix, _id_width(matrix))
    lines += _grid(matrix, width, "passed by", lambda row: str(matrix.agreement(row)))
    return "\n".join(lines)


def _columns(matrix: Matrix, width: int) -> list[str]:
    """``[1] SPEC: 60 pass, 12 untestable``: each column (an engine, or a run), numbered."""
    lines = []
    for i, col in enumerate(matrix.columns, 1):
        how = (f"no report: {col.error.strip().splitlines()[-1] if col.error.strip() else '?'}"
               if col.report is None else matrix_counts(matrix, col))
        lines.append(f"[{i}] {col.spec}: {textwrap.shorten(how, width, placeholder='…')}")
    return lines


def _id_width(matrix: Matrix) -> int:
    return max([len(r.id) for r in matrix.rows] + [4])


def _grid(matrix: Matrix, width: int, last: str, last_of: Callable[[RuleRow], str]
          ) -> list[str]:
    """One line per row: its id, a status per column, and the ``last`` column's text."""
    id_w = _id_width(matrix)
    col_w = max([len(str(s)) for s in Status] + [4]) + 1
    head = f"{'rule':<{id_w}}  " + "".join(f"{f'[{i}]':<{col_w}}" for i in range(
        1, len(matrix.columns) + 1)) + last
    lines = [head, "-" * min(width, len(head))]
    for row in matrix.rows:
        cells = "".join(f"{c.status!s:<{col_w}}" for c in matrix.cells(row))
        lines.append(f"{row.id:<{id_w}}  {cells}{last_of(row)}".rstrip())
    return lines


def render_trend_table(trend: Trend, width: int = 100) -> str:
    """The runs, numbered oldest first, then one line per rule with its status in each run
    and the first run where it changed; the rules that changed, counted."""
    lines = [f"rules-oracle trend: {trend.runs_text}, oldest first (by when each "
             "started)", *_columns(trend.matrix, width), *trend.notes]
    lines += _grid(trend.matrix, width, "first change",
                   lambda row: change_text(trend.first_change(row)))
    lines.append(trend_line(trend))
    return "\n".join(lines)


def trend_line(trend: Trend) -> str:
    """``3 of 72 rules changed status across 4 runs (ti4:2.4 4 times)``: the rules that flip
    most named first."""
    changed = trend.changed()
    line = (f"{len(changed)} of {len(trend.rows)} rules changed status across "
            f"{trend.runs_text}")
    flips = sorted(((len(trend.changes(r)), r.id) for r in changed if len(trend.changes(r)) > 1),
                   key=lambda pair: -pair[0])
    if flips:
        line += " (more than once: " + ", ".join(f"{i} {n} times" for n, i in flips[:5]) + ")"
    return line


def _disagreements(matrix: Matrix, id_w: int) -> list[str]:
    """How many engines pass how many rules, then the rows where they disagree (first, as
    candidates for a ruling), each with the engines passing and failing it."""
    lines = [line] if (line := passed_by_line(matrix)) else []
    rows = matrix.disagreements()
    if rows:
        lines.append("where the engines disagree (candidates for a ruling):")
    for row in rows:
        passing, failing = matrix.sides(row)
        lines.append(f"  {row.id:<{id_w}}  passed by {matrix.agreement(row)}: pass "
                     f"{' '.join(f'[{i}]' for i in passing)}, fail "
                     f"{' '.join(f'[{i}]' for i in failing)}")
    return lines


def coverage_line(coverage: Coverage) -> str:
    """``N sentences: C covered, W waived, U uncovered; X context sentences (Y cited)``."""
    every = coverage.sentences
    line = (f"{len(every)} sentences: " + ", ".join(
        f"{sum(1 for s in every if s.status == status)} {status}"
        for status in (COVERED, WAIVED, UNCOVERED)))
    if coverage.context:
        cited = sum(1 for s in coverage.context if s.scenarios)
        line += f"; {len(coverage.context)} context sentences ({cited} cited)"
    return line


def render_coverage_table(coverage: Coverage, width: int = 100, limit: int = 40) -> str:
    """Totals per game, then the uncovered sentences (what the suite does not check yet),
    and the covered ones no mutant's failure backs (their scenarios were never seen to
    fail)."""
    engine = coverage.engine
    head = ("verdicts of " + f"engine {engine.get('spec', '?')} (exit {engine.get('exit_code')})"
            if engine else "no engine (--engine SPEC adds each scenario's verdict)")
    mutants = (f"{coverage.mutants} mutants run" if coverage.mutants is not None
               else "mutants not run")
    lines = [f"sentence coverage: {head}; {mutants}"]
    game_w = max([len(g) for g in coverage.games] + [4])
    lines.append(f"{'game':<{game_w}}  {'sentences':>9} {'covered':>7} {'waived':>6} "
                 f"{'uncovered':>9}  {'context (cited)':>15}  citing nothing")
    for game in coverage.games:
        t = coverage.totals(game)
        context = f"{t['context']} ({t['context_cited']})"
        lines.append(f"{game:<{game_w}}  {t['sentences']:>9} {t['covered']:>7} "
                     f"{t['waived']:>6} {t['uncovered']:>9}  {context:>15}  "
                     f"{t['uncited_scenarios']} scenarios")
    lines += coverage.notes
    for title, found in (
            ("uncovered", [s for s in coverage.sentences if s.status == UNCOVERED]),
            ("covered, but no mutant fails a scenario citing it",
             [s for s in coverage.sentences if s.status == COVERED and not s.mutants]
             if coverage.mutants is not None else [])):
        if not found:
            continue
        lines.append(f"{title} ({len(found)}):")
        anchor_w = max(len(s.anchor) for s in found[:limit])
        room = max(width - anchor_w - 4, 20)
        lines += [f"  {s.anchor:<{anchor_w}}  {textwrap.shorten(s.text, room, placeholder='…')}"
                  for s in found[:limit]]
        if len(found) > limit:
            lines.append(f"  and {len(found) - limit} more (--json, --markdown or --html "
                         "list each)")
    lines.append(coverage_line(coverage))
    return "\n".join(lines)


FORMAT = Format("table", "the per-rule table in the terminal", render_table, to_file=False,
                matrix=render_matrix_table, coverage=render_coverage_table,
                trend=render_trend_table)
