"""Talking to an engine safely: typed requests in, typed replies out, whatever it does.

Whatever the engine does (raise, return garbage, answer the wrong kind of reply) comes back
from ``EngineClient.send`` as a typed reply, so a broken engine fails its scenario and never
the run. Engines are made by ``oracle.engines.connect``; this is what a run talks to.
"""

from __future__ import annotations

import json
import traceback
from dataclasses import dataclass, field
from typing import Any

from oracle.engines.guard import EngineHung
from oracle.engines.spec import EngineSpecError
from oracle.protocol import (
    PROTOCOL_VERSION,
    Describe,
    Described,
    EngineInfo,
    Errored,
    Observe,
    ProtocolError,
    Reply,
    Request,
    Setup,
    parse_reply,
)
from oracle.protocol import validate as schemas
from oracle.protocol.adapter import Engine


class _NotPlain(Exception):
    """A value ``json_copy`` leaves to the json module."""


def json_copy(value: Any) -> Any:
    """``json.loads(json.dumps(value))``, twice as fast for plain JSON data.

    Every request and reply of an in-process engine is copied so (an engine gets exactly
    what a piped one would, and shares nothing with the oracle). Dicts with string keys,
    lists, tuples, str, int, float, bool and None are copied directly; anything else (a
    subclass, a non-string key, a cycle) takes the json round trip, with its conversions
    and its errors.
    """
    try:
        return _plain_copy(value)
    except (_NotPlain, RecursionError):
        return json.loads(json.dumps(value))


def _plain_copy(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            # Scalars (most of a message) are taken as they are, without a call each.
            of = type(item)
            out[key] = item if (of is str or of is int or of is bool or of is float
                                or item is None) else _plain_copy(item)
        return out
    if kind is list or kind is tuple:
        return [_plain_copy(item) for item in value]
    raise _NotPlain


@dataclass
class EngineClient:
    """One engine, spoken to in typed requests, with every failure turned into data."""

    engine: Engine
    label: str
    transcript: list[tuple[dict[str, Any], dict[str, Any] | str]] = field(default_factory=list)
    _info: EngineInfo | None = None
    strict: bool = False
    """Validate every request and reply against the JSON Schemas (``--strict-protocol``),
    whatever the engine's kind: the one place an engine's messages are checked."""
    game: str | None = None
    """The game of the last ``setup`` sent: an act or choose request belongs to it, and strict
    mode checks it against that game's closed schema (``validate.request_problems``)."""
    timeouts_in_a_row: int = 0
    """Requests in a row the engine did not answer in time (any answer resets it; an
    ``errored`` reply that is no timeout leaves it): the run's circuit breaker reads it."""
    last_timeout: str = ""
    """The message of the last request that timed out."""

    def send(self, request: Request) -> Reply:
        """Send one request; return its typed reply (``Errored`` if the engine misbehaved)."""
        observe = type(request) is Observe
        message = {"op": "observe", "viewer": request.viewer} if observe else request.to_json()
        engine = self.engine
        copies = not getattr(engine, "speaks_json", False)
        # An engine that builds every view afresh from plain JSON data (the bundled ones,
        # ``oracle.games.kit``) shares nothing with the oracle through it: views are most of
        # what exploration copies, and need no copy from such an engine. An observe request
        # is made afresh here of a viewer's name: nothing of the oracle's is in it either.
        copies_reply = copies and not (observe and getattr(engine, "fresh_views", False))
        try:
            # A JSON round trip: in-process engines get exactly what a piped one would (a
            # pipe engine writes the request as JSON and parses the reply itself).
            wire = json_copy(message) if copies and not observe else message
        except (TypeError, ValueError) as exc:  # an oracle bug, not the engine's
            raise RuntimeError(f"request is not JSON data: {message!r}") from exc
        if type(request) is Setup:
            self.game = request.game
        if self.strict and (found := schemas.request_problems(wire, self.game)):
            return Errored(f"strict protocol: the oracle's request breaks the request "
                           f"schema: {'; '.join(found[:5])}")
        try:
            raw = engine.handle(wire)
        except EngineHung as exc:  # the watchdog's: no answer in time
            self.transcript.append((message, f"raised {exc!r}"))
            return self._timed_out(Errored(str(exc), {"timed_out": True}))
        except Exception as exc:
            self.transcript.append((message, f"raised {exc!r}"))
            return Errored(
                f"the engine raised {type(exc).__name__}: {exc}",
                {"traceback": traceback.format_exc(limit=8)},
            )
        try:
            if copies_reply:
                raw = json_copy(raw)
            if self.strict and (found := schemas.problems("reply", raw)):
                raise ProtocolError(f"strict protocol: the reply breaks the reply schema: "
                                    f"{'; '.join(found[:5])}")
            reply = parse_reply(request, raw)
        except (TypeError, ValueError, ProtocolError) as exc:
            self.transcript.append((message, repr(raw)))
            return Errored(f"protocol error: {exc}", {"reply": repr(raw)[:500]})
        self.transcript.append((message, raw))
        if type(reply) is Errored:
            return self._timed_out(reply) if reply.context.get("timed_out") else reply
        self.timeouts_in_a_row = 0
        return reply

    def _timed_out(self, reply: Errored) -> Errored:
        self.timeouts_in_a_row += 1
        self.last_timeout = reply.message
        return reply

    def close(self) -> None:
        """Stop the engine if it is a process (closing its stdin first); idempotent."""
        close = getattr(self.engine, "close", None)
        if callable(close):
            close()

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
