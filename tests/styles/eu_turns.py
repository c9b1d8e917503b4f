"""Style: an EU engine with its own Turn structure, behind an adapter that refuses what it
was not told about. Written from docs/protocol.md, docs/adapters.md and the command-line
help alone (the card facts from ``rules-oracle cards --game eu-pop``).

The engine ("Chronicle") models part of "6. Action Cards": the three decks (drawing, the
rebuild, public discard piles), Monarch Power and Ducat costs with reductions, Turns,
Reactions, Counterespionage, appointing characters, and Phase 5 Step C. It has no Display
Cards and no Battles. Its Turns are its own: each Turn holds exactly one Action (a card that
takes the Turn, or a Basic Action of the rest of the game), a Turn cannot end without one,
and Minor Actions (appointing) come before or after it. Step C asks the players over the
limit one after another in seat order. It raises ``Illegal`` when the rules forbid a move
(and changes nothing), ``Unknown`` when a move names something not in the game.

The adapter refuses (``unsupported``) every state key, action type and target the protocol
page does not list for EU, and the ones the engine has no notion of (displays, battles),
so that nothing is silently ignored; ``end_turn`` of a player who took no Action is that
player's Basic Action and then the end of the Turn (docs/protocol.md, "Questions an EU
adapter asks").
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

import oracle.features

JSON = dict[str, Any]
DECKS = ("administrative", "diplomatic", "military")

# == the engine ==========================================================================


class Illegal(Exception):
    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.rule = rule


class Unknown(Exception):
    """A move that names a player or a card that is not in the game."""


@dataclass(frozen=True)
class Card:
    name: str
    deck: str
    count: int
    cost: int
    ducats: int
    kinds: frozenset[str]
    effect_ducats: int
    character: str

    @property
    def takes_the_turn(self) -> bool:
        return not {"reaction", "battle_action"} & self.kinds


def load_cards() -> dict[str, Card]:
    folder = Path(oracle.features.__path__[0])
    data = yaml.safe_load((folder / "eu-pop" / "cards.yaml").read_text(encoding="utf-8"))
    cards = {}
    for deck, entries in data["decks"].items():
        for c in entries:
            cards[c["name"]] = Card(c["name"], deck, int(c["count"]), int(c.get("cost", 0)),
                                    int(c.get("ducats") or 0), frozenset(c.get("kinds", [])),
                                    int((c.get("effect") or {}).get("ducats", 0)),
                                    c.get("character", "advisor"))
    return cards


@dataclass
class Realm:
    name: str
    hand: list[str]
    power: dict[str, int]
    ducats: int
    reductions: dict[str, int]
    advisors: list[str] = field(default_factory=list)
    leaders: list[str] = field(default_factory=list)


@dataclass
class Turn:
    player: str
    number: int
    action_taken: bool = False


@dataclass
class OnTheTable:
    """A card being played: it waits until every player passes."""

    player: str
    card: Card
    target: str | None
    countered: bool = False


class Chronicle:
    """The game. Phases are numbered 1-5; only Phase 2 (Actions) has Turns."""

    HAND_LIMIT = 5
    REBUILD_LEAVES = 5

    def __init__(self, cards: dict[str, Card], realms: list[Realm],
                 piles: dict[str, tuple[list[str], list[str]]], phase: int, first: str,
                 rng: random.Random) -> None:
        self.cards = cards
        self.realms = {r.name: r for r in realms}
        self.seats = [r.name for r in realms]
        self.piles = piles  # deck -> (draw pile, discard pile), both top first
        self.phase = phase
        self.turn = Turn(first, 0) if phase == 2 else None
        self.turns_taken = 0
        self.rng = rng
        self.table: list[OnTheTable] = []
        self.asking: list[str] = []  # Step C: players still to keep cards, the first asked now

    # -- helpers -------------------------------------------------------------------------
    def realm(self, name: str) -> Realm:
        if name not in self.realms:
            raise Unknown(f"no player {name!r}")
        return self.realms[name]

    def card(self, name: str) -> Card:
        if name not in self.cards:
            raise Unknown(f"no card {name!r}")
        return self.cards[name]

    def asked(self) -> str | None:
        return self.asking[0] if self.asking else None

    def not_waiting_on(self, player: str) -> None:
        if self.asked() == player:
            raise Illegal(f"{player} must first choose the cards to keep", "eu-pop:4.5.c.2")

    def my_turn(self, player: str, doing: str) -> Turn:
        if self.phase != 2 or self.turn is None:
            raise Illegal(f"{doing} needs a Turn, and Turns are taken in Phase 2",
                          "eu-pop:6.action-cards.2")
        if self.turn.player != player:
            raise Illegal(f"it is {self.turn.player}'s Turn", "eu-pop:6.action-cards.2")
        return self.turn

    def cost(self, realm: Realm, card: Card) -> tuple[int, int]:
        power = max(0, card.cost - realm.reductions.get(card.deck, 0))
        ducats = max(0, card.ducats - realm.reductions.get("ducats", 0))
        return power, ducats

    # -- Turns ---------------------------------------------------------------------------
    def basic_action(self, player: str) -> None:
        """A Basic Action of the rest of the game: it is the Turn's Action."""
        self.realm(player)
        self.not_waiting_on(player)
        if self.table:
            raise Illegal("a card is being played")
        turn = self.my_turn(player, "a Basic Action")
        if turn.action_taken:
            raise Illegal(f"{player} has taken this Turn's Action", "eu-pop:6.action-cards.2")
        turn.action_taken = True

    def finish_turn(self, player: str) -> None:
        self.realm(player)
        self.not_waiting_on(player)
        if self.table:
            raise Illegal("a card is being played")
        turn = self.my_turn(player, "ending a Turn")
        if not turn.action_taken:
            raise Illegal("a Turn holds one Action; take it first")
        seat = self.seats[(self.seats.index(player) + 1) % len(self.seats)]
        self.turns_taken += 1
        self.turn = Turn(seat, self.turns_taken)

    # -- cards ---------------------------------------------------------------------------
    def play(self, player: str, name: str, target: str | None) -> None:
        realm, card = self.realm(player), self.card(name)
        self.not_waiting_on(player)
        if name not in realm.hand:
            raise Illegal(f"{player} holds no {name!r}", "eu-pop:6.action-cards.6")
        if card.takes_the_turn:
            if self.table:
                raise Illegal("only a Reaction interrupts a card being played",
                              "eu-pop:6.2.reactions.1")
            if self.my_turn(player, f"playing {name!r}").action_taken:
                raise Illegal(f"{player} has taken this Turn's Action", "eu-pop:6.action-cards.2")
        countered = None
        if name == "Counterespionage":
            countered = self.counter_target(target)
        power, ducats = self.cost(realm, card)
        if realm.power[card.deck] < power or realm.ducats < ducats:
            raise Illegal(f"{player} cannot pay for {name!r}", "eu-pop:6.action-cards.3")
        realm.power[card.deck] -= power
        realm.ducats -= ducats
        realm.hand.remove(name)
        if card.takes_the_turn:
            self.turn.action_taken = True  # type: ignore[union-attr]
        self.table.append(OnTheTable(player, card, countered.card.name if countered else None))

    def counter_target(self, target: str | None) -> OnTheTable:
        for play in reversed(self.table):
            if target is None or play.card.name == target:
                if "covert" not in play.card.kinds or play.countered:
                    raise Illegal(f"{play.card.name!r} is not a Covert Action",
                                  "eu-pop:6.2.covert.2")
                return play
        raise Illegal("Counterespionage needs a Covert Action being played",
                      "eu-pop:6.2.covert.2")

    def everyone_passes(self) -> None:
        while self.table:
            play = self.table.pop()
            if not play.countered:
                self.realms[play.player].ducats += play.card.effect_ducats
                if play.target is not None:
                    target = next((p for p in self.table if p.card.name == play.target
                                   and not p.countered), None)
                    if target is not None:
                        target.countered = True
            self.piles[play.card.deck][1].insert(0, play.card.name)

    def appoint(self, player: str, name: str) -> None:
        realm, card = self.realm(player), self.card(name)
        self.not_waiting_on(player)
        if name not in realm.hand:
            raise Illegal(f"{player} holds no {name!r}", "eu-pop:6.characters.2")
        if self.table:
            raise Illegal("a card is being played")
        self.my_turn(player, "appointing")
        realm.hand.remove(name)
        (realm.leaders if card.character == "leader" else realm.advisors).append(name)

    # -- decks ---------------------------------------------------------------------------
    def draw(self, player: str, deck: str, count: int) -> None:
        realm = self.realm(player)
        if deck not in self.piles:
            raise Unknown(f"no deck {deck!r}")
        self.not_waiting_on(player)
        for _ in range(count):
            draw, discard = self.piles[deck]
            if not draw and discard:
                keep = self.REBUILD_LEAVES if len(discard) > self.REBUILD_LEAVES else 0
                draw[:] = discard[keep:]
                del discard[keep:]
                self.rng.shuffle(draw)
            if not draw:
                return
            realm.hand.append(draw.pop(0))

    # -- Phase 5, Step C -----------------------------------------------------------------
    def step_c(self) -> None:
        if self.phase != 5:
            raise Illegal("Step C is a step of Phase 5", "eu-pop:6.cards-in-hand.2")
        if self.asking:
            raise Illegal("Step C is under way")
        self.asking = [n for n in self.seats if len(self.realms[n].hand) > self.HAND_LIMIT]

    def keep(self, player: str, cards: list[str]) -> None:
        realm = self.realm(player)
        if self.asked() != player:
            raise Illegal(f"{player} is not asked which cards to keep")
        if len(cards) > self.HAND_LIMIT:
            raise Illegal(f"keep at most {self.HAND_LIMIT} cards", "eu-pop:4.5.c.1")
        if Counter(cards) - Counter(realm.hand):
            raise Illegal(f"{player} does not hold {cards}", "eu-pop:4.5.c.2")
        left = list(realm.hand)
        for name in cards:
            left.remove(name)
        for name in left:
            self.piles[self.cards[name].deck][1].insert(0, name)
        realm.hand = list(cards)
        self.asking.pop(0)


