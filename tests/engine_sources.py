"""Sources of small engine modules the tests write with ``engine_module`` (conftest.py).

A module's source, not a class: the oracle imports the engine by its ``module:factory``
spec, in-process or in a child process, as it would a user's engine.
"""

from __future__ import annotations


def lacking(*capabilities: str) -> str:
    """The TI4 reference engine declaring every capability but these (so its scenarios that
    need them are ``unsupported``, while it still plays everything else)."""
    return f'''
from oracle.games.ti4.engine import ReferenceEngine

class Lacking(ReferenceEngine):
    def capabilities(self):
        return [c for c in super().capabilities() if c not in {set(capabilities)!r}]

def factory():
    return Lacking()
'''


def refusing_key(key: str) -> str:
    """The EU reference engine behind an adapter that answers setup ``unsupported`` when the
    state has top-level key ``key`` (as an adapter that refuses keys it does not know)."""
    return f'''
from oracle.games.eu_pop.engine import ReferenceEngine

class Refusing(ReferenceEngine):
    def handle(self, request):
        if request.get("op") == "setup" and {key!r} in request["state"]:
            return {{"reply": "unsupported", "reason": "unknown state key {key}"}}
        return super().handle(request)

def factory():
    return Refusing()
'''
