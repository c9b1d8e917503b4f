"""Finding the engine a run tests, and talking to it safely.

``--engine`` takes a SPEC:

- ``reference``: each game's bundled reference engine (the default);
- ``reference:GAME``: one game's bundled reference engine;
- ``package.module:factory``: a Python engine; ``factory()`` returns an
  object with ``handle(request) -> reply`` (see ``oracle.adapter``);
- ``mutant:NAME``: a bundled mutant, a reference engine broken on purpose
  (see ``oracle.mutants``; ``rules-oracle selftest`` runs them all);
- ``cmd:ARGV``: an engine in any language, started as a child process from
  ARGV (split like a shell would, but run without one) and spoken to over
  its stdin and stdout (``oracle.pipe``; docs/protocol.md "Over a pipe").

Whatever the engine does (raise, return garbage, answer the wrong kind of
reply) comes back from ``EngineClient.send`` as a typed reply, so a broken
engine fails its scenario and never the run.
"""

from __future__ import annotations

import importlib
import json
import os
import shlex
import shutil
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from oracle import schemas
from oracle.adapter import Engine
from oracle.protocol import (
    PROTOCOL_VERSION,
    Describe,
    Described,
    EngineInfo,
    Errored,
    ProtocolError,
    Reply,
    Request,
    parse_reply,
)


class EngineSpecError(ValueError):
    """An ``--engine`` value that names no usable engine; the message says how to fix it."""


@dataclass(frozen=True)
class EngineSpec:
    """A parsed ``--engine`` value."""

    kind: str  # "reference", "mutant", "python" or "cmd"
    target: str = ""  # a game id for "reference", a name for "mutant", "module:attr" for
    # "python", the command line for "cmd"

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        text = text.strip()
        if text.startswith("cmd:"):
            command = text.removeprefix("cmd:").strip()
            command_argv(command)  # refuse a command that cannot run, with the reason
            return cls("cmd", command)
        if text == "reference":
            return cls("reference")
        if text.startswith("reference:"):
            game = text.removeprefix("reference:")
            if not game:
                raise EngineSpecError("'reference:' needs a game, e.g. --engine reference:ti4")
            return cls("reference", game)
        if text.startswith("mutant:"):
            name = text.removeprefix("mutant:")
            if not name:
                raise EngineSpecError("'mutant:' needs a mutant's name, e.g. mutant:no_hand_limit")
            return cls("mutant", name)
        module, sep, attr = text.partition(":")
        if not sep or not module or not attr or " " in text:
            raise EngineSpecError(
                f"--engine {text!r} is not an engine spec. Use 'reference', "
                "'reference:GAME' (e.g. reference:ti4) or 'package.module:factory' "
                "for a Python engine."
            )
        return cls("python", text)

    @property
    def argv(self) -> list[str]:
        """The command of a ``cmd:`` spec, as the argument list it is started with."""
        return command_argv(self.target) if self.kind == "cmd" else []

    def __str__(self) -> str:
        if self.kind == "python":
            return self.target
        return f"{self.kind}:{self.target}" if self.target else self.kind


def command_argv(command: str) -> list[str]:
    """Split a ``cmd:`` command into argv (``shlex``, no shell) and check it can be started.

    Checked up front so that a typo is a usage error naming the program, not every scenario
    of the run saying that the engine could not be started.
    """
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise EngineSpecError(f"--engine 'cmd:{command}': cannot split the command ({exc}); "
                              "quote arguments as in a POSIX shell") from exc
    if not argv:
        raise EngineSpecError("--engine 'cmd:' needs a command after 'cmd:', e.g. "
                              "--engine 'cmd:node examples/node-ti4/engine.js'")
    if shutil.which(argv[0]) is None:
        where = "is not an executable file" if "/" in argv[0] or os.sep in argv[0] \
            else "is not on PATH"
        raise EngineSpecError(f"--engine 'cmd:{command}': {argv[0]!r} {where}; install it, or "
                              "give the program's path (the command is run without a shell)")
    return argv


