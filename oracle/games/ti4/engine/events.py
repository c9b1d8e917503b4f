"""Timing events: what just happened in the game, with its subject, and the windows it opens.

Why apart: an action card's timing paragraph names an event ("after another player's ship
uses SUSTAIN DAMAGE", "at the start of a combat round", "after another player discards an
action card that has a component action"), and its ability often speaks of that event's
subject ("that ship", "that action card"). The engine does not simulate combat, so a
scenario says what happened (an ``event`` act, ``ti4/events``); discards the engine makes
itself. Each event opens the card-facts windows of ``EVENT_WINDOWS`` to the players its
roles name (ti4:2.6, ti4:1.23: the opening paragraph says when, and for whom), starts a new
occurrence of them (ti4:1.20: once per occurrence of the timing event; ti4:2.6.2), and stays
the current event until another event, a ``window`` act or the end of the turn.
"""

from __future__ import annotations

from typing import Any

from oracle.games.kit import JSON, Rejected, Rejection, RequestError
from oracle.games.kit import count as _count
from oracle.games.kit import need as _need
from oracle.games.kit import str_list as _str_list
from oracle.games.ti4.engine.state import RULE_2_1, PlayerState

#: The kinds of roll a ``roll`` event names.
ROLLS = ("space combat", "ground combat", "space cannon", "anti-fighter barrage",
         "bombardment")
#: The status phase's steps, in order (ti4:81.1 to ti4:81.8).
STATUS_STEPS = ("Score Objectives", "Reveal Public Objective", "Draw Action Cards",
                "Remove Command Tokens", "Gain and Redistribute Command Tokens", "Ready Cards",
                "Repair Units", "Return Strategy Cards")
DRAW_STEP = STATUS_STEPS.index("Draw Action Cards") + 1  # ti4:81.3

#: Per event kind, the windows it opens (spelled as the card facts spell them) and, for each,
#: the role whose players may resolve a card there: ``against`` the player whose hits were
#: cancelled or who is hit, ``player`` the one who rolled or discarded, ``owner`` the owner of
#: the units, ``combatants`` both sides of a combat, ``others`` every player but ``player``.
#: A window may hold only for some events of the kind: (window, role, condition).
EVENT_WINDOWS: dict[str, tuple[tuple[str, str, dict[str, Any]], ...]] = {
    "sustain_damage": (
        ("After another player's ship uses SUSTAIN DAMAGE to cancel a hit produced by your "
         "units or abilities", "against", {}),
        ("When one of your ships uses SUSTAIN DAMAGE during combat", "owner", {}),
    ),
    "roll": (
        ("Before you assign hits to your ships during a space combat", "against",
         {"roll": "space combat"}),
        ("After your ground forces make combat rolls during a round of ground combat",
         "player", {"roll": "ground combat"}),
        ("Before you assign hits produced by another player's SPACE CANNON roll", "against",
         {"roll": "space cannon"}),
        ("After another player makes a BOMBARDMENT, SPACE CANNON, or ANTI-FIGHTER BARRAGE roll",
         "against", {"roll": ("space cannon", "anti-fighter barrage", "bombardment")}),
    ),
    "combat_round": (
        ("At the start of a combat round", "combatants", {}),
        ("At the start or end of a combat round", "combatants", {}),
        ("At the start of a [space] combat round", "combatants", {"combat": "space"}),
        ("At the start of a combat", "combatants", {"round": 1}),
        ("At the start of the first round of a space combat", "combatants",
         {"combat": "space", "round": 1}),
    ),
    "discard": (
        ("After another player discards an action card that has a component action",
         "others", {"component_action": True}),
    ),
}


def _holds(event: JSON, condition: dict[str, Any]) -> bool:
    for key, wanted in condition.items():
        options = wanted if isinstance(wanted, tuple) else (wanted,)
        if event.get(key) not in options:
            return False
    return True


