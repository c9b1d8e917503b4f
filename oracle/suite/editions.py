"""Editions at run time, and who cites each sentence.

Why: a catalog lists the editions its rules come in (``Catalog.editions``: the canonical
source, other renderings, translations). ``rules-oracle run --edition NAME`` runs the suite
and the rulings as of one of them: a scenario that cites a sentence the edition lacks cannot
be tested against it (``untestable``, "not in this edition"), a rule the edition lacks
entirely is untestable with that reason, and each rule reads as that edition words it. And
every command that reports on the text (``drift``, ``errata``, ``review``) says which
scenarios and rulings rest on a sentence: one index (``citations_index``), read from the
feature files as the suite checks read them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from oracle.suite.catalog import TRANSLATION, Catalog, CatalogFileError, Edition, Rule

if TYPE_CHECKING:
    from oracle.suite.features import ScenarioDoc
    from oracle.suite.games import Game

__all__ = ["Citer", "absent", "choose_editions", "citations_index", "edition_catalog",
           "not_in_edition", "shown_path"]


def choose_editions(wanted: Sequence[str], games: Mapping[str, Game]) -> dict[str, Edition]:
    """The edition each game runs as of, from ``--edition`` values: ``NAME`` (the game
    with an edition of that name; one game only) or ``GAME:NAME``. A game not named runs as
    its canonical edition (every sentence). A name no game has is refused, with the editions
    there are."""
    chosen: dict[str, Edition] = {}
    for text in wanted:
        game_id, sep, name = text.rpartition(":")
        candidates = [g for g in games.values() if not sep or g.id == game_id]
        hits = [(g, e) for g in candidates if (e := g.catalog.edition(name)) is not None]
        if len(hits) != 1:
            listing = "; ".join(f"{g.id}: {', '.join(e.name for e in g.catalog.editions) or '-'}"
                                for g in games.values())
            why = "no game has an edition" if not hits else "more than one game has an edition"
            raise CatalogFileError(f"--edition {text}: {why} named {name!r}; write NAME or "
                                   f"GAME:NAME (editions: {listing})")
        game, edition = hits[0]
        if game.id in chosen and chosen[game.id] != edition:
            raise CatalogFileError(f"--edition {text}: {game.id} already runs as of "
                                   f"{chosen[game.id].name}; give one edition per game")
        chosen[game.id] = edition
    return chosen


def absent(catalog: Catalog, edition: Edition, anchors: Iterable[str]) -> list[str]:
    """The anchors (of this catalog's game) whose sentence the edition lacks."""
    out = []
    for anchor in anchors:
        sentence = catalog.sentence(anchor)
        if sentence is not None and sentence.in_edition(edition) is None:
            out.append(anchor)
    return out


def not_in_edition(catalog: Catalog, edition: Edition, anchors: Sequence[str]) -> str | None:
    """Why a scenario citing ``anchors`` cannot be tested as of ``edition`` (the sentences
    it lacks), or None when it can."""
    missing = absent(catalog, edition, anchors)
    if not missing:
        return None
    return (f"not in this edition: {edition.name} lacks {', '.join(missing)}, which this "
            "scenario cites")


def edition_catalog(catalog: Catalog, edition: Edition) -> Catalog:
    """The catalog as of an edition, for a report: each rule's text as the edition words it
    (a translation's with its own number, ``28.4 ...``), and a rule the edition lacks
    entirely untestable, saying so."""
    rules = []
    for rule in catalog.rules:
        texts = [s.in_edition(edition) for s in rule.sentences]
        present = [t for t in texts if t is not None]
        if not present:
            rules.append(dataclasses.replace(
                rule, testable=False,
                untestable_reason=f"not in this edition: {edition.name} lacks it"))
            continue
        rules.append(dataclasses.replace(rule, text=_text(rule, edition, present)))
    return dataclasses.replace(catalog, rules=tuple(rules))


def _text(rule: Rule, edition: Edition, present: list[str]) -> str:
    text = " ".join(present)
    if edition.role == TRANSLATION and rule.translation_lang == edition.lang \
            and rule.translation_ref:
        return f"{rule.translation_ref} {text}"
    return text


@dataclass(frozen=True)
class Citer:
    """A scenario that cites a sentence: its name, where it is, and its ruling's id and
    standing if it is one (a committee's)."""

    name: str
    location: str
    ruling: str | None = None
    standing: str | None = None
    #: The scenario's language (``ru`` for ``# language: ru``): what it reads of a sentence.
    language: str = "en"

    @property
    def kind(self) -> str:
        return "ruling" if self.ruling else "scenario"

    def describe(self) -> str:
        what = f"ruling {self.ruling} ({self.standing})" if self.ruling else "scenario"
        return f"{what} {self.name!r} ({self.location})"

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "name": self.name, "location": self.location,
                **({"ruling": self.ruling, "standing": self.standing} if self.ruling else {}),
                **({"language": self.language} if self.language != "en" else {})}


def shown_path(path: Path, games: Iterable[Game]) -> str:
    """A feature file's path as reports show it: from its game's features root, else from
    the current folder, else in full (``OracleRun.short_path``'s rule)."""
    for game in games:
        if path.is_relative_to(game.folder.parent):
            return str(path.relative_to(game.folder.parent))
    here = Path.cwd()
    return str(path.relative_to(here)) if path.is_relative_to(here) else str(path)


def citations_index(games: Iterable[Game], known: Mapping[str, Game]
                    ) -> tuple[dict[str, list[Citer]], list[ScenarioDoc]]:
    """Every anchor the games' scenarios cite, with the scenarios and rulings citing it
    (in file order), and those scenarios."""
    from oracle.suite.lint import read_suite

    games = list(games)
    by_game, rulings, _ = read_suite(games, known)
    index: dict[str, list[Citer]] = {}
    scenarios = [s for g in games for s in by_game[g.id]]
    for scenario in scenarios:
        ruling = rulings.of(scenario)
        citer = Citer(scenario.name, f"{shown_path(scenario.path, known.values())}:"
                                     f"{scenario.line}",
                      ruling.id if ruling else None,
                      ruling.status_text if ruling else None, scenario.language)
        for anchor in scenario.cited_anchors:
            index.setdefault(anchor, []).append(citer)
    return index, scenarios
