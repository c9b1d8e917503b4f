"""Citations checked against the sentences of the rules: every expectation rests on a sentence.

Why: a scenario's tag names the rule it is charged to, but its Then lines can assert more than
that rule's text says (an order, a moment, who may act), copied from a reference engine's
habits; a correct engine then fails and no report shows why. So a scenario names the
sentences its expectations rest on, one ``Cites:`` line each (on its ``Rule:`` block for
every scenario of the block, or on the scenario itself, adding to the block's)::

    Cites: ti4:2.4#2 "must choose seven cards to keep"
    Cites: ti4:81.3#1

and before anything runs each citation is checked against the game's catalog of sentences
(``oracle.suite.catalog``): the anchor exists, the quote occurs in that sentence (quotes,
apostrophes, dashes and spaces normalised; in the scenario's language where the catalog has
the sentence in it, in the rules source's otherwise), and the sentence is not waived (a waived
sentence is one no scenario can check). Where the game's manifest says ``cites: required``,
every scenario cites, and cites a sentence of the rule its tag names (a ruling cites the
sentence it refines); and every sentence of a testable rule is cited by a scenario that
counts, or waived.

A citation of a sentence the rules no longer have (a retired anchor: a new version of the
source reworded or dropped it) is not refused: the scenario was right about the old words,
and the run marks it ``stale`` until someone re-reads it (``oracle.suite.reviews``); the
sentence that rewords it counts as cited meanwhile.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from oracle.suite.catalog import Catalog, Sentence, closest_anchors
from oracle.suite.features import Citation, ScenarioDoc
from oracle.suite.problems import Problem
from oracle.suite.rulings import COMMITTEE_ID, RULE_TAG

if TYPE_CHECKING:
    from oracle.suite.games import Game
    from oracle.suite.rulings import Rulings

__all__ = ["check_citations", "quote_form"]

_QUOTES = str.maketrans({c: '"' for c in "\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033"}
                        | {c: "'" for c in "\u2018\u2019\u201a\u201b\u2032`\u00b4"}
                        | {c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"})
_SPACE = re.compile(r"\s+")


@functools.lru_cache(maxsize=4096)
def quote_form(text: str) -> str:
    """A text as a quote is compared: typographic quotes, apostrophes and dashes as their
    plain forms, and every run of spaces (no-break ones too) as one space."""
    return _SPACE.sub(" ", text.translate(_QUOTES)).strip()


def check_citations(game: Game, scenarios: Iterable[ScenarioDoc], known: Mapping[str, Game],
                    rulings: Rulings) -> list[Problem]:
    """Every citation of the game's scenarios names a sentence, quotes it, and is not
    waived; with ``cites: required``, every scenario cites a sentence of its rule, and every
    sentence of a testable rule is cited or waived."""
    scenarios = list(scenarios)
    problems: dict[tuple[object, ...], Problem] = {}
    seen: set[tuple[object, ...]] = set()
    for scenario in scenarios:
        for citation in scenario.citations:
            # A Rule: block's line is every scenario's of the block: checked (and said) once.
            key = (scenario.path, citation.line, citation.text)
            if key not in seen:
                seen.add(key)
                if found := _citation_problem(scenario, citation, known):
                    problems[key] = found
        if game.cites_required:
            for found in _required(scenario, known, rulings):
                problems[(scenario.path, scenario.line, found.message)] = found
    out = list(problems.values())
    if game.cites_required:
        out += _uncited(game, scenarios, rulings)
    return out


def _citation_problem(scenario: ScenarioDoc, citation: Citation, known: Mapping[str, Game]
                      ) -> Problem | None:
    def problem(message: str) -> Problem:
        return Problem(scenario.path, citation.line, f"Cites: {citation.text}", message)

    if citation.error:
        return problem(citation.error)
    game_id = citation.anchor.partition(":")[0]
    cited = known.get(game_id)
    if cited is None:
        return problem(f"unknown game {game_id!r} in {citation.anchor} (games: "
                       f"{', '.join(known)})")
    catalog = cited.catalog
    sentence = catalog.sentence(citation.anchor)
    if sentence is None:
        if catalog.retired_sentence(citation.anchor) is not None:
            return None  # text the rules no longer have: stale in the run, not refused
        return problem(_no_such_sentence(catalog, citation.anchor))
    if sentence.waived:
        return problem(f"{citation.anchor} is waived: {sentence.waiver}. No scenario can "
                       "check it, so none may rest on it; cite the sentence the "
                       "expectations rest on instead")
    if citation.quote is not None:
        text, lang = _text_for(sentence, scenario.language)
        if quote_form(citation.quote) not in quote_form(text):
            where = f"its {lang} text" if lang else "it"
            return problem(f"the quote {citation.quote!r} is not in {citation.anchor}; {where} "
                           f"reads: {text!r}. Quote a few words of it exactly (quotes, "
                           "dashes and spaces may differ), or cite the sentence that says it")
    return None


def _text_for(sentence: Sentence, language: str) -> tuple[str, str]:
    """The sentence in the scenario's language if the catalog has it so (and which language
    that is), else in the rules source's."""
    translated = sentence.translations.get(language)
    return (translated, language) if translated else (sentence.text, "")


