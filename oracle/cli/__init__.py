"""``rules-oracle``: the command engine developers put in CI.

``rules-oracle matrix`` runs several engines and tabulates them (``oracle.cli.matrix``).
``rules-oracle run`` is pytest with the oracle turned on and nothing of the current
directory's pytest configuration in the way: the bundled features, the chosen engine, the
per-rule table. Its options are the pytest plugin's, generated from one table
(``oracle.options``). Exit status: 0 every applicable rule conforms, 1 some rule fails or
errors, 2 usage or configuration error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import pytest

from oracle import options
from oracle.engines import EngineSpec, EngineSpecError

EXIT_CODES = {
    pytest.ExitCode.OK: 0,
    pytest.ExitCode.TESTS_FAILED: 1,
    pytest.ExitCode.INTERRUPTED: 2,
    pytest.ExitCode.INTERNAL_ERROR: 3,
    pytest.ExitCode.USAGE_ERROR: 2,
    pytest.ExitCode.NO_TESTS_COLLECTED: 2,
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-oracle",
        description="Run board-game rules, written as Gherkin scenarios, against an engine "
                    "and report conformance rule by rule.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run the scenarios against an engine",
                         description="Run every bundled game's scenarios (or the selected "
                                     "rules) and print the per-rule table. Arguments after "
                                     "'--' go to pytest (e.g. -- -n 2 for pytest-xdist).")
    for option in options.run_options():
        option.add_to_cli(run)
    run.add_argument("-k", dest="keyword", metavar="EXPR",
                     help="only scenarios whose test name matches (pytest -k)")
    run.add_argument("pytest_args", nargs=argparse.REMAINDER,
                     help="after '--': more pytest arguments")
    selftest = sub.add_parser(
        "selftest", help="run every mutant engine and print the kill matrix",
        description="Run the suite against every bundled mutant (a reference engine broken "
                    "on purpose) and check that the report flags exactly the rules each "
                    "breaks. Exit 0 only if every mutant is killed with no false flags.")
    selftest.add_argument("--json", metavar="PATH", help="write the kill matrix as JSON")
    selftest.add_argument("--features", action="append", default=[], metavar="DIR",
                          help="another folder of game folders (with their own mutants)")
    selftest.add_argument("--game", action="append", default=[], metavar="ID",
                          help="only this game's mutants (repeatable; default: every game)")
    expect = sub.add_parser(
        "expectations", help="write a known-failures file from a run's JSON report",
        description="List every rule a JSON report flags as a known failure, ready to commit "
                    "in the engine's repository and pass to 'run --expectations'.")
    expect.add_argument("--from", dest="source", required=True, metavar="REPORT",
                        help="the JSON report of a run (rules-oracle run --json)")
    expect.add_argument("--out", metavar="PATH",
                        help="write here (default: print to standard output)")
    smoke = sub.add_parser(
        "smoke", help="check a new adapter's handshake and a few basic calls",
        description="Talk to an engine briefly (handshake, a minimal setup, observe as a "
                    "player, a spectator and the referee, an action the rules refuse) and "
                    "say in plain words what is wrong. Exit 0 all ok, 1 something is wrong, "
                    "2 a bad --engine.")
    smoke_options = options.by_name()
    for name in ("engine", "timeout", "features"):
        smoke_options[name].add_to_cli(smoke)
    from oracle.cli import matrix

    matrix.add_parser(sub)
    sub.add_parser("steps", help="list the step vocabulary for writing scenarios",
                   description="Every step a scenario can use, as a person would write it.")
    from oracle.cli import scaffold

    scaffold.add_parser(sub)
    return parser


def list_steps() -> int:
    """Print the step vocabulary, so a committee can write a ruling without reading Python."""
    from oracle.suite.dsl import PILE_GRAMMAR
    from oracle.suite.games import discover_games
    from oracle.suite.vocabulary import every_step_module, vocabulary

    print("<name> is a value, [..] optional, (a|b) a choice. Cards are quoted: \"Sabotage\".\n"
          f"<pile>, <cards>: {PILE_GRAMMAR}.\n<names>: Alice, Bob and Carol.\n")
    for module in every_step_module(discover_games().values()):
        print(f"# {module.rsplit('.', 1)[-1]}")
        for step in vocabulary((module,)).defs:
            hint = f"\n         {step.doc}" if step.doc else ""
            print(f"{(step.kind or 'step').capitalize():<6} {step.human}{hint}")
        print()
    return 0


def run_smoke(ns: argparse.Namespace) -> int:
    """``rules-oracle smoke``: 0 every check ok, 1 some check failed, 2 a bad spec."""
    from pathlib import Path

    from oracle.engines.smoke import render, smoke
    from oracle.engines.spec import DEFAULT_TIMEOUT
    from oracle.suite.catalog import CatalogFileError
    from oracle.suite.games import bundled_features_dir, discover_games

    try:
        spec = EngineSpec.parse(ns.oracle_engine)
        games = discover_games([bundled_features_dir(),
                                *(Path(f) for f in ns.oracle_features)])
        results = smoke(spec, games, ns.oracle_timeout or DEFAULT_TIMEOUT)
    except (EngineSpecError, CatalogFileError) as exc:
        print(f"rules-oracle: {exc}", file=sys.stderr)
        return 2
    print(render(results), end="")
    return 0 if all(result.ok for result in results) else 1


def write_expectations(source: str, out: str | None) -> int:
    """``rules-oracle expectations --from r.json``: known failures from a report."""
    from pathlib import Path

    from oracle.report import ReportFileError, load_report
    from oracle.report.expectations import from_report

    try:
        report = load_report(Path(source))
    except ReportFileError as exc:
        print(f"rules-oracle expectations: {exc}", file=sys.stderr)
        return 2
    text = from_report(report)
    if out:
        Path(out).write_text(text, encoding="utf-8")
        print(f"expectations written to {out}")
    else:
        print(text, end="")
    return 0


def pytest_args(ns: argparse.Namespace) -> list[str]:
    """The pytest command line that ``rules-oracle run`` stands for."""
    args = ["-c", os.devnull, "--rootdir", os.getcwd(), "-p", "no:cacheprovider", "-q",
            *options.pytest_args(vars(ns))]
    if ns.keyword:
        args += ["-k", ns.keyword]
    extra = list(ns.pytest_args)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    return args + extra


def main(argv: Sequence[str] | None = None) -> int:
    ns = _parser().parse_args(argv)
    if ns.command == "expectations":
        return write_expectations(ns.source, ns.out)
    if ns.command == "steps":
        return list_steps()
    if ns.command == "selftest":
        from oracle.mutants.selftest import main as selftest_main

        return selftest_main(ns.json, ns.features, ns.game)
    if ns.command == "smoke":
        return run_smoke(ns)
    if ns.command == "matrix":
        from oracle.cli.matrix import main as matrix_main

        return matrix_main(ns)
    if ns.command == "new-adapter":
        from oracle.cli.scaffold import main as new_adapter

        return new_adapter(ns)
    try:
        EngineSpec.parse(ns.oracle_engine)
    except EngineSpecError as exc:
        print(f"rules-oracle: {exc}", file=sys.stderr)
        return 2
    code = pytest.main(pytest_args(ns))
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("rules-oracle: no scenario was selected; check --rule and -k", file=sys.stderr)
    return EXIT_CODES.get(code, int(code))
