"""What a Python engine implements to be tested in-process.

An engine is any object with ``handle(request: dict) -> dict``: one protocol
request in, one reply out, both plain JSON data as documented in
``docs/protocol.md``. Keeping the in-process interface identical to the wire
protocol means an adapter written for one works for the other, and the oracle
treats every engine the same way.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Engine(Protocol):
    """An engine under test, spoken to in protocol messages."""

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (``describe``, ``setup``, ``act``, ``choose``, ``observe``)."""
        ...
