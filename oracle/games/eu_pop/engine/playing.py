"""Playing an EU card, or taking an Action on a Display Card, and countering Covert Actions.

Why apart: a play (or use) passes its timing, cost and card checks, is paid for, and waits on
the being-played stack (``oracle.games.kit.stack``) where Counterespionage may counter it
(6.2.covert.2) until every player passes.
"""

from __future__ import annotations

from typing import Any

from oracle.games.eu_pop.cards import DIE_TYPES, CardFact
from oracle.games.eu_pop.engine.state import (
    COUNTERESPIONAGE,
    COVERT,
    DISPLAY_ACTIONS,
    DISPLAY_OWNER,
    DISPLAY_USES,
    RESOLVE_THEN_DISCARD,
    TURN,
    PlayerState,
    PlayRecord,
)
from oracle.games.kit import (
    JSON,
    Rejected,
    Rejection,
    RequestError,
    UnsupportedRequest,
    need,
    str_list,
)


class Playing:
    """Plays and uses, and Counterespionage."""

    def parse_targets(self, raw: Any) -> JSON:
        """Check the shape of ``targets`` (shape errors are a broken scenario, not a rule)."""
        if raw is None:
            return {}
        if not isinstance(raw, dict) or set(raw) - {"card", "dice"}:
            raise RequestError(f"targets may hold 'card' and 'dice', got {raw!r}")
        if "card" in raw and not isinstance(raw["card"], str):
            raise RequestError("targets.card must be a card or Action name")
        if "dice" in raw:
            dice = str_list(raw["dice"], "targets.dice")
            if any(d not in DIE_TYPES for d in dice):
                raise RequestError(f"targets.dice must name Battle Die types {list(DIE_TYPES)}")
        return dict(raw)

    def counters_covert(self, fact: CardFact) -> bool:
        """6.2.covert.2: Counterespionage is the card that counters Covert Actions."""
        return fact.name == COUNTERESPIONAGE

    def may_counter(self, record: PlayRecord) -> bool:
        """6.2.covert.2: only a Covert Action can be countered."""
        return record.covert and not record.countered

    def counter_target(self, targets: JSON) -> PlayRecord | None:
        """What a Counterespionage answers: the named card or Action, else the latest play."""
        wanted = targets.get("card")
        for record in reversed(self.g.being_played):
            if wanted is None or wanted in (record.card, record.action):
                return record
        return None

    def check_counter(self, targets: JSON) -> Rejection | None:
        """6.2.covert.2: Counterespionage needs a Covert Action being played to counter."""
        target = self.counter_target(targets)
        if target is None:
            return Rejection("Counterespionage needs a Covert Action being played", COVERT)
        if not self.may_counter(target):
            return Rejection(f"{target.name!r} is not a Covert Action: Counterespionage cannot "
                             "counter it", COVERT)
        return None

    def check_timing(self, player: PlayerState, kinds: frozenset[str], what: str,
                     takes_turn: bool, rule_id: str) -> Rejection | None:
        """When a card or Action may be played: a Battle Action's moment, a Reaction any time,
        else a Turn."""
        if self.is_battle_action(kinds):
            return self.check_battle_action(player.name, what)
        if not takes_turn:
            return self.check_reaction(player.name, what)
        return self.check_turn(player.name, f"play {what!r}", rule_id)

    def new_record(self, player: PlayerState, card: str, action: str | None, targets: JSON,
                   covert: bool) -> PlayRecord:
        """A new play (or use), numbered so that a counter can name it."""
        return PlayRecord(self.take_seq(), player.name, card, action, targets, covert)
    def start(self, player: PlayerState, record: PlayRecord, kinds: frozenset[str],
              takes_turn: bool, icons: tuple[str, ...]) -> None:
        """What every play and every use does once allowed: the timing bookkeeping."""
        if self.is_battle_action(kinds):
            self.record_battle_use(player.name, record.name)
            record.dice = self.dice_gained(icons, list(record.targets.get("dice", [])))
        if takes_turn:
            self.spend_turn()
        elif self.is_reaction(kinds):
            self.after_reaction(player.name)
        self.g.being_played.append(record)

    def require_modelled(self, card: str) -> None:
        """A card the rules allow here but whose effect this engine does not carry out is
        ``unsupported``, never accepted: accepting it would pass a scenario about it."""
        if card not in self.modelled_cards():
            raise UnsupportedRequest(f"this engine does not model the effect of {card!r}",
                                     f"eu-pop/card/{card}")

    def act_play(self, action: JSON) -> None:
        """A player plays a card from their hand for its Action (6.action-cards.6)."""
        player = self.player(action.get("player"))
        fact = self.card_fact(action.get("card"), "play.card")
        targets = self.parse_targets(action.get("targets"))
        self.require(self.check_not_pending(player.name, f"play {fact.name!r}"))
        if fact.name not in player.hand:
            raise Rejected(Rejection(f"{player.name} has no {fact.name!r} in hand",
                                     RESOLVE_THEN_DISCARD))
        takes_turn = self.takes_turn(fact)
        self.require(self.check_timing(player, fact.kinds, fact.name, takes_turn, TURN))
        if self.is_display(fact):
            self.require(self.check_display_duplicate(player, fact))
        if self.is_battle_action(fact.kinds):
            self.require(self.check_dice_choice(fact.dice, targets, fact.name))
        if self.counters_covert(fact):
            self.require(self.check_counter(targets))
        cost = self.card_cost(player, fact)
        self.require(self.check_can_pay(player, cost, repr(fact.name)))
        self.require_modelled(fact.name)
        self.pay(player, cost)
        player.hand.remove(fact.name)
        record = self.new_record(player, fact.name, None, targets, self.is_covert(fact.kinds))
        if self.counters_covert(fact):
            target = self.counter_target(targets)
            record.counters = target.seq if target else None
        self.start(player, record, fact.kinds, takes_turn, fact.dice)
        self.emit("playing", player=player.name, card=fact.name, targets=targets)

    def act_use(self, action: JSON) -> None:
        """A player takes one of the Actions on their Display Card (6.2.display.4-7)."""
        player = self.player(action.get("player"))
        fact = self.card_fact(action.get("card"), "use.card")
        what = need(action, "action", str, "use")
        listed = fact.action(what)
        if listed is None:
            raise RequestError(f"{fact.name!r} lists no Action {what!r}")
        targets = self.parse_targets(action.get("targets"))
        self.require(self.check_not_pending(player.name, f"take {what!r}"))
        found = self.find_display(player.name, fact.name)
        if found is None:
            raise Rejected(Rejection(f"{player.name} has no {fact.name!r} on display: its "
                                     "Actions are for the player who played it", DISPLAY_OWNER))
        owner, display = found
        if not self.usable_now(display):
            raise Rejected(Rejection(f"{fact.name!r} was placed this Turn; its Actions are "
                                     "available in subsequent Turns", DISPLAY_OWNER))
        kinds = self.action_kinds(listed)
        takes_turn = self.action_takes_turn(kinds)
        self.require(self.check_timing(player, kinds, what, takes_turn, DISPLAY_ACTIONS))
        if self.is_battle_action(kinds):
            self.require(self.check_dice_choice(listed.dice, targets, what))
        uses = self.uses_of(listed)
        if display.charges < uses:
            raise Rejected(Rejection(f"{what!r} needs {uses} charge(s); {fact.name!r} has "
                                     f"{display.charges}", DISPLAY_USES))
        cost = self.action_cost(player, listed)
        self.require(self.check_can_pay(player, cost, repr(what)))
        self.require_modelled(fact.name)
        self.pay(player, cost)
        record = self.new_record(player, fact.name, what, targets, self.is_covert(kinds))
        self.start(player, record, kinds, takes_turn, listed.dice)
        self.spend_charges(owner, display, uses)
        self.emit("using", player=player.name, card=fact.name, action=what)
