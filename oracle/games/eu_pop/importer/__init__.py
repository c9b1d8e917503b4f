"""Build the Europa Universalis: The Price of Power "6. Action Cards" rule catalog.

Why this exists: every EU scenario cites a rule id (``eu-pop:6.cards-in-hand.2``) and follows
its wording, but the rulebook chapter numbers nothing below "6.1" and "6.2". So the ids are
ours, and they must never move: each is the id prefix of its heading plus a counter, written
once in the table below next to the opening words of the sentence it stands for. The importer
reads the chapter as received, splits it into sentences under their headings and matches every
sentence to exactly one table entry. A sentence the table does not map, or an entry whose
sentence is gone, stops the build naming the file and line, instead of silently adding,
dropping or renumbering a rule. Rerunning on the same sources writes the same bytes.

One related chapter contributes rules too: Phase 5 Step C (``related/4-5-phase-5-cleanup.md``)
is where the chapter's hand limit is checked, and it adds that Display Cards in play do not
count towards it. Only the headings listed in the table are read as rules from related
chapters; the rest of every related chapter enters the catalog as ``context`` (``related``:
citable sentences, never rules). Each rule and context item is split into sentences with
stable anchors (``eu-pop:6.decks.4#1``), numbered from the previous catalog.

Regenerate with ``python -m oracle.games.eu_pop.importer``; ``--check`` reports a stale file
without writing, which is what the test suite relies on.

The parts: ``table`` (the reviewed sentence -> id table, clause splits and waivers), ``wiki``
(reading a chapter into sentences, wiki or Markdown), ``mapping`` (matching sentences to the
table), ``related`` (the related chapters as context), ``common`` (file names); this package
builds the catalog and runs the command.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from oracle.games.eu_pop.importer.common import (
    CATALOG_FILE,
    CHAPTER,
    CLEANUP,
    DEFAULT_OUT,
    DEFAULT_SOURCES,
    GAME,
    MODULE,
    REPO_ROOT,
    SOURCES,
    TITLE,
)
from oracle.games.eu_pop.importer.mapping import check_table, map_sentences
from oracle.games.eu_pop.importer.related import parse_related, related_files, slug
from oracle.games.eu_pop.importer.table import (
    ACTION_CARDS,
    CLAUSES,
    EDITIONS,
    SECTIONS,
    SPECIAL_CARDS,
    THREE_DECKS,
    WAIVERS,
    Section,
    Statement,
)
from oracle.games.eu_pop.importer.wiki import (
    Sentence,
    heading_title,
    parse_source,
    render_inline,
    split_sentences,
)
from oracle.games.kit.editions import edition_entries
from oracle.games.kit.sentences import (
    Numbering,
    apply_clauses,
    check_tables,
    context_entries,
    sentence_records,
    waivers_of,
)
from oracle.games.kit.sources import (
    CatalogError,
    importer_parser,
    read_source,
    sha256_of,
    write_outputs,
)
from oracle.suite.catalog import render_generated

__all__ = [
    "ACTION_CARDS",
    "CATALOG_FILE",
    "CHAPTER",
    "CLAUSES",
    "CLEANUP",
    "DEFAULT_OUT",
    "DEFAULT_SOURCES",
    "EDITIONS",
    "GAME",
    "MODULE",
    "REPO_ROOT",
    "SECTIONS",
    "SOURCES",
    "SPECIAL_CARDS",
    "THREE_DECKS",
    "TITLE",
    "WAIVERS",
    "CatalogError",
    "Section",
    "Sentence",
    "Statement",
    "build_catalog",
    "check_table",
    "heading_title",
    "main",
    "map_sentences",
    "parse_related",
    "parse_source",
    "related_files",
    "render",
    "render_inline",
    "slug",
    "split_sentences",
]


def _source_ref(sentence: Sentence) -> str:
    return f"{sentence.source}:{sentence.line} > {' > '.join(sentence.headings)}"


def build_catalog(sources_dir: Path = DEFAULT_SOURCES,
                  previous: Path | None = DEFAULT_OUT / CATALOG_FILE, *,
                  replaced: str | None = None) -> dict[str, Any]:
    """Read the sources, map every sentence to its id, return the catalog as plain data.

    ``previous`` is the catalog whose sentence numbers are kept (the committed one unless
    told otherwise; none if absent). ``replaced`` names a source that is a new version
    (``rules-oracle errata``): the chapter has one rendering, so nothing is loosened; every
    sentence must still map to the table.
    """
    sources_dir = Path(sources_dir)
    sentences = {rel: parse_source(read_source(sources_dir, rel, "--sources"), rel)
                 for rel, _ in SOURCES}
    mapped = map_sentences(sentences)
    ids = [statement.id for statement, _ in mapped]
    chapters = parse_related(sources_dir, [(s.source, s.headings) for s in SECTIONS])
    check_tables(ids, (), WAIVERS, path=CHAPTER)
    check_tables([*ids, *(p.id for c in chapters for p in c.passages)], CLAUSES, (),
                 path=CHAPTER)
    numbering = Numbering.read(previous)
    rules: list[dict[str, Any]] = []
    for statement, sentence in mapped:
        entry: dict[str, Any] = {
            "id": statement.id,
            "kind": "rule",
            "parent": None,
            "text": sentence.text,
            "source": _source_ref(sentence),
            "testable": statement.untestable is None,
        }
        if statement.untestable is not None:
            entry["untestable_reason"] = statement.untestable
        if statement.remark is not None:
            entry["remark"] = statement.remark
        located = apply_clauses(statement.id, [(sentence.line, sentence.text)], CLAUSES,
                                path=sentence.source)
        entry.update(sentence_records(
            statement.id, located, numbering,
            waivers=waivers_of(statement.id, [t for _, t in located], WAIVERS,
                               path=sentence.source)))
        rules.append(entry)
    return {
        "game": GAME,
        "title": TITLE,
        "generated_by": MODULE,
        "sources": [{"path": rel, "role": role, "sha256": sha256_of(sources_dir, rel)}
                    for rel, role in (*SOURCES, *((c.source, "context") for c in chapters
                                                  if c.source not in dict(SOURCES)))],
        "editions": edition_entries(EDITIONS, rules, path=CHAPTER),
        "rules": rules,
        "context": context_entries(chapters, ids, CLAUSES, numbering),
    }


def render(obj: Any) -> str:
    """The catalog as written to disk (the layout every generated catalog shares)."""
    return render_generated(obj, MODULE)


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or, with --check, verify) catalog.yaml; 0 ok, 1 stale, 2 error."""
    parser = importer_parser(MODULE, __doc__, (
        ("--sources", DEFAULT_SOURCES, "rule sources directory"),
        ("--out", DEFAULT_OUT, "where the catalog goes"),
    ), "write nothing; exit 1 if the catalog is stale")
    args = parser.parse_args(argv)
    previous = args.out / CATALOG_FILE
    return write_outputs(
        lambda: [(previous, render(build_catalog(
            args.sources, previous if previous.exists() else DEFAULT_OUT / CATALOG_FILE)))],
        check=args.check, module=MODULE,
        hint="The sources are kept as received: if a source changed, review the change and "
             f"update the sentence table in {MODULE}; if a path is wrong, pass --sources.",
    )
