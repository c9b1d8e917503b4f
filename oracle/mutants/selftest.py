"""``rules-oracle selftest``: proof that the suite fails engines that break the rules.

Every game's mutants (``oracle.mutants``) are run through the suite, each in
its own process (a mutant that breaks the oracle cannot take the others
down), and the kill matrix compares what each mutant breaks with what the
report flagged:

- killed: every rule the mutant breaks is flagged ``fail`` or ``error``;
- false flag: a rule flagged that the mutant does not declare;
- an id with no mutant at all means nobody has shown its scenarios can fail.

Exit 0 only when every mutant is killed, nothing is falsely flagged, and
every testable id has a mutant.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle.mutants import Mutant, game_mutants
from oracle.suite.games import Game, discover_games

FLAGGED = ("fail", "error")


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
                **({"problem": self.problem} if self.problem else {})}


def run_mutant(game: Game, mutant: Mutant, extra: list[str], workdir: Path) -> MutantResult:
    """Run one game's suite against one mutant, in a subprocess; read its JSON report."""
    out = workdir / f"{game.id}-{mutant.name}.json"
    cmd = [sys.executable, "-m", "oracle.cli", "run", "--engine",
           f"mutant:{game.id}/{mutant.name}",
           "--rule", game.id, "--json", str(out), *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if not out.exists():
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-5:]
        return MutantResult(mutant.name, game.id, mutant.change, mutant.breaks, (),
                            f"exit {proc.returncode}: " + " / ".join(tail))
    report = json.loads(out.read_text(encoding="utf-8"))
    flagged = tuple(r["id"] for r in report["rules"] if r["status"] in FLAGGED)
    blocked = tuple(r["id"] for r in report["rules"] if r["status"] == "blocked")
    return MutantResult(mutant.name, game.id, mutant.change, mutant.breaks, flagged,
                        blocked=blocked)


def selftest(games: dict[str, Game], extra: list[str] | None = None,
             workers: int | None = None) -> tuple[list[MutantResult], dict[str, Any]]:
    """Run every mutant of every game; return the rows and the summary."""
    jobs = [(game, m) for game in games.values() for m in game_mutants(game)]
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(
            max_workers=workers or os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda job: run_mutant(*job, extra or [], Path(tmp)), jobs))
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
    return results, summary


def render(results: list[MutantResult], summary: dict[str, Any]) -> str:
    """The kill matrix as a table for the terminal."""
    def short(ids: tuple[str, ...]) -> str:
        return ", ".join(i.partition(":")[2] for i in ids) or "-"

    name_w = max([len(r.name) for r in results] + [6])
    lines = [f"{'mutant':<{name_w}}  {'game':<6}  {'verdict':<10}  breaks -> flagged"]
    for r in results:
        verdict = "killed" if r.killed else "SURVIVED"
        if r.killed and r.false_flags:
            verdict = "FALSE FLAG"
        blocked = f" (blocked: {short(r.blocked)})" if r.blocked else ""
        lines.append(f"{r.name:<{name_w}}  {r.game:<6}  {verdict:<10}  "
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


def main(json_path: str | None, features: list[str], only: list[str]) -> int:
    roots = None
    if features:
        from oracle.suite.games import bundled_features_dir

        roots = [bundled_features_dir(), *(Path(f).resolve() for f in features)]
    games = discover_games(roots)
    unknown = [g for g in only if g not in games]
    if unknown:
        print(f"rules-oracle selftest: no game {', '.join(unknown)} (games: {', '.join(games)})",
              file=sys.stderr)
        return 2
    if only:
        games = {g: games[g] for g in only}
    extra = [arg for f in features for arg in ("--features", f)]
    results, summary = selftest(games, extra)
    print(render(results, summary))
    if json_path:
        Path(json_path).write_text(json.dumps(
            {"mutants": [r.to_json() for r in results], "summary": summary}, indent=2) + "\n",
            encoding="utf-8")
        print(f"kill matrix written to {json_path}")
    return 0 if summary["ok"] else 1
