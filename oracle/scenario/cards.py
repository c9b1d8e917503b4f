"""Which concrete cards a scenario's card words stand for: variables, classes, filler.

Why: a rule that is not about a particular card (drawing, hidden hands, playing and
discarding, cancelling, timing) must not hard-wire one, or every engine without that card
is ``unsupported`` on a rule it implements. So a scenario names a *class* of card
(``Given card A is any "Action" card``) and the oracle picks, deterministically (by the
scenario's seed), one card of that class. A card some step *plays* (``@plays``,
``oracle.scenario.requirements``) must be one the engine declares it models
(``GAME/card/NAME``) and that the game knows how to play (a *recipe*: the Given lines that
make the play possible, its target, the Then lines that show its effect, in
``plays.yaml``); a card that is only held, drawn, dealt, traded, revealed or discarded may
be any card of the class in the game's deck, and needs nothing. Cards a scenario only
counts ("6 other cards") are filler, taken from the whole deck too, never more copies of a
card than the card facts count. The choices are recorded, and shown in the report.

The recipes and classes themselves are read by ``oracle.suite.plays`` (the suite checks
check them too); their names are imported here for the steps modules.
"""

from __future__ import annotations

import zlib
from collections.abc import Collection, Iterable, Mapping
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
    #: The card variables some step of the scenario plays (``played_variables``); the others
    #: are only held, and bind to any card of their class. ``None``: not known (a step run
    #: on its own), every variable is taken to be played.
    played: frozenset[str] | None = None
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

    def forget(self) -> None:
        """Unbind every card variable (a probe asking steps one at a time)."""
        self.bindings.clear()
        self._specs.clear()
        self.choices.clear()

    def plays(self, ref: str) -> bool:
        """Whether card variable ``ref`` is played (it needs its card modelled, and a recipe)."""
        return self.played is None or ref in self.played

    def bind(self, ref: str, spec: str) -> str:
        """Bind ``card REF`` to a named card (``"Sabotage"``) or ``any [other] CLASS``: a
        played variable to a card of the class the engine models and the game has a recipe
        for, one only held to any card of the class."""
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
        if not self.plays(ref):
            return self._bind_held(ref, spec, cls, taken)
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

    def _bind_held(self, ref: str, spec: str, cls: str, taken: set[str]) -> str:
        """A card variable no step plays: any card of the class in the game's deck, whether
        the engine models it or not (an engine holds every card of its deck)."""
        candidates = [c for c in class_members(self.game, cls) if c not in taken]
        if not candidates:
            raise ScenarioError(f"card {ref} is {spec}: the class {cls!r} has no card"
                                + (" besides those already chosen" if taken else ""))
        card = candidates[zlib.crc32(f"{self.seed}:{ref}".encode()) % len(candidates)]
        self.bindings[ref] = card
        self.choices.append(f"card {ref} = {card} ({spec}, held)")
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

    def filler(self, deck: str | None, count: int, mentioned: Collection[str],
               named: Collection[str] = (), placed: Mapping[str, int] | None = None
               ) -> list[str]:
        """``count`` cards of ``deck`` (of every deck: ``None``, for a hand) nobody
        mentioned, for "N cards" in a Given step.

        Taken from every card of the deck, modelled by the engine or not (an engine holds
        any card of its deck; only a played card needs modelling), and never more copies of
        a card than the card facts count, ``placed`` being the copies the scenario's state
        (and this pile's named cards) holds already: an engine that checks the counts gets
        a state its deck can make. Cards nobody mentions come first; when there are too few,
        filler still avoids ``named`` (the cards a check may name: card variables, quoted
        cards of the pile): otherwise "the deck is card B and 2 other cards" could hold a
        second card B, and an engine drawing from the bottom would pass "Alice holds card B"
        by chance.
        """
        if count == 0:
            return []
        decks = list(self.game.cards) if deck is None else [deck]
        copies: dict[str, dict[str, int]] = {d: {} for d in decks}
        for d in decks:
            for fact in self.game.cards.get(d, []):
                copies[d][fact["name"]] = copies[d].get(fact["name"], 0) + int(
                    fact.get("count", 1))
        left = {n: c - (placed or {}).get(n, 0) for d in decks for n, c in copies[d].items()}
        chosen: list[str] = []
        for _ in range(count):
            card = next((tier[0] for d in decks for tier in self._tiers(
                [n for n in copies[d] if left[n] > 0], mentioned, named, chosen) if tier),
                None)
            if card is None:
                total = sum(c for d in decks for c in copies[d].values())
                raise ScenarioError(
                    f"the scenario puts more cards in play than "
                    f"{'the game' if deck is None else f'the {deck!r} deck'} holds "
                    f"({total} cards, as "
                    f"{self.game.folder / (self.game.cards_file or 'cards.yaml')} counts them)"
                    if total else f"no card facts for the {deck!r} deck to pick {count} "
                                  f"cards from")
            left[card] -= 1
            chosen.append(card)
        return chosen

    @staticmethod
    def _tiers(pool: list[str], mentioned: Collection[str], named: Collection[str],
               chosen: list[str]) -> tuple[list[str], ...]:
        """Filler's candidates, best first: cards nobody mentions and this filler has not
        taken yet, then more copies of them, then any card but those a check names."""
        return ([n for n in pool if n not in mentioned and n not in chosen],
                [n for n in pool if n not in mentioned], [n for n in pool if n not in named])
