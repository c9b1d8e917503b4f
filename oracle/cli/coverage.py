"""``rules-oracle coverage``: the rules text sentence by sentence, with what checks each.

Why a command: "which sentences does the suite not check" is the first question of a rules
committee, and its answer joins four things no single run has: the catalog's sentences
(``oracle.suite.catalog``), the scenarios' ``Cites:`` lines (``oracle.suite.features``), the
mutants each scenario fails on (the selftest harness, in this process: proof a scenario can
fail), and optionally an engine's verdicts (one ordinary ``rules-oracle run --json`` in a
subprocess, as ``rules-oracle matrix`` runs each engine). ``oracle.report.coverage`` joins
them; every format with a ``coverage`` renderer writes the result.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from oracle import options
from oracle.cli.games import UsageError, add_game_option, chosen_games

if TYPE_CHECKING:  # imported where used: every command builds this parser, few run it
    from oracle.report.model import Report, Status
    from oracle.suite.features import ScenarioDoc
    from oracle.suite.games import Game


def add_parser(sub: argparse._SubParsersAction) -> None:
    from oracle.report.formats import coverage_formats

    parser = sub.add_parser(
        "coverage", help="the rules text sentence by sentence, with the scenarios that "
                         "check each",
        description="List every sentence of the rules with the scenarios that cite it "
                    "(their 'Cites:' lines), the mutants those scenarios fail on, the "
                    "rulings refining it, and with --engine the scenarios' verdicts on that "
                    "engine; or why no scenario can check it (its waiver). Totals per game. "
                    "Context sentences (related chapters) are listed apart and never "
                    "uncovered. Exit 0 every sentence of every testable rule is covered or "
                    "waived, 1 some is uncovered, 2 usage error or a suite that does not "
                    "read.")
    add_game_option(parser)
    parser.add_argument("--engine", metavar="SPEC",
                        help=f"also run the scenarios on this engine and show each one's "
                             f"verdict ({options.ENGINE.help})")
    options.by_name()["features"].add_to_cli(parser)
    parser.add_argument("--no-mutants", action="store_true",
                        help="do not run the mutants (faster; no sentence then lists the "
                             "mutants its scenarios fail on)")
    for fmt in coverage_formats():
        parser.add_argument(f"--{fmt.name}", dest=f"coverage_{fmt.name}", metavar="PATH",
                            help=fmt.help.replace("per-rule report", "sentence coverage"))


def _shown(path: Path, games: Mapping[str, Game]) -> str:
    """A feature file as reports show it: from its features root, or from here."""
    for game in games.values():
        if path.is_relative_to(game.folder.parent):
            return str(path.relative_to(game.folder.parent))
    here = Path.cwd()
    return str(path.relative_to(here)) if path.is_relative_to(here) else str(path)


def _row_names(doc: ScenarioDoc) -> list[str]:
    """A scenario's runnable names as runs and the harness give them (an outline: a row
    each)."""
    from oracle.suite.runnable import row_name

    return [row_name(doc.name, dict(row)) for row in doc.examples] or [doc.name]


def _kills(chosen: Mapping[str, Game]) -> tuple[dict[tuple[str, str], tuple[str, ...]], int]:
    """(game, scenario) -> the mutants it fails or errors on; and how many mutants ran."""
    from oracle.mutants.selftest import importable_here, selftest

    importable_here()
    results, _ = selftest(dict(chosen))
    kills: dict[tuple[str, str], tuple[str, ...]] = {}
    for row in results:
        for name in row.fails:
            kills[(row.game, name)] = (*kills.get((row.game, name), ()),
                                       f"{row.game}/{row.name}")
    return kills, len(results)


def _engine_verdicts(ns: argparse.Namespace, chosen: Mapping[str, Game]
                     ) -> tuple[dict[tuple[str, str], Status], dict[str, object], list[str]]:
    """Each scenario's status on ``--engine`` (one ``rules-oracle run --json``), the engine
    as the document shows it, and notes (a run that gave no report says why)."""
    from oracle.cli.matrix import run_engine

    shared = [a for f in ns.oracle_features for a in ("--features", f)]
    shared += [a for g in (ns.game or []) for a in ("--rule", g)]
    with tempfile.TemporaryDirectory(prefix="rules-oracle-coverage-") as tmp:
        column = run_engine(ns.engine, shared, Path(tmp) / "run.json")
    engine: dict[str, object] = {"spec": ns.engine, "exit_code": column.exit_code}
    if column.report is None:
        engine["error"] = column.error
        return {}, engine, [f"the run on {ns.engine} gave no report, so no verdict is shown: "
                            + (column.error.strip().splitlines() or ["?"])[-1]]
    engine["games"] = dict(column.report.engine.get("games", {}))
    return _statuses(column.report, chosen), engine, []


def _statuses(report: Report, chosen: Mapping[str, Game]) -> dict[tuple[str, str], Status]:
    """(game, scenario) -> status, from a report's rules and rulings (a blocked scenario's
    failure charged to another rule is a copy, left out)."""
    found: dict[tuple[str, str], Status] = {}
    for rule in report.rules:
        game = rule.id.partition(":")[0]
        if game not in chosen:
            continue
        for s in (*rule.scenarios, *(x for g in rule.rulings for x in g.scenarios)):
            if not s.charged_from:
                found.setdefault((game, s.name), s.status)
    return found


def main(ns: argparse.Namespace) -> int:
    """0 every sentence covered or waived; 1 some uncovered; 2 usage error."""
    from oracle.report.coverage import build_coverage
    from oracle.report.formats import coverage_formats, formats
    from oracle.report.write import OutputError, check_outputs, write_atomic
    from oracle.suite.catalog import CatalogFileError
    from oracle.suite.lint import read_suite

    outputs = {f"--{fmt.name}": Path(path) for fmt in coverage_formats()
               if (path := getattr(ns, f"coverage_{fmt.name}", None))}
    try:
        games, chosen = chosen_games(ns.game, ns.oracle_features)
        check_outputs(outputs)
        by_game, rulings, problems = read_suite(chosen.values(), games)
    except (CatalogFileError, UsageError, OutputError) as exc:
        print(f"rules-oracle coverage: {exc}", file=sys.stderr)
        return 2
    if problems:
        for problem in problems[:20]:
            print(problem, file=sys.stderr)
        print(f"rules-oracle coverage: the suite does not read ({len(problems)} problems "
              "above); fix them first ('rules-oracle run' checks the rest)", file=sys.stderr)
        return 2
    notes: list[str] = []
    kills, mutants = None, None
    if not ns.no_mutants:
        print("running the mutants to see which scenarios each fails (--no-mutants skips "
              "this)...", file=sys.stderr, flush=True)
        kills, mutants = _kills(chosen)
    verdicts, engine = None, None
    if ns.engine:
        verdicts, engine, said = _engine_verdicts(ns, chosen)
        notes += said
    command = shlex.join(["rules-oracle", "coverage",
                          *(a for g in ns.game for a in ("--game", g)),
                          *(a for f in ns.oracle_features for a in ("--features", f)),
                          *(["--engine", ns.engine] if ns.engine else []),
                          *(["--no-mutants"] if ns.no_mutants else [])])
    coverage = build_coverage(
        [g.catalog for g in chosen.values()], by_game, rulings, row_names=_row_names,
        kills=kills, verdicts=verdicts, locate=lambda p: _shown(p, games), mutants=mutants,
        engine=engine, command=command, notes=tuple(notes))
    written = []  # the files first: a terminal that stops reading loses only the table
    for fmt in coverage_formats():
        target = outputs.get(f"--{fmt.name}")
        if target is not None and fmt.coverage is not None:
            write_atomic(target, fmt.coverage(coverage))
            written.append(target)
    table = formats()["table"].coverage
    if table is not None:
        print(table(coverage))
    for target in written:
        print(f"coverage written to {target}")
    return 0 if coverage.complete else 1
