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
"""

from __future__ import annotations

import contextlib
import importlib
import os
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hypothesis import HealthCheck, Phase, reject, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from oracle.engines import ConnectOptions, EngineClient, EngineSpec, connect
from oracle.protocol import REFEREE, Rejected
from oracle.scenario.outcomes import EngineFault, EngineLacks, RuleViolation, ScenarioError
from oracle.scenario.world import ScenarioWorld
from oracle.suite.games import Game
from oracle.suite.vocabulary import vocabulary_for

View = Mapping[str, Any]
#: The line that follows a move the engine rejected.
REJECTED_LINE = "Then the action is rejected"


# -- what a game provides --------------------------------------------------------------


@dataclass(frozen=True)
class Invariant:
    """A property every state must have, tied to the rules it follows from.

    ``check`` gets the exploration context and returns a message when the
    property is broken. ``then`` renders, from the reference engine's views,
    the Then lines that state what the rules require here.
    """

    name: str
    rules: tuple[str, ...]
    check: Callable[[Explored], str | None]
    then: Callable[[Explored, ScenarioWorld], list[str]]
    #: This invariant owns what the world itself catches during a move (a rejected
    #: action that changed the game); its finding cites the rule the engine cited.
    catches_violations: bool = False


class ExplorationModel(Protocol):
    """What a game tells the explorer: how to set up, what to try, what must hold."""

    def setups(self) -> st.SearchStrategy[list[str]]:
        """Given step texts that build a starting state."""
        ...

    def moves(self, explored: Explored) -> list[str]:
        """When step texts to try next (legal or not), simplest first (Hypothesis shrinks
        towards the start of the list)."""
        ...

    def invariants(self) -> Sequence[Invariant]:
        ...


# -- running steps by their text -----------------------------------------------------------


def run_step(world: ScenarioWorld, kind: str, text: str) -> None:
    """Run one step text through the game's step definitions, exactly as a feature file
    would (``oracle.suite.vocabulary``)."""
    vocabulary_for(world.game).run(world, kind, text)


# -- one explored game ------------------------------------------------------------------------


@dataclass
class Explored:
    """The game being explored: its steps so far, the engine's views, what was revealed."""

    world: ScenarioWorld
    given: list[str]
    lines: list[str] = field(default_factory=list)  # When/Then lines after the Givens
    moves: int = 0
    last_rejected: bool = False
    before: View | None = None  # the referee's view before the last move
    _views: dict[str | None, View] = field(default_factory=dict)

    def view(self, viewer: str | None = REFEREE) -> View:
        """What ``viewer`` sees now (asked once per move: invariants look a lot)."""
        if viewer not in self._views:
            self._views[viewer] = self.world.view(viewer)
        return self._views[viewer]

    def moved(self) -> None:
        self.before = self._views.get(REFEREE)
        self._views.clear()

    def hand(self, owner: str, viewer: str | None) -> tuple[int, list[str]]:
        """(count, visible names) of a hand as ``viewer`` is shown it."""
        hand = self.view(viewer)["players"][owner]["hand"]
        if hand.get("count") is None:
            raise RuleViolation(f"{viewer or 'a spectator'} is not shown how many cards "
                                f"{owner} holds")
        return int(hand["count"]), list(hand.get("cards") or [])

    def players(self) -> list[str]:
        return [p["name"] for p in self.world.state["players"]]

    def hand_given(self, player: str) -> bool:
        return any(p["name"] == player and "hand" in p for p in self.world.state["players"])


@dataclass
class Finding:
    """A broken invariant, as a ready-to-paste scenario."""

    invariant: Invariant
    rules: tuple[str, ...]
    message: str
    scenario: str
    confirmed: bool  # the Then lines pass on the reference engine and fail on the engine

    def feature(self, game: Game) -> str:
        return (f"Feature: Explored counterexamples for {game.title}\n"
                f"  Found by `rules-oracle run --explore`; shrunk by Hypothesis.\n\n"
                + textwrap.indent(self.scenario, "  ") + "\n")


class Broken(Exception):
    """An invariant failed; carries the finding's raw material out of Hypothesis."""

    def __init__(self, invariant: Invariant, message: str, given: list[str], lines: list[str],
                 rules: tuple[str, ...] | None = None) -> None:
        super().__init__(f"{invariant.name}: {message}")
        self.invariant, self.message, self.given, self.lines = invariant, message, given, lines
        self.rules = rules or invariant.rules


