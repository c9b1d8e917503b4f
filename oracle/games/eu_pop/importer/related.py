"""The EU rulebook chapters the "Action Cards" chapter leans on, read as citable context.

Why: scenarios rely on statements the chapter does not make (turn order, the steps of a
round and of a battle, set-up); those enter the catalog as context sentences of their own
chapter, never as rules (no verdicts). Ids follow the rulebook's own numbering where it has
one: the chapter's number from its file name (``4-2-...`` is ``4.2``, ``9-0a-...`` is
``9.0a``), a heading's own section number (``9.6``), step number (``4.0.1``, ``9.7.1``,
``9.9.5a``) or letter (``4.1.b``), else a slug of the heading under its parent
(``4.2.taking-a-turn``). A numbered list's entries are steps of their own (``4.5.a.2`` is
"Phase 5, Step A2", ``9.6.2`` the second battle step), with a step's bold name split off as
its ``label`` where a sentence follows it. Bullets, paragraphs and table rows stay in the
passage of their heading, each split into sentences on its own; a one-column table is a
passage of its own, named by its title. A heading the rules already import (Phase 5 Step C,
``4.5.c.*``) is left out: a statement is a rule or context, never both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from oracle.games.eu_pop.importer.wiki import heading_title, render_inline
from oracle.games.kit.sentences import Chapter, Passage
from oracle.games.kit.sources import CatalogError, files_in, read_source

RELATED_DIR = "eu-pop/related"

_FILE = re.compile(r"^(?P<major>\d+)-(?P<minor>\d+[a-z]?)-")
_HEADING = re.compile(r"^(?P<marks>#{1,6})\s+(?P<title>.*?)\s*$")
_NUMBERED = re.compile(r"^(?P<num>\d+)\.\s+(?P<text>.*)$")
_BULLET = re.compile(r"^\s*[-*+]\s+(?P<text>.*)$")
_SECTION = re.compile(r"^(?P<id>\d+\.\d+)\s")
_STEP = re.compile(r"^(?P<step>\d+[A-Za-z]?|[A-Z])(?:\.\s*|\s+|$)")
_LABEL = re.compile(r"^\*\*(?P<label>[^*]+?)\*\*\s+(?P<body>[A-Z].*)$")
_ESCAPED = re.compile(r"\\([*_`#\\])")


def related_files(sources_dir: Path) -> list[str]:
    """Every file of ``eu-pop/related/`` (each must be read; none is skipped silently)."""
    return files_in(sources_dir, RELATED_DIR, "--sources")


def parse_related(sources_dir: Path, rules: Iterable[tuple[str, tuple[str, ...]]]
                  ) -> list[Chapter]:
    """Every related chapter as context passages, in file order.

    ``rules`` are the (file, headings) the rules already import; their text is left out.
    """
    skip = set(rules)
    return [_chapter(rel, read_source(sources_dir, rel, "--sources"), skip)
            for rel in related_files(sources_dir)]


def slug(title: str) -> str:
    """A heading as an id part: bracketed asides, icons and a trailing "– icon" dropped."""
    title = re.sub(r"\([^)]*\)|`[^`]*`|\s[–-]\s.*$", " ", title)
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _inline(text: str) -> str:
    """Markdown to words, as the rules chapter's sentences are (escapes kept as characters)."""
    protected = _ESCAPED.sub(lambda m: f"\x00{ord(m[1])}\x00", text)
    rendered = render_inline(protected)
    return re.sub(r"\x00(\d+)\x00", lambda m: chr(int(m[1])), rendered)


