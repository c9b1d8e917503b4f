"""Test engines in the styles docs/protocol.md's "Adapter patterns" covers, each with its
adapter, written from that page alone (tests/test_adapter_styles.py runs the suite on them).
They are small engines shaped the way other people's engines are: TI4 engines whose values
never change, whose cards resolve at once, with no viewers, with prompts, with a few modelled
cards, with no phases or timing windows (no_windows.py, which also serves itself over a
pipe); and an EU engine with Turns of its own behind an adapter that refuses what it was not
told (eu_turns.py). node_eu/ is an EU engine in Node.js that an outside developer wrote from
the published pages alone, with its broken copies (tests/test_node_eu_engine.py); node_ledger/
an event-sourced TI4 engine in Node.js written the same way, whose broken copies report a
result and leave their state unchanged (tests/test_node_ledger_engine.py); eu_values.py an EU
engine of frozen values with six cards and two slips, served over a pipe by itself
(tests/test_eu_values_engine.py).

What they share is what the page says every TI4 adapter reads: the card facts.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import yaml

import oracle.features


def ti4_card_facts() -> dict[str, dict[str, Any]]:
    """features/ti4/cards.yaml (installed in the ``oracle.features`` package), by name (a
    copy: the file is read once, since some styles read it at every setup)."""
    return copy.deepcopy(_ti4_card_facts())


@functools.cache
def _ti4_card_facts() -> dict[str, dict[str, Any]]:
    folder = Path(oracle.features.__path__[0])
    data = yaml.safe_load((folder / "ti4" / "cards.yaml").read_text(encoding="utf-8"))
    return {card["name"]: card for card in data["decks"]["action"]}


def ti4_full_deck(facts: dict[str, dict[str, Any]]) -> list[str]:
    """Every card of the card facts, as many copies as they list (unshuffled)."""
    return [name for name, card in facts.items() for _ in range(int(card["count"]))]
