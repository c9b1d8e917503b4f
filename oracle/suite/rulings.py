"""Rulings: scenarios a rules committee adds, with where they come from and how settled they are.

Why a model of its own: a ruling is not just one more scenario. It has an id of its own under
the rule it refines (``ti4:2.6.2/r1``), a provenance the reports show (source, date,
authority) and a standing that decides what its verdict means: an ``official`` ruling counts
like the rule's own scenarios, a ``pending``, ``disputed`` or ``superseded`` one is a *probe*
(its rows say whether the engine agrees, and it never fails a run). It may retire or replace a
bundled scenario, and it may add a rule id the rules text does not have, in a committee
namespace (``ti4:faq:opening-hand``), without anyone editing a generated catalog.

All of it is written in the feature file, as ``Key: value`` lines of the description of a
``Rule:`` block (every scenario of the block) or of one ``Scenario:`` (its lines win)::

    @ti4:2.6.2
    Rule: 2.6.2 Same-name cards cannot affect the same thing in one timing window
      Ruling: r1
      Source: Council FAQ 3, https://example.org/faq#3
      Date: 2024-02-11
      Authority: Council of Rules
      Status: official

Description lines survive pytest-bdd untouched (unlike tags with a colon, which cannot be
registered marks), and ``docs/rulings.md`` documents the keys. This module reads them and
checks them; ``oracle.suite.lint`` reports the problems before anything runs.
"""

from __future__ import annotations

import datetime
import difflib
import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path

from oracle.suite.catalog import Rule
from oracle.suite.features import KeyedLine, ScenarioDoc
from oracle.suite.problems import Problem

RULE_TAG = re.compile(r"^(?P<game>[a-z0-9][a-z0-9_-]*):(?P<id>\S+)$")
#: A rule id a committee adds: ``GAME:NAMESPACE:ID`` (the catalog's ids have no second colon).
COMMITTEE_ID = re.compile(r"^(?P<game>[a-z0-9][a-z0-9_-]*):(?P<ns>[a-z][a-z0-9-]*):"
                          r"(?P<local>[A-Za-z0-9][\w.-]*)$")
_LOCAL = re.compile(r"^[A-Za-z0-9][\w.-]*$")

KEYS = ("Ruling", "Source", "Date", "Authority", "Status", "Refines", "Retires", "Replaces",
        "Reason")
"""The description keys of a ruling (matched without regard to case)."""
REQUIRED = ("Source", "Date", "Authority", "Status")


class Standing(StrEnum):
    """How settled a ruling is; only an official one counts towards its rule."""

    OFFICIAL = "official"
    PENDING = "pending"
    DISPUTED = "disputed"
    SUPERSEDED = "superseded"


@dataclass(frozen=True)
class Retirement:
    """A bundled scenario a ruling retires (no longer runs) or replaces (its own run instead)."""

    scenario: str
    reason: str
    by: str  # the ruling's id
    replaced: bool
    #: Only an official ruling retires anything; a probe's retirement is shown, not applied.
    effective: bool
    location: str = ""  # where the retired scenario is (filled in when it is found)
    rules: tuple[str, ...] = ()  # the rules the retired scenario cites (filled in too)


@dataclass(frozen=True)
class Ruling:
    """One ruling: its id, the rule it refines, its provenance, standing and scenarios."""

    id: str
    refines: str
    source: str
    date: str
    authority: str
    standing: Standing
    path: Path
    line: int
    superseded_by: str | None = None
    scenarios: tuple[str, ...] = ()
    retires: tuple[Retirement, ...] = ()
    #: For a ruling that adds a committee rule id: that rule's text.
    adds: str | None = None

    @property
    def game(self) -> str:
        return self.refines.partition(":")[0]

    @property
    def probe(self) -> bool:
        """Pending, disputed or superseded: shown with whether the engine agrees, never
        failing a run nor counting towards its rule."""
        return self.standing != Standing.OFFICIAL

    @property
    def status_text(self) -> str:
        """The ``Status:`` as written back: ``official`` or ``superseded by ti4:2.6.2/r2``."""
        if self.standing == Standing.SUPERSEDED:
            return f"superseded by {self.superseded_by}"
        return str(self.standing)

    def provenance(self) -> dict[str, str]:
        return {"source": self.source, "date": self.date, "authority": self.authority,
                "status": self.status_text, "refines": self.refines}

    def same_as(self, other: Ruling) -> bool:
        """Whether two declarations of one ruling id agree on everything but the scenario."""
        return (self.refines, self.provenance(), self.retires) == (
            other.refines, other.provenance(), other.retires)


