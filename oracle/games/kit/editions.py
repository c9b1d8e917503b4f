"""The editions a catalog's rules come in, as an importer writes them (``editions:``).

Why shared: a catalog records each edition or rendering of its rules text (the canonical
source the anchors are numbered from, other renderings of it, translations) with its source,
version and date where known, and a summary of what changed in it against the canonical;
``rules-oracle run --edition NAME`` and ``rules-oracle drift`` read it from every game the
same way. The importer names its editions in a reviewed table (``EditionSource``); the
summary is computed from the sentences it wrote, so it cannot disagree with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oracle.games.kit.sources import CatalogError
from oracle.suite.catalog import CANONICAL, RENDERING, TRANSLATION
from oracle.suite.wording import differences

__all__ = ["EditionSource", "edition_entries"]


@dataclass(frozen=True)
class EditionSource:
    """One edition as the importer's reviewed table names it: ``name`` (what ``--edition``
    takes), its ``source`` file (relative to the sources folder), its ``role`` (canonical,
    rendering or translation), its language, how it numbers the rules, its version and date
    where known (None: unknown, never guessed), and what it is."""

    name: str
    source: str
    role: str
    lang: str
    numbering: str
    version: str
    date: str | None = None
    about: str = ""


def edition_entries(editions: Sequence[EditionSource], rules: Iterable[Mapping[str, Any]],
                    *, path: str) -> list[dict[str, Any]]:
    """The catalog's ``editions``: each table entry with ``changes``, what it does otherwise
    than the canonical, from the rules as written (their sentences' ``renderings`` and
    ``translations``, their ``translation`` refs).

    The table must name one canonical edition, first, and every edition once.
    """
    names = [e.name for e in editions]
    if not editions or editions[0].role != CANONICAL or len(set(names)) != len(names) or \
            [e.role for e in editions].count(CANONICAL) != 1:
        raise CatalogError(f"the editions table {names} must name the canonical edition first, "
                           "once, and every edition once", path=path)
    rules = list(rules)
    out = []
    for edition in editions:
        if edition.role not in (CANONICAL, RENDERING, TRANSLATION):
            raise CatalogError(f"edition {edition.name}: role {edition.role!r} is none of "
                               "canonical, rendering, translation", path=path)
        entry: dict[str, Any] = {
            "name": edition.name, "source": edition.source, "role": edition.role,
            "lang": edition.lang, "numbering": edition.numbering, "version": edition.version,
            "date": edition.date, "about": edition.about}
        if edition.role == RENDERING:
            entry["changes"] = _rendering_changes(edition, rules)
        elif edition.role == TRANSLATION:
            entry["changes"] = _translation_changes(edition, rules)
        out.append(entry)
    return out


def _rendering_changes(edition: EditionSource, rules: list[Mapping[str, Any]]) -> list[str]:
    """Per kind of difference (markup, spacing, words, ...), the sentences that show it."""
    by_kind: dict[str, list[str]] = {}
    for rule in rules:
        for sentence in rule.get("sentences") or ():
            theirs = (sentence.get("renderings") or {}).get(edition.source)
            if theirs is None:
                continue
            for kind in differences(sentence["text"], theirs):
                by_kind.setdefault(kind, []).append(f"{rule['id']}#{sentence['n']}")
    return [f"{kind}: {', '.join(anchors)}" for kind, anchors in by_kind.items()] or [
        "none: every sentence is worded as in the canonical"]


def _translation_changes(edition: EditionSource, rules: list[Mapping[str, Any]]) -> list[str]:
    """The rules it lacks, the sentences it lacks of the rules it has, and its numbers."""
    lacks, partly, numbers = [], [], []
    for rule in rules:
        translated = [s for s in rule.get("sentences") or ()
                      if edition.lang in (s.get("translations") or {})]
        translation = rule.get("translation") or {}
        if not translated:
            lacks.append(str(rule["id"]))
            continue
        if len(translated) < len(rule.get("sentences") or ()):
            partly += [f"{rule['id']}#{s['n']}" for s in rule["sentences"] if s not in translated]
        if translation.get("ref") and translation["ref"] != rule["id"]:
            numbers.append(f"{rule['id']} is {translation['ref']}")
    out = []
    if lacks:
        out.append(f"lacks rules: {', '.join(lacks)}")
    if partly:
        out.append(f"lacks sentences: {', '.join(partly)}")
    if numbers:
        out.append(f"numbers {len(numbers)} rules its own way: {'; '.join(numbers)}")
    return out or ["none: it has every sentence, under the canonical numbers"]
