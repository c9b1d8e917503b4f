"""The terminal table: one line per rule, for pytest's terminal summary."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from oracle.report.formats import Format
from oracle.report.model import FAILING, RULE_STATUSES, Report, RuleResult, Status


def engine_line(engine: Mapping[str, Any]) -> str:
    """``engine SPEC (game: name version; ...)``: which engine a report is about."""
    names = "; ".join(f"{g}: {e.get('name', '?')} {e.get('version', '')}".strip()
                      for g, e in sorted(engine.get("games", {}).items()))
    return f"engine {engine.get('spec', '?')} ({names or 'no game ran'})"


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


def render_table(report: Report, width: int = 100) -> str:
    """The terminal table: id, status, scenarios passed/failed, the rule text cut to width;
    under a rule, its rulings (with provenance and standing) and retired scenarios."""
    id_w = max([len(r.id) for r in report.rules] + [4])
    with_rulings = any(r.rulings for r in report.rules)
    extra = f" {'rulings':>7}" if with_rulings else ""
    head = f"{'rule':<{id_w}}  {'status':<11} {'pass':>4} {'fail':>4}{extra}  text"
    lines = [engine_line(report.engine), head, "-" * min(width, max(len(head), 40))]
    text_w = max(width - len(head) + 4, 20)
    for r in report.rules:
        failed = r.count(*FAILING)
        text = textwrap.shorten(r.text, text_w, placeholder="…")
        tally = r.tally()
        ruled = f" {tally['rulings_passed']}/{tally['rulings']:<5}" if r.rulings else \
            " " * len(extra)
        lines.append(f"{r.id:<{id_w}}  {r.status:<11} {r.count(Status.PASS):>4} {failed:>4}"
                     f"{ruled}  {text}")
        room = max(width - id_w - 4, 30)
        for note in rule_notes(r):
            if note.startswith(("ruling ", "retired ", "replaced ")):  # provenance: whole
                wrapped = textwrap.wrap(note, room) or [""]
            else:
                wrapped = [textwrap.shorten(note, room)]
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
    if r.status in (Status.UNTESTABLE, Status.UNSUPPORTED) and r.reason:
        notes.append(r.reason)
    notes += [f"blocked by {s.blocked_by}: {s.name}" for s in r.scenarios
              if s.status == Status.BLOCKED]
    for g in r.rulings:
        probe = ", a probe: counts for nothing" if g.probe else ""
        notes.append(f"ruling {g.id} [{g.status_text}] {g.status} ({g.agreement}{probe}): "
                     f"{g.provenance()}")
    for t in r.retired:
        verb = "replaced" if t.replaced else "retired"
        when = "" if t.effective else " (once it is official)"
        notes.append(f"{verb} by {t.by}{when}: {t.name!r}: {t.reason}")
    return notes


FORMAT = Format("table", "the per-rule table in the terminal", render_table, to_file=False)
