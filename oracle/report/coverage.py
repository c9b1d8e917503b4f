"""Sentence coverage: the rules text, sentence by sentence, with what checks each sentence.

Why a document of its own: a conformance report says how an engine did on each *rule*; a
rules committee first asks the question before that one, what the suite checks at all. Each
sentence of a catalog (``oracle.suite.catalog``) is listed with the scenarios that cite it
(their ``Cites:`` lines), the mutants that make those scenarios fail (the selftest harness:
evidence that they can fail), the rulings that refine it, and, with an engine, the verdicts
of those scenarios on it. A sentence is:

- ``covered``: a scenario that counts cites it (not retired by an official ruling, not a
  probe: a pending, disputed or superseded ruling counts for nothing, as in a run);
- ``waived``: no scenario cites it and the catalog says why none can (a waived sentence, or
  one of an untestable rule);
- ``uncovered``: neither: what the suite does not check yet.

Context sentences (the related chapters a scenario may lean on: turn order, the status
phase's steps) are no rules: they are listed apart, with the scenarios citing them, and never
count as uncovered. The same rules decide "cited" here and in the suite checks'
``cites: required`` (``oracle.suite.citations``), so the two cannot disagree.

The document is typed and frozen like a report, with a schema
(``oracle/protocol/schemas/v1/coverage.json``); its formats are the report formats' registry
(``oracle.report.formats``: each format's ``coverage`` renderer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oracle.report.build import rule_status
from oracle.report.model import Status, read_checked
from oracle.suite.rulings import RULE_TAG

if TYPE_CHECKING:
    from oracle.suite.catalog import Catalog, Sentence
    from oracle.suite.features import ScenarioDoc
    from oracle.suite.rulings import Rulings

COVERAGE_VERSION = 1

COVERED, WAIVED, UNCOVERED, CONTEXT = "covered", "waived", "uncovered", "context"
SENTENCE_STATUSES = (COVERED, WAIVED, UNCOVERED, CONTEXT)
"""A sentence's status: of a rule, the first three; of a related chapter, ``context``."""

NO_CITATION = "no scenario cites it"
ONLY_PROBES = ("only rulings that are probes (pending, disputed or superseded) cite it, and "
               "they count for nothing")


@dataclass(frozen=True)
class CitingScenario:
    """A scenario that cites a sentence: where it is, for which rules, whose ruling it is,
    and what is known of it (the mutants it fails on; its rows' verdicts on an engine)."""

    name: str
    location: str
    rules: tuple[str, ...]
    ruling: str | None = None
    standing: str | None = None  # the ruling's: official | pending | disputed | superseded
    #: A probe (a ruling not official) counts for nothing, as in a run.
    probe: bool = False
    #: ``GAME/NAME`` of each mutant on which one of its rows fails or errors.
    mutants: tuple[str, ...] = ()
    #: With an engine: each row's (an outline's every row, a plain scenario's one) verdict.
    rows: tuple[tuple[str, Status], ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "location": self.location,
                                "rules": list(self.rules), "mutants": list(self.mutants)}
        if self.ruling:
            data.update(ruling=self.ruling, standing=self.standing, probe=self.probe)
        if self.rows:
            data["verdicts"] = [{"name": n, "status": str(s)} for n, s in self.rows]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CitingScenario:
        return cls(data["name"], data.get("location", ""), tuple(data.get("rules", ())),
                   data.get("ruling"), data.get("standing"), bool(data.get("probe", False)),
                   tuple(data.get("mutants", ())),
                   tuple((v["name"], Status(v["status"])) for v in data.get("verdicts", ())))


@dataclass(frozen=True)
class RulingRef:
    """A ruling refining a sentence (its scenarios cite it): its id and standing."""

    id: str
    standing: str
    source: str = ""

    @property
    def probe(self) -> bool:
        return self.standing != "official"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "standing": self.standing, "probe": self.probe,
                "source": self.source}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RulingRef:
        return cls(data["id"], data.get("standing", "official"), data.get("source", ""))


