"""Errata: a new version of one rules source, imported beside the bundled catalog and set
against it sentence by sentence, with the scenarios, rulings and verdicts it touches.

Why: a rules text changes (an erratum, a new release of a living rules reference, a
corrected translation), and the question a committee asks is not "is the catalog stale" but
"which of our scenarios and rulings rest on what changed, and what did the engines last say
of them". So the new file is imported through the game's own importer (the catalog's
``generated_by``), on a copy of the sources holding it, into a temporary catalog: never over
the bundled one unless asked. The importer numbers the new catalog from the bundled one, so
an unchanged sentence keeps its anchor, a reworded one gets a new anchor and its old one is
retired naming it (``by``), and the difference between the two catalogs is exactly what
changed: sentences changed (with a word diff), added and removed; a translation's or a
rendering's own wording changed. Each comes with the scenarios and rulings citing it (now
``stale`` until re-reviewed: ``oracle.suite.reviews``) and each given report's verdicts on
them.
"""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oracle.suite.catalog import (
    RENDERING,
    TRANSLATION,
    Catalog,
    CatalogFileError,
    load_catalog,
    read_game_file,
)
from oracle.suite.editions import Citer
from oracle.suite.wording import differences, word_diff

if TYPE_CHECKING:
    from oracle.suite.games import Game

#: Each report's verdicts on a citing scenario (``oracle.cli.editions.verdicts_of``: reports
#: are a layer above the suite).
Verdicts = Callable[[Citer], list[dict[str, str]]]

__all__ = ["Change", "Errata", "ErrataError", "check_catalog", "compare", "import_new_version",
           "replaced_source", "touched_contradictions"]


class ErrataError(Exception):
    """The new source cannot be imported (the message says why and what to do)."""


def replaced_source(catalog_data: Mapping[str, Any], new_file: Path, replaces: str | None,
                    game: str) -> str:
    """Which of the catalog's sources (relative to the sources folder) the new file is a
    version of: ``replaces`` if given, else the source with the new file's name."""
    sources = [str(s["path"]) for s in catalog_data.get("sources") or ()]
    if replaces is not None:
        if replaces not in sources:
            raise ErrataError(f"--replaces {replaces}: not a source of the {game} catalog "
                              f"(sources: {', '.join(sources)})")
        return replaces
    hits = [s for s in sources if Path(s).name == new_file.name]
    if len(hits) != 1:
        raise ErrataError(f"{new_file.name}: {'no' if not hits else 'more than one'} source "
                          f"of the {game} catalog has this name (sources: "
                          f"{', '.join(sources)}); say which it replaces with --replaces PATH")
    return hits[0]


def import_new_version(game: Game, new_file: Path, replaces: str | None, workdir: Path,
                       sources: Path | None = None) -> tuple[str, Path]:
    """Import the sources with ``new_file`` in place of one of them, through the game's
    importer, into ``workdir/catalog.yaml``; return which source it replaced and the path.

    The game's sources (from ``sources``, else where the importer finds them: ``../shared/
    sources`` beside a checkout) are copied into ``workdir`` (the originals are never
    touched, and stay as received); the importer numbers the new catalog from the bundled
    one.
    """
    path = game.folder / game.catalog_file
    data = read_game_file(path, "the catalog")
    module_name = str((data or {}).get("generated_by") or "")
    if not module_name:
        raise ErrataError(f"{path}: the catalog names no importer ('generated_by'); errata "
                          "imports a new source through the importer that wrote the catalog")
    rel = replaced_source(data, new_file, replaces, game.id)
    module = importlib.import_module(module_name)
    sources = Path(sources or module.DEFAULT_SOURCES)
    root = workdir / "sources"
    for entry in data.get("sources") or ():
        target = root / str(entry["path"])
        target.parent.mkdir(parents=True, exist_ok=True)
        origin = new_file if entry["path"] == rel else sources / str(entry["path"])
        try:
            shutil.copyfile(origin, target)
        except OSError as exc:
            raise ErrataError(f"cannot copy the source {origin} ({exc}); the game's other "
                              f"sources are read from {sources}: give the folder that holds "
                              f"{entry['path']} with --sources DIR") from exc
    error = getattr(module, "CatalogError", Exception)
    try:
        built = module.build_catalog(root, path, replaced=rel)
    except error as exc:
        raise ErrataError(f"the {game.id} importer ({module_name}) refuses the new version: "
                          f"{exc}\nThe importer's reviewed tables must be brought up to date "
                          "for it first (they are checked against the text)") from exc
    out = workdir / "catalog.yaml"
    out.write_text(module.render(built), encoding="utf-8")
    return rel, out