def _no_such_sentence(catalog: Catalog, anchor: str) -> str:
    rule = anchor.partition("#")[0]
    own = [s for s in catalog.sentences if s.owner == rule]
    if own:
        listed = "; ".join(f"{s.anchor} {_short(s.text)!r}" for s in own)
        return f"{rule} has no sentence #{anchor.partition('#')[2]}; its sentences: {listed}"
    near = closest_anchors(catalog, anchor)
    hint = f"; the closest anchors: {', '.join(near)}" if near else ""
    return f"{anchor} is no sentence of the {catalog.game} catalog{hint}"


def _required(scenario: ScenarioDoc, known: Mapping[str, Game], rulings: Rulings
              ) -> list[Problem]:
    """The scenario cites something, and a sentence of each catalog rule its tags name."""
    ruling = rulings.of(scenario)
    tagged = [t.name for t in scenario.tags if RULE_TAG.match(t.name)]
    cited_rules = {c.rule for c in scenario.citations if c.anchor}
    problems = []
    what = "ruling" if ruling else "scenario"
    refine = (" (a ruling cites the sentence it refines, beside its own 'Source:')"
              if ruling else "")
    if not [c for c in scenario.citations if c.anchor or c.error]:
        problems.append(Problem(
            scenario.path, scenario.line, f"Scenario: {scenario.name}",
            f"this {what} cites no sentence of the rules{refine}; add a 'Cites: ANCHOR' line "
            "for each sentence its expectations rest on (on its Rule: block for all of its "
            "scenarios)" + _suggest(tagged, known)))
        return problems
    for rule_id in dict.fromkeys(tagged):
        if rule_id in cited_rules or COMMITTEE_ID.match(rule_id):
            continue
        game = known.get(rule_id.partition(":")[0])
        if game is None or game.catalog.get(rule_id) is None:
            continue  # the tag checks say so
        problems.append(Problem(
            scenario.path, scenario.line, f"Scenario: {scenario.name}",
            f"this {what} is tagged @{rule_id} but cites no sentence of it{refine}: its "
            f"expectations are charged to {rule_id}, so one of them must rest on a sentence "
            "of it. Cite it, or tag the scenario with the rule it checks"
            + _suggest([rule_id], known)))
    return problems


def _suggest(rules: list[str], known: Mapping[str, Game]) -> str:
    lines = []
    for rule_id in dict.fromkeys(rules):
        game = known.get(rule_id.partition(":")[0])
        if game is None:
            continue
        lines += [f"Cites: {s.anchor} \"{_short(s.text)}\""
                  for s in game.catalog.sentences if s.owner == rule_id and not s.waived]
    return ("; the sentences of its rule:\n      " + "\n      ".join(lines)) if lines else ""


def _uncited(game: Game, scenarios: list[ScenarioDoc], rulings: Rulings) -> list[Problem]:
    """Every sentence of a testable rule is cited by a scenario that runs and counts (not
    retired, not a probe), or waived with its reason."""
    cited: set[str] = set()
    retired = rulings.retirements(game.id)
    for scenario in scenarios:
        ruling = rulings.of(scenario)
        if ruling is None and scenario.name in retired:
            continue  # retired by a ruling (a ruling's own scenario never is)
        if ruling is None or not ruling.probe:
            cited.update(scenario.cited_anchors)
    catalog = game.catalog
    for anchor in list(cited):  # a reworded sentence's citations stand for it until re-read
        retired = catalog.retired_sentence(anchor)
        if retired is not None and retired.successor:
            cited.add(retired.successor)
    problems = []
    for sentence in catalog.sentences:
        rule = catalog.get(sentence.owner) if not sentence.context else None
        if rule is None or not rule.testable or sentence.waived or sentence.anchor in cited:
            continue
        problems.append(Problem(
            game.folder / game.catalog_file, 1, f"{sentence.anchor}: {_short(sentence.text)}",
            f"sentence {sentence.anchor} is cited by no scenario and not waived; add a "
            f"'Cites: {sentence.anchor}' line to the scenario that checks it (or write one), "
            "or waive it with its reason in the game's importer"))
    return problems


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."
