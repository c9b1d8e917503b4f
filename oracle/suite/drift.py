"""Drift between the editions and translations of a game's rules, and the contradictions a
reviewer recorded between its sources.

Why: an engine team reads one rendering, a translator another, a committee a third; where
they part, scenarios that rest on the text may rest on words some readers never saw. So,
across the editions a catalog lists (``Catalog.editions``), this finds every sentence an
edition words otherwise than the canonical (verbatim, and named by kind: markup, spacing,
quotes, dashes, words; ``oracle.suite.wording``), every sentence a translation lacks, and
every rule it numbers otherwise; each with the scenarios and rulings that cite it.

Where one source *contradicts* another on a fact the scenarios rely on (a phase, an order, a
count), no keyword match can tell: a reviewer records it in ``features/GAME/contradictions.yaml``
(each side an anchor and the words that say it, checked against the sentence the way a
``Cites:`` quote is, so a side that no longer says it is refused), and drift reports it with
the scenarios citing either side.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from oracle.suite import filecheck
from oracle.suite.catalog import (
    RENDERING,
    TRANSLATION,
    Catalog,
    CatalogFileError,
    Edition,
    closest_anchors,
)
from oracle.suite.citations import quote_form
from oracle.suite.editions import Citer
from oracle.suite.wording import differences, word_diff

if TYPE_CHECKING:
    from oracle.suite.games import Game

__all__ = ["CONTRADICTIONS_FILE", "FACTS", "Contradiction", "GameDrift", "Side",
           "game_drift", "load_contradictions"]

#: The reviewed table of contradictions, in a game's folder.
CONTRADICTIONS_FILE = "contradictions.yaml"
#: What a contradiction may be about: the facts scenarios rely on.
FACTS: tuple[str, ...] = tuple(
    filecheck.load("contradictions")["$defs"]["contradiction"]["properties"]["fact"]["enum"])

@dataclass(frozen=True)
class Side:
    """One source's side of a contradiction: the sentence (``cites``), the words in it
    that say it (``says``), in an edition's wording where given, and the sentence's text."""

    anchor: str
    says: str
    text: str
    edition: str | None = None
    source: str = ""


@dataclass(frozen=True)
class Contradiction:
    """Two or more sources that say different things of one ``fact``; ``question`` is what
    they answer differently, ``reading`` how the scenarios read it, ``line`` where it is."""

    id: str
    fact: str
    question: str
    sides: tuple[Side, ...]
    reading: str = ""
    line: int = 0


def load_contradictions(game: Game) -> tuple[Path, list[Contradiction]]:
    """A game's reviewed contradictions (none if it has no table), each side checked
    against its sentence; a ``CatalogFileError`` naming the file and line otherwise."""
    path = game.folder / CONTRADICTIONS_FILE
    if not path.exists():
        return path, []
    try:
        text = path.read_text(encoding="utf-8")
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogFileError(f"{path}: cannot read the contradictions ({exc})") from exc
    entries = root.value if isinstance(root, yaml.MappingNode) else None
    items = next((v for k, v in entries or () if k.value == "contradictions"), None)
    if not isinstance(items, yaml.SequenceNode):
        raise CatalogFileError(f"{path}: expected 'contradictions:' and a list of them "
                               "(docs/rulings.md, 'Contradictions between sources')")
    if found := filecheck.problem(path, yaml.safe_load(text), "contradictions", text):
        raise CatalogFileError(f"{found} (docs/rulings.md, 'Contradictions between sources')")
    out: list[Contradiction] = []
    for node in items.value:
        line = node.start_mark.line + 1
        data = yaml.safe_load(yaml.serialize(node))
        out.append(_contradiction(path, line, data, game.catalog))
        if [c.id for c in out].count(out[-1].id) > 1:
            raise CatalogFileError(f"{path}:{line}: the id {out[-1].id!r} is given twice")
    return path, out


def _contradiction(path: Path, line: int, data: Any, catalog: Catalog) -> Contradiction:
    where = f"{path}:{line}"
    # Its keys, their types and its fact were checked against the schema.
    sides = data["sides"]
    if len(sides) < 2:
        raise CatalogFileError(f"{where}: a contradiction has two sides or more")
    checked = tuple(_side(where, side, catalog) for side in sides)
    if len({(s.anchor, s.edition) for s in checked}) < len(checked):
        raise CatalogFileError(f"{where}: two sides cite the same sentence in the same "
                               "edition; a contradiction is between different texts")
    return Contradiction(str(data["id"]), data["fact"], str(data["question"]), checked,
                         str(data.get("reading") or "").strip(), line)


def _side(where: str, side: Any, catalog: Catalog) -> Side:
    anchor, says = str(side["cites"]), str(side["says"])
    sentence = catalog.sentence(anchor)
    if sentence is None:
        near = ", ".join(closest_anchors(catalog, anchor)) or "none"
        raise CatalogFileError(f"{where}: {anchor} is no sentence of the {catalog.game} "
                               f"catalog (closest: {near})")
    edition_name = side.get("edition")
    text: str | None = sentence.text
    if edition_name is not None:
        edition = catalog.edition(str(edition_name))
        if edition is None:
            raise CatalogFileError(f"{where}: no edition {edition_name!r} (editions: "
                                   f"{', '.join(e.name for e in catalog.editions)})")
        text = sentence.in_edition(edition)
        if text is None:
            raise CatalogFileError(f"{where}: {edition_name} lacks {anchor}")
    if quote_form(says) not in quote_form(text):
        raise CatalogFileError(f"{where}: {anchor} does not say {says!r}; it reads: {text!r}. "
                               "A side quotes the words of its sentence that say it")
    return Side(anchor, says, text, None if edition_name is None else str(edition_name),
                sentence.source)


# -- the drift of one game ------------------------------------------------------------------


@dataclass
class GameDrift:
    """What a game's editions do otherwise than its canonical text, and its contradictions,
    each with who cites the sentences concerned (as plain data: rendered by the command)."""

    game: str
    title: str
    editions: list[Edition]
    #: Per sentence an edition words otherwise: anchor, edition, kinds, both texts, diff.
    wording: list[dict[str, Any]] = field(default_factory=list)
    #: Per translation: the sentences it lacks, the rules it numbers otherwise.
    missing: list[dict[str, Any]] = field(default_factory=list)
    renumbered: list[dict[str, Any]] = field(default_factory=list)
    contradictions: list[dict[str, Any]] = field(default_factory=list)
    #: Where a reviewer records them (the file may not exist: none recorded).
    contradictions_file: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title,
                "editions": [_edition_json(e) for e in self.editions],
                "wording": self.wording, "missing": self.missing,
                "renumbered": self.renumbered, "contradictions": self.contradictions,
                "contradictions_file": self.contradictions_file}


def _edition_json(edition: Edition) -> dict[str, Any]:
    return {"name": edition.name, "source": edition.source, "role": edition.role,
            "lang": edition.lang, "numbering": edition.numbering, "version": edition.version,
            "date": edition.date, "about": edition.about, "changes": list(edition.changes)}


def game_drift(game: Game, index: Mapping[str, list[Citer]]) -> GameDrift:
    """The drift of a game's editions against its canonical text, and its reviewed
    contradictions (``CatalogFileError`` if that table no longer holds)."""
    catalog = game.catalog
    path, contradictions = load_contradictions(game)
    drift = GameDrift(game.id, catalog.title, list(catalog.editions),
                      contradictions_file=_shown(path))

    def cited(anchor: str) -> list[dict[str, object]]:
        return [c.to_json() for c in index.get(anchor, ())]

    for edition in catalog.editions:
        if edition.role == RENDERING:
            for rule in catalog.rules:
                for s in rule.sentences:
                    theirs = s.in_edition(edition)
                    if theirs is None or theirs == s.text:
                        continue
                    drift.wording.append({
                        "anchor": s.anchor, "edition": edition.name, "source": edition.source,
                        "kinds": list(differences(s.text, theirs)), "canonical": s.text,
                        "text": theirs, "diff": word_diff(s.text, theirs),
                        "cited_by": cited(s.anchor)})
        elif edition.role == TRANSLATION:
            for rule in catalog.rules:
                lacking = [s for s in rule.sentences if s.in_edition(edition) is None]
                for s in lacking:
                    drift.missing.append({
                        "anchor": s.anchor, "edition": edition.name, "rule": rule.id,
                        "whole_rule": len(lacking) == len(rule.sentences),
                        "text": s.text, "waiver": s.waiver, "cited_by": cited(s.anchor)})
                if rule.translation_lang == edition.lang and rule.translation_ref and \
                        rule.translation_ref != rule.local_id:
                    drift.renumbered.append({
                        "rule": rule.id, "edition": edition.name, "ref": rule.translation_ref,
                        "how": _how(rule.local_id, rule.translation_ref),
                        "cited_by": _cited_rule(index, rule.id)})
    for c in contradictions:
        drift.contradictions.append({
            "id": f"{game.id}/{c.id}", "fact": c.fact, "question": c.question,
            "reading": c.reading, "line": c.line,
            "sides": [{"anchor": s.anchor, "says": s.says, "text": s.text,
                       "source": s.source, **({"edition": s.edition} if s.edition else {}),
                       "cited_by": cited(s.anchor)} for s in c.sides]})
    return drift


def _shown(path: Path) -> str:
    """A file's path from the current folder where it is under it (what to open), else in
    full."""
    here = Path.cwd()
    return str(path.relative_to(here)) if path.is_relative_to(here) else str(path)


def _cited_rule(index: Mapping[str, list[Citer]], rule_id: str) -> list[dict[str, object]]:
    """Who cites any sentence of a rule, once each."""
    seen: dict[tuple[str, str], Citer] = {}
    for anchor, citers in index.items():
        if anchor.partition("#")[0] == rule_id:
            for c in citers:
                seen.setdefault((c.location, c.name), c)
    return [c.to_json() for c in seen.values()]


#: The letters lettered sub-points are counted in (Russian lists skip ё and й).
_LETTERS = ("abcdefghijklmnopqrstuvwxyz", "абвгдежзиклмнопрстуфхцчшщэюя")


def _numbers(ref: str) -> list[int]:
    """The numbers of a rule's reference, a lettered sub-point counted by its letter:
    ``28.4 а)`` is [28, 4, 1], ``note-3`` [3], ``comment 2`` [2]."""
    out = [int(n) for n in re.findall(r"\d+", ref)]
    letter = re.search(r"\b(\w)\)\s*$", ref)
    if letter:
        out += [a.index(letter[1]) + 1 for a in _LETTERS if letter[1] in a][:1]
    return out


def _how(own: str, ref: str) -> str:
    """How an edition's number of a rule differs from the canonical's, in words."""
    mine, theirs = _numbers(own), _numbers(ref)
    if not mine or not theirs:
        return f"{own} is {ref}"
    if mine[-1] != theirs[-1]:
        return f"moved: {own} is {ref} (its number {mine[-1]} is {theirs[-1]} there)"
    if len(mine) > 1 and len(mine) == len(theirs) and mine[1:] == theirs[1:]:
        return f"section {mine[0]} is {theirs[0]} there: {own} is {ref}"
    return f"same number, another label: {own} is {ref}"

