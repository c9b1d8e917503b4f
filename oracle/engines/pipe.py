"""The adapter protocol over a pipe: an engine in any language, as a child process.

Why a pipe: most engines are not Python. Newline-delimited JSON over stdin and stdout is
something every language can speak in a few lines, and a child process is something the
oracle can time out, kill and restart, so nothing an engine does can lose a report.

Framing (``docs/protocol.md``, "Over a pipe"): the engine is started from an argv (no
shell); each request is one line of JSON on its stdin carrying an integer ``id``; it answers
each with one line of JSON on stdout echoing that ``id``; stderr is free-form logging. The
first request is the handshake ``{"id": 0, "op": "describe", "protocol": 1}``. The oracle
closes stdin when done, and the engine should then exit.

This module is the oracle's side: ``PipeEngine``, an ``Engine`` (``handle(request) ->
reply``) whose every failure (crash, hang, garbage, wrong id, wrong version, a reply too
large) comes back as an ``errored`` reply that says what the engine did and shows its
stderr's tail. The engine's side for Python engines is ``oracle.engines.serve``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from oracle.engines.spec import DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT
from oracle.engines.streams import (
    StderrTail,
    StdoutLines,
    stdout_lines,
)
from oracle.engines.wire import dumps_line, fast_loads
from oracle.protocol import PROTOCOL_VERSION

JSON = dict[str, Any]

MAX_REPLY_BYTES = 10 * 2**20
"""A reply line longer than this is a fault: no honest view of a board game is 10 MiB."""

MAX_FAILED_STARTS = 3
"""Starts that may fail in a row (the process dies, or its handshake is wrong) before the
engine is no longer started in a run: such an engine errors every scenario either way."""


_EXIT_WAIT = 2.0
"""Seconds an engine gets to exit by itself after its stdin is closed, before it is killed."""


class _Fault(Exception):
    """The engine broke the pipe protocol; the message says what it did, in plain words."""


def _exit_words(code: int | None) -> str:
    if code is None:
        return "is still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"exited with code {code}"


def _slow_reply(raw: bytes, what: str) -> Any:
    """A reply line orjson would not read, read as the standard library reads it, with
    what is wrong with it in the message (not UTF-8, not JSON)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Fault(f"the engine answered {what} with a line that is not UTF-8 "
                     f"({exc}): {raw[:200]!r}") from exc
    text = text.removesuffix("\n").removesuffix("\r")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise _Fault(f"the engine wrote a line to stdout that is not JSON ({exc}) when it "
                     f"should have answered {what}: {text[:300]!r}. stdout carries replies "
                     "only, one JSON object per line; write logs to stderr") from exc


_Asked = tuple[int, JSON, bool]
"""A request as sent: its id, the request, and whether it is the handshake; put in words
(``_words``) only for a message."""


def _words(asked: _Asked) -> str:
    """``request 3, 'act' (draw)``, and ``, during the handshake`` for the handshake."""
    rid, request, handshake = asked
    return f"request {rid}, {_what(request)}" + (", during the handshake" if handshake else "")


def _not_a_reply(raw: bytes, reply: Any, asked: _Asked) -> _Fault:
    """What is wrong with a line that is JSON but not a reply: not an object, or no id."""
    text = raw.decode("utf-8", "replace").removesuffix("\n").removesuffix("\r")
    if not isinstance(reply, dict):
        return _Fault(f"the engine answered {_words(asked)} with {text[:300]!r}, which is not "
                      "a JSON object")
    return _Fault(f"the engine's reply to {_words(asked)} has no 'id' (every reply must echo "
                  f"its request's id, here {asked[0]}): {text[:300]}")


def _what(request: JSON) -> str:
    """A request in a few words, for messages: ``'act' (draw)``."""
    op = request.get("op")
    action = request.get("action")
    if isinstance(action, dict) and "type" in action:
        return f"{op!r} ({action['type']})"
    if op == "observe":
        return f"'observe' as {request.get('viewer')!r}"
    return repr(op)


def _stop(process: subprocess.Popen[bytes], stderr: StderrTail | None = None) -> None:
    """Kill an engine process and everything it started (its own process group). With
    ``stderr``, its drain reads to the end before the streams are closed: the engine's last
    words (written after a flood, say) are what a fault's message shows."""
    if process.poll() is None:
        try:
            if hasattr(os, "killpg"):
                os.killpg(process.pid, signal.SIGKILL)
            else:  # pragma: no cover - Windows
                process.kill()
        except (ProcessLookupError, PermissionError):
            process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(_EXIT_WAIT)
    if stderr is not None:
        stderr.join(_EXIT_WAIT)
    for stream in (process.stdin, process.stdout, process.stderr):
        with contextlib.suppress(OSError, ValueError):
            if stream is not None:
                stream.close()


