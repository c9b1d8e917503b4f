"""Snapshot every bundled engine's verdicts, and compare two snapshots.

A refactoring of the core must not change a single verdict. This script runs
`rules-oracle run` (through the command line only, so the same script works on
any version of the package) against the reference engines, every mutant, the
Node engine over the pipe and an exploration run, and keeps of each JSON report
what a verdict is: per rule its status, and the names and statuses of the
scenarios that decided it (messages and durations are left out: their wording
may change).

    python benchmarks/verdict_snapshot.py --out before/       # on the old code
    python benchmarks/verdict_snapshot.py --out after/        # on the new code
    python benchmarks/verdict_snapshot.py --compare before/ after/

Run it from outside the checkout (or with the package installed non-editable)
when comparing two versions, so that each run imports the version it means to.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def mutant_names() -> list[str]:
    """Every bundled mutant as GAME/NAME, from whichever module layout is installed."""
    try:
        from oracle.suite.games import discover_games
    except ImportError:
        from oracle.game import discover_games  # the layout before the refactoring
    from oracle.mutants import game_mutants

    return [f"{g.id}/{m.name}" for g in discover_games().values() for m in game_mutants(g)]


def jobs(explore: bool) -> dict[str, list[str]]:
    """Snapshot name -> `rules-oracle run` arguments."""
    runs: dict[str, list[str]] = {"reference": ["--engine", "reference"]}
    for name in mutant_names():
        game = name.partition("/")[0]
        runs[f"mutant-{name.replace('/', '-')}"] = ["--engine", f"mutant:{name}",
                                                     "--rule", game]
    if shutil.which("node"):
        engine = REPO / "examples" / "node-ti4" / "engine.js"
        runs["node-ti4"] = ["--engine", f"cmd:node {engine}", "--rule", "ti4"]
    if explore:
        runs["explore-reference"] = ["--engine", "reference", "--explore",
                                     "--explore-examples", "15"]
        runs["explore-no_hand_limit"] = ["--engine", "mutant:ti4/no_hand_limit", "--rule",
                                         "ti4:2.1", "--explore", "--explore-examples", "15"]
    return runs


def verdicts(report: dict) -> list:
    """What a verdict is: rule id, status, and its scenarios' names and statuses."""
    return [[r["id"], r["status"], sorted([s["name"], s["status"]] for s in r["scenarios"])]
            for r in report["rules"]]


def snapshot(out: Path, explore: bool, workers: int) -> int:
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="verdicts-"))

    def one(item: tuple[str, list[str]]) -> str:
        name, args = item
        report = scratch / f"{name}.json"
        proc = subprocess.run([sys.executable, "-m", "oracle.cli", "run", "--json",
                               str(report), *args], cwd=scratch, capture_output=True,
                              text=True, check=False)
        if not report.exists():
            return f"{name}: no report (exit {proc.returncode}): {proc.stderr[-300:]}"
        data = json.loads(report.read_text(encoding="utf-8"))
        (out / f"{name}.json").write_text(json.dumps(
            {"exit": proc.returncode, "verdicts": verdicts(data)}, indent=1) + "\n")
        return ""

    with ThreadPoolExecutor(max_workers=workers) as pool:
        problems = [p for p in pool.map(one, jobs(explore).items()) if p]
    shutil.rmtree(scratch, ignore_errors=True)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(list(out.glob('*.json')))} snapshots in {out}")
    return 1 if problems else 0


def compare(before: Path, after: Path) -> int:
    names = sorted({p.name for p in before.glob("*.json")} | {p.name for p in after.glob("*.json")})
    differ = 0
    for name in names:
        a, b = before / name, after / name
        if not a.exists() or not b.exists():
            print(f"{name}: only in {'after' if not a.exists() else 'before'}")
            differ += 1
            continue
        if json.loads(a.read_text()) != json.loads(b.read_text()):
            old, new = json.loads(a.read_text()), json.loads(b.read_text())
            print(f"{name}: differs (exit {old['exit']} -> {new['exit']})")
            for x, y in zip(old["verdicts"], new["verdicts"], strict=False):
                if x != y:
                    print(f"  {x}\n  {y}")
            differ += 1
    print(f"{len(names)} snapshots compared, {differ} differ")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write a snapshot into this folder")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--no-explore", action="store_true")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ns = parser.parse_args()
    if ns.compare:
        return compare(*ns.compare)
    if not ns.out:
        parser.error("give --out DIR or --compare BEFORE AFTER")
    return snapshot(ns.out, not ns.no_explore, ns.workers)


if __name__ == "__main__":
    sys.exit(main())
