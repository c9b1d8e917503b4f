"""Exploration: Hypothesis drives an engine through random legal and illegal moves.

Hand-written scenarios check the cases somebody thought of. Exploration
checks invariants (each tied to rule ids) after every move of random games,
and when one breaks, Hypothesis shrinks the game to a minimal one and the
oracle writes it out as a scenario in the project's own DSL.

The moves *are* step texts: a state is built by running Given steps and a
move is a When step, through the same step definitions the feature files
use. So a counterexample is already Gherkin, and pasting it into a feature
file reproduces it. Its Then lines come from replaying the same steps on the
game's reference engine (what the rules say should be seen), and are kept
only if they fail on the engine under test.

A game opts in with ``explore: package.module:MODEL`` in its ``game.yaml``;
the model (see ``ExplorationModel``) says how to build states and moves.
The parts: ``model`` (invariants, the explored game, steps run by text), ``search`` (the
one Hypothesis test that plays every game, and its tallies), ``render`` (findings as
scenarios); this module runs a search to the end and says, per invariant, what it found and
how often it was exercised.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from hypothesis import HealthCheck, Phase, settings

from oracle.engines import EngineClient
from oracle.explore.model import (
    HELD,
    REJECTED_LINE,
    Check,
    ExplorationModel,
    Explored,
    Held,
    Invariant,
    Supported,
    answer_rules_of,
    move_rules_of,
    rejection_checked,
    run_step,
)
from oracle.explore.render import Finding, render_fault, render_finding
from oracle.explore.search import Broken, Faulted, Search, run_search
from oracle.scenario.outcomes import EngineLacks
from oracle.suite.games import Game
from oracle.suite.vocabulary import vocabulary_for

__all__ = [
    "HELD",
    "REJECTED_LINE",
    "Check",
    "ExplorationModel",
    "ExploreResult",
    "Explored",
    "Finding",
    "Held",
    "Invariant",
    "Supported",
    "default_budget",
    "explore",
    "load_model",
    "rejection_checked",
    "run_step",
]


def load_model(game: Game) -> ExplorationModel | None:
    if not game.explore:
        return None
    module, _, attr = game.explore.partition(":")
    return getattr(importlib.import_module(module), attr or "MODEL")


@dataclass
class ExploreResult:
    """What exploring one game found: per invariant, a finding or nothing and how many
    states exercised it; the engine's faults, each with its shrunk game; and the pace."""

    game: Game
    invariants: list[Invariant]
    findings: dict[str, Finding | None]
    exercised: dict[str, int]
    errors: list[Finding]
    moves: int
    seconds: float
    games: int = 0
    #: Per missing capability: moves and setups skipped because the engine lacks it.
    skipped_moves: Counter[str] | None = None
    skipped_setups: Counter[str] | None = None
    #: Games ended early by a slip already reported (a fault, a leaking rejection).
    games_cut: int = 0

    def status(self, name: str) -> str:
        """``fail``, ``pass`` (held over at least one state that exercised it) or
        ``uncovered`` (no state exercised it: nothing was tested)."""
        if self.findings.get(name) is not None:
            return "fail"
        return "pass" if self.exercised.get(name) else "uncovered"

    def skipped(self) -> str:
        """What the engine's missing capabilities kept out of the search, in words."""
        parts = [f"{n} move(s) needing {c}" for c, n in (self.skipped_moves or {}).items()]
        parts += [f"{n} setup(s) needing {c}" for c, n in (self.skipped_setups or {}).items()]
        return "; ".join(parts)


def explore(game: Game, client: EngineClient, seed: int, budget: settings,
            only: set[str] | None = None,
            progress: Callable[[int, int, str], None] | None = None) -> ExploreResult:
    """Search a game's invariants on an engine; shrink and render what breaks.

    ``only`` limits the search to the invariants of those names. The budget's
    ``max_examples`` is the number of games per search; a search runs again (on the same
    games, derandomised) without what it found, until it finds nothing new. ``progress`` is
    told (games done, games in this search, what is being searched) now and then.
    """
    with _private_hypothesis_home(), _fewer_collections():
        return _explore(game, client, seed, budget, only, progress)


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """The cyclic garbage collector runs less often while exploring.

    A move allocates thousands of short-lived containers (views, requests, step arguments),
    none of them in a cycle: with Python's default threshold the collector ran every 700 of
    them, found next to nothing, and took about a fifth of the search's time. Memory is
    still freed as usual (by reference counting); only the search for cycles waits longer.
    """
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 20_000), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


