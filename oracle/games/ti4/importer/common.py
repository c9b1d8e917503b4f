"""What every TI4 rendering is read into, where the renderings are, and how texts compare.

Why apart: each rendering (YAML, Markdown, HTML, Russian) has its own parser module, but all
of them give ``Item``s with the same ids, and all are compared through ``comparable``; the
file names are shared by the parsers, the cross-check and the error messages.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from oracle.games.kit.sources import (
    REPO_ROOT,
    SHARED_DATA,
    SHARED_SOURCES,
    collapse,
    read_source,
    sha256_of,
)

DEFAULT_SOURCES = SHARED_SOURCES
DEFAULT_DATA = SHARED_DATA
DEFAULT_OUT = REPO_ROOT / "features" / "ti4"

GAME = "ti4"
MODULE = "oracle.games.ti4.importer"
TITLE = "Twilight Imperium 4th edition — Action Cards (Living Rules Reference)"

CANONICAL = "ti4/action-cards.lrr.en.yaml"
MARKDOWN = "ti4/action-cards.lrr-wiki.en.md"
HTML_PAGE = "ti4/action-cards.lrr-site.en.php.txt"
RUSSIAN = "ti4/action-cards.rules.ru.md"
ACTION_DECK = "ti4/action-deck-pok.json"

CATALOG_FILE = "catalog.yaml"
CARDS_FILE = "cards.yaml"

#: The LRR numbers this section 2; the older Russian reference numbers the same section 28.
EN_SECTION = "2"
RU_SECTION = "28"


@dataclass(frozen=True)
class Item:
    """One rule or note as one rendering gives it: id, parent id, raw text, where it was.

    ``pieces`` are the text's lines as ``(line, fragment)`` where a parser knows them, so
    that each sentence can say on which line it starts. ``verbatim`` is the text as the
    rendering writes it, inline markup and all, where the parser strips that from ``text``:
    what ``rules-oracle drift`` shows of the rendering.
    """

    id: str
    parent: str | None
    text: str
    line: int | None = None
    ref: str | None = None
    pieces: tuple[tuple[int, str], ...] = ()
    verbatim: str | None = None


def _read_text(base: Path, rel: str) -> str:
    """Read a source as UTF-8, turning a missing file into a CatalogError that says what to do."""
    return read_source(base, rel, "--sources/--data directory")


_collapse = collapse
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([.,;:!?)])")


def comparable(text: str) -> str:
    """Reduce a text to what must agree between renderings.

    Only markup, entities, whitespace and a space before punctuation (the wiki writes
    "seven action cards .") are forgiven. Quotes, spelling and words are not, because those
    are exactly the transcription errors the cross-check exists to catch.
    """
    text = _TAG.sub("", text)
    text = html.unescape(text)
    text = _collapse(text)
    return _SPACE_BEFORE_PUNCT.sub(r"\1", text)


def _note_id(key: str) -> str:
    """The catalog id of a note numbered ``key`` (notes have no section number)."""
    return f"note-{key}"


def _number_key(key: str) -> tuple[int, ...]:
    """Sort '2', '10', '5.1' in reading order, not string order ('10' < '2')."""
    return tuple(int(part) for part in key.split("."))


def _first_difference(a: str, b: str) -> str:
    """Point at the first differing position, because two long sentences are hard to diff by eye."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return f"first difference at character {n + 1}: {a[n:n + 25]!r} vs {b[n:n + 25]!r}"


_sha256 = sha256_of
