"""Mutants: small declared variations of a reference engine, each breaking named rules.

A conformance suite is only worth trusting if it fails on engines that break
the rules. A mutant is a name, the rule ids it breaks, the change in words,
and the few methods of a game's reference engine it overrides: the kind of
slip a real engine makes. ``rules-oracle selftest`` runs the suite against
every mutant of every game and checks that the report flags exactly the
declared ids. A game lists its mutants in ``game.yaml`` (``mutants:``).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from oracle.suite.catalog import CatalogFileError
from oracle.suite.games import Game


@dataclass(frozen=True)
class Mutant:
    """A reference engine with a few methods replaced, breaking the rules in ``breaks``."""

    name: str
    breaks: tuple[str, ...]
    change: str
    base: type
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def engine_class(self) -> type:
        return _engine_class(self.name, self.base, tuple(self.overrides.items()))

    def __call__(self) -> Any:
        return self.engine_class()()


def game_mutants(game: Game) -> tuple[Mutant, ...]:
    """The mutants a game declares in its manifest (``mutants: package.module:ATTR``)."""
    if not game.mutants:
        return ()
    module, _, attr = game.mutants.partition(":")
    try:
        return tuple(getattr(importlib.import_module(module), attr or "ALL"))
    except (ImportError, AttributeError) as exc:
        raise CatalogFileError(
            f"{game.folder / 'game.yaml'}: 'mutants: {game.mutants}' cannot be loaded ({exc}); "
            "name a module attribute holding a tuple of oracle.mutants.Mutant"
        ) from exc


def find_mutant(games: Iterable[Game], name: str) -> tuple[Game, Mutant]:
    """A mutant by ``NAME`` or ``GAME/NAME``; KeyError saying what is known or ambiguous."""
    wanted_game, _, wanted = name.rpartition("/")
    hits, known = [], []
    for game in games:
        for mutant in game_mutants(game):
            known.append(f"{game.id}/{mutant.name}")
            if mutant.name == wanted and wanted_game in ("", game.id):
                hits.append((game, mutant))
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise KeyError(f"mutant name {name!r} is ambiguous; write one of "
                       f"{', '.join(f'mutant:{g.id}/{m.name}' for g, m in hits)}")
    raise KeyError(f"no mutant named {name!r}; known: {', '.join(known) or 'none'}")


@functools.lru_cache(maxsize=1024)
def _engine_class(name: str, base: type, overrides: tuple[tuple[str, Any], ...]) -> type:
    """A mutant's engine class, made once (the kill matrix makes an engine per scenario)."""
    missing = [n for n, _ in overrides if not hasattr(base, n)]
    if missing:  # a renamed engine method would silently make the mutant a no-op
        raise AttributeError(f"mutant {name}: {base.__name__} has no "
                             f"{', '.join(missing)} to override")
    return type(f"Mutant_{name}", (base,), dict(overrides))
