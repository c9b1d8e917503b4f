"""Every option of a run, declared once: ``rules-oracle run --NAME`` and pytest ``--oracle-NAME``.

Why one table: the command line is pytest with the oracle turned on, so each of its options
must mean exactly what the matching pytest option means, with the same help and default.
Both parsers are generated from ``run_options()``, and ``pytest_args`` turns parsed command
line values into the pytest arguments they stand for. Report formats add their own
``--FORMAT PATH`` options through the formats registry (``oracle.report.formats``).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from oracle.engines.spec import DEFAULT_MAX_TIMEOUTS, DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT


@dataclass(frozen=True)
class Option:
    """One option of a run, as both parsers see it."""

    name: str  # "strict_protocol" -> --strict-protocol and --oracle-strict-protocol
    help: str
    metavar: str | None = None
    kind: str = "value"  # "value" (one), "list" (repeatable), "flag", or "optional" (a
    #: value that may be left out: ``--NAME`` alone means ``const``)
    const: Any = None
    type: Callable[[str], Any] = str
    default: Any = None
    #: The command line's default where it differs (rules-oracle run names an engine).
    cli_default: Any = None
    #: Also readable from the pytest ini file as ``oracle_NAME``.
    ini: bool = False

    @property
    def cli_flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def pytest_flag(self) -> str:
        return "--oracle-" + self.name.replace("_", "-")

    @property
    def dest(self) -> str:
        """The attribute on both namespaces (argparse's and pytest's ``config.option``)."""
        return "oracle_" + self.name

    def _kwargs(self, default: Any) -> dict[str, Any]:
        if self.kind == "flag":
            return {"action": "store_true", "default": False, "help": self.help}
        kwargs: dict[str, Any] = {"metavar": self.metavar, "help": self.help,
                                  "type": self.type}
        if self.kind == "list":
            kwargs.update(action="append", default=[])
        elif self.kind == "optional":
            kwargs.update(nargs="?", const=self.const, default=default)
        else:
            kwargs["default"] = default
        return kwargs

    def add_to_cli(self, parser: argparse.ArgumentParser) -> None:
        default = self.cli_default if self.cli_default is not None else self.default
        parser.add_argument(self.cli_flag, dest=self.dest, **self._kwargs(default))

    def add_to_pytest(self, group: Any, parser: Any) -> None:
        group.addoption(self.pytest_flag, dest=self.dest, **self._kwargs(self.default))
        if self.ini:
            parser.addini(self.dest, f"{self.help} (same as {self.pytest_flag})")

    def pytest_args(self, value: Any) -> list[str]:
        """The pytest arguments for a value the command line parsed (none if default)."""
        if self.kind == "flag":
            return [self.pytest_flag] if value else []
        if self.kind == "list":
            return [a for v in value or [] for a in (self.pytest_flag, str(v))]
        if value is None or (value == self.default and self.cli_default is None):
            return []
        return [f"{self.pytest_flag}={value}"]

    def cli_args(self, value: Any) -> list[str]:
        """The command-line arguments that give this value (none if it is the default)."""
        if self.kind == "flag":
            return [self.cli_flag] if value else []
        if self.kind == "list":
            return [a for v in value or [] for a in (self.cli_flag, str(v))]
        default = self.cli_default if self.cli_default is not None else self.default
        if value is None or value == default:
            return []
        if self.kind == "optional" and value == self.const:
            return [self.cli_flag]
        return [self.cli_flag, f"{value:g}" if isinstance(value, float) else str(value)]


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def _lang(text: str) -> str:
    """A language code as catalogs write it (``ru``)."""
    if not re.fullmatch(r"[a-z]{2,3}(?:-[A-Za-z0-9]+)?", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a language code; write it like ru "
                                         "or en")
    return text


def _percent(text: str) -> float:
    value = float(text.rstrip("%"))
    if not 0 < value <= 100:
        raise argparse.ArgumentTypeError(f"must be a share of the rules in per cent, more "
                                         f"than 0 and at most 100, got {text}")
    return value


def _shard(text: str) -> str:
    """``K/N``: the K-th of N shards, 1 <= K <= N."""
    k, sep, n = text.partition("/")
    if not (sep and k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise argparse.ArgumentTypeError(f"must be K/N with 1 <= K <= N (e.g. 1/4), got {text}")
    return f"{int(k)}/{int(n)}"


def _count(text: str) -> int:
    """A whole number, 0 or more."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"must be a whole number, 0 or more, got {text}")
    return int(text)


