"""Review stamps: the text each scenario's citations were reviewed against, and which
scenarios are ``stale`` because that text has changed since.

Why: a scenario's expectations rest on the sentences it cites. When the rules text changes
(an erratum, a new edition of a living rules reference, a corrected translation), the
anchors of reworded sentences are retired and the scenario's Then lines may no longer say
what the rules say; nobody should trust its verdict until someone has re-read it against the
new words. So each folder of feature files keeps a lock-style file, ``reviews.yaml``: per
feature file and scenario, per cited anchor, a stamp (a short hash) of the text the scenario
was reviewed against, written by ``rules-oracle review`` and checked by ``rules-oracle review
--check``. A run marks a scenario ``stale`` (in the JSON report and the terminal) when a
stamp no longer matches the catalog's text, or when the scenario cites a sentence the rules
no longer have (a retired anchor); its verdict still stands, and says nothing about the new
words. Stamps live beside the feature files, not in them, so that refreshing them never
touches what a committee wrote.

A stamp is of what the scenario reads: the sentence, and its translation in the scenario's
language where the catalog has one (a Russian scenario goes stale when the Russian changes,
an English one does not).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from oracle.suite import filecheck
from oracle.suite.catalog import CatalogFileError
from oracle.suite.yamlfiles import read_yaml

if TYPE_CHECKING:
    from oracle.suite.features import ScenarioDoc
    from oracle.suite.games import Game

__all__ = ["REVIEWS_FILE", "FolderReview", "Reviews", "Staleness", "folder_of", "review_folder",
           "scenarios_by_folder", "staleness", "stamps_of"]

REVIEWS_FILE = "reviews.yaml"
_ANCHOR = re.compile(r"^[a-z0-9][a-z0-9_-]*:[^\s#]+#[1-9]\d*$")

#: file (relative to its folder) -> scenario name -> anchor -> stamp
Stamps = dict[str, dict[str, dict[str, str]]]


def stamp(text: str) -> str:
    """A short, stable hash of the text a citation was reviewed against."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _read_text(anchor: str, language: str, known: Mapping[str, Game]) -> str | None:
    """What a scenario in ``language`` reads of a cited sentence (its text, and its
    translation in that language where the catalog has one), or None where the rules no
    longer have it (retired, or no such anchor)."""
    game = known.get(anchor.partition(":")[0])
    sentence = game.catalog.sentence(anchor) if game is not None else None
    if sentence is None:
        return None
    translated = sentence.translations.get(language)
    return f"{sentence.text}\n{translated}" if translated else sentence.text


def stamps_of(scenario: ScenarioDoc, known: Mapping[str, Game]) -> dict[str, str | None]:
    """Each anchor a scenario cites with the stamp of its text now (None: the rules no
    longer have that sentence)."""
    out: dict[str, str | None] = {}
    for anchor in scenario.cited_anchors:
        text = _read_text(anchor, scenario.language, known)
        out[anchor] = None if text is None else stamp(text)
    return out


def folder_of(path: Path, game: Game) -> Path | None:
    """The folder of a game's feature files (its own, or a committee's) holding ``path``:
    where its ``reviews.yaml`` is."""
    for folder in (game.folder, *game.extra_folders):
        if path.is_relative_to(folder):
            return folder
    return None


