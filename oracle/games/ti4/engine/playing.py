"""Playing a TI4 action card: the timing checks, the play, and its resolution.

Why apart: a play passes the checks of ``PLAY_CHECKS`` in order (the first refusal wins),
then waits on the being-played stack (``oracle.games.kit.stack``) until the players pass; a
Sabotage answers another card there, and a cancelled card is disposed of (ti4:2.8).
"""

from __future__ import annotations

from typing import Any

from oracle.games.kit import JSON, Rejection, RequestError, UnsupportedRequest
from oracle.games.kit import count as _count
from oracle.games.kit import str_list as _str_list
from oracle.games.ti4.cards import SABOTAGE, CardFact, CardModel
from oracle.games.ti4.engine.state import RULE_2_6, RULE_2_6_1, RULE_2_6_2, RULE_2_7, PlayRecord


class Playing:
    """When a card may be played (ti4:2.6 and its sub-rules), and how it resolves."""

    #: The checks a ``play`` must pass, in order; each returns a Rejection or None.
    PLAY_CHECKS: tuple[str, ...] = (
        "check_play_not_pending",
        "check_in_hand",
        "check_timing",
        "check_not_self_target",
        "check_required_objects",
        "check_target_choice",
        "check_zero_targets",
        "check_fully_resolvable",
        "check_same_name",
    )

    #: ti4:2.8: a card cancelled by a Sabotage is disposed of (``dispose_cancelled``);
    #: ti4:2.7: any other resolves (``resolve_card``). See ``oracle.games.kit.stack``.
    VOID_FLAG = "cancelled"
    DISPOSE_VOID = "dispose_cancelled"
    RESOLVE_PLAYED = "resolve_card"

    def model(self, card: str) -> CardModel | None:
        """The structured effect of ``card``, if the engine models one."""
        return self.models.get(card)

    def is_component_action(self, fact: CardFact) -> bool:
        """ti4:2.6.1: a card whose timing is "Action" is resolved as a component action."""
        return fact.is_component_action

    def responds_to_plays(self, fact: CardFact) -> bool:
        """ti4:2.6: Sabotage's timing window is another player playing an action card."""
        return fact.name == SABOTAGE

    def check_nothing_being_played(self, doing: str) -> Rejection | None:
        """ti4:2.7: a card being played resolves (or is cancelled) before the game goes on."""
        if self.g.being_played:
            top = self.g.being_played[-1]
            return Rejection(
                f"{top.player}'s {top.card!r} is being played: resolve it before you {doing}",
                RULE_2_7,
            )
        return None

    def check_in_hand(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.7: a player plays a card from their own hand."""
        if fact.name not in self.g.players[name].hand:
            return Rejection(f"{name} has no {fact.name!r} in hand", RULE_2_7)
        return None

    def check_timing(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.6: the card's timing paragraph says when it may be played."""
        if self.responds_to_plays(fact):
            return self.check_sabotage_window(name, fact, targets)
        blocked = self.check_nothing_being_played(f"play {fact.name!r}")
        if blocked is not None:
            return blocked
        if self.is_component_action(fact):
            return self.check_component_action_timing(name, fact)
        return self.check_window(name, fact)

    def check_component_action_timing(self, name: str, fact: CardFact) -> Rejection | None:
        """ti4:2.6.1: a component action: action phase, own turn, one action per turn."""
        game = self.g
        if game.phase != "action":
            return Rejection(
                f"{fact.name!r} is a component action: it needs the action phase", RULE_2_6_1
            )
        if game.active_player != name:
            return Rejection(
                f"{fact.name!r} is a component action: only the active player may play it",
                RULE_2_6_1,
            )
        if game.action_taken:
            return Rejection(f"{name} has already performed an action this turn", RULE_2_6_1)
        return None

    def phase_matches(self, fact: CardFact) -> bool:
        """ti4:2.6: the card's phase is the current one ("Any" fits every phase)."""
        return fact.phase.casefold() in ("any", self.g.phase)

    def window_matches(self, fact: CardFact) -> bool:
        """ti4:2.6: the card's timing window is the one that is open."""
        return self.g.window == fact.window

    def in_event_window(self, name: str, fact: CardFact) -> bool:
        """ti4:2.6: the card's window is one the current timing event opens to this player."""
        return fact.window in self.event_windows(name)

    def check_window(self, name: str, fact: CardFact) -> Rejection | None:
        """ti4:2.6: a non-component card needs its own timing window, in its phase; a window
        a timing event opens is open to the players its wording names ("your", "another
        player's")."""
        if not self.window_matches(fact) and not self.in_event_window(name, fact):
            event = self.g.event
            if event is not None and fact.window in event["windows"]:
                return Rejection(f"{fact.name!r} is played {fact.window!r}, and that moment of "
                                 f"the {event['event'].replace('_', ' ')} is not {name}'s",
                                 RULE_2_6)
            return Rejection(
                f"{fact.name!r} is played {fact.window!r}; the open window is {self.g.window!r}",
                RULE_2_6,
            )
        if not self.phase_matches(fact):
            return Rejection(
                f"{fact.name!r} is played in the {fact.phase.lower()} phase, not the "
                f"{self.g.phase} phase",
                RULE_2_6,
            )
        return None

    def may_respond_to(self, name: str, record: PlayRecord) -> bool:
        """ti4:2.6: Sabotage answers another player's card that is not itself a Sabotage."""
        return record.player != name and record.card != SABOTAGE and not record.cancelled

    def sabotage_target(self, name: str, targets: JSON) -> PlayRecord | None:
        """The card a Sabotage cancels: the named one, else the latest eligible one."""
        wanted = targets.get("card")
        for record in reversed(self.g.being_played):
            if (wanted is None or record.card == wanted) and self.may_respond_to(name, record):
                return record
        return None

    def check_sabotage_window(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.6: Sabotage needs another player's non-Sabotage card being played."""
        if self.sabotage_target(name, targets) is not None:
            return None
        wanted = targets.get("card")
        what = f"{wanted!r}" if wanted else "an action card"
        return Rejection(
            f"{fact.name!r} is played when another player plays {what} other than "
            f"{SABOTAGE!r}, and no such card is being played",
            RULE_2_6,
        )

    def occurrence(self, name: str, fact: CardFact, targets: JSON) -> tuple[Any, ...]:
        """ti4:2.6.2: which occurrence of a timing window a card is played in.

        A component action's window is the turn; a Sabotage's is the play of the card it
        answers; every other card's is the current occurrence of the open window (a new
        ``window`` action or turn starts a new one).
        """
        if self.responds_to_plays(fact):
            target = self.sabotage_target(name, targets)
            return ("play", target.seq if target else None)
        if self.is_component_action(fact):
            return ("turn", self.g.turn)
        if self.in_event_window(name, fact):
            return ("event", self.g.event_seq)
        return ("window", self.g.window_occurrence)

    def target_key(self, fact: CardFact, targets: JSON, name: str) -> tuple[str, Any] | None:
        """ti4:2.6.2: what a card affects: a unit, a law, a player, a card, or the game effect."""
        for kind in ("unit", "law", "player", "planet"):
            if kind in targets:
                return (kind, targets[kind])
        model = self.model(fact.name)
        if model is not None and model.target == "discarded" and "card" in targets:
            return ("discarded", targets["card"])
        if model is not None and model.subject == "roll" and self.in_event_window(name, fact):
            return ("roll", self.g.event_seq)
        if self.responds_to_plays(fact):
            target = self.sabotage_target(name, targets)
            return ("card", target.seq if target else None)
        return None

    def same_effect(self, a: tuple[str, Any] | None, b: tuple[str, Any] | None) -> bool:
        """ti4:2.6.2: two plays hit the same thing (or both the untargeted game effect)."""
        return a == b

    def check_same_name(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.6.2: one card of a name per window occurrence and target; cancelled don't count."""
        occurrence = self.occurrence(name, fact, targets)
        key = self.target_key(fact, targets, name)
        live = [r for r in self.g.being_played if not r.cancelled]
        for record in [*self.g.played, *live]:
            if (
                record.card == fact.name
                and record.occurrence == occurrence
                and self.same_effect(record.target_key, key)
            ):
                return Rejection(
                    f"a {fact.name!r} was already played in this timing window to affect the "
                    "same thing",
                    RULE_2_6_2,
                )
        return None

    def may_play(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """Run every play check in ``PLAY_CHECKS`` order; the first refusal wins."""
        for check in self.PLAY_CHECKS:
            rejection = getattr(self, check)(name, fact, targets)
            if rejection is not None:
                return rejection
        return None

    def parse_targets(self, raw: Any) -> JSON:
        """Check the shape of ``targets`` (shape errors are a broken scenario, not a rule)."""
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            raise RequestError(f"play.targets must be an object, got {raw!r}")
        unknown = set(raw) - {"unit", "law", "player", "trade_goods", "card", "planet", "spend"}
        if unknown:
            raise RequestError(f"play.targets: unknown keys {sorted(unknown)}")
        if "spend" in raw:
            spend = raw["spend"]
            if not isinstance(spend, dict) or set(spend) - {"planets"}:
                raise RequestError("play.targets.spend must be {'planets': [names]}")
            _str_list(spend.get("planets", []), "play.targets.spend.planets")
        for key in ("unit", "law", "card", "planet"):
            if key in raw and not isinstance(raw[key], str):
                raise RequestError(f"play.targets.{key} must be a string, got {raw[key]!r}")
        if "player" in raw:
            self.player(raw["player"])
        if "trade_goods" in raw:
            _count(raw["trade_goods"], "play.targets.trade_goods")
        if "card" in raw:
            self.card_fact(raw["card"], "play.targets.card")
        return dict(raw)

    def require_modelled(self, fact: CardFact) -> None:
        """A card the rules allow here but whose effect this engine does not carry out is
        ``unsupported``, never accepted: accepting it would pass a scenario about it."""
        if fact.name not in self.EFFECTS:
            raise UnsupportedRequest(f"this engine does not model the effect of {fact.name!r}",
                                     f"ti4/card/{fact.name}")

    def act_play(self, action: JSON) -> None:
        """ti4:2.6, ti4:2.7: a player starts playing a card; it waits on the stack for resolve."""
        player = self.player(action.get("player"))
        fact = self.card_fact(action.get("card"), "play.card")
        targets = self.parse_targets(action.get("targets"))
        self.require(self.may_play(player.name, fact, targets))
        self.require_modelled(fact)
        game = self.g
        record = PlayRecord(
            seq=game.next_seq,
            player=player.name,
            card=fact.name,
            targets=targets,
            occurrence=self.occurrence(player.name, fact, targets),
            target_key=self.target_key(fact, targets, player.name),
        )
        if self.responds_to_plays(fact):
            target = self.sabotage_target(player.name, targets)
            record.cancels = target.seq if target else None
        game.next_seq += 1
        self.remove_from_hand(player, [fact.name])
        game.being_played.append(record)
        self.emit("playing", player=player.name, card=fact.name, targets=targets)

    def resolve_card(self, record: PlayRecord) -> None:
        """ti4:2.7: pay the cost (ti4:1.12), resolve the ability, then discard the card; it
        counts as played."""
        self.pay_cost(record)
        method = self.EFFECTS.get(record.card)
        if method is not None:
            getattr(self, method)(record)
        self.g.played.append(record)
        if self.is_component_action(self.facts[record.card]):
            self.g.action_taken = True
        self.discard_card(record.card)
        self.emit("resolved", player=record.player, card=record.card)
        self.discarded(self.g.players[record.player], [record.card])

    def dispose_cancelled(self, record: PlayRecord) -> None:
        """ti4:2.8, ti4:note-6: a cancelled card has no effect, is discarded, and is not
        treated as played: its action is not used (a second copy may be played)."""
        self.discard_card(record.card)
        self.emit("cancelled", player=record.player, card=record.card)
        self.discarded(self.g.players[record.player], [record.card])
