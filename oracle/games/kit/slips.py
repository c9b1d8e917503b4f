"""Slips a mutant makes of a kit engine: the overrides both games' mutant tables use.

Why here: a mutant is a reference engine with a few methods replaced, and two kinds of slip
are the same in every game built on ``ProtocolEngine``: a method that ignores its arguments,
and a transaction without its undo. One copy, so that the two games' mutants slip alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from oracle.games.kit.engine import ProtocolEngine
from oracle.games.kit.errors import JSON, Rejected


def returns(value: Any) -> Callable[..., Any]:
    """A method that ignores its arguments and returns ``value``."""
    return lambda *_args, **_kwargs: value


def leaky_transaction(self: ProtocolEngine, run: Callable[[], None]) -> JSON:
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
