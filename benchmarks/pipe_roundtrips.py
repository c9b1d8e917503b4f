"""Protocol round trips per second: over a pipe vs in-process, on the reference TI4 engine.

Run by hand, never in CI (timings are not tests):

    python benchmarks/pipe_roundtrips.py [--rounds 2000] [--repeat 3]

Sends the same requests, through the same ``EngineClient`` the scenarios use, to the
reference engine in-process and to the reference engine as a child process
(``python -m oracle.pipe serve reference:ti4``), and once more over the pipe in strict mode
(every message validated against the JSON Schemas). A round is one scenario's typical
mix: setup, a draw, a rejected play, and three observes (player, spectator, referee).
Prints round trips per second for each and the in-process / pipe ratio: the price of
running an engine out of process.
"""

from __future__ import annotations

import argparse
import sys
import time

from oracle.engines import EngineClient
from oracle.engines.pipe import PipeEngine
from oracle.games.ti4.engine import factory
from oracle.protocol import REFEREE, Act, Describe, Observe, Request, Setup

STATE = {
    "players": [{"name": "Alice", "hand": ["Sabotage", "Spy"]}, {"name": "Bob", "hand": []}],
    "phase": "action", "active_player": "Alice",
    "decks": {"action": {"draw": ["Veto", "Plague", "Summit"], "discard": []}},
}
ROUND: list[Request] = [
    Setup("ti4", STATE, 7),
    Act({"type": "draw", "player": "Bob", "deck": "action", "count": 1}),
    Act({"type": "play", "player": "Alice", "card": "Veto"}),  # rejected: not in her hand
    Observe("Alice"),
    Observe(None),
    Observe(REFEREE),
]


def rate(client: EngineClient, rounds: int) -> float:
    """Round trips per second for ``rounds`` rounds (after a warm-up round)."""
    client.send(Describe())
    for request in ROUND:
        client.send(request)
    start = time.perf_counter()
    for _ in range(rounds):
        for request in ROUND:
            client.send(request)
        client.transcript.clear()
    return rounds * len(ROUND) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    ns = parser.parse_args()
    argv = [sys.executable, "-m", "oracle.pipe", "serve", "reference:ti4"]
    best: dict[str, float] = {"in-process": 0.0, "pipe": 0.0, "pipe, strict": 0.0}
    for _ in range(ns.repeat):  # interleaved, so a busy moment hurts every kind alike
        best["in-process"] = max(best["in-process"],
                                 rate(EngineClient(factory(), "in-process"), ns.rounds))
        with PipeEngine(argv) as pipe:
            best["pipe"] = max(best["pipe"], rate(EngineClient(pipe, "pipe"), ns.rounds))
        with PipeEngine(argv, strict=True) as strict:
            best["pipe, strict"] = max(best["pipe, strict"],
                                       rate(EngineClient(strict, "strict"), ns.rounds))
    print(f"{ns.rounds} rounds of {len(ROUND)} requests, best of {ns.repeat}")
    for kind, value in best.items():
        print(f"  {kind:<13} {value:9.0f} round trips/s  ({1e6 / value:6.1f} µs each)")
    print(f"ratio in-process / pipe: {best['in-process'] / best['pipe']:.2f}")
    print(f"ratio pipe / pipe strict: {best['pipe'] / best['pipe, strict']:.2f}")


if __name__ == "__main__":
    main()
