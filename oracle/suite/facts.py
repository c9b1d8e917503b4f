"""What a game's scenarios may name: its cards, decks, windows, laws, factions, and so on.

Why: a misspelt card or law used to reach the engine, which could not set the scenario up,
and the scenario ended ``error`` (the status for engine crashes): a writing mistake blamed on
the engine. So each game declares its facts, every name a step mentions is checked against
them before anything runs (``oracle.suite.content``), and ``rules-oracle steps`` lists them
for the committee writing a scenario.

The core knows no game's facts. It derives three kinds from the files every game has: ``card``
(the names in its card facts), ``deck`` (their decks) and ``card class`` (the classes of its
``plays.yaml``); every other kind comes from the file named by ``facts:`` in ``game.yaml``::

    window:
      grammar: a timing window as the cards print it, quoted
      from_cards: [window]        # every card fact's value of this field (a.b for nested)
      values: [Action]            # and these
    law:
      values: [Minister of Commerce, ...]

A kind a game does not declare is not checked (a game with no laws has no law steps).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from oracle.suite.catalog import CatalogFileError, read_game_file

if TYPE_CHECKING:
    from oracle.suite.games import Game


@dataclass(frozen=True)
class FactKind:
    """One kind of name a game knows, with every value it may take."""

    name: str
    values: tuple[str, ...]
    grammar: str = ""
    #: Where the values come from (for the step reference): a file and what in it.
    origin: str = ""


@dataclass(frozen=True)
class Facts:
    """A game's facts, by kind."""

    game: str
    kinds: Mapping[str, FactKind] = field(default_factory=dict)

    def values(self, kind: str) -> tuple[str, ...] | None:
        found = self.kinds.get(kind)
        return found.values if found else None

    def problem(self, kind: str, value: str) -> str | None:
        """Why ``value`` is not a ``kind`` of this game (with the closest), or None if it is
        one, or if the game does not declare that kind."""
        values = self.values(kind)
        if values is None or value in values:
            return None
        near = closest(value, values)
        folded = [v for v in values if v.casefold() == value.casefold()]
        if folded:
            near = folded
        hint = f"; did you mean {' or '.join(_quote(n) for n in near)}?" if near else ""
        return (f"{_quote(value)} is not a {kind} of {self.game}{hint} "
                f"('rules-oracle steps --game {self.game}' lists every {kind})")


def closest(value: str, values: Iterable[str], n: int = 3) -> list[str]:
    """The values a person most likely meant: close spellings, then names containing it."""
    values = list(values)
    near = difflib.get_close_matches(value, values, n=n, cutoff=0.6)
    if not near:
        low = value.casefold()
        near = [v for v in values if low in v.casefold() or v.casefold() in low][:n]
    if not near:
        near = difflib.get_close_matches(value, values, n=1, cutoff=0.4)
    return near


def _quote(value: str) -> str:
    return f"'{value}'" if '"' in value else f'"{value}"'


def load_facts(game: Game) -> Facts:
    """The game's facts: derived from its card facts and plays, and its ``facts:`` file."""
    cards = [f for deck in game.cards.values() for f in deck]
    cards_file = game.cards_file or "cards.yaml"
    kinds: dict[str, FactKind] = {}
    if cards:
        kinds["card"] = FactKind("card", _unique(f.get("name") for f in cards),
                                 "a card's name, quoted: \"Sabotage\"", cards_file)
        kinds["deck"] = FactKind("deck", tuple(game.cards), "a deck's name, one word",
                                 cards_file)
    if game.plays_file:
        kinds["card class"] = FactKind(
            "card class", tuple(game.plays["classes"]),
            "a class of card the game declares (any card of it the engine models; "
            f"'rules-oracle cards --game {game.id}' lists each card's classes)",
            game.plays_file)
    if not game.facts_file:
        return Facts(game.id, kinds)
    path = game.folder / game.facts_file
    data = read_game_file(path, "the game's facts", schema="facts") or {}
    if not isinstance(data, dict):
        raise CatalogFileError(f"{path}: expected a mapping of kinds (window:, law:, ...), "
                               "each with 'values:' and/or 'from_cards:'")
    for name, spec in data.items():
        if not isinstance(spec, dict):
            raise CatalogFileError(f"{path}: kind {name!r} needs 'values:' and/or "
                                   f"'from_cards:', got {spec!r}")
        derived = [v for f in cards for fld in spec.get("from_cards") or ()
                   for v in _field(f, str(fld))]
        values = _unique([*(spec.get("values") or ()), *derived])
        kinds[str(name)] = FactKind(str(name), values, str(spec.get("grammar", "")),
                                    game.facts_file)
    return Facts(game.id, kinds)


def _field(fact: Mapping[str, Any], dotted: str) -> list[str]:
    """The values of a (dotted, list-aware) field of a card fact: ``actions.name``."""
    head, _, rest = dotted.partition(".")
    value = fact.get(head)
    items = value if isinstance(value, list) else [value]
    out: list[str] = []
    for item in items:
        if item is None:
            continue
        if rest:
            out += _field(item, rest) if isinstance(item, dict) else []
        else:
            out.append(str(item))
    return out


def _unique(values: Iterable[Any]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(str(v) for v in values if v is not None))
