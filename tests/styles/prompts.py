"""Style: prompts for discards (docs/protocol.md, "Adapter patterns"). Written from that
page alone.

The engine's moves are coroutines: a draw or the status phase deal runs until a hand goes
over the limit, then yields a prompt asking that player which cards to *discard*, and
resumes with the answer. It draws with an immediate reshuffle, deals the status phase in
initiative order, and hides hands from other players. It plays no cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from . import ti4_card_facts, ti4_full_deck

JSON = dict[str, Any]

# == the engine ==========================================================================


class Illegal(Exception):
    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.rule = rule


@dataclass(frozen=True)
class Prompt:
    """'``player``, discard ``count`` cards': the engine waits for the answer."""

    player: str
    count: int


Move = Generator[Prompt, list[str], None]


class Table:
    LIMIT = 7

    def __init__(self, order: list[str], hands: dict[str, list[str]], limits: dict[str, int],
                 deck: list[str], discard: list[str], phase: str, seed: int) -> None:
        self.order, self.hands, self.phase = order, hands, phase
        self.limits = {n: self.LIMIT + limits.get(n, 0) for n in hands}
        self.deck, self.discard = deck, discard
        self.rng = random.Random(seed)
        self.prompts: dict[str, Prompt] = {}  # open prompts, by player
        self.dealt = False

    # moves: each a coroutine that may stop at a prompt
    def draw(self, name: str, count: int) -> Move:
        self.not_waiting_for(name)
        for _ in range(count):
            self.take(name)
        yield from self.limit(name)

    def status_draw(self) -> Move:
        if self.phase != "status":
            raise Illegal("action cards are dealt in the status phase", "ti4:2.1")
        if self.dealt or self.prompts:
            raise Illegal("this status phase's cards are dealt already", "ti4:2.1")
        self.dealt = True
        for name in self.order:  # ti4:note-5, and each waits for the one before
            self.take(name)
            yield from self.limit(name)

    def start_limits(self) -> Move:
        for name in self.order:
            yield from self.limit(name)

    # the parts
    def not_waiting_for(self, name: str) -> None:
        if name in self.prompts:
            raise Illegal(f"{name} must first discard {self.prompts[name].count} cards",
                          "ti4:note-10")

    def take(self, name: str) -> None:
        self.reshuffle()
        if self.deck:
            self.hands[name].append(self.deck.pop(0))
        self.reshuffle()  # the moment the deck runs out

    def reshuffle(self) -> None:
        if not self.deck and self.discard:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)

    def limit(self, name: str) -> Move:
        while len(self.hands[name]) > self.limits[name]:
            self.prompts[name] = Prompt(name, len(self.hands[name]) - self.limits[name])
            answer = yield self.prompts[name]
            del self.prompts[name]
            self.hands[name] = list((Counter(self.hands[name]) - Counter(answer)).elements())
            self.discard[:0] = answer

    def check_answer(self, prompt: Prompt, discard: list[str]) -> None:
        if len(discard) != prompt.count or Counter(discard) - Counter(self.hands[prompt.player]):
            raise Illegal(f"{prompt.player} must discard {prompt.count} of their cards",
                          "ti4:2.4")


# == the adapter ==========================================================================

STATE_KEYS = {"players", "decks", "phase", "initiative", "window", "active_player"}
PLAYER_KEYS = {"name", "hand", "hand_limit_modifier"}


class Adapter:
    def __init__(self) -> None:
        self.table: Table | None = None
        self.waiting: dict[str, Move] = {}  # the moves stopped at a player's open prompt
        self.facts = ti4_card_facts()

    def handle(self, request: JSON) -> JSON:
        op = request["op"]
        if op == "describe":
            return {"reply": "described", "engine": {
                "name": "test engine: prompts", "version": "1", "protocol": 1,
                "games": [{"game": "ti4"}],
                "capabilities": ["ti4/draw", "ti4/hand-limit", "ti4/status-phase"]}}
        try:
            if op == "setup":
                return self.setup(request["state"], request["seed"])
            if self.table is None:
                return {"reply": "errored", "message": "no game is set up"}
            if op == "observe":
                return {"reply": "view", "view": self.view(request["viewer"])}
            if op == "choose":
                return self.choose(request["player"], request["choice"])
            return self.act(request["action"])
        except Illegal as exc:
            reply = {"reply": "rejected", "reason": str(exc)}
            return {**reply, "rule": exc.rule} if exc.rule else reply
        except LookupError as exc:
            return {"reply": "errored", "message": str(exc.args[0])}

    def run(self, move: Move, answer: list[str] | None = None) -> None:
        """Drive a move until it ends or stops at a prompt (kept for ``choose``). The
        engine's own refusal (Illegal) comes at the first step, before it changes anything."""
        try:
            prompt = next(move) if answer is None else move.send(answer)
        except StopIteration:
            return
        self.waiting[prompt.player] = move

    def act(self, action: JSON) -> JSON:
        table = self.table
        assert table is not None
        kind = action["type"]
        if kind == "draw":
            self.known(action["player"])
            if action["deck"] != "action":
                raise LookupError(f"no deck {action['deck']!r}")
            move = table.draw(action["player"], action["count"])
        elif kind == "status_draw":
            move = table.status_draw()
        elif kind == "resolve":
            return {"reply": "accepted"}  # this engine never has a card being played
        else:
            return {"reply": "unsupported", "reason": f"this engine has no {kind!r}"}
        self.run(move)
        return {"reply": "accepted"}

    def choose(self, player: str, choice: JSON) -> JSON:
        table = self.table
        assert table is not None
        self.known(player)
        prompt = table.prompts.get(player)
        if prompt is None or player not in self.waiting:
            return {"reply": "rejected", "reason": f"{player} has no decision to make"}
        if "keep" not in choice:
            return {"reply": "rejected", "reason": "the protocol's question is which to keep"}
        # The engine asks which to discard; the protocol answers which to keep.
        discard = list((Counter(table.hands[player]) - Counter(choice["keep"])).elements())
        table.check_answer(prompt, discard)
        self.run(self.waiting.pop(player), discard)
        return {"reply": "accepted"}

    def known(self, name: str) -> None:
        if self.table is None or name not in self.table.hands:
            raise LookupError(f"unknown player {name!r}")

    def cards(self, names: list[str]) -> list[str]:
        for name in names:
            if name not in self.facts:
                raise LookupError(f"no action card named {name!r}")
        return list(names)

    def setup(self, state: JSON, seed: int) -> JSON:
        self.table, self.waiting = None, {}
        extra = set(state) - STATE_KEYS | {k for p in state["players"] for k in p} - PLAYER_KEYS
        if extra:
            return {"reply": "unsupported", "reason": f"this engine has no {sorted(extra)}"}
        hands = {p["name"]: self.cards(p.get("hand", [])) for p in state["players"]}
        deck = state.get("decks", {}).get("action")
        if deck is None:
            held = Counter(c for h in hands.values() for c in h)
            piles = (list((Counter(ti4_full_deck(self.facts)) - held).elements()), [])
            random.Random(seed).shuffle(piles[0])
        else:
            piles = (self.cards(deck["draw"]), self.cards(deck["discard"]))
        self.table = Table(state.get("initiative") or list(hands), hands,
                           {p["name"]: p.get("hand_limit_modifier", 0) for p in state["players"]},
                           piles[0], piles[1], state.get("phase", "action"), seed)
        self.run(self.table.start_limits())
        return {"reply": "ready"}

    def view(self, viewer: str | None) -> JSON:
        table = self.table
        assert table is not None
        if viewer not in (None, "*"):
            self.known(viewer)
        draw: JSON = {"count": len(table.deck)}
        if viewer == "*":
            draw["cards"] = list(table.deck)
        # The engine asks how many to discard; the protocol says how many to keep.
        pending = [{"player": name, "decision": "keep",
                    "count": len(table.hands[name]) - prompt.count}
                   for name, prompt in table.prompts.items()]
        return {
            "phase": table.phase, "window": None, "active_player": None,
            "players": {n: {"hand": {"count": len(h),
                                     "cards": list(h) if viewer in ("*", n) else []}}
                        for n, h in table.hands.items()},
            "decks": {"action": {"draw": draw, "discard": list(table.discard)}},
            "being_played": [], "pending": pending,
        }


def factory() -> Adapter:
    return Adapter()
