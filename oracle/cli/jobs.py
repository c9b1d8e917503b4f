"""``rules-oracle run --jobs N``: one run in N processes, each a shard, shown as one run.

Why not pytest-xdist (``-- -n N``): xdist sends every test's three reports from its worker
to the controller as it goes, and each costs about half a millisecond of CPU on the two
sides, as much as a scenario takes to run; every worker also collects the whole suite. On
two cores a 5,000-scenario suite ran 1.06x faster under ``-n 2`` (plain pytest tests of the
same size gain 1.3x: ``benchmarks/run.py``). Shards (``--shard K/N``) exchange nothing
while they run: each streams its reports to a file, and this process, a pytest session of
its own that collects nothing, replays them in the order one process would have run them
(``oracle.plugin.shards``): the same terminal (failure details, width, summary), the same
reports, the same exit status, and on Ctrl-C the same partial reports, as a serial run.
"""

from __future__ import annotations

import argparse
import copy
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from oracle.plugin.shards import STREAM_OPTION, Replay, Shard
from oracle.report.judge import Exit


def run_in_jobs(ns: argparse.Namespace) -> int:
    """Run ``ns`` (a parsed ``rules-oracle run``) as ``ns.jobs`` shard processes, shown and
    reported by this process as the one-process run (``oracle.plugin.shards``); the exit
    status is the one a single run would give."""
    from oracle.cli import EXIT_CODES
    from oracle.cli import pytest_args as to_pytest
    from oracle.cli.reports import requested_outputs
    from oracle.report.formats import file_formats
    from oracle.report.write import OutputError, check_outputs

    if ns.oracle_shard:
        print("rules-oracle run: --jobs splits the run into shards itself; drop --shard "
              "(or run each --shard K/N yourself and 'rules-oracle combine' their reports)",
              file=sys.stderr)
        return Exit.USAGE
    try:  # before any shard starts, as a single run checks them
        check_outputs({f"--{name}": path for name, path in requested_outputs(ns).items()})
    except OutputError as exc:
        print(f"rules-oracle run: {exc}", file=sys.stderr)
        return Exit.USAGE
    with tempfile.TemporaryDirectory(prefix="rules-oracle-jobs-") as tmp:
        shards: list[Shard] = []
        replay = Replay(shards)
        # A shard formats its failures for this terminal's width, not its log file's.
        env = {**os.environ, "COLUMNS": str(shutil.get_terminal_size().columns)}
        try:
            for k in range(1, ns.jobs + 1):
                child = copy.copy(ns)
                for fmt in file_formats():
                    setattr(child, f"oracle_{fmt.name}", None)
                child.oracle_shard = f"{k}/{ns.jobs}"
                child.quiet, child.verbose = True, False
                stream, output = Path(tmp) / f"shard-{k}.jsonl", Path(tmp) / f"shard-{k}.out"
                out = output.open("wb")
                # The pytest command line ``rules-oracle run`` would use, in its own process,
                # streaming its reports (-P: the installed oracle, whatever the folder).
                argv = [sys.executable, "-P", "-m", "pytest", *to_pytest(child),
                        "-p", "oracle.plugin.shards", f"{STREAM_OPTION}={stream}"]
                shards.append(Shard(subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                                     stdin=subprocess.DEVNULL, env=env),
                                    stream, output, out))
            code = pytest.main(to_pytest(ns), plugins=[replay])
        finally:
            for shard in shards:
                if shard.process.poll() is None:
                    shard.process.terminate()
                shard.process.wait()
                shard.out.close()
        for shard in replay.broken:
            status = shard.process.returncode
            print(f"rules-oracle run: a shard ended with exit status {status} before its "
                  f"session did, so the report lacks its remaining scenarios:\n"
                  f"{shard.output.read_text(errors='replace')[-4000:]}", file=sys.stderr)
        if replay.broken:
            return Exit.INTERNAL
    return int(EXIT_CODES.get(code, code))
