"""The terminal table: one line per rule, for pytest's terminal summary."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from oracle.report.formats import Format
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
    return f"{s.name}: {s.status}, exercised by {s.exercised} explored state(s)"


def render_table(report: Report, width: int = 100) -> str:
    """The terminal table: id, status, scenarios passed/failed, the rule text cut to width."""
    id_w = max([len(r.id) for r in report.rules] + [4])
    head = f"{'rule':<{id_w}}  {'status':<11} {'pass':>4} {'fail':>4}  text"
    lines = [engine_line(report.engine), head, "-" * min(width, max(len(head), 40))]
    text_w = max(width - len(head) + 4, 20)
    for r in report.rules:
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


FORMAT = Format("table", "the per-rule table in the terminal", render_table, to_file=False)
