"""What the TI4 mutant modules share: the constructor and the small helpers they reuse.

Why apart: every topic module builds its mutants the same way (the reference engine with a
few methods replaced). The slips every game's mutants share (a method that ignores its
arguments, a rejection that leaves a half-done change behind) are ``oracle.games.kit.slips``.
"""

from __future__ import annotations

from typing import Any

from oracle.games.ti4.engine import ReferenceEngine as Ref
from oracle.mutants import Mutant


def mutant(name: str, breaks: tuple[str, ...], change: str, **overrides: Any) -> Mutant:
    """A reference engine with ``overrides``, declared to break the TI4 ids ``breaks``."""
    return Mutant(name, tuple(f"ti4:{b}" for b in breaks), change, Ref, overrides)
