"""The protocol over a pipe, and fault isolation: engines as child processes, misbehaving.

Why from the outside: what matters is that a real process that crashes, hangs, or writes
garbage costs only the scenarios it broke, never the run or the report. So the faulty
engines here are small Python scripts, run as ``cmd:python faulty.py FAULT CUE`` through
``rules-oracle run`` in a subprocess, exactly as a user would run a Node or Java engine.
``faulty.py`` is the bundled reference engine over the pipe, misbehaving on cue.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from oracle.engines import EngineClient, EngineSpec, EngineSpecError, streams
from oracle.engines import serve as serve_module
from oracle.engines.pipe import MAX_FAILED_STARTS, PipeEngine
from oracle.engines.serve import answer, serve
from oracle.engines.streams import PolledLines
from oracle.mutants.harness import game_cases
from oracle.protocol import Act, Describe, Described, Errored, Observe, Ready, Setup, View
from oracle.suite.games import discover_games

TI4_IDS = discover_games()["ti4"].catalog.ids()
DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
PY = shlex.quote(sys.executable)
SERVE_REFERENCE = f"cmd:{PY} -m oracle.pipe serve reference:ti4"

FAULTY = r'''
"""The reference TI4 engine over the pipe, misbehaving on cue: python faulty.py FAULT [CUE]."""
import json, os, sys, time

FAULT = sys.argv[1]
CUE = sys.argv[2] if len(sys.argv) > 2 else ""
out = sys.stdout
if os.environ.get("FAULTY_STARTS"):  # one line per process started
    with open(os.environ["FAULTY_STARTS"], "a") as starts:
        starts.write("started\n")
if FAULT == "hang-at-start":  # never answers the handshake
    time.sleep(600)
if FAULT == "exit-at-start":
    sys.stderr.write("faulty: cannot open rules.db\n")
    sys.exit(4)
if FAULT == "version":  # answers the handshake only, without loading the engine: quick
    for line in sys.stdin:
        engine = {"name": "faulty", "version": "2.0", "protocol": 2, "games": [{"game": "ti4"}],
                  "capabilities": []}
        out.write(json.dumps({"id": json.loads(line)["id"], "reply": "described",
                              "engine": engine}) + "\n")
        out.flush()
    sys.exit(0)

from oracle.games.ti4.engine import factory

engine = factory()
for line in sys.stdin:
    request = json.loads(line)
    rid = request.pop("id")
    request.pop("protocol", None)
    reply = engine.handle(request)
    if FAULT == "stderr-flood":  # 256 KiB per request: four times a pipe's buffer
        sys.stderr.write(("faulty: flooding stderr " * 40 + "\n") * 273)
        sys.stderr.flush()
    action = request.get("action") or {}
    if request["op"] == "act" and action.get("type") == CUE:
        sys.stderr.write(f"faulty: {FAULT} on {CUE}\n")
        sys.stderr.flush()
        if FAULT in ("crash", "stderr-flood"):
            os._exit(3)
        if FAULT == "hang":
            time.sleep(600)
        if FAULT == "invalid-json":
            out.write("{'reply': 'accepted'}\n")
            out.flush()
            continue
        if FAULT == "wrong-id":
            rid += 1
        if FAULT == "stray-output":
            print("debug: about to reply")
        if FAULT == "huge":
            reply["padding"] = "x" * (11 * 2**20)
    reply["id"] = rid
    out.write(json.dumps(reply) + "\n")
    out.flush()
'''


@pytest.fixture
def faulty(pytester: pytest.Pytester) -> Callable[..., str]:
    """``faulty(FAULT, CUE)`` -> the ``--engine cmd:...`` spec of a misbehaving engine."""
    script = pytester.path / "faulty.py"
    script.write_text(FAULTY)

    def spec(*args: str) -> str:
        return f"cmd:{PY} {shlex.quote(str(script))} {' '.join(args)}"

    return spec


def scenarios(run: Any, status: str | None = None) -> list[dict[str, Any]]:
    return [s for r in run.report["rules"] for s in r["scenarios"]
            if status is None or s["status"] == status]


#: One rule whose scenarios send the cue (status_draw) and one whose do not: enough to show
#: that a fault costs the scenarios it hits and no other.
FAULT_RULES = ["--rule", "ti4:2.1", "--rule", "ti4:2.3"]


def assert_isolated(run: Any, affected: set[str], says: str, stderr: str, code: int = 1
                    ) -> None:
    """The faulty scenarios, and only they, are errors that say what the engine did (exit
    1; 2 for an engine that failed at start-up)."""
    assert run.code == code, run.out + run.err
    assert [r["id"] for r in run.report["rules"]] == TI4_IDS
    statuses = {r["id"]: r["status"] for r in run.report["rules"]
                if r.get("reason") != "not selected in this run"}
    assert {rid for rid, s in statuses.items() if s == "error"} == affected, statuses
    assert {s for rid, s in statuses.items() if rid not in affected} <= {"pass", "untestable"}
    errored = scenarios(run, "error")
    assert errored
    for scenario in errored:
        assert says in scenario["message"], scenario["message"]
        if stderr:
            assert "the engine's stderr ended with:" in scenario["message"]
            assert stderr in scenario["message"], scenario["message"]
        else:
            assert "(the engine wrote nothing to stderr)" in scenario["message"]


# -- a well-behaved engine over the pipe -------------------------------------------------------


# The reference engine over the pipe passing all of TI4 with --strict-protocol, one engine
# process per xdist worker: tests/test_ci_formats.py, with the reports of a parallel run.


# -- the faults: each costs its scenarios, never the run -----------------------------------------



def rules_with_step(step: str) -> set[str]:
    """The rules with a scenario using ``step`` (an Outline's rows filled in): what a fault
    on that step's request hits."""
    return {rule for case in game_cases(discover_games()["ti4"])
            if any(text == step for _kind, text in case.steps) for rule in case.rules}


STATUS_DRAW = rules_with_step('the status phase step "Draw Action Cards" is resolved')
SELECTED = {"ti4:2.1", "ti4:2.3"}


def test_the_status_phase_cue_hits_some_rules_but_not_all():
    assert {"ti4:2.1", "ti4:note-5"} <= STATUS_DRAW
    assert "ti4:2.3" not in STATUS_DRAW


def test_a_crash_mid_scenario_errors_that_scenario_and_the_rest_pass(oracle, faulty):
    run = oracle("run", "--engine", faulty("crash", "status_draw"), *FAULT_RULES)
    assert_isolated(run, STATUS_DRAW & SELECTED,
                    "the engine exited with code 3 instead of answering",
                    "faulty: crash on status_draw")
    assert "'act' (status_draw)" in scenarios(run, "error")[0]["message"]


def test_a_hang_times_out(oracle, faulty):
    # Only one scenario of ti4:2.1 is selected, and it hangs for the timeout. A second is
    # far above what a request to a started engine takes on a loaded machine; the restarted
    # engine's start and handshake have the start-up timeout (30 s), not this one.
    run = oracle("run", "--engine", faulty("hang", "status_draw"), "--timeout", "1",
                 "--rule", "ti4:2.1", "--rule", "ti4:2.3",
                 "-k", "every_player_draws_one_card or takes_the_top_cards")
    assert run.code == 1, run.out + run.err
    assert run.status("ti4:2.1") == "error" and run.status("ti4:2.3") == "pass"
    assert [r["id"] for r in run.report["rules"] if r["id"].startswith("ti4:")] == TI4_IDS
    for scenario in scenarios(run, "error"):
        assert "did not answer request" in scenario["message"]
        assert "'act' (status_draw) within 1 s" in scenario["message"]
        assert "raise --timeout" in scenario["message"]
        assert "faulty: hang on status_draw" in scenario["message"]


def test_invalid_json_is_a_protocol_error(oracle, faulty):
    run = oracle("run", "--engine", faulty("invalid-json", "status_draw"), *FAULT_RULES)
    assert_isolated(run, STATUS_DRAW & SELECTED, "wrote a line to stdout that is not JSON",
                    "faulty: invalid-json")
    assert "{'reply': 'accepted'}" in scenarios(run, "error")[0]["message"]


def test_a_wrong_request_id_is_a_protocol_error(oracle, faulty):
    run = oracle("run", "--engine", faulty("wrong-id", "status_draw"), *FAULT_RULES)
    assert_isolated(run, STATUS_DRAW & SELECTED, "it must echo the request's id",
                    "faulty: wrong-id")


def test_stray_output_on_stdout_is_a_protocol_error(oracle, faulty):
    run = oracle("run", "--engine", faulty("stray-output", "status_draw"), *FAULT_RULES)
    assert_isolated(run, STATUS_DRAW & SELECTED, "'debug: about to reply'", "faulty: stray-output")
    assert "write logs to stderr" in scenarios(run, "error")[0]["message"]


def test_a_huge_reply_is_refused(oracle, faulty):
    run = oracle("run", "--engine", faulty("huge", "status_draw"), *FAULT_RULES)
    assert_isolated(run, STATUS_DRAW & SELECTED, "is larger than 10 MiB", "faulty: huge")


def test_a_stderr_flood_neither_blocks_the_engine_nor_floods_the_report(oracle, faulty):
    run = oracle("run", "--engine", faulty("stderr-flood", "status_draw"), *FAULT_RULES)
    assert_isolated(run, STATUS_DRAW & SELECTED, "exited with code 3", "faulty: stderr-flood")
    message = scenarios(run, "error")[0]["message"]
    assert "bytes of stderr in all" in message
    assert len(message) < 6000


def test_a_protocol_version_mismatch_errors_every_scenario(oracle, faulty):
    run = oracle("run", "--engine", faulty("version"), *FAULT_RULES)
    assert_isolated(run, SELECTED,
                    "the engine speaks protocol version 2; this oracle speaks version 1", "", 2)
    assert len(scenarios(run, "error")) == len(scenarios(run))


def test_an_engine_that_exits_at_start_up_errors_every_scenario(oracle, faulty):
    run = oracle("run", "--engine", faulty("exit-at-start"), *FAULT_RULES)
    assert_isolated(run, SELECTED, "the engine exited with code 4",
                    "faulty: cannot open rules.db", 2)
    for scenario in scenarios(run):  # it may exit before or after the handshake is written
        assert "request 0, 'describe', during the handshake" in scenario["message"]


def test_an_engine_that_hangs_at_the_handshake_is_diagnosed_once(oracle, faulty, pytester,
                                                                 monkeypatch, ti4_scenarios):
    """Why: it was restarted and retried for every scenario (25 minutes at the default
    timeout). The circuit breaker: one start, one timeout, every scenario error at once."""
    starts = pytester.path / "starts.txt"
    monkeypatch.setenv("FAULTY_STARTS", str(starts))
    run = oracle("run", "--engine", faulty("hang-at-start"), "--rule", "ti4",
                 "--startup-timeout", "1")
    assert run.code == 2, run.out + run.err
    assert {s["status"] for s in scenarios(run)} == {"error"}
    assert len(scenarios(run)) == ti4_scenarios()
    for scenario in scenarios(run):
        assert "the engine failed at start-up" in scenario["message"]
        assert "did not answer request 0, 'describe', during the handshake within 1 s" \
            in scenario["message"]
        assert "raise --startup-timeout" in scenario["message"]
    assert starts.read_text().splitlines() == ["started"]


@pytest.mark.parametrize("spec, says", [
    ("cmd:", "needs a command after 'cmd:'"),
    ("cmd:  ", "needs a command after 'cmd:'"),
    ("cmd:no-such-engine-xyz --fast", "'no-such-engine-xyz' is not on PATH"),
    ("cmd:./missing/engine.js", "is not an executable file"),
    ("cmd:node 'unclosed", "cannot split the command"),
])
def test_a_bad_cmd_is_a_usage_error(oracle, spec, says):
    run = oracle("run", "--engine", spec)
    assert run.code == 2
    assert says in run.err
    assert run.report is None


@pytest.mark.parametrize("args, says", [
    (["--timeout", "-2"], "must be a positive number"),
    (["--engine", SERVE_REFERENCE, "--timeout", "0"], "must be a positive number"),
])
def test_a_bad_timeout_is_a_usage_error(oracle, args, says):
    run = oracle("run", *args)
    assert run.code == 2 and says in run.out + run.err


# -- PipeEngine itself, in-process -------------------------------------------------------------


@pytest.fixture
def script(tmp_path: Path) -> Callable[[str], list[str]]:
    """``script(source)`` -> the argv of a Python engine with that source."""

    def write(source: str) -> list[str]:
        path = tmp_path / f"engine{len(list(tmp_path.iterdir()))}.py"
        path.write_text(source)
        return [sys.executable, str(path)]

    return write


@pytest.fixture
def pipes() -> Iterator[list[PipeEngine]]:
    """Engines made by a test, closed after it whatever happened."""
    made: list[PipeEngine] = []
    yield made
    for engine in made:
        engine.close()


REFERENCE_ARGV = [sys.executable, "-m", "oracle.pipe", "serve", "reference:ti4"]
SETUP = {"op": "setup", "game": "ti4", "seed": 1, "state": {
    "players": [{"name": "Alice", "hand": ["Sabotage"]}, {"name": "Bob", "hand": ["Veto"]}],
    "decks": {"action": {"draw": ["Spy", "Plague"], "discard": []}}}}


def test_ids_are_numbered_and_the_handshake_is_the_only_describe(pipes):
    trace: list[tuple[str, dict[str, Any]]] = []
    engine = PipeEngine(REFERENCE_ARGV, trace=lambda d, line: trace.append((d, json.loads(line))))
    pipes.append(engine)
    assert engine.handle({"op": "describe"})["reply"] == "described"
    assert engine.handle(SETUP) == {"reply": "ready"}
    assert engine.handle({"op": "observe", "viewer": "Bob"})["reply"] == "view"
    assert engine.handle({"op": "describe"})["reply"] == "described"
    assert [(d, m["id"]) for d, m in trace] == [(">", 0), ("<", 0), (">", 1), ("<", 1),
                                                (">", 2), ("<", 2)]
    assert trace[0][1] == {"id": 0, "op": "describe", "protocol": 1}
    assert engine.starts == 1


def test_a_crashed_engine_is_restarted_with_the_handshake_at_the_next_setup(pipes, script):
    argv = script(FAULTY)
    engine = PipeEngine([*argv, "crash", "end_turn"], timeout=5)
    pipes.append(engine)
    client = EngineClient(engine, "faulty")
    assert isinstance(client.send(Setup("ti4", SETUP["state"], 1)), Ready)
    first_pid = engine.pid
    crashed = client.send(Act({"type": "end_turn", "player": "Alice"}))
    assert isinstance(crashed, Errored)
    assert crashed.context["exit_code"] == 3 and "timed_out" not in crashed.context
    assert "faulty: crash on end_turn" in crashed.context["stderr_tail"]
    assert engine.pid is None
    # Mid-scenario after a restart there is no game: refused, without starting a process.
    again = client.send(Observe("Alice"))
    assert isinstance(again, Errored) and "failed earlier in this scenario" in again.message
    assert "until the next setup" in again.message
    assert engine.pid is None
    assert isinstance(client.send(Setup("ti4", SETUP["state"], 1)), Ready)
    assert engine.pid not in (None, first_pid) and engine.starts == 2
    assert isinstance(client.send(Observe("Alice")), View)


def test_an_engine_that_never_starts_is_given_up_after_a_few_tries(pipes, script):
    """Each start of an engine that dies at once costs a process start: after
    MAX_FAILED_STARTS in a row, later scenarios are told why without another one."""
    engine = PipeEngine(script("import sys\nsys.stderr.write('no rules.db')\nsys.exit(4)\n"),
                        timeout=5)
    pipes.append(engine)
    replies = [engine.handle(SETUP) for _ in range(MAX_FAILED_STARTS + 2)]
    assert engine.starts == MAX_FAILED_STARTS
    assert all(r["reply"] == "errored" for r in replies)
    assert "exited with code 4" in replies[-1]["message"]
    assert "no rules.db" in replies[-1]["message"]
    assert f"failed to start {MAX_FAILED_STARTS} times in a row" in replies[-1]["message"]


def test_a_checkout_shadowing_the_installed_oracle_says_so(tmp_path: Path):
    """``python -m ...`` run from a source checkout imports the checkout's ``oracle`` (the
    current folder comes first on sys.path). Nothing edits ``oracle.__path__`` to make that
    work any more: with an editable install the installed features are the checkout's
    anyway, and over a non-editable one (simulated here: no site, so no editable finder)
    the first use of the bundled features says what happened and what to do, instead of
    failing with a bare ModuleNotFoundError."""
    import sysconfig

    repo = Path(__file__).resolve().parents[1]
    (tmp_path / "oracle").symlink_to(repo / "oracle")
    code = ("import oracle, oracle.suite.games as g\n"
            "assert not any('steps' in p for p in oracle.__path__), oracle.__path__\n"
            "g.discover_games()\n")
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, text=True,
                          capture_output=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                              [str(tmp_path), sysconfig.get_paths()["purelib"]])})
    assert done.returncode != 0
    assert "has no bundled features (oracle.features): it is a source checkout imported " \
        "in place of the installed rules-oracle" in done.stderr, done.stderr
    assert "pip install -e ." in done.stderr


