"""The commands that read reports rather than run engines: expectations, diff, combine,
trend.

Each reads JSON reports through the typed loader (``oracle.report.load_report``) and does
its work in ``oracle.report`` (``expectations``, ``diff``, ``combine``, ``trend``); this
module only
turns command lines into calls, files and exit statuses.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from oracle.report import ReportFileError, load_report
from oracle.report.judge import Exit


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from oracle import options
    from oracle.report.formats import file_formats, trend_formats

    expect = sub.add_parser(
        "expectations", help="write a known-failures file from a run's JSON report",
        description="List every scenario a JSON report flags as a known failure (one entry "
                    "per scenario, with its rule), ready to commit in the engine's repository "
                    "and pass to 'run --expectations'; a flaky one (--repeat N) under "
                    "'known_flaky'. A rule-level entry (no 'scenario') can be written by hand.")
    expect.add_argument("--from", dest="source", required=True, metavar="REPORT",
                        help="the JSON report of a run (rules-oracle run --json)")
    expect.add_argument("--out", metavar="PATH",
                        help="write here (default: print to standard output)")
    diff = sub.add_parser(
        "diff", help="what changed between two runs' JSON reports (exit 1 on a regression)",
        description="List the rules and scenarios that regressed (fail or error now, not "
                    "before), were fixed, changed status otherwise, appeared or disappeared. "
                    "Exit 0 no regression, 1 a regression, 2 a report cannot be read.")
    diff.add_argument("old", metavar="OLD.json")
    diff.add_argument("new", metavar="NEW.json")
    combine = sub.add_parser(
        "combine", help="merge the JSON reports of a run's shards (--shard K/N)",
        description="Merge the JSON reports of every shard of one run (each 'rules-oracle "
                    "run --shard K/N --json ...') into the report the whole run gives, and "
                    "write it in any format. Exit statuses as for 'run'.")
    combine.add_argument("shards", nargs="+", metavar="SHARD.json")
    for fmt in file_formats():
        combine.add_argument(f"--{fmt.name.replace('_', '-')}", dest=f"oracle_{fmt.name}",
                             metavar="PATH", help=fmt.help)
    options.by_name()["require_coverage"].add_to_cli(combine)
    trend = sub.add_parser(
        "trend", help="each rule's status across runs' JSON reports, oldest first",
        description="Show each rule's status in each run, oldest first (by when each run "
                    "started, which its report records; a report written before reports did "
                    "is placed by its file's modification time, and the output says so), "
                    "and the first run where each rule changed. Give the reports, or a "
                    "folder of them (its *.json; a badge, a matrix, a shard's or an "
                    "interrupted run's report there is left out, and said). The text goes "
                    "to standard output. Exit 0, or 2 when a report cannot be read.")
    trend.add_argument("reports", nargs="+", metavar="REPORT|FOLDER")
    for fmt in trend_formats():
        trend.add_argument(f"--{fmt.name.replace('_', '-')}", dest=f"trend_{fmt.name}",
                           metavar="PATH", help=fmt.help.replace("per-rule report",
                                                                 "trend of rules across runs"))


def _load(path: str, command: str) -> object:
    try:
        return load_report(Path(path))
    except ReportFileError as exc:
        print(f"rules-oracle {command}: {exc}", file=sys.stderr)
        return None


def write_expectations(source: str, out: str | None) -> int:
    """``rules-oracle expectations --from r.json``: known failures from a report."""
    from oracle.report.expectations import from_report
    from oracle.report.write import write_atomic

    report = _load(source, "expectations")
    if report is None:
        return Exit.USAGE
    text = from_report(report)  # type: ignore[arg-type]
    if out:
        write_atomic(Path(out), text)
        print(f"expectations written to {out}")
    else:
        print(text, end="")
    return Exit.OK


def run_diff(old: str, new: str) -> int:
    from oracle.report.diff import diff_reports

    before, after = _load(old, "diff"), _load(new, "diff")
    if before is None or after is None:
        return Exit.USAGE
    result = diff_reports(before, after)  # type: ignore[arg-type]
    print(result.render(), end="")
    return Exit.FAILED if result.regressed else Exit.OK


def run_trend(ns: argparse.Namespace) -> int:
    """``rules-oracle trend REPORT... | FOLDER``: rules across runs, oldest first."""
    import shutil

    from oracle.report.formats import formats, trend_formats
    from oracle.report.formats.table import render_trend_table
    from oracle.report.trend import build_trend
    from oracle.report.write import OutputError, check_outputs, write_atomic

    outputs = {f.name: Path(getattr(ns, f"trend_{f.name}")) for f in trend_formats()
               if getattr(ns, f"trend_{f.name}", None)}
    try:
        check_outputs({f"--{name}": path for name, path in outputs.items()})
        trend = build_trend([Path(p) for p in ns.reports])
    except (OutputError, ReportFileError) as exc:
        print(f"rules-oracle trend: {exc}", file=sys.stderr)
        return Exit.USAGE
    print(render_trend_table(trend, shutil.get_terminal_size().columns))
    for name, path in outputs.items():
        trend_of = formats()[name].trend
        assert trend_of is not None
        write_atomic(path, trend_of(trend))
        print(f"trend written to {path}")
    return Exit.OK


def requested_outputs(ns: argparse.Namespace) -> dict[str, Path]:
    """The report files a command line asks for: format name -> path (``--json PATH``...)."""
    from oracle.report.formats import file_formats

    return {f.name: Path(getattr(ns, f"oracle_{f.name}")) for f in file_formats()
            if getattr(ns, f"oracle_{f.name}", None)}


def run_combine(ns: argparse.Namespace) -> int:
    from oracle.report.combine import CombineError, combine
    from oracle.report.formats import formats
    from oracle.report.formats.table import render_table
    from oracle.report.judge import judge
    from oracle.report.write import OutputError, check_outputs, write_atomic

    outputs = requested_outputs(ns)
    try:
        check_outputs({f"--{name}": path for name, path in outputs.items()})
    except OutputError as exc:
        print(f"rules-oracle combine: {exc}", file=sys.stderr)
        return Exit.USAGE
    shards = [(path, _load(path, "combine")) for path in ns.shards]
    if any(report is None for _, report in shards):
        return Exit.USAGE
    try:
        report = combine(shards)  # type: ignore[arg-type]
    except CombineError as exc:
        print(f"rules-oracle combine: {exc}", file=sys.stderr)
        return Exit.USAGE
    print(render_table(report, compact=getattr(ns, "quiet", False)))
    for name, path in outputs.items():
        write_atomic(path, formats()[name].render(report))
        print(f"report written to {path}")
    code, notes = judge(report, ns.oracle_require_coverage)
    for note in notes:
        print(f"rules-oracle: {note}", file=sys.stderr)
    return code
