"""Checks that refuse a suite that would lose a rule silently.

pytest-bdd 9 keeps one of two scenarios with the same name, runs a scenario
tagged with a rule id nobody knows, and only finds a step with no definition
when it runs it. A conformance report built on that would say "pass" for
rules nobody tested. So before anything runs, the whole suite of every game
in the run is read (``oracle.suite.features``) and each of these is refused,
with its file, line and text:

- a feature file that does not parse;
- a scenario with no rule tag, or a tag naming an unknown game or rule id;
- two scenarios of the same game with the same name;
- a catalog rule with no scenario that is not marked untestable;
- a step that matches no step definition (with the closest existing steps),
  or that two definitions match (an outline's steps are checked for every row);
- a scenario that expects a rejection with no *twin* expecting the same actions allowed
  (where the game's manifest says ``twins: required``): without one, "the action is
  rejected" passes whatever the engine rejected for;
- a concept or diagnostic the game maps to no rule of its catalog, and card classes or play
  recipes (``plays.yaml``) that name unknown cards or lines no step matches.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from oracle.suite.features import FeatureSyntaxError, ScenarioDoc, read_feature
from oracle.suite.games import Game
from oracle.suite.vocabulary import Vocabulary, vocabulary_for

RULE_TAG = re.compile(r"^(?P<game>[a-z0-9][a-z0-9_-]*):(?P<id>\S+)$")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the suite, where it is, and what to do."""

    path: Path
    line: int
    text: str
    message: str

    def __str__(self) -> str:
        text = f"\n    {self.text}" if self.text else ""
        return f"{self.path}:{self.line}: {self.message}{text}"


def rule_tags(tags: Iterable[str]) -> list[str]:
    """The tags that cite rules (``ti4:2.4``), without the ``@``."""
    return [t.lstrip("@") for t in tags if RULE_TAG.match(t.lstrip("@"))]


def lint_games(games: Iterable[Game], known: Mapping[str, Game]
               ) -> tuple[list[Problem], list[ScenarioDoc]]:
    """Check every feature file of the given games; return the problems and the scenarios."""
    problems: list[Problem] = []
    scenarios: list[ScenarioDoc] = []
    for game in games:
        words = vocabulary_for(game)
        found, more = _lint_game(game, known, words)
        scenarios += found
        problems += more
        problems += _check_concepts(game)
        problems += _check_plays(game, words)
        if game.twins_required:
            problems += check_twins(found)
    return problems, scenarios


def _lint_game(game: Game, known: Mapping[str, Game], words: Vocabulary
               ) -> tuple[list[ScenarioDoc], list[Problem]]:
    problems: list[Problem] = []
    scenarios: list[ScenarioDoc] = []
    seen: dict[str, ScenarioDoc] = {}
    covered: set[str] = set()
    for path in game.feature_files():
        try:
            doc = read_feature(path)
        except FeatureSyntaxError as exc:
            problems.append(Problem(exc.path, exc.line, exc.text, exc.message))
            continue
        for scenario in doc.scenarios:
            problems += _check_tags(scenario, known)
            covered.update(rule_tags(scenario.tag_names))
            scenarios.append(scenario)
            first = seen.setdefault(scenario.name, scenario)
            if first is not scenario:
                problems.append(Problem(
                    scenario.path, scenario.line, f"Scenario: {scenario.name}",
                    f"a second scenario named {scenario.name!r} (the first is at "
                    f"{first.path}:{first.line}); pytest-bdd would silently run only one. "
                    "Rename one.",
                ))
            problems += _check_steps(scenario, words)
    for rule in game.catalog.rules:
        if rule.testable and rule.id not in covered:
            problems.append(Problem(
                game.folder / game.catalog_file, 1, f"{rule.id}: {rule.text[:80]}",
                f"rule {rule.id} has no scenario and is not marked untestable; add a "
                f"scenario tagged @{rule.id} under {game.folder}, or mark it untestable "
                "with a reason in the game's importer",
            ))
    return scenarios, problems


