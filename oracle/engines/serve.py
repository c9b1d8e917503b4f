"""The engine's side of the pipe, for any Python engine: ``python -m oracle.pipe serve SPEC``.

Why: an engine team that wants to see its Python engine exactly as a piped engine in another
language would be seen (framing, ids, the handshake, stderr kept apart from replies) serves it
with this module; the tests and benchmarks use it to put the bundled engines behind a pipe.
The engine is found by the same ``connect`` machinery as every other caller uses
(``oracle.engines.factory_for``), so ``serve`` accepts any in-process engine spec.
"""

from __future__ import annotations

import argparse
import os
import select
import stat
import sys
import traceback
from collections.abc import Iterator, Sequence
from typing import IO, Any

from oracle.engines import wire
from oracle.engines.streams import PolledLines, can_spin
from oracle.protocol.adapter import Engine

JSON = dict[str, Any]


def answer(engine: Engine, line: bytes | str) -> JSON:
    """One request line in, one reply (with the request's id) out; never raises."""
    return wire.loads(reply_line(engine, line))


def reply_line(engine: Engine, line: bytes | str) -> bytes:
    """One request line in, its reply line (JSON with the request's id, and a newline) out;
    never raises. The reply is serialised once: that is also the check that it is JSON."""
    rid: Any = None
    try:
        request = wire.loads(line)
        if not isinstance(request, dict):
            raise ValueError(f"a request must be a JSON object, got {request!r:.200}")
        rid = request.pop("id", None)
        if request.get("op") == "describe":
            request.pop("protocol", None)
        reply = engine.handle(request)
        if not isinstance(reply, dict):
            reply = {"reply": "errored",
                     "message": f"the engine returned {reply!r:.200}, not a reply object"}
        return wire.dumps_line({"id": rid, **reply})
    except Exception as exc:
        reply = {"reply": "errored", "message": f"{type(exc).__name__}: {exc}",
                 "context": {"traceback": traceback.format_exc(limit=8)}}
    return wire.dumps_line({"id": rid, **reply})


def serve(engine: Engine, instream: IO[bytes] | None = None,
          outstream: IO[bytes] | None = None) -> int:
    """Answer newline-delimited JSON requests from ``instream`` until it closes.

    The stdio server for Python engines: ``python -m oracle.pipe serve SPEC`` runs it on
    stdin and stdout. Anything the engine ``print``s goes to stderr while it serves, because
    a stray line on stdout would break the protocol.
    """
    instream = instream if instream is not None else sys.stdin.buffer
    outstream = outstream if outstream is not None else sys.stdout.buffer
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        for line in _request_lines(instream):
            outstream.write(reply_line(engine, line))
            outstream.flush()
    finally:
        sys.stdout = saved
    return 0


def _request_lines(instream: IO[bytes]) -> Iterator[bytes]:
    """The request lines of ``instream``, read as the oracle reads replies when the stream
    is a pipe and there is more than one CPU (``streams.PolledLines``: it spins for a moment
    before it sleeps, so a request that follows its reply closely is answered without a
    wake-up's delay), and line by line otherwise (a file, a terminal, an in-memory stream;
    with one CPU, where a blocking read is one system call to ``poll`` and ``read``'s two).
    A pipe is read through its descriptor, past the stream's own buffer: nothing may have
    been read from the stream before (``main`` reads nothing from stdin before serving)."""
    try:
        piped = stat.S_ISFIFO(os.fstat(instream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):
        piped = False
    if not piped or not hasattr(select, "poll") or not can_spin():
        yield from instream
        return
    lines = PolledLines(instream, sys.maxsize)
    while (item := lines.next(None)) is not None and item[0] == "line":
        assert item[1] is not None
        yield item[1]


def _engine_for(spec_text: str) -> Engine:
    """A Python engine from an ``--engine`` spec (``reference:GAME``, ``mutant:NAME`` or
    ``package.module:factory``), made the way every caller makes one."""
    from oracle.engines import EngineSpec, factory_for, make_engine
    from oracle.suite.games import discover_games

    spec = EngineSpec.parse(spec_text)
    factory, label = factory_for(spec, discover_games())
    return make_engine(factory, label)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m oracle.pipe serve SPEC``: a Python engine as a pipe engine."""
    parser = argparse.ArgumentParser(
        prog="python -m oracle.pipe",
        description="Serve a Python engine over stdin/stdout in the rules-oracle pipe protocol.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve_cmd = sub.add_parser("serve", help="answer requests on stdin until it closes")
    serve_cmd.add_argument("spec", help="'reference:GAME' or 'package.module:factory'")
    ns = parser.parse_args(argv)
    from oracle.engines import EngineSpecError

    try:
        engine = _engine_for(ns.spec)
    except EngineSpecError as exc:
        print(f"python -m oracle.pipe: {exc}", file=sys.stderr)
        return 2
    # Replies get a private copy of stdout; file descriptor 1 becomes stderr, so that even
    # output that bypasses sys.stdout (C code, child processes) cannot corrupt a reply.
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    try:
        return serve(engine, sys.stdin.buffer, replies)
    finally:
        replies.close()


if __name__ == "__main__":
    sys.exit(main())
