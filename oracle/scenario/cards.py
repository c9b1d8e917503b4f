"""Which concrete cards a scenario's card words stand for: variables, classes, filler.

Why: a rule that is not about a particular card (drawing, hidden hands, playing and
discarding, cancelling, timing) must not hard-wire one, or every engine without that card
is ``unsupported`` on a rule it implements. So a scenario names a *class* of card
(``Given card A is any "Action" card``) and the oracle picks, deterministically (by the
scenario's seed), one card of that class the engine declares it models (``GAME/card/NAME``)
and that the game knows how to play (a *recipe*: the Given lines that make the play
possible, its target, the Then lines that show its effect, in ``plays.yaml``). Cards a
scenario only counts ("6 other cards") are filler, also taken from the engine's cards. The
choices are recorded, and shown in the report.

The recipes and classes themselves are read by ``oracle.suite.plays`` (the suite checks
check them too); their names are imported here for the steps modules.
"""

from __future__ import annotations

import zlib
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from oracle.scenario.outcomes import EngineLacks, ScenarioError
from oracle.suite.dsl import Card, CardRef
from oracle.suite.plays import Recipe, card_facts, class_cards, class_members

if TYPE_CHECKING:
    from oracle.suite.games import Game

__all__ = ["CardTable", "Recipe", "card_facts", "class_cards", "class_members"]


@dataclass
class CardTable:
    """The card choices of one scenario against one engine."""

    game: Game
    capabilities: frozenset[str]
    seed: int
    bindings: dict[str, str] = field(default_factory=dict)
    #: What was chosen and why, in order: shown with the scenario's verdict.
    choices: list[str] = field(default_factory=list)
    #: Who plays each card variable (from 'can play' or the play step): its recipe's player.
    players: dict[str, str] = field(default_factory=dict)
    #: Whom each card variable is aimed at ('at Bob'): its recipe's ``{other}``.
    aims: dict[str, str] = field(default_factory=dict)
    #: The recipe situation each card variable is played in ('when ...').
    situations: dict[str, str] = field(default_factory=dict)
    _specs: dict[str, str] = field(default_factory=dict)

    def capability(self, card: str) -> str:
        return f"{self.game.id}/card/{card}"

    def modelled(self) -> list[str]:
        """The game's cards the engine declares it models, in card-facts order."""
        names = dict.fromkeys(f["name"] for f in card_facts(self.game))
        return [n for n in names if self.capability(n) in self.capabilities]

    def recipe(self, card: str) -> Recipe:
        data = self.game.plays["recipes"].get(card)
        if data is None:
            raise ScenarioError(f"{self.game.id} has no recipe for playing {card!r}; add one "
                                f"to {self.game.folder / (self.game.plays_file or 'plays.yaml')}")
        return Recipe.of(card, data)

    def recipe_of(self, ref: str) -> Recipe:
        """The recipe of a card variable, in the situation a 'can play ... when' step chose."""
        return self.recipe(self.name(CardRef(ref))).situation(self.situations.get(ref))

    def bind(self, ref: str, spec: str) -> str:
        """Bind ``card REF`` to a named card (``"Sabotage"``) or ``any [other] CLASS``."""
        spec = spec.strip()
        if ref in self.bindings:  # bound already when the scenario's needs were checked
            if self._specs[ref] != spec:
                raise ScenarioError(f"card {ref} is already {self._specs[ref]}")
            return self.bindings[ref]
        self._specs[ref] = spec
        if spec.startswith('"') and spec.endswith('"'):
            card = spec[1:-1]
            self.bindings[ref] = card
            self.choices.append(f"card {ref} = {card}")
            return card
        if not spec.startswith("any "):
            raise ScenarioError(f'card {ref} is what? Write a quoted card ("Sabotage") or '
                                f'"any" and a class, e.g. any "Action" card; got {spec!r}')
        other = spec.startswith("any other ")
        cls = spec.removeprefix("any other ").removeprefix("any ")
        taken = set(self.bindings.values()) if other else set()
        members = class_cards(self.game, cls)
        candidates = [c for c in members if self.capability(c) in self.capabilities
                      and c not in taken]
        if not candidates:
            # "any other": the engine may model the class, only not beyond the cards taken
            mine = [c for c in members if c in taken and self.capability(c) in self.capabilities]
            rest = [c for c in members if c not in mine]
            listed = ", ".join(rest[:8]) + (" …" if len(rest) > 8 else "")
            besides = f" besides {', '.join(mine)}, already chosen" if mine else ""
            raise EngineLacks(f"card {ref} is {spec}: the engine models no such card{besides} "
                              f"(declare {self.game.id}/card/NAME for one of: "
                              f"{listed or 'none'})")
        card = candidates[zlib.crc32(f"{self.seed}:{ref}".encode()) % len(candidates)]
        self.bindings[ref] = card
        self.choices.append(f"card {ref} = {card} ({spec})")
        return card

    def name(self, card: Card) -> str:
        """The concrete name of a card word (a quoted name, or a bound variable)."""
        if isinstance(card, CardRef):
            if card.name not in self.bindings:
                raise ScenarioError(f"{card} is not bound; write 'Given {card} is any ...' "
                                    "before using it")
            return self.bindings[card.name]
        return card

    def names(self, cards: Iterable[Card]) -> list[str]:
        return [self.name(c) for c in cards]

    def filler(self, deck: str, count: int, mentioned: Collection[str],
               named: Collection[str] = ()) -> list[str]:
        """``count`` cards of ``deck`` nobody mentioned, for "N cards" in a Given step.

        Taken from the cards the engine models, so that an engine with few cards can hold
        them; from every card of the deck when the engine declares no card at all. When
        every card it models is mentioned already, filler still avoids ``named`` (the cards
        a check may name: card variables, quoted cards of the pile): otherwise "the deck is
        card B and 2 other cards" could hold a second card B, and an engine drawing from the
        bottom would pass "Alice holds card B" by chance.
        """
        if count == 0:
            return []
        deck_names = list(dict.fromkeys(c["name"] for c in self.game.cards.get(deck, [])))
        mine = [n for n in deck_names if self.capability(n) in self.capabilities]
        pool = mine or deck_names
        fresh = ([n for n in pool if n not in mentioned]
                 or [n for n in pool if n not in named] or pool)
        if not fresh:
            raise ScenarioError(f"no card facts for the {deck!r} deck to pick {count} cards from")
        return [fresh[i % len(fresh)] for i in range(count)]