@dataclass
class Change:
    """One change of the text: ``kind`` is changed, added, removed (a sentence of the rules
    or of a related chapter), or translation / rendering (an edition's own wording of a
    sentence whose anchor stands). ``stale``: the scenarios and rulings citing it that are
    stale until re-reviewed (all citing a changed or removed sentence; of a translation, those
    written in its language; of a rendering, none: scenarios rest on the canonical words)."""

    kind: str
    anchor: str
    text: str
    new_anchor: str | None = None
    new_text: str | None = None
    edition: str | None = None
    cited_by: list[Citer] = field(default_factory=list)
    stale: list[Citer] = field(default_factory=list)

    @property
    def diff(self) -> str:
        return word_diff(self.text, self.new_text or "") if self.new_text is not None and \
            self.text else ""

    @property
    def kinds(self) -> tuple[str, ...]:
        if self.new_text is None or not self.text:
            return ()
        return differences(self.text, self.new_text)

    def to_json(self, verdicts: Verdicts = lambda citer: []) -> dict[str, Any]:
        return {"kind": self.kind, "anchor": self.anchor, "new_anchor": self.new_anchor,
                "edition": self.edition, "text": self.text, "new_text": self.new_text,
                "kinds": list(self.kinds), "diff": self.diff,
                "cited_by": [{**c.to_json(), "verdicts": verdicts(c)} for c in self.cited_by],
                "stale": [{**c.to_json(), "verdicts": verdicts(c)} for c in self.stale]}


@dataclass
class Errata:
    """What a new version of one source changes, for one game."""

    game: str
    replaced: str
    new_file: str
    catalog: str
    changes: list[Change] = field(default_factory=list)
    #: Reviewed contradictions one of whose sides is a changed or removed sentence.
    contradictions: list[str] = field(default_factory=list)

    def to_json(self, reports: Sequence[str] = (),
                verdicts: Verdicts = lambda citer: []) -> dict[str, Any]:
        """The errata as data, each citing scenario with each report's verdicts on it
        (``reports``: their labels; ``verdicts``: theirs on a scenario)."""
        return {"version": 1, "game": self.game, "replaced": self.replaced,
                "new_file": self.new_file, "catalog": self.catalog,
                "reports": list(reports),
                "changes": [c.to_json(verdicts) for c in self.changes],
                "contradictions": self.contradictions}


def touched_contradictions(game: Game, changes: Sequence[Change]) -> list[str]:
    """The game's reviewed contradictions one of whose sides cites a sentence that changed or
    is gone (its table must be re-reviewed against the new text)."""
    from oracle.suite.drift import load_contradictions

    moved = {c.anchor for c in changes if c.kind in ("changed", "removed")}
    moved |= {c.anchor for c in changes if c.kind == "translation"}
    _, contradictions = load_contradictions(game)
    return [f"{game.id}/{c.id}" for c in contradictions
            if any(s.anchor in moved for s in c.sides)]


def compare(old: Catalog, new: Catalog, replaced: str, index: Mapping[str, list[Citer]]
            ) -> list[Change]:
    """Every change between the bundled catalog and the new one, in the order of the old
    (then what the new adds), each with who cites it."""
    changes: list[Change] = []
    new_anchors = {s.anchor for s in new.sentences}
    successors = set()
    for sentence in old.sentences:
        cited = list(index.get(sentence.anchor, ()))
        if sentence.anchor in new_anchors:
            changes += _edition_changes(sentence.anchor, old, new, replaced, cited)
            continue
        retired = new.retired_sentence(sentence.anchor)
        successor = retired.successor if retired is not None else None
        now = new.sentence(successor) if successor else None
        if now is not None:
            successors.add(now.anchor)
            changes.append(Change("changed", sentence.anchor, sentence.text, now.anchor,
                                  now.text, cited_by=cited, stale=cited))
        else:
            changes.append(Change("removed", sentence.anchor, sentence.text, cited_by=cited,
                                  stale=cited))
    old_anchors = {s.anchor for s in old.sentences}
    for sentence in new.sentences:
        if sentence.anchor not in old_anchors and sentence.anchor not in successors:
            changes.append(Change("added", sentence.anchor, "", new_text=sentence.text))
    return changes


def _edition_changes(anchor: str, old: Catalog, new: Catalog, replaced: str,
                     cited: list[Citer]) -> list[Change]:
    """A standing sentence whose wording in the replaced edition changed."""
    before, after = old.sentence(anchor), new.sentence(anchor)
    assert before is not None and after is not None
    out = []
    for edition in old.editions:
        if edition.source != replaced or edition.role not in (TRANSLATION, RENDERING):
            continue
        was, now = before.in_edition(edition), after.in_edition(edition)
        if was == now:
            continue
        stale = [c for c in cited if c.language == edition.lang] \
            if edition.role == TRANSLATION else []
        kind = "translation" if edition.role == TRANSLATION else "rendering"
        out.append(Change(kind, anchor, was or "", anchor, now or "", edition.name,
                          cited_by=cited, stale=stale))
    return out


def check_catalog(path: Path) -> Catalog:
    """The new catalog, read as a run would read it."""
    try:
        return load_catalog(path)
    except CatalogFileError as exc:  # the importer wrote it: a bug, said plainly
        raise ErrataError(f"the new catalog cannot be read: {exc}") from exc