def test_a_timeout_kills_the_engine(pipes, script):
    engine = PipeEngine(script("import time, sys\nsys.stdin.readline()\ntime.sleep(600)\n"),
                        timeout=5, startup_timeout=0.3)
    pipes.append(engine)
    reply = engine.handle({"op": "describe"})
    assert reply["reply"] == "errored"
    assert "did not answer request 0, 'describe', during the handshake within 0.3 s" \
        in reply["message"]
    assert reply["context"]["exit_code"] is not None  # killed, not left behind
    assert reply["context"]["timed_out"] is True  # what the run's circuit breaker counts


def test_a_flooding_engine_is_never_blocked_and_only_the_tail_is_kept(pipes, script):
    flood = ("import sys\nfor i in range(20000): sys.stderr.write(f'line {i} ' + 'x' * 100"
             " + '\\n')\nsys.stderr.flush()\nimport runpy\n"
             "runpy.run_module('oracle.pipe', run_name='__main__')\n")
    engine = PipeEngine([*script(flood), "serve", "reference:ti4"], timeout=10)
    pipes.append(engine)
    assert engine.handle({"op": "describe"})["reply"] == "described"  # 2 MB of stderr first
    tail = engine.stderr_tail()
    assert "line 19999" in tail and "line 0 " not in tail and len(tail) < 2500