class Events:
    """The ``event`` and ``status_step`` acts, the discards the engine reports as events,
    and which windows the current event opens to whom."""

    # -- the current event -----------------------------------------------------------------

    def start_event(self, event: JSON) -> None:
        """ti4:1.20: a new occurrence of a timing event; it opens its windows."""
        game = self.g
        game.event_seq += 1
        game.event = {**event, "windows": [w for w, _, c in EVENT_WINDOWS.get(event["event"], ())
                                           if _holds(event, c)]}
        self.emit("timing_event", kind=event["event"],
                  **{k: v for k, v in event.items() if k != "event"})

    def end_event(self) -> None:
        """The moment of the current event has passed (a new window, the end of a turn)."""
        self.g.event = None

    def event_windows(self, name: str) -> list[str]:
        """ti4:2.6: the windows the current event opens to player ``name`` (its roles)."""
        event = self.g.event
        if event is None:
            return []
        return [w for w, role, c in EVENT_WINDOWS.get(event["event"], ())
                if w in event["windows"] and _holds(event, c) and name in self.role(role, event)]

    def role(self, role: str, event: JSON) -> set[str]:
        """The players a role of an event names."""
        if role in ("against", "player"):
            return {event[role]}
        if role == "combatants":
            return {event["attacker"], event["defender"]}
        if role == "owner":
            return {u["owner"] for u in self.g.units if u["id"] in event.get("units", ())}
        if role == "others":
            return set(self.g.players) - {event["player"]}
        raise ValueError(f"unknown role {role!r}")

    def event_subject(self, kind: str) -> JSON | None:
        """The current event, if it is of this kind."""
        event = self.g.event
        return event if event is not None and event["event"] == kind else None

    # -- what a scenario says happened -----------------------------------------------------

    def act_event(self, action: JSON) -> None:
        """A timing event the engine does not simulate (combat): its windows open."""
        kind = _need(action, "event", str, "event action")
        reader = {"sustain_damage": self.read_sustain_damage, "roll": self.read_roll,
                  "combat_round": self.read_combat_round}.get(kind)
        if reader is None:
            raise RequestError(f"event.event must be one of sustain_damage, roll, "
                               f"combat_round; got {kind!r}")
        event = reader(action)
        self.require(self.check_nothing_being_played("let a timing event happen"))
        self.start_event(event)

    def read_sustain_damage(self, action: JSON) -> JSON:
        """Units (of one player) used SUSTAIN DAMAGE to cancel hits produced by ``against``."""
        against = self.player(action.get("against")).name
        ids = _str_list(action.get("units"), "event.units")
        if not ids or len(set(ids)) != len(ids):
            raise RequestError("event.units must name one or more units, each once")
        units = [self.find_unit(uid) for uid in ids]
        missing = [uid for uid, unit in zip(ids, units, strict=True) if unit is None]
        if missing:
            raise Rejected(Rejection(f"no unit {missing[0]!r} is on the board"))
        owners = {u["owner"] for u in units if u is not None}
        if len(owners) != 1 or against in owners:
            raise RequestError("event.units must belong to one player other than 'against'")
        return {"event": "sustain_damage", "units": ids, "against": against}

    def read_roll(self, action: JSON) -> JSON:
        """``player`` rolled dice of a kind, producing ``hits`` against ``against``."""
        roll = _need(action, "roll", str, "event action")
        if roll not in ROLLS:
            raise RequestError(f"event.roll must be one of {list(ROLLS)}, got {roll!r}")
        player = self.player(action.get("player")).name
        against = self.player(action.get("against")).name
        if player == against:
            raise RequestError("a roll is made against another player")
        return {"event": "roll", "roll": roll, "player": player, "against": against,
                "hits": _count(action.get("hits", 0), "event.hits")}

    def read_combat_round(self, action: JSON) -> JSON:
        """A round of a space or ground combat between an attacker and a defender starts."""
        combat = _need(action, "combat", str, "event action")
        if combat not in ("space", "ground"):
            raise RequestError(f"event.combat must be 'space' or 'ground', got {combat!r}")
        attacker = self.player(action.get("attacker")).name
        defender = self.player(action.get("defender")).name
        if attacker == defender:
            raise RequestError("a combat is fought between two players")
        number = _count(action.get("round", 1), "event.round")
        if number < 1:
            raise RequestError("event.round counts from 1")
        return {"event": "combat_round", "combat": combat, "round": number,
                "attacker": attacker, "defender": defender}

    # -- what the engine does itself --------------------------------------------------------

    def discarded(self, player: PlayerState, cards: list[str]) -> None:
        """A player discarded action cards (played, cancelled, over the limit, Scheming):
        when one has a component action, that is the event of Reverse Engineer's window."""
        if any(self.is_component_action(self.facts[c]) for c in cards if c in self.facts):
            self.start_event({"event": "discard", "player": player.name, "cards": list(cards),
                              "component_action": True})

    # -- the status phase's steps -------------------------------------------------------------

    def status_step_ready(self, step: int) -> Rejection | None:
        """ti4:81: the steps are resolved in order, each once: a step that comes before or
        is the last one resolved is over for this status phase."""
        if self.g.phase != "status":
            return Rejection("the status phase's steps are resolved in the status phase",
                             RULE_2_1)
        if step <= self.g.status_step:
            return Rejection(f"step {step} of the status phase comes before step "
                             f"{self.g.status_step}, which is resolved already", RULE_2_1)
        return None

    def act_status_step(self, action: JSON) -> None:
        """A step of the status phase, by name, in order (ti4:81); "Draw Action Cards" deals
        as ``status_draw`` does (ti4:2.1)."""
        name = _need(action, "step", str, "status_step action")
        if name not in STATUS_STEPS:
            raise RequestError(f"status_step.step must be one of {list(STATUS_STEPS)}, "
                               f"got {name!r}")
        if name == STATUS_STEPS[DRAW_STEP - 1]:
            self.act_status_draw({"type": "status_draw"})
            return
        step = STATUS_STEPS.index(name) + 1
        self.require(self.check_nothing_being_played("go on with the status phase"))
        for pending in self.g.pending:
            self.require(self.check_not_pending(pending.player, "go on with the status phase"))
        self.require(self.status_step_ready(step))
        self.g.status_step = step
        self.start_event({"event": "status_step", "step": name})
