"""``rules-oracle run --jobs N``: one run in N processes, each a shard, one report.

Why not pytest-xdist (``-- -n N``): xdist sends every test's three reports from its worker
to the controller, and each costs about half a millisecond of CPU on the two sides, as
much as a scenario takes to run; every worker also collects the whole suite. On two cores
a 5,000-scenario suite ran 1.06x faster under ``-n 2`` (plain pytest tests of the same size
gain 1.3x: ``benchmarks/run.py``). Shards (``--shard K/N``) exchange nothing while they
run: each writes its JSON report, and the reports are combined exactly as ``rules-oracle
combine`` does, into the same report a single process gives (same rules, statuses and
scenarios in the same order), then the run's table and files.
"""

from __future__ import annotations

import argparse
import copy
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO

from oracle.report.judge import Exit


def run_in_jobs(ns: argparse.Namespace) -> int:
    """Run ``ns`` (a parsed ``rules-oracle run``) as ``ns.jobs`` shard processes, then print
    and write the combined report; the exit status is the one a single run would give."""
    from oracle.cli import EXIT_CODES
    from oracle.cli import pytest_args as to_pytest
    from oracle.cli.reports import requested_outputs, run_combine
    from oracle.report.formats import file_formats
    from oracle.report.write import OutputError, check_outputs

    if ns.oracle_shard:
        print("rules-oracle run: --jobs splits the run into shards itself; drop --shard "
              "(or run each --shard K/N yourself and 'rules-oracle combine' their reports)",
              file=sys.stderr)
        return Exit.USAGE
    outputs = requested_outputs(ns)
    try:  # before any shard starts, as a single run checks them
        check_outputs({f"--{name}": path for name, path in outputs.items()})
    except OutputError as exc:
        print(f"rules-oracle run: {exc}", file=sys.stderr)
        return Exit.USAGE
    with tempfile.TemporaryDirectory(prefix="rules-oracle-jobs-") as tmp:
        children, shards = [], []
        for k in range(1, ns.jobs + 1):
            child = copy.copy(ns)
            for fmt in file_formats():
                setattr(child, f"oracle_{fmt.name}", None)
            shard = Path(tmp) / f"shard-{k}.json"
            child.oracle_shard, child.oracle_json = f"{k}/{ns.jobs}", str(shard)
            child.quiet, child.verbose = True, False
            out = (Path(tmp) / f"shard-{k}.out").open("wb")
            # The very pytest command line ``rules-oracle run`` would use, in its own process.
            argv = [sys.executable, "-m", "pytest", *to_pytest(child)]
            children.append((subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                              stdin=subprocess.DEVNULL), out))
            shards.append(shard)
        try:
            codes = _wait(children)
        except KeyboardInterrupt:
            print("rules-oracle run: interrupted; the shards were stopped and no report was "
                  "written", file=sys.stderr)
            return Exit.INTERRUPTED
        broken = [(k, code) for k, code in enumerate(codes, 1)
                  if EXIT_CODES.get(code, code) in (Exit.USAGE, Exit.INTERNAL,
                                                    Exit.INTERRUPTED)
                  or not shards[k - 1].exists()]
        if broken:
            k, code = broken[0]
            text = (Path(tmp) / f"shard-{k}.out").read_text(errors="replace")
            print(f"rules-oracle run: shard {k}/{ns.jobs} ended with exit status {code}:\n"
                  f"{text[-4000:]}", file=sys.stderr)
            return int(EXIT_CODES.get(code, code))
        combined = argparse.Namespace(
            shards=[str(s) for s in shards], oracle_require_coverage=ns.oracle_require_coverage,
            quiet=ns.quiet, **{f"oracle_{name}": path for name, path in outputs.items()})
        code = run_combine(combined)
    if code == Exit.OK and ns.oracle_strict_expectations and any(
            EXIT_CODES.get(c, c) == Exit.FAILED for c in codes):
        return Exit.FAILED  # a shard's stale known failure (xpass) fails the run
    return code


def _wait(children: list[tuple[subprocess.Popen[bytes], IO[bytes]]]) -> list[int]:
    """Every child's exit status; Ctrl-C (or SIGTERM, made one by ``sigterm_interrupts``)
    here stops them all before it goes on."""
    try:
        return [process.wait() for process, _ in children]
    except BaseException:
        for process, _ in children:
            if process.poll() is None:
                process.terminate()
        for process, _ in children:
            process.wait()
        raise
    finally:
        for _, out in children:
            out.close()

