"""Reading an engine process's output: its replies on stdout, the tail of its stderr.

Why a module of its own: the pipe's speed is mostly here. Every round trip waits for one
line on stdout, so that wait is one ``poll`` and usually one ``read`` on the caller's thread
(``PolledLines``). A reader thread handing lines over a queue (``ThreadedLines``, kept for
platforms without ``select.poll``) cost a thread switch per reply, a third of a round trip.
stderr is drained by a thread all the time, since nobody waits for it.

Waiting itself is most of what is left (``Spinner``): a process put to sleep by ``poll``
takes 5-10 microseconds to be woken when its line arrives, on each side of each round trip.
So both ends of the pipe first poll without sleeping for a moment, as a lock that spins
before it sleeps does; an engine that answers slowly turns the spinning off by itself.
"""

from __future__ import annotations

import contextlib
import math
import os
import queue
import select
import threading
import time
from typing import IO, Protocol

SPIN_SECONDS = 100e-6
"""How long a wait polls without sleeping before it sleeps in ``poll``: long enough to catch
a reply from an engine that answers in tens of microseconds (the reference engines take
about 20), short enough that an engine taking milliseconds costs a few percent of a core."""

SPIN_BACKOFF_MAX = 64
"""After a spin that caught nothing, that many waits (doubling up to this) sleep at once."""

CONTENTION_WINDOW = 256
"""Every that many waits, a spinner looks whether its process was preempted (involuntary
context switches) in more than one wait in 16 of them: then every CPU is wanted by
something else, and it sleeps at once until a later window is quiet."""

STDERR_KEPT_BYTES = 64 * 2**10
"""How much of the engine's stderr is kept (the newest); the rest is read and dropped."""

STDERR_SHOWN_LINES = 20
STDERR_SHOWN_CHARS = 2000
"""How much of the kept stderr a message shows: enough for a traceback's end."""

Item = tuple[str, bytes | None]
"""``("line", bytes)``, ``("too-big", None)`` (a line over the limit; reading stops there) or
``("eof", None)``."""


class StderrTail:
    """Drains a child's stderr in a thread, keeping only the newest bytes.

    Draining matters more than keeping: an engine that logs faster than nobody reads would
    fill the pipe's buffer and block in its next write, and look like a hang.
    """

    def __init__(self, stream: IO[bytes]) -> None:
        self._buffer = bytearray()
        self._total = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, args=(stream,), daemon=True,
                                        name="rules-oracle engine stderr")
        self._thread.start()

    def _drain(self, stream: IO[bytes]) -> None:
        read = getattr(stream, "read1", stream.read)
        with contextlib.suppress(OSError, ValueError):
            while chunk := read(65536):
                with self._lock:
                    self._total += len(chunk)
                    self._buffer += chunk
                    if len(self._buffer) > STDERR_KEPT_BYTES:
                        del self._buffer[: len(self._buffer) - STDERR_KEPT_BYTES]

    def join(self, timeout: float) -> None:
        """Wait for the stream's end, so a crash's last words are in the tail."""
        self._thread.join(timeout)

    def tail(self) -> str:
        """The last lines of stderr, short enough for a report."""
        with self._lock:
            text = self._buffer.decode("utf-8", errors="replace")
            total = self._total
        lines = text.rstrip("\n").splitlines()[-STDERR_SHOWN_LINES:]
        shown = "\n".join(lines)[-STDERR_SHOWN_CHARS:]
        if shown and total > len(shown.encode("utf-8", errors="replace")) + 1:
            shown = f"[... {total} bytes of stderr in all; the last lines:]\n{shown}"
        return shown


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _preemptions() -> int:
    """How many times this process has been preempted (involuntary context switches)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not Unix
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_nivcsw


def can_spin() -> bool:
    """Whether waiting by spinning can help: with one CPU the process spinning would only
    keep the other one from running."""
    return _cpus() > 1


class Spinner:
    """Waits for a ``poll`` object's descriptor: spinning for a moment, then sleeping.

    Why: a round trip is two waits, one in each process, and a process that sleeps in
    ``poll`` is woken 5-10 microseconds after the other side's write; polling without
    sleeping (``poll(0)``) sees the write at once. Measured on the pipe's transport alone
    (lines echoed by a child), spinning on both sides took a round trip from 15 to 5
    microseconds. The spin is short (``SPIN_SECONDS``) and adapts: a spin that caught
    nothing makes the next waits sleep at once, for twice as many waits each time it
    happens again (up to ``SPIN_BACKOFF_MAX``), so a slow engine, or a client busy between
    requests, costs next to nothing. It is off with a single CPU, where the process spinning
    would only keep the other one from running, and while every CPU is busy with other work
    (``CONTENTION_WINDOW``): there a spin gains nothing (with two CPU-bound processes beside
    the pipe on two CPUs: 13,400-14,000 round trips a second spinning, 10,400-16,100
    sleeping) and takes its CPU time from the other work.
    """

    def __init__(self, poll: select.poll, seconds: float = SPIN_SECONDS) -> None:
        self._poll = poll
        self._seconds = seconds if can_spin() else 0.0
        self._backoff = 0  # how many waits to sleep at once after the last missed spin
        self._skip = 0  # how many of those are left
        self._waits = 0  # in this contention window
        self._preempted = _preemptions() if self._seconds else 0
        self._contended = False

    def wait(self, timeout: float | None) -> bool:
        """Whether the descriptor became readable within ``timeout`` seconds (None: no
        limit)."""
        poll = self._poll.poll
        if self._seconds:
            self._waits += 1
            if self._waits >= CONTENTION_WINDOW:
                preempted = _preemptions()
                self._contended = preempted - self._preempted > CONTENTION_WINDOW // 16
                self._preempted, self._waits = preempted, 0
        if self._skip:
            self._skip -= 1
        elif self._seconds and not self._contended:
            clock = time.perf_counter
            end = clock() + min(self._seconds, timeout if timeout is not None else math.inf)
            while True:
                if poll(0):
                    self._backoff = 0
                    return True
                if clock() >= end:
                    break
            self._backoff = min(2 * self._backoff + 1, SPIN_BACKOFF_MAX)
            self._skip = self._backoff
        return bool(poll(None if timeout is None else math.ceil(timeout * 1000)))


class StdoutLines(Protocol):
    """A child's stdout, line by line."""

    def next(self, timeout: float | None) -> Item | None:
        """The next line or the end of the stream; None if nothing came within ``timeout``
        seconds (None: no limit)."""

    def stray(self) -> bytes | None:
        """A whole line already waiting (nobody asked for it), taken; or None."""


