"""Style: an EU engine of values over a pipe, with a handful of cards. Written from
docs/protocol.md, docs/capabilities.md, the JSON schemas, chapter 6 of the rulebook (and the
related chapters it points to) and the card facts (``rules-oracle cards --game eu-pop
--json``) alone, as an engine developer outside the project would; nothing here imports the
oracle. Run it as ``cmd:python tests/styles/eu_values.py``.

The engine is a functional core: a game is a frozen value, a move is a frozen value, and
``step(game, move)`` returns the next game or raises ``Refused``; nothing ever changes in
place. Shuffles are pure too (the generator is seeded from the game's seed and how many
shuffles it has made). The shell (the pipe loop at the bottom) keeps every game it has
reached in a list, so a refused move leaves the last one current and "nothing changed" is
free. It models the three decks (drawing, the rebuild leaving the top 5 discards out),
secret hands, Monarch Power and Ducats with cost reductions, Turns (one card for its Action
per Turn), Reactions, Counterespionage, and Phase 5 Step C; six cards: Royal Decree, Tax
Reform, Court Intrigue, Secret Treaty, Counterespionage and Forced March. No Display Cards,
Battles, Appointing or the set-up draw: it declares none of those capabilities and answers
their keys and actions ``unsupported``.

Its own readings where the chapter is silent (each is the engine's choice by
docs/protocol.md, "Questions an EU adapter asks", unless marked):
- Step C asks every player over 5 at once, and a player must keep exactly 5.
- While a card is being played, only Reactions may be played (another card for its Action,
  ``end_turn`` and ``draw`` are refused until ``resolve``).
- Counterespionage may counter any Covert card being played, another Counterespionage
  included, and a player's own.
- A draw takes what the deck and its discard pile hold, and no more.
- Hand sizes are shown to every viewer (the cards only to the owner and the referee).

Two slips are kept on purpose (tests/test_eu_values_engine.py checks that each is charged
to its rule alone):
- SLIP_REBUILD: the rebuild compares with ``< 5`` where the chapter says "5 or fewer", so a
  discard pile of exactly 5 cards is left out whole and the new deck is empty
  (eu-pop:6.decks.5).
- SLIP_REACTION_TURN: playing a Reaction marks the Turn's Action as taken, as any card
  does (eu-pop:6.2.reactions.1: Reactions "interrupt play"; they take no Turn).
"""

from __future__ import annotations

import json
import os
import random
import sys
import traceback
from dataclasses import dataclass, replace
from typing import Any

# EU_VALUES_SLIPS=none runs the engine without them (the test compares the two).
SLIPS = os.environ.get("EU_VALUES_SLIPS", "rebuild,reaction_turn").split(",")
SLIP_REBUILD = "rebuild" in SLIPS
SLIP_REACTION_TURN = "reaction_turn" in SLIPS

POWERS = ("administrative", "diplomatic", "military")
HAND_LIMIT = 5
KEEP_OUT = 5

# The card facts this engine needs, copied from `rules-oracle cards --game eu-pop --json`
# (name: deck, copies, Monarch Power cost, Ducat cost, kinds, Ducats gained on resolving).
CARDS: dict[str, tuple[str, int, int, int, tuple[str, ...], int]] = {
    "Royal Decree": ("administrative", 2, 2, 0, ("action",), 2),
    "Tax Reform": ("administrative", 2, 1, 3, ("action",), 0),
    "Court Intrigue": ("administrative", 2, 1, 0, ("reaction",), 0),
    "Royal Manufactory": ("administrative", 2, 1, 0, ("display",), 0),
    "Grand Archive": ("administrative", 1, 2, 0, ("display",), 0),
    "Royal Marriage": ("diplomatic", 2, 2, 0, ("action",), 0),
    "Secret Treaty": ("diplomatic", 2, 1, 0, ("action", "covert"), 3),
    "Counterespionage": ("diplomatic", 2, 1, 0, ("reaction", "covert"), 0),
    "Spy Network": ("diplomatic", 1, 1, 0, ("display",), 0),
    "Forced March": ("military", 2, 1, 0, ("action",), 0),
    "Volley Fire": ("military", 3, 1, 0, ("battle_action",), 0),
    "Combined Arms": ("military", 2, 2, 0, ("battle_action",), 0),
    "Bold Gambit": ("military", 2, 1, 0, ("battle_action",), 0),
    "Standing Army": ("military", 1, 2, 0, ("display",), 0),
}
MODELLED = ("Royal Decree", "Tax Reform", "Court Intrigue", "Secret Treaty",
            "Counterespionage", "Forced March")