@dataclass(frozen=True)
class Rulings:
    """Every ruling of a run: by id, by scenario, the retirements and the rule ids added."""

    by_id: Mapping[str, Ruling] = field(default_factory=dict)
    #: (feature file, scenario name) -> ruling id.
    by_scenario: Mapping[tuple[Path, str], str] = field(default_factory=dict)

    def of(self, scenario: ScenarioDoc) -> Ruling | None:
        ruling_id = self.by_scenario.get((scenario.path, scenario.name))
        return self.by_id.get(ruling_id) if ruling_id else None

    def of_test(self, path: Path, name: str) -> Ruling | None:
        if not self.by_scenario:  # asked once per test: most runs have no ruling at all
            return None
        ruling_id = self.by_scenario.get((_resolved(path), name))
        return self.by_id.get(ruling_id) if ruling_id else None

    def retirements(self, game: str) -> dict[str, Retirement]:
        """The bundled scenarios of a game retired by an official ruling, by name."""
        return {r.scenario: r for ruling in self.by_id.values() if ruling.game == game
                for r in ruling.retires if r.effective}

    def retired(self, scenario: ScenarioDoc, game: str) -> Retirement | None:
        if (scenario.path, scenario.name) in self.by_scenario:
            return None  # a ruling's own scenario is never retired by name
        return self.retirements(game).get(scenario.name)

    def added_ids(self) -> set[str]:
        return {r.refines for r in self.by_id.values() if r.adds is not None}

    def added_rules(self, game: str) -> list[Rule]:
        """The rule ids rulings add to a game, as catalog rules (never written to a catalog)."""
        seen: dict[str, Rule] = {}
        for ruling in sorted(self.by_id.values(), key=lambda r: r.id):
            if ruling.adds is not None and ruling.game == game and ruling.refines not in seen:
                local = ruling.refines.partition(":")[2]
                seen[ruling.refines] = Rule(game=game, local_id=local, text=ruling.adds,
                                            kind="committee",
                                            source=f"{ruling.path}:{ruling.line}")
        return list(seen.values())

    def of_rule(self, rule_id: str) -> list[Ruling]:
        return sorted((r for r in self.by_id.values() if r.refines == rule_id),
                      key=lambda r: r.id)


def read_rulings(scenarios: Iterable[ScenarioDoc], catalog_ids: Iterable[str] = ()
                 ) -> tuple[Rulings, list[Problem]]:
    """The rulings among some scenarios, and what is wrong with how they are written.

    ``catalog_ids`` are the rule ids of every catalog of the run: a ruling that refines an id
    outside them must add it (a committee id, ``GAME:NAMESPACE:ID``).
    """
    scenarios = list(scenarios)
    known = set(catalog_ids)
    problems: list[Problem] = []
    by_id: dict[str, Ruling] = {}
    by_scenario: dict[tuple[Path, str], str] = {}
    for scenario in scenarios:
        ruling, found = _ruling_of(scenario, known)
        problems += found
        if ruling is None:
            continue
        first = by_id.get(ruling.id)
        if first is not None and not first.same_as(ruling):
            problems.append(Problem(ruling.path, ruling.line, f"Ruling: {ruling.id}",
                                    f"ruling {ruling.id} is declared again with another "
                                    f"provenance (first at {first.path}:{first.line}); give "
                                    "this one its own id, or the same lines"))
            continue
        by_id[ruling.id] = ruling if first is None else replace(
            first, scenarios=(*first.scenarios, scenario.name))
        by_scenario[(scenario.path, scenario.name)] = ruling.id
    rulings = Rulings(by_id, by_scenario)
    problems += _check_links(rulings, scenarios)
    return _locate_retired(rulings, scenarios), problems


def _values(scenario: ScenarioDoc) -> dict[str, list[KeyedLine]]:
    """The ruling keys of a scenario: its own lines win over its Rule: block's, key by key."""
    rule: dict[str, list[KeyedLine]] = {}
    own: dict[str, list[KeyedLine]] = {}
    for line in scenario.keyed():
        key = next((k for k in KEYS if k.lower() == line.key.lower()), None)
        if key is not None:
            (rule if line.where == "rule" else own).setdefault(key, []).append(line)
    return {**rule, **own}


