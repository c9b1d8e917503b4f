"""Sentences and their anchors: what every importer does to turn a rule's text into the
citable sentences of the catalog (``ti4:2.4#2``).

Why shared: a scenario cites a sentence by its anchor, so every game must split the same way
(one splitter, the editorial clause splits and waivers checked the same way) and number the
same way: an anchor is kept across re-imports while its sentence's text is unchanged, and a
new or changed sentence gets the next number its owner never used, so a citation never
silently moves to other words. The numbers come from the previous catalog, which the importer
reads before it writes the new one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from oracle.games.kit.sources import CatalogError, collapse
from oracle.suite.wording import pairs

#: Words ending in a full stop that never end a sentence ("see p. 13", "Changed Nat. Focus");
#: nor does a single letter ("A. Remove Casus Belli", a step's letter).
ABBREVIATIONS = ("e.g.", "i.e.", "p.", "pp.", "No.", "Nat.", "max.", "min.", "vs.", "Ed.")

#: A sentence ends at . ! or ? (and any closing quotes or brackets after it) followed by a
#: space and a capital, an icon, or an opening mark; "p. 13" and "7.2." inside a sentence are
#: therefore never ends. Capitals include Cyrillic, for translations.
_SENTENCE_END = re.compile(r"(?<=[.!?])([”’\"')]*)\s+(?=[A-ZА-ЯЁ`(\"'“«*])")
_ABBREVIATION = re.compile(r"(?:^|[\s(])(?:" + "|".join(re.escape(a) for a in ABBREVIATIONS)
                           + r"|[A-Za-z]\.)$")


def split_sentences(text: str) -> list[str]:
    """A text's sentences, in order, whitespace collapsed (the text is kept word for word)."""
    return [text for _, text in split_located(((None, text),))]


def split_located(pieces: Iterable[tuple[int | None, str]]) -> list[tuple[int | None, str]]:
    """Sentences of a text given as ``(line, fragment)`` pieces, each with its first line.

    The fragments are whitespace-collapsed and joined by one space (lines of one paragraph),
    so a sentence wrapped over several lines is one sentence, found on the line it starts.
    """
    text, starts = "", []  # starts: (offset in text, line) of each fragment
    for line, fragment in pieces:
        fragment = collapse(fragment)
        if not fragment:
            continue
        if text:
            text += " "
        starts.append((len(text), line))
        text += fragment
    sentences, begin = [], 0
    for end in _SENTENCE_END.finditer(text):
        stop = end.start() + len(end.group(1))
        if _ABBREVIATION.search(text[begin:stop]):
            continue
        sentences.append((begin, text[begin:stop]))
        begin = end.end()
    if begin < len(text):
        sentences.append((begin, text[begin:]))
    return [(max((ln for at, ln in starts if at <= offset), default=None, key=_zero), s)
            for offset, s in sentences]


def _zero(line: int | None) -> int:
    return line or 0


@dataclass(frozen=True)
class Clause:
    """An editorial split: ``owner``'s sentence that states two things is split before
    ``starts``, for the reason ``why``. ``translations`` gives, per language, where the
    translation's sentence splits the same way (absent: the translation needs no split)."""

    owner: str
    starts: str
    why: str
    translations: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Waiver:
    """An editorial waiver: ``owner``'s sentence beginning ``opening`` states nothing a
    scenario can check, for the reason ``why``."""

    owner: str
    opening: str
    why: str


def apply_clauses(owner: str, sentences: list[tuple[int | None, str]],
                  clauses: Iterable[Clause], *, path: str, lang: str | None = None
                  ) -> list[tuple[int | None, str]]:
    """Split the owner's sentences at its clauses (in ``lang``'s words where given).

    A clause whose words occur in no sentence, or in more than one place, is refused: the
    table no longer says where the sentence splits.
    """
    result = list(sentences)
    for clause in clauses:
        if clause.owner != owner:
            continue
        starts = clause.starts if lang is None else clause.translations.get(lang)
        if starts is None:
            continue
        hits = [(i, text.find(starts)) for i, (_, text) in enumerate(result)
                if text.find(starts) > 0 and text.count(starts) == 1]
        if len(hits) != 1 or sum(text.count(starts) for _, text in result) != 1:
            raise CatalogError(
                f"the clause split before {starts!r} matches {len(hits) or 'no'} place(s) in "
                f"the text: {' '.join(t for _, t in result)!r}; review the clause table "
                "(a sentence that states two things is split where the second begins)",
                path=path, line=result[0][0] if result else None, item_id=owner)
        i, at = hits[0]
        line, text = result[i]
        result[i:i + 1] = [(line, text[:at].rstrip()), (line, text[at:])]
    return result


