"""One bug, one rule: which rule to charge when a scenario's check fails.

A scenario checks its own rule, but it stands on others: a scenario about dealing order
needs drawing to work, one about the hand limit needs the eighth card to arrive. When an
engine breaks only the rule underneath, charging every scenario that stands on it would
flag four rules for one bug. So when a check fails:

1. a check that is about a fact some other rule states (its ``concept``, mapped to a rule
   by the game) charges that rule;
2. otherwise the game's *diagnostics* judge every action the scenario sent, in order:
   small, conservative checks of what any action of a kind must do whatever the scenario
   (a draw takes cards from the top of the deck, a played card ends in the discard pile),
   each standing for one concept and so for one rule. The first that fails charges its
   rule;
3. otherwise the scenario's own rule fails.

A charged rule that is not the scenario's own makes the scenario ``blocked`` (shown under
its own rule, "blocked by ti4:2.3"), and the failure is charged to the other rule.

An action the scenario needed to go through, refused when no step expected it (or answered
with an engine error), is judged the same way after the diagnostics: the game declares the
sentences that govern each action (``oracle.suite.governs``), and a scenario of none of
their rules is blocked by the first (``governing``). A check no sentence of the catalog
states (the game lists its concept as *unstated*: a pile that loses a card outside any
draw, a state that is not what the scenario set up) charges no rule: the scenario ends
``error`` with what the engine did (a ``Blame`` whose ``rule`` is None). The core knows no
game: concepts, diagnostics and governing sentences come from the game's files.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

View = Mapping[str, Any]


@dataclass(frozen=True)
class Transition:
    """One action the scenario sent, the engine's answer, and the referee's views around it."""

    text: str  # the step, as a person would read it
    kind: str  # the action's type ("draw", "play", ...) or "choose"
    action: Mapping[str, Any]
    accepted: bool
    before: View
    after: View
    #: The state the scenario set up (what its Given steps said, not what the engine made
    #: of it): a diagnostic may read what the rules start from, e.g. a player's modifiers.
    given: View = field(default_factory=dict)


@dataclass(frozen=True)
class Diagnostic:
    """A check every accepted action of some kinds must pass, standing for one concept.

    ``check(history, i)`` judges ``history[i]`` (earlier transitions are there for context,
    e.g. which plays were cancels) and returns what is wrong, or None. A view without the
    data a diagnostic needs makes it inconclusive (it raises KeyError/TypeError/ValueError,
    which is ignored), never a charge.

    With ``rejected=True`` it judges the *rejected* actions of its kinds instead: a refusal
    that the concept's rule does not allow (a Reaction refused off its player's Turn). That
    is how a scenario that needs another rule's action to go through, and sees it refused,
    charges that rule rather than its own.
    """

    concept: str
    check: Callable[[Sequence[Transition], int], str | None]
    kinds: frozenset[str] = frozenset()  # the transitions it judges; empty: all
    rejected: bool = False  # judge rejected actions instead of accepted ones

    def judges(self, transition: Transition) -> bool:
        return (transition.accepted != self.rejected
                and (not self.kinds or transition.kind in self.kinds))


@dataclass(frozen=True)
class Blame:
    """The rule charged for a failed check, and why. ``rule`` None: a check no sentence
    states failed, which is charged to no rule (the scenario ends ``error``)."""

    rule: str | None
    concept: str
    message: str
    #: The engine answered ``errored`` to an action ``rule`` governs: the charge is an
    #: ``error`` of that rule, not a ``fail``.
    error: bool = False


def diagnose(history: Sequence[Transition], diagnostics: Sequence[Diagnostic],
             rule_of: Callable[[str], str | None],
             unstated: Container[str] = ()) -> Blame | None:
    """The first diagnostic that fails on the scenario's actions, in the order they were
    sent: charged to its concept's rule, or to none when the concept is ``unstated``."""
    for i, transition in enumerate(history):
        for diagnostic in diagnostics:
            if not diagnostic.judges(transition):
                continue
            try:
                problem = diagnostic.check(history, i)
            except (KeyError, TypeError, ValueError, IndexError):
                continue  # the views do not show what this diagnostic needs
            rule = rule_of(diagnostic.concept)
            if problem and (rule or diagnostic.concept in unstated):
                return Blame(rule, diagnostic.concept,
                             f"after '{transition.text}': {problem}")
    return None


def governing(text: str, key: str, rules: Sequence[str], own: Container[str],
              error: bool = False, ungoverned: str | None = None) -> Blame | None:
    """The rule to charge for an action the scenario needed that the engine refused (or,
    with ``error``, answered with an error): the first of the rules that govern it
    (``rules``, the game's declaration for its ``key``), unless one of them is the
    scenario's own (then the failure is its own) or the game declares none. An action the
    game declares no sentence governs (``ungoverned``: why) is charged to no rule."""
    what = "answered with an error" if error else "refused"
    if ungoverned is not None:
        return Blame(None, f"ungoverned {key}", f"'{text}', which no sentence of the rules "
                     f"governs ({ungoverned}), was {what}")
    if not rules or any(rule in own for rule in rules):
        return None
    return Blame(rules[0], f"governs {key}",
                 f"'{text}', which {rules[0]} governs, was {what}", error)


# -- reading the shared view shapes (docs/protocol.md, "observe"), for games' diagnostics -------


def hand(view: View, player: str) -> list[str]:
    """The cards of a player's hand in a referee view (KeyError if the view lacks them)."""
    cards = view["players"][player]["hand"]["cards"]
    if cards is None:
        raise KeyError(f"players.{player}.hand.cards")
    return list(cards)


def draw_pile(view: View, deck: str) -> list[str]:
    """A deck's draw pile, top first, in a referee view."""
    entry = view["decks"][deck]["draw"]
    cards = entry if isinstance(entry, list) else entry["cards"]
    if cards is None:
        raise KeyError(f"decks.{deck}.draw.cards")
    return list(cards)


def discard_pile(view: View, deck: str) -> list[str]:
    entry = view["decks"][deck]["discard"]
    return list(entry if isinstance(entry, list) else entry["cards"])


def gained(before: list[str], after: list[str]) -> list[str]:
    """The cards in ``after`` beyond the multiset ``before`` (what arrived)."""
    rest = list(before)
    out = []
    for card in after:
        if card in rest:
            rest.remove(card)
        else:
            out.append(card)
    return out


def hands_gained(transition: Transition) -> dict[str, list[str]]:
    """Per player, the cards their hand gained in a transition."""
    return {p: gained(hand(transition.before, p), hand(transition.after, p))
            for p in transition.after["players"]}


def contains(have: list[str], wanted: list[str]) -> bool:
    """Is ``wanted`` a sub-multiset of ``have``?"""
    return not gained(have, wanted)


def hands_as_set_up(history: Sequence[Transition], i: int) -> str | None:
    """Before the first action, every hand holds what the scenario set up (none for a
    player given no hand): docs/protocol.md's ``setup``. A game whose rules state how a hand
    starts maps this concept to that rule; another lists it as unstated, and an engine that
    deals at setup ends the scenario error, charged to no rule."""
    if i:
        return None
    t = history[0]
    for entry in t.given.get("players") or ():
        name = entry["name"]
        shown = hand(t.before, name)
        if sorted(shown) != sorted(entry.get("hand") or ()):
            return (f"{name} was set up holding {sorted(entry.get('hand') or ())} and the "
                    f"engine shows {sorted(shown)} before the first action")
    return None
