"""Style: no viewers (docs/protocol.md, "Adapter patterns"). Written from that page alone.

The engine keeps one state and has no notion of who may see what: no hidden hands, no
revealing. It draws (reshuffling the discard pile the moment the deck runs out) and holds
players to the hand limit with a decision. It has no phases and plays no cards.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from . import ti4_card_facts, ti4_full_deck

JSON = dict[str, Any]

# == the engine ==========================================================================


class Illegal(Exception):
    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.rule = rule


class Game:
    LIMIT = 7

    def __init__(self, hands: dict[str, list[str] | None], limits: dict[str, int],
                 deck: list[str] | None, discard: list[str], seed: int) -> None:
        self.rng = random.Random(seed)
        held = Counter(c for h in hands.values() for c in h or [])
        if deck is None:
            deck = list((Counter(ti4_full_deck(ti4_card_facts())) - held).elements())
            self.rng.shuffle(deck)
        self.deck, self.discard = deck, discard
        self.hands = {name: list(hand or []) for name, hand in hands.items()}  # new: 0 cards
        self.limits = {name: self.LIMIT + limits.get(name, 0) for name in hands}
        self.owed: dict[str, int] = {}
        for name in self.hands:
            self.check_limit(name)

    def check_limit(self, name: str) -> None:
        if len(self.hands[name]) > self.limits[name]:
            self.owed[name] = self.limits[name]

    def draw(self, name: str, count: int) -> None:
        if name in self.owed:
            raise Illegal(f"{name} must first keep {self.owed[name]} cards", "ti4:note-10")
        for _ in range(count):
            self.reshuffle()
            if not self.deck:
                break
            self.hands[name].append(self.deck.pop(0))
            self.reshuffle()  # the moment it runs out
        self.check_limit(name)

    def reshuffle(self) -> None:
        if not self.deck and self.discard:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)

    def keep(self, name: str, cards: list[str]) -> None:
        if name not in self.owed:
            raise Illegal(f"{name} has no decision to make")
        if len(cards) != self.owed[name] or Counter(cards) - Counter(self.hands[name]):
            raise Illegal(f"{name} must keep {self.owed[name]} of their cards", "ti4:2.4")
        gone = list((Counter(self.hands[name]) - Counter(cards)).elements())
        self.hands[name] = list(cards)
        self.discard[:0] = gone
        del self.owed[name]


# == the adapter ==========================================================================

PLAYER_KEYS = {"name", "hand", "hand_limit_modifier"}


class Adapter:
    def __init__(self) -> None:
        self.game: Game | None = None
        self.facts = ti4_card_facts()

    def handle(self, request: JSON) -> JSON:
        op = request["op"]
        if op == "describe":
            return {"reply": "described", "engine": {
                "name": "test engine: no viewers", "version": "1", "protocol": 1,
                "games": [{"game": "ti4"}], "capabilities": ["ti4/draw", "ti4/hand-limit"]}}
        try:
            if op == "setup":
                return self.setup(request["state"], request["seed"])
            if self.game is None:
                return {"reply": "errored", "message": "no game is set up"}
            if op == "observe":
                return {"reply": "view", "view": self.view(request["viewer"])}
            if op == "choose":
                self.known(request["player"])
                if "keep" not in request["choice"]:
                    return {"reply": "rejected", "reason": "this game asks which cards to keep"}
                self.game.keep(request["player"], self.cards(request["choice"]["keep"]))
                return {"reply": "accepted"}
            return self.act(request["action"])
        except Illegal as exc:
            reply = {"reply": "rejected", "reason": str(exc)}
            return {**reply, "rule": exc.rule} if exc.rule else reply
        except LookupError as exc:
            return {"reply": "errored", "message": str(exc.args[0])}

    def act(self, action: JSON) -> JSON:
        assert self.game is not None
        if action["type"] == "draw":
            self.known(action["player"])
            if action["deck"] != "action":
                raise LookupError(f"no deck {action['deck']!r}")
            self.game.draw(action["player"], action["count"])
            return {"reply": "accepted"}
        if action["type"] == "resolve":
            return {"reply": "accepted"}  # nothing is ever being played: anybody may pass
        return {"reply": "unsupported", "reason": f"this engine has no {action['type']!r}"}

    def known(self, name: str) -> None:
        if self.game is None or name not in self.game.hands:
            raise LookupError(f"unknown player {name!r}")

    def cards(self, names: list[str]) -> list[str]:
        for name in names:
            if name not in self.facts:
                raise LookupError(f"no action card named {name!r}")
        return list(names)

    def setup(self, state: JSON, seed: int) -> JSON:
        self.game = None
        extra = set(state) - {"players", "decks", "phase", "window", "active_player"}
        extra |= {k for p in state["players"] for k in p} - PLAYER_KEYS
        if extra:
            return {"reply": "unsupported", "reason": f"this engine has no {sorted(extra)}"}
        hands = {p["name"]: self.cards(p["hand"]) if "hand" in p else None
                 for p in state["players"]}
        limits = {p["name"]: p.get("hand_limit_modifier", 0) for p in state["players"]}
        deck = state.get("decks", {}).get("action")
        self.game = Game(hands, limits, self.cards(deck["draw"]) if deck else None,
                         self.cards(deck["discard"]) if deck else [], seed)
        return {"reply": "ready"}

    def view(self, viewer: str | None) -> JSON:
        game = self.game
        assert game is not None
        if viewer not in (None, "*"):
            self.known(viewer)
        draw: JSON = {"count": len(game.deck)}
        if viewer == "*":
            draw["cards"] = list(game.deck)
        return {
            "phase": None, "window": None, "active_player": None,
            # Each player's own hand is theirs; what anybody else may see of it, this engine
            # does not say ("cards": null), and the adapter does not decide.
            "players": {n: {"hand": {"count": len(h),
                                     "cards": list(h) if viewer in ("*", n) else None}}
                        for n, h in game.hands.items()},
            "decks": {"action": {"draw": draw, "discard": list(game.discard)}},
            "being_played": [],
            "pending": [{"player": n, "decision": "keep", "count": c}
                        for n, c in game.owed.items()],
        }


def factory() -> Adapter:
    return Adapter()