def machine_for(model: ExplorationModel, target: Invariant,
                new_world: Callable[[], ScenarioWorld],
                count: Callable[[], None]) -> type[RuleBasedStateMachine]:
    """A state machine class exploring one invariant (a factory: Hypothesis makes instances)."""

    class Exploration(RuleBasedStateMachine):
        explored: Explored | None = None

        @initialize(given=model.setups())
        def set_up(self, given: list[str]) -> None:
            world = new_world()
            for text in given:
                run_step(world, "given", text)
            world.start()
            self.explored = Explored(world, list(given))
            self._check()

        @rule(data=st.data())
        def move(self, data: st.DataObject) -> None:
            assert self.explored is not None
            explored = self.explored
            candidates = model.moves(explored)
            text = candidates[data.draw(st.integers(0, len(candidates) - 1), label="move")]
            explored.view()  # remember the state before the move
            explored.lines.append(f"When {text}")
            explored.moves += 1
            explored.moved()
            count()
            try:
                run_step(explored.world, "when", text)
            except EngineLacks:  # a move this engine does not support: try another
                explored.lines.pop()
                return
            except RuleViolation as exc:  # e.g. a rejection that changed the game
                if not target.catches_violations:
                    reject()  # another invariant's search owns this; drop the example
                last = explored.world.last
                cited = last.reply.rule if last and isinstance(last.reply, Rejected) else None
                raise Broken(target, str(exc), explored.given, explored.lines,
                             (cited,) if cited else None) from None
            explored.last_rejected = isinstance(
                explored.world.last.reply if explored.world.last else None, Rejected)
            if explored.last_rejected:
                explored.world.expect_rejected()
                explored.lines.append(REJECTED_LINE)
            self._check()

        @invariant()
        def holds(self) -> None:
            self._check()

        def _check(self) -> None:
            if self.explored is None:
                return
            try:
                message = target.check(self.explored)
            except RuleViolation as exc:  # the view itself breaks the rule
                message = str(exc)
            if message:
                raise Broken(target, message, self.explored.given, self.explored.lines)

    return Exploration


def load_model(game: Game) -> ExplorationModel | None:
    if not game.explore:
        return None
    module, _, attr = game.explore.partition(":")
    return getattr(importlib.import_module(module), attr or "MODEL")


@dataclass
class ExploreResult:
    """What exploring one game found: per invariant, a finding or nothing; and the pace."""

    game: Game
    findings: dict[str, Finding | None]
    errors: dict[str, str]
    moves: int
    seconds: float


def explore(game: Game, client: EngineClient, seed: int, budget: settings,
            only: set[str] | None = None,
            progress: Callable[[int, int, str], None] | None = None) -> ExploreResult:
    """Search each invariant of a game's model on an engine; shrink and render what breaks.

    ``only`` limits the search to the invariants of those names; ``progress`` is told
    (done, total, name) before each invariant is searched.
    """
    with _private_hypothesis_home():
        return _explore(game, client, seed, budget, only, progress)


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
    moves = 0

    def count() -> None:
        nonlocal moves
        moves += 1

    def new_world() -> ScenarioWorld:
        return ScenarioWorld(game, client, seed)

    findings: dict[str, Finding | None] = {}
    errors: dict[str, str] = {}
    start = time.perf_counter()
    chosen = [i for i in model.invariants() if only is None or i.name in only]
    for done, inv in enumerate(chosen):
        if progress:
            progress(done, len(chosen), inv.name)
        machine = machine_for(model, inv, new_world, count)
        try:
            run_state_machine_as_test(machine, settings=budget)
            findings[inv.name] = None
        except Broken as broken:
            findings[inv.name] = render_finding(game, broken, seed, client)
        except EngineLacks:
            findings[inv.name] = None
        except (EngineFault, ScenarioError) as exc:
            errors[inv.name] = str(exc)
    return ExploreResult(game, findings, errors, moves, time.perf_counter() - start)


def _reference_world(game: Game, seed: int) -> ScenarioWorld:
    if not game.reference_engine:
        raise EngineLacks(f"{game.id} has no reference engine to say what should be seen")
    client = connect(EngineSpec("reference", game.id), {game.id: game},
                     ConnectOptions(guard=False))
    return ScenarioWorld(game, client, seed)


def _replay(world: ScenarioWorld, given: list[str], lines: list[str]) -> None:
    for text in given:
        run_step(world, "given", text)
    world.start()
    for line in lines:
        kind, _, text = line.partition(" ")
        if kind == "When":
            run_step(world, "when", text)
        else:
            run_step(world, "then", text)