def _ruling_of(scenario: ScenarioDoc, known: set[str]
               ) -> tuple[Ruling | None, list[Problem]]:
    values = _values(scenario)
    if not values:
        return None, []
    where = scenario.path
    if "Ruling" not in values:
        line = next(iter(values.values()))[0]
        return None, [Problem(where, line.line, f"{line.key}: {line.value}",
                              f"a ruling's '{line.key}:' line, but no 'Ruling: ID' line says "
                              "which ruling this is; add 'Ruling: r1' (an id of its own under "
                              "the rule it refines), see docs/rulings.md")]
    head = values["Ruling"][0]
    problems: list[Problem] = []

    def refuse(line: KeyedLine, message: str) -> None:
        problems.append(Problem(where, line.line, f"{line.key}: {line.value}", message))

    cited = [t.name for t in scenario.tags if RULE_TAG.match(t.name)]
    if len(set(cited)) != 1:
        refuse(head, f"a ruling refines exactly one rule, and this scenario cites "
               f"{', '.join(dict.fromkeys(cited)) or 'none'}; tag its Rule: block (or it) "
               "with the one rule id it refines, e.g. @ti4:2.6.2")
        return None, problems
    refines = cited[0]
    ruling_id = _ruling_id(head.value, refines)
    if ruling_id is None:
        refuse(head, f"'{head.value}' is not a ruling id: write a short id of its own, like "
               f"'Ruling: r1' (it becomes {refines}/r1), or the whole id '{refines}/r1'")
        return None, problems
    standing, successor = _checked_lines(values, ruling_id, refines, head, refuse)
    adds = None
    if refines not in known:
        if COMMITTEE_ID.match(refines) is None:
            return None, problems  # an unknown id: the tag check names the closest ones
        adds = scenario.rule.partition(" ")[2] if scenario.rule.startswith(
            refines.partition(":")[2]) else (scenario.rule or scenario.name)
    retires, found = _retirements(values, ruling_id, standing, where)
    problems += found
    if problems:
        return None, problems
    return Ruling(
        id=ruling_id, refines=refines, source=values["Source"][0].value,
        date=values["Date"][0].value, authority=values["Authority"][0].value,
        standing=standing, superseded_by=successor, path=where, line=head.line,
        scenarios=(scenario.name,), retires=retires, adds=adds), problems


def _checked_lines(values: Mapping[str, list[KeyedLine]], ruling_id: str, refines: str,
                   head: KeyedLine, refuse: Callable[[KeyedLine, str], None]
                   ) -> tuple[Standing, str | None]:
    """Check a ruling's provenance lines (``refuse`` says what is wrong with one); return its
    standing and what supersedes it."""
    for key in REQUIRED:
        if key not in values:
            refuse(head, f"ruling {ruling_id} has no '{key}:' line; a ruling says its source "
                   "(document or URL), date (YYYY-MM-DD), authority and status (official, "
                   "pending, disputed, or superseded by ID): see docs/rulings.md")
    if "Refines" in values:
        line = values["Refines"][0]
        if line.value != refines:
            refuse(line, f"'Refines: {line.value}' but the scenario is tagged @{refines}; a "
                   "ruling refines the rule it is tagged with: make them the same")
    date = values.get("Date", [None])[0]
    if date is not None and not _is_date(date.value):
        refuse(date, f"'{date.value}' is not a date; write it YYYY-MM-DD, e.g. 2024-02-11")
    for key in ("Source", "Authority"):
        line = values.get(key, [None])[0]
        if line is not None and not line.value:
            refuse(line, f"an empty '{key}:' line; say where the ruling comes from")
    status = values.get("Status", [None])[0]
    if status is None:
        return Standing.OFFICIAL, None
    parsed = _standing(status.value, refines)
    if parsed is None:
        near = difflib.get_close_matches(status.value.lower(), [str(s) for s in Standing],
                                         n=1, cutoff=0.4)
        hint = f"; did you mean '{near[0]}'?" if near else ""
        refuse(status, f"unknown status '{status.value}': write official, pending, "
               f"disputed, or superseded by RULING-ID{hint}")
        return Standing.OFFICIAL, None
    return parsed


def _ruling_id(text: str, refines: str) -> str | None:
    local = text.strip().removeprefix(f"{refines}/")
    return f"{refines}/{local}" if _LOCAL.match(local) else None


