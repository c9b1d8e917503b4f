"""The TI4 mutants are enough, and different: three or more per testable id, none a copy.

Why: one mutant per rule shows that one scenario can fail; engines written elsewhere break a
rule in several ways (left out, reported but not done, the wrong count, moment or scope, a
change left after a rejection), and each way needs a scenario that sees it. Whether each is
flagged on exactly its ids is the kill matrix's business (``tests/test_selftest.py``).
"""

from __future__ import annotations

from collections import defaultdict

from oracle.games.ti4.mutants import ALL, MUTANTS
from oracle.suite.games import discover_games


def test_every_testable_ti4_id_has_three_distinct_mutants():
    catalog = discover_games()["ti4"].catalog
    testable = {r.id for r in catalog.rules if r.testable}
    by_id: dict[str, list] = defaultdict(list)
    for m in ALL:
        for rule in m.breaks:
            by_id[rule].append(m)
    assert set(by_id) == testable, set(by_id) ^ testable
    for rule, mutants in by_id.items():
        assert len(mutants) >= 3, (rule, [m.name for m in mutants])
        # Distinct: no two replace the same methods with the same functions or values.
        shapes = {tuple(sorted((k, _shape(v)) for k, v in m.overrides.items()))
                  for m in mutants}
        assert len(shapes) == len(mutants), (rule, [m.name for m in mutants])


def _shape(value: object) -> object:
    """What an override does: a value, or a function's code with what its closure holds."""
    code = getattr(value, "__code__", None)
    if code is None:
        return repr(value)
    cells = tuple(repr(c.cell_contents) for c in getattr(value, "__closure__", None) or ())
    return (code.co_filename, code.co_firstlineno, cells)


def test_mutant_names_and_changes_are_unique_and_reachable_by_name():
    assert len({m.name for m in ALL}) == len(ALL)
    assert len({m.change for m in ALL}) == len(ALL)
    assert all(getattr(MUTANTS, m.name) is m for m in ALL)
