"""How to explore EU: The Price of Power action cards: random tables, random moves, and what
must always hold.

States and moves are step texts of the project's own DSL (see ``oracle.explore``), so every
counterexample is a scenario a committee can read. The tables are three players with hands
from the three decks, small decks and discard piles (so that decks run out and are rebuilt),
Monarch Power, cost reductions, Display Cards in play and sometimes a Battle; the moves are
draws from each deck, cards played for their Action or to appoint, Actions taken on Display
Cards, Counterespionage cancelling Covert Actions, Phase 5 Step C and its decisions, and a
few illegal moves, since a rejected action must change nothing.

Each invariant is tied to the catalog ids (features/eu-pop/catalog.yaml) it follows from, and
each checks only what its own rule says: where two rules meet in one observation (a cost that
goes below 0 is also a wrong cost paid), the checks leave the case to the rule that owns it,
so that a finding cites the rule the engine broke.

The parts: ``tables`` (players, card facts, When lines, setups), ``views`` (reading views and
lines), ``model`` (``EUModel``: the moves), and the invariants by topic: ``costs``, ``piles``,
``displays``; this package lists the invariants with the rule ids they follow from.
"""

from __future__ import annotations

from oracle.games.eu_pop.explore.invariants import INVARIANTS
from oracle.games.eu_pop.explore.model import EUModel

__all__ = ["INVARIANTS", "MODEL", "EUModel"]

MODEL = EUModel()
