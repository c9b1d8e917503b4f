"""The engine matrix as typed values: rules against engines, one cell per rule and engine.

Why a model of its own: a rules committee asks "which engines honour this rule?", which no
single report answers. The matrix is built from typed ``Report``s (one per engine run), so
every tool that reads a report reads a matrix the same way; its JSON layout
(``oracle/protocol/schemas/v1/matrix.json``) embeds each engine's whole report, and the
cells are *derived* from those reports, never stored apart from them: a loaded matrix
cannot disagree with the reports it was built from. Per row, the matrix also says how many
engines pass it and how many fail it (``Agreement``, test262-report's "passed by N"), and
which rows some engines pass and others fail: the candidates for a ruling, which every
format lists first.

An engine whose run produced no report (it crashed, its module would not import, its spec
was wrong) is still a column: every cell of it is ``error`` with the reason. A matrix never
loses an engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle.report.model import PASSING, RULE_STATUSES, Report, Status, read_checked

MATRIX_VERSION = 1
"""The version of the matrix's JSON layout; it changes by additions only."""

NOT_IN_REPORT = "this engine's report does not list the rule"


@dataclass(frozen=True)
class EngineColumn:
    """One engine's run: the ``--engine`` spec, and its report or why there is none."""

    spec: str
    report: Report | None
    error: str = ""  # why the run gave no report (empty when it did)
    exit_code: int | None = None  # of ``rules-oracle run``, when it ran as a process

    @property
    def ok(self) -> bool:
        return self.report is not None

    @property
    def conforms(self) -> bool:
        return self.report is not None and self.report.conforms

    def to_json(self) -> dict[str, Any]:
        return {"spec": self.spec, "exit_code": self.exit_code, "error": self.error,
                "report": self.report.to_json() if self.report else None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EngineColumn:
        report = data.get("report")
        return cls(data["spec"], Report.from_json(report) if report else None,
                   data.get("error", ""), data.get("exit_code"))


@dataclass(frozen=True)
class RuleRow:
    """A row: a rule id, its game and its text (as the catalog or a report gives them)."""

    id: str
    text: str = ""
    #: A committee's ruling (``ti4:2.6.2/r1``), shown under the rule it refines: its cells
    #: say whether each engine agrees with it, and a probe's do not count in an engine's
    #: tally.
    ruling: bool = False

    @property
    def game(self) -> str:
        return self.id.partition(":")[0]


@dataclass(frozen=True)
class Cell:
    """One rule on one engine: its status, scenario counts, and the reason where there is one.

    ``reason`` is the run's error for a column without a report, the rule's reason
    (untestable, uncovered, unsupported) otherwise; the scenarios' messages stay in the
    engine's report, where a cell links to.
    """

    status: Status
    passed: int = 0
    failed: int = 0
    scenarios: int = 0
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"status": str(self.status), "passed": self.passed, "failed": self.failed,
                "scenarios": self.scenarios, **({"reason": self.reason} if self.reason else {})}


#: A row an engine fails (a known failure that still fails too), or passes (``PASSING``, a
#: known failure that passes now too); every other status (blocked, unsupported, untestable,
#: uncovered) is no verdict on the row.
BROKEN = frozenset({Status.FAIL, Status.ERROR, Status.FLAKY, Status.XFAIL})


@dataclass(frozen=True)
class Agreement:
    """How the engines stand on one row: how many pass it, how many fail it, of how many.

    Why: a committee asks where engines disagree (test262-report's "passed by 4/3/2/1/0"):
    a rule some engines pass and others fail is a candidate for a ruling (or for a bug
    report); one every engine fails may be a scenario asserting too much."""

    passed: int
    failed: int
    engines: int

    @property
    def judged(self) -> int:
        """Engines with a verdict on the row (the others cannot play it, or nothing ran)."""
        return self.passed + self.failed

    @property
    def disagree(self) -> bool:
        return self.passed > 0 and self.failed > 0

    def __str__(self) -> str:
        return f"{self.passed}/{self.judged}" if self.judged else "-"

    def to_json(self) -> dict[str, Any]:
        return {"passed": self.passed, "failed": self.failed, "judged": self.judged,
                "disagree": self.disagree}


