"""Style: immutable states, and players who must have a faction (docs/protocol.md, "Adapter
patterns"). Written from that page alone.

The engine is a library of values: every move is a function from a state to a new state,
or ``Illegal``. It deals, draws with an immediate seeded reshuffle, enforces the hand limit
with a decision, and lets players reveal cards; it knows who may see what. It has no
phases, no turns and no card effects, and it cannot seat a player without a faction.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from . import ti4_card_facts, ti4_full_deck

JSON = dict[str, Any]

# == the engine: values and functions, nothing changes in place ===========================

FACTIONS = ("Arborec", "Barony of Letnev", "Hacan", "Sol", "Yssaril")
HAND_LIMIT = 7
STARTING_HAND = 0


class Illegal(Exception):
    """The rules forbid the move."""

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.rule = rule


@dataclass(frozen=True)
class Seat:
    name: str
    faction: str
    hand: tuple[str, ...]
    revealed: tuple[str, ...] = ()
    limit_modifier: int = 0

    @property
    def limit(self) -> int:
        return HAND_LIMIT + self.limit_modifier


@dataclass(frozen=True)
class State:
    seats: tuple[Seat, ...]
    draw_pile: tuple[str, ...]
    discard_pile: tuple[str, ...]
    seed: int
    shuffles: int = 0
    must_keep: tuple[tuple[str, int], ...] = ()  # (player, cards to keep)

    def seat(self, name: str) -> Seat:
        return next(s for s in self.seats if s.name == name)

    def with_seat(self, seat: Seat) -> State:
        return replace(self, seats=tuple(seat if s.name == seat.name else s for s in self.seats))


def _shuffled(cards: tuple[str, ...], seed: int, salt: int) -> tuple[str, ...]:
    order = list(cards)
    random.Random(f"{seed}/{salt}").shuffle(order)
    return tuple(order)


def new_game(seats: list[tuple[str, str, tuple[str, ...] | None, int]],
             piles: tuple[tuple[str, ...], tuple[str, ...]] | None, seed: int) -> State:
    """Seat (name, faction, hand or None for a new player, hand-limit modifier) in order."""
    for _, faction, _, _ in seats:
        if faction not in FACTIONS:
            raise ValueError(f"no faction {faction!r}")
    held = [c for _, _, hand, _ in seats for c in hand or ()]
    if piles is None:
        deck = Counter(ti4_full_deck(ti4_card_facts())) - Counter(held)
        piles = (_shuffled(tuple(sorted(deck.elements())), seed, 0), ())
    state = State(tuple(Seat(n, f, hand or (), (), m) for n, f, hand, m in seats),
                  piles[0], piles[1], seed, shuffles=1)
    for name, _, hand, _ in seats:
        if hand is None:
            state = _take(state, name, STARTING_HAND)
    return _check_limits(state)


def _take(state: State, name: str, count: int) -> State:
    for _ in range(count):
        if not state.draw_pile and state.discard_pile:
            state = replace(state, draw_pile=_shuffled(state.discard_pile, state.seed,
                                                       state.shuffles),
                            discard_pile=(), shuffles=state.shuffles + 1)
        if not state.draw_pile:
            break
        seat = state.seat(name)
        state = replace(state.with_seat(replace(seat, hand=(*seat.hand, state.draw_pile[0]))),
                        draw_pile=state.draw_pile[1:])
        if not state.draw_pile and state.discard_pile:  # ti4:note-4: at once
            state = replace(state, draw_pile=_shuffled(state.discard_pile, state.seed,
                                                       state.shuffles),
                            discard_pile=(), shuffles=state.shuffles + 1)
    return state


def _check_limits(state: State) -> State:
    owed = dict(state.must_keep)
    for seat in state.seats:
        if len(seat.hand) > seat.limit and seat.name not in owed:
            owed[seat.name] = seat.limit
    return replace(state, must_keep=tuple(owed.items()))


def _not_owing(state: State, name: str) -> None:
    if name in dict(state.must_keep):
        raise Illegal(f"{name} must first choose cards to keep", "ti4:note-10")


def draw(state: State, name: str, count: int) -> State:
    _not_owing(state, name)
    return _check_limits(_take(state, name, count))


def keep(state: State, name: str, cards: tuple[str, ...]) -> State:
    owed = dict(state.must_keep)
    if name not in owed:
        raise Illegal(f"{name} has no decision to make")
    seat = state.seat(name)
    if len(cards) != owed[name]:
        raise Illegal(f"{name} must keep exactly {owed[name]} cards", "ti4:2.4")
    rest = Counter(seat.hand) - Counter(cards)
    if Counter(cards) - Counter(seat.hand):
        raise Illegal(f"{name} does not hold {list(cards)}", "ti4:2.4")
    gone = tuple(rest.elements())
    revealed = tuple((Counter(seat.revealed) & Counter(cards)).elements())
    del owed[name]
    state = state.with_seat(replace(seat, hand=tuple(cards), revealed=revealed))
    return replace(state, discard_pile=(*gone, *state.discard_pile),
                   must_keep=tuple(owed.items()))


def reveal(state: State, name: str, cards: tuple[str, ...]) -> State:
    _not_owing(state, name)
    seat = state.seat(name)
    if Counter(cards) - Counter(seat.hand):
        raise Illegal(f"{name} does not hold {list(cards)}", "ti4:note-3")
    shown = Counter(seat.revealed) | Counter(cards)
    return state.with_seat(replace(seat, revealed=tuple(shown.elements())))


def visible(state: State, owner: str, viewer: str | None) -> list[str]:
    """What ``viewer`` (None: nobody in particular) sees of ``owner``'s hand."""
    seat = state.seat(owner)
    if viewer == owner:
        return list(seat.hand)
    return list((Counter(seat.revealed) & Counter(seat.hand)).elements())


