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
