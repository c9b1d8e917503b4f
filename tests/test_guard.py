"""A hanging in-process engine errors its request, and the next request gets a fresh engine.

On the main thread the engine is called directly under a watchdog that interrupts it at the
deadline; elsewhere it runs on a worker thread that is abandoned. Both ways are checked,
with the hangs an engine can have: a Python loop, a blocking call, a loop that catches
``Exception``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from typing import Any

import pytest

from oracle.engines.guard import EngineHung, GuardedEngine

TIMEOUT = 0.2


class Stuck:
    """Answers ``setup``; hangs, as its request says, on anything else."""

    made = 0

    def __init__(self) -> None:
        Stuck.made += 1

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "sleep":
            time.sleep(600)
        if op == "loop":
            while True:
                pass
        if op == "stubborn":
            while True:  # an engine's own error handling must not keep it stuck
                with contextlib.suppress(Exception):
                    time.sleep(0.01)
        return {"reply": "ready"}


@pytest.mark.parametrize("hang", ["sleep", "loop", "stubborn"])
def test_a_hang_is_an_error_and_the_engine_is_replaced(hang: str) -> None:
    guarded = GuardedEngine(Stuck, "stuck", TIMEOUT)
    before = Stuck.made
    with pytest.raises(EngineHung, match=f"no answer to '{hang}' within 0.2 s"):
        guarded.handle({"op": hang})
    assert Stuck.made == before + 1
    assert guarded.handle({"op": "setup"}) == {"reply": "ready"}


def test_off_the_main_thread_a_worker_thread_is_abandoned() -> None:
    guarded = GuardedEngine(Stuck, "stuck", TIMEOUT)
    outcome: list[object] = []

    def ask() -> None:
        try:
            guarded.handle({"op": "sleep"})
        except EngineHung as exc:
            outcome.append(exc)
        outcome.append(guarded.handle({"op": "setup"}))

    thread = threading.Thread(target=ask)
    thread.start()
    thread.join(30)
    assert isinstance(outcome[0], EngineHung)
    assert outcome[1] == {"reply": "ready"}


@pytest.mark.skipif(not hasattr(signal, "SIGUSR2"), reason="POSIX signals")
def test_the_watchdogs_signal_passes_on_what_is_not_its_own() -> None:
    GuardedEngine(Stuck, "stuck", TIMEOUT).handle({"op": "setup"})  # handler installed
    seen: list[int] = []
    import oracle.engines.guard as guard

    previous, guard._previous = guard._previous, lambda signum, frame: seen.append(signum)
    try:
        os.kill(os.getpid(), signal.SIGUSR2)
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        guard._previous = previous
    assert seen == [signal.SIGUSR2]


@pytest.mark.parametrize("guard", [True, False])
def test_connect_builds_an_in_process_engine_once(guard: bool, tmp_path, monkeypatch) -> None:
    """A factory may be costly (an engine that loads its data): connecting makes one engine,
    and the watchdog makes another only to replace one that hung."""
    from oracle.engines import ConnectOptions, EngineSpec, connect
    from oracle.suite.games import discover_games

    (tmp_path / "counted_engine.py").write_text(
        "from oracle.games.ti4.engine import ReferenceEngine\n"
        "MADE = []\n"
        "def factory():\n"
        "    MADE.append(1)\n"
        "    return ReferenceEngine()\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, "counted_engine", raising=False)
    client = connect(EngineSpec.parse("counted_engine:factory"),
                     {"ti4": discover_games()["ti4"]}, ConnectOptions(guard=guard))
    import counted_engine

    client.info()
    assert len(counted_engine.MADE) == 1
    client.close()


def test_a_run_builds_its_in_process_engine_once(oracle, engine_module, pytester) -> None:
    """The check that an engine can be made (a usage error if not, before any scenario) is
    the making of the engine the run uses: once per process, not once more to run."""
    engine_module("counted_run", "from oracle.games.ti4.engine import ReferenceEngine\n"
                                 "def factory():\n"
                                 "    with open('made.txt', 'a') as f:\n"
                                 "        f.write('x')\n"
                                 "    return ReferenceEngine()\n")
    run = oracle("run", "--engine", "counted_run:factory", "--rule", "ti4:note-1")
    assert run.code == 0, run.out + run.err
    assert (pytester.path / "made.txt").read_text() == "x"