def deck_of(card: str) -> str:
    return CARDS[card][0]


def kinds(card: str) -> tuple[str, ...]:
    return CARDS[card][4]


# == values =================================================================================


@dataclass(frozen=True)
class Player:
    name: str
    hand: tuple[str, ...]
    power: tuple[int, int, int]  # in POWERS order
    ducats: int
    reductions: tuple[int, int, int, int]  # POWERS, then ducats


@dataclass(frozen=True)
class Pile:
    draw: tuple[str, ...]  # top first
    discard: tuple[str, ...]  # top first


@dataclass(frozen=True)
class Play:
    player: str
    card: str
    target: str | None = None  # what a Counterespionage counters


@dataclass(frozen=True)
class Owe:
    player: str
    count: int


@dataclass(frozen=True)
class Game:
    players: tuple[Player, ...]
    piles: tuple[Pile, Pile, Pile]  # in POWERS order
    phase: str
    active: str | None
    turn: int
    acted: bool  # the active player has taken the Turn's Action
    stack: tuple[Play, ...]  # being played, in play order
    owed: tuple[Owe, ...]
    seed: int
    shuffles: int


@dataclass(frozen=True)
class Draw:
    player: str
    deck: str
    count: int


@dataclass(frozen=True)
class PlayCard:
    player: str
    card: str
    target: str | None


@dataclass(frozen=True)
class Resolve:
    pass


@dataclass(frozen=True)
class EndTurn:
    player: str


@dataclass(frozen=True)
class StepC:
    pass


@dataclass(frozen=True)
class Keep:
    player: str
    cards: tuple[str, ...]


class Refused(Exception):
    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.rule = rule


# == the rules: pure functions ================================================================


def player(game: Game, name: str) -> Player:
    return next(p for p in game.players if p.name == name)


def with_player(game: Game, new: Player) -> Game:
    return replace(game, players=tuple(new if p.name == new.name else p for p in game.players))


def with_pile(game: Game, deck: str, pile: Pile) -> Game:
    piles = list(game.piles)
    piles[POWERS.index(deck)] = pile
    return replace(game, piles=(piles[0], piles[1], piles[2]))


def pile(game: Game, deck: str) -> Pile:
    return game.piles[POWERS.index(deck)]


def without(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...] | None:
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return None
        rest.remove(card)
    return tuple(rest)


def shuffled(game: Game, cards: tuple[str, ...]) -> tuple[Game, tuple[str, ...]]:
    order = list(cards)
    random.Random(game.seed * 7919 + game.shuffles).shuffle(order)
    return replace(game, shuffles=game.shuffles + 1), tuple(order)


def discard(game: Game, card: str) -> Game:
    deck = deck_of(card)
    old = pile(game, deck)
    return with_pile(game, deck, Pile(old.draw, (card, *old.discard)))


def rebuilt(game: Game, deck: str) -> Game:
    """6.decks.4-5: shuffle the discard pile into a new deck, leaving the top 5 out unless
    it holds 5 or fewer."""
    old = pile(game, deck)
    whole = len(old.discard) < KEEP_OUT if SLIP_REBUILD else len(old.discard) <= KEEP_OUT
    kept = () if whole else old.discard[:KEEP_OUT]
    game, new = shuffled(game, old.discard[len(kept):])
    return with_pile(game, deck, Pile(new, kept))


def draw(game: Game, move: Draw) -> Game:
    refuse_while_playing(game, "draw")
    for _ in range(move.count):
        if not pile(game, move.deck).draw:
            game = rebuilt(game, move.deck)
        top = pile(game, move.deck)
        if not top.draw:
            break  # deck and discard pile are both spent: take what there is
        game = with_pile(game, move.deck, Pile(top.draw[1:], top.discard))
        who = player(game, move.player)
        game = with_player(game, replace(who, hand=(*who.hand, top.draw[0])))
    return game


def refuse_while_playing(game: Game, what: str) -> None:
    if game.stack:
        raise Refused(f"cannot {what} while {game.stack[-1].card} is being played")


def pay(game: Game, who: Player, card: str) -> Game:
    deck, _, cost, ducats, _, _ = CARDS[card]
    index = POWERS.index(deck)
    cost = max(0, cost - who.reductions[index])
    ducats = max(0, ducats - who.reductions[3])
    if who.power[index] < cost:
        raise Refused(f"{who.name} has {who.power[index]} {deck} power, {card} costs {cost}",
                      "eu-pop:6.action-cards.3")
    if who.ducats < ducats:
        raise Refused(f"{who.name} has {who.ducats} ducats, {card} costs {ducats}",
                      "eu-pop:6.action-cards.4")
    power = list(who.power)
    power[index] -= cost
    return with_player(game, replace(who, power=(power[0], power[1], power[2]),
                                     ducats=who.ducats - ducats))


