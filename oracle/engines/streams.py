"""Reading an engine process's output: its replies on stdout, the tail of its stderr.

Why a module of its own: the pipe's speed is mostly here. Every round trip waits for one
line on stdout, so that wait is one ``poll`` and usually one ``read`` on the caller's thread
(``PolledLines``). A reader thread handing lines over a queue (``ThreadedLines``, kept for
platforms without ``select.poll``) cost a thread switch per reply, a third of a round trip.
stderr is drained by a thread all the time, since nobody waits for it.
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


class StdoutLines(Protocol):
    """A child's stdout, line by line."""

    def next(self, timeout: float) -> Item | None:
        """The next line or the end of the stream; None if nothing came within ``timeout``."""

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
        self._limit = limit
        self._buffer = bytearray()
        self._ended: str | None = None  # "eof" or "too-big" once reading has stopped

    def _fill(self, timeout: float) -> None:
        """Read whatever arrives within ``timeout`` seconds (0: only what is there)."""
        if self._ended is not None:
            return
        if self._poll.poll(math.ceil(timeout * 1000)):
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

    def next(self, timeout: float) -> Item | None:
        deadline = time.monotonic() + timeout
        if not self._buffer and self._ended is None:
            # The usual case, in as few steps as it takes: nothing is waiting, one ``poll``
            # waits for the reply and one ``read`` brings exactly one whole line.
            if not self._poll.poll(math.ceil(timeout * 1000)):
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
            left = deadline - time.monotonic()
            if left <= 0:
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

    def next(self, timeout: float) -> Item | None:
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