def _reconcile(world: ScenarioWorld, given: list[str],
               lines: list[str]) -> tuple[list[str], list[str]]:
    """Replay on the reference engine up to the first move it judges otherwise than the
    engine did: the lines up to there, and the Then lines the rules require at once.

    A move the engine allowed and the rules forbid ends the scenario with "Then the action
    is rejected"; one the engine rejected and the rules allow ends it with that move (its
    Then lines say what should be seen after it). Either way the rest of the game no longer
    replays on the reference engine, and is not needed to show the slip.
    """
    for text in given:
        run_step(world, "given", text)
    world.start()
    kept: list[str] = []
    for i, line in enumerate(lines):
        kind, _, text = line.partition(" ")
        kept.append(line)
        if kind != "When":
            run_step(world, "then", text)
            continue
        last = world.last
        run_step(world, "when", text)
        rejected = world.last is not last and isinstance(
            world.last.reply if world.last else None, Rejected)
        said = lines[i + 1: i + 2] == [REJECTED_LINE]
        if rejected and not said:
            world.expect_rejected()
            return kept, [REJECTED_LINE.removeprefix("Then ")]
        if said and not rejected:
            return kept, []
    return kept, []


def _fails(world: ScenarioWorld, then: str) -> bool:
    try:
        run_step(world, "then", then)
    except (RuleViolation, EngineFault):
        return True
    return False


def render_finding(game: Game, broken: Broken, seed: int, client: EngineClient) -> Finding:
    """The shrunk counterexample as a scenario whose Then lines say what the rules require."""
    inv = broken.invariant
    then: list[str] = []
    confirmed = False
    try:
        reference = _reference_world(game, seed)
        lines, required = _reconcile(reference, broken.given, broken.lines)
        candidates = required + inv.then(Explored(reference, broken.given, lines), reference)
        engine = ScenarioWorld(game, client, seed)
        _replay(engine, broken.given, lines)
        then = [t for t in candidates if _fails(engine, t)]
        # Confirmed: the whole scenario passes on a fresh reference engine, and fails here.
        again = _reference_world(game, seed)
        _replay(again, broken.given, lines)
        confirmed = bool(then) and not any(_fails(again, t) for t in then)
    except (RuleViolation, EngineFault, EngineLacks, ScenarioError) as exc:
        lines = broken.lines
        then = [f"# could not derive the expected outcome: {exc}"]
    given = [*broken.given, f"the shuffle seed is {seed}"]
    steps = _keywords([("Given", g) for g in given]
                      + [tuple(line.split(" ", 1)) for line in lines]  # type: ignore[misc]
                      + [("Then", t) for t in then])
    tags = " ".join(f"@{r}" for r in broken.rules)
    name = f"Explored: {inv.name} (seed {seed}, {len(lines)} step(s))"
    body = "\n".join(f"  {s}" for s in steps)
    return Finding(inv, broken.rules, broken.message, f"{tags}\nScenario: {name}\n{body}",
                   confirmed)


def _keywords(steps: list[tuple[str, str]]) -> list[str]:
    """Gherkin style: a step of the same kind as the one before it starts with And."""
    out, previous = [], ""
    for kind, text in steps:
        out.append(f"{'And' if kind == previous else kind} {text}")
        previous = kind
    return out


# Two profiles. Neither has a deadline (engines may be slow processes) nor an
# example database (nothing is written into the engine developer's tree), nor
# Hypothesis's "explain" phase (the finding is rendered as Gherkin here; explaining
# a shrunk game replays it many more times than shrinking did).
# "ci" is derandomised: the same engine and budget explore the same games, so a
# CI run is reproducible; "dev" draws new games each run, to look further.
_COMMON = {"stateful_step_count": 12, "deadline": None, "database": None,
           "phases": [p for p in Phase if p is not Phase.explain],
           "print_blob": False, "suppress_health_check": list(HealthCheck)}
settings.register_profile("rules-oracle-ci", derandomize=True, **_COMMON)
settings.register_profile("rules-oracle-dev", derandomize=False, **_COMMON)


def default_budget(max_examples: int = 60, profile: str | None = None) -> settings:
    """Exploration settings: a profile with a budget of games per invariant.

    The profile is "ci" (reproducible) unless ``profile`` or the environment
    variable ``RULES_ORACLE_EXPLORE_PROFILE=dev`` asks for new games each run.
    """
    name = profile or os.environ.get("RULES_ORACLE_EXPLORE_PROFILE", "ci")
    return settings(settings.get_profile(f"rules-oracle-{name}"), max_examples=max_examples)