def waivers_of(owner: str, texts: Sequence[str], waivers: Iterable[Waiver], *, path: str
               ) -> list[str | None]:
    """Each sentence's waiver reason (or None); a waiver that opens no sentence is refused."""
    reasons: list[str | None] = [None] * len(texts)
    for waiver in waivers:
        if waiver.owner != owner:
            continue
        if not waiver.why.strip():
            raise CatalogError("a waiver must say why", path=path, item_id=owner)
        hits = [i for i, text in enumerate(texts) if text.startswith(waiver.opening)]
        if len(hits) != 1:
            raise CatalogError(
                f"the waiver of the sentence opening {waiver.opening!r} matches {len(hits)} "
                f"sentences of {owner}; review the waiver table", path=path, item_id=owner)
        reasons[hits[0]] = waiver.why
    return reasons


def check_tables(owners: Iterable[str], clauses: Iterable[Clause], waivers: Iterable[Waiver],
                 *, path: str) -> None:
    """Every clause and waiver names an existing owner (a rule or context id)."""
    known = set(owners)
    for entry in (*clauses, *waivers):
        if entry.owner not in known:
            raise CatalogError(f"an editorial table names {entry.owner}, which is not in the "
                               "catalog", path=path, item_id=entry.owner)


# -- anchors: numbers kept across re-imports -------------------------------------------------


@dataclass
class Numbering:
    """What the previous catalog numbered: per owner id, its sentences and retired ones
    (``(n, text, by)``: ``by`` the number of the sentence that reworded it, or None)."""

    current: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    retired: dict[str, list[tuple[int, str, int | None]]] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path | None) -> Numbering:
        """The numbers of a previous catalog (none if it does not exist or has no sentences).

        An unreadable previous catalog is an error, not a fresh start: anchors would move.
        """
        numbering = cls()
        if path is None or not Path(path).exists():
            return numbering
        try:
            data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
            owners = [*data.get("rules", ()),
                      *(i for c in data.get("context") or () for i in c["items"])]
            for entry in owners:
                owner = str(entry["id"])
                numbering.current[owner] = [(int(s["n"]), str(s["text"]))
                                            for s in entry.get("sentences") or ()]
                numbering.retired[owner] = [
                    (int(s["n"]), str(s["text"]), int(s["by"]) if "by" in s else None)
                    for s in entry.get("retired") or ()]
        except (OSError, yaml.YAMLError, AttributeError, KeyError, TypeError, ValueError) as exc:
            raise CatalogError(f"cannot read the previous catalog to keep its anchors ({exc}); "
                               "restore it from version control", path=str(path)) from None
        return numbering

    def number(self, owner: str, texts: Sequence[str]
               ) -> tuple[list[int], list[dict[str, Any]]]:
        """Numbers for an owner's sentences in order, and its retired sentences.

        An unchanged text keeps its number; a new or changed one gets the owner's next unused
        number (never a retired one); a previous sentence no longer there is retired, its
        number and text kept so that the number is never given again, and, where a new
        sentence rewords it in place (``oracle.suite.wording.pairs``), that one's number as
        ``by``: what a citation of it should now cite, once someone has re-read it.
        """
        previous = self.current.get(owner, [])
        retired = list(self.retired.get(owner, []))
        used = {n for n, _ in previous} | {n for n, _, _ in retired}
        free: dict[str, list[int]] = {}
        for n, text in previous:
            free.setdefault(text, []).append(n)
        numbers = []
        for text in texts:
            if free.get(text):
                numbers.append(free[text].pop(0))
            else:
                numbers.append(max(used, default=0) + 1)
                used.add(numbers[-1])
        kept = set(numbers)
        fresh = {j: numbers[j] for j in range(len(numbers)) if numbers[j] not in
                 {n for n, _ in previous}}
        by = {previous[i][0]: fresh[j]
              for i, j in pairs([t for _, t in previous], list(texts)) if j in fresh}
        retired += [(n, text, by.get(n)) for n, text in previous if n not in kept]
        return numbers, [{"n": n, "text": text, **({"by": b} if b is not None else {})}
                         for n, text, b in sorted(retired, key=lambda r: r[0])]


