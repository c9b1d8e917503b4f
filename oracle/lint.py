"""Checks that refuse a suite that would lose a rule silently.

pytest-bdd 9 keeps one of two scenarios with the same name, runs a scenario
tagged with a rule id nobody knows, and only finds a step with no definition
when it runs it. A conformance report built on that would say "pass" for
rules nobody tested. So before anything runs, the whole suite of every game
in the run is read with the Gherkin parser and each of these is refused,
with its file, line and text:

- a feature file that does not parse;
- a scenario with no rule tag, or a tag naming an unknown game or rule id;
- two scenarios of the same game with the same name;
- a catalog rule with no scenario that is not marked untestable;
- a step that matches no step definition (with the closest existing steps).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pytest_bdd.exceptions import GherkinParseError
from pytest_bdd.gherkin_parser import Scenario, Tag, get_gherkin_document
from pytest_bdd.steps import StepFunctionContext

from oracle.game import Game

RULE_TAG = re.compile(r"^(?P<game>[a-z0-9][a-z0-9_-]*):(?P<id>\S+)$")
STEP_TYPES = {"Context": "given", "Action": "when", "Outcome": "then"}


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


@dataclass(frozen=True)
class ScenarioInfo:
    """A scenario as the lint reads it: enough to check it and to report it."""

    name: str
    path: Path
    line: int
    rule_ids: tuple[str, ...]


def rule_tags(tags: Iterable[str]) -> list[str]:
    """The tags that cite rules (``ti4:2.4``), without the ``@``."""
    return [t.lstrip("@") for t in tags if RULE_TAG.match(t.lstrip("@"))]


def _scenarios(path: Path) -> Iterable[tuple[Scenario, list[Tag], list]]:
    """Every scenario of a file with the tags it inherits and its background steps."""
    doc = get_gherkin_document(str(path))
    feature = doc.feature
    background: list = []
    for child in feature.children:
        if child.background:
            background = list(child.background.steps)
        if child.scenario:
            yield child.scenario, [*feature.tags, *child.scenario.tags], background
        if child.rule:
            rule_background = list(background)
            for sub in child.rule.children:
                if sub.background:
                    rule_background = [*background, *sub.background.steps]
                if sub.scenario:
                    tags = [*feature.tags, *child.rule.tags, *sub.scenario.tags]
                    yield sub.scenario, tags, rule_background


def humanize(pattern: str) -> str:
    """A step regex as a person would write the step, for 'did you mean' lists and
    ``rules-oracle steps``: ``<name>`` a value, ``[...]`` optional, ``(a|b)`` a choice."""
    def group(m: re.Match[str]) -> str:
        """A literal (or a choice of literals) stays itself; a pattern becomes <name>."""
        body = m.group(2)
        words = body.split("|")
        if all(re.fullmatch(r"[\w ,'\"-]+", w) for w in words):
            shown = body if len(words) == 1 else f"({body})"
        else:
            shown = f"<{m.group(1)}>"
        return f"[{shown.strip()}] " if m.group(3) else shown

    text = re.sub(r"\(\?P<(\w+)>([^()]*(?:\([^()]*\)[^()]*)*)\)(\?)?", group, pattern)
    previous = None
    while previous != text:  # innermost groups first
        previous = text
        text = re.sub(r"\(\?:((?:[^()]|\([^()?]*\))*)\)\?", r"[\1]", text)
        text = re.sub(r"\(\?:((?:[^()]|\([^()?]*\))*)\)", r"(\1)", text)
        text = re.sub(r"(\w)\?", r"(\1)", text)
    return text.replace("\\", "")


def _closest(text: str, steps: list[StepFunctionContext], kind: str) -> list[str]:
    candidates = sorted({humanize(s.parser.name) for s in steps if s.type in (kind, None)})
    return difflib.get_close_matches(text, candidates, n=3, cutoff=0.0)


def lint_games(
    games: Iterable[Game], known: dict[str, Game], steps: list[StepFunctionContext]
) -> tuple[list[Problem], list[ScenarioInfo]]:
    """Check every feature file of the given games; return the problems and the scenarios."""
    problems: list[Problem] = []
    infos: list[ScenarioInfo] = []
    for game in games:
        seen: dict[str, ScenarioInfo] = {}
        covered: set[str] = set()
        for path in game.feature_files():
            try:
                scenarios = list(_scenarios(path))
            except GherkinParseError as exc:
                problems.append(Problem(path, exc.line, exc.line_content,
                                        f"the feature file does not parse: {exc.message}"))
                continue
            for scenario, tags, background in scenarios:
                line, name = scenario.location.line, scenario.name
                problems += _check_tags(path, scenario, tags, known)
                ids = tuple(rule_tags(t.name for t in tags))
                covered.update(ids)
                info = ScenarioInfo(name, path, line, ids)
                infos.append(info)
                if name in seen:
                    first = seen[name]
                    problems.append(Problem(
                        path, line, f"Scenario: {name}",
                        f"a second scenario named {name!r} (the first is at {first.path}:"
                        f"{first.line}); pytest-bdd would silently run only one. Rename one.",
                    ))
                seen.setdefault(name, info)
                problems += _check_steps(path, [*background, *scenario.steps], steps)
        for rule in game.catalog.rules:
            if rule.testable and rule.id not in covered:
                problems.append(Problem(
                    game.folder / game.catalog_file, 1, f"{rule.id}: {rule.text[:80]}",
                    f"rule {rule.id} has no scenario and is not marked untestable; add a "
                    f"scenario tagged @{rule.id} under {game.folder}, or mark it untestable "
                    "with a reason in the game's importer",
                ))
    return problems, infos


def _check_tags(path: Path, scenario: Scenario, tags: list[Tag],
                known: dict[str, Game]) -> list[Problem]:
    problems = []
    cited = [t for t in tags if RULE_TAG.match(t.name.lstrip("@"))]
    if not cited:
        problems.append(Problem(
            path, scenario.location.line, f"Scenario: {scenario.name}",
            "this scenario cites no rule; tag it (or its Rule: block) with the rule id it "
            "checks, e.g. @ti4:2.4",
        ))
    for tag in cited:
        m = RULE_TAG.match(tag.name.lstrip("@"))
        assert m is not None
        game = known.get(m["game"])
        if game is None:
            problems.append(Problem(path, tag.location.line, tag.name,
                                    f"unknown game {m['game']!r} (games: {', '.join(known)})"))
        elif game.catalog.get(m.group(0)) is None:
            near = difflib.get_close_matches(m.group(0), game.catalog.ids(), n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            problems.append(Problem(path, tag.location.line, tag.name,
                                    f"{m.group(0)} is not a rule id of the {game.id} "
                                    f"catalog{hint}"))
    return problems


def _check_steps(
    path: Path, scenario_steps: list, steps: list[StepFunctionContext]
) -> list[Problem]:
    problems = []
    kind = "given"
    for step in scenario_steps:
        kind = STEP_TYPES.get(step.keyword_type, kind)
        if "<" in step.text:  # an outline placeholder: checked per example at run time
            continue
        hits = [s for s in steps if s.type in (kind, None) and s.parser.is_matching(step.text)]
        if len(hits) > 1:
            names = ", ".join(f"{s.step_func.__module__}.{s.step_func.__name__}" for s in hits)
            problems.append(Problem(
                path, step.location.line, f"{step.keyword} {step.text}",
                f"this text matches {len(hits)} {kind} step definitions ({names}); pytest-bdd "
                "would pick one silently. Make the definitions' phrases exclusive.",
            ))
        if hits:
            continue
        near = "\n      ".join(_closest(step.text, steps, kind))
        problems.append(Problem(
            path, step.location.line, f"{step.keyword} {step.text}",
            f"no {kind} step matches this text. Closest {kind} steps:\n      {near}",
        ))
    return problems
