"""How an EU mutant is made: the reference engine with a few methods replaced.

Shared by ``first``, ``hands`` and ``tables``, with ``oracle.games.kit.slips`` (``returns``,
the transaction without its undo), which the TI4 mutants use too. ``KEEPS_CHANGES`` is for
the slip the protocol forbids most plainly: a rejected action that still changed the game.
The reference engine undoes a rejected action (``oracle.games.kit.engine``: every act and
choose is a transaction); an engine that changes the table before it checks, and does not
undo, leaves the change behind.
"""

from __future__ import annotations

from typing import Any

from oracle.games.eu_pop.engine import ReferenceEngine
from oracle.games.kit.slips import leaky_transaction
from oracle.mutants import Mutant

Ref = ReferenceEngine


def mutant(name: str, breaks: tuple[str, ...], change: str, **overrides: Any) -> Mutant:
    """A mutant of the EU reference engine breaking the rules ``breaks`` (ids without
    ``eu-pop:``)."""
    return Mutant(name, tuple(f"eu-pop:{b}" for b in breaks), change, Ref, overrides)


#: Overrides that make a rejected action keep whatever it changed before it was rejected.
KEEPS_CHANGES: dict[str, Any] = {"_transaction": leaky_transaction}
