"""The LRR chapters the "Action Cards" section leans on, read as citable context.

Why: scenarios rely on statements the section does not make itself (the status phase's steps,
initiative order, Politics' clockwise deal); those enter the catalog as context sentences of
their own chapter, with ids from the LRR's own numbering (``81.3``, ``66.note-1``), so that a
scenario can cite what its expectation rests on. They are not rules: no verdicts.

The chapters come in two forms, both copied from an LRR site: text (title, "Rules
Reference", the list counter's style line, the opening paragraph, then items indented four
spaces and nested items eight, "Notes" and "Related Topics" at the margin) and PHP (the
site's HTML: ``<header>``, the counter in ``<style>``, the opening ``<p>``, then
``<ol class="lrr">`` and ``<ol class="note">`` lists). Related Topics are navigation, not
statements, and are left out. A list of bare names under an item that ends with a colon
(the unit abilities, the strategy cards) is part of that item's sentence, joined by commas.
A status-phase step's label ("Step 3 – Draw Action Cards") is split off its sentences and
kept as the item's ``label``, so ``ti4:81.3#1`` is the step's first sentence.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from oracle.games.kit.sentences import Chapter, Passage
from oracle.games.kit.sources import CatalogError, collapse, files_in
from oracle.games.ti4.importer.common import MODULE, _read_text
from oracle.games.ti4.importer.html_page import _LrrPageParser, read_page

RELATED_DIR = "ti4/related"

_COUNTER = re.compile(r"content:\s*'(?P<number>\d+)\.'\s*counter\(item")
_STEP = re.compile(r"^(?P<label>Step (?P<number>\d+) [–-] [^:]+):\s+(?P<text>.*)$")
#: How a statement ends; a line at item level without it is a heading or a list entry.
_ENDS = re.compile(r"[.!?:][”\"’)]*$")


def related_files(sources_dir: Path) -> list[str]:
    """Every file of ``ti4/related/`` (each must be read; none is skipped silently)."""
    return files_in(sources_dir, RELATED_DIR, "--sources")


def parse_related(sources_dir: Path, headings: dict[str, tuple[str, ...]]) -> list[Chapter]:
    """Every related chapter, in the LRR's order (by chapter number).

    ``headings`` lists, per file, the lines that are sub-headings of the chapter (reviewed:
    an unlisted line that is not a statement is refused rather than guessed).
    """
    chapters = []
    for rel in related_files(sources_dir):
        text = _read_text(sources_dir, rel)
        if rel.endswith(".txt"):
            chapter = _text_chapter(rel, text, headings.get(rel, ()))
        elif rel.endswith(".php"):
            chapter = _page_chapter(rel, text)
        else:
            raise CatalogError(f"a related chapter the importer cannot read; teach {MODULE} "
                               "its form", path=rel)
        for passage in chapter.passages:
            step = _STEP.match(passage.text)
            if step:
                expected = passage.id.rpartition(".")[2]
                if step["number"] != expected:
                    raise CatalogError(f"{step['label']!r} is item {expected} of its list",
                                       path=rel, line=passage.line, item_id=passage.id)
                passage.label = step["label"]
                passage.blocks = [[(passage.line or 0, step["text"])]]
        chapters.append(chapter)
    return sorted(chapters, key=lambda c: int(c.id))


def _number(rel: str, style: str, line: int) -> str:
    found = _COUNTER.search(style)
    if not found:
        raise CatalogError("no list counter ('N.' counter(item)) gives the chapter's number",
                           path=rel, line=line)
    return found["number"]


class _Numbering:
    """Ids in the LRR's way: items ``N.1``, nested ``N.1.1``, notes ``N.note-1``,
    ``N.note-1.1``; a list whose first entry is a bare name (no statement's end) under an item
    ending in a colon joins that item, every entry of it."""

    def __init__(self, chapter: Chapter) -> None:
        self.chapter = chapter
        self.section = "rules"
        self.top: Passage | None = None
        self.counts = {"rules": 0, "notes": 0}
        self.subs = 0
        self.entries = 0

    def notes(self) -> None:
        self.section, self.top = "notes", None

    def item(self, line: int, text: str, heading: str | None) -> None:
        self.counts[self.section] += 1
        self.subs = self.entries = 0
        n = self.counts[self.section]
        local = f"{n}" if self.section == "rules" else f"note-{n}"
        self.top = Passage(f"{self.chapter.id}.{local}", [[(line, text)]], heading=heading)
        self.chapter.passages.append(self.top)

    def nested(self, line: int, text: str) -> None:
        rel = self.chapter.source
        if self.top is None:
            raise CatalogError(f"a nested item before any item: {text!r}", path=rel, line=line)
        if self.entries or (not _ENDS.search(text) and self.top.text.endswith(":")):
            joined = "," if self.entries else ""
            block = self.top.blocks[-1]
            block[-1] = (block[-1][0], f"{block[-1][1]}{joined} {text}")
            self.entries += 1
            return
        self.subs += 1
        self.chapter.passages.append(Passage(f"{self.top.id}.{self.subs}", [[(line, text)]],
                                             parent=self.top.id, heading=self.top.heading))


def _text_chapter(rel: str, text: str, headings: tuple[str, ...]) -> Chapter:
    """A chapter as the site's text: title, "Rules Reference", counter, opening, items."""
    lines = text.splitlines()
    if len(lines) < 4 or lines[1].strip() != "Rules Reference":
        raise CatalogError("expected a title, 'Rules Reference' and the list counter",
                           path=rel, line=2)
    chapter = Chapter(_number(rel, lines[2], 3), collapse(lines[0]), rel)
    ids = _Numbering(chapter)
    heading: str | None = None
    for lineno, raw in enumerate(lines[3:], 4):
        line = html.unescape(raw.rstrip())
        indent, stripped = len(line) - len(line.lstrip(" ")), line.strip()
        if not stripped:
            continue
        if indent == 0 and stripped == "Related Topics":
            break
        if indent == 0 and stripped == "Notes":
            ids.notes()
            heading = None
        elif indent == 0 and not chapter.passages:
            chapter.passages.append(Passage(chapter.id, [[(lineno, stripped)]]))
        elif indent == 4 and not _ENDS.search(stripped):
            if stripped not in headings:
                raise CatalogError(
                    f"{stripped!r} ends no statement: if it is a sub-heading of the chapter, "
                    f"list it in CONTEXT_HEADINGS in {MODULE}", path=rel, line=lineno)
            heading = stripped
        elif indent == 4:
            ids.item(lineno, stripped, heading)
        elif indent == 8:
            ids.nested(lineno, stripped)
        else:
            raise CatalogError(f"a line indented {indent} spaces is not understood", path=rel,
                               line=lineno)
    if not chapter.passages or chapter.passages[0].id != chapter.id:
        raise CatalogError("the chapter has no opening paragraph", path=rel, line=4)
    return chapter


class _RelatedPage(_LrrPageParser):
    """The site's PHP page: the item lists as for the rules page, plus the title (``<header>``),
    the counter (``<style>``) and the opening ``<p>`` with any list inside it."""

    def __init__(self) -> None:
        super().__init__()
        self.title = self.style = ""
        self.opening: list[str] | None = None  # [text] once the first <p> opens
        self.opening_line = 0
        self.entries: list[str] = []  # bare list entries inside the opening paragraph
        self._in: str | None = None  # "header", "style", "p" or "p-li" while reading one

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("header", "style") or (tag == "p" and self.opening is None):
            self._in = tag
            if tag == "p":
                self.opening, self.opening_line = [""], self.getpos()[0]
        elif tag == "li" and self._in in ("p", "p-li"):
            self._in = "p-li"
            self.entries.append("")
        else:
            super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("header", "style", "p") and self._in is not None:
            self._in = None
        else:
            super().handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if self._in == "header":
            self.title += data
        elif self._in == "style":
            self.style += data
        elif self._in == "p" and self.opening is not None:
            self.opening[0] += data
        elif self._in == "p-li":
            self.entries[-1] += data
        else:
            super().handle_data(data)


def _page_chapter(rel: str, text: str) -> Chapter:
    """A chapter as the site's PHP page."""
    page = read_page(_RelatedPage(), text, rel)
    if page.opening is None:
        raise CatalogError("the chapter has no opening paragraph (<p>)", path=rel)
    chapter = Chapter(_number(rel, page.style, 1), collapse(page.title), rel)
    opening = collapse(page.opening[0])
    entries = [collapse(e) for e in page.entries if collapse(e)]
    if entries:
        opening += " " + ", ".join(entries)
    chapter.passages.append(Passage(chapter.id, [[(page.opening_line, opening)]]))
    ids = _Numbering(chapter)
    for cls in ("lrr", "note"):
        if cls == "note":
            ids.notes()
        for body, line, subs, _ in page.lists.get(cls, ()):
            ids.item(line, collapse(body), None)
            for sub_body, sub_line, _, _ in subs:
                ids.nested(sub_line, collapse(sub_body))
    return chapter
