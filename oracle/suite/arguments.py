"""What a step's arguments are: how to write each, what values it may take, what it names.

Why: a committee writing a ruling needs, for every step, the grammar of each ``<argument>``
(how to name a unit, which timing windows exist), and the suite checks need to know which
words of a step are card names, laws or players, to check them against the game's facts
before anything runs. Both come from here.

An argument's *kind* is found, in this order: a ``@takes(name=...)`` on the step definition,
the game's steps module's ``ARGUMENTS`` table (``"name"`` or ``"function.name"`` keys), this
module's ``ARGUMENTS`` table of the names the shared steps use, and last, a group of the
pattern that is a choice of literal words (``(?P<outcome>rejected|allowed)``) is a ``choice``.
A kind is one of ``KINDS`` below, a kind the game's steps module adds in its ``KINDS``, or a
kind of the game's facts (``oracle.suite.facts``): a single name, checked against them.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from oracle.suite.dsl import (
    PILE_GRAMMAR,
    CardRef,
    parse_cards,
    parse_count,
    parse_names,
    parse_pile,
    parse_quoted,
)
from oracle.suite.problems import ScenarioError

if TYPE_CHECKING:
    from oracle.suite.games import Game
    from oracle.suite.vocabulary import StepDef

F = TypeVar("F", bound=Callable[..., Any])
ATTRIBUTE = "__oracle_arguments__"

Reference = tuple[str, str]
"""What an argument names: (kind, value), e.g. ("card", "Sabotage"), ("player", "Bob")."""


@dataclass(frozen=True)
class Argument:
    """One argument of a step: its kind, and whether a Then step asserts it.

    ``asserts`` marks the value a Then step checks (a count, a pile, an outcome) as opposed to
    what the step is about (a player, a deck): two scenarios that do the same thing and check
    the same subject with different values contradict each other.
    """

    kind: str
    asserts: bool = False


@dataclass(frozen=True)
class Kind:
    """A kind of argument: how to write it, and the names a written value mentions."""

    name: str
    grammar: str
    #: (game, raw text) -> what it names; raises ScenarioError when it does not parse.
    references: Callable[[Game, str], list[Reference]]
    #: The fact kind whose values a committee may pick from (listed by the step reference).
    values: str | None = None


def _cards(text: str) -> list[Reference]:
    return [("card variable", c.name) if isinstance(c, CardRef) else ("card", c)
            for c in parse_cards(text)]


def _pile(text: str) -> list[Reference]:
    return [("card variable", c.name) if isinstance(c, CardRef) else ("card", c)
            for c in parse_pile(text).cards]


def _card_spec(text: str) -> list[Reference]:
    text = text.strip()
    if text.startswith('"') and text.endswith('"'):
        return [("card", text[1:-1])]
    if text.startswith("any "):
        return [("card class", text.removeprefix("any ").removeprefix("other "))]
    raise ScenarioError(f'expected a quoted card ("Sabotage") or "any" and a class, e.g. '
                        f'any "Action" card; got {text!r}')


def _count(text: str) -> list[Reference]:
    parse_count(text)
    return []


def _viewer(text: str) -> list[Reference]:
    return [] if text == "a spectator" else [("player", text)]


def _name(kind: str) -> Callable[[Game, str], list[Reference]]:
    return lambda game, text: [(kind, text.strip().strip('"'))]


KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("player", "a player's name, capitalised: Alice", _name("player")),
    Kind("players", "players' names: Alice, Bob and Carol",
         lambda game, text: [("player", n) for n in parse_names(text)]),
    Kind("roster", "the players in seat (clockwise) order: Alice, Bob and Carol",
         lambda game, text: [("new player", n) for n in parse_names(text)]),
    Kind("viewer", "a player's name, or 'a spectator'", lambda game, text: _viewer(text)),
    Kind("count", "a number: 0, 1, 2 ... (or no, a, an, one, two, three)",
         lambda game, text: _count(text)),
    Kind("card", 'a card: its name quoted ("Sabotage"), or a card variable (card A)',
         lambda game, text: _cards(text) if text.startswith(('"', "card ")) else
         [("card", text)], values="card"),
    Kind("card name", "a card's name, inside the step's quotes", _name("card"), values="card"),
    Kind("cards", 'cards: "Sabotage", card A and "Bribery"', lambda game, text: _cards(text),
         values="card"),
    Kind("pile", PILE_GRAMMAR, lambda game, text: _pile(text), values="card"),
    Kind("kept cards", f"{PILE_GRAMMAR}; or 'all cards but' and a card list (all cards but "
         "card A)", lambda game, text: _cards(text.removeprefix("all cards but "))
         if text.startswith("all cards but ") else _pile(text), values="card"),
    Kind("card spec", 'a card quoted ("Sabotage"), or any <card class>, or any other '
         '<card class> (one not bound yet): any "Action" card',
         lambda game, text: _card_spec(text), values="card class"),
    Kind("new card variable", "a capital letter naming a card for the steps below: A",
         lambda game, text: [("new card variable", text)]),
    Kind("card variable", "a card variable bound by 'Given card A is ...': A",
         lambda game, text: [("card variable", text)]),
    Kind("deck", "a deck's name, one word", _name("deck"), values="deck"),
    Kind("decks", "decks' names: military, or military, diplomatic and administrative",
         lambda game, text: [("deck", n) for n in parse_names(text)], values="deck"),
    Kind("window", "a timing window, quoted", _name("window"), values="window"),
    Kind("phase", "a phase, one word", _name("phase"), values="phase"),
    Kind("laws", 'laws, quoted: "Minister of Commerce" and "Minister of War"',
         lambda game, text: [("law", n) for n in parse_quoted(text)], values="law"),
    Kind("rule", "a rule id as a tag writes it (ti4:note-9), or one of its sentences "
         "(ti4:note-9#1)", lambda game, text: [("rule", text.strip())]),
    Kind("choice", "one of the words shown", lambda game, text: []),
    Kind("text", "any text", lambda game, text: []),
)}

ARGUMENTS: dict[str, Argument] = {
    "player": Argument("player"), "owner": Argument("player"),
    "canceller": Argument("player"), "names": Argument("players"),
    "viewer": Argument("viewer"), "seed": Argument("count"),
    "count": Argument("count", asserts=True), "n": Argument("count"),
    "card": Argument("card"), "cancel": Argument("card"), "cards": Argument("cards"),
    "pile": Argument("pile", asserts=True), "spec": Argument("card spec"),
    "ref": Argument("card variable"), "deck": Argument("deck"), "window": Argument("window"),
    "phase": Argument("phase"), "target": Argument("target"),
}
"""The kinds of the argument names the shared steps use (``steps/common.py``)."""

ASSERTING_CHOICES = frozenset({"outcome", "neg", "decision", "none"})
"""Choices that are what a Then step checks (rejected|allowed, is|is not), not its subject."""


def takes(**arguments: str | Argument) -> Callable[[F], F]:
    """Declare the kinds of some of a step definition's arguments (under the pytest-bdd
    decorator), where the name alone would say otherwise::

        @given(parsers.re(r"the players are (?P<names>.+)"))
        @takes(names="roster")
        def _players(oracle_world, names): ...
    """
    def mark(func: F) -> F:
        setattr(func, ATTRIBUTE, {k: _argument(v) for k, v in arguments.items()})
        return func

    return mark


def _argument(value: str | Argument) -> Argument:
    return value if isinstance(value, Argument) else Argument(value)


def game_module(game: Game | None) -> Any:
    return importlib.import_module(game.steps) if game is not None and game.steps else None


def argument_of(step: StepDef, name: str, game: Game | None = None) -> Argument | None:
    """The kind of one argument of a step definition (None if nothing says)."""
    own = getattr(step.function, ATTRIBUTE, {})
    if name in own:
        return own[name]
    module = importlib.import_module(step.function.__module__)
    table: Mapping[str, Any] = getattr(module, "ARGUMENTS", {})
    for key in (f"{step.function.__name__}.{name}", name):
        if key in table:
            return _argument(table[key])
    if name in ARGUMENTS:
        return ARGUMENTS[name]
    if _is_choice(step.pattern, name):
        return Argument("choice", asserts=name in ASSERTING_CHOICES)
    return None


def _is_choice(pattern: str, name: str) -> bool:
    """Whether a named group of the pattern is a choice of literal words."""
    m = re.search(rf"\(\?P<{name}>([^()]*)\)", pattern)
    return bool(m) and all(re.fullmatch(r"[\w ,'-]+", w) for w in m.group(1).split("|"))


def kind_of(name: str, game: Game | None) -> Kind | None:
    """A kind by name: the core's, the game's steps module's ``KINDS``, or a fact kind."""
    module = game_module(game)
    extra: Mapping[str, Kind] = getattr(module, "KINDS", {}) if module else {}
    if name in extra:
        return extra[name]
    if name in KINDS:
        return KINDS[name]
    if game is not None and game.facts.values(name) is not None:
        fact = game.facts.kinds[name]
        return Kind(name, fact.grammar or f"a {name}'s name", _name(name), values=name)
    return None


def references(game: Game, argument: Argument, raw: str) -> list[Reference]:
    """What a written argument names; ScenarioError when it does not parse."""
    kind = kind_of(argument.kind, game)
    if kind is None:
        return []
    return kind.references(game, raw)


def raw_arguments(step: StepDef, text: str) -> dict[str, str]:
    """The arguments a step text gives, as written (None for an optional part left out)."""
    raw = step.context.parser.parse_arguments(text) or {}
    return {k: v for k, v in raw.items() if v is not None}
