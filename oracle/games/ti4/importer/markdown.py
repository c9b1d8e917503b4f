"""The wiki rendering of the TI4 rules: Markdown lists under "Rule points" and "Notes".

Why parsed on its own: a transcription error in the wiki (a dropped note, a renumbered rule,
a changed word) must stop the build when it is cross-checked against the canonical YAML.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from oracle.games.kit.sources import CatalogError
from oracle.games.ti4.importer.common import EN_SECTION, MARKDOWN, Item, _note_id, _read_text

_MD_NUMBERED = re.compile(r"^(?P<indent>\s*)(?P<num>\d+)\.\s+(?P<text>.*)$")
_MD_BULLET = re.compile(r"^(?P<indent>\s*)[-*+]\s+(?P<text>.*)$")
_MD_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.*?)\s*$")


def _strip_markdown(text: str) -> str:
    """Drop inline Markdown (links, emphasis, code) so that only the words are compared."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"(\*\*|__|\*|`)", "", text)
    return text


def parse_markdown(sources_dir: Path) -> list[Item]:
    """Read the wiki page: "Rule points" is a numbered list, "Notes" a bullet list by position.

    Indented items are sub-items of the item above. A Markdown renderer numbers by position,
    so a written number that disagrees with the position is reported rather than trusted.
    """
    reader = _MarkdownLists()
    for lineno, line in enumerate(_read_text(sources_dir, MARKDOWN).splitlines(), 1):
        reader.read(lineno, line)
    reader.flush()
    return reader.items


class _MarkdownLists:
    """The page read line by line: the section it is in, the position in its list, and the
    item being read (which may continue on the next lines)."""

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.section: str | None = None
        self.top = 0
        self.sub = 0
        self.last: list[Any] | None = None  # [id, parent, text, line] of the item being read

    def flush(self) -> None:
        """The item being read is complete."""
        if self.last is not None:
            last = self.last
            self.items.append(Item(last[0], last[1], _strip_markdown(last[2]), line=last[3],
                                   verbatim=last[2]))
        self.last = None

    def read(self, lineno: int, line: str) -> None:
        """One line: a heading, a blank, a list item, or the continuation of one."""
        heading = _MD_HEADING.match(line)
        if heading:
            self.flush()
            title = heading.group("title").lower()
            self.section = {"rule points": "rules", "notes": "notes"}.get(title)
            self.top = self.sub = 0
            return
        if self.section is None:
            return
        if not line.strip():
            self.flush()
            return
        rules = self.section == "rules"
        marker = _MD_NUMBERED.match(line) if rules else _MD_BULLET.match(line)
        if marker is None:
            if self.last is None:
                raise CatalogError(
                    f"unexpected line in the {self.section} list: {line.strip()!r}",
                    path=MARKDOWN, line=lineno,
                )
            self.last[2] += " " + line.strip()  # lazy continuation of the item above
            return
        self.flush()
        self.last = self._item(marker, lineno)

    def _item(self, marker: re.Match[str], lineno: int) -> list[Any]:
        """A new item: its id and parent from its position (an indented item is a sub-item)."""
        nested = len(marker.group("indent").expandtabs(4)) >= 2
        if nested:
            if self.top == 0:
                raise CatalogError("indented item before any item", path=MARKDOWN, line=lineno)
            self.sub += 1
            position, parent_pos = f"{self.top}.{self.sub}", str(self.top)
        else:
            self.top += 1
            self.sub = 0
            position, parent_pos = str(self.top), None
        if self.section != "rules":
            parent = _note_id(parent_pos) if parent_pos else None
            return [_note_id(position), parent, marker.group("text"), lineno]
        written = int(marker.group("num"))
        expected_num = self.sub if nested else self.top
        if written != expected_num:
            raise CatalogError(
                f"item numbered {written} is item {expected_num} of its list",
                path=MARKDOWN, line=lineno,
            )
        parent = f"{EN_SECTION}.{parent_pos}" if parent_pos else None
        return [f"{EN_SECTION}.{position}", parent, marker.group("text"), lineno]
