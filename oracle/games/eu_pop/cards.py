"""Card facts for the bundled EU reference engine, read from ``features/eu-pop/cards.yaml``.

Why the engine reads the scenarios' file instead of its own list: the oracle fills "3 cards"
from the same facts, so the two can never disagree about which cards exist, which deck each
belongs to, or what kind of card it is. The cards are illustrative stand-ins (see the file's
header); the engine needs only their classes: costs, kinds, charges, dice, character.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from oracle.games.kit.cards import read_card_facts

#: The three decks, one per type of Monarch Power (6.decks.1, 6.action-cards.3).
DECKS = ("administrative", "diplomatic", "military")
#: What a card (or an Action on a Display Card) can be marked as.
KINDS = frozenset({"action", "display", "battle_action", "reaction", "covert"})
#: Battle Die types (9.7 "Roll Battle Dice"); "?" on an icon means any of them (6.2.battle.6).
DIE_TYPES = ("infantry", "cavalry", "artillery")
ANY_DIE = "?"
CHARACTERS = ("leader", "advisor")


class CardDataError(ValueError):
    """``cards.yaml`` is malformed; the message names the card and the field."""


@dataclass(frozen=True)
class ActionFact:
    """One Action listed on a Display Card (6.2.display.4)."""

    name: str
    cost: int
    power: str
    uses: int
    kinds: frozenset[str]
    dice: tuple[str, ...] = ()
    effect_ducats: int = 0


@dataclass(frozen=True)
class CardFact:
    """One Action Card: its deck, costs, kinds and character; never its text."""

    name: str
    deck: str
    count: int
    cost: int
    ducats: int
    kinds: frozenset[str]
    character: str
    charges: int = 0
    actions: tuple[ActionFact, ...] = ()
    dice: tuple[str, ...] = ()
    effect_ducats: int = 0

    def action(self, name: str) -> ActionFact | None:
        return next((a for a in self.actions if a.name == name), None)


def _int(entry: dict[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = entry.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CardDataError(f"{where}: '{key}' must be a non-negative integer, got {value!r}")
    return value


def _kinds(entry: dict[str, Any], where: str) -> frozenset[str]:
    kinds = entry.get("kinds")
    if not isinstance(kinds, list) or not kinds or not set(kinds) <= KINDS:
        raise CardDataError(f"{where}: 'kinds' must list some of {sorted(KINDS)}, got {kinds!r}")
    return frozenset(kinds)


def _dice(entry: dict[str, Any], where: str) -> tuple[str, ...]:
    dice = entry.get("dice", [])
    if not isinstance(dice, list) or any(d not in (*DIE_TYPES, ANY_DIE) for d in dice):
        raise CardDataError(f"{where}: 'dice' must list {', '.join(DIE_TYPES)} or '?'")
    return tuple(dice)


def _effect(entry: dict[str, Any], where: str) -> int:
    effect = entry.get("effect") or {}
    if not isinstance(effect, dict) or set(effect) - {"ducats"}:
        raise CardDataError(f"{where}: 'effect' may only be {{ducats: N}}, got {effect!r}")
    return _int(effect, "ducats", where, 0)


def parse_cards(data: Any) -> tuple[CardFact, ...]:
    """Check and read the card facts (a mistake in them would be a wrong test, not a crash)."""
    decks = data.get("decks") if isinstance(data, dict) else None
    if not isinstance(decks, dict) or sorted(decks) != sorted(DECKS):
        raise CardDataError(f"cards.yaml needs exactly the decks {', '.join(DECKS)}")
    facts: list[CardFact] = []
    for deck in DECKS:
        for entry in decks[deck]:
            where = f"{deck} card {entry.get('name')!r}"
            actions = tuple(
                ActionFact(
                    name=str(a["name"]), cost=_int(a, "cost", where), power=str(a["power"]),
                    uses=_int(a, "uses", where, 1), kinds=_kinds(a, where), dice=_dice(a, where),
                    effect_ducats=_effect(a, where),
                )
                for a in entry.get("actions", [])
            )
            for a in actions:
                if a.power not in DECKS:
                    raise CardDataError(f"{where}: action {a.name!r} has power {a.power!r}")
            kinds = _kinds(entry, where)
            display = "display" in kinds
            if display != bool(actions) or display != ("charges" in entry):
                raise CardDataError(f"{where}: a display card, and only one, has charges and "
                                    "actions")
            if entry.get("character") not in CHARACTERS:
                raise CardDataError(f"{where}: 'character' must be leader or advisor")
            facts.append(CardFact(
                name=str(entry["name"]), deck=deck, count=_int(entry, "count", where),
                cost=_int(entry, "cost", where), ducats=_int(entry, "ducats", where, 0),
                kinds=kinds, character=str(entry["character"]),
                charges=_int(entry, "charges", where, 0), actions=actions,
                dice=_dice(entry, where), effect_ducats=_effect(entry, where),
            ))
    names = [f.name for f in facts]
    if len(set(names)) != len(names):
        raise CardDataError("a card name appears twice in cards.yaml")
    return tuple(facts)


@lru_cache(maxsize=1)
def load_card_facts() -> tuple[CardFact, ...]:
    """The card facts of all three decks, in file order (cached: they never change)."""
    return parse_cards(read_card_facts("eu-pop"))


def card_facts_by_name() -> dict[str, CardFact]:
    """Card facts keyed by name: what the engine looks cards up in."""
    return {fact.name: fact for fact in load_card_facts()}
