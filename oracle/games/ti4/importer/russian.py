"""The Russian translation of the TI4 rules, mapped onto the English ids.

Why its own module: the Russian edition numbers the section 28 and its comments ("КОММЕНТАРИИ",
1-9) do not follow the English notes (it lacks some), so points are mapped by number and
comments through the reviewed table of ``editorial``, which is checked against both files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from oracle.games.kit.sources import CatalogError
from oracle.games.ti4.importer.common import (
    CANONICAL,
    EN_SECTION,
    MODULE,
    RU_SECTION,
    RUSSIAN,
    Item,
    _collapse,
    _read_text,
)
from oracle.games.ti4.importer.editorial import RU_COMMENT_CHECKS, RU_COMMENT_TO_NOTE

#: Letters of Russian sub-points, in order (Russian lists skip ё and й).
RU_LETTERS = "абвгдежзиклмнопрстуфхцчшщэюя"

_RU_POINT = re.compile(r"^\*\s+(?P<section>\d+)\.(?P<num>\d+)\.\s+(?P<text>.*)$")
_RU_LETTERED = re.compile(r"^\s+(?P<letter>[а-я])\)\s+(?P<text>.*)$")
_RU_COMMENT = re.compile(r"^(?P<num>\d+)\)\s+(?P<text>.*)$")
_RU_COMMENTS_HEADING = "КОММЕНТАРИИ"


@dataclass
class _RuEntry:
    """One Russian point, sub-point or comment: how it is referred to, its text, its line."""

    ref: str
    text: str
    line: int


def parse_russian(sources_dir: Path) -> tuple[dict[str, _RuEntry], dict[int, _RuEntry]]:
    """Read the Russian points (28.x, lettered sub-points) and numbered comments.

    Returns points keyed by the English id they stand for (28.4 -> 2.4, its а) -> 2.4.1) and
    comments keyed by their own number; aligning comments is left to the reviewed table.
    """
    reader = _RussianReader()
    for lineno, line in enumerate(_read_text(sources_dir, RUSSIAN).splitlines(), 1):
        reader.read(lineno, line)
    points, comments = reader.points, reader.comments
    for entry in (*points.values(), *comments.values()):
        entry.text = _collapse(entry.text)
    if not points:
        raise CatalogError(f"no points {RU_SECTION}.x found", path=RUSSIAN)
    if not comments:
        raise CatalogError(f"no {_RU_COMMENTS_HEADING} comments found", path=RUSSIAN)
    return points, comments


class _RussianReader:
    """The file read line by line: points until the comments heading, then comments; an entry
    goes on over the lines that follow it until a blank line."""

    def __init__(self) -> None:
        self.points: dict[str, _RuEntry] = {}
        self.comments: dict[int, _RuEntry] = {}
        self.in_comments = False
        self.current: _RuEntry | None = None
        self.point_num: int | None = None
        self.letters = 0
        self.expected_point = 1

    def read(self, lineno: int, line: str) -> None:
        """One line: a point, a lettered sub-point, a comment, or a continuation."""
        stripped = line.strip()
        if not stripped:
            self.current = None
            return
        if stripped == _RU_COMMENTS_HEADING:
            self.in_comments = True
            self.current = None
            return
        point = None if self.in_comments else _RU_POINT.match(line)
        lettered = None if self.in_comments else _RU_LETTERED.match(line)
        comment = _RU_COMMENT.match(line) if self.in_comments else None
        if point:
            self._point(point, stripped, lineno)
        elif lettered:
            self._lettered(lettered, lineno)
        elif comment:
            self._comment(comment, lineno)
        elif self.current is not None:
            self.current.text += " " + stripped  # continuation line of the item above
        elif self.in_comments and stripped[0].isdigit():
            raise CatalogError(f"comment not understood: {stripped[:40]!r}",
                               path=RUSSIAN, line=lineno)

    def _point(self, point: re.Match[str], stripped: str, lineno: int) -> None:
        """A point 28.N: in its section and numbered in sequence."""
        if point.group("section") != RU_SECTION:
            raise CatalogError(
                f"point {stripped[:12]!r} is not in section {RU_SECTION}",
                path=RUSSIAN, line=lineno,
            )
        self.point_num = int(point.group("num"))
        if self.point_num != self.expected_point:
            raise CatalogError(
                f"point {RU_SECTION}.{self.point_num} found where "
                f"{RU_SECTION}.{self.expected_point} was expected",
                path=RUSSIAN, line=lineno,
            )
        self.expected_point += 1
        self.letters = 0
        self.current = _RuEntry(f"{RU_SECTION}.{self.point_num}", point.group("text"), lineno)
        self.points[f"{EN_SECTION}.{self.point_num}"] = self.current

    def _lettered(self, lettered: re.Match[str], lineno: int) -> None:
        """A sub-point а), б), ... of the point above, in alphabetical order."""
        letter = lettered.group("letter")
        letters = self.letters
        if (self.point_num is None or letters >= len(RU_LETTERS)
                or letter != RU_LETTERS[letters]):
            raise CatalogError(
                f"sub-point {letter}) out of order (expected "
                f"{RU_LETTERS[letters] if letters < len(RU_LETTERS) else '?'})",
                path=RUSSIAN, line=lineno,
            )
        self.letters += 1
        self.current = _RuEntry(f"{RU_SECTION}.{self.point_num} {letter})",
                                lettered.group("text"), lineno)
        self.points[f"{EN_SECTION}.{self.point_num}.{self.letters}"] = self.current

    def _comment(self, comment: re.Match[str], lineno: int) -> None:
        """A comment N), numbered in sequence."""
        number = int(comment.group("num"))
        if number != len(self.comments) + 1:
            raise CatalogError(
                f"comment {number}) found where {len(self.comments) + 1}) was expected",
                path=RUSSIAN, line=lineno,
            )
        self.current = _RuEntry(f"comment {number}", comment.group("text"), lineno)
        self.comments[number] = self.current


def _check_alignment(canonical: list[Item], comments: dict[int, _RuEntry],
                     table: dict[int, str], checks: dict[int, tuple[str, str]]) -> None:
    """Verify the reviewed comment -> note ``table`` against both files, loudly.

    Checks: the Russian has exactly the comments the table maps; every comment maps to a
    distinct existing note; the notes keep the comments' order; and each pair shares its
    marker, which occurs in no other note / comment, so a shift by one cannot pass.
    """
    ids = [item.id for item in canonical]
    notes = {item.id: item.text for item in canonical if item.id.startswith("note-")}
    if sorted(comments) != sorted(table):
        raise CatalogError(
            f"the file has comments {sorted(comments)} but the alignment table maps "
            f"{sorted(table)}; review RU_COMMENT_TO_NOTE in {MODULE}",
            path=RUSSIAN,
        )
    targets = [table[n] for n in sorted(table)]
    if len(set(targets)) != len(targets):
        raise CatalogError("the alignment table maps two comments to one note", path=RUSSIAN)
    for note_id in targets:
        if note_id not in notes:
            raise CatalogError(f"the alignment table names {note_id}, which {CANONICAL} lacks",
                               path=RUSSIAN, item_id=note_id)
    positions = [ids.index(t) for t in targets]
    if positions != sorted(positions):
        raise CatalogError("the alignment table does not keep the order of the notes",
                           path=RUSSIAN)
    if sorted(checks) != sorted(table):
        raise CatalogError("every aligned comment needs a content check in RU_COMMENT_CHECKS",
                           path=RUSSIAN)
    for number, note_id in table.items():
        en_marker, ru_marker = checks[number]
        entry = comments[number]
        en_hits = [k for k, v in notes.items() if en_marker.casefold() in v.casefold()]
        ru_hits = [k for k, c in comments.items() if ru_marker.casefold() in c.text.casefold()]
        if en_hits != [note_id] or ru_hits != [number]:
            raise CatalogError(
                f"alignment check failed for comment {number}) -> {note_id}: "
                f"{en_marker!r} is in {en_hits or 'no note'}, {ru_marker!r} is in comment(s) "
                f"{ru_hits or 'none'}; each must be in exactly the aligned pair.\n"
                f"  {CANONICAL} {note_id}: {notes[note_id]}\n  {RUSSIAN} {number}): {entry.text}"
                f"\n  review RU_COMMENT_TO_NOTE / RU_COMMENT_CHECKS in {MODULE}",
                path=RUSSIAN, line=entry.line, item_id=note_id,
            )


def translation_map(
    sources_dir: Path,
    canonical: list[Item],
    table: dict[int, str] = RU_COMMENT_TO_NOTE,
    checks: dict[int, tuple[str, str]] = RU_COMMENT_CHECKS,
) -> dict[str, _RuEntry]:
    """Map canonical ids to Russian entries: rules by number, notes by the reviewed table.

    The table and its checks are parameters so that the catalog build passes the ones it is
    given (a reviewer trying another alignment sees it refused, not silently used).
    """
    points, comments = parse_russian(sources_dir)
    known = {item.id for item in canonical}
    for item_id, entry in points.items():
        if item_id not in known:
            raise CatalogError(
                f"{entry.ref} would be {item_id}, which {CANONICAL} does not have",
                path=RUSSIAN, line=entry.line, item_id=item_id,
            )
    _check_alignment(canonical, comments, table, checks)
    mapped = dict(points)
    for number, note_id in table.items():
        mapped[note_id] = comments[number]
    return mapped