def play(game: Game, move: PlayCard) -> Game:
    who = player(game, move.player)
    rest = without(who.hand, (move.card,))
    if rest is None:
        raise Refused(f"{move.player} holds no {move.card}")
    reaction = "reaction" in kinds(move.card)
    if not reaction:
        refuse_while_playing(game, f"play {move.card} for its Action")
        if game.phase != "action" or game.active != move.player:
            raise Refused(f"it is not {move.player}'s Turn in the Action Phase",
                          "eu-pop:6.action-cards.2")
        if game.acted:
            raise Refused(f"{move.player} has already taken this Turn's Action",
                          "eu-pop:6.action-cards.2")
    target = None
    if move.card == "Counterespionage":
        target = move.target
        if not any(p.card == target for p in game.stack):
            raise Refused(f"{target!r} is not being played", "eu-pop:6.2.covert.2")
        if "covert" not in kinds(target or ""):
            raise Refused(f"{target} is no Covert Action", "eu-pop:6.2.covert.2")
    game = pay(game, who, move.card)
    who = player(game, move.player)
    game = with_player(game, replace(who, hand=rest))
    takes_turn = not reaction or SLIP_REACTION_TURN
    if takes_turn and game.phase == "action" and game.active == move.player:
        game = replace(game, acted=True)
    return replace(game, stack=(*game.stack, Play(move.player, move.card, target)))


def resolve(game: Game) -> Game:
    """Last played first: a Counterespionage that resolves counters its target, which is
    then discarded without its effect (its cost stays paid, 6.2.covert.3)."""
    countered: list[int] = []
    stack = game.stack
    game = replace(game, stack=())
    for index in range(len(stack) - 1, -1, -1):
        entry = stack[index]
        if index not in countered:
            if entry.target is not None:
                hit = next((i for i in range(index - 1, -1, -1)
                            if stack[i].card == entry.target and i not in countered), None)
                if hit is not None:
                    countered.append(hit)
            gain = CARDS[entry.card][5]
            if gain:
                who = player(game, entry.player)
                game = with_player(game, replace(who, ducats=who.ducats + gain))
        game = discard(game, entry.card)
    return game


def end_turn(game: Game, move: EndTurn) -> Game:
    refuse_while_playing(game, "end a Turn")
    if game.phase != "action" or game.active != move.player:
        raise Refused(f"it is not {move.player}'s Turn")
    names = [p.name for p in game.players]
    following = names[(names.index(move.player) + 1) % len(names)]
    return replace(game, active=following, turn=game.turn + 1, acted=False)


def step_c(game: Game) -> Game:
    if game.phase != "cleanup":
        raise Refused("the hand limit is only checked in Phase 5, Step C",
                      "eu-pop:6.cards-in-hand.2")
    owed = tuple(Owe(p.name, HAND_LIMIT) for p in game.players if len(p.hand) > HAND_LIMIT)
    return replace(game, owed=owed)


def keep(game: Game, move: Keep) -> Game:
    owe = next((o for o in game.owed if o.player == move.player), None)
    if owe is None:
        raise Refused(f"{move.player} has no decision to make")
    if len(move.cards) != owe.count:
        raise Refused(f"{move.player} must keep exactly {owe.count} cards", "eu-pop:4.5.c.1")
    who = player(game, move.player)
    rest = without(who.hand, move.cards)
    if rest is None:
        raise Refused(f"{move.player} does not hold all of {list(move.cards)}")
    game = with_player(game, replace(who, hand=move.cards))
    for card in rest:
        game = discard(game, card)
    return replace(game, owed=tuple(o for o in game.owed if o is not owe))


def step(game: Game, move: Any) -> Game:
    """The one entry point: the game after ``move``, or ``Refused``."""
    mover = getattr(move, "player", None)
    if mover is not None and not isinstance(move, Keep) and any(
            o.player == mover for o in game.owed):
        raise Refused(f"{mover} must first keep {HAND_LIMIT} cards")
    if isinstance(move, Draw):
        return draw(game, move)
    if isinstance(move, PlayCard):
        return play(game, move)
    if isinstance(move, Resolve):
        return resolve(game)
    if isinstance(move, EndTurn):
        return end_turn(game, move)
    if isinstance(move, StepC):
        return step_c(game)
    if isinstance(move, Keep):
        return keep(game, move)
    raise TypeError(move)


