"""Exploration throughput: engine moves per second when Hypothesis drives the engine.

Run by hand (timings are not tests):

    python benchmarks/explore_rate.py [--game ti4|eu-pop] [--examples 200] [--repeat 3]

Explores a bundled game on its in-process reference engine with the derandomised CI
profile (one ``explore()`` of every invariant, as ``rules-oracle run --explore`` does) and
prints moves per second of wall time and of process CPU time (the CPU figure is the one to
compare on a busy machine: other processes inflate wall time, not this process's CPU time),
with the load average, so that a figure says under which conditions it was taken. Then the
same engine replaying a step directly, without Hypothesis and without invariants, which is
the floor the search's own cost is measured against (the ratio).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from oracle.engines import EngineClient
from oracle.explore import default_budget, explore, run_step
from oracle.scenario.world import ScenarioWorld
from oracle.suite.games import bundled_features_dir, discover_games


def _game(root: Path, game_id: str):  # type: ignore[no-untyped-def]
    (root / game_id).symlink_to(bundled_features_dir() / game_id)
    return discover_games([root])[game_id]


def _engine(game_id: str):  # type: ignore[no-untyped-def]
    if game_id == "ti4":
        from oracle.games.ti4.engine import factory
    else:
        from oracle.games.eu_pop.engine import factory
    return factory()


def explore_rate(game_id: str = "ti4", examples: int = 200) -> dict[str, float]:
    """One exploration of every invariant: moves, wall and CPU seconds, and the two rates."""
    with tempfile.TemporaryDirectory() as tmp:
        game = _game(Path(tmp), game_id)
        client = EngineClient(_engine(game_id), "reference")
        cpu = time.process_time()
        result = explore(game, client, 0, default_budget(examples))
        cpu = time.process_time() - cpu
    # Invariants looked at after each move: all of them in one search (before the one
    # search, each invariant had a search of its own, and a move was checked by one).
    checked = len(getattr(result, "invariants", ())) or 1
    return {"moves": result.moves, "wall_s": result.seconds, "cpu_s": cpu,
            "moves_per_s": result.moves / result.seconds, "moves_per_cpu_s": result.moves / cpu,
            "checks_per_cpu_s": result.moves * checked / cpu}


def direct_rate(n: int = 2000) -> float:
    """TI4 moves per CPU second replaying one rejected step with no search and no checks."""
    with tempfile.TemporaryDirectory() as tmp:
        game = _game(Path(tmp), "ti4")
        world = ScenarioWorld(game, EngineClient(_engine("ti4"), "reference"), 0)
        for text in ("the players are Alice, Bob and Carol",
                     "it is the action phase, Alice's turn"):
            run_step(world, "given", text)
        world.start()
        start = time.process_time()
        for i in range(n):
            run_step(world, "when", f"{('Alice', 'Bob', 'Carol')[i % 3]} reveals \"Veto\"")
            world.expect_rejected()
        return n / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="ti4", choices=["ti4", "eu-pop"])
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1)
    ns = parser.parse_args()
    import oracle.steps.common
    import oracle.steps.eu_pop
    import oracle.steps.ti4  # noqa: F401

    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    best = 0.0
    for _ in range(ns.repeat):
        r = explore_rate(ns.game, ns.examples)
        best = max(best, r["moves_per_cpu_s"])
        print(f"{r['moves_per_s']:8.0f} moves/s wall, {r['moves_per_cpu_s']:8.0f} moves/s CPU "
              f"({ns.game}, {r['moves']:.0f} moves, {r['wall_s']:.1f} s wall, "
              f"{r['cpu_s']:.1f} s CPU, {ns.examples} examples); "
              f"{r['checks_per_cpu_s']:.0f} invariant checks/s CPU")
    direct = direct_rate()
    print(f"{direct:8.0f} moves/s CPU  the same engine, one step replayed without Hypothesis")
    print(f"ratio explored / direct (CPU, best run): {best / direct:.2f}")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
