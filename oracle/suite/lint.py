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
  or that two definitions match.
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
        found, more = _lint_game(game, known, vocabulary_for(game))
        scenarios += found
        problems += more
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
    for step in scenario.steps:
        if "<" in step.text:  # an outline placeholder: checked per example at run time
            continue
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
