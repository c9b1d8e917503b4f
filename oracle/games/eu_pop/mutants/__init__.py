"""Deliberately broken EU engines (see ``oracle.mutants``): the slips real engines make.

Every testable EU rule id has at least three mutants, each going wrong another way: the rule
left out, a success reported with nothing changed, the wrong count, the wrong moment, the
wrong scope (of phases, players, viewers or cards), a change left after a rejection. A mutant
declares exactly the ids the report must flag; the rules whose scenarios only stand on the
broken one are reported blocked, not flagged, and are not declared. ``rules-oracle selftest``
checks that the report flags exactly the declared ids.

``first`` holds the first set, ``hands`` and ``tables`` the slips of engines written by other
people (plays, costs, characters, hands, decks and Step C; Display Cards, Battles, Reactions
and Covert Actions). Use one as an engine:
``--engine oracle.games.eu_pop.mutants:MUTANTS.costs_go_negative``.
"""

from __future__ import annotations

from types import SimpleNamespace

from oracle.games.eu_pop.mutants.first import FIRST
from oracle.games.eu_pop.mutants.hands import HANDS
from oracle.games.eu_pop.mutants.tables import TABLES
from oracle.mutants import Mutant

ALL: tuple[Mutant, ...] = (*FIRST, *HANDS, *TABLES)

MUTANTS = SimpleNamespace(**{m.name: m for m in ALL})
"""Each mutant by name, for ``--engine oracle.games.eu_pop.mutants:MUTANTS.NAME``."""
