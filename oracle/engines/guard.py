"""In-process engines behind a watchdog: a hang fails its scenario, never the run.

Python cannot interrupt a function that loops forever. So each request to an
in-process engine runs on a worker thread and the oracle waits at most the
timeout; if no answer comes, the stuck thread is abandoned (a daemon, it dies
with the run), a fresh engine is made from the factory, and the request is
reported as an engine error. The next scenario starts with ``setup`` on the
fresh engine, exactly as a crashed pipe engine is restarted.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from oracle.protocol.adapter import Engine


class EngineHung(Exception):
    """The engine did not answer within the timeout."""


class _Worker:
    """One engine on its own thread, handed one request at a time.

    Two locks, not queues: each request is two lock releases and two acquires, the least a
    hand-over between threads costs, because the scenarios send every request through here.
    """

    def __init__(self, engine: Engine, label: str) -> None:
        self.engine = engine
        self.request: dict[str, Any] = {}
        self.answer: tuple[bool, Any] = (False, None)
        self.go = threading.Lock()
        self.done = threading.Lock()
        self.go.acquire()
        self.done.acquire()
        threading.Thread(target=self._serve, name=f"engine {label}", daemon=True).start()

    def _serve(self) -> None:
        while True:
            self.go.acquire()
            try:
                self.answer = (True, self.engine.handle(self.request))
            except BaseException as exc:  # handed to the caller, who turns it into data
                self.answer = (False, exc)
            self.done.release()

    def ask(self, request: dict[str, Any], timeout: float) -> tuple[bool, Any] | None:
        """The engine's (ok, reply or exception), or None if it did not answer in time."""
        self.request = request
        self.go.release()
        return self.answer if self.done.acquire(timeout=timeout) else None


class GuardedEngine:
    """An in-process engine whose every request has a deadline."""

    def __init__(self, factory: Callable[[], Engine], label: str, timeout: float) -> None:
        self.factory, self.label, self.timeout = factory, label, timeout
        self.engine = factory()
        self._worker: _Worker | None = None

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._worker is None:
            self._worker = _Worker(self.engine, self.label)
        answer = self._worker.ask(request, self.timeout)
        if answer is None:
            self._worker = None  # abandon the stuck thread with its engine
            self.engine = self.factory()
            raise EngineHung(
                f"no answer to {request.get('op')!r} within {self.timeout:g} s; the engine "
                f"was replaced by a fresh one from {self.label} (raise --timeout if it is "
                "only slow)"
            ) from None
        ok, value = answer
        if not ok:
            raise value
        return value
