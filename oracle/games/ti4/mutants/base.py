"""What the TI4 mutant modules share: the constructor and the small helpers they reuse.

Why apart: every topic module builds its mutants the same way (the reference engine with a
few methods replaced), and two kinds of slip need the same plumbing: a method that ignores
its arguments, and a rejection that leaves a half-done change behind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from oracle.games.kit import JSON, Rejected
from oracle.games.ti4.engine import ReferenceEngine as Ref
from oracle.mutants import Mutant


def mutant(name: str, breaks: tuple[str, ...], change: str, **overrides: Any) -> Mutant:
    """A reference engine with ``overrides``, declared to break the TI4 ids ``breaks``."""
    return Mutant(name, tuple(f"ti4:{b}" for b in breaks), change, Ref, overrides)


def returns(value: Any) -> Callable[..., Any]:
    """A method that ignores its arguments and returns ``value``."""
    return lambda *_args, **_kwargs: value


def leaky_transaction(self: Ref, run: Callable[[], None]) -> JSON:
    """The kit's transaction without its snapshot: a rejection keeps whatever the handler
    changed before it refused (the reference handlers check first, so only a mutant's
    handler that changes first leaks). Engines written without an undo go wrong this way."""
    self.require_game()
    self._events = []
    try:
        run()
    except Rejected as rej:
        reply: JSON = {"reply": "rejected", "reason": rej.rejection.reason}
        if rej.rejection.rule:
            reply["rule"] = rej.rejection.rule
        return reply
    return {"reply": "accepted", "events": list(self._events)}
