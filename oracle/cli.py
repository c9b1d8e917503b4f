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
                          "'reference:GAME', 'package.module:factory', or 'cmd:ARGV' "
                          "(an engine process speaking the protocol on stdin/stdout)")
    run.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                     help="seconds an engine gets to answer each request (default 10); a "
                          "late answer errors the scenario and the engine is restarted")
    run.add_argument("--strict-protocol", action="store_true",
                     help="validate every request and reply against the JSON Schemas")
    run.add_argument("--rule", action="append", default=[], metavar="ID",
                     help="only this rule id and its sub-rules (e.g. ti4:2.4); repeatable")
    run.add_argument("--features", action="append", default=[], metavar="DIR",
                     help="another folder of game folders to run (a committee's own rulings)")
    run.add_argument("--seed", type=int, default=0, help="base seed for shuffles (default 0)")
    run.add_argument("--json", metavar="PATH", help="write the report as JSON")
    run.add_argument("--expectations", metavar="PATH",
                     help="YAML of this engine's known failures (reported xfail/xpass)")
    run.add_argument("--strict-expectations", action="store_true",
                     help="a known failure that now passes fails the run")
    run.add_argument("--markdown", metavar="PATH", help="write the report as Markdown")
    run.add_argument("--explore", action="store_true",
                     help="also explore with Hypothesis; findings land under their rule ids")
    run.add_argument("--explore-examples", type=int, default=60, metavar="N",
                     help="games tried per invariant when exploring (default 60)")
    run.add_argument("--explore-out", metavar="DIR",
                     help="write exploration counterexamples as .feature files here")
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
    expect = sub.add_parser(
        "expectations", help="write a known-failures file from a run's JSON report",
        description="List every rule a JSON report flags as a known failure, ready to commit "
                    "in the engine's repository and pass to 'run --expectations'.")
    expect.add_argument("--from", dest="source", required=True, metavar="REPORT",
                        help="the JSON report of a run (rules-oracle run --json)")
    expect.add_argument("--out", metavar="PATH",
                        help="write here (default: print to standard output)")
    selftest.add_argument("--features", action="append", default=[], metavar="DIR",
                          help="another folder of game folders (with their own mutants)")
    selftest.add_argument("--game", action="append", default=[], metavar="ID",
                          help="only this game's mutants (repeatable; default: every game)")
    smoke = sub.add_parser(
        "smoke", help="check a new adapter's handshake and a few basic calls",
        description="Talk to an engine briefly (handshake, a minimal setup, observe as a "
                    "player, a spectator and the referee, an action the rules refuse) and "
                    "say in plain words what is wrong. Exit 0 all ok, 1 something is wrong, "
                    "2 a bad --engine.")
    smoke.add_argument("--engine", required=True, metavar="SPEC",
                       help="as for run, e.g. 'cmd:node examples/node-ti4/engine.js'")
    smoke.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                       help="seconds a cmd: engine gets to answer each request (default 10)")
    smoke.add_argument("--features", action="append", default=[], metavar="DIR",
                       help="another folder of game folders the engine may play")
    sub.add_parser("steps", help="list the step vocabulary for writing scenarios",
                   description="Every step a scenario can use, as a person would write it.")
    return parser


def list_steps() -> int:
    """Print the step vocabulary, so a committee can write a ruling without reading Python."""
    import importlib

    from pytest_bdd.steps import step_function_context_registry

    from oracle.dsl import PILE_GRAMMAR
    from oracle.game import discover_games
    from oracle.lint import humanize

    print("<name> is a value, [..] optional, (a|b) a choice. Cards are quoted: \"Sabotage\".\n"
          f"<pile>, <cards>: {PILE_GRAMMAR}.\n<names>: Alice, Bob and Carol.\n")
    games = discover_games()
    modules = ["oracle.steps.common", *(g.steps for g in games.values() if g.steps)]
    for module in dict.fromkeys(modules):
        importlib.import_module(module)
        print(f"# {module.rsplit('.', 1)[-1]}")
        for ctx in step_function_context_registry.values():
            if ctx.step_func.__module__ != module:
                continue
            doc = " ".join((ctx.step_func.__doc__ or "").strip().split("\n\n")[0].split())
            hint = f"\n         {doc}" if doc else ""
            kind = (ctx.type or "step").capitalize()
            print(f"{kind:<6} {humanize(ctx.parser.name)}{hint}")
        print()
    return 0


def run_smoke(spec_text: str, timeout: float | None, features: list[str]) -> int:
    """``rules-oracle smoke``: 0 every check ok, 1 some check failed, 2 a bad spec."""
    from pathlib import Path

    from oracle.catalog import CatalogFileError
    from oracle.game import bundled_features_dir, discover_games
    from oracle.pipe import DEFAULT_TIMEOUT
    from oracle.smoke import render, smoke

    try:
        spec = EngineSpec.parse(spec_text)
        if timeout is not None and not timeout > 0:
            raise EngineSpecError(f"--timeout must be a positive number of seconds, "
                                  f"got {timeout:g}")
        games = discover_games([bundled_features_dir(), *(Path(f) for f in features)])
        results = smoke(spec, games, DEFAULT_TIMEOUT if timeout is None else timeout)
    except (EngineSpecError, CatalogFileError) as exc:
        print(f"rules-oracle: {exc}", file=sys.stderr)
        return 2
    print(render(results), end="")
    return 0 if all(c.ok for _, checks in results for c in checks) else 1


def write_expectations(source: str, out: str | None) -> int:
    """``rules-oracle expectations --from r.json``: known failures from a report."""
    import json

    from oracle.expectations import from_report

    try:
        with open(source, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as exc:
        print(f"rules-oracle expectations: cannot read {source} ({exc}); pass the file "
              "written by 'rules-oracle run --json'", file=sys.stderr)
        return 2
    text = from_report(report)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"expectations written to {out}")
    else:
        print(text, end="")
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
    if ns.timeout is not None:
        args += ["--oracle-timeout", str(ns.timeout)]
    if ns.strict_protocol:
        args += ["--oracle-strict-protocol"]
    if ns.keyword:
        args += ["-k", ns.keyword]
    if ns.explore:
        args += ["--oracle-explore", "--oracle-explore-examples", str(ns.explore_examples)]
    if ns.expectations:
        args += ["--oracle-expectations", ns.expectations]
    if ns.strict_expectations:
        args += ["--oracle-strict-expectations"]
    if ns.explore_out:
        args += ["--oracle-explore-out", ns.explore_out]
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
        from oracle.selftest import main as selftest_main

        return selftest_main(ns.json, ns.features, ns.game)
    if ns.command == "smoke":
        return run_smoke(ns.engine, ns.timeout, ns.features)
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
