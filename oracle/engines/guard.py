"""In-process engines behind a watchdog: a hang fails its scenario, never the run.

Python cannot interrupt a function that loops forever. So each request to an
in-process engine runs on a worker thread and the oracle waits at most the
timeout; if no answer comes, the stuck thread is abandoned (a daemon, it dies
with the run), a fresh engine is made from the factory, and the request is
reported as an engine error. The next scenario starts with ``setup`` on the
fresh engine, exactly as a crashed pipe engine is restarted.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from oracle.protocol.adapter import Engine


class EngineHung(Exception):
    """The engine did not answer within the timeout."""


class GuardedEngine:
    """An in-process engine whose every request has a deadline."""

    def __init__(self, factory: Callable[[], Engine], label: str, timeout: float) -> None:
        self.factory, self.label, self.timeout = factory, label, timeout
        self.engine = factory()
        self._jobs: queue.Queue[tuple[dict[str, Any], queue.Queue[Any]]] | None = None

    def _worker(self, jobs: queue.Queue[tuple[dict[str, Any], queue.Queue[Any]]],
                engine: Engine) -> None:
        while True:
            request, answer = jobs.get()
            try:
                answer.put((True, engine.handle(request)))
            except BaseException as exc:  # handed to the caller, who turns it into data
                answer.put((False, exc))

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._jobs is None:
            self._jobs = queue.Queue()
            threading.Thread(target=self._worker, args=(self._jobs, self.engine),
                             name=f"engine {self.label}", daemon=True).start()
        answer: queue.Queue[Any] = queue.Queue(maxsize=1)
        self._jobs.put((request, answer))
        try:
            ok, value = answer.get(timeout=self.timeout)
        except queue.Empty:
            self._jobs = None  # abandon the stuck thread with its engine
            self.engine = self.factory()
            raise EngineHung(
                f"no answer to {request.get('op')!r} within {self.timeout:g} s; the engine "
                f"was replaced by a fresh one from {self.label} (raise --timeout if it is "
                "only slow)"
            ) from None
        if not ok:
            raise value
        return value
