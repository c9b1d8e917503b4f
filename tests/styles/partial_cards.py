"""Style: a partial card set (docs/protocol.md, "Adapter patterns"). Written from that page
alone.

The engine carries out three cards: Lucky Shot, Direct Hit and Sabotage. It holds any other
card of the game, but cannot play one. Cards are played onto a stack and resolve, last
played first, when every player has passed; Sabotage cancels another player's card being
played. It knows phases, turns, timing windows and units; it does not draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import ti4_card_facts

JSON = dict[str, Any]

# == the engine ==========================================================================

SHIPS = {"dreadnought", "carrier", "cruiser", "destroyer", "fighter", "flagship", "war sun"}
UNITS = SHIPS | {"infantry", "mech", "pds", "space dock"}
TARGETS = {"Lucky Shot": {"dreadnought", "cruiser", "destroyer"}, "Direct Hit": SHIPS}
CARDS = (*TARGETS, "Sabotage")


class Illegal(Exception):
    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.rule = rule


@dataclass
class Play:
    player: str
    card: str
    unit: str | None = None  # the unit a Lucky Shot or Direct Hit destroys
    answers: Play | None = None  # the card a Sabotage cancels
    cancelled: bool = False
    when: tuple[str, int] = ("window", 0)


@dataclass
class Board:
    hands: dict[str, list[str]]
    initiative: list[str]
    phase: str
    active: str | None
    window: str | None
    units: dict[str, JSON]  # id -> unit
    discard: list[str]
    stack: list[Play] = field(default_factory=list)
    resolved: list[Play] = field(default_factory=list)
    action_used: bool = False
    turn: int = 0
    opened: int = 0
    facts: dict[str, JSON] = field(default_factory=ti4_card_facts)

    def play(self, player: str, card: str, unit: str | None, answering: str | None) -> None:
        if card not in self.hands[player]:
            raise Illegal(f"{player} does not hold {card!r}", "ti4:2.7")
        if card == "Sabotage":
            play = self.sabotage(player, answering)
        else:
            play = self.ordinary(player, card, unit)
        self.hands[player].remove(card)
        self.stack.append(play)

    def sabotage(self, player: str, answering: str | None) -> Play:
        for other in reversed(self.stack):
            if other.player != player and other.card != "Sabotage" and not other.cancelled \
                    and answering in (None, other.card):
                return Play(player, "Sabotage", answers=other, when=("play", id(other)))
        raise Illegal("Sabotage answers another player's card being played", "ti4:2.6")

    def ordinary(self, player: str, card: str, unit_id: str | None) -> Play:
        if self.stack:
            raise Illegal("a card is being played: it resolves first", "ti4:2.7")
        fact = self.facts[card]
        if fact["window"] == "Action":
            if self.phase != "action" or self.active != player:
                raise Illegal(f"{card!r} is the active player's component action", "ti4:2.6.1")
            if self.action_used:
                raise Illegal(f"{player} has used the turn's action", "ti4:2.6.1")
            when = ("turn", self.turn)
        else:
            if fact["window"] != self.window or fact["phase"].lower() not in ("any", self.phase):
                raise Illegal(f"{card!r} is not played in {self.window!r}", "ti4:2.6")
            when = ("window", self.opened)
        ours = [u for u in self.units.values() if u["owner"] != player
                and u["type"] in TARGETS[card]]
        if not ours:
            raise Illegal(f"{card!r} has no unit of another player to target", "ti4:note-9")
        unit = self.units.get(unit_id or "")
        if unit is None:
            raise Illegal(f"no unit {unit_id!r} is on the board", "ti4:note-9")
        if unit["owner"] == player:
            raise Illegal(f"{card!r} cannot target your own unit", "ti4:note-7")
        if unit["type"] not in TARGETS[card]:
            raise Illegal(f"{card!r} cannot target a {unit['type']}", "ti4:2.7")
        if any(p.card == card and p.when == when and p.unit == unit_id for p in self.resolved):
            raise Illegal(f"a {card!r} already affected {unit_id!r} here", "ti4:2.6.2")
        return Play(player, card, unit=unit_id, when=when)

    def pass_all(self) -> None:
        while self.stack:
            play = self.stack.pop()
            if not play.cancelled:
                if play.answers is not None:
                    play.answers.cancelled = True
                if play.unit is not None:
                    self.units.pop(play.unit, None)
                self.resolved.append(play)
                if self.facts[play.card]["window"] == "Action":
                    self.action_used = True
            self.discard.insert(0, play.card)

    def next_window(self, window: str) -> None:
        if self.stack:
            raise Illegal("a card is being played: it resolves first", "ti4:2.7")
        self.window, self.opened = window, self.opened + 1

    def end_turn(self, player: str) -> None:
        if self.stack or self.phase != "action" or self.active != player:
            raise Illegal(f"{player} cannot end the turn now")
        self.active = self.initiative[(self.initiative.index(player) + 1) % len(self.initiative)]
        self.turn, self.action_used = self.turn + 1, False
        self.next_window("Action")


# == the adapter ==========================================================================

STATE_KEYS = {"players", "decks", "phase", "window", "active_player", "initiative", "units"}


class Adapter:
    def __init__(self) -> None:
        self.board: Board | None = None
        self.facts = ti4_card_facts()

    def handle(self, request: JSON) -> JSON:
        op = request["op"]
        if op == "describe":
            return {"reply": "described", "engine": {
                "name": "test engine: three cards", "version": "1", "protocol": 1,
                "games": [{"game": "ti4"}],
                "capabilities": ["ti4/play", "ti4/units", "ti4/windows",
                                 *(f"ti4/card/{c}" for c in CARDS)]}}
        try:
            if op == "setup":
                return self.setup(request["state"])
            if self.board is None:
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
        board = self.board
        assert board is not None
        kind = action["type"]
        if kind == "play":
            self.known(action["player"])
            card, targets = self.card(action["card"]), action.get("targets") or {}
            if card not in CARDS:
                return {"reply": "unsupported", "reason": f"this engine does not model {card!r}",
                        "capability": f"ti4/card/{card}"}
            if "card" in targets:
                self.card(targets["card"])
            board.play(action["player"], card, targets.get("unit"), targets.get("card"))
        elif kind == "resolve":
            board.pass_all()
        elif kind == "window":
            board.next_window(action["window"])
        elif kind == "end_turn":
            self.known(action["player"])
            board.end_turn(action["player"])
        else:
            return {"reply": "unsupported", "reason": f"this engine has no {kind!r} action"}
        return {"reply": "accepted"}

    def known(self, name: str) -> None:
        if self.board is None or name not in self.board.hands:
            raise LookupError(f"unknown player {name!r}")

    def card(self, name: str) -> str:
        if name not in self.facts:
            raise LookupError(f"no action card named {name!r}")
        return name

    def setup(self, state: JSON) -> JSON:
        self.board = None
        extra = set(state) - STATE_KEYS | {k for p in state["players"] for k in p} - {"name",
                                                                                        "hand"}
        if extra:
            return {"reply": "unsupported", "reason": f"this engine has no {sorted(extra)}"}
        deck = state.get("decks", {}).get("action", {"draw": [], "discard": []})
        if deck["draw"]:
            return {"reply": "unsupported", "reason": "this engine has no draw pile"}
        hands = {p["name"]: [self.card(c) for c in p.get("hand", [])] for p in state["players"]}
        units = {}
        for unit in state.get("units", []):
            if unit["type"] not in UNITS or unit["owner"] not in hands or unit["id"] in units:
                raise LookupError(f"impossible unit {unit}")
            units[unit["id"]] = dict(unit)
        initiative = state.get("initiative") or list(hands)
        phase = state.get("phase", "action")
        active = state.get("active_player") or (initiative[0] if phase == "action" else None)
        window = state.get("window") or ("Action" if phase == "action" else None)
        self.board = Board(hands, initiative, phase, active, window, units,
                           [self.card(c) for c in deck["discard"]])
        return {"reply": "ready"}

    def view(self, viewer: str | None) -> JSON:
        board = self.board
        assert board is not None
        if viewer not in (None, "*"):
            self.known(viewer)
        return {
            "phase": board.phase, "window": board.window, "active_player": board.active,
            "players": {n: {"hand": {"count": len(h),
                                     "cards": list(h) if viewer in ("*", n) else []}}
                        for n, h in board.hands.items()},
            "decks": {"action": {"draw": {"count": 0, **({"cards": []} if viewer == "*"
                                                         else {})},
                                 "discard": list(board.discard)}},
            "being_played": [{"player": p.player, "card": p.card} for p in board.stack],
            "pending": [],
            "units": list(board.units.values()),
        }


def factory() -> Adapter:
    return Adapter()
