"""Build the TI4 "Action Cards" rule catalog and card facts from the sources as received.

Why this exists: every TI4 scenario cites a rule id (``ti4:2.4``, ``ti4:note-5.1``) and its
wording must follow the Living Rules Reference. Rather than hand-typing 24 rules (and drifting
from the source), the catalog is *generated* from the structured YAML rendering, and every
other rendering is parsed independently and compared with it, so that a transcription error in
any of them, or a changed source, stops the build instead of silently changing what the oracle
tests. The Russian translation is aligned to the same ids through a reviewed table that is
checked structurally, because its comment numbering does not follow the English notes.

The card facts (``cards.yaml``) carry names, copy counts, phases, timing windows and
expansions only; card *text* stays in the data set and never enters the project.

Regenerate with ``python -m oracle.games.ti4.importer``; ``--check`` reports a stale file
without writing, which is what the test suite relies on.

Each rule is split into sentences (or clauses, where ``editorial.CLAUSES`` says one sentence
states two things) with anchors that scenarios cite (``ti4:2.4#2``), numbered from the previous
catalog so that an unchanged sentence keeps its number; every rendering must split each rule
the same way, and the Russian sentences are aligned to the English ones through a reviewed
table of markers. The LRR chapters the section leans on (``related/``) enter the catalog as
``context``, under the LRR's own numbers (``ti4:81.3#1``).

One module per source format: ``yaml_source`` (canonical), ``markdown``, ``html_page``,
``russian``, ``related`` (the context chapters) and ``deck`` (the card data set);
``crosscheck`` compares a rendering with the canonical one, ``sentences`` splits and aligns
sentences, ``editorial`` holds the reviewed tables, ``common`` the ids and file names. This
package ties them into the catalog and runs the command.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from oracle.games.kit.editions import edition_entries
from oracle.games.kit.sentences import (
    Numbering,
    check_tables,
    context_entries,
    sentence_records,
    waivers_of,
)
from oracle.games.kit.sources import CatalogError, importer_parser, write_outputs
from oracle.games.ti4.importer.common import (
    ACTION_DECK,
    CANONICAL,
    CARDS_FILE,
    CATALOG_FILE,
    DEFAULT_DATA,
    DEFAULT_OUT,
    DEFAULT_SOURCES,
    EN_SECTION,
    GAME,
    HTML_PAGE,
    MARKDOWN,
    MODULE,
    REPO_ROOT,
    RU_SECTION,
    RUSSIAN,
    TITLE,
    Item,
    _sha256,
    comparable,
)
from oracle.games.ti4.importer.crosscheck import cross_check
from oracle.games.ti4.importer.deck import build_cards
from oracle.games.ti4.importer.editorial import (
    CLAUSES,
    CONTEXT_HEADINGS,
    EDITIONS,
    REMARKS,
    RENDERING_WORDING,
    RU_COMMENT_CHECKS,
    RU_COMMENT_TO_NOTE,
    RU_SENTENCE_CHECKS,
    UNTESTABLE,
    WAIVERS,
)
from oracle.games.ti4.importer.html_page import parse_html
from oracle.games.ti4.importer.markdown import parse_markdown
from oracle.games.ti4.importer.related import parse_related, related_files
from oracle.games.ti4.importer.russian import RU_LETTERS, parse_russian, translation_map
from oracle.games.ti4.importer.sentences import align_russian, split_item
from oracle.games.ti4.importer.yaml_source import NOTES_SECTION, RULES_SECTION, parse_canonical
from oracle.suite.catalog import render_generated

__all__ = [
    "ACTION_DECK",
    "CANONICAL",
    "CARDS_FILE",
    "CATALOG_FILE",
    "CLAUSES",
    "CONTEXT_HEADINGS",
    "DEFAULT_DATA",
    "DEFAULT_OUT",
    "DEFAULT_SOURCES",
    "EDITIONS",
    "EN_SECTION",
    "GAME",
    "HTML_PAGE",
    "MARKDOWN",
    "MODULE",
    "NOTES_SECTION",
    "REMARKS",
    "RENDERING_WORDING",
    "REPO_ROOT",
    "RULES_SECTION",
    "RUSSIAN",
    "RU_COMMENT_CHECKS",
    "RU_COMMENT_TO_NOTE",
    "RU_LETTERS",
    "RU_SECTION",
    "RU_SENTENCE_CHECKS",
    "TITLE",
    "UNTESTABLE",
    "WAIVERS",
    "CatalogError",
    "Item",
    "build_cards",
    "build_catalog",
    "comparable",
    "cross_check",
    "main",
    "parse_canonical",
    "parse_html",
    "parse_markdown",
    "parse_related",
    "parse_russian",
    "related_files",
    "render",
    "translation_map",
]


def build_catalog(sources_dir: Path = DEFAULT_SOURCES,
                  previous: Path | None = DEFAULT_OUT / CATALOG_FILE, *,
                  replaced: str | None = None) -> dict[str, Any]:
    """Parse, cross-check and align every rendering; return the catalog as plain data.

    The reviewed tables (Russian alignment, clauses, waivers, known wording) are read from
    this package when the catalog is built, so that a replaced table (a reviewer's
    experiment, a test) is the one that is checked. ``previous`` is the catalog whose
    sentence numbers are kept (the committed one unless told otherwise; none if absent).

    ``replaced`` names the one source that is a new version (``rules-oracle errata``): its
    wording may differ from the others' (a replaced rendering is kept as it words each
    sentence; a replaced canonical is not cross-checked against the other renderings, which
    are of the version before). Every other check holds.
    """
    sources_dir = Path(sources_dir)
    canonical = parse_canonical(sources_dir)
    differing = {
        rel: cross_check(canonical, parse(sources_dir), rel, sources_dir, CLAUSES,
                         RENDERING_WORDING, lenient=rel == replaced)
        for rel, parse in ((MARKDOWN, parse_markdown), (HTML_PAGE, parse_html))
        if replaced != CANONICAL
    }
    ru = translation_map(sources_dir, canonical, RU_COMMENT_TO_NOTE, RU_COMMENT_CHECKS)
    ids = [item.id for item in canonical]
    for table in (UNTESTABLE, REMARKS, RU_SENTENCE_CHECKS):
        for item_id in table:
            if item_id not in ids:
                raise CatalogError(f"editorial table names {item_id}, which is not a rule",
                                   path=CANONICAL, item_id=item_id)
    chapters = parse_related(sources_dir, CONTEXT_HEADINGS)
    check_tables(ids, (), WAIVERS, path=CANONICAL)
    check_tables([*ids, *(p.id for c in chapters for p in c.passages)], CLAUSES, (),
                 path=CANONICAL)
    numbering = Numbering.read(previous)

    rules: list[dict[str, Any]] = []
    for item in canonical:
        entry: dict[str, Any] = {
            "id": item.id,
            "kind": "note" if item.id.startswith("note-") else "rule",
            "parent": item.parent,
            "text": item.text,
            "source": item.ref,
            "translation": (
                {"lang": "ru", "ref": ru[item.id].ref, "text": ru[item.id].text}
                if item.id in ru else None
            ),
            "testable": item.id not in UNTESTABLE,
        }
        if item.id in UNTESTABLE:
            entry["untestable_reason"] = UNTESTABLE[item.id]
        if item.id in REMARKS:
            entry["remark"] = REMARKS[item.id]
        entry.update(_sentences(item, ru.get(item.id), numbering, differing))
        rules.append(entry)

    roles = ((CANONICAL, "canonical"), (MARKDOWN, "cross-check"), (HTML_PAGE, "cross-check"),
             (RUSSIAN, "translation"), *((c.source, "context") for c in chapters))
    return {
        "game": GAME,
        "title": TITLE,
        "generated_by": MODULE,
        "sources": [
            {"path": rel, "role": role, "sha256": _sha256(sources_dir, rel)} for rel, role in roles
        ],
        "editions": edition_entries(EDITIONS, rules, path=CANONICAL),
        "missing_in_translation": [i for i in ids if i not in ru],
        "rules": rules,
        "context": context_entries(chapters, ids, CLAUSES, numbering),
    }


def _sentences(item: Item, russian: Any, numbering: Numbering,
               differing: dict[str, dict[str, dict[int, str]]]) -> dict[str, Any]:
    """A rule's sentences: split, waived, numbered, with the aligned Russian and any
    rendering's own wording."""
    located = split_item(item, CLAUSES)
    texts = [text for _, text in located]
    translations = {}
    if russian is not None:
        ru_item = Item(item.id, None, russian.text, line=russian.line)
        translations["ru"] = align_russian(
            item.id, texts, split_item(ru_item, CLAUSES, path=RUSSIAN, lang="ru"),
            russian.line, RU_SENTENCE_CHECKS)
    return sentence_records(
        item.id, located, numbering,
        waivers=waivers_of(item.id, texts, WAIVERS, path=CANONICAL),
        translations=translations,
        renderings={rel: by_id[item.id] for rel, by_id in differing.items() if item.id in by_id},
    )


