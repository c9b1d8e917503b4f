"""The TI4 card facts (``cards.yaml``) from the action deck's data set.

Why only facts: names, copy counts, phases, timing windows and expansions are what the engines
and the oracle need; card *text* stays in the data set and never enters the project.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from oracle.games.kit.sources import CatalogError
from oracle.games.ti4.importer.common import (
    ACTION_DECK,
    DEFAULT_DATA,
    GAME,
    MODULE,
    _read_text,
    _sha256,
)

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
