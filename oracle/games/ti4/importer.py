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
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import yaml

from oracle.suite.catalog import render_generated

#: Repository root: the sources and data live *beside* it (``../shared``), never at a fixed path.
REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_SOURCES = REPO_ROOT.parent / "shared" / "sources"
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data"
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
#: Sections of the canonical YAML that hold rules; any other section must be empty.
RULES_SECTION = "Rules Reference"
NOTES_SECTION = "Notes"

#: Editorial decision: ids that state no behaviour, so no scenario can check them.
UNTESTABLE: dict[str, str] = {
    "note-11": (
        "a pointer to the action card component notes page; it states no behaviour to test"
    ),
}

#: Interpretation remarks, kept next to the rule so that a reviewer sees the reading we test.
REMARKS: dict[str, str] = {
    "note-5": (
        'The text says "During the action phase", but the dealing it describes (with notes '
        "5.1 and 5.2) is the status phase's Draw Action Cards step, which deals in initiative "
        "order. Scenarios test the dealing order wherever several players are dealt cards."
    ),
}

#: Reviewed alignment of the Russian comments ("КОММЕНТАРИИ", numbered 1-9) with the English
#: notes. The Russian edition lacks note 2 (hand size is public), sub-notes 5.1 and 5.2
#: (Neural Motivator, Yssaril) and the pointer note 11, so from comment 2 on the numbers drift.
RU_COMMENT_TO_NOTE: dict[int, str] = {
    1: "note-1",
    2: "note-3",
    3: "note-4",
    4: "note-5",
    5: "note-6",
    6: "note-7",
    7: "note-8",
    8: "note-9",
    9: "note-10",
}

#: One (English, Russian) marker pair per comment. Each marker must occur in its own item and in
#: *no other* note (English) or comment (Russian), case-insensitively, so a shifted or swapped
#: pair cannot pass. (Numerals such as "zero"/"0" were rejected: note 8 and comment 7 also say
#: zero/0, so they would not tell neighbours apart.)
RU_COMMENT_CHECKS: dict[int, tuple[str, str]] = {
    1: ("start the game", "начинают игру"),
    2: ("reveal", "показать"),
    3: ("shuffle", "замешайте"),
    4: ("initiative order", "порядке инициативы"),
    5: ("Sabotage", "Саботаж"),
    6: ("Lucky Shot", "Удачное попадание"),
    7: ("no effect", "никакого эффекта"),
    8: ("Repeal Law", "Отклонить закон"),
    9: ("seven", "семи"),
}

#: Letters of Russian sub-points, in order (Russian lists skip ё and й).
RU_LETTERS = "абвгдежзиклмнопрстуфхцчшщэюя"


