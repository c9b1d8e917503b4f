"""Reading a pipe engine's stdout (``oracle.engines.streams.PolledLines``), in-process.

Why: the reader takes a shortcut when one ``read`` brings exactly one whole line (the usual
round trip), and falls back to buffering otherwise. Each case here is one the shortcut must
hand back to the buffer: a line in two parts, two lines at once, a line at and over the
size limit, a last line without its newline, the end. Written through a real ``os.pipe``.
And the wait itself (``Spinner``): when it spins, when it stops spinning, when it never does.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
from collections.abc import Iterator

import pytest

from oracle.engines import streams
from oracle.engines.streams import PolledLines, Spinner

LIMIT = 64
WAIT = 30.0  # an upper bound only: every line here is written before or while it is read


@pytest.fixture
def pipe() -> Iterator[tuple[PolledLines, int]]:
    """A reader with a line limit of ``LIMIT`` bytes, and the fd its lines are written to."""
    read_end, write_end = os.pipe()
    stream = os.fdopen(read_end, "rb")
    try:
        yield PolledLines(stream, LIMIT), write_end
    finally:
        stream.close()
        with contextlib.suppress(OSError):  # unless the test closed it to make the end
            os.close(write_end)


def test_one_whole_line_is_the_line(pipe):
    lines, fd = pipe
    os.write(fd, b'{"id":1}\n')
    assert lines.next(WAIT) == ("line", b'{"id":1}\n')


def test_a_line_in_two_parts_is_read_whole(pipe):
    lines, fd = pipe
    os.write(fd, b'{"id":')
    later = threading.Timer(0.05, os.write, (fd, b'2}\n'))
    later.start()
    try:
        assert lines.next(WAIT) == ("line", b'{"id":2}\n')
    finally:
        later.join()


def test_two_lines_at_once_are_two_lines_and_the_second_is_stray_until_taken(pipe):
    lines, fd = pipe
    os.write(fd, b'{"id":3}\n{"id":4}\n')
    assert lines.next(WAIT) == ("line", b'{"id":3}\n')
    assert lines.stray() == b'{"id":4}\n'
    assert lines.stray() is None


def test_nothing_waiting_is_no_stray_line(pipe):
    lines, fd = pipe
    assert lines.stray() is None
    os.write(fd, b'{"id":5}\n')
    assert lines.next(WAIT) == ("line", b'{"id":5}\n')


def test_a_line_at_the_limit_is_read_and_one_byte_over_is_too_big(pipe):
    lines, fd = pipe
    at_limit = b"x" * LIMIT + b"\n"  # the newline is at index LIMIT: allowed
    os.write(fd, at_limit)
    assert lines.next(WAIT) == ("line", at_limit)
    os.write(fd, b"x" * (LIMIT + 1) + b"\n")
    assert lines.next(WAIT) == ("too-big", None)
    os.write(fd, b'{"id":6}\n')
    assert lines.next(0.01) is None  # nothing more is read after a line too big


def test_the_end_after_a_last_line_without_its_newline(pipe):
    lines, fd = pipe
    os.write(fd, b'{"id":7}')
    os.close(fd)
    assert lines.next(WAIT) == ("line", b'{"id":7}')
    assert lines.next(WAIT) == ("eof", None)


def test_the_end_with_nothing_written(pipe):
    lines, fd = pipe
    os.close(fd)
    assert lines.next(WAIT) == ("eof", None)


def test_no_line_within_the_timeout_is_none(pipe):
    lines, _fd = pipe
    assert lines.next(0.01) is None


class ScriptedPoll:
    """A ``poll`` object whose non-sleeping polls say "ready" only from the ``ready_after``-th
    on (None: never); every sleeping poll says "ready". Records each call's timeout."""

    def __init__(self, ready_after: int | None) -> None:
        self.ready_after, self.calls = ready_after, []

    def poll(self, timeout: int | None = None) -> list[tuple[int, int]]:
        self.calls.append(timeout)
        spins = self.calls.count(0)
        if timeout == 0 and (self.ready_after is None or spins < self.ready_after):
            return []
        return [(3, 1)]

    def spun(self, spinner: Spinner) -> bool:
        """Whether one wait of ``spinner`` (which must see a line) spun: polled with 0 first."""
        before = len(self.calls)
        assert spinner.wait(WAIT)
        return self.calls[before] == 0


@pytest.fixture
def two_cpus(monkeypatch) -> None:
    """A machine where spinning can help, whatever this one has."""
    monkeypatch.setattr(streams, "_cpus", lambda: 2)


def test_a_wait_that_sees_the_line_while_spinning_never_sleeps(two_cpus):
    poll = ScriptedPoll(ready_after=3)
    assert Spinner(poll, seconds=WAIT).wait(WAIT)
    assert poll.calls == [0, 0, 0]


def test_a_spin_that_catches_nothing_makes_the_next_waits_sleep_at_once(two_cpus):
    """Against a slow engine the spinning turns itself off: after each missed spin, twice
    as many waits as the time before (1, 3, 7, ...) go straight to sleep; a spin that
    catches its line starts the count again."""
    poll = ScriptedPoll(ready_after=None)
    spinner = Spinner(poll, seconds=1e-4)
    assert [poll.spun(spinner) for _ in range(12)] == [
        True, False, True, False, False, False, True, False, False, False, False, False]
    poll.ready_after = 1  # the engine got fast again: the next spin catches its line
    for _ in range(7):
        spinner.wait(WAIT)
    before = len(poll.calls)
    assert spinner.wait(WAIT) and spinner.wait(WAIT)
    assert poll.calls[before:] == [0, 0]  # caught while spinning, twice in a row


def test_one_cpu_never_spins(monkeypatch):
    """With one CPU the spinning process would only keep the engine from running."""
    monkeypatch.setattr(streams, "_cpus", lambda: 1)
    poll = ScriptedPoll(ready_after=1)
    assert Spinner(poll).wait(WAIT)
    assert poll.calls == [math.ceil(WAIT * 1000)]


def test_a_wait_with_no_limit_sleeps_with_no_limit(two_cpus):
    poll = ScriptedPoll(ready_after=None)
    assert Spinner(poll, seconds=1e-4).wait(None)
    assert poll.calls[-1] is None and set(poll.calls[:-1]) == {0}


def test_a_process_preempted_often_stops_spinning_until_a_quiet_window(two_cpus, monkeypatch):
    """While every CPU is busy elsewhere (the process keeps being preempted: involuntary
    context switches) a spin burns the CPU share the process needs for work, so the waits
    sleep at once; a later window with few preemptions turns spinning on again."""
    monkeypatch.setattr(streams, "CONTENTION_WINDOW", 16)
    preempted = [0]
    monkeypatch.setattr(streams, "_preemptions", lambda: preempted[0])
    poll = ScriptedPoll(ready_after=1)  # every spin catches its line at once
    spinner = Spinner(poll, seconds=WAIT)

    def spins(waits: int) -> list[bool]:
        spun = []
        for _ in range(waits):
            spun.append(poll.spun(spinner))
            preempted[0] += step
        return spun

    # A window is 16 waits; its last wait looks back over it before deciding.
    step = 0  # a quiet machine: every wait spins
    assert spins(16) == [True] * 16
    step = 1  # preempted at every wait: once a window saw it, no wait spins
    assert spins(16) == [True] * 15 + [False]
    assert spins(16) == [False] * 16
    step = 0  # quiet again: spinning again once a window saw that
    assert spins(16) == [False] * 15 + [True]
    assert spins(16) == [True] * 16
