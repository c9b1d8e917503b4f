"""``rules-oracle check``: the suite's checks with no engine, as Cucumber's ``--dry-run``.

Why: a committee that edits a feature file, or a CI job guarding a folder of rulings, wants
to know that the suite would run before any engine is at hand: that every scenario names a
known rule, every rule has a scenario or a reason, every step has one definition, every name
is a fact of the game and every ``Cites:`` line a sentence of the catalog. These are the
checks ``rules-oracle run`` refuses a suite on (``oracle.suite.lint.check_suite``); here they
run alone. Exit 0 when the suite passes them, 2 when it does not (a usage error, as a run
would say), each problem with its file, line and what to do.
"""

from __future__ import annotations

import argparse
import sys

from oracle import options
from oracle.report.judge import Exit
from oracle.suite.catalog import CatalogFileError
from oracle.suite.games import discover_games, feature_roots
from oracle.suite.lint import check_suite


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "check", help="check the suite (no engine): rules, steps, names, citations",
        description="Run the checks 'rules-oracle run' refuses a suite on, with no engine "
                    "(like Cucumber's --dry-run): every scenario has a known rule, every "
                    "rule a scenario or a reason, every step one definition, every name a "
                    "fact of its game, every Cites: line a sentence. Exit 0 the suite passes "
                    "them, 2 it does not (each problem with its file and line).")
    parser.add_argument("--game", action="append", default=[], metavar="ID",
                        help="only this game's features (repeatable; default: every game)")
    options.by_name()["features"].add_to_cli(parser)


def main(ns: argparse.Namespace) -> int:
    try:
        games = discover_games(feature_roots(ns.oracle_features))
    except CatalogFileError as exc:
        print(f"rules-oracle check: {exc}", file=sys.stderr)
        return Exit.USAGE
    unknown = [g for g in ns.game if g not in games]
    if unknown:
        print(f"rules-oracle check: no game {', '.join(unknown)} (games: {', '.join(games)})",
              file=sys.stderr)
        return Exit.USAGE
    chosen = [games[g] for g in ns.game] if ns.game else list(games.values())
    checked = check_suite(chosen, games)
    if checked.problems:
        print(f"rules-oracle check: {len(checked.problems)} problem(s) in the suite",
              file=sys.stderr)
        for problem in checked.problems:
            print(problem, file=sys.stderr)
        return Exit.USAGE
    files = sum(len(game.feature_files()) for game in chosen)
    rulings = len(checked.rulings.by_id)
    print(f"rules-oracle check: the suite passes every check: {', '.join(g.id for g in chosen)}"
          f"; {files} feature files, {len(checked.scenarios)} scenarios"
          + (f", {rulings} rulings" if rulings else ""))
    return Exit.OK
