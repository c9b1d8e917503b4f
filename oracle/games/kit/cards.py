"""A game's card facts: read from its features folder, and looked up by name in requests.

Why the engines read the scenarios' file instead of a list of their own: the oracle fills
"3 cards" from the same facts, so the engine and the oracle can never disagree about which
cards exist. Installed, ``oracle.features`` is the ``features/`` folder; in a plain checkout
(``PYTHONPATH=.``) that package does not exist and the file sits beside ``oracle/``, so both
places are tried.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path
from typing import Any

from oracle.games.kit.errors import RequestError
from oracle.games.kit.requests import str_list
from oracle.suite.yamlfiles import read_yaml

#: The features folder of a source checkout (``oracle.features`` maps to it only installed).
FEATURES_DIR = Path(__file__).resolve().parents[3] / "features"


def read_features_file(game_dir: str, name: str) -> str:
    """The text of ``features/GAME_DIR/NAME``, from the installed package or the checkout."""
    try:
        resource = importlib.resources.files("oracle.features") / game_dir / name
        return resource.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        return (FEATURES_DIR / game_dir / name).read_text(encoding="utf-8")


def read_card_facts(game_dir: str) -> Any:
    """The parsed ``features/GAME_DIR/cards.yaml``: each game reads its own facts from it.

    Read through ``oracle.suite.yamlfiles``: parsed once per process, by libyaml, and the
    same data the suite reads for the game (read it, never change it).
    """
    try:
        folder = Path(str(importlib.resources.files("oracle.features")))
    except ModuleNotFoundError:
        folder = FEATURES_DIR
    return read_yaml(folder / game_dir / "cards.yaml")


class CardLookup:
    """Card names in requests, checked against the engine's ``facts`` (name -> fact).

    An unknown card is a broken scenario (``errored``), never a rule: the oracle only names
    cards the facts list.
    """

    facts: dict[str, Any]

    def card_fact(self, name: Any, where: str) -> Any:
        """The facts of the card ``name``, or errored naming the field ``where``."""
        if not isinstance(name, str) or name not in self.facts:
            raise RequestError(f"{where}: unknown action card {name!r}")
        return self.facts[name]

    def _cards(self, value: Any, where: str) -> list[str]:
        """A list of known card names (duplicates allowed), or errored."""
        cards = str_list(value, where)
        for card in cards:
            self.card_fact(card, where)
        return cards
