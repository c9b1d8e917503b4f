"""The canonical rendering of the TI4 rules: the structured YAML.

Why it is canonical: it numbers every rule and note explicitly, so ids come from it; every
other rendering is parsed on its own and cross-checked against it.
"""

from __future__ import annotations

from collections.abc import Callable
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
    items: list[Item] = []
    for section, prefix, make_id in (
        (RULES_SECTION, EN_SECTION, str),
        (NOTES_SECTION, None, _note_id),
    ):
        items += _section_items(section, sections[section], prefix, make_id)
    return items


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