def sentence_records(owner: str, located: Sequence[tuple[int | None, str]],
                     numbering: Numbering, *, waivers: Sequence[str | None] = (),
                     translations: Mapping[str, Sequence[str | None]] | None = None,
                     renderings: Mapping[str, Mapping[int, str]] | None = None
                     ) -> dict[str, Any]:
    """The ``sentences`` (and ``retired``, if any) of an owner's catalog entry.

    ``translations`` maps a language to the translation of each sentence (None where the
    translation lacks it); ``renderings`` maps a rendering's file to the sentences (by
    index) it words differently.
    """
    numbers, retired = numbering.number(owner, [text for _, text in located])
    records = []
    for i, ((line, text), n) in enumerate(zip(located, numbers, strict=True)):
        record: dict[str, Any] = {"n": n, "text": text}
        if line is not None:
            record["line"] = line
        if i < len(waivers) and waivers[i] is not None:
            record["waiver"] = waivers[i]
        texts = {lang: aligned[i] for lang, aligned in (translations or {}).items()
                 if aligned[i] is not None}
        if texts:
            record["translations"] = texts
        differ = {rel: by_index[i] for rel, by_index in (renderings or {}).items()
                  if i in by_index}
        if differ:
            record["renderings"] = differ
        records.append(record)
    return {"sentences": records, **({"retired": retired} if retired else {})}


# -- context: the related chapters ----------------------------------------------------------


@dataclass
class Passage:
    """One item of a related chapter as an importer reads it: its id in the source's own
    numbering, its text as blocks (a paragraph, a list entry, a table row: a sentence never
    runs from one into the next) of ``(line, fragment)`` pieces, and where it stands."""

    id: str
    blocks: list[list[tuple[int, str]]]
    parent: str | None = None
    label: str | None = None
    heading: str | None = None

    @property
    def line(self) -> int | None:
        return next((line for block in self.blocks for line, _ in block), None)

    @property
    def text(self) -> str:
        return collapse(" ".join(f for block in self.blocks for _, f in block))

    def sentences(self) -> list[tuple[int | None, str]]:
        return [located for block in self.blocks for located in split_located(block)]


@dataclass
class Chapter:
    """A related chapter: its id (``81``, ``4.2``), title, file and passages in order."""

    id: str
    title: str
    source: str
    passages: list[Passage] = field(default_factory=list)


def context_entries(chapters: Sequence[Chapter], rule_ids: Iterable[str],
                    clauses: Sequence[Clause], numbering: Numbering) -> list[dict[str, Any]]:
    """The catalog's ``context``: each chapter's items with their numbered sentences.

    An id given twice, or equal to a rule id, is refused with the file and line: a citation
    must name one thing, and a context item is never a rule.
    """
    rules = set(rule_ids)
    seen: dict[str, tuple[str, int | None]] = {}
    entries = []
    for chapter in chapters:
        items = []
        for passage in chapter.passages:
            where = seen.get(passage.id)
            if passage.id in rules or where:
                other = "a rule id" if passage.id in rules else f"the id of {where[0]}:{where[1]}"
                raise CatalogError(f"the context id {passage.id} is {other}; a context id "
                                   "names one passage and is never a rule id",
                                   path=chapter.source, line=passage.line, item_id=passage.id)
            seen[passage.id] = (chapter.source, passage.line)
            if not passage.text:
                raise CatalogError("a passage without text", path=chapter.source,
                                   line=passage.line, item_id=passage.id)
            item: dict[str, Any] = {"id": passage.id, "parent": passage.parent}
            if passage.heading:
                item["heading"] = passage.heading
            if passage.label:
                item["label"] = passage.label
            item["text"], item["line"] = passage.text, passage.line
            located = apply_clauses(passage.id, passage.sentences(), clauses,
                                    path=chapter.source)
            item.update(sentence_records(passage.id, located, numbering))
            items.append(item)
        entries.append({"id": chapter.id, "title": chapter.title, "source": chapter.source,
                        "items": items})
    return entries
