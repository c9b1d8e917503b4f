"""Checks that refuse a suite that would lose a rule silently, or blame an engine for a typo.

pytest-bdd 9 keeps one of two scenarios with the same name, runs a scenario
tagged with a rule id nobody knows, and only finds a step with no definition
when it runs it. A conformance report built on that would say "pass" for
rules nobody tested. So before anything runs, the whole suite of every game
in the run is read (``oracle.suite.features``) and each of these is refused,
with its file, line and text:

- a feature file that does not parse;
- a scenario with no rule tag, or a tag naming an unknown game or rule id (a committee's new
  id, ``GAME:NAMESPACE:ID``, is known when a ruling declares it);
- two scenarios of the same game with the same name;
- a catalog rule with no scenario that is not marked untestable (retired scenarios and
  rulings that are only probes do not count);
- a step that matches no step definition (with the closest existing steps, those that share
  its verb and shape first), or that two definitions match (an outline's steps are checked
  for every row);
- a name no game fact or earlier step knows: cards, decks, laws, factions, technologies,
  unit types and references, timing windows, phases, card classes, card variables, players
  (``oracle.suite.content``, with the closest names);
- two scenarios with the same Given and When steps and contradicting Then steps;
- a ``Key: value`` description line whose key is misspelt (``Sources:``), or, in a ruling,
  any key a ruling does not have (``oracle.suite.filecheck``);
- a ruling whose provenance is missing or malformed, that supersedes no known ruling, or that
  retires a scenario that does not exist (``oracle.suite.rulings``);
- a ``Cites:`` line naming no sentence of the catalog (with the closest anchors), quoting
  what its sentence does not say (showing the sentence), or citing a waived sentence; and,
  where the game's manifest says ``cites: required``, a scenario (or ruling) that cites no
  sentence of the rule its tag names, and a sentence of a testable rule that no scenario
  cites and no waiver excuses (``oracle.suite.citations``);
- a scenario that expects a rejection with no *twin* expecting the same actions allowed
  (where the game's manifest says ``twins: required``): without one, "the action is
  rejected" passes whatever the engine rejected for;
- a concept or diagnostic the game maps to no rule of its catalog (nor lists as unstated), a
  governing sentence (``governs.yaml``) that is no testable rule's or whose quote it lacks
  (``oracle.suite.governs``), and card classes or play recipes (``plays.yaml``) that name
  unknown cards or lines no step matches.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from oracle.suite.citations import check_citations
from oracle.suite.content import (
    ALLOWED,
    check_contradictions,
    check_names,
    check_order,
    is_rejection,
)
from oracle.suite.features import FeatureSyntaxError, ScenarioDoc, read_feature
from oracle.suite.filecheck import description_problems
from oracle.suite.games import Game
from oracle.suite.governs import check_governs
from oracle.suite.plays import class_members
from oracle.suite.problems import Problem, ScenarioError
from oracle.suite.rulings import COMMITTEE_ID, RULE_TAG, Rulings, read_rulings
from oracle.suite.vocabulary import Vocabulary, vocabulary_for

__all__ = ["RULE_TAG", "Problem", "SuiteCheck", "check_suite", "find_rulings", "lint_games",
           "read_suite", "rule_tags"]


def rule_tags(tags: Iterable[str]) -> list[str]:
    """The tags that cite rules (``ti4:2.4``), without the ``@``."""
    return [t.lstrip("@") for t in tags if RULE_TAG.match(t.lstrip("@"))]


@dataclass(frozen=True)
class SuiteCheck:
    """What the suite checks found: the problems, every scenario read, and the rulings."""

    problems: list[Problem] = field(default_factory=list)
    scenarios: list[ScenarioDoc] = field(default_factory=list)
    rulings: Rulings = field(default_factory=Rulings)


def read_suite(games: Iterable[Game], known: Mapping[str, Game]
               ) -> tuple[dict[str, list[ScenarioDoc]], Rulings, list[Problem]]:
    """Every scenario of the games (by game), their rulings, and what did not parse.

    Cheap after the first call (feature files are parsed once), so an xdist worker, which
    never checks the suite, can still tell a scenario's ruling.
    """
    problems: list[Problem] = []
    by_game: dict[str, list[ScenarioDoc]] = {}
    for game in games:
        found = by_game.setdefault(game.id, [])
        for path in game.feature_files():
            try:
                found += read_feature(path).scenarios
            except FeatureSyntaxError as exc:
                problems.append(Problem(exc.path, exc.line, exc.text, exc.message))
    ids = [i for g in known.values() for i in g.catalog.ids()]
    every = [s for ss in by_game.values() for s in ss]
    rulings, more = read_rulings(every, ids)
    return by_game, rulings, problems + description_problems(every) + more


def find_rulings(games: Iterable[Game], known: Mapping[str, Game]) -> Rulings:
    """The rulings of the games' feature files, for a process that does not check the suite
    (what the suite checks find is theirs to report): only files that mention ``Ruling:``
    are parsed, so a run of the bundled suite reads none."""
    scenarios: list[ScenarioDoc] = []
    for game in games:
        for path in game.feature_files():
            if b"ruling:" not in path.read_bytes().lower():
                continue
            try:
                scenarios += read_feature(path).scenarios
            except FeatureSyntaxError:
                continue
    if not scenarios:
        return Rulings()
    rulings, _ = read_rulings(scenarios, [i for g in known.values() for i in g.catalog.ids()])
    return rulings


def check_suite(games: Iterable[Game], known: Mapping[str, Game],
                wanted: Callable[[ScenarioDoc], bool] | None = None) -> SuiteCheck:
    """Check every feature file of the given games, before anything runs.

    ``wanted``: the scenarios this run will collect; only their names are checked against
    the game's facts (a name in a scenario that does not run is blamed on nobody), while
    every other check sees every scenario."""
    games = list(games)
    by_game, rulings, problems = read_suite(games, known)
    added = rulings.added_ids()
    for game in games:
        words = vocabulary_for(game)
        found = by_game[game.id]
        problems += _lint_game(game, found, known, words, added, wanted)
        problems += _check_coverage(game, found, rulings)
        problems += check_contradictions(found, game, words, rulings)
        problems += _check_concepts(game)
        problems += _check_plays(game, words)
        problems += check_citations(game, found, known, rulings)
        if game.twins_required:
            # A probe (a pending, disputed or superseded ruling) judges no engine: it shows
            # which engines agree with a ruling under debate, and may be written before
            # anyone knows the twin that would tell its reason apart.
            judged = [s for s in found if not ((r := rulings.of(s)) and r.probe)]
            problems += check_twins(judged, words)
    return SuiteCheck(problems, [s for g in games for s in by_game[g.id]], rulings)


def lint_games(games: Iterable[Game], known: Mapping[str, Game]
               ) -> tuple[list[Problem], list[ScenarioDoc]]:
    """Check every feature file of the given games; return the problems and the scenarios."""
    checked = check_suite(games, known)
    return checked.problems, checked.scenarios


def _lint_game(game: Game, scenarios: list[ScenarioDoc], known: Mapping[str, Game],
               words: Vocabulary, added: set[str],
               wanted: Callable[[ScenarioDoc], bool] | None = None) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[str, ScenarioDoc] = {}
    for scenario in scenarios:
        problems += _check_tags(scenario, known, added)
        first = seen.setdefault(scenario.name, scenario)
        if first is not scenario:
            problems.append(Problem(
                scenario.path, scenario.line, f"Scenario: {scenario.name}",
                f"a second scenario named {scenario.name!r} (the first is at "
                f"{first.path}:{first.line}); pytest-bdd would silently run only one. "
                "Rename one.",
            ))
        problems += _check_steps(scenario, words)
        if wanted is None or wanted(scenario):
            problems += check_names(scenario, game, words)
        problems += check_order(scenario, words)
    return problems


def _check_coverage(game: Game, scenarios: list[ScenarioDoc], rulings: Rulings
                    ) -> list[Problem]:
    """Every testable catalog rule has a scenario that runs and counts (not retired, not a
    probe)."""
    covered: set[str] = set()
    for scenario in scenarios:
        ruling = rulings.of(scenario)
        if rulings.retired(scenario, game.id) is None and (ruling is None or not ruling.probe):
            covered.update(rule_tags(scenario.tag_names))
    problems = []
    for rule in game.catalog.rules:
        if rule.testable and rule.id not in covered:
            retired = [f"{t.scenario!r} (retired by {t.by})" for t in
                       rulings.retirements(game.id).values()
                       if any(s.name == t.scenario and rule.id in s.tag_names
                              for s in scenarios)]
            why = f"; its scenarios are retired: {', '.join(retired)}" if retired else ""
            problems.append(Problem(
                game.folder / game.catalog_file, 1, f"{rule.id}: {rule.text[:80]}",
                f"rule {rule.id} has no scenario and is not marked untestable{why}; add a "
                f"scenario tagged @{rule.id} under {game.folder}, or mark it untestable "
                "with a reason in the game's importer",
            ))
    return problems


def _check_tags(scenario: ScenarioDoc, known: Mapping[str, Game], added: set[str]
                ) -> list[Problem]:
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
        elif game.catalog.get(m.group(0)) is None and m.group(0) not in added:
            ids = [*game.catalog.ids(), *sorted(i for i in added if i.startswith(m["game"]))]
            near = difflib.get_close_matches(m.group(0), ids, n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            if COMMITTEE_ID.match(m.group(0)):
                problems.append(Problem(
                    scenario.path, tag.line, f"@{tag.name}",
                    f"{m.group(0)} is a committee rule id that no ruling declares"
                    + (f" (did you mean {', '.join(near)}?)" if near else "") + ". A new "
                    "id is declared by a ruling tagged with it: 'Ruling:', 'Source:', "
                    "'Date:', 'Authority:' and 'Status:' lines under its Rule: "
                    "(docs/rulings.md)"))
            else:
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
        problems.append(Problem(scenario.path, step.line, str(step),
                                _unmatched(step.kind, step.text, words)))
    return problems


def _unmatched(kind: str, text: str, words: Vocabulary) -> str:
    """No step matches: the closest steps, and how far the closest one reads the text."""
    ranked = words.ranked(kind, text)[:3]
    near = "\n      ".join(d.human for d in ranked)
    message = f"no {kind} step matches this text. Closest {kind} steps:\n      {near}"
    if ranked:
        read = words.matched_prefix(ranked[0], text)
        if read and len(read) < len(text):
            message += (f"\n    The first reads {read!r} but not what follows, "
                        f"{text[len(read):]!r}: write it as that step shows "
                        "('rules-oracle steps' has an example of each)")
    return message




def check_twins(scenarios: list[ScenarioDoc], words: Vocabulary | None = None
                ) -> list[Problem]:
    """Every scenario expecting a rejection has a twin expecting the same actions allowed.

    An outline is its own twin when its rows render the same step both ways; a plain
    scenario names its twin on a ``Twin: NAME`` line of its description, and the twin must
    send the same When steps and expect fewer rejections. ``words``: steps in another
    language are read as the English steps they stand for.
    """
    en = words.english if words is not None else str
    by_name = {s.name: s for s in scenarios}
    problems = []
    for scenario in scenarios:
        runs = scenario.rendered()
        rejections = [_rejections(run, en) for run in runs]
        if not any(rejections):
            continue
        if scenario.outline:
            lines = {s.line for run in runs for s in run if is_rejection(en(s.text))}
            allowed = {s.line for run in runs for s in run if en(s.text) == ALLOWED}
            if lines & allowed:
                continue
        twin_name = scenario.description_value("Twin")
        twin = by_name.get(twin_name or "")
        why = ""
        if twin_name and twin is None:
            why = f"its twin {twin_name!r} is not a scenario of this game"
        elif twin is not None:
            if _whens(twin.rendered()[0], en) != _whens(runs[0], en):
                why = f"its twin {twin_name!r} does not send the same When steps"
            elif _rejections(twin.rendered()[0], en) >= rejections[0]:
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


def _rejections(steps: tuple, en: Callable[[str], str] = str) -> int:
    return sum(1 for s in steps if is_rejection(en(s.text)))


def _whens(steps: tuple, en: Callable[[str], str] = str) -> list[str]:
    return [en(s.text) for s in steps if s.kind == "when"]


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
        if (game.concept_rule(diagnostic.concept) is None
                and diagnostic.concept not in game.governs.unstated):
            problems.append(Problem(manifest, 1, f"diagnostic {diagnostic.concept}",
                                    f"a diagnostic stands for concept {diagnostic.concept!r}, "
                                    "which 'concepts:' in the manifest does not map to a rule "
                                    "and governs.yaml does not list as unstated"))
    return problems + check_governs(game)


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
        try:
            members = class_members(game, name)
        except ScenarioError as exc:
            problems.append(Problem(path, 1, name, f"card class {name!r}: {exc}"))
            continue
        if not [c for c in members if c in game.plays["recipes"]]:
            problems.append(Problem(path, 1, name, f"card class {name!r} has no card with a "
                                    "recipe: no engine could be given a card of it"))
    return problems