class PipeEngine:
    """An engine in a child process, spoken to in newline-delimited JSON.

    The process is started on the first request and the handshake is done then; after any
    fault it is killed, and the next request starts a fresh one and replays the handshake.
    Since every scenario begins with ``setup``, a restart between scenarios loses nothing; a
    request other than ``setup`` right after a fault is answered ``errored`` (the restarted
    engine would have no game), so a scenario never silently continues on a new process.

    ``describe`` is answered with the handshake's reply: the engine describes itself once
    per process. (``--strict-protocol`` checks its messages where every engine's are
    checked: ``oracle.engines.client.EngineClient``.)
    ``trace``, if given, is called with ``(">", line)`` for each line sent and ``("<", line)``
    for each line received, for transcripts and debugging.
    """

    speaks_json = True
    """Requests go out as JSON text and replies are parsed from it: a client need not copy
    them through JSON as it does for an in-process engine (``EngineClient.send``)."""

    def __init__(self, argv: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT,
                 startup_timeout: float | None = None,
                 max_reply_bytes: int = MAX_REPLY_BYTES, label: str | None = None,
                 trace: Callable[[str, bytes], None] | None = None) -> None:
        if not argv:
            raise ValueError("an engine command needs at least the program to run")
        self.argv = list(argv)
        self.timeout = timeout
        self.startup_timeout = startup_timeout if startup_timeout is not None \
            else max(timeout, DEFAULT_STARTUP_TIMEOUT)
        """Seconds for a started process's handshake (its start-up included)."""
        self.max_reply_bytes = max_reply_bytes
        self.label = label or " ".join(self.argv)
        self.trace = trace
        self.starts = 0
        """How many processes were started: 1 for a run with no fault."""
        self._process: subprocess.Popen[bytes] | None = None
        self._stdin = -1
        self._stdout: StdoutLines | None = None
        self._stderr: StderrTail | None = None
        self._finalizer: weakref.finalize | None = None
        self._next_id = 0
        self._described: JSON | None = None
        self._last_fault: str | None = None
        self._failed_starts = 0  # handshakes failed in a row
        self._start_fault = ""  # what the last failed start said

    # -- the Engine interface -----------------------------------------------------------

    def handle(self, request: JSON) -> JSON:
        """Answer one request over the pipe; every fault becomes an ``errored`` reply."""
        op = request.get("op")
        if self._last_fault is not None and op not in ("setup", "describe"):
            return self._errored(
                f"the engine failed earlier in this scenario ({self._last_fault}) and was "
                f"stopped; a new engine process has no game in progress, so {_what(request)} "
                "cannot be answered until the next setup")
        try:
            described = self._ensure_started()
            if op == "describe":
                return dict(described)
            reply = self._exchange(request)
        except _GaveUp as fault:  # nothing to stop or restart
            return self._errored(str(fault))
        except _Fault as fault:
            return self._fail(str(fault), timed_out=isinstance(fault, _TimedOut))
        if op == "setup":
            self._last_fault = None
        return reply

    def close(self) -> None:
        """Close the engine's stdin, give it a moment to exit, then make sure it is gone."""
        process, self._process = self._process, None
        self._stdin = -1  # its number may be reused once the process's stdin is closed
        if process is None:
            return
        if self._finalizer is not None:
            self._finalizer.detach()
        with contextlib.suppress(OSError, ValueError):
            if process.stdin is not None:
                process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(_EXIT_WAIT)
        _stop(process)

    def __enter__(self) -> PipeEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The running engine process's id, if one is running."""
        return self._process.pid if self._process is not None else None

    def stderr_tail(self) -> str:
        """The newest lines the engine wrote to stderr (kept across a fault until restart)."""
        return self._stderr.tail() if self._stderr is not None else ""

    # -- the process ----------------------------------------------------------------------

    def _ensure_started(self) -> JSON:
        """Start the engine and do the handshake, unless that is done; return ``described``.

        An engine that failed its last ``MAX_FAILED_STARTS`` starts in a row is not started
        again: it would cost every later scenario a process start to learn the same thing.
        """
        if self._process is not None and self._described is not None:
            return self._described
        if self._failed_starts >= MAX_FAILED_STARTS:
            raise _GaveUp(f"{self._start_fault} (the engine failed to start "
                          f"{self._failed_starts} times in a row, so it is not started again "
                          "in this run)")
        try:
            described = self._start()
        except _Fault as fault:
            self._failed_starts += 1
            self._start_fault = str(fault)
            raise
        self._failed_starts = 0
        return described

    def _start(self) -> JSON:
        """Start a process and do the handshake; return its ``described`` reply."""
        try:
            self._process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True,
            )
        except OSError as exc:
            raise _Fault(f"the engine could not be started ({exc})") from exc
        self.starts += 1
        self._finalizer = weakref.finalize(self, _stop, self._process)
        assert self._process.stdin is not None and self._process.stdout is not None \
            and self._process.stderr is not None
        self._stdin = self._process.stdin.fileno()  # written to directly, see ``_write``
        self._stdout = stdout_lines(self._process.stdout, self.max_reply_bytes)
        self._stderr = StderrTail(self._process.stderr)
        self._next_id = 0
        self._described = None
        reply = self._exchange({"op": "describe", "protocol": PROTOCOL_VERSION},
                               handshake=True)
        if reply.get("reply") != "described":
            raise _Fault(f"the engine answered the handshake with {reply!r:.300} instead of "
                         "a 'described' reply")
        engine = reply.get("engine")
        version = engine.get("protocol") if isinstance(engine, dict) else None
        if version != PROTOCOL_VERSION:
            raise _Fault(f"the engine speaks protocol version {version!r}; this oracle speaks "
                         f"version {PROTOCOL_VERSION} (the 'protocol' field of 'engine' in "
                         "its 'described' reply), so it cannot be tested")
        self._described = reply
        return reply

    def _exchange(self, request: JSON, handshake: bool = False) -> JSON:
        """Send one request with the next id and return its reply, without the id. The
        handshake has the start-up timeout (a process's start is in it), any other request
        the per-request one.

        Every round trip comes here, so the usual path does only what it must: the words
        that name a request in a fault's message are made when there is a fault."""
        rid = self._next_id
        asked = (rid, request, handshake)
        wire = {"id": rid, **request}
        self._next_id += 1
        line = dumps_line(wire)
        assert self._stdout is not None
        if (stray := self._stdout.stray()) is not None:
            raise _Fault(f"the engine wrote to stdout without being asked (found before "
                         f"{_words(asked)}): {stray[:300]!r}. stdout carries replies only, "
                         "one per request; write logs to stderr")
        self._write(line, asked)
        raw = self._read_line(asked)
        try:
            reply = fast_loads(raw)
        except ValueError:
            reply = _slow_reply(raw, _words(asked))
        if type(reply) is not dict or "id" not in reply:
            raise _not_a_reply(raw, reply, asked)
        echoed = reply["id"]
        if echoed != rid or type(echoed) is bool:
            raise _Fault(f"the engine answered {_words(asked)} with id {echoed!r}; it must "
                         f"echo the request's id, {rid}")
        del reply["id"]
        return reply

    def _write(self, line: bytes, asked: _Asked) -> None:
        """The request line in one ``write`` on the engine's stdin (no buffer to flush)."""
        if self.trace:
            self.trace(">", line)
        try:
            while line:
                line = line[os.write(self._stdin, line):]
        except OSError as exc:
            code = self._wait_exit(_EXIT_WAIT)
            raise _Fault(f"the engine {_exit_words(code)} before it could be sent "
                         f"{_words(asked)} (writing to its stdin failed: {exc})") from exc

    def _read_line(self, asked: _Asked) -> bytes:
        assert self._stdout is not None
        timeout = self.startup_timeout if asked[2] else self.timeout
        item = self._stdout.next(timeout)
        if item is None:
            option = "--startup-timeout" if asked[2] else "--timeout"
            raise _TimedOut(f"the engine did not answer {_words(asked)} within {timeout:g} s "
                            "(a reply is one line ending in a newline: does the engine flush "
                            f"stdout after each reply? If it only needs longer, raise {option})")
        kind, data = item
        if kind == "too-big":
            raise _Fault(f"the engine's reply to {_words(asked)} is larger than "
                         f"{self.max_reply_bytes / 2**20:g} MiB; replies are capped at that")
        if kind == "eof":
            code = self._wait_exit(_EXIT_WAIT)
            if code is None:
                raise _Fault(f"the engine closed its stdout instead of answering "
                             f"{_words(asked)}")
            raise _Fault(f"the engine {_exit_words(code)} instead of answering {_words(asked)}")
        assert data is not None
        if self.trace:
            self.trace("<", data)
        return data

    def _wait_exit(self, timeout: float) -> int | None:
        assert self._process is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self._process.wait(timeout)
        return None

    # -- faults -------------------------------------------------------------------------------

    def _fail(self, message: str, timed_out: bool = False) -> JSON:
        """Kill the engine after a fault and describe the fault as an ``errored`` reply
        (whose context says ``timed_out`` when it did not answer in time)."""
        process, self._process = self._process, None
        self._stdin = -1  # its number may be reused once the process's stdin is closed
        exit_code: int | None = None
        if process is not None:
            if self._finalizer is not None:
                self._finalizer.detach()
            _stop(process, self._stderr)
            exit_code = process.returncode
        self._described = None
        self._last_fault = message[:300]
        return self._errored(message, exit_code, timed_out)

    def _errored(self, message: str, exit_code: int | None = None,
                 timed_out: bool = False) -> JSON:
        tail = self.stderr_tail()
        text = f"{message} [engine: {self.label}]"
        if tail:
            text += f"\nthe engine's stderr ended with:\n{tail}"
        else:
            text += "\n(the engine wrote nothing to stderr)"
        context: JSON = {"stderr_tail": tail, "exit_code": exit_code}
        if timed_out:
            context["timed_out"] = True
        return {"reply": "errored", "message": text, "context": context}


class _TimedOut(_Fault):
    """The engine did not answer a request (or the handshake) in time."""


class _GaveUp(_Fault):
    """The engine failed to start too often in a row to be started again."""