# == the shell: protocol <-> values ============================================================

PLAYER_KEYS = {"name", "hand", "power", "ducats", "cost_reductions"}
LACKING = {"display": "eu-pop/display", "advisors": "eu-pop/appoint",
           "leaders": "eu-pop/appoint", "battle": "eu-pop/battle"}
STATE_KEYS = {"players", "decks", "phase", "active_player", "window"}
ACTIONS_LACKING = {"use": "eu-pop/display", "appoint": "eu-pop/appoint",
                   "battle_step": "eu-pop/battle", "battle_round": "eu-pop/battle",
                   "battle_end": "eu-pop/battle", "battle_pass": "eu-pop/battle-pass",
                   "setup_draw": "eu-pop/setup", "setup_hold": "eu-pop/setup"}
CAPABILITIES = ["eu-pop/draw", "eu-pop/play", "eu-pop/monarch-power", "eu-pop/ducats",
                "eu-pop/cost-reductions", "eu-pop/hand-limit",
                *(f"eu-pop/card/{name}" for name in MODELLED)]


class Unsupported(Exception):
    def __init__(self, reason: str, capability: str | None = None) -> None:
        super().__init__(reason)
        self.capability = capability


class Nonsense(Exception):
    """The request names something that is not in the game: ``errored``."""


def known_card(card: Any) -> str:
    if card not in CARDS:
        raise Nonsense(f"no card named {card!r} in eu-pop")
    return card


def new_game(state: dict[str, Any], seed: int) -> Game:
    for key in state:
        if key in LACKING:
            raise Unsupported(f"this engine does not model {key!r}", LACKING[key])
        if key not in STATE_KEYS:
            raise Unsupported(f"this engine does not know the state key {key!r}")
    players = []
    for entry in state["players"]:
        for key in entry:
            if key in LACKING:
                raise Unsupported(f"this engine does not model {key!r}", LACKING[key])
            if key not in PLAYER_KEYS:
                raise Unsupported(f"this engine does not know the player key {key!r}")
        power = {name: 3 for name in POWERS} | entry.get("power", {})
        cuts = entry.get("cost_reductions", {})
        players.append(Player(
            entry["name"], tuple(known_card(c) for c in entry.get("hand", [])),
            (power["administrative"], power["diplomatic"], power["military"]),
            entry.get("ducats", 15),
            (*(cuts.get(name, 0) for name in POWERS), cuts.get("ducats", 0))))
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise Nonsense(f"a player is listed twice: {names}")
    held = [card for p in players for card in p.hand]
    game = Game(tuple(players), (Pile((), ()), Pile((), ()), Pile((), ())),
                state.get("phase", "action"), state.get("active_player", names[0]), 0, False,
                (), (), seed, 0)
    if game.active not in names:
        raise Nonsense(f"unknown active player {game.active!r}")
    decks = state.get("decks", {})
    for deck in POWERS:
        given = decks.get(deck)
        if given is None:
            rest = [name for name, facts in CARDS.items() if facts[0] == deck
                    for _ in range(facts[1])]
            for card in held:
                if card in rest:
                    rest.remove(card)
            game, order = shuffled(game, tuple(rest))
            game = with_pile(game, deck, Pile(order, ()))
        else:
            cards = [known_card(c) for c in (*given.get("draw", []), *given.get("discard", []))]
            wrong = [c for c in cards if deck_of(c) != deck]
            if wrong:
                raise Nonsense(f"{wrong[0]} is no card of the {deck} deck")
            held += cards
            game = with_pile(game, deck, Pile(tuple(given.get("draw", [])),
                                              tuple(given.get("discard", []))))
    for card in set(held):
        if held.count(card) > CARDS[card][1]:
            raise Nonsense(f"{held.count(card)} copies of {card}; the game has {CARDS[card][1]}")
    return game


