"""The terminal table: one line per rule, for pytest's terminal summary."""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Mapping
from typing import Any

from oracle.report.formats import Format
from oracle.report.matrix import Matrix, matrix_counts
from oracle.report.model import FAILING, RULE_STATUSES, Report, ScenarioResult, Status


def engine_line(engine: Mapping[str, Any]) -> str:
    """``engine SPEC (game: name version; ...)``: which engine a report is about."""
    names = "; ".join(f"{g}: {e.get('name', '?')} {e.get('version', '')}".strip()
                      for g, e in sorted(engine.get("games", {}).items()))
    return f"engine {engine.get('spec', '?')} ({names or 'no game ran'})"


def counts(report: Report, sep: str = ", ") -> str:
    """``N rules: 3 pass, 1 fail``."""
    shown = sep.join(f"{n} {s}" for s, n in report.summary.items()
                     if s in RULE_STATUSES and n)
    return f"{report.summary.get('rules', 0)} rules: {shown}"


def explored(s: ScenarioResult) -> str:
    """An explored invariant's line: its status and how many explored states exercised it
    (a pass over none would say nothing, so it is ``uncovered``)."""
    return f"{s.status}, exercised by {s.exercised} explored state(s): {s.name}"


def render_table(report: Report, width: int = 100, compact: bool = False) -> str:
    """The terminal table: id, status, scenarios passed/failed, the rule text cut to width.

    ``compact`` (``-q``) leaves out the rules that pass or are untestable."""
    id_w = max([len(r.id) for r in report.rules] + [4])
    head = f"{'rule':<{id_w}}  {'status':<11} {'pass':>4} {'fail':>4}  text"
    lines = [engine_line(report.engine), head, "-" * min(width, max(len(head), 40))]
    if report.interrupted:
        lines.insert(0, "INTERRUPTED: a partial report of the scenarios that ran before the stop")
    text_w = max(width - len(head) + 4, 20)
    for r in report.rules:
        if compact and r.status in (Status.PASS, Status.UNTESTABLE):
            continue
        failed = r.count(*FAILING)
        text = textwrap.shorten(r.text, text_w, placeholder="…")
        lines.append(f"{r.id:<{id_w}}  {r.status:<11} {r.count(Status.PASS):>4} {failed:>4}  "
                     f"{text}")
        if r.status in (Status.UNTESTABLE, Status.UNSUPPORTED) and r.reason:
            lines.append(f"{'':<{id_w}}  └ {textwrap.shorten(r.reason, width - id_w - 4)}")
        for s in r.scenarios:
            if s.status == Status.BLOCKED:
                why = f"blocked by {s.blocked_by}: {s.name}"
                lines.append(f"{'':<{id_w}}  └ {textwrap.shorten(why, width - id_w - 4)}")
            elif s.exercised is not None:
                lines.append(f"{'':<{id_w}}  └ {textwrap.shorten(explored(s), width - id_w - 4)}")
    lines.append(counts(report))
    return "\n".join(lines)


#: How ``ScenarioWorld.require`` words a missing capability (the rest: a comma list).
LACKS = "the engine does not declare "


def unsupported_summary(report: Report, width: int = 100, limit: int = 6) -> list[str]:
    """Why scenarios were unsupported: the capabilities they wait for, most wanted first
    (what to give the engine next), then the other reasons. When nothing at all ran, say so
    plainly, so that an adapter that answers ``unsupported`` to everything is not mistaken
    for a conforming engine."""
    seen: dict[tuple[str, str], ScenarioResult] = {}
    for rule in report.rules:
        for s in rule.scenarios:
            seen.setdefault((s.location, s.name), s)
    wanted: Counter[str] = Counter()
    other: Counter[str] = Counter()
    total = 0
    for s in seen.values():
        if s.status != Status.UNSUPPORTED:
            continue
        total += 1
        reason = s.message.strip().splitlines()[-1] if s.message.strip() else "no reason given"
        if reason.startswith(LACKS):
            wanted.update(reason.removeprefix(LACKS).split(", "))
        else:
            other[reason] += 1
    if not total:
        return []
    lines = [f"unsupported: {total} of {len(seen)} scenarios"]
    for title, counts in (("the capabilities they wait for, most wanted first (a scenario "
                           "may wait for several)", wanted), ("other reasons", other)):
        if counts:
            lines.append(f"  {title}:")
            lines += [f"{n:>7}  {textwrap.shorten(what, max(width - 9, 20), placeholder='…')}"
                      for what, n in counts.most_common(limit)]
            if len(counts) > limit:
                lines.append(f"         and {len(counts) - limit} more (--json lists each "
                             "scenario's)")
    return lines



def render_matrix_table(matrix: Matrix, width: int = 100) -> str:
    """The engines, numbered, then one line per rule with a status column per engine."""
    lines = []
    for i, col in enumerate(matrix.columns, 1):
        how = (f"no report: {col.error.strip().splitlines()[-1] if col.error.strip() else '?'}"
               if col.report is None else matrix_counts(matrix, col))
        lines.append(f"[{i}] {col.spec}: {textwrap.shorten(how, width, placeholder='…')}")
    id_w = max([len(r.id) for r in matrix.rows] + [4])
    col_w = max([len(str(s)) for s in Status] + [4]) + 1
    head = f"{'rule':<{id_w}}  " + "".join(f"{f'[{i}]':<{col_w}}"
                                            for i in range(1, len(matrix.columns) + 1))
    lines += [head, "-" * min(width, len(head))]
    for row in matrix.rows:
        cells = "".join(f"{c.status!s:<{col_w}}" for c in matrix.cells(row))
        lines.append(f"{row.id:<{id_w}}  {cells}".rstrip())
    return "\n".join(lines)


FORMAT = Format("table", "the per-rule table in the terminal", render_table, to_file=False,
                matrix=render_matrix_table)