def stdout_lines(stream: IO[bytes], limit: int) -> StdoutLines:
    """The fastest reader this platform has for a child's stdout."""
    if hasattr(select, "poll"):
        return PolledLines(stream, limit)
    return ThreadedLines(stream, limit)  # pragma: no cover - Windows


class PolledLines:
    """Reads stdout on the caller's thread: wait with ``poll``, read what is there, split."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self._stream = stream  # kept open by this reference; read only through its fd
        self._fd = stream.fileno()
        self._poll = select.poll()
        self._poll.register(self._fd, select.POLLIN | select.POLLPRI)
        self._wait = Spinner(self._poll).wait
        self._limit = limit
        self._buffer = bytearray()
        self._ended: str | None = None  # "eof" or "too-big" once reading has stopped

    def _fill(self, timeout: float | None) -> None:
        """Read whatever arrives within ``timeout`` seconds (None: no limit)."""
        if self._ended is not None:
            return
        if self._wait(timeout):
            self._keep(self._read())

    def _read(self) -> bytes:
        """What is there to read (after a ``poll`` said so); ``b""`` at the end."""
        try:
            return os.read(self._fd, 65536)
        except OSError:
            return b""

    def _keep(self, chunk: bytes) -> None:
        if chunk:
            self._buffer += chunk
        else:
            self._ended = "eof"

    def _take(self) -> Item | None:
        end = self._buffer.find(b"\n")
        if end > self._limit or (end < 0 and len(self._buffer) > self._limit):
            self._buffer.clear()
            self._ended = "too-big"
            return "too-big", None
        if end >= 0:
            line = bytes(self._buffer[:end + 1])
            del self._buffer[:end + 1]
            return "line", line
        if self._ended == "eof" and self._buffer:  # a last line without its newline
            line = bytes(self._buffer)
            self._buffer.clear()
            return "line", line
        if self._ended == "eof":
            return "eof", None
        return None

    def next(self, timeout: float | None) -> Item | None:
        """The next line or the end of the stream; None if nothing came within ``timeout``
        seconds (None: wait as long as it takes)."""
        deadline = time.monotonic() + timeout if timeout is not None else None
        if not self._buffer and self._ended is None:
            # The usual case, in as few steps as it takes: nothing is waiting, one wait
            # for the reply and one ``read`` brings exactly one whole line.
            if not self._wait(timeout):
                return None
            chunk = self._read()
            end = chunk.find(b"\n")
            if 0 <= end == len(chunk) - 1 and end <= self._limit:
                return "line", chunk
            # Anything else (the end, part of a line, several lines, too long) is read
            # as it always is, with what time is left.
            self._keep(chunk)
        elif self._ended == "too-big":
            return None  # nothing more is read, as after an answer that was too big
        while (item := self._take()) is None:
            left = deadline - time.monotonic() if deadline is not None else None
            if left is not None and left <= 0:
                return None
            self._fill(left)
        return item

    def stray(self) -> bytes | None:
        if self._ended is None and self._poll.poll(0):
            self._keep(self._read())
        if not self._buffer:  # the usual case: nothing waiting, nothing to look at
            return None
        end = self._buffer.find(b"\n")
        if end < 0 or end > self._limit:  # no whole line; or one too big, for ``next``
            return None
        item = self._take()
        return item[1] if item is not None else None


class ThreadedLines:
    """Reads stdout line by line in a thread and hands the lines over a queue."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self.items: queue.Queue[Item] = queue.Queue()
        self._thread = threading.Thread(target=self._read, args=(stream, limit), daemon=True,
                                        name="rules-oracle engine stdout")
        self._thread.start()

    def _read(self, stream: IO[bytes], limit: int) -> None:
        try:
            while True:
                line = stream.readline(limit + 1)
                if not line:
                    break
                if len(line) > limit and not line.endswith(b"\n"):
                    self.items.put(("too-big", None))
                    return
                self.items.put(("line", line))
        except (OSError, ValueError):
            pass
        self.items.put(("eof", None))

    def next(self, timeout: float | None) -> Item | None:
        try:
            return self.items.get(timeout=timeout)
        except queue.Empty:
            return None

    def stray(self) -> bytes | None:
        try:
            kind, data = self.items.get_nowait()
        except queue.Empty:
            return None
        if kind == "line":
            return data
        self.items.put((kind, data))  # a crash: reported when the reply is read
        return None
