"""Other languages' phrasings of the steps: one definition, several phrasings.

Why: a committee that writes in Russian (``# language: ru``, the TI4 section exists as
28.x) needs its own sentences, but a second set of step definitions would double what every
step is matched against, and two definitions of one rule could drift apart. So a step module
may hold ``PHRASES = {"ru": [(pattern, english), ...]}``: a regular expression a step in that
language matches whole, and the English step it stands for, its groups filled in
(``"{player} draws {count} action cards"``). A step in another script is rewritten once
(and remembered) into the English the definitions read; a step in English never looks at
the table. The values inside a phrase are translated too, as far as the shared grammar of
piles and lists goes ("2 скрытые карты" -> "2 hidden cards", " и " -> " and "); card and
player names are written as the card data and the scenario name them.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Iterable

CYRILLIC = re.compile(r"[А-Яа-яЁё]")

#: The shared words of values (piles, lists, viewers), outside quotes: (pattern, English).
VALUE_WORDS = {"ru": [
    (r"^все карты,? кроме ", "all cards but "),
    (r"\bкарт[аыуе]? ([A-Z])\b", r"card \1"),
    (r"^друг\w+ $", "other "),
    (r"^(?:пуст[аоы]?|нет карт)$", "empty"),
    (r"\b(\d+) скрыт\w* карт\w*", r"\1 hidden cards"),
    (r"\b(\d+) друг\w* карт\w*", r"\1 other cards"),
    (r"\b(\d+) карт\w*", r"\1 cards"),
    (r" в любом порядке$", " in any order"),
    (r"^зрителя$", "a spectator"),
    (r" и ", " and "),
]}


class Phrasings:
    """The phrasings of some step modules, by language, and the English they stand for."""

    def __init__(self, modules: Iterable[str]) -> None:
        self.modules = tuple(modules)
        self.present = any(getattr(importlib.import_module(name), "PHRASES", None)
                           for name in self.modules)
        self._seen: dict[str, str] = {}

    @functools.cached_property
    def table(self) -> list[tuple[re.Pattern[str], str]]:
        """(pattern, English) of every phrasing, compiled when a step first needs them (a run
        in English never does)."""
        return [(re.compile(p), english) for name in self.modules
                for phrases in getattr(importlib.import_module(name), "PHRASES", {}).values()
                for p, english in phrases]

    @functools.cached_property
    def words(self) -> list[tuple[re.Pattern[str], str]]:
        langs = [lang for name in self.modules
                 for lang in getattr(importlib.import_module(name), "PHRASES", {})]
        return [(re.compile(p), r) for lang in dict.fromkeys(langs)
                for p, r in VALUE_WORDS.get(lang, [])]

    def english(self, text: str) -> str:
        """The English step a text stands for: itself when it is not in another script or
        no phrasing matches it (the suite checks then say no step matches)."""
        if not self.present or text.isascii() or not CYRILLIC.search(text):
            return text
        found = self._seen.get(text)
        if found is None:
            found = self._seen[text] = self._translate(text)
        return found

    def _translate(self, text: str) -> str:
        for pattern, english in self.table:
            m = pattern.fullmatch(text)
            if m:
                values = {k: self._value(v or "") for k, v in m.groupdict().items()}
                return english.format(**values).replace("  ", " ").strip()
        return text

    def _value(self, value: str) -> str:
        """A value's words in English, quoted names left as they are."""
        parts = re.split(r'("[^"]*")', value)
        for i in range(0, len(parts), 2):  # the unquoted parts
            for pattern, english in self.words:
                parts[i] = pattern.sub(english, parts[i])
        return "".join(parts)