@contextlib.contextmanager
def _private_hypothesis_home() -> Iterator[None]:
    """Exploration reads and writes nothing of the engine developer's tree.

    Hypothesis keeps a cache (``.hypothesis/``) in the current directory even without an
    example database: the constants it collects from the source of every local module
    loaded, which it then mixes into the data it draws. Both are turned off while exploring:
    the home folder is a temporary one, removed after, and no local constant is drawn, so
    the games explored depend on the seed and the budget only, not on which modules
    happened to be imported (another engine, another test, an edit anywhere).
    """
    from hypothesis import configuration

    previous = getattr(configuration, "__hypothesis_home_directory", None)
    with tempfile.TemporaryDirectory(prefix="rules-oracle-hypothesis-") as home, \
            _no_local_constants():
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(previous)


@contextlib.contextmanager
def _no_local_constants() -> Iterator[None]:
    """Hypothesis draws constants found in local source modules (``providers``, an
    internal module: if it moves, exploration just keeps Hypothesis's default)."""
    try:
        from hypothesis.internal.conjecture import providers

        original, cache = providers._get_local_constants, providers.CONSTANTS_CACHE
        empty = type(providers._local_constants)()
    except (ImportError, AttributeError):  # pragma: no cover - another Hypothesis
        yield
        return
    cache.cache.clear()
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.cache.clear()


def _explore(game: Game, client: EngineClient, seed: int, budget: settings,
             only: set[str] | None,
             progress: Callable[[int, int, str], None] | None) -> ExploreResult:
    model = load_model(game)
    if model is None:
        raise EngineLacks(f"{game.id} has no exploration model")
    # The game's steps are loaded with its model, before the search's clock starts: a run
    # has imported them already to collect its scenarios, and the pace is the search's.
    vocabulary_for(game)
    wanted = [i for i in model.invariants() if only is None or i.name in only]
    search = Search(game, model, client, seed, list(wanted), progress=progress,
                    budget=budget.max_examples)
    findings: dict[str, Finding | None] = {i.name: None for i in wanted}
    errors: list[Finding] = []
    start = time.perf_counter()
    while search.active:
        slips = run_search(search, budget)
        if not slips:
            break
        found = False
        for slip in slips:
            if isinstance(slip, Broken) and slip.invariant in search.active:
                findings[slip.invariant.name] = render_finding(game, slip, seed, client)
                search.active.remove(slip.invariant)
                found = True
            elif isinstance(slip, Faulted) and not search.faults_end_games:
                errors.append(render_fault(game, slip, seed, client, wanted,
                                           move_rules_of(model), answer_rules_of(model)))
                search.faults_end_games = found = True
        if not found:  # cannot happen (a reported slip is not raised again); be sure
            break
    return ExploreResult(game, wanted, findings, {i.name: search.exercised[i.name] for i in wanted},
                         errors, search.moves, time.perf_counter() - start, search.games,
                         search.skipped_moves, search.skipped_setups, search.games_cut)


# Two profiles. Neither has a deadline (engines may be slow processes) nor an
# example database (nothing is written into the engine developer's tree), nor
# Hypothesis's "explain" phase (the finding is rendered as Gherkin here; explaining
# a shrunk game replays it many more times than shrinking did).
# "ci" is derandomised: the same engine and budget explore the same games, so a
# CI run is reproducible; "dev" draws new games each run, to look further.
_COMMON = {"stateful_step_count": 50, "deadline": None, "database": None,
           "phases": [p for p in Phase if p is not Phase.explain],
           "print_blob": False, "suppress_health_check": list(HealthCheck)}
settings.register_profile("rules-oracle-ci", derandomize=True, **_COMMON)
settings.register_profile("rules-oracle-dev", derandomize=False, **_COMMON)


def default_budget(max_examples: int = 60, profile: str | None = None) -> settings:
    """Exploration settings: a profile with a budget of games per search.

    The profile is "ci" (reproducible) unless ``profile`` or the environment
    variable ``RULES_ORACLE_EXPLORE_PROFILE=dev`` asks for new games each run.
    """
    name = profile or os.environ.get("RULES_ORACLE_EXPLORE_PROFILE", "ci")
    return settings(settings.get_profile(f"rules-oracle-{name}"), max_examples=max_examples)