@dataclass
class Reviews:
    """One folder's ``reviews.yaml``: the stamps its scenarios were reviewed against."""

    folder: Path
    stamps: Stamps = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return self.folder / REVIEWS_FILE

    @classmethod
    def read(cls, folder: Path) -> Reviews:
        """The folder's stamps (none if it has no ``reviews.yaml``); a malformed file is a
        ``CatalogFileError`` naming it and the fix."""
        path = folder / REVIEWS_FILE
        if not path.exists():
            return cls(folder)
        fix = "regenerate it with 'rules-oracle review'"
        try:
            data = read_yaml(path) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise CatalogFileError(f"{path}: cannot read the review stamps ({exc}); {fix}"
                                   ) from exc
        if found := filecheck.problem(path, data, "reviews"):
            raise CatalogFileError(f"{found}; {fix}")
        files = data["scenarios"] or {}
        for file, names in files.items():
            for name, cites in names.items():
                wrong = next((a for a in cites if not _ANCHOR.match(str(a))), None)
                if wrong is not None:
                    line = filecheck.key_line(path, ["scenarios", file, name, wrong])
                    raise CatalogFileError(f"{path}:{line}: {wrong!r} is not a sentence anchor "
                                           f"(GAME:RULE#N) of {file}: {name}; {fix}")
        return cls(folder, {str(f): {str(n): {str(a): s for a, s in c.items()}
                                     for n, c in names.items()} for f, names in files.items()})

    def of(self, scenario: ScenarioDoc) -> dict[str, str] | None:
        """The stamps a scenario was reviewed with (None: never reviewed)."""
        return self.stamps.get(self.key(scenario.path), {}).get(scenario.name)

    def key(self, path: Path) -> str:
        return path.relative_to(self.folder).as_posix()

    def render(self) -> str:
        """The file as ``rules-oracle review`` writes it: sorted, one anchor a line."""
        header = ("# Written by 'rules-oracle review'; do not edit. Per feature file and "
                  "scenario, a stamp of the text\n# of each sentence it cites, as it was "
                  "reviewed against ('rules-oracle review --check' says which\n# changed "
                  "since: those scenarios are stale until someone re-reads them).\n")
        files = {f: {n: dict(sorted(c.items())) for n, c in sorted(names.items())}
                 for f, names in sorted(self.stamps.items()) if names}
        body = yaml.safe_dump({"scenarios": files}, allow_unicode=True, sort_keys=False,
                              width=1_000_000, default_flow_style=False)
        return header + body


@dataclass(frozen=True)
class Staleness:
    """What is wrong with a scenario's review: the anchors whose text changed since it was
    reviewed (or that the rules no longer have), and those never reviewed."""

    stale: tuple[str, ...] = ()
    unreviewed: tuple[str, ...] = ()


def staleness(scenario: ScenarioDoc, reviews: Reviews, known: Mapping[str, Game]) -> Staleness:
    """A scenario's stale anchors (a stamp that no longer matches, or a sentence the rules no
    longer have, whatever the stamps) and unreviewed ones (no stamp yet)."""
    recorded = reviews.of(scenario) or {}
    stale, unreviewed = [], []
    for anchor, now in stamps_of(scenario, known).items():
        if now is None or (anchor in recorded and recorded[anchor] != now):
            stale.append(anchor)
        elif anchor not in recorded:
            unreviewed.append(anchor)
    return Staleness(tuple(stale), tuple(unreviewed))


def scenarios_by_folder(game: Game, scenarios: Iterable[ScenarioDoc]
                        ) -> dict[Path, list[ScenarioDoc]]:
    """A game's scenarios grouped by the folder whose ``reviews.yaml`` stamps them."""
    out: dict[Path, list[ScenarioDoc]] = {f: [] for f in (game.folder, *game.extra_folders)}
    for scenario in scenarios:
        folder = folder_of(scenario.path, game)
        if folder is not None:
            out[folder].append(scenario)
    return out


@dataclass
class FolderReview:
    """What ``rules-oracle review`` found (``--check``) or did in one folder."""

    path: Path
    check: bool
    #: Every scenario of the folder, by name.
    names: list[str] = field(default_factory=list)
    stale: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    unreviewed: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    #: Stamps of scenarios, or of citations, no longer there.
    orphans: list[str] = field(default_factory=list)
    #: Scenarios citing a sentence the rules no longer have: never stamped, with why.
    blocked: list[tuple[str, str]] = field(default_factory=list)
    stamped: list[str] = field(default_factory=list)
    #: Scenarios stamped before whose stamps changed (stale, or citing other sentences).
    restamped: list[str] = field(default_factory=list)
    wrote: bool = False

    @property
    def ok(self) -> bool:
        if self.check:
            return not (self.stale or self.unreviewed or self.orphans)
        return not self.blocked

    def describe(self) -> str:
        shown = _shown(self.path)
        lines = []
        if self.check:
            if self.ok:
                return f"{shown}: {len(self.names)} scenario(s) reviewed, every stamp current"
            lines.append(f"{shown}: not current (rules-oracle review writes it)")
            lines += _capped([f"  stale: {n} ({', '.join(a)}): the text changed since it "
                              "was reviewed" for n, a in self.stale])
            lines += _capped([f"  never reviewed: {n} ({', '.join(a)})"
                              for n, a in self.unreviewed])
            lines += _capped([f"  stamped but gone: {o}" for o in self.orphans])
            return "\n".join(lines)
        what = [f"{len(self.stamped)} stamped" if self.stamped else "",
                f"{len(self.restamped)} re-reviewed ({'; '.join(self.restamped)})"
                if self.restamped else "",
                f"{len(self.orphans)} dropped" if self.orphans else ""]
        done = ", ".join(w for w in what if w) or "nothing to change"
        lines.append(f"{shown}: {'wrote' if self.wrote else 'unchanged'}: {done}")
        lines += [f"  not stamped: {n}: {why}" for n, why in self.blocked]
        return "\n".join(lines)