@dataclass(frozen=True)
class SentenceCoverage:
    """One sentence and what checks it."""

    anchor: str
    text: str
    owner: str  # the rule (or context item) it belongs to: ``ti4:2.4``
    status: str  # one of SENTENCE_STATUSES
    #: Why it is waived (the catalog's reason) or uncovered; empty when covered.
    reason: str = ""
    scenarios: tuple[CitingScenario, ...] = ()
    rulings: tuple[RulingRef, ...] = ()
    #: Context only: the chapter's id and title, and the item's label or heading.
    chapter: str = ""
    chapter_title: str = ""
    label: str = ""

    @property
    def game(self) -> str:
        return self.owner.partition(":")[0]

    @property
    def counting(self) -> tuple[CitingScenario, ...]:
        """The citing scenarios that count (no probe)."""
        return tuple(s for s in self.scenarios if not s.probe)

    @property
    def mutants(self) -> tuple[str, ...]:
        """The mutants that fail a counting scenario citing it, once each, in order."""
        return tuple(dict.fromkeys(m for s in self.counting for m in s.mutants))

    @property
    def verdict(self) -> Status | None:
        """With an engine: the sentence's status from its counting scenarios' rows, as a
        rule's is decided from its scenarios' (None without an engine, or when none ran)."""
        rows = [status for s in self.counting for _, status in s.rows]
        return rule_status(True, rows) if rows else None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "anchor": self.anchor, "text": self.text, "rule": self.owner,
            "status": self.status,
            **({"reason": self.reason} if self.reason else {}),
            "scenarios": [s.to_json() for s in self.scenarios],
            "mutants": list(self.mutants),
            "rulings": [r.to_json() for r in self.rulings]}
        if self.verdict is not None:
            data["verdict"] = str(self.verdict)
        if self.chapter:
            data.update(chapter=self.chapter, chapter_title=self.chapter_title,
                        label=self.label)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SentenceCoverage:
        return cls(data["anchor"], data.get("text", ""), data.get("rule", ""),
                   data["status"], data.get("reason", ""),
                   tuple(CitingScenario.from_json(s) for s in data.get("scenarios", ())),
                   tuple(RulingRef.from_json(r) for r in data.get("rulings", ())),
                   data.get("chapter", ""), data.get("chapter_title", ""),
                   data.get("label", ""))


@dataclass(frozen=True)
class UncitedScenario:
    """A scenario that cites no sentence: it checks something, but nobody can say which."""

    name: str
    location: str
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "location": self.location, "rules": list(self.rules)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UncitedScenario:
        return cls(data["name"], data.get("location", ""), tuple(data.get("rules", ())))


