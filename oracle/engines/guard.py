"""In-process engines behind a watchdog: a hang fails its scenario, never the run.

Python cannot stop a function from outside. Two ways are used, the first where it works:

- On the main thread (where pytest runs scenarios) of a POSIX system, the engine is called
  directly and a watchdog thread keeps the deadline. A request still running at its
  deadline gets a signal aimed at the main thread, whose handler raises inside the engine:
  a Python loop stops at its next instruction, a blocking call (sleep, socket, lock) is
  interrupted. The engine is replaced by a fresh one from the factory, and the request is
  reported as an engine error. This costs a request nothing: handing every request to
  another thread cost two thread switches each, which on a busy machine took longer than
  the engine's work.
- Elsewhere (another thread, no signals), each request runs on a worker thread and the
  oracle waits at most the timeout; a stuck thread is abandoned (a daemon, it dies with the
  run) along with its engine.

Either way the next scenario starts with ``setup`` on the fresh engine, exactly as a crashed
pipe engine is restarted. What neither can stop is a C extension looping without ever
returning to Python (on the main thread, it would hold the run up).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from oracle.protocol.adapter import Engine

_SIGNAL = getattr(signal, "SIGUSR2", None)
"""The signal the watchdog interrupts the main thread with (any other use of it is passed on
to the handler that was there before)."""


class EngineHung(Exception):
    """The engine did not answer within the timeout."""


class _Interrupted(BaseException):
    """Raised inside a hung engine by the watchdog's signal (a BaseException, so that an
    engine's ``except Exception`` does not swallow it)."""


class _Watchdog:
    """Keeps the deadline of the request the main thread is in, from its own thread.

    Starting and ending a request sets two attributes; the thread is woken only when a
    request's deadline comes before the time it meant to look again (not at all while every
    request has the same timeout). It signals the main thread if the request it finds
    running is past its deadline, and again every second while that one keeps running.
    """

    def __init__(self) -> None:
        self.running: tuple[int, float] | None = None  # (request number, deadline)
        self.fired = 0  # the request number last signalled
        self._count = 0
        self._looks_at = 0.0
        self._wake = threading.Event()
        self._main = threading.main_thread().ident
        threading.Thread(target=self._watch, name="rules-oracle engine watchdog",
                         daemon=True).start()

    def begin(self, timeout: float) -> None:
        self._count += 1
        deadline = time.monotonic() + timeout
        self.running = (self._count, deadline)
        if deadline < self._looks_at:
            self._wake.set()

    def end(self) -> None:
        self.running = None

    def hung(self) -> bool:
        """Whether the running request is the one the watchdog signalled."""
        running = self.running
        return running is not None and running[0] == self.fired

    def _watch(self) -> None:
        while True:
            running = self.running
            now = time.monotonic()
            if running is not None and running[1] <= now and self._main is not None:
                self.fired = running[0]
                signal.pthread_kill(self._main, _SIGNAL)  # type: ignore[arg-type]
                pause = 1.0
            else:
                pause = running[1] - now if running is not None else _IDLE
            self._looks_at = now + pause
            self._wake.wait(pause)
            self._wake.clear()


_IDLE = 3600.0
"""How long the watchdog sleeps with no request running (a request wakes it if sooner)."""

_watchdog: _Watchdog | None = None
_previous: Any = None


def _on_signal(signum: int, frame: Any) -> None:
    if _watchdog is not None and _watchdog.hung():
        raise _Interrupted
    if callable(_previous):
        _previous(signum, frame)


def _interruptible() -> _Watchdog | None:
    """The watchdog, if this thread can be interrupted by it (the main thread, POSIX)."""
    global _previous, _watchdog
    if _SIGNAL is None or not hasattr(signal, "pthread_kill") \
            or threading.current_thread() is not threading.main_thread():
        return None
    if _watchdog is None:  # once per process: the handler stays, passing on what is not ours
        _previous = signal.signal(_SIGNAL, _on_signal)
        _watchdog = _Watchdog()
    return _watchdog


class _Worker:
    """One engine on its own thread, handed one request at a time (two locks, the least a
    hand-over between threads costs)."""

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

    def __init__(self, factory: Callable[[], Engine], label: str, timeout: float,
                 engine: Engine | None = None) -> None:
        """``engine``: the first engine, already made by ``factory`` (else it is made now);
        ``factory`` makes the one that replaces an engine that hung."""
        self.factory, self.label, self.timeout = factory, label, timeout
        self.engine = engine if engine is not None else factory()
        self._worker: _Worker | None = None

    @property
    def fresh_views(self) -> bool:
        """Whether the engine inside builds every view afresh (``EngineClient.send``)."""
        return bool(getattr(self.engine, "fresh_views", False))

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        dog = _interruptible()
        if dog is None:
            return self._on_a_thread(request)
        dog.begin(self.timeout)
        try:
            reply = self.engine.handle(request)
            dog.end()
        except _Interrupted:
            dog.end()
            raise self._hung(request) from None
        except BaseException:
            dog.end()
            raise
        return reply

    def _on_a_thread(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._worker is None:
            self._worker = _Worker(self.engine, self.label)
        answer = self._worker.ask(request, self.timeout)
        if answer is None:
            self._worker = None  # abandon the stuck thread with its engine
            raise self._hung(request)
        ok, value = answer
        if not ok:
            raise value
        return value

    def _hung(self, request: dict[str, Any]) -> EngineHung:
        """Replace the engine and say what happened."""
        self.engine = self.factory()
        return EngineHung(
            f"no answer to {request.get('op')!r} within {self.timeout:g} s; the engine "
            f"was replaced by a fresh one from {self.label} (raise --timeout if it is "
            "only slow)")