def at_least_one(text: str) -> int:
    """A count of one or more (games to play, processes to run): the argparse type of every
    such option, so that each says the same about a bad one."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (a whole number), got {text}")
    return int(text)


ENGINE = Option(
    "engine", "engine to test: 'reference' (each game's bundled engine), 'reference:GAME', "
    "'mutant:NAME', 'package.module:factory', or 'cmd:ARGV' (a process speaking the protocol "
    "on stdin/stdout)", metavar="SPEC", cli_default="reference", ini=True)
TIMEOUT = Option(
    "timeout", f"seconds an engine gets to answer each request (default {DEFAULT_TIMEOUT:g}); "
    "a late answer errors the scenario and the engine is restarted", metavar="SECONDS",
    type=_positive)
STARTUP_TIMEOUT = Option(
    "startup_timeout", f"seconds an engine process (cmd:) gets to start and answer the "
    f"handshake (default {DEFAULT_STARTUP_TIMEOUT:g}, or --timeout if longer); a late "
    "handshake errors every scenario on it, once", metavar="SECONDS", type=_positive)

CORE_OPTIONS: tuple[Option, ...] = (
    ENGINE,
    Option("rule", "run only the scenarios of this rule id and its sub-rules (e.g. ti4:2.4), "
           "or of one game (e.g. ti4); repeatable", metavar="ID", kind="list"),
    Option("rerun_failed", "run again only the scenarios that failed, errored, were "
           "blocked or flaky in this JSON report (pytest's --lf); if none did, every selected one",
           metavar="REPORT"),
    Option("features", "another folder of game folders (each with game.yaml), or of folders "
           "named after a game holding more scenarios (a committee's rulings); repeatable",
           metavar="DIR", kind="list"),
    Option("seed", "base seed for every scenario's shuffles (default 0)", metavar="N",
           type=int, default=0),
    TIMEOUT,
    STARTUP_TIMEOUT,
    Option("max_timeouts", "give an engine up after this many request timeouts in a row: "
           "every remaining scenario on it ends error at once with that diagnosis (default "
           f"{DEFAULT_MAX_TIMEOUTS}; 0 never gives up)", metavar="N", type=_count,
           default=DEFAULT_MAX_TIMEOUTS),
    Option("repeat", "run every selected scenario N times (the same seed each time); a "
           "scenario whose runs end differently is flaky, with the outcomes seen, and fails "
           "the run (default 1)", metavar="N", type=at_least_one, default=1),
    Option("strict_protocol", "validate every request and reply against the protocol's JSON "
           "Schemas; a violation errors the scenario", kind="flag"),
    Option("expectations", "YAML of this engine's known failures: they report xfail, and "
           "xpass when they pass", metavar="PATH", ini=True),
    Option("strict_expectations", "a known failure that passes (xpass) fails the run",
           kind="flag"),
    Option("explore", "also explore each game with Hypothesis (random legal and illegal "
           "moves, invariants per rule); findings land under their rule ids", kind="flag"),
    Option("explore_examples", "games Hypothesis plays per search when exploring, every "
           "invariant checked after each move (default 60)", metavar="N", type=at_least_one,
           default=60),
    Option("explore_out", "write each exploration counterexample as a .feature file here "
           "(needs --explore)", metavar="DIR"),
    Option("require_coverage", "fail the run (exit 1) unless at least PERCENT of the selected "
           "testable rules were tested, i.e. are not unsupported or uncovered (default when "
           "given alone: 100)", metavar="PERCENT", kind="optional", type=_percent, const=100.0),
    Option("shard", "run only the K-th of N parts of the selected scenarios (a CI matrix; "
           "each scenario, all its example rows, in the part its game, file name and name "
           "give on every machine); 'rules-oracle combine' merges the shards' JSON reports "
           "into the report one run gives", metavar="K/N", type=_shard),
    Option("all_games", "list every game's rules in the reports, also games no --rule "
           "selects (by default a run selecting rules lists only their games)", kind="flag"),
    Option("lang", "show each rule's text in this language, with its number there, where "
           "the catalog has it (ru: the Russian TI4 section, 28.x); other rules in the "
           "language of their source", metavar="LANG", type=_lang),
    Option("edition", "run the suite and rulings as of this edition of a game's rules (the "
           "catalog's editions: ti4 has lrr, lrr-wiki, lrr-site and ru): a scenario citing a "
           "sentence the edition lacks is untestable, 'not in this edition', and each rule "
           "reads as the edition words it; NAME, or GAME:NAME where two games share a name; "
           "repeatable, one per game", metavar="[GAME:]NAME", kind="list"),
    Option("bdd_public", "run scenarios through pytest-bdd's public API only: the same "
           "verdicts, about twice the time per scenario; for a pytest-bdd version the "
           "oracle's faster step runner was not checked against (it refuses to start)",
           kind="flag"),
)

#: Options that shape which scenarios run or how, and so belong in a reproduce command.
#: The others (reports, selection, exploration, shards, requirements) do not.
NOT_REPRODUCING = frozenset({"rule", "explore", "explore_examples", "explore_out",
                             "require_coverage", "shard", "all_games", "lang", "rerun_failed",
                             "bdd_public"})


def run_options() -> tuple[Option, ...]:
    """Every option of a run: the core ones, then one ``--FORMAT PATH`` per report format."""
    from oracle.extensions import ExtensionError
    from oracle.report.formats import file_formats

    core = {o.name for o in CORE_OPTIONS}
    for taken in (f for f in file_formats() if f.name in core):
        raise ExtensionError(f"a report format is named {taken.name!r}, like the run option "
                             f"--{taken.name}; give the format a name of its own")
    return CORE_OPTIONS + tuple(Option(f.name, f.help, metavar="PATH")
                                for f in file_formats())


def reproduce_args(values: Mapping[str, Any]) -> list[str]:
    """The ``rules-oracle run`` options of a run that shape each scenario (engine, features,
    seed, timeout, strictness, expectations), for a command that reproduces one of them.
    ``values`` are by option name, as ``read`` gives them."""
    from oracle.report.formats import file_formats

    skip = NOT_REPRODUCING | {f.name for f in file_formats()}
    out: list[str] = []
    for option in run_options():
        if option.name not in skip:
            value = values.get(option.name)
            out += [option.cli_flag, str(value)] if option.name == "engine" \
                else option.cli_args(value)
    return out


FROM_CLI = "--oracle-from-cli"
"""Passed by ``rules-oracle run`` to pytest (hidden), so that an error names the options the
user typed (``--rule``), not the pytest plugin's (``--oracle-rule``)."""


def spelled(config: Any, name: str) -> str:
    """How the user spelt option ``name``: ``--rule`` under ``rules-oracle run``,
    ``--oracle-rule`` under plain pytest."""
    option = by_name()[name]
    return option.cli_flag if config.getoption("oracle_from_cli", False) else option.pytest_flag


def by_name() -> dict[str, Option]:
    return {o.name: o for o in run_options()}


def read(config: Any) -> dict[str, Any]:
    """Every run option's value from a pytest config (ini settings where the flag is unset)."""
    values = {}
    for option in run_options():
        value = config.getoption(option.dest)
        if option.ini and not value:
            value = config.getini(option.dest) or value
        values[option.name] = value
    return values


def pytest_args(values: Mapping[str, Any], options: Iterable[Option] | None = None) -> list[str]:
    """The pytest arguments that the parsed command line ``values`` stand for."""
    out: list[str] = []
    for option in options or run_options():
        out += option.pytest_args(values.get(option.dest))
    return out
