"""Matching every sentence of the EU sources to exactly one entry of the reviewed table.

Why strict both ways: a sentence the table does not map, or an entry whose sentence is gone,
stops the build naming the file and line, instead of silently adding, dropping or renumbering
a rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from oracle.games.eu_pop.importer.common import MODULE, SOURCES
from oracle.games.eu_pop.importer.table import SECTIONS, Section, Statement
from oracle.games.eu_pop.importer.wiki import Sentence
from oracle.games.kit.sources import CatalogError


def check_table(sections: Sequence[Section] = SECTIONS) -> None:
    """The table itself: ids unique, each its section's prefix and a counter, prefixes unique."""
    seen: dict[str, str] = {}
    prefixes: dict[str, tuple[str, ...]] = {}
    for section in sections:
        if prefixes.setdefault(section.prefix, section.headings) != section.headings:
            raise CatalogError(f"two headings share the id prefix {section.prefix!r}",
                               path=section.source)
        for statement in section.statements:
            if not re.fullmatch(re.escape(section.prefix) + r"\.[1-9]\d*", statement.id):
                raise CatalogError(
                    f"an id under {' > '.join(section.headings)} must be "
                    f"{section.prefix}.N (N = 1, 2, ...)", path=section.source,
                    item_id=statement.id)
            if statement.id in seen:
                raise CatalogError("the id is given to two sentences", path=section.source,
                                   item_id=statement.id)
            seen[statement.id] = statement.opening
            if statement.untestable is not None and not statement.untestable.strip():
                raise CatalogError("an untestable mark needs its reason", path=section.source,
                                   item_id=statement.id)


def map_sentences(sentences_by_source: dict[str, list[Sentence]],
                  sections: Sequence[Section] = SECTIONS) -> list[tuple[Statement, Sentence]]:
    """Match every sentence to exactly one statement of the table, in reading order.

    Every sentence of the canonical chapter must be mapped; in a related chapter, every
    sentence under a heading the table lists. Every statement must find its sentence.
    """
    check_table(sections)
    by_heading = {(s.source, s.headings): s for s in sections}
    canonical = {rel for rel, role in SOURCES if role == "canonical"}
    mapped: list[tuple[Statement, Sentence]] = []
    found: dict[str, Sentence] = {}
    for rel, sentences in sentences_by_source.items():
        for sentence in sentences:
            section = by_heading.get((rel, sentence.headings))
            if section is None:
                if rel in canonical:
                    raise CatalogError(
                        f"the heading {' > '.join(sentence.headings) or '(none)'} is not in "
                        f"the sentence table, so this sentence has no id: {sentence.text!r}. "
                        f"Add the heading to SECTIONS in {MODULE}",
                        path=rel, line=sentence.line)
                continue
            hits = [s for s in section.statements if sentence.text.startswith(s.opening)]
            if not hits:
                raise CatalogError(
                    f"a sentence with no id under {' > '.join(sentence.headings)}: "
                    f"{sentence.text!r}. Map it in SECTIONS in {MODULE} with the next free "
                    f"{section.prefix}.N (existing ids never change)",
                    path=rel, line=sentence.line)
            if len(hits) > 1:
                raise CatalogError(
                    f"the sentence matches {', '.join(h.id for h in hits)}; make their "
                    f"openings tell them apart: {sentence.text!r}", path=rel, line=sentence.line)
            statement = hits[0]
            if statement.id in found:
                raise CatalogError(
                    f"a second sentence starts with {statement.opening!r} (the first is on "
                    f"line {found[statement.id].line}): {sentence.text!r}",
                    path=rel, line=sentence.line, item_id=statement.id)
            found[statement.id] = sentence
            mapped.append((statement, sentence))
    for section in sections:
        for statement in section.statements:
            if statement.id not in found:
                lines = [s.line for s in sentences_by_source.get(section.source, [])
                         if s.headings == section.headings]
                raise CatalogError(
                    f"no sentence under {' > '.join(section.headings)} starts with "
                    f"{statement.opening!r} any more: the rule was reworded or removed; review "
                    f"the source and the table in {MODULE} (ids of removed rules are retired, "
                    "never reused)",
                    path=section.source, line=min(lines) if lines else None,
                    item_id=statement.id)
    return mapped