def test_a_closed_engine_exits(pipes):
    engine = PipeEngine(REFERENCE_ARGV)
    pipes.append(engine)
    engine.handle({"op": "describe"})
    process = engine._process
    assert process is not None
    engine.close()
    assert process.returncode == 0  # it exited by itself when its stdin closed


def test_strict_mode_turns_a_schema_violation_into_errored(pipes, script):
    """--strict-protocol checks a pipe engine's messages where every engine's are checked
    (``EngineClient``), and the stream stays in step."""
    bad = script(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if r['op'] == 'describe':\n"
        "        out = {'reply': 'described', 'engine': {'name': 'bad', 'version': '1',\n"
        "               'protocol': 1, 'games': [{'game': 'ti4'}], 'capabilities': []}}\n"
        "    else:\n"
        "        out = {'reply': 'rejected', 'reason': 7}\n"
        "    out['id'] = r['id']\n"
        "    print(json.dumps(out), flush=True)\n")
    lenient, strict = PipeEngine(bad), PipeEngine(bad)
    pipes += [lenient, strict]
    act = {"op": "act", "action": {"type": "resolve"}}
    assert lenient.handle(act) == {"reply": "rejected", "reason": 7}
    client = EngineClient(strict, "bad", strict=True)
    reply = client.send(Act({"type": "resolve"}))
    assert isinstance(reply, Errored)
    assert "strict protocol: the reply breaks the reply schema" in reply.message
    assert "reason: 7 is not of type 'string'" in reply.message
    assert strict.pid is not None  # the stream is still in step: no restart
    bad_request = client.send(Act({"player": "Alice"}))
    assert isinstance(bad_request, Errored)
    assert "the oracle's request breaks the request schema" in bad_request.message
    assert "'type' is a required property" in bad_request.message


