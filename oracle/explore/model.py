"""What a game's exploration model is made of: invariants, the game being explored, and
step texts run by their text.

Why apart from the search: the games' models (``oracle.games.GAME.explore``) import these
values and nothing of the Hypothesis search, and the search and the renderer both read
them.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hypothesis import strategies as st

from oracle.protocol import REFEREE
from oracle.scenario.outcomes import RuleViolation
from oracle.scenario.world import ScenarioWorld
from oracle.suite.vocabulary import vocabulary_for

View = Mapping[str, Any]
#: The line that follows a move the engine rejected.
REJECTED_LINE = "Then the action is rejected"


class Held:
    """What an invariant's check returns when the move it looked at is one its rule is
    about, and the rule was kept (see ``Check``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "HELD"


HELD = Held()

Check = str | Held | None
"""An invariant's answer about one state: a message (the rule is broken), ``HELD`` (the
state is one the rule speaks about, and it holds), or ``None`` (nothing here exercises the
rule: a state with no discard pile says nothing about discard piles being public).

``None`` is the default on purpose: an invariant that forgets to say ``HELD`` is reported
``uncovered``, never a pass it did not test."""


@dataclass(frozen=True)
class Invariant:
    """A property every state must have, tied to the rules it follows from.

    ``check`` gets the exploration context and returns a ``Check``. ``then`` renders, from
    the reference engine's views, the Then lines that state what the rules require here.
    """

    name: str
    rules: tuple[str, ...]
    check: Callable[[Explored], Check]
    then: Callable[[Explored, ScenarioWorld], list[str]]
    #: This invariant owns what the world itself catches during a move (a rejected
    #: action that changed the game); its finding cites the rule the engine cited.
    catches_violations: bool = False


Supported = Callable[[str, str], bool]
"""``supported(kind, text)``: whether the engine declares every capability the step of that
kind ("given", "when") needs; a model builds its tables and moves from what is supported."""


class ExplorationModel(Protocol):
    """What a game tells the explorer: how to set up, what to try, what must hold.

    A model may also have ``move_rules`` (read with ``move_rules_of``): per action type
    (``draw``, ``play``, ...), the one rule that states that action; and ``answer_rules``
    (``answer_rules_of``): per kind of pending decision (``keep``, ``discard``), the one
    rule that states how it is answered. An engine that fails to answer a move (it
    crashes, answers ``errored``, breaks the protocol) is then charged to that rule alone,
    as a scenario about that action would be; a move of a type not listed (or an answer to
    a decision not listed) is charged to the invariants it exercises.
    """

    def setups(self, supported: Supported) -> st.SearchStrategy[list[str]]:
        """Given step texts that build a starting state the engine can set up (a setup that
        still needs something it lacks is skipped, and counted)."""
        ...

    def moves(self, explored: Explored) -> list[str]:
        """When step texts to try next (legal or not, but always well-formed: about players,
        cards, units and laws the game has), simplest first (Hypothesis shrinks towards the
        start of the list).

        Asked once per state: a move the engine rejected changed nothing (the world checks
        it), so the list is used again after one. The moves follow from the game's state, so
        a rejected move's lines must not change them."""
        ...

    def invariants(self) -> Sequence[Invariant]:
        ...

    # Optional: ``shows(explored) -> list[str]``, Then step texts stating the state as the
    # explored engine shows it beyond what the invariants' Then lines say (each hand's cards
    # as their owner sees them, a board); a differential finding's scenario keeps those the
    # other engine fails. They charge no rule.


def move_rules_of(model: ExplorationModel) -> Mapping[str, str]:
    """The model's ``move_rules``, or none."""
    return _rules_table(model, "move_rules")


def answer_rules_of(model: ExplorationModel) -> Mapping[str, str]:
    """The model's ``answer_rules``, or none."""
    return _rules_table(model, "answer_rules")


def _rules_table(model: ExplorationModel, name: str) -> Mapping[str, str]:
    """An optional table of a model's (a model need not have it)."""
    rules = getattr(model, name, None)
    return rules if isinstance(rules, Mapping) else {}


def rejection_checked(explored: Explored) -> Check:
    """The check of a ``catches_violations`` invariant: every rejected move exercises it
    (the world compares the game before and after a rejection and raises if it changed)."""
    return HELD if explored.last_rejected else None


# -- running steps by their text -----------------------------------------------------------


_Compiled = tuple[Callable[..., Any], dict[str, Any], bool]
#: Per game (by identity; the game is kept with its table, so that its id is not reused while
#: the table lives): each (kind, text) matched, with its definition and parsed arguments.
_COMPILED: dict[int, tuple[Any, dict[tuple[str, str], _Compiled]]] = {}


def run_step(world: ScenarioWorld, kind: str, text: str) -> None:
    """Run one step text through the game's step definitions, exactly as a feature file
    would (``oracle.suite.vocabulary``).

    Exploration runs the same few hundred texts over and over, so each text's definition and
    parsed arguments are remembered (matching a text tries every definition's pattern), per
    game: a step run is then one lookup.
    """
    game = world.game
    mine = _COMPILED.get(id(game))
    if mine is None or mine[0] is not game:
        if len(_COMPILED) > 64:
            _COMPILED.clear()
        mine = _COMPILED[id(game)] = (game, {})
    compiled = mine[1].get((kind, text))
    if compiled is None:
        words = vocabulary_for(game)
        hits = words.match(kind, text)
        if not hits:
            words.run(world, kind, text)  # raises the vocabulary's own error
            return
        step = hits[0]
        wants_world = "oracle_world" in _parameters(step.function)
        compiled = (step.function, step.arguments(text), wants_world)
        if len(mine[1]) > 100_000:
            mine[1].clear()
        mine[1][kind, text] = compiled
    function, arguments, wants_world = compiled
    kwargs = dict(arguments)
    if wants_world:
        kwargs["oracle_world"] = world
    function(**kwargs)


@functools.cache
def _parameters(function: Callable[..., Any]) -> frozenset[str]:
    return frozenset(inspect.signature(function).parameters)


# -- one explored game ------------------------------------------------------------------------


@dataclass
class Explored:
    """The game being explored: its steps so far, the engine's views, what was revealed."""

    world: ScenarioWorld
    given: list[str]
    lines: list[str] = field(default_factory=list)  # When/Then lines after the Givens
    moves: int = 0
    last_rejected: bool = False
    before: View | None = None  # the referee's view before the last move
    #: Scratch space for invariants that compare with an earlier state (conservation).
    memo: dict[str, Any] = field(default_factory=dict)
    #: Whether the engine declares what a step needs (moves it lacks are skipped anyway).
    supported: Supported = lambda kind, text: True
    #: The model's moves from this state, while no move has changed it (see ``moves``).
    candidates: list[str] | None = None
    #: How many lines were taken back (``take_back``): a memo of what the lines say, read
    #: once per line, starts again when this changes, since the lines it read may be gone.
    taken_back: int = 0

    def view(self, viewer: str | None = REFEREE) -> View:
        """What ``viewer`` sees now (the world asks the engine once per viewer and move)."""
        return self.world.view(viewer)

    def take_back(self) -> str:
        """Remove the last line (a move the engine lacks, taken back): the one way lines
        other than the last-added change, so memos reading lines once (see ``taken_back``)
        know to read them again."""
        self.taken_back += 1
        return self.lines.pop()

    def moving(self) -> None:
        """Before a move: remember the referee's view of the state it starts from."""
        self.before = self.world.referee_view()

    def hand(self, owner: str, viewer: str | None) -> tuple[int, list[str]]:
        """(count, visible names) of a hand as ``viewer`` is shown it."""
        hand = self.view(viewer)["players"][owner]["hand"]
        return shown_count(hand, owner, viewer), list(hand.get("cards") or [])

    def players(self) -> list[str]:
        return [p["name"] for p in self.world.state["players"]]

    def hand_given(self, player: str) -> bool:
        return any(p["name"] == player and "hand" in p for p in self.world.state["players"])


def shown_count(hand: Mapping[str, Any], owner: str, viewer: str | None) -> int:
    """How many cards a view's ``hand`` of ``owner`` shows ``viewer`` (a RuleViolation if it
    does not say)."""
    if hand.get("count") is None:
        raise RuleViolation(f"{viewer or 'a spectator'} is not shown how many cards "
                            f"{owner} holds")
    return int(hand["count"])
