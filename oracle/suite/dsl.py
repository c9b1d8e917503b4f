"""The small grammar inside step texts: names, card lists and pile descriptions.

Steps stay few and general because the phrases they take are parsed here
once: a list of players (``Alice, Bob and Carol``), a list of cards
(``"Sabotage", "Veto" and "Bribery"``) and a pile description
(``empty``, ``3 cards``, ``2 hidden cards``, ``"Veto" and 1 hidden card``,
``"A", "B" in any order``). A phrase that does not parse raises
``ScenarioError`` saying what the grammar accepts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oracle.suite.problems import ScenarioError

PILE_GRAMMAR = (
    "'empty', 'N cards', 'N hidden cards', '\"A\", \"B\" and \"C\"' (top first for piles), "
    "'\"A\" and N hidden cards', '\"A\" and N other cards', or a card list followed by "
    "'in any order'; a card is a quoted name or a card variable ('card A', bound by "
    "'Given card A is any ...')"
)

_QUOTED = re.compile(r'"([^"]+)"')
_ITEM = re.compile(r'"([^"]+)"|\bcard ([A-Z])\b')


@dataclass(frozen=True)
class CardRef:
    """A card variable (``card A``): the card a ``Given card A is ...`` step bound."""

    name: str

    def __str__(self) -> str:
        return f"card {self.name}"


Card = str | CardRef
_NUMBER_WORDS = {"no": 0, "zero": 0, "one": 1, "a": 1, "an": 1, "two": 2, "three": 3}


def parse_names(text: str) -> list[str]:
    """``Alice, Bob and Carol`` -> ``["Alice", "Bob", "Carol"]``."""
    parts = re.split(r",\s*|\s+and\s+", text.strip())
    names = [p.strip() for p in parts if p.strip()]
    if not names or any(not re.fullmatch(r"[\w'-]+", n) for n in names):
        raise ScenarioError(f"expected names like 'Alice, Bob and Carol', got {text!r}")
    return names


def parse_quoted(text: str) -> list[str]:
    """``"A", "B" and "C"`` -> the quoted names, in order (laws, factions, anything named)."""
    names = _QUOTED.findall(text)
    rest = _QUOTED.sub("", text)
    if not names or re.sub(r"[,\s]|\band\b", "", rest):
        raise ScenarioError(f'expected quoted names like "Sabotage" and "Veto", got {text!r}')
    return names


def parse_cards(text: str) -> list[Card]:
    """``"Sabotage", card A and "Bribery"`` -> the cards in order: names and card variables."""
    items: list[Card] = [CardRef(ref) if ref else name for name, ref in _ITEM.findall(text)]
    rest = _ITEM.sub("", text)
    if not items or re.sub(r"[,\s]|\band\b", "", rest):
        raise ScenarioError(f'expected cards like "Sabotage", card A and "Veto", got {text!r}')
    return items


def parse_count(text: str) -> int:
    text = text.strip().lower()
    if text.isdigit():
        return int(text)
    if text in _NUMBER_WORDS:
        return _NUMBER_WORDS[text]
    raise ScenarioError(f"expected a number, got {text!r}")


@dataclass(frozen=True)
class Pile:
    """What a step says about a pile or a hand.

    ``cards`` are the named cards (top first unless ``any_order``); ``hidden``
    counts cards the viewer must not see; ``others`` counts cards whose names
    do not matter; ``names_matter`` is False for a bare count ("3 cards").
    """

    cards: tuple[Card, ...] = ()
    hidden: int = 0
    others: int = 0
    any_order: bool = False
    names_matter: bool = True

    @property
    def count(self) -> int:
        return len(self.cards) + self.hidden + self.others


def parse_pile(text: str) -> Pile:
    """Parse a pile description; see ``PILE_GRAMMAR``."""
    text = text.strip()
    if text in ("empty", "no cards", "nothing"):
        return Pile()
    m = re.fullmatch(r"(\w+) (hidden )?cards?", text)
    if m:
        n = parse_count(m.group(1))
        return Pile(hidden=n) if m.group(2) else Pile(others=n, names_matter=False)
    any_order = False
    for suffix in (" in any order",):
        if text.endswith(suffix):
            any_order, text = True, text.removesuffix(suffix)
    text = text.removesuffix(" from the top")
    hidden = others = 0
    m = re.fullmatch(r"(.*?)(?:,| and) (\w+) (other|hidden) cards?", text)
    if m:
        text, n = m.group(1), parse_count(m.group(2))
        hidden, others = (n, 0) if m.group(3) == "hidden" else (0, n)
    try:
        cards = parse_cards(text)
    except ScenarioError:
        raise ScenarioError(f"cannot read {text!r} as a pile; write {PILE_GRAMMAR}") from None
    return Pile(tuple(cards), hidden, others, any_order)


def describe_cards(cards: list[Card] | tuple[Card, ...]) -> str:
    """The inverse of ``parse_cards``, for messages."""
    if not cards:
        return "no cards"
    quoted = [f'"{c}"' if isinstance(c, str) else str(c) for c in cards]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