def _is_date(text: str) -> bool:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _standing(text: str, refines: str) -> tuple[Standing, str | None] | None:
    words = text.strip()
    lowered = words.lower()
    for standing in (Standing.OFFICIAL, Standing.PENDING, Standing.DISPUTED):
        if lowered == standing:
            return standing, None
    m = re.fullmatch(r"superseded by (\S+)", words, re.IGNORECASE)
    if m:
        successor = m.group(1) if ":" in m.group(1) else f"{refines}/{m.group(1)}"
        return Standing.SUPERSEDED, successor
    return None


def _retirements(values: Mapping[str, list[KeyedLine]], ruling_id: str, standing: Standing,
                 where: Path) -> tuple[tuple[Retirement, ...], list[Problem]]:
    lines = [(line, False) for line in values.get("Retires", [])] + [
        (line, True) for line in values.get("Replaces", [])]
    if not lines:
        return (), []
    reason = values.get("Reason", [None])[0]
    if reason is None or not reason.value:
        line = lines[0][0]
        return (), [Problem(where, line.line, f"{line.key}: {line.value}",
                            f"ruling {ruling_id} {line.key.lower()} a scenario without saying "
                            "why; add a 'Reason: ...' line (reports show it)")]
    return tuple(Retirement(line.value.strip().strip('"'), reason.value, ruling_id, replaced,
                            standing == Standing.OFFICIAL) for line, replaced in lines), []


def _check_links(rulings: Rulings, scenarios: list[ScenarioDoc]) -> list[Problem]:
    """Supersession names a ruling; a retirement names a scenario of the ruling's game."""
    problems = []
    names: dict[str, list[str]] = {}
    for scenario in scenarios:
        game = next((RULE_TAG.match(t.name)["game"] for t in scenario.tags  # type: ignore[index]
                     if RULE_TAG.match(t.name)), None)
        if game and (scenario.path, scenario.name) not in rulings.by_scenario:
            names.setdefault(game, []).append(scenario.name)
    for ruling in rulings.by_id.values():
        if ruling.superseded_by and ruling.superseded_by not in rulings.by_id:
            others = [i for i in rulings.by_id if i != ruling.id]
            near = difflib.get_close_matches(ruling.superseded_by, others, n=3, cutoff=0.5)
            problems.append(Problem(
                ruling.path, ruling.line, f"Status: {ruling.status_text}",
                f"ruling {ruling.id} is superseded by {ruling.superseded_by}, which is no "
                "ruling of this run" + (f"; did you mean {', '.join(near)}?" if near else
                                        "; name the ruling that replaces it")))
        if ruling.superseded_by == ruling.id:
            problems.append(Problem(ruling.path, ruling.line, f"Status: {ruling.status_text}",
                                    f"ruling {ruling.id} cannot supersede itself"))
        for retirement in ruling.retires:
            if retirement.scenario not in names.get(ruling.game, []):
                near = difflib.get_close_matches(retirement.scenario,
                                                 names.get(ruling.game, []), n=3, cutoff=0.5)
                problems.append(Problem(
                    ruling.path, ruling.line, f"{retirement.scenario!r}",
                    f"ruling {ruling.id} {'replaces' if retirement.replaced else 'retires'} "
                    f"{retirement.scenario!r}, which is no scenario of {ruling.game}"
                    + (f"; did you mean {' or '.join(repr(n) for n in near)}?" if near
                       else "; write the scenario's name as it is after 'Scenario:'")))
    return problems


def _locate_retired(rulings: Rulings, scenarios: list[ScenarioDoc]) -> Rulings:
    """Fill in where each retired scenario is, for the reports."""
    where = {s.name: (f"{s.path}:{s.line}", tuple(t.name for t in s.tags
                                                  if RULE_TAG.match(t.name)))
             for s in scenarios if (s.path, s.name) not in rulings.by_scenario}
    by_id = {rid: replace(r, retires=tuple(
        replace(t, location=where.get(t.scenario, ("", ()))[0],
                rules=where.get(t.scenario, ("", ()))[1]) for t in r.retires))
        for rid, r in rulings.by_id.items()}
    return Rulings(by_id, rulings.by_scenario)


@functools.lru_cache(maxsize=1024)
def _resolved(path: Path) -> Path:
    """A feature file's resolved path (asked once per test; the files do not move)."""
    return path.resolve()
