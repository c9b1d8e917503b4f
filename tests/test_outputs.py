"""Nothing lost: report paths checked before the run, written whole, an interrupted run's
report beside the complete one and marked, nothing written into the user's tree."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from oracle.report.judge import Exit
from oracle.report.write import OutputError, check_outputs, write_atomic


@pytest.mark.parametrize("where, says", [
    ("/dev/full", "not a regular file"),
    ("blocker/r.json", "blocker is a file, so nothing can be written under it"),
    (".", "a folder"),
])
def test_an_unwritable_report_path_is_refused_before_the_run(oracle, pytester, where, says):
    """Why: a traceback after the run, no table, no Markdown, and exit 1."""
    (pytester.path / "blocker").write_text("a file\n")
    run = oracle("run", "--rule", "ti4:2.4", "--markdown", "ok.md", "--json", where,
                 report=False)
    assert run.code == Exit.USAGE, run.out + run.err
    assert says in run.err and where.split("/")[0] in run.err
    assert "passed" not in run.out  # refused before any scenario ran
    assert not (pytester.path / "ok.md").exists()


def test_two_outputs_on_one_path_are_refused(oracle, pytester):
    """Why: --json and --markdown on one path silently overwrote each other."""
    run = oracle("run", "--json", "r.out", "--markdown", "r.out", report=False)
    assert run.code == Exit.USAGE
    assert "--json and --markdown both write r.out" in run.err


def test_a_write_replaces_the_file_whole_and_leaves_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "r.json"
    target.write_text("previous, complete\n")
    with monkeypatch.context() as patch:
        def full(*args: object) -> None:
            raise OSError(28, "No space left on device")

        patch.setattr(os, "replace", full)
        with pytest.raises(OSError, match="No space left"):
            write_atomic(target, "new\n")
    assert target.read_text() == "previous, complete\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]
    write_atomic(target, "new\n")
    assert target.read_text() == "new\n"
    with pytest.raises(OutputError, match="both write"):
        check_outputs({"--json": target, "--badge": tmp_path / "." / "r.json"})


SLOW = '''
import time
from oracle.games.ti4.engine import ReferenceEngine

class Slow(ReferenceEngine):
    def handle(self, request):
        if request.get("op") == "setup":
            time.sleep(0.3)
        return super().handle(request)

def factory():
    return Slow()
'''


def _as_from_a_shell() -> None:
    """In the child: Ctrl-C delivered as a shell's child gets it, whatever signal state the
    test's own process (an xdist worker) has (an ignored or blocked SIGINT is inherited)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def _until(process: subprocess.Popen[str], marker: str) -> str:
    """Read the process's output until a line holds ``marker`` (or the output ends)."""
    assert process.stdout is not None
    seen = ""
    for line in process.stdout:
        seen += line
        if marker in line:
            break
    return seen


def test_an_interrupted_run_writes_a_marked_partial_report_beside_the_complete_one(
        pytester, ti4_scenarios):
    """Why: Ctrl-C left a partial report that looked complete (a Markdown file saying
    "conforms"), over the previous one, and exited 2 like a usage error."""
    pytester.makepyfile(slow=SLOW)
    (pytester.path / "r.json").write_text('{"complete": "from the previous run"}\n')
    # Unbuffered: "PASSED" must reach us while the run goes on, not in its last buffer flush
    # (under load the whole run fitted before the first flush and the signal came too late).
    env = {**os.environ, "PYTHONPATH": str(pytester.path), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "oracle.cli", "run", "-v", "--engine", "slow:factory",
         "--rule", "ti4", "--json", "r.json", "--markdown", "r.md", "--badge", "b.json"],
        cwd=pytester.path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, preexec_fn=_as_from_a_shell)
    try:
        head = _until(process, "PASSED")
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=120)
    finally:
        process.kill()
    out = head + rest
    here = f"(this process: SIGINT handler {signal.getsignal(signal.SIGINT)!r}, blocked " \
           f"{signal.pthread_sigmask(signal.SIG_BLOCK, [])!r})"
    assert process.returncode == Exit.INTERRUPTED, f"{here}\n{out}"
    assert "Traceback" not in out
    assert (pytester.path / "r.json").read_text() == '{"complete": "from the previous run"}\n'
    partial = (pytester.path / "r.interrupted.json").read_text()
    assert partial.splitlines()[0] == '{"interrupted": true,'
    data = json.loads(partial)
    assert data["interrupted"] is True and 0 < data["summary"]["scenarios"] < ti4_scenarios()
    assert "INTERRUPTED" in (pytester.path / "r.interrupted.md").read_text().splitlines()[0]
    assert "interrupted" in (pytester.path / "b.interrupted.json").read_text().splitlines()[0]
    assert not (pytester.path / "r.md").exists()
    assert "r.interrupted.json" in out