def test_serve_answers_each_line_with_its_id_and_never_raises():
    class Broken:
        def handle(self, request: dict[str, Any]) -> dict[str, Any]:
            if request["op"] == "act":
                raise RuntimeError("boom")
            return {"reply": "ready", "saw": sorted(request)}

    lines = [{"id": 0, "op": "describe", "protocol": 1}, {"id": 1, "op": "act", "action": {}}]
    instream = io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in lines)
                          + b"not json\n")
    outstream = io.BytesIO()
    assert serve(Broken(), instream, outstream) == 0
    replies = [json.loads(line) for line in outstream.getvalue().splitlines()]
    assert replies[0] == {"id": 0, "reply": "ready", "saw": ["op"]}
    assert replies[1]["id"] == 1 and replies[1]["reply"] == "errored"
    assert "RuntimeError: boom" in replies[1]["message"]
    assert replies[2]["id"] is None and replies[2]["reply"] == "errored"
    assert answer(Broken(), "[1]")["reply"] == "errored"


@pytest.mark.parametrize("cpus, polled", [(2, 1), (1, 0)])
def test_serve_reads_a_pipe_however_its_lines_arrive(monkeypatch, cpus, polled):
    """On a pipe, ``serve`` reads with the oracle's own line reader (it spins before it
    sleeps), or, with one CPU (no spinning), line by line as any stream: either way a
    request in two parts, two requests in one write, a last request without its newline,
    then the end, are all answered, in order, once each."""
    class Echo:
        def handle(self, request: dict[str, Any]) -> dict[str, Any]:
            return {"reply": "ready", "n": request["n"]}

    read_end, write_end = os.pipe()
    writes = [b'{"id": 1, "op": "x",', b' "n": 1}\n', b'{"id": 2, "n": 2}\n{"id": 3, "n": 3}\n',
              b'{"id": 4, "n": 4}']

    def write() -> None:
        for chunk in writes:
            os.write(write_end, chunk)
            time.sleep(0.01)
        os.close(write_end)

    readers = []
    monkeypatch.setattr(streams, "_cpus", lambda: cpus)
    monkeypatch.setattr(serve_module, "PolledLines",
                        lambda *args: readers.append(PolledLines(*args)) or readers[-1])
    writer = threading.Thread(target=write)
    writer.start()
    outstream = io.BytesIO()
    with os.fdopen(read_end, "rb") as instream:
        assert serve(Echo(), instream, outstream) == 0
    writer.join()
    replies = [json.loads(line) for line in outstream.getvalue().splitlines()]
    assert replies == [{"id": n, "reply": "ready", "n": n} for n in (1, 2, 3, 4)]
    assert len(readers) == polled  # read as a pipe, or line by line through the file