# == the adapter ==========================================================================

PLAYER_KEYS = {"name", "hand", "faction", "hand_limit_modifier"}
STATE_KEYS = {"players", "decks", "phase", "window", "active_player"}  # the last three: no-op
STAND_IN_FACTION = "Arborec"  # no effect the action-card rules involve (README would say so)


class Adapter:
    def __init__(self) -> None:
        self.state: State | None = None
        self.facts = ti4_card_facts()

    def handle(self, request: JSON) -> JSON:
        op = request["op"]
        if op == "describe":
            return {"reply": "described", "engine": {
                "name": "test engine: immutable states", "version": "1", "protocol": 1,
                "games": [{"game": "ti4"}],
                "capabilities": ["ti4/draw", "ti4/reveal", "ti4/hand-limit"]}}
        if op == "setup":
            return self.setup(request["state"], request["seed"])
        if self.state is None:
            return {"reply": "errored", "message": "no game is set up"}
        try:
            if op == "observe":
                return {"reply": "view", "view": self.view(request["viewer"])}
            if op == "choose":
                self.known(request["player"])
                choice = request["choice"]
                if "keep" not in choice:
                    return {"reply": "rejected", "reason": "this game asks which cards to keep"}
                return self.commit(keep(self.state, request["player"],
                                        self.cards(choice["keep"])))
            return self.act(request["action"])
        except Illegal as exc:  # the engine refused: the old state stays
            reply = {"reply": "rejected", "reason": str(exc)}
            return {**reply, "rule": exc.rule} if exc.rule else reply
        except LookupError as exc:
            return {"reply": "errored", "message": str(exc.args[0])}

    def commit(self, state: State) -> JSON:
        self.state = state
        return {"reply": "accepted"}

    def act(self, action: JSON) -> JSON:
        kind = action["type"]
        if kind == "draw":
            self.known(action["player"])
            if action["deck"] != "action":
                raise LookupError(f"no deck {action['deck']!r}")
            return self.commit(draw(self.state, action["player"], action["count"]))
        if kind == "reveal":
            self.known(action["player"])
            return self.commit(reveal(self.state, action["player"],
                                      self.cards(action["cards"])))
        if kind == "resolve":  # nothing is ever being played here: every player may pass
            return {"reply": "accepted"}
        return {"reply": "unsupported", "reason": f"this engine has no {kind!r} action"}

    def known(self, name: str) -> None:
        if self.state is None or name not in {s.name for s in self.state.seats}:
            raise LookupError(f"unknown player {name!r}")

    def cards(self, names: list[str]) -> tuple[str, ...]:
        unknown = [n for n in names if n not in self.facts]
        if unknown:
            raise LookupError(f"no action card named {unknown[0]!r}")
        return tuple(names)

    def setup(self, state: JSON, seed: int) -> JSON:
        self.state = None
        extra = set(state) - STATE_KEYS | {k for p in state["players"] for k in p} - PLAYER_KEYS
        if extra:
            return {"reply": "unsupported", "reason": f"this engine has no {sorted(extra)}"}
        seats = []
        try:
            for p in state["players"]:
                hand = self.cards(p["hand"]) if "hand" in p else None
                seats.append((p["name"], p.get("faction") or STAND_IN_FACTION, hand,
                              p.get("hand_limit_modifier", 0)))
            deck = state.get("decks", {}).get("action")
            piles = (self.cards(deck["draw"]), self.cards(deck["discard"])) if deck else None
        except LookupError as exc:
            return {"reply": "errored", "message": str(exc.args[0])}
        try:
            self.state = new_game(seats, piles, seed)
        except ValueError as exc:
            return {"reply": "unsupported", "reason": f"this engine: {exc}"}
        return {"reply": "ready"}

    def view(self, viewer: str | None) -> JSON:
        state = self.state
        assert state is not None
        if viewer not in (None, "*"):
            self.known(viewer)
        draw_pile: JSON = {"count": len(state.draw_pile)}
        if viewer == "*":
            draw_pile["cards"] = list(state.draw_pile)
        return {
            "phase": None, "window": None, "active_player": None,
            "players": {s.name: {"hand": {"count": len(s.hand),
                                          "cards": list(s.hand) if viewer == "*"
                                          else visible(state, s.name, viewer)},
                                 "hand_limit": s.limit, "faction": s.faction}
                        for s in state.seats},
            "decks": {"action": {"draw": draw_pile, "discard": list(state.discard_pile)}},
            "being_played": [],
            "pending": [{"player": n, "decision": "keep", "count": c}
                        for n, c in state.must_keep],
        }


def factory() -> Adapter:
    return Adapter()