@dataclass(frozen=True)
class Matrix:
    """Rules against engines: ``rows`` in catalog order, ``columns`` in the order given."""

    columns: tuple[EngineColumn, ...]
    rows: tuple[RuleRow, ...]

    def cell(self, row: RuleRow, column: EngineColumn) -> Cell:
        if column.report is None:
            return Cell(Status.ERROR, reason=column.error or "the engine's run gave no report")
        if row.ruling:
            ruling = column.report.ruling(row.id)
            if ruling is None:
                return Cell(Status.UNCOVERED, reason=NOT_IN_REPORT)
            return Cell(ruling.status, ruling.count(Status.PASS), ruling.failed(),
                        len(ruling.scenarios), f"{ruling.status_text}: {ruling.agreement}")
        rule = column.report.rule(row.id)
        if rule is None:
            return Cell(Status.UNCOVERED, reason=NOT_IN_REPORT)
        return Cell(rule.status, rule.count(Status.PASS), rule.failed(),
                    len(rule.scenarios), rule.reason)

    def cells(self, row: RuleRow) -> list[Cell]:
        return [self.cell(row, c) for c in self.columns]

    def agreement(self, row: RuleRow) -> Agreement:
        """How the engines whose runs gave a report stand on a row (an engine without one
        judged nothing: its cells are errors of the run, not verdicts)."""
        statuses = [self.cell(row, c).status for c in self.columns if c.report is not None]
        return Agreement(sum(1 for s in statuses if s in PASSING),
                         sum(1 for s in statuses if s in BROKEN), len(statuses))

    def sides(self, row: RuleRow) -> tuple[list[int], list[int]]:
        """The engines (numbered from 1, as every format numbers them) that pass a row, and
        those that fail it; an engine without a report is on neither side."""
        passing, failing = [], []
        for i, column in enumerate(self.columns, 1):
            if column.report is not None:
                status = self.cell(row, column).status
                if status in PASSING:
                    passing.append(i)
                elif status in BROKEN:
                    failing.append(i)
        return passing, failing

    def disagreements(self) -> list[RuleRow]:
        """The rows (rules, then the rulings under them, in the matrix's order) some engines
        pass and others fail: the candidates for a ruling, listed first by every format."""
        return [row for row in self.rows if self.agreement(row).disagree]

    def passed_by(self) -> dict[int, int]:
        """Per number of engines, how many rules exactly that many pass (test262-report's
        "passed by 4/3/2/1/0"), counting the rules at least one engine has a verdict on;
        from the most engines to none."""
        engines = sum(1 for c in self.columns if c.report is not None)
        counts = {n: 0 for n in range(engines, -1, -1)}
        for row in self.rows:
            agreement = self.agreement(row)
            if not row.ruling and agreement.judged:
                counts[agreement.passed] += 1
        return counts

    @property
    def conforms(self) -> bool:
        """True when every engine's run gave a report and none fails or errors a rule."""
        return all(c.conforms for c in self.columns)

    def summary(self, column: EngineColumn) -> dict[str, int]:
        """Counts per status over the matrix's rows for one engine (zeros left out)."""
        counts: dict[str, int] = {}
        for row in self.rows:
            if row.ruling:
                continue  # rules only: a ruling's verdict is already in its rule's
            status = str(self.cell(row, column).status)
            counts[status] = counts.get(status, 0) + 1
        return counts

    def games(self) -> list[str]:
        return list(dict.fromkeys(r.game for r in self.rows))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": MATRIX_VERSION,
            "engines": [c.to_json() for c in self.columns],
            "rules": [{"id": r.id, "game": r.game, "text": r.text,
                       **({"ruling": True} if r.ruling else {}),
                       "cells": [c.to_json() for c in self.cells(r)],
                       "agreement": self.agreement(r).to_json()} for r in self.rows],
            "disagreements": [r.id for r in self.disagreements()],
            "passed_by": {str(n): count for n, count in self.passed_by().items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Matrix:
        """The matrix a JSON document describes; its cells are derived again from the
        embedded reports (the ``cells`` in the file are for readers without this code)."""
        return cls(tuple(EngineColumn.from_json(c) for c in data.get("engines", [])),
                   tuple(RuleRow(r["id"], r.get("text", ""), bool(r.get("ruling", False)))
                         for r in data.get("rules", [])))


def build_matrix(columns: Sequence[EngineColumn],
                 catalog_rules: Iterable[tuple[str, str]] = ()) -> Matrix:
    """Rows: the catalog's rules (``(id, text)``, so even a matrix of failed runs lists
    them), then any rule a report adds, in the order first seen."""
    texts: dict[str, str] = dict(catalog_rules)
    rulings: dict[str, dict[str, str]] = {}  # rule id -> ruling id -> text
    for column in columns:
        for rule in column.report.rules if column.report else ():
            if not texts.get(rule.id):
                texts[rule.id] = rule.text
            for g in rule.rulings:
                rulings.setdefault(rule.id, {}).setdefault(
                    g.id, f"ruling, {g.status_text}: {g.provenance()}")
    rows = [row for i, t in texts.items() for row in (
        RuleRow(i, t), *(RuleRow(g, text, ruling=True)
                         for g, text in rulings.get(i, {}).items()))]
    return Matrix(tuple(columns), tuple(rows))


def passed_by_line(matrix: Matrix) -> str:
    """``rules passed by 3 engines: 20, by 2: 1, by 1: 0, by 0: 2; the engines disagree on
    1 rule (a candidate for a ruling)``."""
    counts = list(matrix.passed_by().items())
    if not counts:
        return ""
    (most, first), rest = counts[0], counts[1:]
    line = f"rules passed by {most} engine{'s' if most != 1 else ''}: {first}" + "".join(
        f", by {n}: {count}" for n, count in rest)
    rules = [r for r in matrix.disagreements() if not r.ruling]
    if rules:
        line += (f"; the engines disagree on {len(rules)} rule{'s' if len(rules) != 1 else ''}"
                 f" (candidate{'s' if len(rules) != 1 else ''} for a ruling)")
    return line


def matrix_counts(matrix: Matrix, column: EngineColumn, sep: str = ", ") -> str:
    """``60 pass, 12 untestable`` for one engine, statuses in report order."""
    counts = matrix.summary(column)
    order = [str(s) for s in RULE_STATUSES] + sorted(set(counts) - {str(s) for s in
                                                                     RULE_STATUSES})
    return sep.join(f"{counts[s]} {s}" for s in order if counts.get(s))


def load_matrix(path: Path) -> Matrix:
    """Read a matrix written by ``rules-oracle matrix --json``, checked against its schema."""
    return Matrix.from_json(read_checked(path, "matrix", "rules-oracle matrix --json"))