def load_factory(target: str) -> Callable[[], Engine]:
    """Import ``package.module:attr`` and return the callable that makes the engine."""
    module_name, _, attr_path = target.partition(":")
    if os.getcwd() not in sys.path:  # like `python -m`: an engine beside you is importable
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EngineSpecError(
            f"--engine {target!r}: cannot import {module_name!r} ({exc}). Is the engine's "
            "package installed in this environment, or its folder on PYTHONPATH?"
        ) from exc
    obj: Any = module
    for part in attr_path.split("."):
        if not hasattr(obj, part):
            raise EngineSpecError(
                f"--engine {target!r}: {module_name!r} has no attribute {attr_path!r}. Name a "
                "function or class that returns an object with a handle(request) method."
            )
        obj = getattr(obj, part)
    if not callable(obj):
        raise EngineSpecError(f"--engine {target!r}: {attr_path!r} is not callable")
    return obj


def make_engine(factory: Callable[[], Engine], label: str) -> Engine:
    """Call an engine factory and check that what it made speaks the protocol."""
    try:
        engine = factory()
    except Exception as exc:
        raise EngineSpecError(f"--engine {label!r}: the factory raised {exc!r}") from exc
    if not callable(getattr(engine, "handle", None)):
        raise EngineSpecError(
            f"--engine {label!r}: the factory returned {type(engine).__name__}, which has no "
            "handle(request) method; see docs/protocol.md"
        )
    return engine


@dataclass
class EngineClient:
    """One engine, spoken to in typed requests, with every failure turned into data."""

    engine: Engine
    label: str
    transcript: list[tuple[dict[str, Any], dict[str, Any] | str]] = field(default_factory=list)
    _info: EngineInfo | None = None
    strict: bool = False
    """Validate every request and reply against the JSON Schemas (``--strict-protocol``).
    A pipe engine checks its own wire messages instead (``oracle.pipe.PipeEngine``)."""

    def send(self, request: Request) -> Reply:
        """Send one request; return its typed reply (``Errored`` if the engine misbehaved)."""
        message = request.to_json()
        try:
            # A JSON round trip: in-process engines get exactly what a piped one would.
            wire = json.loads(json.dumps(message))
        except (TypeError, ValueError) as exc:  # an oracle bug, not the engine's
            raise RuntimeError(f"request is not JSON data: {message!r}") from exc
        if self.strict and (found := schemas.problems("request", wire)):
            return Errored(f"strict protocol: the oracle's request breaks the request "
                           f"schema: {'; '.join(found[:5])}")
        try:
            raw = self.engine.handle(wire)
        except Exception as exc:
            self.transcript.append((message, f"raised {exc!r}"))
            return Errored(
                f"the engine raised {type(exc).__name__}: {exc}",
                {"traceback": traceback.format_exc(limit=8)},
            )
        try:
            raw = json.loads(json.dumps(raw))
            if self.strict and (found := schemas.problems("reply", raw)):
                raise ProtocolError(f"strict protocol: the reply breaks the reply schema: "
                                    f"{'; '.join(found[:5])}")
            reply = parse_reply(request, raw)
        except (TypeError, ValueError, ProtocolError) as exc:
            self.transcript.append((message, repr(raw)))
            return Errored(f"protocol error: {exc}", {"reply": repr(raw)[:500]})
        self.transcript.append((message, raw))
        return reply

    def info(self) -> EngineInfo:
        """The engine's self-description, asked once."""
        if self._info is None:
            reply = self.send(Describe())
            if isinstance(reply, Errored):  # a pipe engine's message says what it did
                raise EngineSpecError(f"engine {self.label!r} could not describe itself: "
                                      f"{reply.message}")
            if not isinstance(reply, Described):
                raise EngineSpecError(f"engine {self.label!r} did not describe itself: {reply!r}")
            if reply.engine.protocol != PROTOCOL_VERSION:
                raise EngineSpecError(
                    f"engine {self.label!r} speaks protocol {reply.engine.protocol}; this "
                    f"oracle speaks {PROTOCOL_VERSION}"
                )
            self._info = reply.engine
        return self._info