def move_of(game: Game, action: dict[str, Any]) -> Any:
    kind = action.get("type")
    if kind in ACTIONS_LACKING:
        raise Unsupported(f"this engine does not model {kind!r}", ACTIONS_LACKING[kind])
    names = [p.name for p in game.players]
    if "player" in action and action["player"] not in names:
        raise Nonsense(f"unknown player {action['player']!r}")
    if kind == "draw":
        if action["deck"] not in POWERS:
            raise Nonsense(f"no deck named {action['deck']!r}")
        return Draw(action["player"], action["deck"], action["count"])
    if kind == "play":
        card = known_card(action["card"])
        if card not in MODELLED:
            raise Unsupported(f"this engine does not model {card!r}", f"eu-pop/card/{card}")
        targets = action.get("targets") or {}
        for key in targets:
            if key != "card":
                raise Unsupported(f"this engine does not know the target {key!r}")
        target = targets.get("card")
        if target is not None:
            known_card(target)
        return PlayCard(action["player"], card, target)
    if kind == "resolve":
        return Resolve()
    if kind == "end_turn":
        return EndTurn(action["player"])
    if kind == "discard_down":
        return StepC()
    raise Unsupported(f"this engine does not know the action type {kind!r}")


def view_of(game: Game, viewer: Any) -> dict[str, Any]:
    names = [p.name for p in game.players]
    if viewer not in (None, "*") and viewer not in names:
        raise Nonsense(f"unknown viewer {viewer!r}")
    players = {}
    for p in game.players:
        mine = viewer in ("*", p.name)
        players[p.name] = {
            "hand": {"count": len(p.hand), "cards": list(p.hand) if mine else []},
            "hand_limit": HAND_LIMIT,
            "power": dict(zip(POWERS, p.power, strict=True)),
            "ducats": p.ducats,
            "cost_reductions": {**dict(zip(POWERS, p.reductions[:3], strict=True)),
                                "ducats": p.reductions[3]}}
    decks = {}
    for deck, one in zip(POWERS, game.piles, strict=True):
        decks[deck] = {"draw": {"count": len(one.draw)}, "discard": list(one.discard)}
        if viewer == "*":
            decks[deck]["draw"]["cards"] = list(one.draw)
    return {"phase": game.phase, "active_player": game.active, "turn": game.turn,
            "players": players, "decks": decks,
            "being_played": [{"player": e.player, "card": e.card} for e in game.stack],
            "pending": [{"player": o.player, "decision": "keep", "count": o.count,
                         "from": "hand"} for o in game.owed]}


class Shell:
    """Keeps every game reached; the last is current. A refused move adds none."""

    def __init__(self) -> None:
        self.games: list[Game] = []

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        try:
            if op == "describe":
                return {"reply": "described", "engine": {
                    "name": "eu_values", "version": "1.0", "protocol": 1,
                    "games": [{"game": "eu-pop"}], "capabilities": CAPABILITIES}}
            if op == "setup":
                if request.get("game") != "eu-pop":
                    raise Unsupported(f"this engine plays eu-pop, not {request.get('game')!r}")
                self.games = [new_game(request["state"], int(request.get("seed") or 0))]
                return {"reply": "ready"}
            if not self.games:
                raise Nonsense("no game has been set up")
            game = self.games[-1]
            if op == "observe":
                return {"reply": "view", "view": view_of(game, request.get("viewer"))}
            if op == "act":
                move = move_of(game, request["action"])
            elif op == "choose":
                if request["player"] not in [p.name for p in game.players]:
                    raise Nonsense(f"unknown player {request['player']!r}")
                choice = request["choice"]
                if "keep" not in choice:
                    raise Refused(f"{request['player']} owes no {sorted(choice)} decision")
                move = Keep(request["player"], tuple(known_card(c) for c in choice["keep"]))
            else:
                raise Unsupported(f"this engine does not know the op {op!r}")
            self.games.append(step(game, move))
            return {"reply": "accepted", "events": []}
        except Refused as refused:
            reply = {"reply": "rejected", "reason": str(refused)}
            return reply | ({"rule": refused.rule} if refused.rule else {})
        except Unsupported as lacking:
            reply = {"reply": "unsupported", "reason": str(lacking)}
            return reply | ({"capability": lacking.capability} if lacking.capability else {})
        except Nonsense as nonsense:
            return {"reply": "errored", "message": str(nonsense)}
        except Exception as crash:  # a crash is data, never the end of the loop
            return {"reply": "errored", "message": repr(crash),
                    "context": {"traceback": traceback.format_exc()}}


def main() -> None:
    shell = Shell()
    for line in sys.stdin:
        request: Any = None
        try:
            request = json.loads(line)
            reply = shell.handle(request)
        except Exception as crash:  # one bad line must not end the engine
            reply = {"reply": "errored", "message": repr(crash)}
        ident = request.get("id") if isinstance(request, dict) else None
        sys.stdout.write(json.dumps({**reply, "id": ident}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