@dataclass(frozen=True)
class Coverage:
    """Every sentence of the selected games' catalogs, what checks it, and totals per game.

    ``mutants`` is how many mutants ran (None: they were not run, so no sentence lists any);
    ``engine`` the engine whose verdicts are shown (its spec and how its run ended), if any.
    """

    games: Mapping[str, str]  # id -> title, in order
    sentences: tuple[SentenceCoverage, ...]
    context: tuple[SentenceCoverage, ...] = ()
    uncited: tuple[UncitedScenario, ...] = ()
    mutants: int | None = None
    engine: Mapping[str, Any] | None = None
    #: What was run to make this document, for its reader (``rules-oracle coverage ...``).
    command: str = ""
    notes: tuple[str, ...] = field(default=())

    def totals(self, game: str) -> dict[str, Any]:
        """A game's counts: its rules' sentences by status, its context sentences (and how
        many are cited), the scenarios citing nothing, and (with mutants) how many covered
        sentences no mutant's failure backs."""
        mine = [s for s in self.sentences if s.game == game]
        context = [s for s in self.context if s.game == game]
        totals: dict[str, Any] = {
            "title": self.games[game], "sentences": len(mine),
            **{status: sum(1 for s in mine if s.status == status)
               for status in (COVERED, WAIVED, UNCOVERED)},
            "context": len(context),
            "context_cited": sum(1 for s in context if s.scenarios),
            "uncited_scenarios": sum(1 for u in self.uncited
                                     if any(r.partition(":")[0] == game for r in u.rules))}
        if self.mutants is not None:
            totals["covered_without_mutant"] = sum(1 for s in mine if s.status == COVERED
                                                   and not s.mutants)
        return totals

    @property
    def complete(self) -> bool:
        """Every sentence of every testable rule is covered or waived."""
        return not any(s.status == UNCOVERED for s in self.sentences)

    def to_json(self) -> dict[str, Any]:
        return {"version": COVERAGE_VERSION,
                **({"command": self.command} if self.command else {}),
                **({"engine": dict(self.engine)} if self.engine is not None else {}),
                "mutants": self.mutants,
                "games": {g: self.totals(g) for g in self.games},
                "sentences": [s.to_json() for s in self.sentences],
                "context": [s.to_json() for s in self.context],
                "uncited": [u.to_json() for u in self.uncited],
                "notes": list(self.notes)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Coverage:
        return cls({g: t.get("title", g) for g, t in data.get("games", {}).items()},
                   tuple(SentenceCoverage.from_json(s) for s in data.get("sentences", ())),
                   tuple(SentenceCoverage.from_json(s) for s in data.get("context", ())),
                   tuple(UncitedScenario.from_json(u) for u in data.get("uncited", ())),
                   data.get("mutants"), data.get("engine"), data.get("command", ""),
                   tuple(data.get("notes", ())))


def load_coverage(path: Path) -> Coverage:
    """Read a coverage document written by ``rules-oracle coverage --json``, checked."""
    return Coverage.from_json(read_checked(path, "coverage", "rules-oracle coverage --json"))


# -- building it -------------------------------------------------------------------------------


def build_coverage(
    catalogs: Iterable[Catalog],
    scenarios: Mapping[str, Iterable[ScenarioDoc]],
    rulings: Rulings,
    *,
    row_names: Callable[[ScenarioDoc], list[str]],
    kills: Mapping[tuple[str, str], tuple[str, ...]] | None = None,
    verdicts: Mapping[tuple[str, str], Status] | None = None,
    locate: Callable[[Path], str] = str,
    **extra: Any,
) -> Coverage:
    """Join each sentence of the catalogs to the scenarios citing it.

    ``scenarios``: each game's scenario docs (all of its feature files, committee folders
    included); ``row_names``: a doc's runnable scenarios' names (an outline's rows, as runs
    and the harness name them); ``kills``: ``(game, row name)`` -> the mutants it fails on
    (None: no mutant ran); ``verdicts``: ``(game, row name)`` -> its status on the engine.
    ``extra``: the document's ``mutants``, ``engine``, ``command`` and ``notes``.
    """
    catalogs = list(catalogs)
    citing: dict[str, list[CitingScenario]] = {}
    refining: dict[str, dict[str, RulingRef]] = {}
    uncited: list[UncitedScenario] = []
    for game, docs in scenarios.items():
        for doc in docs:
            if rulings.retired(doc, game) is not None:
                continue  # an official ruling took it out of every run
            scenario, ruling = _citing(game, doc, rulings, row_names(doc), kills, verdicts,
                                       locate)
            if not doc.cited_anchors:
                uncited.append(UncitedScenario(scenario.name, scenario.location,
                                               scenario.rules))
            for anchor in doc.cited_anchors:
                citing.setdefault(anchor, []).append(scenario)
                if ruling is not None:
                    refining.setdefault(anchor, {})[ruling.id] = ruling
    sentences: list[SentenceCoverage] = []
    context: list[SentenceCoverage] = []
    for catalog in catalogs:
        for rule in catalog.rules:
            for sentence in rule.sentences:
                sentences.append(_sentence(sentence, citing, refining, rule.testable,
                                           rule.untestable_reason))
        for chapter in catalog.context:
            for item in chapter.items:
                for sentence in item.sentences:
                    found = tuple(citing.get(sentence.anchor, ()))
                    context.append(SentenceCoverage(
                        sentence.anchor, sentence.text, sentence.owner, CONTEXT,
                        scenarios=found,
                        rulings=tuple(refining.get(sentence.anchor, {}).values()),
                        chapter=chapter.id, chapter_title=chapter.title,
                        label=item.label or item.heading or ""))
    return Coverage({c.game: c.title for c in catalogs}, tuple(sentences), tuple(context),
                    tuple(uncited), **extra)


def _citing(game: str, doc: ScenarioDoc, rulings: Rulings, rows: list[str],
            kills: Mapping[tuple[str, str], tuple[str, ...]] | None,
            verdicts: Mapping[tuple[str, str], Status] | None,
            locate: Callable[[Path], str]) -> tuple[CitingScenario, RulingRef | None]:
    ruling = rulings.of(doc)
    mutants = tuple(dict.fromkeys(m for row in rows for m in (kills or {}).get((game, row), ())))
    ran = tuple((row, verdicts[(game, row)]) for row in rows
                if verdicts is not None and (game, row) in verdicts)
    scenario = CitingScenario(
        doc.name, f"{locate(doc.path)}:{doc.line}",
        tuple(t for t in doc.tag_names if RULE_TAG.match(t)),
        ruling.id if ruling else None, str(ruling.standing) if ruling else None,
        bool(ruling and ruling.probe), mutants, ran)
    ref = RulingRef(ruling.id, str(ruling.standing), ruling.source) if ruling else None
    return scenario, ref


def _sentence(sentence: Sentence, citing: Mapping[str, list[CitingScenario]],
              refining: Mapping[str, Mapping[str, RulingRef]], testable: bool,
              untestable_reason: str | None) -> SentenceCoverage:
    found = tuple(citing.get(sentence.anchor, ()))
    counting = [s for s in found if not s.probe]
    if counting:
        status, reason = COVERED, ""
    elif sentence.waived or not testable:
        status, reason = WAIVED, sentence.waiver or untestable_reason or ""
    else:
        status, reason = UNCOVERED, ONLY_PROBES if found else NO_CITATION
    return SentenceCoverage(sentence.anchor, sentence.text, sentence.owner, status, reason,
                            found, tuple(refining.get(sentence.anchor, {}).values()))
