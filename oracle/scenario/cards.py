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
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from oracle.scenario.outcomes import EngineLacks, ScenarioError
from oracle.suite import filecheck
from oracle.suite.dsl import Card, CardRef

if TYPE_CHECKING:
    from oracle.suite.games import Game


#: The keys of a recipe (or of one of its situations) that are not flags: plays.yaml's schema.
RECIPE_KEYS = frozenset(filecheck.load("plays")["$defs"]["recipe"]["properties"])


@dataclass(frozen=True)
class Recipe:
    """How the scenarios play one card: Given lines, a target, Then lines for its effect.

    Lines are step texts of the game's DSL with ``{player}`` (who plays the card) and
    ``{other}`` (the player it is aimed at: the one a step names with 'at Bob', else the
    next player in seat order) filled in.

    ``situations`` are named variants (``when:`` in ``plays.yaml``) for rules about the
    edges of a play ("nothing it could target exists", "it would affect zero objects"):
    each overrides the keys it gives. ``flags`` are any other keys (``offensive: true``):
    facts about the card a class can ask for (``has:``).
    """

    card: str
    given: tuple[str, ...] = ()
    target: str | None = None
    effect: tuple[str, ...] = ()
    no_effect: tuple[str, ...] = ()
    situations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()

    @classmethod
    def of(cls, card: str, data: Mapping[str, Any]) -> Recipe:
        data = data or {}
        return cls(card, tuple(data.get("given") or ()), data.get("target"),
                   tuple(data.get("effect") or ()), tuple(data.get("no_effect") or ()),
                   dict(data.get("when") or {}),
                   frozenset(k for k, v in data.items() if k not in RECIPE_KEYS and v))

    def has(self, key: str) -> bool:
        """Whether the recipe has a situation or a flag of this name, or lines under this
        key (``effect``: a visible effect): what a class's ``has:`` asks for."""
        if key in ("given", "effect", "no_effect", "target"):
            return bool(getattr(self, key))
        return key in self.situations or key in self.flags

    def situation(self, name: str | None) -> Recipe:
        """The recipe in one of its situations (the keys it gives replace the card's)."""
        if name is None:
            return self
        if name not in self.situations:
            known = ", ".join(repr(s) for s in self.situations) or "none"
            raise ScenarioError(f"the recipe for {self.card!r} has no situation {name!r} "
                                f"(its situations: {known}); a class whose cards all have it "
                                f"says so with has: [{name}]")
        data = self.situations[name] or {}

        def lines(key: str) -> tuple[str, ...]:
            return tuple(data[key] or ()) if key in data else getattr(self, key)

        return Recipe(self.card, lines("given"), data.get("target", self.target),
                      lines("effect"), lines("no_effect"))

    def lines(self, which: str, player: str, other: str) -> list[str]:
        return [line.format(player=player, other=other) for line in getattr(self, which)]


def card_facts(game: Game) -> list[dict[str, Any]]:
    """Every card fact of every deck of the game (name, count, and the game's own fields),
    each with its ``deck`` (the deck it is listed under) unless the fact names one."""
    return [{"deck": deck, **fact} for deck, facts in game.cards.items() for fact in facts]


def class_members(game: Game, name: str) -> list[str]:
    """The cards of a class the game declares (``classes:`` in ``plays.yaml``), by name.

    A class is a mapping of card-fact fields to what the fact must have there (every field
    must fit):

    - a value, or a list of values: the fact is one of them; a list-valued fact field
      (e.g. EU ``kinds``) must contain one of them. ``null`` stands for a field the fact
      leaves out (``ducats: [null, 0]``: no Ducat cost);
    - a mapping of tests, all of which must hold: ``is`` (as above), ``all`` (every one of
      these values), ``not`` (none of them), ``at least`` / ``at most`` (a number, or a
      list's length).

    A dotted field looks inside a mapping (``effect.ducats``), or inside a list of mappings
    (``actions.kinds: reaction``: one of the card's ``actions`` is a reaction), whose values
    are then tested as one list.

    ``has: [KEY, ...]`` asks for cards whose recipe has each situation or flag
    (``offensive``, "nothing it could target exists"): facts about what a card does, which
    the card facts do not hold.
    """
    return list(_members(game, name))


def class_cards(game: Game, name: str) -> list[str]:
    """The cards a scenario may get for ``any CLASS``: the class's members that have a
    recipe (``plays.yaml``: the game knows how to play them), in card-facts order."""
    playable = game.plays["recipes"]
    return [c for c in _members(game, name) if c in playable]


def card_classes(game: Game) -> dict[str, list[str]]:
    """Per card (every card of the facts), the classes a scenario may pick it for."""
    out: dict[str, list[str]] = {f["name"]: [] for f in card_facts(game)}
    for cls in game.plays["classes"]:
        for card in class_cards(game, cls):
            out[card].append(cls)
    return out


@functools.lru_cache(maxsize=4096)
def _members(game: Game, name: str) -> tuple[str, ...]:
    """``class_members``, worked out once per game and class: a game's card facts and
    classes do not change, and every scenario playing ``card A`` of a class asks again
    (most of what the kill matrix's harness spent outside the engine)."""
    classes = game.plays["classes"]
    if name not in classes:
        known = ", ".join(repr(c) for c in classes) or "none"
        raise ScenarioError(f"{game.id} has no card class {name!r} (classes: {known}); they "
                            f"are declared in {game.folder / (game.plays_file or 'plays.yaml')}")
    wanted = dict(classes[name] or {})
    has = list(wanted.pop("has", None) or ())
    recipes = game.plays["recipes"]
    return tuple(f["name"] for f in card_facts(game)
                 if all(_fits(_field(f, k), v) for k, v in wanted.items())
                 and (not has or (f["name"] in recipes
                                  and all(Recipe.of(f["name"], recipes[f["name"]]).has(h)
                                          for h in has))))


def _field(fact: Mapping[str, Any], key: str) -> Any:
    """A fact's field; a dotted key looks inside a mapping, or collects the field from each
    mapping of a list."""
    head, _, rest = key.partition(".")
    value = fact.get(head)
    if not rest:
        return value
    if isinstance(value, Mapping):
        return _field(value, rest)
    found: list[Any] = []
    for item in value if isinstance(value, list) else []:
        inner = _field(item, rest) if isinstance(item, Mapping) else None
        found += inner if isinstance(inner, list) else [inner]
    return found


TESTS = ("is", "all", "not", "at least", "at most")


def _fits(value: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        unknown = set(wanted) - set(TESTS)
        if unknown:
            raise ScenarioError(f"a card class test can be {', '.join(TESTS)}; got "
                                f"{', '.join(sorted(map(str, unknown)))}")
        size = len(value) if isinstance(value, list) else value
        every = wanted.get("all", [])
        return (("is" not in wanted or _fits(value, wanted["is"]))
                and all(_any_of(value, v) for v in (every if isinstance(every, list)
                                                     else [every]))
                and ("not" not in wanted or not _any_of(value, wanted["not"]))
                and ("at least" not in wanted or _number(size) >= wanted["at least"])
                and ("at most" not in wanted or _number(size) <= wanted["at most"]))
    return _any_of(value, wanted)


def _any_of(value: Any, wanted: Any) -> bool:
    options = wanted if isinstance(wanted, list) else [wanted]
    if isinstance(value, list):
        return any(o in value for o in options)
    return value in options


def _number(value: Any) -> float:
    """A fact's number for ``at least``/``at most``; a missing field counts as 0."""
    return value if isinstance(value, int | float) and not isinstance(value, bool) else 0


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