# == the adapter =========================================================================

STATE_KEYS = {"players", "decks", "phase", "active_player", "window", "battle"}
PLAYER_KEYS = {"name", "hand", "power", "ducats", "cost_reductions", "display", "advisors",
               "leaders"}
PHASES = {"draw": 1, "action": 2, "peace": 3, "income": 4, "cleanup": 5}
NAMES = {number: name for name, number in PHASES.items()}
MODELLED_KINDS = ({"action"}, {"reaction"}, {"action", "covert"}, {"reaction", "covert"})
#: The EU action types the page lists that this engine carries out, with their fields.
FIELDS = {"draw": {"player", "deck", "count"}, "play": {"player", "card", "targets"},
          "resolve": set(), "end_turn": {"player"}, "appoint": {"player", "card"},
          "discard_down": set()}


def unsupported(reason: str, capability: str | None = None) -> JSON:
    reply = {"reply": "unsupported", "reason": reason}
    return {**reply, "capability": capability} if capability else reply


class Adapter:
    def __init__(self) -> None:
        self.cards = load_cards()
        self.game: Chronicle | None = None
        self.modelled = [n for n, c in self.cards.items() if set(c.kinds) in MODELLED_KINDS]

    def handle(self, request: JSON) -> JSON:
        op = request.get("op")
        try:
            if op == "describe":
                return self.describe()
            if op == "setup":
                return self.setup(request)
            if self.game is None:
                return {"reply": "errored", "message": "no game: send setup first"}
            if op == "observe":
                return self.observe(request.get("viewer"))
            if op == "act":
                return self.act(request["action"])
            if op == "choose":
                return self.choose(request["player"], request["choice"])
            return unsupported(f"unknown op {op!r}")
        except Unknown as exc:
            return {"reply": "errored", "message": str(exc)}

    def describe(self) -> JSON:
        caps = ["draw", "play", "hand-limit", "monarch-power", "ducats", "cost-reductions",
                "appoint"]
        return {"reply": "described", "engine": {
            "name": "Chronicle (EU, own Turns, strict adapter)", "version": "1",
            "protocol": 1, "games": [{"game": "eu-pop", "edition": "chapter 6, no displays"}],
            "capabilities": [f"eu-pop/{c}" for c in caps]
            + [f"eu-pop/card/{n}" for n in self.modelled]}}

    # -- setup ---------------------------------------------------------------------------
    def setup(self, request: JSON) -> JSON:
        if request.get("game") != "eu-pop":
            return unsupported(f"this engine plays eu-pop, not {request.get('game')!r}")
        state = request["state"]
        unknown = sorted(set(state) - STATE_KEYS) + sorted(
            {f"players[].{k}" for p in state["players"] for k in p} - {
                f"players[].{k}" for k in PLAYER_KEYS})
        if unknown:
            return unsupported(f"this adapter does not know state key {unknown[0]!r}")
        if "battle" in state:
            return unsupported("this engine has no Battles", "eu-pop/battle")
        if any("display" in p for p in state["players"]):
            return unsupported("this engine has no Display Cards", "eu-pop/display")
        if state.get("window") not in (None, "Action"):
            return unsupported(f"this engine has no timing window {state['window']!r}")
        rng = random.Random(request["seed"])
        realms = []
        for p in state["players"]:
            for key in ("power", "cost_reductions"):
                extra = set(p.get(key, {})) - {*DECKS, *(("ducats",) if key != "power" else ())}
                if extra:
                    return unsupported(f"this adapter does not know {key} {sorted(extra)[0]!r}")
            for name in [*p.get("hand", []), *p.get("advisors", []), *p.get("leaders", [])]:
                if name not in self.cards:
                    return {"reply": "errored", "message": f"no card {name!r}"}
            realms.append(Realm(p["name"], list(p.get("hand", [])),
                                {d: int(p.get("power", {}).get(d, 3)) for d in DECKS},
                                int(p.get("ducats", 15)), dict(p.get("cost_reductions", {})),
                                list(p.get("advisors", [])), list(p.get("leaders", []))))
        names = [r.name for r in realms]
        if len(set(names)) != len(names):
            return {"reply": "errored", "message": "a player is listed twice"}
        piles = {}
        held = Counter(c for r in realms for c in (*r.hand, *r.advisors, *r.leaders))
        for deck in DECKS:
            given = state.get("decks", {}).get(deck)
            if given is not None:
                for name in (*given["draw"], *given["discard"]):
                    if name not in self.cards or self.cards[name].deck != deck:
                        return {"reply": "errored",
                                "message": f"{name!r} is not a card of the {deck} deck"}
                piles[deck] = (list(given["draw"]), list(given["discard"]))
                continue
            whole = Counter({n: c.count for n, c in self.cards.items() if c.deck == deck})
            draw = list((whole - held).elements())
            rng.shuffle(draw)
            piles[deck] = (draw, [])
        extra = set(state.get("decks", {})) - set(DECKS)
        if extra:
            return {"reply": "errored", "message": f"no deck {sorted(extra)[0]!r}"}
        first = state.get("active_player", names[0])
        if first not in names:
            return {"reply": "errored", "message": f"no player {first!r}"}
        phase = PHASES.get(state.get("phase", "action"))
        if phase is None:
            return {"reply": "errored", "message": f"no phase {state['phase']!r}"}
        self.game = Chronicle(self.cards, realms, piles, phase, first, rng)
        return {"reply": "ready"}

    # -- act and choose --------------------------------------------------------------------
    def act(self, action: JSON) -> JSON:
        kind = action.get("type")
        if kind not in FIELDS:
            return unsupported(f"this engine does not know the action type {kind!r}")
        extra = set(action) - FIELDS[kind] - {"type"}
        if extra:
            return unsupported(f"this adapter does not know {kind}'s field {sorted(extra)[0]!r}")
        targets = action.get("targets") or {}
        if set(targets) - {"card"}:
            return unsupported(f"this engine does not take the targets {sorted(targets)}")
        if kind == "play" and action["card"] not in self.modelled:
            if action["card"] not in self.cards:
                return {"reply": "errored", "message": f"no card {action['card']!r}"}
            return unsupported(f"this engine does not model {action['card']!r}",
                               f"eu-pop/card/{action['card']}")
        game = self.game
        assert game is not None
        before = copy.deepcopy(game)  # an end_turn is two moves of the engine's
        try:
            if kind == "draw":
                game.draw(action["player"], action["deck"], int(action["count"]))
            elif kind == "play":
                game.play(action["player"], action["card"], targets.get("card"))
            elif kind == "resolve":
                game.everyone_passes()
            elif kind == "appoint":
                game.appoint(action["player"], action["card"])
            elif kind == "discard_down":
                game.step_c()
            else:
                turn = game.turn
                if turn is not None and turn.player == action["player"] \
                        and not turn.action_taken:
                    game.basic_action(action["player"])
                game.finish_turn(action["player"])
        except Illegal as exc:
            self.game = before
            reply = {"reply": "rejected", "reason": str(exc)}
            return {**reply, "rule": exc.rule} if exc.rule else reply
        return {"reply": "accepted"}

    def choose(self, player: str, choice: JSON) -> JSON:
        game = self.game
        assert game is not None
        game.realm(player)
        if game.asked() != player:
            return {"reply": "rejected", "reason": f"{player} has no decision to make"}
        if "keep" not in choice:
            return {"reply": "rejected", "reason": f"{player} is asked which cards to keep"}
        try:
            game.keep(player, list(choice["keep"]))
        except Illegal as exc:
            return {"reply": "rejected", "reason": str(exc)}
        return {"reply": "accepted"}

    # -- observe ---------------------------------------------------------------------------
    def observe(self, viewer: str | None) -> JSON:
        game = self.game
        assert game is not None
        if viewer not in (None, "*") and viewer not in game.realms:
            return {"reply": "errored", "message": f"unknown viewer {viewer!r}"}
        players = {}
        for name in game.seats:
            r = game.realms[name]
            players[name] = {
                "hand": {"count": len(r.hand),
                         "cards": list(r.hand) if viewer in ("*", name) else []},
                "power": dict(r.power), "ducats": r.ducats,
                "cost_reductions": dict(r.reductions),
                "advisors": list(r.advisors), "leaders": list(r.leaders)}
        decks = {}
        for deck, (draw, discard) in game.piles.items():
            shown: JSON = {"count": len(draw)}
            if viewer == "*":
                shown["cards"] = list(draw)
            decks[deck] = {"draw": shown, "discard": list(discard)}
        asked = game.asked()
        return {"reply": "view", "view": {
            "phase": NAMES[game.phase],
            "active_player": game.turn.player if game.turn else None,
            "turn": game.turns_taken,
            "players": players, "decks": decks,
            "being_played": [{"player": p.player, "card": p.card.name} for p in game.table],
            "pending": [] if asked is None else [
                {"player": asked, "decision": "keep", "count": game.HAND_LIMIT,
                 "from": "hand"}],
        }}


def factory() -> Adapter:
    return Adapter()
