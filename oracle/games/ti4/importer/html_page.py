"""The LRR site's rendering of the TI4 rules: an HTML page copied with its line-number gutter.

Why parsed on its own: like the wiki, it is cross-checked against the canonical YAML; its
nesting (sub-lists as siblings of their ``<li>``) needs a real HTML parser, and its error
messages give the page's own line numbers, which is what someone comparing with the site sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, TypeVar

from oracle.games.kit.sources import CatalogError
from oracle.games.ti4.importer.common import EN_SECTION, HTML_PAGE, Item, _note_id, _read_text


class _LrrPageParser(HTMLParser):
    """Collect ``<ol class="lrr">`` / ``<ol class="note">`` items and their nested lists.

    The site nests sub-lists as siblings of the ``<li>`` (``<li>..</li><ol>..</ol>``), which is
    invalid HTML but how the page is written; a nested list inside the ``<li>`` works the same.
    Nesting is tracked by ``<ol>`` depth, so both forms give the same ids. Each item's text
    is kept twice: its words (what is cross-checked) and with its inline tags as written
    (``<b>seven action cards</b>``: what the page shows, for drift between renderings).
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lists: dict[str, list[list[Any]]] = {}  # class -> [[text, line, subs, markup]]
        self._ols: list[str | None] = []  # class of each open <ol>, outermost first
        self._kind: str | None = None  # class of the outermost open catalog list
        self._open: list[tuple[int, list[Any]]] = []  # (ol depth, record) of open <li>s
        self.errors: list[tuple[str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        if tag == "ol":
            cls = dict(attrs).get("class")
            if not self._ols and cls in ("lrr", "note"):
                if cls in self.lists:
                    self.errors.append((f'a second <ol class="{cls}"> list', line))
                self.lists.setdefault(cls, [])
                self._kind = cls
            self._ols.append(cls)
        elif tag == "li" and self._kind is not None:
            depth = len(self._ols)
            while self._open and self._open[-1][0] >= depth:  # implicitly closed <li>
                self._open.pop()
            record: list[Any] = ["", line, [], ""]
            top_items = self.lists[self._kind]
            if depth == 1:
                top_items.append(record)
            elif depth == 2 and top_items:
                top_items[-1][2].append(record)
            else:
                self.errors.append((f"<li> at list depth {depth} not understood", line))
            self._open.append((depth, record))
        elif self._open:  # inline markup inside an item
            self._open[-1][1][3] += self.get_starttag_text() or ""

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("li", "ol") and self._open:
            self._open[-1][1][3] += f"</{tag}>"
        if tag == "li" and self._open:
            self._open.pop()
        elif tag == "ol" and self._ols:
            depth = len(self._ols)
            while self._open and self._open[-1][0] >= depth:
                self._open.pop()
            self._ols.pop()
            if not self._ols:
                self._kind = None

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][1][0] += data
            self._open[-1][1][3] += data


_PageParser = TypeVar("_PageParser", bound=_LrrPageParser)


def _gutter_end(lines: Sequence[str]) -> int:
    """Index of the last line of the copied page's line-number gutter ("1", "2", ... "N").

    Lets error messages give the page's own line number, which is what someone comparing with
    the original site sees. Returns 0 when no gutter is found.
    """
    for start, line in enumerate(lines):
        if line.strip() == "1":
            n = start
            while n + 1 < len(lines) and lines[n + 1].strip() == str(n + 2 - start):
                n += 1
            if n > start:
                return n + 1
    return 0


def read_page(parser: _PageParser, text: str, rel: str) -> _PageParser:
    """Feed a whole page to ``parser``; the first thing it did not understand is an error."""
    parser.feed(text)
    parser.close()
    if parser.errors:
        message, line = parser.errors[0]
        raise CatalogError(message, path=rel, line=line)
    return parser


def parse_html(sources_dir: Path) -> list[Item]:
    """Read rules and notes from the site page with the stdlib HTML parser (nesting matters)."""
    parser = read_page(_LrrPageParser(), _read_text(sources_dir, HTML_PAGE), HTML_PAGE)
    for cls in ("lrr", "note"):
        if cls not in parser.lists:
            raise CatalogError(f'no <ol class="{cls}"> list found', path=HTML_PAGE)
    items: list[Item] = []
    for cls, make_id in (("lrr", lambda p: f"{EN_SECTION}.{p}"), ("note", _note_id)):
        for n, (body, line, subs, markup) in enumerate(parser.lists[cls], 1):
            items.append(Item(make_id(str(n)), None, body, line=line, verbatim=markup))
            for m, (sub_body, sub_line, _, sub_markup) in enumerate(subs, 1):
                items.append(Item(make_id(f"{n}.{m}"), make_id(str(n)), sub_body, line=sub_line,
                                  verbatim=sub_markup))
    return items


def _html_line(sources_dir: Path, line: int | None) -> str:
    """Describe a file line of the page, plus the page's own (gutter) line number."""
    if line is None:
        return ""
    lines = (sources_dir / HTML_PAGE).read_text(encoding="utf-8").splitlines()
    end = _gutter_end(lines)
    return f" (page line {line - end})" if end and line > end else ""
