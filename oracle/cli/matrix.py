"""``rules-oracle matrix``: one run per engine, in parallel, then one table of rules against
engines (``oracle.report.matrix``), printed and written in every format that can.

Why subprocesses: each engine's run is an ordinary ``rules-oracle run --json`` (the same
command a user would type to reproduce a column), isolated from the others (an engine that
crashes its process, leaks or hangs takes nothing else down), and as many run at once as
there are cores. A run that gives no report (a crash, a bad ``--engine``, an import error)
becomes a column of ``error`` cells with the run's own words, never a lost matrix.

Options every engine shares (``--rule``, ``--features``, ``--seed``, ...) are the run's own
options (``oracle.options``), checked here once, before any engine runs: a mistake in them is
the matrix's usage error (exit 2), not every engine's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from oracle import options

if TYPE_CHECKING:  # imported where used: every command builds this parser, few run it
    from oracle.report.matrix import EngineColumn, Matrix

SHARED_OPTIONS = ("rule", "features", "seed", "timeout", "startup_timeout", "max_timeouts",
                  "strict_protocol", "explore", "explore_examples", "lang")
"""The run options that mean the same for every engine (an expectations file does not)."""

ERROR_TAIL = 20
"""How many last lines of a failed run's output a column's error keeps."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    """``rules-oracle matrix``: its options, the shared ones generated from the run's."""
    from oracle.report.formats import matrix_formats

    parser = sub.add_parser(
        "matrix", help="run several engines and print the table of rules against engines",
        description="Run the scenarios against each --engine (one 'rules-oracle run' each, as "
                    "many at once as there are cores) and show every rule's status on every "
                    "engine, each cell linked to its message in the HTML and Markdown "
                    "outputs. Exit 0 every engine conforms, 1 some engine fails, errors a "
                    "rule or gave no report, 2 usage error.")
    parser.add_argument("--engine", dest="engines", action="append", required=True,
                        metavar="SPEC", help=f"{options.ENGINE.help}; repeat it: one column "
                        "per engine, in this order")
    run_options = options.by_name()
    for name in SHARED_OPTIONS:
        run_options[name].add_to_cli(parser)
    for fmt in matrix_formats():
        parser.add_argument(f"--{fmt.name}", dest=f"matrix_{fmt.name}", metavar="PATH",
                            help=fmt.help.replace("per-rule report", "engine matrix"))
    cores = os.cpu_count() or 1
    parser.add_argument("--jobs", type=options.at_least_one, default=cores, metavar="N",
                        help=f"engine runs at once (default and at most: the cores, {cores})")


def _check_shared(ns: argparse.Namespace) -> list[tuple[str, str]]:
    """The catalog rules (id, text) of the games the runs will see; raises on bad input."""
    import pytest

    from oracle.plugin.selection import selected_rules
    from oracle.suite.games import discover_games, feature_roots
    from oracle.suite.lint import find_rulings

    games = discover_games(feature_roots(ns.oracle_features))
    try:
        rulings = find_rulings(games.values(), games)  # committee ids select too
        selected_rules(ns.oracle_rule, games, rulings)
    except pytest.UsageError as exc:
        raise ValueError(str(exc).replace("--oracle-rule", "--rule")) from exc
    lang = getattr(ns, "oracle_lang", None)  # --lang: the rows in that language too
    return [(r.id, r.text_in(lang)) for g in games.values() for r in g.catalog.rules]


def run_engine(spec: str, shared: Sequence[str], out: Path) -> EngineColumn:
    """One engine's ``rules-oracle run --json``, as a column (an error column if no report)."""
    from oracle.report import ReportFileError, load_report
    from oracle.report.matrix import EngineColumn

    # -P: the installed oracle, even run from inside a source checkout (python -m would
    # put the current folder first on sys.path).
    command = [sys.executable, "-P", "-m", "oracle.cli", "run", "--engine", spec, "--json",
               str(out), *shared]
    try:
        done = subprocess.run(command, capture_output=True, text=True, errors="replace",
                              stdin=subprocess.DEVNULL, check=False)
    except OSError as exc:
        return EngineColumn(spec, None, f"could not start the run: {exc}")
    if out.exists():
        try:
            return EngineColumn(spec, load_report(out), exit_code=done.returncode)
        except ReportFileError as exc:
            return EngineColumn(spec, None, str(exc), done.returncode)
    said = (done.stderr.strip() or done.stdout.strip()).splitlines()[-ERROR_TAIL:]
    reason = "\n".join(said) or "the run printed nothing"
    return EngineColumn(spec, None, f"rules-oracle run exited {done.returncode} without a "
                        f"report:\n{reason}", done.returncode)


def run_engines(specs: Sequence[str], shared: Sequence[str], jobs: int) -> list[EngineColumn]:
    """Every engine's column, in the order given, ``jobs`` runs at a time; progress on
    standard error as each ends."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    columns: dict[int, EngineColumn] = {}
    with tempfile.TemporaryDirectory(prefix="rules-oracle-matrix-") as tmp, \
            ThreadPoolExecutor(max_workers=jobs) as pool:
        started = time.monotonic()
        futures = {pool.submit(run_engine, spec, shared, Path(tmp) / f"{i}.json"): i
                   for i, spec in enumerate(specs)}
        for future in as_completed(futures):
            i = futures[future]
            column = columns[i] = future.result()
            how = (f"exit {column.exit_code}, no report" if column.report is None
                   else f"exit {column.exit_code}")
            print(f"[{len(columns)}/{len(specs)}] {column.spec}: {how} "
                  f"({time.monotonic() - started:.1f} s)", file=sys.stderr, flush=True)
    return [columns[i] for i in range(len(specs))]


def write_outputs(matrix: Matrix, ns: argparse.Namespace) -> list[Path]:
    from oracle.report.formats import matrix_formats

    written = []
    for fmt in matrix_formats():
        path = getattr(ns, f"matrix_{fmt.name}", None)
        if path and fmt.matrix is not None:
            target = Path(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(fmt.matrix(matrix), encoding="utf-8")
            written.append(target)
    return written


def main(ns: argparse.Namespace) -> int:
    """``rules-oracle matrix``: 0 every engine conforms, 1 not, 2 usage error."""
    from oracle.report.formats.table import render_matrix_table
    from oracle.report.matrix import build_matrix
    from oracle.suite.catalog import CatalogFileError

    try:
        catalog_rules = _check_shared(ns)
    except (CatalogFileError, ValueError) as exc:
        print(f"rules-oracle matrix: {exc}", file=sys.stderr)
        return 2
    values = vars(ns)
    by_name = options.by_name()
    shared = [a for name in SHARED_OPTIONS
              for a in by_name[name].cli_args(values.get(by_name[name].dest))]
    jobs = min(ns.jobs, os.cpu_count() or 1, len(ns.engines))
    matrix = build_matrix(run_engines(ns.engines, shared, jobs), catalog_rules)
    print(render_matrix_table(matrix))
    for path in write_outputs(matrix, ns):
        print(f"matrix written to {path}")
    print(f"{sum(c.conforms for c in matrix.columns)} of {len(matrix.columns)} engines "
          "conform")
    return 0 if matrix.conforms else 1
