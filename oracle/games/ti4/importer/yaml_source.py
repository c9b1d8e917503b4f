"""The canonical rendering of the TI4 rules: the structured YAML.

Why it is canonical: it numbers every rule and note explicitly, so ids come from it; every
other rendering is parsed on its own and cross-checked against it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from oracle.games.kit.sources import CatalogError
from oracle.games.ti4.importer.common import (
    CANONICAL,
    EN_SECTION,
    Item,
    _collapse,
    _note_id,
    _number_key,
    _read_text,
)

#: Sections of the canonical YAML that hold rules; any other section must be empty.
RULES_SECTION = "Rules Reference"
NOTES_SECTION = "Notes"


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
    sections = _sections(doc["cards"])
    lines = _rule_lines(raw)
    items: list[Item] = []
    for section, prefix, make_id in (
        (RULES_SECTION, EN_SECTION, str),
        (NOTES_SECTION, None, _note_id),
    ):
        items += _section_items(section, sections[section], prefix, make_id)
    return [replace(item, pieces=lines.get(item.ref or "", ()),
                    line=next(iter(lines.get(item.ref or "", ())), (None,))[0])
            for item in items]


def _rule_lines(raw: str) -> dict[str, tuple[tuple[int, str], ...]]:
    """Each rule's text as ``(line, fragment)`` pieces, keyed by its ``ref``.

    Why the node tree: ``safe_load`` forgets where a value was, and a sentence of a rule
    wrapped over several lines is cited with the line it starts on.
    """
    pieces: dict[str, tuple[tuple[int, str], ...]] = {}

    def walk(node: yaml.Node, ref: str) -> None:
        for key, value in _pairs(node):
            if key == "rule" and isinstance(value, yaml.ScalarNode):
                text = raw[value.start_mark.index:value.end_mark.index]
                pieces[ref] = tuple((value.start_mark.line + 1 + n, fragment)
                                    for n, fragment in enumerate(text.split("\n")))
            elif key == "subrules":
                for sub_key, sub in _pairs(value):
                    walk(sub, f"{ref} > {sub_key}")

    for card in (value for key, value in _pairs(yaml.compose(raw)) if key == "cards"):
        for entry in card.value if isinstance(card, yaml.SequenceNode) else ():
            name = dict(_pairs(entry)).get("name")
            for key, rules in _pairs(entry):
                if key == "rules" and isinstance(name, yaml.ScalarNode):
                    for rule_key, rule in _pairs(rules):
                        walk(rule, f"{CANONICAL} > {name.value} > {rule_key}")
    return pieces


def _pairs(node: yaml.Node) -> list[tuple[str, yaml.Node]]:
    """A mapping node's (key text, value node) pairs; nothing for any other node."""
    if not isinstance(node, yaml.MappingNode):
        return []
    return [(str(k.value), v) for k, v in node.value]


def _sections(cards: list[Any]) -> dict[str, dict[str, Any]]:
    """The rules of the two sections that hold them, keyed by their (string) numbers."""
    sections: dict[str, dict[str, Any]] = {}
    for card in cards:
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
    return sections


def _section_items(section: str, entries: dict[str, Any], prefix: str | None,
                   make_id: Callable[[str], str]) -> list[Item]:
    """One section's rules in reading order, each followed by its sub-rules; gaps refused."""
    keys = sorted(entries, key=_number_key)
    expected = [f"{prefix}.{n}" if prefix else str(n) for n in range(1, len(keys) + 1)]
    if keys != expected:
        raise CatalogError(
            f"{section}: keys {keys} are not numbered {expected[0]}..{expected[-1]}",
            path=CANONICAL,
        )
    items: list[Item] = []
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
    """The rule's text, whitespace collapsed; a malformed entry is refused naming ``ref``."""
    if not isinstance(entry, dict) or not isinstance(entry.get("rule"), str):
        raise CatalogError(f"{ref}: expected a mapping with a 'rule' string", path=CANONICAL)
    return _collapse(entry["rule"])
