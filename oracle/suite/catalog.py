"""Rule catalogs: the list of rule ids a game's rules text contains.

A catalog is data written by a game's importer from the rule sources (for
TI4, ``python -m oracle.games.ti4.importer``). The core only reads it: every
id in it must be covered by a scenario or marked untestable with a reason,
and every report lists every id.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from oracle.suite.yamlfiles import read_yaml


class CatalogFileError(Exception):
    """A catalog file is unreadable or malformed; the message names the file and the fix."""


def read_game_file(path: Path, what: str, fix: str = "") -> Any:
    """A game folder's YAML file (manifest, catalog, card facts, plays, facts), or a
    ``CatalogFileError`` naming the file, what it is and, if given, how to fix it."""
    try:
        return read_yaml(path)
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogFileError(f"{path}: cannot read {what} ({exc})"
                               + (f"; {fix}" if fix else "")) from exc


@dataclass(frozen=True)
class Rule:
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

    def text_in(self, lang: str | None) -> str:
        """The rule's text in a language the catalog has it in, with the number it has
        there (``28.4 У каждого игрока ...``); else the text of the rules source."""
        if lang and lang == self.translation_lang and self.translation:
            return f"{self.translation_ref} {self.translation}" if self.translation_ref \
                else self.translation
        return self.text

    @property
    def id(self) -> str:
        """The qualified id used in tags and reports, e.g. ``ti4:2.4``."""
        return f"{self.game}:{self.local_id}"


@dataclass(frozen=True)
class Catalog:
    """All rules of one game, in the order of the rules text."""

    game: str
    title: str
    rules: tuple[Rule, ...]

    def ids(self) -> list[str]:
        return [r.id for r in self.rules]

    def get(self, rule_id: str) -> Rule | None:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        return None


def load_catalog(path: Path) -> Catalog:
    """Read a catalog YAML file written by a game importer."""
    data = read_game_file(path, "the catalog", "regenerate it with the game's importer")
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        raise CatalogFileError(f"{path}: a catalog needs 'game' and a 'rules' list; "
                               "regenerate it with the game's importer")
    game = str(data["game"])
    rules = []
    for i, entry in enumerate(data["rules"], 1):
        if not isinstance(entry, dict) or "id" not in entry or "text" not in entry:
            raise CatalogFileError(f"{path}: rule #{i} needs 'id' and 'text', got {entry!r}")
        translation = entry.get("translation")
        rules.append(
            Rule(
                game=game,
                local_id=str(entry["id"]),
                text=str(entry["text"]),
                kind=str(entry.get("kind", "rule")),
                parent=entry.get("parent"),
                testable=bool(entry.get("testable", True)),
                untestable_reason=entry.get("untestable_reason"),
                source=str(entry.get("source", "")),
                translation=translation.get("text") if isinstance(translation, dict) else None,
                translation_lang=translation.get("lang") if isinstance(translation, dict)
                else None,
                translation_ref=str(translation["ref"]) if isinstance(translation, dict)
                and translation.get("ref") else None,
                remark=entry.get("remark"),
            )
        )
        if not rules[-1].testable and not rules[-1].untestable_reason:
            raise CatalogFileError(f"{path}: rule {rules[-1].id} is marked untestable without an "
                                   "'untestable_reason'; every such mark must say why")
    return Catalog(game=game, title=str(data.get("title", game)), rules=tuple(rules))


# -- writing generated files ----------------------------------------------------------------
# Every game's importer writes its catalog (and any generated card facts) through this one
# writer, so that all catalogs share one layout and one "do not edit" header, and a rerun of
# an importer on unchanged sources is byte-for-byte identical (the staleness tests rely on it).


class _Block(dict[Any, Any]):
    """A mapping always written one key per line (a catalog record), even if all leaves."""


class _Dumper(yaml.SafeDumper):
    """Safe dumper that writes leaf mappings and lists inline and records in block style."""


def _is_leaf(values: Iterable[Any]) -> bool:
    return all(not isinstance(v, dict | list) for v in values)


def _represent_dict(dumper: _Dumper, data: dict[Any, Any]) -> yaml.Node:
    flow = _is_leaf(data.values()) and not isinstance(data, _Block)
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=flow)


def _represent_list(dumper: _Dumper, data: list[Any]) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=_is_leaf(data))


_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(_Block, _represent_dict)
_Dumper.add_representer(list, _represent_list)


def render_generated(obj: Any, module: str) -> str:
    """Dump a generated file deterministically: fixed key order, real Unicode, no folding.

    Leaf mappings and lists (a source, a translation, a card) are written inline, one per
    line, so reviews of the generated files read like tables; the records of a ``rules`` list
    stay one field per line whatever their contents, so every rule looks the same. The
    header names ``module``, the importer that regenerates the file.
    """
    if isinstance(obj, dict) and isinstance(obj.get("rules"), list):
        obj = {**obj, "rules": [_Block(r) if isinstance(r, dict) else r for r in obj["rules"]]}
    header = (
        f"# Generated by {module}; do not edit. Regenerate: python -m {module}"
        " (--check tells whether this file is stale).\n"
    )
    body = yaml.dump(
        obj, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1_000_000
    )
    return header + body
