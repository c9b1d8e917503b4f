"""One scenario's world: the state the Given steps build, and the engine it runs on.

Given steps only write into ``state`` (plain protocol data); the first When
or Then step sends it to the engine with ``setup``. Every action's reply is
kept, so that a rejection nobody expected fails the scenario instead of
slipping by, and every rejection is checked to have changed nothing. Every
action is also kept with the referee's view before and after it (``history``),
so that a failed check can be charged to the rule that was really broken
(``oracle.scenario.diagnosis``).
"""

from __future__ import annotations

import copy
import functools
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from oracle.engines import EngineClient
from oracle.protocol import (
    REFEREE,
    Accepted,
    Act,
    Choose,
    Errored,
    Observe,
    Ready,
    Rejected,
    Reply,
    Setup,
    Unsupported,
    View,
)
from oracle.scenario.cards import CardTable
from oracle.scenario.diagnosis import Blame, Transition, diagnose, governing
from oracle.scenario.outcomes import (
    EngineFault,
    EngineLacks,
    RuleViolation,
    ScenarioError,
    UnexpectedRejection,
)
from oracle.suite.dsl import Card, Pile, describe_cards
from oracle.suite.games import Game
from oracle.suite.governs import REFUSAL_CHANGES_NOTHING, action_key


@dataclass(frozen=True)
class ActionRecord:
    """An action the scenario sent and the engine's answer."""

    text: str
    action: Mapping[str, Any]
    reply: Reply
    #: The step that sent it, (line, keyword, text), when a run says which step is running.
    step: tuple[int, str, str] | None = None
    #: The action's type ("draw", "play", ...) or "choose".
    kind: str = ""


