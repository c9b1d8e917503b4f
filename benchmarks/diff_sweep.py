"""The differential sweep: the reference engine against every mutant, as
``rules-oracle explore --engine reference --engine mutant:GAME/NAME`` does it, in one process.

Run by hand (it takes minutes; the suite's tests run a sample):

    python benchmarks/diff_sweep.py [--game ti4] [--budget 100] [--seed 0] [--json PATH]
                                    [--only NAME,...] [-v]

Per mutant: whether a disagreement was found, whether one is charged to a rule the mutant
breaks (the first one, and any), the other rules charged, whether its scenario is confirmed
(its Then lines pass on the reference engine and fail on the mutant), and the time. A mutant
is *reachable* when the explored games call a method of the reference engine it replaces
(a recording reference engine plays the same budget against a clean one first): a mutant
that is never reached cannot be found, whatever the comparison; one reached but not found is
a miss to look at (the method runs, but never differently where the games look).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from oracle.engines import EngineClient
from oracle.explore import default_budget, load_model
from oracle.explore.differential import compare
from oracle.mutants import game_mutants
from oracle.mutants.harness import prunable_names, recording_class
from oracle.suite.games import discover_games
from oracle.suite.vocabulary import vocabulary_for


def _reference(game: Any) -> type:
    module, _, attr = game.reference_engine.partition(":")
    import importlib

    factory = getattr(importlib.import_module(module), attr)
    return type(factory())


def reached_methods(game: Any, budget: int, seed: int) -> set[str]:
    """The reference engine's methods the explored games call (reference against itself)."""
    calls: set[str] = set()
    base = _reference(game)
    recording = recording_class(base, calls)
    compare(game, load_model(game), EngineClient(recording(), "recording"),
            EngineClient(base(), "reference"), seed, default_budget(budget),
            ("reference", "reference"))
    return calls


def sweep(game: Any, budget: int, seed: int, only: set[str] | None, verbose: bool
          ) -> list[dict[str, Any]]:
    vocabulary_for(game)
    calls = reached_methods(game, budget, seed)
    base = _reference(game)
    rows = []
    for mutant in game_mutants(game):
        if only and mutant.name not in only:
            continue
        names = prunable_names(mutant)
        reachable = names is None or bool(names & calls)
        label = f"mutant:{game.id}/{mutant.name}"
        start = time.perf_counter()
        result = compare(game, load_model(game), EngineClient(base(), "reference"),
                         EngineClient(mutant(), label), seed, default_budget(budget),
                         ("reference", label), max_findings=5)
        seconds = time.perf_counter() - start
        breaks = set(mutant.breaks)
        charged = [f for f in result.findings if set(f.rules) & breaks]
        others = sorted({r for f in result.findings for r in f.rules} - breaks)
        row = {"mutant": mutant.name, "game": game.id, "breaks": sorted(breaks),
               "reachable": reachable, "found": bool(result.findings),
               "first_charged": bool(result.findings) and bool(
                   set(result.findings[0].rules) & breaks),
               "charged": bool(charged), "other_rules": others,
               "confirmed": bool(charged) and all(f.confirmed for f in charged),
               "findings": [{"rules": list(f.rules), "kind": f.kind, "charged": f.why,
                             "confirmed": f.confirmed, "message": f.message}
                            for f in result.findings],
               "shrink_s": [round(s.seconds, 3) for s in result.shrinks],
               "moves": result.moves, "seconds": round(seconds, 2)}
        rows.append(row)
        mark = ("ok " if row["charged"] else "BAD" if row["found"] else
                "-- " if not reachable else "MISS")
        print(f"{mark} {label:55} {','.join(r.split(':', 1)[1] for r in sorted(breaks)):22} "
              f"found={len(result.findings)} other={','.join(others) or '-'} "
              f"confirmed={row['confirmed']} {seconds:.1f}s", flush=True)
        if verbose and result.findings and not row["charged"]:
            for f in result.findings:
                print("   ", f.rules, f.why, f.message[:200])
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", default=[])
    parser.add_argument("--budget", type=int, default=100, help="games per search")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="", help="mutant names, comma-separated")
    parser.add_argument("--json", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true")
    ns = parser.parse_args()
    import oracle.steps.common  # noqa: F401

    games = discover_games()
    chosen = ns.game or [g for g in games if games[g].explore and games[g].mutants]
    only = set(filter(None, ns.only.split(","))) or None
    rows: list[dict[str, Any]] = []
    for game_id in chosen:
        rows += sweep(games[game_id], ns.budget, ns.seed, only, ns.verbose)
    reachable = [r for r in rows if r["reachable"]]
    found = [r for r in reachable if r["found"]]
    charged = [r for r in reachable if r["charged"]]
    first = [r for r in reachable if r["first_charged"]]
    exact = [r for r in charged if not r["other_rules"]]
    confirmed = [r for r in charged if r["confirmed"]]
    shrink = [s for r in rows for s in r["shrink_s"]]
    print(f"\n{len(rows)} mutants, {len(reachable)} reachable by the explored games; "
          f"found {len(found)}, charged to a rule they break {len(charged)} (the first "
          f"finding: {len(first)}; with no other rule charged: {len(exact)}), confirmed "
          f"scenarios {len(confirmed)}; unreachable but found: "
          f"{sum(1 for r in rows if r['found'] and not r['reachable'])}")
    if shrink:
        print(f"shrink: median {statistics.median(shrink):.3f} s, max {max(shrink):.2f} s "
              f"over {len(shrink)} findings")
    print("missed (reachable, not charged):",
          ", ".join(f"{r['game']}/{r['mutant']}" for r in reachable if not r["charged"]) or "none")
    if ns.json:
        ns.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
