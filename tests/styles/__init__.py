"""Test engines in the styles docs/protocol.md's "Adapter patterns" covers, each with its
adapter, written from that page alone (tests/test_adapter_styles.py runs the TI4 suite on
them). They are small TI4 engines shaped the way other people's engines are: values that
never change, cards resolved at once, no viewers, prompts, a few modelled cards.

What they share is what the page says every TI4 adapter reads: the card facts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

import oracle.features


def ti4_card_facts() -> dict[str, dict[str, Any]]:
    """features/ti4/cards.yaml (installed in the ``oracle.features`` package), by name."""
    folder = Path(oracle.features.__path__[0])
    data = yaml.safe_load((folder / "ti4" / "cards.yaml").read_text(encoding="utf-8"))
    return {card["name"]: card for card in data["decks"]["action"]}


def ti4_full_deck(facts: dict[str, dict[str, Any]]) -> list[str]:
    """Every card of the card facts, as many copies as they list (unshuffled)."""
    return [name for name, card in facts.items() for _ in range(int(card["count"]))]