class _Reader:
    """A chapter read line by line into passages: headings open passages, numbered list
    entries open steps under them, everything else adds a block to the open passage."""

    def __init__(self, rel: str, chapter: Chapter, skip: set[tuple[str, tuple[str, ...]]]):
        self.rel, self.chapter, self.skip = rel, chapter, skip
        self.headings: list[tuple[int, str, str]] = []  # (level, title, id), outermost first
        self.section: Passage | None = None  # the open heading's passage (None: skipped)
        self.current: Passage | None = None  # where the next block goes
        self.block: list[tuple[int, str]] | None = None  # a paragraph being read
        self.step = 0
        self.table: Passage | None = None

    def heading(self, level: int, raw: str, lineno: int) -> None:
        title = heading_title(raw)
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        if level == 1:
            self.headings = [(1, title, self.chapter.id)]
            self.section = self.current = self._passage(self.chapter.id, None, None)
            return
        parent = self.headings[-1][2] if self.headings else self.chapter.id
        section, step = _SECTION.match(title), _STEP.match(title)
        local = (section["id"] if section else f"{parent}.{step['step'].lower()}" if step
                 else f"{parent}.{slug(title)}")
        self.headings.append((level, title, local))
        titles = tuple(t for _, t, _ in self.headings)
        if (self.rel, titles) in self.skip:
            self.section = self.current = None
            return
        self.section = self.current = self._passage(
            local, parent if parent != self.chapter.id else None, title)
        self.step = 0

    def _passage(self, local: str, parent: str | None, heading: str | None) -> Passage:
        passage = Passage(local, [], parent=parent, heading=heading)
        self.chapter.passages.append(passage)
        return passage

    def line(self, lineno: int, line: str) -> None:
        stripped = line.strip()
        if not stripped:
            self.block = None
            return
        if stripped.startswith("|"):
            self.row(lineno, stripped)
            return
        self.table = None
        if self.section is None:
            return
        numbered = _NUMBERED.match(line)
        bullet = _BULLET.match(line)
        if numbered:
            self.numbered(lineno, int(numbered["num"]), numbered["text"])
        elif bullet:
            if line[:1] not in (" ", "\t"):
                self.current = self.section  # a list of its own, not a step's sub-list
            self.add(lineno, bullet["text"])
        elif self.block is not None:
            self.block.append((lineno, _inline(stripped)))
        else:
            if line[:1] not in (" ", "\t"):
                self.current = self.section  # a paragraph after a list is its heading's
            self.add(lineno, stripped)

    def numbered(self, lineno: int, number: int, text: str) -> None:
        assert self.section is not None
        self.step += 1
        if number != self.step:
            raise CatalogError(f"step {number} is entry {self.step} of its list",
                               path=self.rel, line=lineno)
        labelled = _LABEL.match(text)
        label = _inline(labelled["label"]) if labelled and not re.search(
            r"[.:!?]$", labelled["label"]) else None
        self.current = self._passage(f"{self.section.id}.{number}", self.section.id,
                                     self.section.heading)
        self.current.label = label
        self.add(lineno, labelled["body"] if label and labelled else text)

    def add(self, lineno: int, text: str) -> None:
        """A new block (paragraph, list entry) of the passage being read."""
        assert self.current is not None
        self.block = [(lineno, _inline(text))]
        self.current.blocks.append(self.block)

    def row(self, lineno: int, stripped: str) -> None:
        cells = [_inline(c) for c in stripped.strip("|").split("|")]
        if all(re.fullmatch(r":?-+:?", c.strip()) for c in cells if c.strip()):
            return  # the header's separator row
        cells = [c for c in cells if c]
        if self.table is None:
            if self.section is None:
                return
            if len(cells) == 1:  # a one-column table is named by its title
                self.table = self._passage(f"{self.chapter.id}.{slug(cells[0])}", None,
                                           cells[0])
                return
            self.table = self.section
        self.table.blocks.append([(lineno, " | ".join(cells))])


def _chapter(rel: str, text: str, skip: set[tuple[str, tuple[str, ...]]]) -> Chapter:
    name = _FILE.match(Path(rel).name)
    if not name:
        raise CatalogError("a related chapter's file name must start with its number, like "
                           "4-2-... or 9-0a-...", path=rel)
    lines = text.splitlines()
    start, title = 0, None
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is None:
            raise CatalogError("the front matter opened on line 1 is never closed", path=rel,
                               line=1)
        found = [re.match(r'title:\s*"?(?P<t>.*?)"?\s*$', ln) for ln in lines[1:end]]
        title = next((m["t"] for m in found if m), None)
        start = end + 1
    chapter = Chapter(f"{name['major']}.{name['minor']}", title or Path(rel).stem, rel)
    reader = _Reader(rel, chapter, skip)
    for lineno in range(start + 1, len(lines) + 1):
        line = lines[lineno - 1]
        heading = _HEADING.match(line)
        if heading:
            reader.block = reader.table = None
            reader.heading(len(heading["marks"]), heading["title"], lineno)
        elif reader.section is None and reader.headings == [] and line.strip():
            raise CatalogError("text before the chapter's heading", path=rel, line=lineno)
        else:
            reader.line(lineno, line)
    # A heading with no text of its own (only sub-headings or steps) is no passage; what
    # stands under it names the nearest passage above as its parent.
    empty = {p.id: p.parent for p in chapter.passages if not p.blocks}
    for passage in chapter.passages:
        while passage.parent in empty:
            passage.parent = empty[passage.parent]
    chapter.passages = [p for p in chapter.passages if p.blocks]
    return chapter
