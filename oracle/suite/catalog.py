"""Rule catalogs: the rule ids a game's rules text contains, their sentences, and context.

A catalog is data written by a game's importer from the rule sources (for
TI4, ``python -m oracle.games.ti4.importer``). The core only reads it: every
id in it must be covered by a scenario or marked untestable with a reason,
and every report lists every id. Each rule is split into sentences with stable anchors
(``ti4:2.4#2``) that scenarios cite; the related chapters the rules lean on come as
``context`` items, split the same way, citable but never rules (no verdicts). A catalog also
lists the **editions** its rules come in (the canonical source, other renderings of it,
translations), and each sentence keeps its wording in each edition where that differs, so a
run can be made as of one edition and ``rules-oracle drift`` can set them side by side; a
sentence reworded or dropped by a re-import is kept as **retired** (its anchor is never given
again), with the sentence that replaced it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from oracle.suite import cache, filecheck
from oracle.suite.yamlfiles import parse_yaml, read_yaml


class CatalogFileError(Exception):
    """A catalog file is unreadable or malformed; the message names the file and the fix."""


def read_game_file(path: Path, what: str, fix: str = "",
                   schema: str | Mapping[str, Any] | None = None) -> Any:
    """A game folder's YAML file (manifest, catalog, card facts, plays, facts), or a
    ``CatalogFileError`` naming the file, what it is and, if given, how to fix it.

    With ``schema`` (a name of ``oracle.suite.filecheck``, or a schema), data that does not
    fit it is refused, naming the line and the closest key."""
    try:
        data = read_yaml(path)
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogFileError(f"{path}: cannot read {what} ({exc})"
                               + (f"; {fix}" if fix else "")) from exc
    if schema is not None and (found := filecheck.problem(path, data, schema)):
        raise CatalogFileError(f"{found}{'; ' + fix if fix else ''}")
    return data


#: An empty, read-only mapping: the default translations and renderings of a sentence.
_NONE: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True)
class Sentence:
    """One sentence (or clause) of a rule or of a context item: the unit a scenario cites.

    Its ``anchor`` (``ti4:2.4#2``) is stable across re-imports while its text is unchanged:
    the importer keeps the number of an unchanged sentence and gives a new or changed one the
    next number its owner never used. ``owner`` is the qualified id of the rule or context
    item it belongs to. A ``waiver`` says why no scenario can check it (a sentence of an
    untestable rule carries the rule's reason). ``translations`` maps a language to the
    translation's aligned sentence (absent where the translation lacks it); ``renderings``
    maps another rendering's file to its wording, only where that differs.
    """

    game: str
    owner: str
    number: int
    text: str
    waiver: str | None = None
    context: bool = False
    source: str = ""
    line: int | None = None
    translations: Mapping[str, str] = field(default_factory=lambda: _NONE, hash=False)
    renderings: Mapping[str, str] = field(default_factory=lambda: _NONE, hash=False)

    @property
    def anchor(self) -> str:
        """What a scenario cites: ``GAME:OWNER#N``, e.g. ``ti4:2.4#2``."""
        return f"{self.owner}#{self.number}"

    @property
    def waived(self) -> bool:
        """No scenario can check it, and the catalog says why (``waiver``)."""
        return self.waiver is not None

    def text_in(self, lang: str | None) -> str:
        """The sentence in a language the catalog has it in, else its own text."""
        return self.translations.get(lang, self.text) if lang else self.text

    def in_edition(self, edition: Edition) -> str | None:
        """The sentence as ``edition`` words it, or None where that edition lacks it.

        A translation has the sentences it translates; a rendering of the canonical source
        words each one as the canonical does unless the catalog keeps its own wording. A
        context sentence belongs to a related chapter, which is no part of any edition of the
        rules: it is in each, as it is.
        """
        if self.context or edition.role == CANONICAL:
            return self.text
        if edition.role == TRANSLATION:
            return self.translations.get(edition.lang)
        return self.renderings.get(edition.source, self.text)


#: The roles an edition plays in a catalog: the source the anchors are numbered from,
#: another rendering of that source (cross-checked against it), a translation.
CANONICAL, RENDERING, TRANSLATION = "canonical", "rendering", "translation"


@dataclass(frozen=True)
class Edition:
    """One edition or rendering a catalog's rules come in: its ``name`` (what ``--edition``
    takes), the ``source`` file, its ``role`` (canonical, rendering or translation), its
    language, how it numbers the rules, its version and date where known (None where not),
    what it is, and what changed in it against the canonical (the importer's summary)."""

    name: str
    source: str
    role: str
    lang: str
    numbering: str = ""
    version: str = ""
    date: str | None = None
    about: str = ""
    changes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RetiredSentence:
    """A sentence a re-import no longer found: its anchor is never given again, and a
    citation of it rests on text the rules no longer have. ``by`` is the number of the
    sentence that rewords it in place, where the importer paired one."""

    game: str
    owner: str
    number: int
    text: str
    by: int | None = None

    @property
    def anchor(self) -> str:
        return f"{self.owner}#{self.number}"

    @property
    def successor(self) -> str | None:
        """The anchor of the sentence that rewords it, if any (``ti4:2.4#3``)."""
        return f"{self.owner}#{self.by}" if self.by is not None else None


class _Qualified:
    """What has a local id in its game's catalog, and so a qualified one (``ti4:2.4``)."""

    game: str
    local_id: str

    @property
    def id(self) -> str:
        """The qualified id used in tags, citations and reports, e.g. ``ti4:2.4``."""
        return f"{self.game}:{self.local_id}"


@dataclass(frozen=True)
class Rule(_Qualified):
    """One rule or note of a rules text."""

    game: str
    local_id: str
    text: str
    kind: str = "rule"
    parent: str | None = None
    testable: bool = True
    untestable_reason: str | None = None
    source: str = ""
    translation: str | None = None
    remark: str | None = None
    #: The translation's language and its own number there (``ru``, ``28.4``).
    translation_lang: str | None = None
    translation_ref: str | None = None
    #: Its sentences, in text order (a catalog without them gives the whole text as one).
    sentences: tuple[Sentence, ...] = ()

    def text_in(self, lang: str | None) -> str:
        """The rule's text in a language the catalog has it in, with the number it has
        there (``28.4 У каждого игрока ...``); else the text of the rules source."""
        if lang and lang == self.translation_lang and self.translation:
            return f"{self.translation_ref} {self.translation}" if self.translation_ref \
                else self.translation
        return self.text


@dataclass(frozen=True)
class ContextItem(_Qualified):
    """One statement of a related chapter: citable context for the rules, never a rule.

    Its id follows the source's own numbering (``81.3``, ``66.note-1``, ``4.2.taking-a-turn``);
    ``label`` is a step's name split off its sentences (``Step 3 – Draw Action Cards``),
    ``heading`` the sub-heading it stands under, where the chapter has them.
    """

    game: str
    local_id: str
    chapter: str
    text: str
    parent: str | None = None
    label: str | None = None
    heading: str | None = None
    source: str = ""
    line: int | None = None
    sentences: tuple[Sentence, ...] = ()


@dataclass(frozen=True)
class ContextChapter(_Qualified):
    """A related chapter of the rules (``ti4:81`` Status Phase), as context items."""

    game: str
    local_id: str
    title: str
    source: str
    items: tuple[ContextItem, ...] = ()


@dataclass(frozen=True)
class Catalog:
    """All rules of one game, in the order of the rules text, and the context around them."""

    game: str
    title: str
    rules: tuple[Rule, ...]
    context: tuple[ContextChapter, ...] = ()
    #: The editions the rules come in, the canonical first (none in a hand-written catalog).
    editions: tuple[Edition, ...] = ()
    #: Sentences earlier imports had and this one no longer has, by anchor.
    retired: tuple[RetiredSentence, ...] = ()
    _rules: dict[str, Rule] = field(init=False, repr=False, compare=False, hash=False)
    _sentences: dict[str, Sentence] = field(init=False, repr=False, compare=False, hash=False)
    _retired: dict[str, RetiredSentence] = field(init=False, repr=False, compare=False,
                                                 hash=False)

    def __post_init__(self) -> None:
        # Looked up by id for every tag and citation of a suite: dicts, not scans.
        object.__setattr__(self, "_rules", {r.id: r for r in self.rules})
        object.__setattr__(self, "_sentences", {s.anchor: s for s in self.sentences})
        object.__setattr__(self, "_retired", {s.anchor: s for s in self.retired})

    def ids(self) -> list[str]:
        return [r.id for r in self.rules]

    def get(self, rule_id: str) -> Rule | None:
        return self._rules.get(rule_id)

    @property
    def context_items(self) -> tuple[ContextItem, ...]:
        """Every context item, chapter by chapter, in the order of each chapter."""
        return tuple(item for chapter in self.context for item in chapter.items)

    @property
    def sentences(self) -> tuple[Sentence, ...]:
        """Every sentence: the rules' in catalog order, then the context chapters'."""
        return (*(s for r in self.rules for s in r.sentences),
                *(s for item in self.context_items for s in item.sentences))

    def sentence(self, anchor: str) -> Sentence | None:
        """The sentence an anchor (``ti4:2.4#2``) names, or None."""
        return self._sentences.get(anchor)

    def retired_sentence(self, anchor: str) -> RetiredSentence | None:
        """The retired sentence an anchor names (text an earlier import had), or None."""
        return self._retired.get(anchor)

    def edition(self, name: str) -> Edition | None:
        return next((e for e in self.editions if e.name == name), None)


def closest_anchors(catalogs: Catalog | Iterable[Catalog], wrong: str, n: int = 3
                    ) -> list[str]:
    """The anchors a person most likely meant by ``wrong`` (for an error's "did you mean").

    Where ``wrong`` names an existing rule or context item (``ti4:2.4#9``, ``ti4:2.4``, or
    ``2.4#2`` without the game), that owner's sentences, the nearest numbers first; else
    close spellings of whole anchors (difflib, as the suite checks do for rule ids).
    """
    every = [s for c in ([catalogs] if isinstance(catalogs, Catalog) else catalogs)
             for s in c.sentences]
    owner, _, number = wrong.strip().partition("#")
    want = int(number) if number.isdigit() else 0
    for candidate in (owner, *(f"{g}:{owner}" for g in dict.fromkeys(s.game for s in every))):
        mine = [s for s in every if s.owner == candidate]
        if mine:
            mine.sort(key=lambda s: (abs(s.number - want), s.number))
            return [s.anchor for s in mine[:n]]
    return difflib.get_close_matches(wrong, [s.anchor for s in every], n=n, cutoff=0.6)


def load_catalog(path: Path) -> Catalog:
    """Read a catalog YAML file written by a game importer.

    A rule (or context item) without ``sentences`` (a catalog written by hand, or before
    sentences existed) has one: its whole text, ``#1``. A context id equal to a rule id, a
    repeated anchor or a misspelt sentence key is refused, naming the file and the id.
    """
    data = _catalog_data(path)
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        raise CatalogFileError(f"{path}: a catalog needs 'game' and a 'rules' list; "
                               "regenerate it with the game's importer")
    game = str(data["game"])
    rules = []
    retired: list[RetiredSentence] = []
    for i, entry in enumerate(data["rules"], 1):
        if not isinstance(entry, dict) or "id" not in entry or "text" not in entry:
            raise CatalogFileError(f"{path}: rule #{i} needs 'id' and 'text', got {entry!r}")
        translation = entry.get("translation")
        local, text = str(entry["id"]), str(entry["text"])
        testable = bool(entry.get("testable", True))
        reason = entry.get("untestable_reason")
        if not testable and not reason:
            raise CatalogFileError(f"{path}: rule {game}:{local} is marked untestable without "
                                   "an 'untestable_reason'; every such mark must say why")
        where = str(entry.get("source", ""))
        rules.append(
            Rule(
                game=game,
                local_id=local,
                text=text,
                kind=str(entry.get("kind", "rule")),
                parent=entry.get("parent"),
                testable=testable,
                untestable_reason=reason,
                source=where,
                translation=translation.get("text") if isinstance(translation, dict) else None,
                translation_lang=translation.get("lang") if isinstance(translation, dict)
                else None,
                translation_ref=str(translation["ref"]) if isinstance(translation, dict)
                and translation.get("ref") else None,
                remark=entry.get("remark"),
                sentences=_sentences(path, game, local, text, entry, _file_of(where),
                                     context=False, waiver=None if testable else reason),
            )
        )
        retired += _retired(path, game, local, entry)
    context = tuple(_chapter(path, game, i, chapter, retired)
                    for i, chapter in enumerate(data.get("context") or (), 1))
    _check_ids(path, rules, context, retired)
    return Catalog(game=game, title=str(data.get("title", game)), rules=tuple(rules),
                   context=context, editions=_editions(path, data.get("editions")),
                   retired=tuple(retired))


def _catalog_data(path: Path) -> Any:
    """A catalog file's data, parsed once per content and kept across runs.

    Why: a catalog with its sentences and context is most of the YAML a run reads (libyaml
    takes some 70 ms for the two bundled ones, every run and every worker); the parse of the
    same bytes, by the same PyYAML, is the same data, so it is kept in the cache folder
    (``oracle.suite.cache``) like a feature file's parse.
    """
    fix = "regenerate it with the game's importer"
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CatalogFileError(f"{path}: cannot read the catalog ({exc}); {fix}") from exc
    key = cache.content_key(raw, "catalog", yaml.__version__, filecheck.digest())
    data = cache.load("catalog", key)
    if data is None:
        try:
            text = raw.decode("utf-8")
            data = parse_yaml(text)
        except (UnicodeDecodeError, yaml.YAMLError) as exc:
            raise CatalogFileError(f"{path}: cannot read the catalog ({exc}); {fix}") from exc
        if found := filecheck.problem(path, data, "catalog", text):
            raise CatalogFileError(f"{found}; {fix}")
        cache.store("catalog", key, data)  # kept only once it fits its schema
    return data


def _file_of(source: str) -> str:
    """The file of a rule's ``source`` (``PATH > heading`` or ``PATH:LINE > heading``)."""
    return re.sub(r":\d+$", "", source.split(" > ")[0]).strip()


def _sentences(path: Path, game: str, local: str, text: str, entry: dict[str, Any],
               source: str, *, context: bool, waiver: str | None) -> tuple[Sentence, ...]:
    """An entry's sentences (their keys were checked against the catalog's schema)."""
    owner = f"{game}:{local}"
    records = entry.get("sentences")
    if records is None:
        rendered = entry.get("translation")
        translations = ({str(rendered["lang"]): str(rendered["text"])}
                        if isinstance(rendered, dict) and rendered.get("lang")
                        and rendered.get("text") else {})
        return (Sentence(game, owner, 1, text, waiver, context, source, entry.get("line"),
                         MappingProxyType(translations)),)
    if not isinstance(records, list) or not records:
        raise CatalogFileError(f"{path}: {owner}: 'sentences' must be a non-empty list")
    sentences = []
    for record in records:
        if not isinstance(record, dict) or not isinstance(record.get("n"), int) \
                or record["n"] < 1 or not isinstance(record.get("text"), str):
            raise CatalogFileError(f"{path}: {owner}: a sentence needs 'n' (1, 2, ...) and "
                                   f"'text', got {record!r}")
        own = record.get("waiver")
        if own is not None and not (isinstance(own, str) and own.strip()):
            raise CatalogFileError(f"{path}: {owner}#{record['n']}: a waiver must say why")
        sentences.append(Sentence(
            game, owner, record["n"], record["text"], own if own is not None else waiver,
            context, source, record.get("line"),
            _texts(path, owner, record, "translations"), _texts(path, owner, record, "renderings"),
        ))
    return tuple(sentences)


def _retired(path: Path, game: str, local: str, entry: dict[str, Any]
             ) -> list[RetiredSentence]:
    """An entry's retired sentences (their keys were checked against the schema)."""
    owner = f"{game}:{local}"
    out = []
    for record in entry.get("retired") or ():
        if not isinstance(record, dict) or not isinstance(record.get("n"), int) \
                or not isinstance(record.get("text"), str) \
                or not isinstance(record.get("by", 0), int):
            raise CatalogFileError(f"{path}: {owner}: a retired sentence needs 'n' and 'text' "
                                   f"(and 'by', the number that replaced it), got {record!r}")
        out.append(RetiredSentence(game, owner, record["n"], record["text"], record.get("by")))
    return out


def _editions(path: Path, records: Any) -> tuple[Edition, ...]:
    """The catalog's editions (their keys and roles were checked against the schema)."""
    if records is None:
        return ()
    if not isinstance(records, list):
        raise CatalogFileError(f"{path}: 'editions' must be a list of editions")
    out = []
    for i, record in enumerate(records, 1):
        if not isinstance(record, dict) or not all(
                isinstance(record.get(k), str) for k in ("name", "source", "role", "lang")):
            raise CatalogFileError(f"{path}: edition #{i} needs 'name', 'source', 'role' and "
                                   f"'lang', got {record!r}")
        date = record.get("date")
        out.append(Edition(
            record["name"], record["source"], record["role"], record["lang"],
            str(record.get("numbering") or ""), str(record.get("version") or ""),
            None if date is None else str(date), str(record.get("about") or ""),
            tuple(str(c) for c in record.get("changes") or ())))
    names = [e.name for e in out]
    if len(set(names)) != len(names) or [e.role for e in out].count(CANONICAL) > 1:
        raise CatalogFileError(f"{path}: editions {names}: each name once, one canonical")
    return tuple(out)


def _texts(path: Path, owner: str, record: dict[str, Any], key: str) -> Mapping[str, str]:
    value = record.get(key)
    if value is None:
        return _NONE
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise CatalogFileError(f"{path}: {owner}#{record['n']}: '{key}' must map names to texts")
    return MappingProxyType({str(k): v for k, v in value.items()})


def _chapter(path: Path, game: str, i: int, entry: Any, retired: list[RetiredSentence]
             ) -> ContextChapter:
    if not isinstance(entry, dict) or "id" not in entry or not isinstance(entry.get("items"),
                                                                          list):
        raise CatalogFileError(f"{path}: context chapter #{i} needs 'id' and an 'items' list")
    chapter, source = str(entry["id"]), str(entry.get("source", ""))
    items = []
    for n, item in enumerate(entry["items"], 1):
        if not isinstance(item, dict) or "id" not in item or "text" not in item:
            raise CatalogFileError(f"{path}: context {game}:{chapter}: item #{n} needs 'id' "
                                   f"and 'text', got {item!r}")
        local = str(item["id"])
        items.append(ContextItem(
            game, local, chapter, str(item["text"]), item.get("parent"), item.get("label"),
            item.get("heading"), source, item.get("line"),
            _sentences(path, game, local, str(item["text"]), item, source, context=True,
                       waiver=None)))
        retired += _retired(path, game, local, item)
    return ContextChapter(game, chapter, str(entry.get("title", chapter)), source, tuple(items))


def _check_ids(path: Path, rules: list[Rule], context: tuple[ContextChapter, ...],
               retired: list[RetiredSentence]) -> None:
    """Every owner id once, a context id never a rule id, every anchor once (a retired
    one's too)."""
    seen: dict[str, str] = {}
    for what, owner in (*(("rule", r.id) for r in rules),
                        *(("context item", i.id) for c in context for i in c.items)):
        if owner in seen:
            clash = ("a context id must never equal a rule id" if "rule" in (what, seen[owner])
                     else "ids are unique")
            raise CatalogFileError(f"{path}: {owner} is both a {seen[owner]} and a {what}; "
                                   f"{clash}: regenerate the catalog with the game's importer")
        seen[owner] = what
    anchors: set[str] = set()
    for sentence in (*(s for r in rules for s in r.sentences),
                     *(s for c in context for i in c.items for s in i.sentences)):
        if sentence.anchor in anchors:
            raise CatalogFileError(f"{path}: the sentence anchor {sentence.anchor} is given "
                                   "twice; regenerate the catalog with the game's importer")
        anchors.add(sentence.anchor)
    for old in retired:
        if old.anchor in anchors:
            raise CatalogFileError(f"{path}: the anchor {old.anchor} is both a sentence and "
                                   "a retired one (a retired number is never given again); "
                                   "regenerate the catalog with the game's importer")
        anchors.add(old.anchor)


# -- writing generated files ----------------------------------------------------------------
# Every game's importer writes its catalog (and any generated card facts) through this one
# writer, so that all catalogs share one layout and one "do not edit" header, and a rerun of
# an importer on unchanged sources is byte-for-byte identical (the staleness tests rely on it).


class _Block(dict[Any, Any]):
    """A mapping always written one key per line (a catalog record), even if all leaves."""


class _Row(dict[Any, Any]):
    """A mapping always written on one line (a sentence), even if it holds mappings."""


#: Lists of records, by their key: rules, context chapters and items one field per line;
#: sentences (and retired ones) one per line, so a rule's sentences read like a table.
_RECORDS: dict[str, type[dict[Any, Any]]] = {
    "rules": _Block, "context": _Block, "items": _Block, "sentences": _Row, "retired": _Row,
    "editions": _Block}


class _Lines(list[Any]):
    """A list of strings always written one per line (an edition's changes)."""


#: Lists of sentences of prose, by their key: one per line, never inline.
_LINES = frozenset({"changes"})


class _Dumper(yaml.SafeDumper):
    """Safe dumper that writes leaf mappings and lists inline and records in block style."""


def _is_leaf(values: Iterable[Any]) -> bool:
    return all(not isinstance(v, dict | list) for v in values)


def _represent_dict(dumper: _Dumper, data: dict[Any, Any]) -> yaml.Node:
    flow = isinstance(data, _Row) or (_is_leaf(data.values()) and not isinstance(data, _Block))
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=flow)


def _represent_list(dumper: _Dumper, data: list[Any]) -> yaml.Node:
    flow = _is_leaf(data) and not isinstance(data, _Lines)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(_Block, _represent_dict)
_Dumper.add_representer(_Row, _represent_dict)
_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(_Lines, _represent_list)


def render_generated(obj: Any, module: str) -> str:
    """Dump a generated file deterministically: fixed key order, real Unicode, no folding.

    Leaf mappings and lists (a source, a translation, a card) are written inline, one per
    line, so reviews of the generated files read like tables; the records of a ``rules``,
    ``context`` or ``items`` list stay one field per line whatever their contents, so every
    rule looks the same, and each of their ``sentences`` is one line. The header names
    ``module``, the importer that regenerates the file.
    """
    obj = _shaped(obj)
    header = (
        f"# Generated by {module}; do not edit. Regenerate: python -m {module}"
        " (--check tells whether this file is stale).\n"
    )
    body = yaml.dump(
        obj, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1_000_000
    )
    return header + body


def _shaped(obj: Any, key: str | None = None) -> Any:
    """``obj`` with the records of the lists named in ``_RECORDS`` marked for their layout."""
    if isinstance(obj, dict):
        return type(obj)({k: _shaped(v, k) for k, v in obj.items()})
    if isinstance(obj, list) and key in _LINES:
        return _Lines(obj)
    if isinstance(obj, list):
        record = _RECORDS.get(key or "")
        return [record(_shaped(v)) if record and isinstance(v, dict) else _shaped(v)
                for v in obj]
    return obj
