"""A rules-oracle adapter: protocol requests in, calls into your engine out.

Written by `rules-oracle new-adapter`. It already answers every request, so it passes
`rules-oracle smoke` as it is, and a run reports every rule `unsupported` (each scenario
says what was missing) until you fill in the methods below. Start with `setup` and
`observe`: docs/adapters.md walks from here to a first passing rule, and
docs/protocol.md says what each request means and which reply to give.

From this folder:

    rules-oracle smoke --engine adapter:factory
    rules-oracle run --engine adapter:factory --rule ti4

An adapter translates; it never implements a rule. Whatever the rules decide (is this move
legal? what does this card do? who may see this card?) is your engine's to decide.
"""

from __future__ import annotations

from typing import Any

from my_engine import Table

JSON = dict[str, Any]

ENGINE: JSON = {
    "name": "my engine",
    "version": "0.0.0",
    "protocol": 1,
    "games": [{"game": "ti4"}],
    # What the engine can carry out (docs/protocol.md, "Capabilities"). While this is empty,
    # every scenario that needs a capability is reported unsupported; the others still run.
    "capabilities": [],
}


def unsupported(reason: str, capability: str | None = None) -> JSON:
    """The engine cannot do this: the scenario is reported unsupported, never failed."""
    reply: JSON = {"reply": "unsupported", "reason": reason}
    if capability:
        reply["capability"] = capability
    return reply


class Adapter:
    """One object per run; `setup` starts each scenario afresh."""

    def __init__(self) -> None:
        self.game: Any = None  # your engine's game, built by setup

    def handle(self, request: JSON) -> JSON:
        op = request.get("op")
        if op == "describe":
            return {"reply": "described", "engine": ENGINE}
        if op == "setup":
            return self.setup(request["game"], request["state"], request["seed"])
        if op == "act":
            return self.act(request["action"])
        if op == "choose":
            return self.choose(request["player"], request["choice"])
        if op == "observe":
            return self.observe(request["viewer"])
        return {"reply": "errored", "message": f"unknown op {op!r}"}

    def setup(self, game: str, state: JSON, seed: int) -> JSON:
        """Build exactly `state` in your engine (shuffles seeded with `seed`); answer
        {"reply": "ready"}. docs/protocol.md, "setup" and the game's section."""
        known = {"players", "decks"}
        if set(state) - known:
            return unsupported(f"this engine has no {sorted(set(state) - known)}")
        deck = state.get("decks", {}).get("action", {"draw": [], "discard": []})
        self.game = Table([p["name"] for p in state["players"]], deck["draw"], deck["discard"])
        for p in state["players"]:
            if "hand" in p:  # no "hand": a new player, as the engine seats one
                self.game.give(p["name"], p["hand"])
        return {"reply": "ready"}
    def act(self, action: JSON) -> JSON:
        """Carry out `action` ({"reply": "accepted"}) or pass on the engine's refusal
        ({"reply": "rejected", "reason": ...}); an action type the engine lacks is
        unsupported. docs/protocol.md, "act"."""
        return unsupported(f"the action type {action.get('type')!r} is not written yet "
                           "(adapter.py, Adapter.act)")

    def choose(self, player: str, choice: JSON) -> JSON:
        """Answer the decision the engine waits for. docs/protocol.md, "choose"."""
        return unsupported("choose is not written yet (adapter.py, Adapter.choose)")

    def observe(self, viewer: str | None) -> JSON:
        """The game as `viewer` sees it (a player, None for a spectator, "*" for the
        referee): {"reply": "view", "view": {"players": ..., "decks": ...}}.
        docs/protocol.md, "observe"."""
        table = self.game
        if viewer not in (None, "*") and viewer not in table.hands:
            return {"reply": "errored", "message": f"unknown viewer {viewer!r}"}
        players = {}
        for name, hand in table.hands.items():
            cards = hand if viewer == "*" else table.cards_seen_by(name, viewer)
            players[name] = {"hand": {"count": len(hand), "cards": list(cards)}}
        draw: JSON = {"count": len(table.draw_pile)}
        if viewer == "*":  # the referee sees the deck's order too
            draw["cards"] = list(table.draw_pile)
        return {"reply": "view", "view": {
            "players": players,
            "decks": {"action": {"draw": draw, "discard": list(table.discard_pile)}}}}


def factory() -> Adapter:
    """What `--engine adapter:factory` calls, once per run."""
    return Adapter()
