"""Exploration: Hypothesis drives an engine through random legal and illegal moves.

Hand-written scenarios check the cases somebody thought of. Exploration
checks invariants (each tied to rule ids) after every move of random games,
and when one breaks, the game is shrunk to a minimal one (by ``shrink``, within a
budget) and the oracle writes it out as a scenario in the project's own DSL.

The moves *are* step texts: a state is built by running Given steps and a
move is a When step, through the same step definitions the feature files
use. So a counterexample is already Gherkin, and pasting it into a feature
file reproduces it. Its Then lines come from replaying the same steps on the
game's reference engine (what the rules say should be seen), and are kept
only if they fail on the engine under test.

A game opts in with ``explore: package.module:MODEL`` in its ``game.yaml``;
the model (see ``ExplorationModel``) says how to build states and moves.
The parts: ``model`` (invariants, the explored game, steps run by text), ``search`` (the
one Hypothesis test that plays every game, and its tallies), ``shrink`` (a found game made
minimal, within a budget), ``render`` (findings as scenarios); this module runs a search to
the end and says, per invariant, what it found and how often it was exercised.
``differential`` plays the same games on two engines and compares them (``compare``: what
is compared, and what the rules leave to the engine); ``rules-oracle explore`` runs it.
"""

from __future__ import annotations

import importlib
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

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
from oracle.explore.search import (
    Broken,
    Faulted,
    Search,
    Slip,
    fewer_collections,
    private_hypothesis_home,
    run_search,
)
from oracle.explore.shrink import DEFAULT_SHRINK, ShrinkBudget, Shrunk, shrink
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
    #: What shrinking each slip cost (``oracle.explore.shrink``), in the order found.
    shrinks: list[Shrunk] = field(default_factory=list)

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
            progress: Callable[[int, int, str], None] | None = None,
            shrink_budget: ShrinkBudget = DEFAULT_SHRINK) -> ExploreResult:
    """Search a game's invariants on an engine; shrink and render what breaks.

    ``only`` limits the search to the invariants of those names. The budget's
    ``max_examples`` is the number of games per search; a search runs again (on the same
    games, derandomised) without what it found, until it finds nothing new. ``progress`` is
    told (games done, games in this search, what is being searched) now and then.
    """
    with private_hypothesis_home(), fewer_collections():
        return _explore(game, client, seed, budget, only, progress, shrink_budget)


def _explore(game: Game, client: EngineClient, seed: int, budget: settings,
             only: set[str] | None,
             progress: Callable[[int, int, str], None] | None,
             shrink_budget: ShrinkBudget) -> ExploreResult:
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
    shrinking = shrink_budget if Phase.shrink in budget.phases else ShrinkBudget(replays=0)
    found_by = settings(budget, phases=[p for p in budget.phases
                                        if p not in (Phase.shrink, Phase.explain)])
    shrinks: list[Shrunk] = []
    while search.active:
        slips = run_search(search, found_by)
        if not slips:
            break
        found = False
        for slip in slips:
            if isinstance(slip, Broken) and slip.invariant in search.active:
                slip = _shrunk(search, slip, shrinking, shrinks)
                findings[slip.invariant.name] = render_finding(game, slip, seed, client)
                search.active.remove(slip.invariant)
                found = True
            elif isinstance(slip, Faulted) and not search.faults_end_games:
                slip = _shrunk(search, slip, shrinking, shrinks)
                errors.append(render_fault(game, slip, seed, client, wanted,
                                           move_rules_of(model), answer_rules_of(model)))
                search.faults_end_games = found = True
        if not found:  # cannot happen (a reported slip is not raised again); be sure
            break
    return ExploreResult(game, wanted, findings, {i.name: search.exercised[i.name] for i in wanted},
                         errors, search.moves, time.perf_counter() - start, search.games,
                         search.skipped_moves, search.skipped_setups, search.games_cut,
                         shrinks)


def _shrunk(search: Search, slip: Slip, budget: ShrinkBudget, shrinks: list[Shrunk]) -> Slip:
    """The slip as the smallest game that shows it again (``oracle.explore.shrink``): the
    same invariant broken (only it is checked while shrinking), or a fault again."""
    if budget.off:
        return slip
    invariant = getattr(slip, "invariant", None)
    searched = [invariant] if isinstance(slip, Broken) else list(search.active)
    last: list[Slip] = []

    def attempt(given: list[str], moves: list[str]) -> list[str] | None:
        again = search.replay(given, moves, searched)
        if type(again) is not type(slip) or getattr(again, "invariant", None) is not invariant:
            return None
        last[:] = [again]
        return [line.removeprefix("When ") for line in again.lines if line.startswith("When ")]

    shrunk = shrink(slip.given, [line.removeprefix("When ") for line in slip.lines
                                 if line.startswith("When ")], attempt, budget)
    shrinks.append(shrunk)
    return last[0] if last else slip


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