class ScenarioWorld:
    """The state of one scenario run against one engine."""

    def __init__(self, game: Game, client: EngineClient, seed: int,
                 rules: tuple[str, ...] = ()) -> None:
        self.game = game
        self.client = client
        self.seed = seed
        #: The rule ids the scenario is written for (its tags).
        self.rules = rules
        self.state: dict[str, Any] = {"players": []}
        self.started = False
        self.last: ActionRecord | None = None
        #: The step running now, (line, keyword, text), as a run tells it (the plugin's
        #: before-step hook): an action remembers the step that sent it.
        self.step: tuple[int, str, str] | None = None
        self._unchecked: ActionRecord | None = None
        #: The actions the step running now has sent ('Alice plays card A' sends the play,
        #: then everyone's pass): a failure names the step's own action, not its last one.
        self._step_records: list[ActionRecord] = []
        #: Views already asked for (per viewer) since the last request that could change the
        #: game: a step that looks twice, or the referee's view before an action that a step
        #: just looked at, is not asked for again.
        self._seen: dict[str | None, Mapping[str, Any]] = {}
        #: Every action sent: (step text, action, reply, referee view before, view after).
        self.history: list[tuple[str, str, Mapping[str, Any], Reply, Mapping[str, Any],
                                 Mapping[str, Any] | None]] = []
        info = client.info()
        if game.id not in info.games:
            raise EngineLacks(f"engine {info.name!r} does not play {game.id!r}")
        self.capabilities = info.capabilities
        self.cards = CardTable(game, info.capabilities, seed)

    def prepare(self, steps: list[tuple[str, str]]) -> None:
        """Before the first step: the scenario is unsupported, and nothing is sent, unless
        the engine declares every capability its steps need (``oracle.scenario.requirements``).
        """
        from oracle.scenario.requirements import needs, played_variables

        self.cards.played = played_variables(self.game, steps)
        self.require(*needs(self, steps))

    # -- building the state (Given) ---------------------------------------------

    def require(self, *capabilities: str) -> None:
        """Mark the scenario unsupported unless the engine declares every capability."""
        declared = self.capabilities
        for capability in capabilities:  # every step asks: no list unless one is missing
            if capability not in declared:
                missing = [c for c in capabilities if c not in declared]
                raise EngineLacks(f"the engine does not declare {', '.join(missing)}")

    def given(self) -> dict[str, Any]:
        """The state under construction; only before the engine has been set up."""
        if self.started:
            raise ScenarioError("a Given step came after the game started; put Given steps "
                                "before the first When or Then step")
        return self.state

    def add_players(self, names: Iterable[str]) -> None:
        players = self.given()["players"]
        for name in names:
            if any(p["name"] == name for p in players):
                raise ScenarioError(f"player {name!r} is listed twice")
            players.append({"name": name})

    def player(self, name: str) -> dict[str, Any]:
        """A player's entry in the state under construction."""
        for p in self.given()["players"]:
            if p["name"] == name:
                return p
        known = ", ".join(p["name"] for p in self.state["players"]) or "none yet"
        raise ScenarioError(f"{name!r} is not a player (players: {known}); add a step like "
                            f"'Given the players are {name} and Bob' first")

    def deck(self, name: str) -> dict[str, Any]:
        decks = self.given().setdefault("decks", {})
        if name not in self.game.cards and self.game.cards:
            raise ScenarioError(f"{self.game.id} has no {name!r} deck "
                                f"(decks: {', '.join(self.game.cards)})")
        return decks.setdefault(name, {"draw": [], "discard": []})

    def names(self, cards: tuple[Card, ...] | list[Card]) -> list[str]:
        """Card words (quoted names, ``card A``) as the names the engine is told."""
        return self.cards.names(cards)

    def cards_for(self, deck: str | None, pile: Pile) -> list[str]:
        """The concrete cards a Given pile description stands for (filler included): a
        pile of ``deck``, or a hand (``None``: filler of any deck)."""
        named = self.names(pile.cards)
        filler = pile.hidden + pile.others
        if not filler:
            return named  # nothing to pick, so nothing to avoid (the state is not searched)
        # Filler avoids every card the scenario names, bound variables included, so that a
        # check of card A can only see the card A the scenario placed; when the deck has too
        # few cards for that, it still avoids this pile's named cards and the bound
        # variables, which checks name, and repeats cards only filler placed. It never puts
        # more copies of a card in the state than the deck has.
        named_here = set(named) | set(self.cards.bindings.values())
        mentioned = self._mentioned_cards() | named_here
        placed = self.placed_cards() + Counter(named)
        return [*named, *self.cards.filler(deck, filler, mentioned, named_here, placed)]

    def _mentioned_cards(self) -> set[str]:
        text = json.dumps(self.state)
        return {name for name, quoted in _quoted_card_names(self.game) if quoted in text}

    def placed_cards(self) -> Counter[str]:
        """The copies of each card the state under construction holds (hands, piles, and
        wherever else a game's state puts cards: EU displays and characters)."""
        names = {name for name, _ in _quoted_card_names(self.game)}
        found: Counter[str] = Counter()
        stack: list[Any] = [self.state]
        while stack:
            value = stack.pop()
            if isinstance(value, str):
                if value in names:
                    found[value] += 1
            elif isinstance(value, Mapping):
                stack.extend(v for k, v in value.items() if k != "name")
            elif isinstance(value, list):
                stack.extend(value)
        return found

    # -- talking to the engine (When) -------------------------------------------

    def start(self) -> None:
        """Send the built state to the engine, once."""
        if self.started:
            return
        self.started = True
        self.client.transcript.clear()
        self._seen.clear()
        # No copy of the state: Given steps cannot change it from now on, and the client
        # hands the engine a copy of every request.
        reply = self.client.send(Setup(self.game.id, self.state, self.seed))
        if isinstance(reply, Unsupported):
            raise EngineLacks(f"setup: {reply.reason}")
        if not isinstance(reply, Ready):
            raise EngineFault(f"the engine could not set up the scenario's state: {_say(reply)}")

    def act(self, text: str, action: Mapping[str, Any]) -> Reply:
        """Send an action; remember the reply for the Then steps."""
        return self._send(text, Act(action), action)

    def choose(self, text: str, player: str, choice: Mapping[str, Any]) -> Reply:
        return self._send(text, Choose(player, choice), {"choose": choice, "player": player})

    def _send(self, text: str, request: Act | Choose, action: Mapping[str, Any]) -> Reply:
        self.settle()
        before = self.referee_view()
        self._seen.clear()
        reply = self.client.send(request)
        kind = "choose" if isinstance(request, Choose) else str(action.get("type"))
        if isinstance(reply, Unsupported):
            raise EngineLacks(f"{text}: {reply.reason}")
        if not isinstance(reply, (Accepted, Rejected)):
            raise EngineFault(f"{text}: {_say(reply)}", (text, kind, action))
        if self.step is None or self.last is None or self.last.step != self.step:
            self._step_records = []
        self.last = ActionRecord(text, action, reply, self.step, kind)
        self._step_records.append(self.last)
        self.history.append((text, kind, action, reply, before, None))
        if isinstance(reply, Rejected):
            self._unchecked = self.last
            after = self.referee_view()
            self.history[-1] = (text, kind, action, reply, before, after)
            if after != before:
                raise RuleViolation(
                    f"the engine rejected '{text}' ({reply.reason}) but changed the game "
                    f"anyway: {_diff(before, after)}. A rejected action must change nothing.",
                    concept=REFUSAL_CHANGES_NOTHING)
        return reply

    def settle(self) -> None:
        """Fail if the previous action was rejected and no step expected that."""
        self.start()
        if self._unchecked is not None:
            record, self._unchecked = self._unchecked, None
            assert isinstance(record.reply, Rejected)
            rule = f" citing {record.reply.rule}" if record.reply.rule else ""
            raise UnexpectedRejection(
                f"the engine rejected '{record.text}'{rule}: {record.reply.reason!r}; the "
                "scenario expects it to be allowed (add 'Then the action is rejected' if "
                "the rules forbid it)", record.step,
                (record.text, record.kind, record.action))

    def expect_rejected(self) -> Rejected:
        """The last action, which the scenario says the rules forbid."""
        self.start()
        if self.last is None:
            raise ScenarioError("'Then the action is rejected' needs a When step before it")
        record, self._unchecked = self.last, None
        if not isinstance(record.reply, Rejected):
            sent = [r.text for r in self._step_records] or [record.text]
            then = "".join(f" and then '{text}'" for text in sent[1:])
            raise RuleViolation(f"the engine allowed '{sent[0]}'{then}, which the rule forbids")
        return record.reply

    def expect_allowed(self) -> Accepted:
        """The last action, which the scenario says the rules allow."""
        self.start()
        if self.last is None:
            raise ScenarioError("'Then the action is allowed' needs a When step before it")
        record, self._unchecked = self.last, None
        if not isinstance(record.reply, Accepted):
            assert isinstance(record.reply, Rejected)
            rule = f" citing {record.reply.rule}" if record.reply.rule else ""
            raise RuleViolation(f"the engine rejected '{record.text}'{rule}: "
                                f"{record.reply.reason!r}; the rules allow it")
        return record.reply

    def finish(self) -> None:
        """Called after the last step passed: no rejection may be left unchecked."""
        self.settle()

    def transitions(self) -> list[Transition]:
        """The actions sent so far with the referee's views around each (asks for the view
        after the last one, the only one not seen yet)."""
        out: list[Transition] = []
        given = copy.deepcopy(self.state)
        for i, (text, kind, action, reply, before, after) in enumerate(self.history):
            if after is None:
                after = (self.history[i + 1][4] if i + 1 < len(self.history)
                         else self.referee_view())
            out.append(Transition(text, kind, action, isinstance(reply, Accepted), before,
                                  after, given))
        return out

    def blame(self, failure: RuleViolation | EngineFault) -> Blame | None:
        """The rule to charge for a failed check, or for an engine error answering an
        action, when it is not one of the scenario's own (``oracle.scenario.diagnosis``):
        a concept's rule, a diagnostic's, the rule governing an action the scenario needed
        (refused or errored); a Blame with no rule for a check no sentence states; None when
        the scenario's own rule is to blame (or, for an error, nothing else is)."""
        own = set(self.rules)
        unstated = self.game.governs.unstated
        concept = getattr(failure, "concept", None)
        if concept:
            rule = self.game.concept_rule(concept)
            if rule is not None:
                return Blame(rule, concept, str(failure)) if rule not in own else None
            if concept in unstated:
                return Blame(None, concept, f"{failure} ({unstated[concept]})")
        if not self.history and failure.sent is None:
            return None
        if self.history:
            found = diagnose(self.transitions(), self.game.diagnostic_checks,
                             self.game.concept_rule, unstated)
            if found is not None:
                if found.rule is None:
                    return Blame(None, found.concept,
                                 f"{found.message} ({unstated[found.concept]})")
                return found if found.rule not in own else None
        if failure.sent is None:
            return None
        text, kind, action = failure.sent
        key = action_key(kind, action)
        governs = self.game.governs
        return governing(text, key, governs.rules(key), own,
                         error=isinstance(failure, EngineFault),
                         ungoverned=governs.ungoverned.get(key))

    # -- looking (Then) ------------------------------------------------------------

    def view(self, viewer: str | None) -> Mapping[str, Any]:
        # A view already asked for since the last request is answered at once (exploration
        # looks at each viewer's view many times a state); there is nothing to settle then.
        if self._unchecked is None and self.started:
            seen = self._seen.get(viewer)
            return seen if seen is not None else self._observe(viewer)
        self.settle()
        return self._observe(viewer)

    def referee_view(self) -> Mapping[str, Any]:
        """What the referee sees now (asked again only after an action or a setup)."""
        return self._observe(REFEREE)

    def _observe(self, viewer: str | None) -> Mapping[str, Any]:
        seen = self._seen.get(viewer)
        if seen is not None:
            return seen
        request = _OBSERVES.get(viewer)
        if request is None:
            request = _OBSERVES[viewer] = Observe(viewer)
        reply = self.client.send(request)
        if isinstance(reply, Unsupported):
            raise EngineLacks(f"observe as {viewer!r}: {reply.reason}")
        if not isinstance(reply, View):
            raise EngineFault(f"observe as {viewer!r}: {_say(reply)}")
        self._seen[viewer] = reply.view
        return reply.view

    def hand(self, owner: str, viewer: str | None) -> tuple[int, list[str] | None]:
        """(count, names the viewer can see) of ``owner``'s hand, as ``viewer`` sees it;
        the names are None when the engine does not know what this viewer may see."""
        view = self.view(viewer)
        try:
            hand = view["players"][owner]["hand"]
            if hand["count"] is None:
                raise RuleViolation(f"{viewer or 'a spectator'} is not shown how many cards "
                                    f"{owner} holds", concept="hand-size-public")
            cards = hand.get("cards", [])
            return int(hand["count"]), None if cards is None else list(cards)
        except (KeyError, TypeError, ValueError) as exc:
            raise EngineFault(f"the view for {viewer!r} has no players.{owner}.hand with a "
                              f"count ({exc!r}); see docs/protocol.md") from exc

    def pile(self, deck: str, which: str,
             viewer: str | None = REFEREE) -> tuple[int, list[str] | None]:
        """(count, cards top first or None when unknown) of a deck's draw or discard pile,
        as ``viewer`` sees it (the referee unless told)."""
        view = self.view(viewer)
        try:
            entry = view["decks"][deck][which]
        except (KeyError, TypeError) as exc:
            whose = "the referee" if viewer == REFEREE else (viewer or "a spectator")
            raise EngineFault(f"the view for {whose} has no decks.{deck}.{which} "
                              f"({exc!r}); see docs/protocol.md") from exc
        if isinstance(entry, list):
            return len(entry), list(entry)
        return int(entry.get("count", 0)), entry.get("cards")

    def pending(self) -> list[Mapping[str, Any]]:
        return list(self.view(REFEREE).get("pending") or [])


