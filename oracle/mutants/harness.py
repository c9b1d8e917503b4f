"""The kill matrix's engine room: scenarios run in-process, and only where a mutant can bite.

Why not one ``rules-oracle run`` per mutant: each paid 1-2.5 s of imports and ran every
scenario of its game; with hundreds of mutants that is most of the oracle's test time. Here
every scenario runs in this process through the same pieces as a real run: the scenario as
pytest-bdd renders it (``oracle.suite.runnable.rendered_scenarios``, outline rows included), the
same step definitions (``oracle.suite.vocabulary``), the same world and the same seed
(``oracle.scenario.seeds.scenario_seed`` of the test name a run gives it), the same end of
scenario check (``ScenarioWorld.finish``) and the same verdict classification
(``oracle.report.classify.classify_exception``). ``tests/test_selftest.py`` checks that the
harness and a real pytest run give the same per-scenario statuses.

Why it scales: a mutant is a reference engine with a few methods replaced, so a scenario
whose run on the reference engine never calls one of those methods runs identically on the
mutant and gets the reference engine's verdict without being run again. This is the
coverage-based test selection mutation testers use (mutmut, Cosmic Ray, PIT): each
scenario is run once on a *recording* reference engine that notes which methods it calls,
and each mutant runs only the scenarios that call a method it replaces. It is exact for
deterministic engines whose ``setup`` rebuilds the game (the protocol requires both), given
that every scenario runs on a fresh engine, as it does here. A mutant that replaces
something other than a method (a class constant, a dunder) runs every scenario.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle.engines import EngineClient, EngineSpec, factory_for, make_engine
from oracle.engines.mutant import Mutant
from oracle.report.classify import judge
from oracle.report.model import ScenarioVerdict, Status
from oracle.scenario.seeds import scenario_seed
from oracle.scenario.world import ScenarioWorld
from oracle.suite.features import read_feature
from oracle.suite.games import Game
from oracle.suite.lint import rule_tags
from oracle.suite.rulings import read_rulings
from oracle.suite.runnable import rendered_scenarios, row_name, test_names
from oracle.suite.vocabulary import vocabulary_for


@dataclass(frozen=True)
class Case:
    """One runnable scenario (an outline row is one), as a run would collect it."""

    game: str
    name: str
    test_name: str  # the pytest test name a run gives it; its seed derives from it
    rules: tuple[str, ...]
    location: str
    steps: tuple[tuple[str, str], ...]  # (kind, text), background first
    #: A pending, disputed or superseded ruling's scenario: it runs, and flags nothing.
    probe: bool = False


@dataclass(frozen=True)
class Outcome:
    """How a case ended on one engine (what the kill matrix reads)."""

    case: Case
    status: Status
    message: str = ""
    #: For a blocked case: the rule whose check failed first, which is charged instead.
    blocked_by: str | None = None
    #: An ``error`` charged to no rule (a check no sentence states failed).
    uncharged: bool = False
    #: Blocked by an engine error on an action ``blocked_by`` governs (charged an error).
    blocked_by_error: bool = False

    def verdict(self) -> ScenarioVerdict:
        """The verdict a run would file for this case (what reports are built from)."""
        return ScenarioVerdict(self.case.name, self.case.game, self.case.rules, self.status,
                               self.case.location, self.message, blocked_by=self.blocked_by,
                               uncharged=self.uncharged, blocked_by_error=self.blocked_by_error)


def game_cases(game: Game) -> tuple[Case, ...]:
    """Every scenario of a game, in collection order (feature files sorted, then by line)."""
    return _cases(game.id, tuple(game.feature_files()), tuple(game.catalog.ids()))


@functools.cache
def _cases(game_id: str, files: tuple[Path, ...], rule_ids: tuple[str, ...]
           ) -> tuple[Case, ...]:
    docs = [(path, doc) for path in files for doc in read_feature(path).scenarios]
    # A committee folder's probes are marked (the suite checks report what is wrong with
    # how rulings are written; here a ruling that does not read is no ruling).
    rulings, _ = read_rulings([doc for _, doc in docs], rule_ids) if any(
        line.key.lower() == "ruling" for _, doc in docs for line in doc.keyed()) \
        else (None, [])
    cases = []
    for path in files:
        names = test_names(path)
        for doc in read_feature(path).scenarios:
            rules = tuple(rule_tags(doc.tag_names))
            ruling = rulings.of(doc) if rulings is not None else None
            for rendered in rendered_scenarios(doc):
                test_name = names[doc.name] + (
                    f"[{rendered.example_id}]" if rendered.example_id is not None else "")
                cases.append(Case(game_id, row_name(doc.name, dict(rendered.row)), test_name,
                                  rules,
                                  f"{path.parent.name}/{path.name}:{doc.line}",
                                  tuple((kind, text) for kind, text, _ in rendered.steps),
                                  probe=bool(ruling and ruling.probe)))
    return tuple(cases)


def run_case(game: Game, case: Case, client: EngineClient, seed: int = 0) -> Outcome:
    """Run one case on an engine, exactly as a run's test would (the world, its check of
    what the steps need, the steps, the end-of-scenario check), and judge how it ended."""
    words = vocabulary_for(game)
    world = None
    try:
        world = ScenarioWorld(game, client, scenario_seed(seed, game.id, case.test_name),
                              case.rules)
        world.prepare(list(case.steps))
        for kind, text in case.steps:
            words.run(world, kind, text)
        world.finish()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # pytest's outcomes (skip, fail) are BaseExceptions
        status, blame = judge(world, exc)
        return Outcome(case, status, str(exc), blame.rule if blame else None,
                       blame is not None and blame.rule is None,
                       blame is not None and blame.error)
    return Outcome(case, Status.PASS)


# -- which methods a scenario calls ------------------------------------------------------------


def _recordable(cls: type, name: str) -> bool:
    """A plain method, static/class method or property that a subclass can wrap."""
    if name.startswith("__"):
        return False
    value = inspect.getattr_static(cls, name)
    return inspect.isfunction(value) or isinstance(value, staticmethod | classmethod | property)


def recording_class(base: type, calls: set[str]) -> type:
    """A subclass of ``base`` that adds the name of each method called to ``calls``.

    Methods are looked up on the instance's class, so every call a mutant's override would
    intercept (``self.name(...)``, ``getattr(self, name)``) passes through the wrapper.
    """
    def wrapped(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def record(*args: Any, **kwargs: Any) -> Any:
            calls.add(name)
            return func(*args, **kwargs)
        return record

    namespace: dict[str, Any] = {}
    for name in dir(base):
        if not _recordable(base, name):
            continue
        value = inspect.getattr_static(base, name)
        if isinstance(value, property):
            namespace[name] = property(wrapped(name, value.fget) if value.fget else None,
                                       value.fset, value.fdel, value.__doc__)
        elif isinstance(value, staticmethod | classmethod):
            namespace[name] = type(value)(wrapped(name, value.__func__))
        else:
            namespace[name] = wrapped(name, value)
    return type(f"Recording{base.__name__}", (base,), namespace)


def trace_cases(game: Game, base: type, cases: Iterable[Case], seed: int = 0
                ) -> dict[Case, tuple[Outcome, frozenset[str]]]:
    """Run each case on a fresh recording ``base`` engine: its outcome and the methods called
    (construction and the handshake included, since a fresh engine makes both)."""
    traces = {}
    for case in cases:
        calls: set[str] = set()
        engine = recording_class(base, calls)()
        outcome = run_case(game, case, EngineClient(engine, f"recording {base.__name__}"), seed)
        traces[case] = (outcome, frozenset(calls))
    return traces


def prunable_names(mutant: Mutant) -> frozenset[str] | None:
    """The method names a mutant replaces, or None when it replaces anything else (then
    every scenario must run on it)."""
    names = frozenset(mutant.overrides)
    if all(_recordable(mutant.base, n) for n in names):
        return names
    return None


# -- one mutant --------------------------------------------------------------------------------


def mutant_outcomes(game: Game, games: dict[str, Game], mutant: Mutant,
                    traces: dict[Case, tuple[Outcome, frozenset[str]]] | None,
                    seed: int = 0, cases: Iterable[Case] | None = None
                    ) -> tuple[list[Outcome], int]:
    """Every case's outcome on ``mutant`` (or only these ``cases``' outcomes), and how many
    cases actually ran on it.

    With ``traces`` (of the mutant's base, covering the cases), a case that calls none of
    the replaced methods keeps the reference engine's outcome; without, every case runs.
    """
    factory, label = factory_for(EngineSpec("mutant", f"{game.id}/{mutant.name}"), games)
    names = prunable_names(mutant) if traces is not None else None
    outcomes, ran = [], 0
    for case in game_cases(game) if cases is None else cases:
        if names is not None and traces is not None and not (traces[case][1] & names):
            outcomes.append(traces[case][0])
            continue
        ran += 1
        outcomes.append(run_case(game, case, EngineClient(make_engine(factory, label), label),
                                 seed))
    return outcomes, ran


def rule_statuses(outcomes: Iterable[Outcome]) -> dict[str, Status]:
    """Each rule's status in a report built from these outcomes, in order of first mention.
    A blocked case charges the rule that blocked it, as ``oracle.report.build`` does."""
    from oracle.report.build import rule_status

    by_rule: dict[str, list[Status]] = {}
    for outcome in outcomes:
        for rule in outcome.case.rules:
            by_rule.setdefault(rule, []).append(
                Status.BLOCKED if outcome.uncharged else outcome.status)
        if outcome.status == Status.BLOCKED and outcome.blocked_by:
            by_rule.setdefault(outcome.blocked_by, []).append(
                Status.ERROR if outcome.blocked_by_error else Status.FAIL)
    return {rule: rule_status(True, found) for rule, found in by_rule.items()}


def flagged_rules(outcomes: Iterable[Outcome]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The rules a report built from these outcomes would flag (fail or error), and those
    it would show blocked, in order."""
    statuses = rule_statuses(outcomes)
    return (tuple(r for r, s in statuses.items() if s in (Status.FAIL, Status.ERROR)),
            tuple(r for r, s in statuses.items() if s == Status.BLOCKED))

