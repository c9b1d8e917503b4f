"""``rules-oracle``: the command engine developers put in CI.

``rules-oracle matrix`` runs several engines and tabulates them (``oracle.cli.matrix``);
``rules-oracle explore`` plays the same games on two engines and reports where they disagree
(``oracle.cli.explore``);
``rules-oracle capabilities`` maps capabilities to steps and engines' gaps
(``oracle.cli.capabilities``); ``rules-oracle coverage`` lists the rules text sentence by
sentence with what checks each (``oracle.cli.coverage``).
``rules-oracle run`` is pytest with the oracle turned on and nothing of the current
directory's pytest configuration in the way (no ini file, no ``conftest.py``, no cache):
the bundled features, the chosen engine, the per-rule table. Its options are the pytest
plugin's, generated from one table (``oracle.options``). Exit statuses: one table,
``oracle.report.judge.EXIT_TABLE``, printed by ``rules-oracle run --help``.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

from oracle import options
from oracle.engines import EngineSpec, EngineSpecError
from oracle.report.judge import EXIT_TABLE, Exit

#: pytest's exit statuses as ``rules-oracle run`` reports them (see EXIT_TABLE). pytest's
#: "interrupted" without a Ctrl-C is an error while collecting: a configuration error.
EXIT_CODES = {
    pytest.ExitCode.OK: Exit.OK,
    pytest.ExitCode.TESTS_FAILED: Exit.FAILED,
    pytest.ExitCode.INTERRUPTED: Exit.USAGE,
    pytest.ExitCode.INTERNAL_ERROR: Exit.INTERNAL,
    pytest.ExitCode.USAGE_ERROR: Exit.USAGE,
    pytest.ExitCode.NO_TESTS_COLLECTED: Exit.NOTHING_TESTED,
    Exit.INTERRUPTED: Exit.INTERRUPTED,
}


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    from oracle.protocol import PROTOCOL_VERSION

    def of(name: str) -> str:
        try:
            return installed(name)
        except PackageNotFoundError:
            return "?"

    return (f"rules-oracle {of('rules-oracle')} (adapter protocol {PROTOCOL_VERSION}; "
            f"pytest {of('pytest')}, pytest-bdd {of('pytest-bdd')}, "
            f"hypothesis {of('hypothesis')}, python {sys.version.split()[0]})")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-oracle",
        description="Run board-game rules, written as Gherkin scenarios, against an engine "
                    "and report conformance rule by rule.",
    )
    parser.add_argument("--version", action="version", version=version())
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser(
        "run", help="run the scenarios against an engine",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run every bundled game's scenarios (or the selected rules) and print "
                    "the per-rule table. The current directory's pytest configuration is "
                    "not used: no ini file, no conftest.py, no .pytest_cache (use plain "
                    "'pytest --oracle-engine=...' for that). Arguments after '--' go to "
                    "pytest (e.g. -- -n 2 for pytest-xdist).",
        epilog=EXIT_TABLE)
    for option in options.run_options():
        option.add_to_cli(run)
    run.add_argument("-k", dest="keyword", metavar="EXPR",
                     help="only scenarios whose test name matches (pytest -k)")
    run.add_argument("--jobs", type=options.at_least_one, default=1, metavar="N",
                     help="run in N processes, each a --shard of the run, and combine their "
                          "reports into this run's table and files (faster than '-- -n N': "
                          "pytest-xdist's per-test reports cost as much as a scenario)")
    loud = run.add_mutually_exclusive_group()
    loud.add_argument("-q", "--quiet", action="store_true",
                      help="no progress; the table lists only the rules that do not pass")
    loud.add_argument("-v", "--verbose", action="store_true",
                      help="one line per scenario as it runs")
    run.add_argument("pytest_args", nargs=argparse.REMAINDER,
                     help="after '--': more pytest arguments")
    selftest = sub.add_parser(
        "selftest", help="run every mutant engine and print the kill matrix",
        description="Run the suite against every bundled mutant (a reference engine broken "
                    "on purpose) and check that the report flags exactly the rules each "
                    "breaks. Exit 0 only if every mutant is killed with no false flags; 130 "
                    "when interrupted.")
    selftest.add_argument("--json", metavar="PATH", help="write the kill matrix as JSON")
    selftest.add_argument("--features", action="append", default=[], metavar="DIR",
                          help="another folder of game folders (with their own mutants)")
    selftest.add_argument("--game", action="append", default=[], metavar="ID",
                          help="only this game's mutants (repeatable; default: every game)")
    selftest.add_argument("--every-scenario", action="store_true",
                          help="run every scenario on every mutant, not only those that "
                               "reach a method the mutant replaces (slower, same matrix)")
    selftest.add_argument("-q", "--quiet", action="store_true",
                          help="no line per mutant while it runs")
    selftest.add_argument("--list", action="store_true",
                          help="list every mutant (its --engine name, the rule ids it breaks, "
                               "its change) and run none")
    from oracle.cli.reports import add_commands

    add_commands(sub)
    smoke = sub.add_parser(
        "smoke", help="check a new adapter's handshake and a few basic calls",
        description="Talk to an engine briefly (handshake, a minimal setup, observe as a "
                    "player, a spectator and the referee, an action the rules refuse), then "
                    "try each setup key and request shape the scenarios send, alone, and "
                    "say in plain words what is wrong (a key the engine refuses is named, "
                    "with the scenarios it costs: a warning, since 'unsupported' is a valid "
                    "answer). Exit 0 all ok, 1 something is wrong, 2 a bad --engine.")
    smoke_options = options.by_name()
    for name in ("engine", "timeout", "startup_timeout", "features"):
        smoke_options[name].add_to_cli(smoke)
    from oracle.cli import matrix

    matrix.add_parser(sub)
    steps = sub.add_parser(
        "steps", help="the step reference for writing scenarios and rulings",
        description="Every step a scenario can use, as a person would write it: the grammar "
                    "of each argument, the values it may take (cards, windows, factions, "
                    "...) and an example. docs/steps.md is this with --markdown.")
    steps.add_argument("--game", action="append", default=[], metavar="ID",
                       help="only this game's steps and values (repeatable; default: all)")
    steps.add_argument("--markdown", action="store_true", help="write Markdown")
    smoke_options["features"].add_to_cli(steps)
    from oracle.cli import capabilities, cards, check, coverage, explore, scaffold

    check.add_parser(sub)
    explore.add_parser(sub)
    scaffold.add_parser(sub)
    capabilities.add_parser(sub)
    cards.add_parser(sub)
    coverage.add_parser(sub)
    from oracle.cli import editions

    editions.add_parsers(sub)
    return parser


def list_steps(wanted: Sequence[str] = (), markdown: bool = False,
               features: Sequence[str] = ()) -> int:
    """Print the step reference, so a committee can write a ruling without reading Python."""
    from oracle.suite.catalog import CatalogFileError
    from oracle.suite.games import discover_games, feature_roots
    from oracle.suite.reference import render_reference

    try:
        games = discover_games(feature_roots(features))
    except CatalogFileError as exc:
        print(f"rules-oracle steps: {exc}", file=sys.stderr)
        return 2
    unknown = [g for g in wanted if g not in games]
    if unknown:
        print(f"rules-oracle steps: no game {', '.join(unknown)}; games: {', '.join(games)}",
              file=sys.stderr)
        return 2
    chosen = [games[g] for g in wanted] if wanted else list(games.values())
    print(render_reference(chosen, markdown), end="")
    return 0


def run_smoke(ns: argparse.Namespace) -> int:
    """``rules-oracle smoke``: 0 every check ok, 1 some check failed, 2 a bad spec."""
    from oracle.engines.spec import DEFAULT_TIMEOUT
    from oracle.probe.smoke import render, smoke
    from oracle.suite.catalog import CatalogFileError
    from oracle.suite.games import discover_games, feature_roots

    try:
        spec = EngineSpec.parse(ns.oracle_engine)
        games = discover_games(feature_roots(ns.oracle_features))
        results = smoke(spec, games, ns.oracle_timeout or DEFAULT_TIMEOUT,
                        ns.oracle_startup_timeout)
    except (EngineSpecError, CatalogFileError) as exc:
        print(f"rules-oracle: {exc}", file=sys.stderr)
        return 2
    print(render(results), end="")
    return 0 if all(result.ok for result in results) else 1


def pytest_args(ns: argparse.Namespace) -> list[str]:
    """The pytest command line that ``rules-oracle run`` stands for: no ini file, no
    conftest.py and no cache of the current directory, so nothing of it is read or written.

    Three things pytest would do by default cost a one-rule run most of its start-up and
    give nothing here (``benchmarks/run.py`` measures it): rewriting the asserts of every
    plugin module (pytest-bdd, xdist, hypothesis, and the whole ``oracle`` package when
    installed non-editable), which is redone on every run wherever bytecode is not written
    (``PYTHONDONTWRITEBYTECODE``, read-only installs); Hypothesis's pytest plugin, which
    imports all of Hypothesis in its terminal summary; and pytest's watch for exceptions
    raised in finalizers (``unraisableexception``), which ends every session with five full
    garbage collections (half of a warm one-rule run) to report warnings no verdict uses.
    Verdicts never rest on a bare ``assert`` (the oracle raises its own exceptions), so
    ``--assert=plain``; the finalizer watch is off; Hypothesis's plugin is left out unless
    the run explores or passes it options, and pytest-xdist's unless pytest arguments
    (``-- -n 2``) or ``PYTEST_ADDOPTS`` could ask for it.
    """
    extra = list(ns.pytest_args)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    quiet = ["-qq"] if ns.quiet else ["-v"] if ns.verbose else ["-q"]
    args = ["-c", os.devnull, "--rootdir", os.getcwd(), "--noconftest",
            "-p", "no:cacheprovider", "-p", "no:unraisableexception", *quiet,
            "--assert=plain"]
    if not ns.oracle_explore and not any(a.startswith("--hypothesis") for a in extra):
        args += ["-p", "no:hypothesispytest"]
    if not extra and not os.environ.get("PYTEST_ADDOPTS"):  # nobody asked for xdist
        args += ["-p", "no:xdist", "-p", "no:xdist.looponfail"]
    args += [options.FROM_CLI, *options.pytest_args(vars(ns))]
    if ns.keyword:
        args += ["-k", ns.keyword]
    return args + extra


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """SIGTERM (a cancelled CI job) stops a run the way Ctrl-C does: the partial reports are
    written, marked interrupted, and the exit status is 130, with no traceback."""
    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run(ns: argparse.Namespace) -> int:
    try:
        EngineSpec.parse(ns.oracle_engine)
    except EngineSpecError as exc:
        print(f"rules-oracle: {exc}", file=sys.stderr)
        return Exit.USAGE
    with sigterm_interrupts():
        if ns.jobs > 1:
            from oracle.cli.jobs import run_in_jobs

            return int(run_in_jobs(ns))
        code = pytest.main(pytest_args(ns))
    return int(EXIT_CODES.get(code, code))


@contextmanager
def interruptible() -> Iterator[list[bool]]:
    """Ctrl-C anywhere in a command, as ``KeyboardInterrupt``, noted in the list it yields.

    Why: pytest turns a Ctrl-C during its session into an exit status and partial reports,
    but one before its session starts (reading the options, loading plugins: the first 0.3
    s) printed a traceback, and pytest's "interrupted" status then read as a usage error.
    With the note, ``main`` tells a Ctrl-C from an error and exits 130 without a traceback.
    In a thread other than the main one (or where SIGINT is not Python's), nothing changes.
    """
    stopped: list[bool] = []

    def on_sigint(signum: int, frame: Any) -> None:
        stopped.append(True)
        raise KeyboardInterrupt

    try:
        previous = signal.getsignal(signal.SIGINT)
        if previous not in (signal.default_int_handler, _starting_handler()):
            yield stopped
            return
        signal.signal(signal.SIGINT, on_sigint)
    except ValueError:  # not the main thread
        yield stopped
        return
    try:
        yield stopped
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _starting_handler() -> Any:
    """The quiet handler ``oracle/__init__.py`` installs while the console script starts."""
    import oracle

    return getattr(oracle, "_stop_while_starting", None)


def main(argv: Sequence[str] | None = None) -> int:
    with interruptible() as stopped:
        try:
            code = _main(argv)
        except KeyboardInterrupt:
            print("rules-oracle: interrupted", file=sys.stderr)
            return Exit.INTERRUPTED
    return Exit.INTERRUPTED if stopped else code


def _main(argv: Sequence[str] | None = None) -> int:
    ns = _parser().parse_args(argv)
    from oracle.cli import reports

    if ns.command == "expectations":
        return reports.write_expectations(ns.source, ns.out)
    if ns.command == "diff":
        return reports.run_diff(ns.old, ns.new)
    if ns.command == "combine":
        return reports.run_combine(ns)
    if ns.command == "trend":
        return reports.run_trend(ns)
    if ns.command == "steps":
        return list_steps(ns.game, ns.markdown, ns.oracle_features)
    if ns.command == "selftest":
        from oracle.mutants.selftest import main as selftest_main

        with sigterm_interrupts():
            return selftest_main(ns.json, ns.features, ns.game, quiet=ns.quiet,
                                 prune=not ns.every_scenario, listing=ns.list)
    if ns.command == "smoke":
        return run_smoke(ns)
    if ns.command == "check":
        from oracle.cli.check import main as check_main

        return check_main(ns)
    if ns.command == "matrix":
        from oracle.cli.matrix import main as matrix_main

        return matrix_main(ns)
    if ns.command == "capabilities":
        from oracle.cli.capabilities import main as capabilities_main

        return capabilities_main(ns)
    if ns.command == "cards":
        from oracle.cli.cards import main as cards_main

        return cards_main(ns)
    if ns.command == "coverage":
        from oracle.cli.coverage import main as coverage_main

        return coverage_main(ns)
    if ns.command in ("drift", "errata", "review"):
        from oracle.cli.editions import main as editions_main

        return editions_main(ns)
    if ns.command == "explore":
        from oracle.cli.explore import main as explore_main

        return explore_main(ns)
    if ns.command == "new-adapter":
        from oracle.cli.scaffold import main as new_adapter

        return new_adapter(ns)
    return run(ns)