def test_an_interrupted_jobs_run_writes_the_partial_report_of_what_its_shards_ran(
        pytester, ti4_scenarios):
    """Why: Ctrl-C during ``--jobs`` stopped the shards and wrote no report at all. Now the
    shards' streamed reports are replayed and written as a serial run's would be."""
    pytester.makepyfile(slow=SLOW)
    tmp = pytester.mkdir("tmp")
    env = {**os.environ, "PYTHONPATH": str(pytester.path), "TMPDIR": str(tmp)}
    process = subprocess.Popen(
        [sys.executable, "-m", "oracle.cli", "run", "--jobs", "2", "--engine", "slow:factory",
         "--rule", "ti4", "--json", "r.json"],
        cwd=pytester.path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, preexec_fn=_as_from_a_shell)
    try:  # until a shard has streamed a finished scenario
        while not any(b'"reports"' in f.read_bytes() for f in tmp.glob("*/shard-*.jsonl")):
            assert process.poll() is None, process.communicate()[0]
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == Exit.INTERRUPTED, out
    assert "Traceback" not in out and "r.interrupted.json" in out
    data = json.loads((pytester.path / "r.interrupted.json").read_text())
    assert data["interrupted"] is True and 0 < data["summary"]["scenarios"] < ti4_scenarios()
    assert not (pytester.path / "r.json").exists()
    assert list(tmp.iterdir()) == []  # the shards' streams are gone with their folder


EARLY = """
import os, signal, sys

class Once:  # Ctrl-C as the first import of MODULE begins
    armed = True
    def find_spec(self, name, path=None, target=None):
        if self.armed and name == MODULE:
            self.armed = False
            os.kill(os.getpid(), signal.SIGINT)
        return None

MODULE = sys.argv[1]
sys.argv = ["rules-oracle", "run", "--rule", "ti4"]  # as the console script starts
sys.meta_path.insert(0, Once())
from oracle.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize("module", ["pytest", "pytest_bdd", "oracle.plugin.run"])
def test_an_early_ctrl_c_exits_130_without_a_traceback(pytester, module):
    """Why: Ctrl-C in the first 0.3 s (the command's imports, pytest reading its options
    and loading plugins) printed a traceback, and pytest's "interrupted" status then read
    as a usage error (2). The Ctrl-C comes as each of these modules is first imported: while
    the command imports pytest, while pytest loads pytest-bdd, while it loads the oracle's
    plugin."""
    pytester.makepyfile(early=EARLY)
    process = subprocess.run([sys.executable, "early.py", module], cwd=pytester.path,
                             capture_output=True, text=True, timeout=120,
                             preexec_fn=_as_from_a_shell)
    out = process.stdout + process.stderr
    assert process.returncode == Exit.INTERRUPTED, out
    assert "Traceback" not in out and "interrupted" in out.lower()


def test_selftest_stops_cleanly_on_sigterm(pytester):
    """Why: selftest printed a KeyboardInterrupt traceback and left a temp folder."""
    tmp = pytester.mkdir("tmp")
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "oracle.cli", "selftest"],
                               cwd=pytester.path, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        head = _until(process, "[1/")
        assert "[1/" in head, head
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == Exit.INTERRUPTED
    assert "Traceback" not in err and "interrupted" in err
    assert list(tmp.iterdir()) == []


# Nothing written into the user's tree by --explore (no .hypothesis/): checked by
# tests/test_explore.py's round trip; no conftest.py read: tests/test_pytest_plugin.py.


def test_every_format_says_an_interrupted_report_is_partial_on_its_first_line():
    """Every registered format, so a new one cannot forget it."""
    from oracle.report.formats import formats
    from oracle.report.model import Report, RuleResult, ScenarioResult, Status

    rule = RuleResult("ti4:2.4", Status.PASS, "A hand holds at most seven.",
                      (ScenarioResult("Seven is fine", Status.PASS, "ti4/h.feature:3"),))
    report = Report({"spec": "reference", "seed": 0, "games": {}}, (rule,),
                    {"rules": 1, "scenarios": 1, "pass": 1}, interrupted=True)
    for name, fmt in formats().items():
        first = fmt.render(report).splitlines()[0]
        assert "interrupted" in first.lower(), (name, first)
        complete = fmt.render(Report(report.engine, report.rules, report.summary))
        assert "interrupted" not in complete.splitlines()[0].lower(), name