def _capped(lines: list[str], most: int = 10) -> list[str]:
    """At most ``most`` lines of a kind, and how many more there are."""
    if len(lines) <= most:
        return lines
    return [*lines[:most], f"  ... and {len(lines) - most} more like it"]


def _shown(path: Path) -> str:
    here = Path.cwd()
    return str(path.relative_to(here)) if path.is_relative_to(here) else str(path)


def review_folder(folder: Path, scenarios: Iterable[ScenarioDoc], known: Mapping[str, Game],
                  *, check: bool, only: Iterable[str] = ()) -> FolderReview:
    """Check (``check``) or write one folder's ``reviews.yaml`` for its scenarios; ``only``
    restamps those scenarios alone (the others keep their stamps, and stamps of scenarios
    that are gone are kept too). A scenario citing a sentence the rules no longer have is
    never stamped: it is reported with the sentence that rewords it, if any."""
    reviews = Reviews.read(folder)
    result = FolderReview(reviews.path, check)
    wanted = set(only)
    stamps: Stamps = {f: dict(names) for f, names in reviews.stamps.items()}
    present: set[tuple[str, str]] = set()
    for scenario in scenarios:
        result.names.append(scenario.name)
        key = reviews.key(scenario.path)
        present.add((key, scenario.name))
        now = stamps_of(scenario, known)
        recorded = reviews.of(scenario)
        found = staleness(scenario, reviews, known)
        gone = [a for a, v in now.items() if v is None]
        if check:
            if found.stale:
                result.stale.append((scenario.name, found.stale))
            if found.unreviewed or (recorded is None and not now):
                result.unreviewed.append((scenario.name, found.unreviewed))
            result.orphans += [f"{key}: {scenario.name}: {a}" for a in recorded or {}
                               if a not in now]
            continue
        if wanted and scenario.name not in wanted:
            continue
        if gone:
            result.blocked.append((scenario.name, _why_gone(gone, known)))
            continue
        fresh = {a: v for a, v in now.items() if v is not None}
        if recorded != fresh:
            stamps.setdefault(key, {})[scenario.name] = fresh
            (result.stamped if recorded is None else result.restamped).append(scenario.name)
    for key, names in reviews.stamps.items():
        for name in names:
            if (key, name) not in present:
                result.orphans.append(f"{key}: {name}")
                if not check and not wanted:
                    del stamps[key][name]
    if not check and stamps != reviews.stamps:
        reviews.path.write_text(Reviews(folder, stamps).render(), encoding="utf-8")
        result.wrote = True
    return result


def _why_gone(anchors: list[str], known: Mapping[str, Game]) -> str:
    """Why a scenario cannot be stamped: each cited sentence the rules no longer have, and
    the one that rewords it."""
    parts = []
    for anchor in anchors:
        game = known.get(anchor.partition(":")[0])
        retired = game.catalog.retired_sentence(anchor) if game is not None else None
        now = game.catalog.sentence(retired.successor) if game is not None and retired \
            and retired.successor else None
        if now is not None:
            parts.append(f"{anchor} is retired; it now reads {now.anchor} {now.text!r}")
        elif retired is not None:
            parts.append(f"{anchor} is retired (removed from the rules)")
        else:
            parts.append(f"{anchor} names no sentence")
    return ("; ".join(parts) + ". Re-read the scenario against the rules as they are, update "
            "its Cites: lines, then review it")
