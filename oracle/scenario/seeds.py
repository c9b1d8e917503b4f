"""A scenario's seed, from the run's ``--seed``, its game and its test name.

Its own module, below everything that runs scenarios, because a pytest run
(``oracle.plugin``), the kill matrix's harness (``oracle.mutants.harness``) and the
capability probes (``oracle.probe``) must give a scenario the same seed, so that a failure
one of them shows reproduces in the others.
"""

from __future__ import annotations

import zlib


def scenario_seed(base: int, game: str, test_name: str) -> int:
    """A per-scenario seed: stable across runs and xdist workers, changed by --seed."""
    return zlib.crc32(f"{base}:{game}:{test_name}".encode())
