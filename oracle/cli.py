"""``rules-oracle``: the command engine developers put in CI.

``rules-oracle run`` is pytest with the oracle turned on and nothing of the
current directory's pytest configuration in the way: the bundled features,
the chosen engine, the per-rule table. Exit status: 0 every applicable rule
conforms, 1 some rule fails or errors, 2 usage or configuration error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import pytest

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
    run.add_argument("--engine", default="reference", metavar="SPEC",
                     help="'reference' (default: each game's bundled engine), "
                          "'reference:GAME', or 'package.module:factory'")
    run.add_argument("--rule", action="append", default=[], metavar="ID",
                     help="only this rule id and its sub-rules (e.g. ti4:2.4); repeatable")
    run.add_argument("--features", action="append", default=[], metavar="DIR",
                     help="another folder of game folders to run (a committee's own rulings)")
    run.add_argument("--seed", type=int, default=0, help="base seed for shuffles (default 0)")
    run.add_argument("--json", metavar="PATH", help="write the report as JSON")
    run.add_argument("--markdown", metavar="PATH", help="write the report as Markdown")
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
    sub.add_parser("steps", help="list the step vocabulary for writing scenarios",
                   description="Every step a scenario can use, as a person would write it.")
    return parser


def list_steps() -> int:
    """Print the step vocabulary, so a committee can write a ruling without reading Python."""
    import importlib

    from pytest_bdd.steps import step_function_context_registry

    from oracle.game import discover_games
    from oracle.lint import humanize

    games = discover_games()
    modules = ["oracle.steps.common", *(g.steps for g in games.values() if g.steps)]
    for module in dict.fromkeys(modules):
        importlib.import_module(module)
        print(f"# {module.rsplit('.', 1)[-1]}")
        for ctx in step_function_context_registry.values():
            if ctx.step_func.__module__ != module:
                continue
            doc = (ctx.step_func.__doc__ or "").strip().splitlines()
            hint = f"   ({doc[0]})" if doc else ""
            kind = (ctx.type or "step").capitalize()
            print(f"{kind:<6} {humanize(ctx.parser.name)}{hint}")
        print()
    return 0


def pytest_args(ns: argparse.Namespace) -> list[str]:
    """The pytest command line that ``rules-oracle run`` stands for."""
    args = ["-c", os.devnull, "--rootdir", os.getcwd(), "-p", "no:cacheprovider", "-q",
            "--oracle-engine", ns.engine, "--oracle-seed", str(ns.seed)]
    for rule in ns.rule:
        args += ["--oracle-rule", rule]
    for folder in ns.features:
        args += ["--oracle-features", folder]
    if ns.json:
        args += ["--oracle-json", ns.json]
    if ns.markdown:
        args += ["--oracle-markdown", ns.markdown]
    if ns.keyword:
        args += ["-k", ns.keyword]
    extra = list(ns.pytest_args)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    return args + extra


def main(argv: Sequence[str] | None = None) -> int:
    ns = _parser().parse_args(argv)
    if ns.command == "steps":
        return list_steps()
    if ns.command == "selftest":
        from oracle.selftest import main as selftest_main

        return selftest_main(ns.json, ns.features, ns.game)
    try:
        EngineSpec.parse(ns.engine)
    except EngineSpecError as exc:
        print(f"rules-oracle: {exc}", file=sys.stderr)
        return 2
    code = pytest.main(pytest_args(ns))
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("rules-oracle: no scenario was selected; check --rule and -k", file=sys.stderr)
    return EXIT_CODES.get(code, int(code))


if __name__ == "__main__":
    sys.exit(main())
