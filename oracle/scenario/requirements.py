"""What a scenario needs of an engine, known before anything is sent to it.

Why: a scenario that needs something the engine lacks must be ``unsupported``, and must be
found so *before* ``setup``: otherwise an engine that silently accepts a card it does not
model "passes" a scenario about that card, or one that cannot set up a faction errors in the
middle. So a step definition declares, with ``@requires``, the capabilities its words need
(computed from its arguments alone: the card played, the faction named), and before the
first step of a scenario runs, the plugin asks every step of it (``needs``) and checks the
engine's declared capabilities once. The same declarations let tools list which steps and
scenarios each capability gates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from oracle.suite.dsl import CardRef, parse_cards
from oracle.suite.vocabulary import vocabulary_for

if TYPE_CHECKING:
    from oracle.scenario.world import ScenarioWorld
    from oracle.suite.games import Game

F = TypeVar("F", bound=Callable[..., Any])
ATTRIBUTE = "__oracle_requires__"
PLAYS = "__oracle_plays__"


def requires(compute: Callable[..., Iterable[str]]) -> Callable[[F], F]:
    """Declare what a step needs: ``compute(world, **arguments)`` returns capability names.

    Put it under the pytest-bdd decorator::

        @when(parsers.re(r"(?P<player>...) draws ..."))
        @requires(lambda world, **_: [f"{world.game.id}/draw"])
        def _draw(oracle_world, player, ...): ...

    ``compute`` must not talk to the engine; it may bind card variables (``card A``) through
    ``world.cards``, which is how a class with no card the engine models is found early.
    """
    def mark(func: F) -> F:
        setattr(func, ATTRIBUTE, compute)
        return func

    return mark


def plays(*arguments: str) -> Callable[[F], F]:
    """Declare which arguments of a step name cards it *plays*: plays, cancels with, sets up
    to play, checks the effect of, or (EU) puts on display, appoints or uses.

    Why: only a played card needs the engine to model it (``GAME/card/NAME``) and the game
    to know how to play it (a recipe). A card variable that no step plays is only held,
    drawn, dealt, traded, revealed or discarded: ``oracle.scenario.cards.CardTable`` then
    picks it among every card of the game's deck, and it needs nothing (docs/protocol.md,
    "Capabilities"). An argument is a card word (``card A``, ``"Sabotage"``) or a card
    variable's letter (``A``)::

        @when(parsers.re(r"(?P<player>...) plays (?P<card>...)"))
        @requires(_play_needs)
        @plays("card", "cancel")
        def _play(oracle_world, player, card, cancel): ...
    """
    def mark(func: F) -> F:
        setattr(func, PLAYS, tuple(arguments))
        return func

    return mark


def _marked(game: Game, steps: Iterable[tuple[str, str]], attribute: str
            ) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Each step whose definition carries ``attribute`` (``@requires``, ``@plays``): the
    mark and the step's arguments (a step in another language read as the English it
    means; the first matching definition, as pytest-bdd picks)."""
    words = vocabulary_for(game)
    for kind, written in steps:
        text = words.english(written)
        for step in words.match(kind, text)[:1]:
            mark = getattr(step.function, attribute, None)
            if mark:
                yield mark, step.arguments(text)


def played_variables(game: Game, steps: Iterable[tuple[str, str]]) -> frozenset[str]:
    """The card variables (``A`` for ``card A``) some step of ``steps`` plays (``@plays``)."""
    found: set[str] = set()
    for names, arguments in _marked(game, steps, PLAYS):
        for name in names:
            value = (arguments.get(name) or "").strip()
            if len(value) == 1 and value.isupper():
                found.add(value)
            elif value:
                found.update(c.name for c in parse_cards(value) if isinstance(c, CardRef))
    return frozenset(found)


def needs(world: ScenarioWorld, steps: Sequence[tuple[str, str]]) -> list[str]:
    """Every capability the steps ``(kind, text)`` declare they need, in order, once each."""
    found: list[str] = []
    for compute, arguments in _marked(world.game, steps, ATTRIBUTE):
        found += [c for c in compute(world, **arguments) if c]
    return list(dict.fromkeys(found))
