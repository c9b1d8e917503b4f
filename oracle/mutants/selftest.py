"""``rules-oracle selftest``: proof that the suite fails engines that break the rules.

Every game's mutants (``oracle.mutants``) are run through the suite in this process
(``oracle.mutants.harness``: the same steps, seeds and verdicts as a real run, each mutant
only on the scenarios that reach the methods it replaces), and the kill matrix compares
what each mutant breaks with what the report would flag:

- killed: every rule the mutant breaks is flagged ``fail`` or ``error``;
- false flag: a rule flagged that the mutant does not declare;
- an id with no mutant at all means nobody has shown its scenarios can fail.

Exit 0 only when every mutant is killed, nothing is falsely flagged, and
every testable id has a mutant.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle.mutants import Mutant, game_mutants
from oracle.mutants.harness import flagged_rules, game_cases, mutant_outcomes, trace_cases
from oracle.report.model import FAILING
from oracle.suite.games import Game, discover_games, feature_roots


@dataclass(frozen=True)
class MutantResult:
    """One row of the kill matrix."""

    name: str
    game: str
    change: str
    breaks: tuple[str, ...]
    flagged: tuple[str, ...]
    problem: str = ""  # the run itself went wrong (no report)
    #: Rules whose scenarios were blocked by a broken rule: shown, not charged.
    blocked: tuple[str, ...] = ()
    #: The scenarios (an outline's rows each) that fail or error on the mutant and not on
    #: the reference engine: which scenarios it kills (``rules-oracle coverage`` shows them
    #: beside the sentences they cite).
    fails: tuple[str, ...] = ()

    @property
    def missed(self) -> tuple[str, ...]:
        return tuple(b for b in self.breaks if b not in self.flagged)

    @property
    def false_flags(self) -> tuple[str, ...]:
        return tuple(f for f in self.flagged if f not in self.breaks)

    @property
    def killed(self) -> bool:
        return not self.problem and not self.missed

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "game": self.game, "change": self.change,
                "breaks": list(self.breaks), "flagged": list(self.flagged),
                "killed": self.killed, "missed": list(self.missed),
                "false_flags": list(self.false_flags), "blocked": list(self.blocked),
                "fails": list(self.fails),
                **({"problem": self.problem} if self.problem else {})}


def kill_row(game: Game, games: dict[str, Game], mutant: Mutant, traces: Any,
             seed: int = 0) -> MutantResult:
    """One mutant's row: run it where it can bite, and compare the flags with its claims."""
    try:
        outcomes, _ = mutant_outcomes(game, games, mutant, traces, seed)
    except Exception as exc:  # a mutant that cannot even be built is a row, not a crash
        return MutantResult(mutant.name, game.id, mutant.change, mutant.breaks, (),
                            f"{type(exc).__name__}: {exc}")
    # A probe (a ruling not official) fails nothing in a run, so it flags nothing here.
    flagged, blocked = flagged_rules(o for o in outcomes if not o.case.probe)
    # A scenario that fails on the reference engine too (a probe the engines disagree
    # with) is no kill of this mutant's.
    fails = tuple(o.case.name for o in outcomes if o.status in FAILING and (
        traces is None or traces[o.case][0].status not in FAILING))
    return MutantResult(mutant.name, game.id, mutant.change, mutant.breaks, flagged,
                        blocked=blocked, fails=fails)


def reference_traces(game: Game, mutants: tuple[Mutant, ...]) -> dict[type, Any]:
    """Per base engine class of the game's mutants, every scenario traced on it."""
    cases = game_cases(game)
    return {base: trace_cases(game, base, cases)
            for base in dict.fromkeys(m.base for m in mutants)}


def selftest(games: dict[str, Game], *, prune: bool = True,
             progress: Callable[[int, int, MutantResult], None] | None = None,
             ) -> tuple[list[MutantResult], dict[str, Any]]:
    """Run every mutant of every game; return the rows and the summary."""
    jobs = [(game, m) for game in games.values() for m in game_mutants(game)]
    results: list[MutantResult] = []
    traces: dict[str, dict[type, Any]] = {}
    for game, mutant in jobs:
        if prune and game.id not in traces:
            traces[game.id] = reference_traces(game, game_mutants(game))
        row = kill_row(game, games, mutant, traces[game.id][mutant.base] if prune else None)
        results.append(row)
        if progress:
            progress(len(results), len(jobs), row)
    return results, summarise(games, results)


