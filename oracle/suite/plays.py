"""What a game's ``plays.yaml`` says over its card facts: the recipe that plays each card,
and the card classes a scenario may name (``any "Action" card``).

Plain reading of the game's files, in the suite's layer, because the suite checks
(``oracle.suite.lint``) check every class and recipe before a run, and at run time
``oracle.scenario.cards`` picks a scenario's cards with them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from oracle.suite import filecheck
from oracle.suite.problems import ScenarioError

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