class CatalogError(Exception):
    """A source disagrees with the canonical rendering or with what the importer expects.

    Carries the rendering (``path``, relative to the sources/data dir), the ``line`` and the
    rule ``item_id`` when known, so that callers and tests need not parse the message.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        item_id: str | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.item_id = item_id
        where = path or ""
        if path and line is not None:
            where = f"{path}:{line}"
        prefix = f"{where}: " if where else ""
        if item_id:
            prefix += f"[{item_id}] "
        super().__init__(prefix + message)


@dataclass(frozen=True)
class Item:
    """One rule or note as one rendering gives it: id, parent id, raw text, where it was."""

    id: str
    parent: str | None
    text: str
    line: int | None = None
    ref: str | None = None


# --------------------------------------------------------------------------------------------
# helpers


def _read_text(base: Path, rel: str) -> str:
    """Read a source as UTF-8, turning a missing file into a CatalogError that says what to do."""
    path = base / rel
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CatalogError(
            f"file not found under {base} (pass the right --sources/--data directory)",
            path=rel,
        ) from None


def _sha256(base: Path, rel: str) -> str:
    """Hash a source so that the generated file records exactly which input it came from."""
    return hashlib.sha256((base / rel).read_bytes()).hexdigest()


def _collapse(text: str) -> str:
    """Collapse runs of whitespace (incl. no-break spaces) to one space: layout, not content."""
    return re.sub(r"\s+", " ", text).strip()


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


def _strip_markdown(text: str) -> str:
    """Drop inline Markdown (links, emphasis, code) so that only the words are compared."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"(\*\*|__|\*|`)", "", text)
    return text


def _number_key(key: str) -> tuple[int, ...]:
    """Sort '2', '10', '5.1' in reading order, not string order ('10' < '2')."""
    return tuple(int(part) for part in key.split("."))


def _first_difference(a: str, b: str) -> str:
    """Point at the first differing position, because two long sentences are hard to diff by eye."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return f"first difference at character {n + 1}: {a[n:n + 25]!r} vs {b[n:n + 25]!r}"


# --------------------------------------------------------------------------------------------
# canonical YAML


def _note_id(key: str) -> str:
    return f"note-{key}"


def parse_canonical(sources_dir: Path) -> list[Item]:
    """Read the canonical YAML into items in the document's reading order.

    The YAML maps string keys, so the loader's order ('10' before '2') cannot be trusted; we
    sort numerically and put sub-items right after their parent. Numbering gaps are errors:
    a missing rule would otherwise just vanish from the catalog.
    """
    raw = _read_text(sources_dir, CANONICAL)
    try:
        doc = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        raise CatalogError(f"not valid YAML: {exc}", path=CANONICAL) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise CatalogError("expected a mapping with a 'cards' list", path=CANONICAL)

    sections: dict[str, dict[str, Any]] = {}
    for card in doc["cards"]:
        name = card.get("name")
        rules = card.get("rules") or {}
        if name in (RULES_SECTION, NOTES_SECTION):
            sections[name] = {str(k): v for k, v in rules.items()}
        elif rules:
            raise CatalogError(
                f"unexpected section {name!r} with rules; teach the importer about it",
                path=CANONICAL,
            )
    for needed in (RULES_SECTION, NOTES_SECTION):
        if needed not in sections:
            raise CatalogError(f"section {needed!r} is missing", path=CANONICAL)

    items: list[Item] = []
    for section, prefix, make_id in (
        (RULES_SECTION, EN_SECTION, str),
        (NOTES_SECTION, None, _note_id),
    ):
        entries = sections[section]
        keys = sorted(entries, key=_number_key)
        expected = [f"{prefix}.{n}" if prefix else str(n) for n in range(1, len(keys) + 1)]
        if keys != expected:
            raise CatalogError(
                f"{section}: keys {keys} are not numbered {expected[0]}..{expected[-1]}",
                path=CANONICAL,
            )
        for key in keys:
            entry = entries[key]
            ref = f"{CANONICAL} > {section} > {key}"
            items.append(Item(make_id(key), None, _rule_text(entry, ref), ref=ref))
            subs = {str(k): v for k, v in (entry.get("subrules") or {}).items()}
            sub_keys = sorted(subs, key=_number_key)
            sub_expected = [f"{key}.{n}" for n in range(1, len(sub_keys) + 1)]
            if sub_keys != sub_expected:
                raise CatalogError(
                    f"{section} {key}: subrule keys {sub_keys} are not {sub_expected}",
                    path=CANONICAL,
                    item_id=make_id(key),
                )
            for sub_key in sub_keys:
                sub_ref = f"{ref} > {sub_key}"
                items.append(
                    Item(make_id(sub_key), make_id(key), _rule_text(subs[sub_key], sub_ref),
                         ref=sub_ref)
                )
    return items


def _rule_text(entry: Any, ref: str) -> str:
    if not isinstance(entry, dict) or not isinstance(entry.get("rule"), str):
        raise CatalogError(f"{ref}: expected a mapping with a 'rule' string", path=CANONICAL)
    return _collapse(entry["rule"])


# --------------------------------------------------------------------------------------------
# Markdown (wiki) rendering

_MD_NUMBERED = re.compile(r"^(?P<indent>\s*)(?P<num>\d+)\.\s+(?P<text>.*)$")
_MD_BULLET = re.compile(r"^(?P<indent>\s*)[-*+]\s+(?P<text>.*)$")
_MD_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.*?)\s*$")


def parse_markdown(sources_dir: Path) -> list[Item]:
    """Read the wiki page: "Rule points" is a numbered list, "Notes" a bullet list by position.

    Indented items are sub-items of the item above. A Markdown renderer numbers by position,
    so a written number that disagrees with the position is reported rather than trusted.
    """
    text = _read_text(sources_dir, MARKDOWN)
    items: list[Item] = []
    section: str | None = None
    top = 0
    sub = 0
    last: list[Any] | None = None  # [id, parent, text, line] of the item being read

    def flush() -> None:
        if last is not None:
            items.append(Item(last[0], last[1], _strip_markdown(last[2]), line=last[3]))

    for lineno, line in enumerate(text.splitlines(), 1):
        heading = _MD_HEADING.match(line)
        if heading:
            flush()
            last = None
            title = heading.group("title").lower()
            section = {"rule points": "rules", "notes": "notes"}.get(title)
            top = sub = 0
            continue
        if section is None:
            continue
        if not line.strip():
            flush()
            last = None
            continue
        marker = _MD_NUMBERED.match(line) if section == "rules" else _MD_BULLET.match(line)
        if marker is None:
            if last is None:
                raise CatalogError(
                    f"unexpected line in the {section} list: {line.strip()!r}",
                    path=MARKDOWN, line=lineno,
                )
            last[2] += " " + line.strip()  # lazy continuation of the item above
            continue
        flush()
        nested = len(marker.group("indent").expandtabs(4)) >= 2
        if nested:
            if top == 0:
                raise CatalogError("indented item before any item", path=MARKDOWN, line=lineno)
            sub += 1
            position, parent_pos = f"{top}.{sub}", str(top)
        else:
            top += 1
            sub = 0
            position, parent_pos = str(top), None
        if section == "rules":
            written = int(marker.group("num"))
            expected_num = sub if nested else top
            if written != expected_num:
                raise CatalogError(
                    f"item numbered {written} is item {expected_num} of its list",
                    path=MARKDOWN, line=lineno,
                )
            item_id = f"{EN_SECTION}.{position}"
            parent = f"{EN_SECTION}.{parent_pos}" if parent_pos else None
        else:
            item_id = _note_id(position)
            parent = _note_id(parent_pos) if parent_pos else None
        last = [item_id, parent, marker.group("text"), lineno]
    flush()
    return items


# --------------------------------------------------------------------------------------------
# HTML (LRR site page, copied with a line-number gutter)


class _LrrPageParser(HTMLParser):
    """Collect ``<ol class="lrr">`` / ``<ol class="note">`` items and their nested lists.

    The site nests sub-lists as siblings of the ``<li>`` (``<li>..</li><ol>..</ol>``), which is
    invalid HTML but how the page is written; a nested list inside the ``<li>`` works the same.
    Nesting is tracked by ``<ol>`` depth, so both forms give the same ids.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lists: dict[str, list[list[Any]]] = {}  # class -> [[text, line, subs]]
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
            record: list[Any] = ["", line, []]
            top_items = self.lists[self._kind]
            if depth == 1:
                top_items.append(record)
            elif depth == 2 and top_items:
                top_items[-1][2].append(record)
            else:
                self.errors.append((f"<li> at list depth {depth} not understood", line))
            self._open.append((depth, record))

    def handle_endtag(self, tag: str) -> None:
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


def parse_html(sources_dir: Path) -> list[Item]:
    """Read rules and notes from the site page with the stdlib HTML parser (nesting matters)."""
    text = _read_text(sources_dir, HTML_PAGE)
    parser = _LrrPageParser()
    parser.feed(text)
    parser.close()
    if parser.errors:
        message, line = parser.errors[0]
        raise CatalogError(message, path=HTML_PAGE, line=line)
    for cls in ("lrr", "note"):
        if cls not in parser.lists:
            raise CatalogError(f'no <ol class="{cls}"> list found', path=HTML_PAGE)
    items: list[Item] = []
    for cls, make_id in (("lrr", lambda p: f"{EN_SECTION}.{p}"), ("note", _note_id)):
        for n, (body, line, subs) in enumerate(parser.lists[cls], 1):
            items.append(Item(make_id(str(n)), None, body, line=line))
            for m, (sub_body, sub_line, _) in enumerate(subs, 1):
                items.append(Item(make_id(f"{n}.{m}"), make_id(str(n)), sub_body, line=sub_line))
    return items


def _html_line(sources_dir: Path, line: int | None) -> str:
    """Describe a file line of the page, plus the page's own (gutter) line number."""
    if line is None:
        return ""
    lines = (sources_dir / HTML_PAGE).read_text(encoding="utf-8").splitlines()
    end = _gutter_end(lines)
    return f" (page line {line - end})" if end and line > end else ""


# --------------------------------------------------------------------------------------------
# cross-check


def cross_check(
    canonical: list[Item], rendering: list[Item], path: str, sources_dir: Path
) -> None:
    """Fail unless a rendering gives the canonical ids, parents and texts, in order.

    Items are compared position by position so that a dropped item is reported where it went
    missing (with a hint), not as a mismatch of the last id.
    """
    texts = {item.id: comparable(item.text) for item in canonical}
    for index, want in enumerate(canonical):
        if index >= len(rendering):
            raise CatalogError(
                f"missing: the rendering ends before this item.\n"
                f"  canonical ({CANONICAL}): {want.text}\n  {path}: (absent)",
                path=path, item_id=want.id,
            )
        got = rendering[index]
        if got.id == want.id and got.parent == want.parent and (
            texts[want.id] == comparable(got.text)
        ):
            continue
        page_line = _html_line(sources_dir, got.line) if path == HTML_PAGE else ""
        if got.id != want.id:
            raise CatalogError(
                f"structure differs: this position is {got.id!r} here but {want.id!r} in the "
                f"canonical rendering{page_line}.\n  canonical ({CANONICAL}): {want.text}\n"
                f"  {path}: {got.text.strip()}",
                path=path, line=got.line, item_id=want.id,
            )
        if got.parent != want.parent:
            raise CatalogError(
                f"parent is {got.parent!r} here but {want.parent!r} in {CANONICAL}{page_line}",
                path=path, line=got.line, item_id=want.id,
            )
        mine, theirs = texts[want.id], comparable(got.text)
        if mine != theirs:
            hint = ""
            other = [k for k, v in texts.items() if v == theirs and k != want.id]
            if other:
                hint = (
                    f"\n  hint: this is the canonical text of {other[0]}; an item is probably "
                    "missing or extra before this point"
                )
            raise CatalogError(
                f"text differs from the canonical rendering{page_line}; "
                f"{_first_difference(mine, theirs)}\n"
                f"  canonical ({CANONICAL}): {want.text}\n  {path}: {_collapse(got.text)}{hint}",
                path=path, line=got.line, item_id=want.id,
            )
    if len(rendering) > len(canonical):
        extra = rendering[len(canonical)]
        raise CatalogError(
            f"extra item not in {CANONICAL}: {_collapse(extra.text)}",
            path=path, line=extra.line, item_id=extra.id,
        )


# --------------------------------------------------------------------------------------------
# Russian translation

_RU_POINT = re.compile(r"^\*\s+(?P<section>\d+)\.(?P<num>\d+)\.\s+(?P<text>.*)$")
_RU_LETTERED = re.compile(r"^\s+(?P<letter>[а-я])\)\s+(?P<text>.*)$")
_RU_COMMENT = re.compile(r"^(?P<num>\d+)\)\s+(?P<text>.*)$")
_RU_COMMENTS_HEADING = "КОММЕНТАРИИ"


@dataclass
class _RuEntry:
    ref: str
    text: str
    line: int


def parse_russian(sources_dir: Path) -> tuple[dict[str, _RuEntry], dict[int, _RuEntry]]:
    """Read the Russian points (28.x, lettered sub-points) and numbered comments.

    Returns points keyed by the English id they stand for (28.4 -> 2.4, its а) -> 2.4.1) and
    comments keyed by their own number; aligning comments is left to the reviewed table.
    """
    text = _read_text(sources_dir, RUSSIAN)
    points: dict[str, _RuEntry] = {}
    comments: dict[int, _RuEntry] = {}
    in_comments = False
    current: _RuEntry | None = None
    point_num: int | None = None
    letters = 0
    expected_point = 1
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped:
            current = None
            continue
        if stripped == _RU_COMMENTS_HEADING:
            in_comments = True
            current = None
            continue
        point = None if in_comments else _RU_POINT.match(line)
        lettered = None if in_comments else _RU_LETTERED.match(line)
        comment = _RU_COMMENT.match(line) if in_comments else None
        if point:
            if point.group("section") != RU_SECTION:
                raise CatalogError(
                    f"point {stripped[:12]!r} is not in section {RU_SECTION}",
                    path=RUSSIAN, line=lineno,
                )
            point_num = int(point.group("num"))
            if point_num != expected_point:
                raise CatalogError(
                    f"point {RU_SECTION}.{point_num} found where {RU_SECTION}.{expected_point} "
                    "was expected",
                    path=RUSSIAN, line=lineno,
                )
            expected_point += 1
            letters = 0
            current = _RuEntry(f"{RU_SECTION}.{point_num}", point.group("text"), lineno)
            points[f"{EN_SECTION}.{point_num}"] = current
        elif lettered:
            letter = lettered.group("letter")
            if point_num is None or letters >= len(RU_LETTERS) or letter != RU_LETTERS[letters]:
                raise CatalogError(
                    f"sub-point {letter}) out of order (expected "
                    f"{RU_LETTERS[letters] if letters < len(RU_LETTERS) else '?'})",
                    path=RUSSIAN, line=lineno,
                )
            letters += 1
            current = _RuEntry(f"{RU_SECTION}.{point_num} {letter})", lettered.group("text"),
                               lineno)
            points[f"{EN_SECTION}.{point_num}.{letters}"] = current
        elif comment:
            number = int(comment.group("num"))
            if number != len(comments) + 1:
                raise CatalogError(
                    f"comment {number}) found where {len(comments) + 1}) was expected",
                    path=RUSSIAN, line=lineno,
                )
            current = _RuEntry(f"comment {number}", comment.group("text"), lineno)
            comments[number] = current
        elif current is not None:
            current.text += " " + stripped  # continuation line of the item above
        elif in_comments and stripped[0].isdigit():
            raise CatalogError(f"comment not understood: {stripped[:40]!r}",
                               path=RUSSIAN, line=lineno)
    for entry in (*points.values(), *comments.values()):
        entry.text = _collapse(entry.text)
    if not points:
        raise CatalogError(f"no points {RU_SECTION}.x found", path=RUSSIAN)
    if not comments:
        raise CatalogError(f"no {_RU_COMMENTS_HEADING} comments found", path=RUSSIAN)
    return points, comments


def _check_alignment(canonical: list[Item], comments: dict[int, _RuEntry]) -> None:
    """Verify the reviewed comment -> note table against both files, loudly.

    Checks: the Russian has exactly the comments the table maps; every comment maps to a
    distinct existing note; the notes keep the comments' order; and each pair shares its
    marker, which occurs in no other note / comment, so a shift by one cannot pass.
    """
    ids = [item.id for item in canonical]
    notes = {item.id: item.text for item in canonical if item.id.startswith("note-")}
    if sorted(comments) != sorted(RU_COMMENT_TO_NOTE):
        raise CatalogError(
            f"the file has comments {sorted(comments)} but the alignment table maps "
            f"{sorted(RU_COMMENT_TO_NOTE)}; review RU_COMMENT_TO_NOTE in {MODULE}",
            path=RUSSIAN,
        )
    targets = [RU_COMMENT_TO_NOTE[n] for n in sorted(RU_COMMENT_TO_NOTE)]
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
    if sorted(RU_COMMENT_CHECKS) != sorted(RU_COMMENT_TO_NOTE):
        raise CatalogError("every aligned comment needs a content check in RU_COMMENT_CHECKS",
                           path=RUSSIAN)
    for number, note_id in RU_COMMENT_TO_NOTE.items():
        en_marker, ru_marker = RU_COMMENT_CHECKS[number]
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


def translation_map(sources_dir: Path, canonical: list[Item]) -> dict[str, _RuEntry]:
    """Map canonical ids to Russian entries: rules by number, notes by the reviewed table."""
    points, comments = parse_russian(sources_dir)
    known = {item.id for item in canonical}
    for item_id, entry in points.items():
        if item_id not in known:
            raise CatalogError(
                f"{entry.ref} would be {item_id}, which {CANONICAL} does not have",
                path=RUSSIAN, line=entry.line, item_id=item_id,
            )
    _check_alignment(canonical, comments)
    mapped = dict(points)
    for number, note_id in RU_COMMENT_TO_NOTE.items():
        mapped[note_id] = comments[number]
    return mapped


# --------------------------------------------------------------------------------------------
# catalog and cards


def build_catalog(sources_dir: Path = DEFAULT_SOURCES) -> dict[str, Any]:
    """Parse, cross-check and align every rendering; return the catalog as plain data."""
    sources_dir = Path(sources_dir)
    canonical = parse_canonical(sources_dir)
    cross_check(canonical, parse_markdown(sources_dir), MARKDOWN, sources_dir)
    cross_check(canonical, parse_html(sources_dir), HTML_PAGE, sources_dir)
    ru = translation_map(sources_dir, canonical)
    ids = [item.id for item in canonical]
    for table in (UNTESTABLE, REMARKS):
        for item_id in table:
            if item_id not in ids:
                raise CatalogError(f"editorial table names {item_id}, which is not a rule",
                                   path=CANONICAL, item_id=item_id)

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
        rules.append(entry)

    roles = ((CANONICAL, "canonical"), (MARKDOWN, "cross-check"), (HTML_PAGE, "cross-check"),
             (RUSSIAN, "translation"))
    return {
        "game": GAME,
        "title": TITLE,
        "generated_by": MODULE,
        "sources": [
            {"path": rel, "role": role, "sha256": _sha256(sources_dir, rel)} for rel, role in roles
        ],
        "missing_in_translation": [i for i in ids if i not in ru],
        "rules": rules,
    }


_CARD_FACTS = ("phase", "window", "source")


def build_cards(data_dir: Path = DEFAULT_DATA) -> dict[str, Any]:
    """Count the physical copies per card name and keep only non-text facts.

    Copies of one card must agree on their facts; if they do not, the data set is wrong and
    a count would hide it.
    """
    data_dir = Path(data_dir)
    raw = _read_text(data_dir, ACTION_DECK)
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise CatalogError(f"not valid JSON: {exc}", path=ACTION_DECK, line=exc.lineno) from None
    records = doc.get("cards") if isinstance(doc, dict) else None
    if not isinstance(records, list):
        raise CatalogError("expected an object with a 'cards' list", path=ACTION_DECK)
    facts: dict[str, tuple[str, ...]] = {}
    counts: dict[str, int] = {}
    for index, record in enumerate(records):
        missing = [k for k in ("name", *_CARD_FACTS) if not isinstance(record.get(k), str)]
        if missing:
            raise CatalogError(f"card record {index} lacks {missing}", path=ACTION_DECK)
        name = record["name"]
        these = tuple(record[k] for k in _CARD_FACTS)
        if facts.setdefault(name, these) != these:
            raise CatalogError(
                f"copies of {name!r} disagree: {facts[name]} vs {these} (record {index})",
                path=ACTION_DECK,
            )
        counts[name] = counts.get(name, 0) + 1
    action = [
        {"name": name, "count": counts[name], "phase": facts[name][0],
         "window": facts[name][1], "expansion": facts[name][2]}
        for name in sorted(counts)
    ]
    return {
        "game": GAME,
        "generated_by": MODULE,
        "source": {"path": ACTION_DECK, "sha256": _sha256(data_dir, ACTION_DECK)},
        "decks": {"action": action},
    }


def render(obj: Any) -> str:
    """Dump deterministically, in the layout every generated catalog shares."""
    return render_generated(obj, MODULE)


# --------------------------------------------------------------------------------------------
# entry point


def _outputs(sources_dir: Path, data_dir: Path, out_dir: Path) -> Iterable[tuple[Path, str]]:
    yield out_dir / CATALOG_FILE, render(build_catalog(sources_dir))
    yield out_dir / CARDS_FILE, render(build_cards(data_dir))


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or, with --check, verify) catalog.yaml and cards.yaml; 0 ok, 1 stale, 2 error."""
    parser = argparse.ArgumentParser(
        prog=f"python -m {MODULE}", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES,
                        help=f"rule sources directory (default: {DEFAULT_SOURCES})")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help=f"card data directory (default: {DEFAULT_DATA})")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"where the generated files go (default: {DEFAULT_OUT})")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a generated file is stale")
    args = parser.parse_args(argv)
    try:
        outputs = list(_outputs(args.sources, args.data, args.out))
    except CatalogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print(
            "The sources are kept as received: if a source changed, review the change and "
            f"update {MODULE} (its tables) accordingly; if a path is wrong, pass --sources/--data.",
            file=sys.stderr,
        )
        return 2
    stale = []
    for path, text in outputs:
        current = path.read_bytes() if path.exists() else None
        if current == text.encode("utf-8"):
            continue
        if args.check:
            stale.append(path)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
            print(f"wrote {path}")
    for path in stale:
        print(f"stale: {path} (regenerate with: python -m {MODULE})", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
