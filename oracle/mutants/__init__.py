"""Mutants: small declared variations of a reference engine, each breaking named rules, and
the kill matrix that proves the suite fails on each (``rules-oracle selftest``).

- ``Mutant``, ``game_mutants`` and ``find_mutant`` (defined in ``oracle.engines.mutant``,
  where the ``mutant:NAME`` engine kind also needs them; this is the name a game's mutants
  module imports them by);
- ``harness``: scenarios run in-process, through the same steps, seeds and verdicts as a
  run, only where a mutant can bite;
- ``selftest``: the kill matrix.
"""

from oracle.engines.mutant import Mutant, find_mutant, game_mutants

__all__ = ["Mutant", "find_mutant", "game_mutants"]
