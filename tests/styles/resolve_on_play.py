"""Style: resolve on play, with a partial card set (docs/protocol.md, "Adapter patterns").
Written from that page alone.

The engine is a mutable table where playing a card resolves it at once: there is no moment
in which another player could react. It knows phases, turns, timing windows and units, and
carries out three cards (Lucky Shot, Insubordination, Morale Boost); it holds any other card
but cannot play it. It does not draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import ti4_card_facts

JSON = dict[str, Any]

# == the engine ==========================================================================

SHIPS_LUCKY_SHOT = {"dreadnought", "cruiser", "destroyer"}
UNIT_TYPES = {"dreadnought", "carrier", "cruiser", "destroyer", "fighter", "flagship",
              "war sun", "infantry", "mech", "pds", "space dock"}
OFFENSIVE = {"Lucky Shot", "Insubordination"}


class Illegal(Exception):
    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.rule = rule


@dataclass
class Player:
    name: str
    hand: list[str]
    tokens: dict[str, int] = field(default_factory=lambda: {"tactic": 3, "fleet": 3,
                                                             "strategy": 2})


@dataclass
class Table:
    """A TI4 table; ``play`` checks everything first, then resolves the card at once."""

    players: dict[str, Player]
    order: list[str]  # initiative order
    phase: str
    active: str | None
    window: str | None
    units: list[JSON]
    discard: list[str] = field(default_factory=list)
    action_taken: bool = False
    occurrence: int = 0  # counts window openings and turns
    turn: int = 0
    played: list[tuple[str, Any, Any]] = field(default_factory=list)  # (card, when, what)
    facts: dict[str, JSON] = field(default_factory=ti4_card_facts)

    def open_window(self, window: str) -> None:
        self.window = window
        self.occurrence += 1

    def end_turn(self, name: str) -> None:
        if self.phase != "action" or self.active != name:
            raise Illegal(f"{name} is not the active player")
        self.active = self.order[(self.order.index(name) + 1) % len(self.order)]
        self.turn += 1
        self.action_taken = False
        self.open_window("Action")

    def play(self, name: str, card: str, target: JSON) -> None:
        player = self.players[name]
        fact = self.facts[card]
        if card not in player.hand:
            raise Illegal(f"{name} has no {card!r} in hand", "ti4:2.7")
        component = fact["window"] == "Action"
        when: Any = ("turn", self.turn) if component else ("window", self.occurrence)
        if component:
            if self.phase != "action" or self.active != name:
                raise Illegal(f"{card!r} is a component action of the active player",
                              "ti4:2.6.1")
            if self.action_taken:
                raise Illegal(f"{name} has already taken an action this turn", "ti4:2.6.1")
        elif fact["window"] != self.window or fact["phase"].lower() not in ("any", self.phase):
            raise Illegal(f"{card!r} is not played now (window {self.window!r})", "ti4:2.6")
        what = self.check_target(name, card, target)
        if any(c == card and w == when and t == what for c, w, t in self.played):
            raise Illegal(f"a {card!r} already affected that in this window", "ti4:2.6.2")
        # legal: resolve at once
        player.hand.remove(card)
        self.resolve(name, card, target)
        self.played.append((card, when, what))
        if component:
            self.action_taken = True
        self.discard.insert(0, card)

    def check_target(self, name: str, card: str, target: JSON) -> Any:
        if card == "Lucky Shot":
            unit = next((u for u in self.units if u["id"] == target.get("unit")), None)
            if unit is None:
                raise Illegal(f"no unit {target.get('unit')!r} on the board", "ti4:note-9")
            if unit["owner"] == name:
                raise Illegal("Lucky Shot cannot target your own unit", "ti4:note-7")
            if unit["type"] not in SHIPS_LUCKY_SHOT:
                raise Illegal(f"Lucky Shot cannot target a {unit['type']}", "ti4:note-9")
            return ("unit", unit["id"])
        if card == "Insubordination":
            other = target.get("player")
            if other == name:
                raise Illegal("Insubordination cannot target yourself", "ti4:note-7")
            if other not in self.players:
                raise Illegal("Insubordination targets another player", "ti4:2.7")
            if self.players[other].tokens["tactic"] < 1:
                raise Illegal(f"{other} has no tactic token to remove", "ti4:2.6.1")
            return ("player", other)
        return None  # Morale Boost: its own effect, on each of the player's units (or none)

    def resolve(self, name: str, card: str, target: JSON) -> None:
        if card == "Lucky Shot":
            self.units = [u for u in self.units if u["id"] != target["unit"]]
        elif card == "Insubordination":
            self.players[target["player"]].tokens["tactic"] -= 1


MODELLED = {"Lucky Shot", "Insubordination", "Morale Boost"}

# == the adapter ==========================================================================

STATE_KEYS = {"players", "decks", "phase", "window", "active_player", "initiative", "units"}
PLAYER_KEYS = {"name", "hand", "command_tokens"}


class Adapter:
    def __init__(self) -> None:
        self.table: Table | None = None
        self.facts = ti4_card_facts()

    def handle(self, request: JSON) -> JSON:
        op = request["op"]
        if op == "describe":
            return {"reply": "described", "engine": {
                "name": "test engine: resolve on play", "version": "1", "protocol": 1,
                "games": [{"game": "ti4"}],
                "capabilities": ["ti4/play", "ti4/units", "ti4/windows",
                                 *(f"ti4/card/{c}" for c in sorted(MODELLED))]}}
        try:
            if op == "setup":
                return self.setup(request["state"])
            if self.table is None:
                return {"reply": "errored", "message": "no game is set up"}
            if op == "observe":
                return {"reply": "view", "view": self.view(request["viewer"])}
            if op == "choose":
                self.known(request["player"])
                return {"reply": "rejected", "reason": "this engine never asks for a decision"}
            return self.act(request["action"])
        except Illegal as exc:
            reply = {"reply": "rejected", "reason": str(exc)}
            return {**reply, "rule": exc.rule} if exc.rule else reply
        except LookupError as exc:
            return {"reply": "errored", "message": str(exc.args[0])}

    def act(self, action: JSON) -> JSON:
        table = self.table
        assert table is not None
        kind = action["type"]
        if kind == "play":
            self.known(action["player"])
            card = self.card(action["card"])
            targets = action.get("targets") or {}
            if "card" in targets:
                return {"reply": "unsupported", "reason": "this engine resolves a card at "
                        "once: nothing is being played to react to"}
            if card not in MODELLED:
                return {"reply": "unsupported", "reason": f"this engine does not model {card!r}",
                        "capability": f"ti4/card/{card}"}
            if "player" in targets:
                self.known(targets["player"])
            table.play(action["player"], card, targets)
        elif kind == "resolve":
            pass  # the card resolved when it was played: nothing is being played
        elif kind == "window":
            table.open_window(action["window"])
        elif kind == "end_turn":
            self.known(action["player"])
            table.end_turn(action["player"])
        else:
            return {"reply": "unsupported", "reason": f"this engine has no {kind!r} action"}
        return {"reply": "accepted"}

    def known(self, name: str) -> None:
        if self.table is None or name not in self.table.players:
            raise LookupError(f"unknown player {name!r}")

    def card(self, name: str) -> str:
        if name not in self.facts:
            raise LookupError(f"no action card named {name!r}")
        return name

    def setup(self, state: JSON) -> JSON:
        self.table = None
        extra = set(state) - STATE_KEYS | {k for p in state["players"] for k in p} - PLAYER_KEYS
        if extra:
            return {"reply": "unsupported", "reason": f"this engine has no {sorted(extra)}"}
        if state.get("decks", {}).get("action", {}).get("draw"):
            return {"reply": "unsupported", "reason": "this engine has no draw pile"}
        # An absent deck: this engine holds no draw pile at all (docs/protocol.md, setup).
        players = {}
        for p in state["players"]:
            tokens = {"tactic": 3, "fleet": 3, "strategy": 2, **p.get("command_tokens", {})}
            players[p["name"]] = Player(p["name"], [self.card(c) for c in p.get("hand", [])],
                                        tokens)
        order = state.get("initiative") or list(players)
        phase = state.get("phase", "action")
        active = state.get("active_player") or (order[0] if phase == "action" else None)
        window = state.get("window") or ("Action" if phase == "action" else None)
        for unit in state.get("units", []):
            if unit["type"] not in UNIT_TYPES or unit["owner"] not in players:
                raise LookupError(f"impossible unit {unit}")
        discard = [self.card(c) for c in state.get("decks", {}).get("action", {})
                   .get("discard", [])]
        self.table = Table(players, list(order), phase, active, window,
                           [dict(u) for u in state.get("units", [])], discard)
        return {"reply": "ready"}

    def view(self, viewer: str | None) -> JSON:
        table = self.table
        assert table is not None
        if viewer not in (None, "*"):
            self.known(viewer)
        return {
            "phase": table.phase, "window": table.window, "active_player": table.active,
            "players": {n: {"hand": {"count": len(p.hand),
                                     "cards": list(p.hand) if viewer in ("*", n) else []},
                            "command_tokens": dict(p.tokens)}
                        for n, p in table.players.items()},
            "decks": {"action": {"draw": {"count": 0, **({"cards": []} if viewer == "*"
                                                         else {})},
                                 "discard": list(table.discard)}},
            "being_played": [], "pending": [],
            "units": [dict(u) for u in table.units],
        }


def factory() -> Adapter:
    return Adapter()

