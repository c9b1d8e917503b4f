"""The outcomes a reference engine's handler can raise, and the values they carry.

Why a module of their own: every other module of the kit, and every rule of every game, raises
these; keeping them apart from ``ProtocolEngine`` lets the small helpers (``requests``,
``cards``) use them without importing the engine that catches them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

JSON = dict[str, Any]
#: The viewer who sees everything (docs/protocol.md, ``observe``).
REFEREE = "*"


class RequestError(Exception):
    """A malformed request or an impossible state: the scenario is broken, reply ``errored``."""

    def __init__(self, message: str, context: JSON | None = None) -> None:
        super().__init__(message)
        self.context = context or {}


class UnsupportedRequest(Exception):
    """Something this engine does not model: reply ``unsupported`` (never a failure)."""

    def __init__(self, reason: str, capability: str | None = None) -> None:
        super().__init__(reason)
        self.capability = capability


@dataclass(frozen=True)
class Rejection:
    """Why the rules forbid an action, and which rule says so."""

    reason: str
    rule: str | None = None


class Rejected(Exception):
    """Raised inside an action handler to reject it; ``handle`` restores the snapshot."""

    def __init__(self, rejection: Rejection) -> None:
        super().__init__(rejection.reason)
        self.rejection = rejection
