"""How long the bundled suite takes: wall time, per-scenario time, and ratios.

Run by hand, never in CI (timings are not tests):

    python benchmarks/suite_time.py [--repeat 3]

Prints the wall time of `rules-oracle run` (serial and with -n 2), the mean
and slowest scenario as pytest measured them, and two ratios: the share of
the wall time spent inside scenarios (the rest is start-up and collection)
and the xdist speed-up.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(extra: list[str], out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "oracle.cli", "run", "--json", str(out), *extra],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        serial = min(run([], out) for _ in range(ns.repeat))
        report = json.loads(out.read_text())
        parallel = min(run(["--", "-n", "2"], out) for _ in range(ns.repeat))
    durations = {(s["location"], s["name"]): s["duration"]
                 for r in report["rules"] for s in r["scenarios"]}
    inside = sum(durations.values())
    slowest = max(durations.items(), key=lambda kv: kv[1])
    print(f"scenarios: {len(durations)}")
    print(f"wall time, serial (best of {ns.repeat}): {serial:.2f} s")
    print(f"wall time, -n 2   (best of {ns.repeat}): {parallel:.2f} s")
    print(f"per scenario: mean {statistics.mean(durations.values()) * 1000:.1f} ms, "
          f"median {statistics.median(durations.values()) * 1000:.1f} ms, "
          f"slowest {slowest[1] * 1000:.1f} ms ({slowest[0][1]})")
    print(f"ratio time-in-scenarios / wall: {inside / serial:.2f}")
    print(f"ratio serial / -n 2: {serial / parallel:.2f}")


if __name__ == "__main__":
    main()