def render(obj: Any) -> str:
    """Dump deterministically, in the layout every generated catalog shares."""
    return render_generated(obj, MODULE)


def _outputs(sources_dir: Path, data_dir: Path, out_dir: Path) -> Iterable[tuple[Path, str]]:
    previous = out_dir / CATALOG_FILE
    yield previous, render(build_catalog(
        sources_dir, previous if previous.exists() else DEFAULT_OUT / CATALOG_FILE))
    yield out_dir / CARDS_FILE, render(build_cards(data_dir))


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or, with --check, verify) catalog.yaml and cards.yaml; 0 ok, 1 stale, 2 error."""
    parser = importer_parser(MODULE, __doc__, (
        ("--sources", DEFAULT_SOURCES, "rule sources directory"),
        ("--data", DEFAULT_DATA, "card data directory"),
        ("--out", DEFAULT_OUT, "where the generated files go"),
    ), "write nothing; exit 1 if a generated file is stale")
    args = parser.parse_args(argv)
    return write_outputs(
        lambda: _outputs(args.sources, args.data, args.out), check=args.check, module=MODULE,
        hint="The sources are kept as received: if a source changed, review the change and "
             f"update {MODULE} (its tables) accordingly; if a path is wrong, pass "
             "--sources/--data.",
    )
