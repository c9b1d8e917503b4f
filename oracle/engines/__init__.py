"""Engines: naming one (``EngineSpec``), connecting to it (``connect``), talking to it safely.

- ``spec``: ``--engine SPEC`` parsed, and the registry of spec kinds;
- ``kinds``: the kinds (reference, mutant, cmd, package.module:factory) and ``connect``;
- ``client``: ``EngineClient``, typed requests and replies, every misbehaviour as data;
- ``guard``: the watchdog that keeps a hanging in-process engine from hanging the run;
- ``pipe``: engines in any language as child processes; ``serve``: the Python side of it;
- ``mutant``: reference engines with a few methods replaced (``mutant:NAME``).
"""

from oracle.engines.client import EngineClient
from oracle.engines.kinds import (
    ConnectOptions,
    EngineKind,
    connect,
    factory_for,
    load_factory,
    make_engine,
)
from oracle.engines.spec import DEFAULT_TIMEOUT, KINDS, EngineSpec, EngineSpecError, register_kind

__all__ = [
    "DEFAULT_TIMEOUT",
    "KINDS",
    "ConnectOptions",
    "EngineClient",
    "EngineKind",
    "EngineSpec",
    "EngineSpecError",
    "connect",
    "factory_for",
    "load_factory",
    "make_engine",
    "register_kind",
]
