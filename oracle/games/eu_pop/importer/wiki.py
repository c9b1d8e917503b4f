"""Reading an EU rules chapter, wiki or Markdown, into sentences under their headings.

Why sentences: the catalog's rules are the chapter's sentences, each matched to the reviewed
table by its opening words; icons are kept (in backticks) and all other markup dropped, so a
sentence reads the same whichever format its file is in.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from oracle.games.kit.sentences import split_sentences
from oracle.games.kit.sources import CatalogError
from oracle.games.kit.sources import collapse as _collapse


@dataclass(frozen=True)
class Sentence:
    """One sentence of a source, under its headings (outermost first), where it was."""

    source: str
    line: int
    headings: tuple[str, ...]
    text: str


_WIKI_HEADING = re.compile(r"^(?P<marks>={2,6})\s*(?P<title>.*?)\s*(?P=marks)\s*$")
_MD_HEADING = re.compile(r"^(?P<marks>#{1,6})\s+(?P<title>.*?)\s*$")
_CODE = re.compile(r"<code>(?P<icon>[^<]*)</code>")
_ICON_IN_PARENS = re.compile(r"\s*\(\s*(?:<code>[^<]*</code>|`[^`]*`)\s*\)")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")


def render_inline(text: str) -> str:
    """Markup to words: wiki/Markdown emphasis dropped, icons kept in backticks.

    The chapter marks icons with ``<code>d</code>``; the related chapters with `` `d` ``.
    Both become `` `d` ``, so that a catalog sentence reads the same whichever file it is from.
    """
    text = _CODE.sub(lambda m: f"`{m['icon']}`" if m["icon"] else "", text)
    text = re.sub(r"'{2,}", "", text)  # wiki ''italic'', '''bold''', '''''both'''''
    text = re.sub(r"\*{1,3}", "", text)  # Markdown *italic*, **bold**
    return _collapse(html.unescape(text))


def heading_title(raw: str) -> str:
    """A heading as the table names it: the icon after a title, ``Display Cards (™)``, dropped."""
    return render_inline(_ICON_IN_PARENS.sub("", raw))


def parse_source(text: str, rel: str) -> list[Sentence]:
    """Every sentence of a wiki or Markdown chapter, with its headings and line.

    Both files use one line per paragraph; a front-matter block (``---`` ... ``---``) is
    skipped. Headings nest by level: ``#`` is 1, ``==`` 2, ``===`` 3 (``##``, ``###`` alike); a
    level may be skipped (the chapter puts ``===`` right under ``#``).
    """
    lines = text.splitlines()
    start = 0
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is None:
            raise CatalogError("the front matter opened on line 1 is never closed", path=rel,
                               line=1)
        start = end + 1
    headings: list[tuple[int, str]] = []  # (level, title), outermost first
    sentences: list[Sentence] = []
    for lineno in range(start + 1, len(lines) + 1):
        line = lines[lineno - 1]
        if not line.strip():
            continue
        heading = _WIKI_HEADING.match(line) or _MD_HEADING.match(line)
        if heading:
            level = len(heading["marks"])
            while headings and headings[-1][0] >= level:
                headings.pop()
            headings.append((level, heading_title(heading["title"])))
            continue
        paragraph = render_inline(_LIST_MARKER.sub("", line))
        for sentence in split_sentences(paragraph):
            sentences.append(Sentence(rel, lineno, tuple(t for _, t in headings), sentence))
    return sentences