def summarise(games: dict[str, Game], results: list[MutantResult]) -> dict[str, Any]:
    testable = [r.id for g in games.values() for r in g.catalog.rules if r.testable]
    with_mutant = {b for m in results for b in m.breaks}
    without = [rid for rid in testable if rid not in with_mutant]
    summary = {
        "mutants": len(results),
        "killed": sum(r.killed for r in results),
        "survived": sum(not r.killed for r in results),
        "false_flags": sum(bool(r.false_flags) for r in results),
        "testable_ids": len(testable),
        "ids_without_mutant": without,
    }
    summary["ok"] = (summary["survived"] == 0 and summary["false_flags"] == 0 and not without)
    return summary


def verdict_word(row: MutantResult) -> str:
    if not row.killed:
        return "SURVIVED"
    return "FALSE FLAG" if row.false_flags else "killed"


def render(results: list[MutantResult], summary: dict[str, Any]) -> str:
    """The kill matrix as a table for the terminal."""
    def short(ids: tuple[str, ...]) -> str:
        return ", ".join(i.partition(":")[2] for i in ids) or "-"

    name_w = max([len(r.name) for r in results] + [6])
    lines = [f"{'mutant':<{name_w}}  {'game':<6}  {'verdict':<10}  breaks -> flagged"]
    for r in results:
        blocked = f" (blocked: {short(r.blocked)})" if r.blocked else ""
        lines.append(f"{r.name:<{name_w}}  {r.game:<6}  {verdict_word(r):<10}  "
                     f"{short(r.breaks)} -> {short(r.flagged)}{blocked}")
        if r.problem:
            lines.append(f"{'':<{name_w}}  └ {r.problem}")
    lines.append(
        f"{summary['mutants']} mutants: {summary['killed']} killed, {summary['survived']} "
        f"survived, {summary['false_flags']} with false flags; "
        + (f"ids without a mutant: {', '.join(summary['ids_without_mutant'])}"
           if summary["ids_without_mutant"] else
           f"all {summary['testable_ids']} testable ids have a mutant")
    )
    return "\n".join(lines)


def render_list(games: dict[str, Game], width: int = 100) -> str:
    """Every mutant of the games, without running any: the ``--engine`` that names it, the
    rule ids it breaks and its change in words. What a ruling's author checks a new
    scenario against (``rules-oracle run --engine mutant:GAME/NAME``)."""
    import textwrap

    lines = []
    for game in games.values():
        mutants = game_mutants(game)
        lines.append(f"{game.id}: {len(mutants)} mutants")
        for m in mutants:
            lines.append(f"  mutant:{game.id}/{m.name}  breaks {', '.join(m.breaks)}")
            lines += textwrap.wrap(m.change, width, initial_indent="      ",
                                   subsequent_indent="      ")
    return "\n".join(lines)


def importable_here() -> None:
    """Like ``python -m``: the mutants (and engines) of a module beside you are importable."""
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def main(json_path: str | None, features: list[str], only: list[str],
         quiet: bool = False, prune: bool = True, listing: bool = False) -> int:
    importable_here()
    games = discover_games(feature_roots(features))
    unknown = [g for g in only if g not in games]
    if unknown:
        print(f"rules-oracle selftest: no game {', '.join(unknown)} (games: {', '.join(games)})",
              file=sys.stderr)
        return 2
    if only:
        games = {g: games[g] for g in only}
    if listing:
        if json_path:
            print("rules-oracle selftest: --list prints the mutants and runs none; --json "
                  "writes the kill matrix of a run: give one or the other", file=sys.stderr)
            return 2
        print(render_list(games))
        return 0
    if json_path:
        from oracle.report.write import OutputError, check_outputs

        try:
            check_outputs({"kill matrix": Path(json_path)})
        except OutputError as exc:
            print(f"rules-oracle selftest: {exc}", file=sys.stderr)
            return 2
    start = time.monotonic()

    def progress(done: int, total: int, row: MutantResult) -> None:
        if not quiet:
            print(f"[{done}/{total}] {row.game}/{row.name}: {verdict_word(row)}", flush=True)

    try:  # Ctrl-C, or SIGTERM (the command line runs this in oracle.cli.sigterm_interrupts)
        results, summary = selftest(games, prune=prune, progress=progress)
    except KeyboardInterrupt:
        print("rules-oracle selftest: interrupted; no kill matrix was written", file=sys.stderr)
        return 130
    print(render(results, summary))
    print(f"({time.monotonic() - start:.1f} s)")
    if json_path:
        from oracle.report.write import write_atomic

        write_atomic(Path(json_path), json.dumps(
            {"mutants": [r.to_json() for r in results], "summary": summary}, indent=2) + "\n")
        print(f"kill matrix written to {json_path}")
    return 0 if summary["ok"] else 1