#: The observe request of each viewer (a frozen value: one per viewer serves every world).
_OBSERVES: dict[str | None, Observe] = {}


def check_pile(what: str, pile: Pile, count: int, cards: list[str] | None, *, hand: bool) -> None:
    """Compare what a Then step expects of a hand or a pile with what the engine shows.

    For a hand, ``pile.hidden`` cards are ones the viewer must *not* see, and
    order never matters. For a deck or discard pile (seen by the referee),
    hidden and "other" cards are the unnamed cards below the named ones.
    """
    if count != pile.count:
        shown = f" ({describe_cards(cards)})" if cards else ""
        raise RuleViolation(f"{what} has {count} card(s){shown}; expected {pile.count}")
    if not pile.names_matter:
        return
    if cards is None and hand:  # "cards": null, docs/protocol.md "No viewers"
        if not pile.count:
            return  # an empty hand shows no names to anybody
        raise EngineLacks(f"{what}: the engine does not say which cards this viewer may see")
    if cards is None:
        raise EngineFault(f"{what}: the engine does not list the cards to the referee")
    if hand:  # the viewer sees exactly the named cards plus the "other" ones
        ok = not Counter(pile.cards) - Counter(cards) and len(cards) == pile.count - pile.hidden
    elif pile.any_order:
        ok = not Counter(pile.cards) - Counter(cards)
    else:
        ok = cards[: len(pile.cards)] == list(pile.cards)
    if not ok:
        expected = describe_cards(pile.cards)
        if pile.hidden:
            expected += f" and {pile.hidden} hidden card(s)"
        if pile.others:
            expected += f" and {pile.others} other card(s)"
        order = " in any order" if pile.any_order else ("" if hand else ", from the top")
        raise RuleViolation(f"{what} shows {describe_cards(cards)}; expected {expected}{order}")


def _say(reply: Reply) -> str:
    if isinstance(reply, Errored):
        tail = reply.context.get("traceback") or reply.context.get("reply") or ""
        return f"engine error: {reply.message}" + (f"\n{tail}" if tail else "")
    return f"unexpected reply {reply!r}"


def _diff(before: Any, after: Any, path: str = "") -> str:
    """The first place two views differ, for messages."""
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for key in sorted(set(before) | set(after), key=str):
            if before.get(key) != after.get(key):
                return _diff(before.get(key), after.get(key), f"{path}.{key}" if path else key)
    return f"{path or 'view'} was {before!r}, is now {after!r}"


@functools.lru_cache(maxsize=256)
def _quoted_card_names(game: Game) -> tuple[tuple[str, str], ...]:
    """Each card of the game with its name as JSON writes it (quoted), to find the cards a
    state names in its JSON text: made once per game, not once per pile and card."""
    return tuple((c["name"], json.dumps(c["name"])) for cards in game.cards.values()
                 for c in cards)