def test_serve_refuses_a_spec_it_cannot_serve():
    result = subprocess.run([sys.executable, "-m", "oracle.pipe", "serve", "reference"],
                            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and "name its game" in result.stderr


def test_cmd_spec_is_split_without_a_shell():
    spec = EngineSpec.parse(f"cmd:{PY} -c 'print(1); exit()' $HOME")
    assert spec.kind == "cmd" and str(spec).startswith("cmd:")
    assert spec.argv == [sys.executable, "-c", "print(1); exit()", "$HOME"]
    with pytest.raises(EngineSpecError, match="is not on PATH"):
        EngineSpec.parse("cmd:surely-not-installed-anywhere")


# -- the transcript in docs/protocol.md --------------------------------------------------------


def doc_transcript() -> list[tuple[str, dict[str, Any]]]:
    """The ```jsonl transcript of docs/protocol.md as (direction, message) pairs."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"^```jsonl\n(.*?)^```", text, re.M | re.S)
    assert len(blocks) == 1, "docs/protocol.md should hold one ```jsonl transcript"
    pairs = []
    for line in blocks[0].splitlines():
        message = json.loads(line)
        pairs.append((">" if "op" in message else "<", message))
    return pairs


def test_the_docs_transcript_fits_the_schemas_and_is_what_the_engine_says(pipes):
    pytest.importorskip("jsonschema")
    from oracle.protocol.validate import problems

    transcript = doc_transcript()
    assert [d for d, _ in transcript] == [">", "<"] * (len(transcript) // 2)
    engine = PipeEngine(REFERENCE_ARGV)
    pipes.append(engine)
    for (_, request), (_, reply) in zip(transcript[::2], transcript[1::2], strict=True):
        assert problems("request", request) == [], request
        assert problems("reply", reply) == [], reply
        assert reply["id"] == request["id"]
        live = engine.handle({k: v for k, v in request.items() if k not in ("id", "protocol")})
        assert live == {k: v for k, v in reply.items() if k != "id"}, (
            "docs/protocol.md's transcript is stale; `python tests/test_pipe.py` prints it "
            "afresh for the same requests")
    assert transcript[0][1] == {"id": 0, "op": "describe", "protocol": 1}


def test_the_client_reads_a_described_engine(pipes):
    engine = PipeEngine(REFERENCE_ARGV)
    pipes.append(engine)
    client = EngineClient(engine, "pipe")
    assert isinstance(client.send(Describe()), Described)
    assert client.info().games == ("ti4",)


if __name__ == "__main__":  # print the docs transcript afresh: same requests, live replies
    with PipeEngine(REFERENCE_ARGV) as _engine:
        for _direction, _message in doc_transcript()[::2]:
            _reply = _engine.handle({k: v for k, v in _message.items()
                                     if k not in ("id", "protocol")})
            print(json.dumps(_message, ensure_ascii=False))
            print(json.dumps({"id": _message["id"], **_reply}, ensure_ascii=False))
