"""Exploration throughput: engine actions per second when Hypothesis drives the engine.

Run by hand (timings are not tests):

    python benchmarks/explore_rate.py [--examples 60]

Explores TI4 on the in-process reference engine and prints moves per second
per invariant and overall, and the ratio of exploration's pace to replaying
the same kind of moves directly (no Hypothesis), which is the cost of the
search itself.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import oracle.steps.common
import oracle.steps.ti4  # noqa: F401
from oracle.engines import EngineClient
from oracle.explore import default_budget, explore, load_model, run_step
from oracle.games.ti4.engine import factory
from oracle.scenario.world import ScenarioWorld
from oracle.suite.games import bundled_features_dir, discover_games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", type=int, default=60)
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "ti4").symlink_to(bundled_features_dir() / "ti4")
        game = discover_games([Path(tmp)])["ti4"]
        total_moves = total_seconds = 0.0
        for inv in load_model(game).invariants():
            result = explore(game, EngineClient(factory(), "reference"), 0,
                             default_budget(ns.examples), {inv.name})
            total_moves += result.moves
            total_seconds += result.seconds
            print(f"{result.moves / result.seconds:8.0f} moves/s  {inv.name}")
        explored = total_moves / total_seconds
        print(f"{explored:8.0f} moves/s  overall ({int(total_moves)} moves, "
              f"{total_seconds:.1f} s)")

        world = ScenarioWorld(game, EngineClient(factory(), "reference"), 0)
        for text in ("the players are Alice, Bob and Carol",
                     "it is the action phase, Alice's turn"):
            run_step(world, "given", text)
        world.start()
        start, n = time.perf_counter(), 2000
        for i in range(n):
            run_step(world, "when", f"{('Alice', 'Bob', 'Carol')[i % 3]} reveals \"Veto\"")
            world.expect_rejected()
        direct = n / (time.perf_counter() - start)
        print(f"{direct:8.0f} moves/s  the same engine, steps replayed without Hypothesis")
        print(f"ratio explored / direct: {explored / direct:.2f}")


if __name__ == "__main__":
    main()
