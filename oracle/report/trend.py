"""Rules across runs, oldest first: each rule's status in each run, and where it changed.

Why: an engine team keeps its CI's reports, and asks of them what no single report or diff
answers: since when has this rule failed, which rules come and go (Bowtie's ``trend``,
wpt.fyi's history of a test). The trend is a ``Matrix`` whose columns are runs rather than
engines (``oracle.report.matrix``: a cell is always derived from its run's report), ordered
by the time each run started, which the report records (``started``); never by file names,
which say nothing reliable of order. A report written before reports carried the time is
placed by its file's modification time, and the trend says so.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from oracle.report.matrix import EngineColumn, Matrix, RuleRow, build_matrix
from oracle.report.model import Report, ReportFileError, Status, load_report, started_text


@dataclass(frozen=True)
class TrendRun:
    """One run: its report, the file it came from, and when it started."""

    path: Path
    report: Report
    when: str  # ISO 8601, UTC
    #: True when ``when`` is the file's modification time (the report records none).
    by_file_time: bool = False

    @property
    def label(self) -> str:
        """``2026-11-27 12:04 reference``: when, and which engine."""
        spec = self.report.engine.get("spec", "?")
        return f"{self.when.replace('T', ' ')[:16]} {spec}"


@dataclass(frozen=True)
class Change:
    """A rule's status changed between run ``run - 1`` and run ``run`` (0-based)."""

    run: int
    before: Status
    after: Status


@dataclass(frozen=True)
class Trend:
    """Rules (rows) across runs (columns, oldest first)."""

    runs: tuple[TrendRun, ...]
    matrix: Matrix
    notes: tuple[str, ...] = ()
    _changes: dict[RuleRow, list[Change]] = field(default_factory=dict, init=False,
                                                  repr=False, compare=False)

    @property
    def runs_text(self) -> str:
        """``4 runs`` (``1 run``)."""
        return f"{len(self.runs)} run{'s' if len(self.runs) != 1 else ''}"

    @property
    def rows(self) -> tuple[RuleRow, ...]:
        return self.matrix.rows

    def statuses(self, row: RuleRow) -> list[Status]:
        return [c.status for c in self.matrix.cells(row)]

    def changes(self, row: RuleRow) -> list[Change]:
        """Every change of a row's status from one run to the next, oldest first (how often
        it flips: a rule that changes back and forth is flaky across runs). Worked out once
        a row, as a format asks for a row's several times (whether it changed, its first
        change, how many): the caller must not change the list."""
        found = self._changes.get(row)
        if found is None:
            statuses = self.statuses(row)
            found = self._changes[row] = [
                Change(i, statuses[i - 1], statuses[i]) for i in range(1, len(statuses))
                if statuses[i] != statuses[i - 1]]
        return found

    def first_change(self, row: RuleRow) -> Change | None:
        return next(iter(self.changes(row)), None)

    def changed(self) -> list[RuleRow]:
        """The rows whose status changed at least once, in the matrix's order."""
        return [row for row in self.rows if self.changes(row)]


def report_files(paths: Sequence[Path]) -> list[Path]:
    """The report files named: each a JSON report, or a folder of them (its ``*.json``, not
    its subfolders)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                raise ReportFileError(f"{path}: a folder with no JSON report in it; give the "
                                      "folder your runs' 'rules-oracle run --json' reports "
                                      "are kept in, or the reports themselves")
            files += found
        else:
            files.append(path)
    return files


def build_trend(paths: Sequence[Path]) -> Trend:
    """The trend of the reports at ``paths`` (files, or folders of them), oldest first.

    A file named on its own must be a report (``ReportFileError`` otherwise); in a folder,
    JSON that is no run's report (a badge, a matrix), an interrupted run's partial report
    and a shard's report are left out, and the notes say so."""
    runs: list[TrendRun] = []
    notes: list[str] = []
    for path in paths:
        listed = path.is_dir()
        for file in report_files([path]):
            try:
                report = load_report(file)
            except ReportFileError:
                if not listed:
                    raise
                notes.append(f"left out {file}: not a rules-oracle report")
                continue
            why = ("an interrupted run's partial report" if report.interrupted else
                   "one shard's report ('rules-oracle combine' the shards first)"
                   if report.shard else "")
            if why and listed:
                notes.append(f"left out {file}: {why}")
                continue
            runs.append(_run(file, report))
    if not runs:
        raise ReportFileError("no report to show a trend of: " + "; ".join(notes)
                              if notes else "no report to show a trend of")
    runs.sort(key=lambda r: r.when)  # stable: runs of the same second keep the given order
    timed = [r.path.name for r in runs if r.by_file_time]
    if timed:
        notes.append(f"{len(timed)} report(s) record no start time (written before reports "
                     f"did): placed by their files' modification times: {', '.join(timed)}")
    columns = [EngineColumn(f"{r.label} ({r.path.name})", r.report) for r in runs]
    return Trend(tuple(runs), build_matrix(columns), tuple(notes))


def _run(path: Path, report: Report) -> TrendRun:
    if report.started:
        return TrendRun(path, report, report.started)
    mtime = datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.UTC)
    return TrendRun(path, report, started_text(mtime), by_file_time=True)


def change_text(change: Change | None) -> str:
    """``run 3: pass -> fail`` (runs numbered from 1, as every format numbers them), or
    ``-`` for a rule that never changed."""
    if change is None:
        return "-"
    return f"run {change.run + 1}: {change.before} -> {change.after}"