def _check_tags(scenario: ScenarioDoc, known: Mapping[str, Game]) -> list[Problem]:
    problems = []
    cited = [t for t in scenario.tags if RULE_TAG.match(t.name)]
    if not cited:
        problems.append(Problem(
            scenario.path, scenario.line, f"Scenario: {scenario.name}",
            "this scenario cites no rule; tag it (or its Rule: block) with the rule id it "
            "checks, e.g. @ti4:2.4",
        ))
    for tag in cited:
        m = RULE_TAG.match(tag.name)
        assert m is not None
        game = known.get(m["game"])
        if game is None:
            problems.append(Problem(scenario.path, tag.line, f"@{tag.name}",
                                    f"unknown game {m['game']!r} (games: {', '.join(known)})"))
        elif game.catalog.get(m.group(0)) is None:
            near = difflib.get_close_matches(m.group(0), game.catalog.ids(), n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            problems.append(Problem(scenario.path, tag.line, f"@{tag.name}",
                                    f"{m.group(0)} is not a rule id of the {game.id} "
                                    f"catalog{hint}"))
    return problems


def _check_steps(scenario: ScenarioDoc, words: Vocabulary) -> list[Problem]:
    problems = []
    steps = {(s.line, s.text): s for run in scenario.rendered() for s in run}
    for step in steps.values():
        hits = words.match(step.kind, step.text)
        if len(hits) > 1:
            names = ", ".join(h.where for h in hits)
            problems.append(Problem(
                scenario.path, step.line, str(step),
                f"this text matches {len(hits)} {step.kind} step definitions ({names}); "
                "pytest-bdd would pick one silently. Make the definitions' phrases exclusive.",
            ))
        if hits:
            continue
        near = "\n      ".join(words.closest(step.kind, step.text))
        problems.append(Problem(
            scenario.path, step.line, str(step),
            f"no {step.kind} step matches this text. Closest {step.kind} steps:\n      {near}",
        ))
    return problems


REJECTED = "the action is rejected"
ALLOWED = "the action is allowed"


def check_twins(scenarios: list[ScenarioDoc]) -> list[Problem]:
    """Every scenario expecting a rejection has a twin expecting the same actions allowed.

    An outline is its own twin when its rows render the same step both ways; a plain
    scenario names its twin on a ``Twin: NAME`` line of its description, and the twin must
    send the same When steps and expect fewer rejections.
    """
    by_name = {s.name: s for s in scenarios}
    problems = []
    for scenario in scenarios:
        runs = scenario.rendered()
        rejections = [_rejections(run) for run in runs]
        if not any(rejections):
            continue
        if scenario.outline:
            lines = {s.line for run in runs for s in run if s.text == REJECTED}
            allowed = {s.line for run in runs for s in run if s.text == ALLOWED}
            if lines & allowed:
                continue
        twin_name = scenario.description_value("Twin")
        twin = by_name.get(twin_name or "")
        why = ""
        if twin_name and twin is None:
            why = f"its twin {twin_name!r} is not a scenario of this game"
        elif twin is not None:
            if _whens(twin.rendered()[0]) != _whens(runs[0]):
                why = f"its twin {twin_name!r} does not send the same When steps"
            elif _rejections(twin.rendered()[0]) >= rejections[0]:
                why = f"its twin {twin_name!r} expects as many rejections"
            else:
                continue
        problems.append(Problem(
            scenario.path, scenario.line, f"Scenario: {scenario.name}",
            (f"{why}. " if why else "this scenario expects a rejection but has no twin. ")
            + "A rejection passes whatever the engine rejected for, unless a twin that "
            "differs only in the detail the rule is about expects the same action allowed: "
            "write a Scenario Outline with 'Then the action is <outcome>' and rows for "
            "rejected and allowed, or add a description line 'Twin: <name of that scenario>'",
        ))
    return problems


def _rejections(steps: tuple) -> int:
    return sum(1 for s in steps if s.text == REJECTED)


def _whens(steps: tuple) -> list[str]:
    return [s.text for s in steps if s.kind == "when"]


def _check_concepts(game: Game) -> list[Problem]:
    """Every concept maps to a rule of the catalog; every diagnostic's concept is mapped."""
    manifest = game.folder / "game.yaml"
    problems = []
    for concept, rule in game.concepts:
        rule_id = game.concept_rule(concept)
        if rule_id is None or (rule_id.startswith(f"{game.id}:")
                               and game.catalog.get(rule_id) is None):
            problems.append(Problem(manifest, 1, f"{concept}: {rule}",
                                    f"concept {concept!r} maps to {rule!r}, which is not a "
                                    f"rule id of the {game.id} catalog"))
    for diagnostic in game.diagnostic_checks:
        if game.concept_rule(diagnostic.concept) is None:
            problems.append(Problem(manifest, 1, f"diagnostic {diagnostic.concept}",
                                    f"a diagnostic stands for concept {diagnostic.concept!r}, "
                                    "which 'concepts:' in the manifest does not map to a rule"))
    return problems


def _check_plays(game: Game, words: Vocabulary) -> list[Problem]:
    """Card classes and recipes name known cards, and each recipe line is a step."""
    if not game.plays_file:
        return []
    path = game.folder / game.plays_file
    names = {f["name"] for deck in game.cards.values() for f in deck}
    problems = []
    for card, recipe in game.plays["recipes"].items():
        if card not in names:
            near = difflib.get_close_matches(card, sorted(names), n=3)
            problems.append(Problem(path, 1, card, f"a recipe for {card!r}, which is not a "
                                    f"card of {game.id}" + (f"; did you mean {near}?"
                                                            if near else "")))
        situations = (recipe or {}).get("when") or {}
        parts = [("", recipe or {}), *((f" when {s}", p or {}) for s, p in situations.items())]
        for where, part in parts:
            for kind, key in (("given", "given"), ("then", "effect"), ("then", "no_effect")):
                for line in part.get(key) or ():
                    text = line.format(player="Alice", other="Bob")
                    if not words.match(kind, text):
                        problems.append(Problem(path, 1, f"{card}{where}: {line}",
                                                f"no {kind} step matches this {key} line"))
    for name in game.plays["classes"]:
        from oracle.scenario.cards import class_members

        if not [c for c in class_members(game, name) if c in game.plays["recipes"]]:
            problems.append(Problem(path, 1, name, f"card class {name!r} has no card with a "
                                    "recipe: no engine could be given a card of it"))
    return problems
