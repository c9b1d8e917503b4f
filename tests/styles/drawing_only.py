"""Style: an engine of drawing and the hand limit only, with one card declared. Written from
docs/protocol.md alone.

The engine holds an action deck, its discard pile and the players' hands. A game effect
makes a player draw (``draw``): cards come from the top, and the discard pile is shuffled
into a new deck the moment the deck runs out. A hand over its limit (seven, moved by
``hand_limit_modifier``) owes a ``keep`` decision, which blocks that player's actions.
Hands are secret, their sizes public. It declares one card, Sabotage, as the page says an
engine declares a card whose effect it models, but plays nothing (no ``ti4/play``): every
other card of the deck it only holds, as the page says every engine must.
"""

from __future__ import annotations

import random
from typing import Any

from . import ti4_card_facts, ti4_full_deck

JSON = dict[str, Any]
KEYS = {"players", "decks", "phase", "active_player", "window", "initiative"}
PLAYER_KEYS = {"name", "hand", "hand_limit_modifier"}


class Adapter:
    def __init__(self) -> None:
        self.facts = ti4_card_facts()
        self.hands: dict[str, list[str]] = {}
        self.limits: dict[str, int] = {}
        self.draw: list[str] = []
        self.discard: list[str] = []
        self.pending: dict[str, int] = {}
        self.rng = random.Random(0)
        self.ready = False

    def handle(self, request: JSON) -> JSON:
        op = request["op"]
        if op == "describe":
            return {"reply": "described", "engine": {
                "name": "test engine: drawing only", "version": "1", "protocol": 1,
                "games": [{"game": "ti4"}],
                "capabilities": ["ti4/draw", "ti4/hand-limit", "ti4/card/Sabotage"]}}
        if op == "setup":
            return self.setup(request["state"], request.get("seed", 0))
        if not self.ready:
            return {"reply": "errored", "message": "no game is set up"}
        if op == "observe":
            return self.observe(request.get("viewer"))
        if op == "choose":
            return self.choose(request["player"], request["choice"])
        if op == "act":
            return self.act(request["action"])
        return {"reply": "errored", "message": f"unknown op {op!r}"}

    # -- setup -----------------------------------------------------------------------------

    def setup(self, state: JSON, seed: int) -> JSON:
        self.ready = False
        extra = sorted(set(state) - KEYS) + sorted(
            {k for p in state["players"] for k in p} - PLAYER_KEYS)
        if extra:
            return {"reply": "unsupported", "reason": f"this engine has no {extra}"}
        for name in state.get("decks") or {}:
            if name != "action":
                return {"reply": "errored", "message": f"no deck named {name!r}"}
        self.rng = random.Random(seed)
        names = [p["name"] for p in state["players"]]
        if len(set(names)) != len(names):
            return {"reply": "errored", "message": "a player is listed twice"}
        self.hands = {p["name"]: list(p.get("hand", [])) for p in state["players"]}
        self.limits = {p["name"]: 7 + int(p.get("hand_limit_modifier", 0))
                       for p in state["players"]}
        deck = (state.get("decks") or {}).get("action")
        if deck is None:
            pool = ti4_full_deck(self.facts)
            for hand in self.hands.values():
                for card in hand:
                    if card in pool:
                        pool.remove(card)
            self.rng.shuffle(pool)
            self.draw, self.discard = pool, []
        else:
            self.draw, self.discard = list(deck["draw"]), list(deck["discard"])
        every = [c for h in self.hands.values() for c in h] + self.draw + self.discard
        unknown = sorted({c for c in every if c not in self.facts})
        if unknown:
            return {"reply": "errored", "message": f"no action cards named {unknown}"}
        self.pending = {}
        for name in self.hands:
            self.check_limit(name)
        self.ready = True
        return {"reply": "ready"}

    # -- requests --------------------------------------------------------------------------

    def act(self, action: JSON) -> JSON:
        kind = action.get("type")
        if kind == "resolve":
            return {"reply": "accepted"}
        if kind != "draw":
            return {"reply": "unsupported", "reason": f"this engine has no {kind!r} action"}
        player = action["player"]
        if player not in self.hands:
            return {"reply": "errored", "message": f"unknown player {player!r}"}
        if action.get("deck", "action") != "action":
            return {"reply": "errored", "message": f"no deck named {action['deck']!r}"}
        if player in self.pending:
            return {"reply": "rejected", "reason": f"{player} must first discard down",
                    "rule": "ti4:note-10"}
        drawn = 0
        for _ in range(int(action.get("count", 1))):
            if not self.draw and self.discard:
                self.reshuffle()
            if not self.draw:
                break
            self.hands[player].append(self.draw.pop(0))
            drawn += 1
            if not self.draw and self.discard:
                self.reshuffle()
        self.check_limit(player)
        return {"reply": "accepted", "events": [{"event": "drew", "player": player,
                                                 "count": drawn}]}

    def choose(self, player: str, choice: JSON) -> JSON:
        if player not in self.hands:
            return {"reply": "errored", "message": f"unknown player {player!r}"}
        if player not in self.pending:
            return {"reply": "rejected", "reason": f"{player} has no decision to make"}
        if set(choice) != {"keep"}:
            return {"reply": "rejected", "reason": "the decision is which cards to keep"}
        kept, rest = list(choice["keep"]), list(self.hands[player])
        if len(kept) != self.pending[player]:
            return {"reply": "rejected", "reason": f"keep exactly {self.pending[player]} cards",
                    "rule": "ti4:2.4"}
        for card in kept:
            if card not in rest:
                return {"reply": "rejected", "reason": f"{player} does not hold {card!r}"}
            rest.remove(card)
        self.hands[player] = kept
        self.discard[:0] = rest
        del self.pending[player]
        return {"reply": "accepted"}

    def observe(self, viewer: str | None) -> JSON:
        if viewer not in (None, "*") and viewer not in self.hands:
            return {"reply": "errored", "message": f"unknown viewer {viewer!r}"}
        referee = viewer == "*"  # null is a spectator
        draw: JSON = {"count": len(self.draw)}
        if referee:
            draw["cards"] = list(self.draw)
        return {"reply": "view", "view": {
            "players": {n: {"hand": {"count": len(h),
                                     "cards": list(h) if referee or viewer == n else []},
                            "hand_limit": self.limits[n]}
                        for n, h in self.hands.items()},
            "decks": {"action": {"draw": draw, "discard": list(self.discard)}},
            "being_played": [],
            "pending": [{"player": p, "decision": "keep", "count": c}
                        for p, c in self.pending.items()],
        }}

    # -- rules -----------------------------------------------------------------------------

    def reshuffle(self) -> None:
        self.draw, self.discard = list(self.discard), []
        self.rng.shuffle(self.draw)

    def check_limit(self, player: str) -> None:
        if len(self.hands[player]) > self.limits[player]:
            self.pending[player] = self.limits[player]


def factory() -> Adapter:
    return Adapter()
