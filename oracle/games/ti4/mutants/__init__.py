"""Deliberately broken TI4 engines (see ``oracle.mutants``): the slips real engines make.

Every testable TI4 rule id has at least three behaviourally distinct mutants here, written
the way engines developed elsewhere go wrong: the rule left out, a success reported with the
state unchanged, the wrong count, the wrong moment, the wrong scope (of phases, sources,
viewers, cards or targets), a change left behind after a rejection. A mutant declares the ids
it breaks; the scenarios of other rules that stand on the broken behaviour are reported
*blocked* by it, not failed (``oracle.scenario.diagnosis``), so they are not declared.
``rules-oracle selftest`` checks that the report flags exactly the declared ids.

Split by topic: ``drawing`` (2.1-2.3, notes 1, 4, 5), ``limits`` (2.4, 2.4.1, note 10),
``views`` (2.5, notes 2, 3), ``playing`` (2.6-2.8, note 6), ``targets`` (notes 7-9).

Use one as an engine: ``--engine mutant:ti4/no_hand_limit`` or
``--engine oracle.games.ti4.mutants:MUTANTS.no_hand_limit``.
"""

from __future__ import annotations

from types import SimpleNamespace

from oracle.games.ti4.mutants import drawing, limits, playing, targets, views
from oracle.games.ti4.mutants.base import mutant
from oracle.mutants import Mutant

__all__ = ["ALL", "MUTANTS", "mutant"]

ALL: tuple[Mutant, ...] = (
    *drawing.MUTANTS, *limits.MUTANTS, *views.MUTANTS, *playing.MUTANTS, *targets.MUTANTS,
)

MUTANTS = SimpleNamespace(**{m.name: m for m in ALL})
"""Each mutant by name, for ``--engine oracle.games.ti4.mutants:MUTANTS.NAME``."""
