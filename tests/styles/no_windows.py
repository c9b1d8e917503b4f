"""Style: no phases, turns or timing windows, as a table of rules (docs/protocol.md, "Adapter
patterns": "No phases or timing windows" and "Refusing what it was not told"). Written from
that page alone, as a TI4 engine developer outside the project would.

The engine checks each move against a table of rules, each with its rule id, in order; it
models the action deck (drawing, with an immediate reshuffle), hands and the hand limit (a
keep decision), trade goods, units, reveals, and three cards: Lucky Shot, Sabotage and
Bribery. Cards can be played at any time: it has no notion of phase, window or turn, so the
adapter takes ``phase``, ``window``, ``active_player`` and ``initiative`` (keys that only
restrict) and shows them ``null``, answers the actions about time (``window``,
``end_turn``, ``status_draw``) ``unsupported``, and refuses every other key, action type and
target it was not told about. The timing rules (ti4:2.6, ti4:2.6.1) fail where they forbid a
play the engine allows: that is what the engine does. Also served over a pipe by itself
(``cmd:python3 tests/styles/no_windows.py``), with no oracle code.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

try:  # served alone over a pipe, or imported as the styles package's
    from . import ti4_card_facts
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from styles import ti4_card_facts

FACTS = ti4_card_facts()
UNIT_TYPES = {
    "dreadnought",
    "carrier",
    "cruiser",
    "destroyer",
    "fighter",
    "flagship",
    "war sun",
    "infantry",
    "mech",
    "pds",
    "space dock",
}
MODELLED = {"Lucky Shot", "Sabotage", "Bribery"}
LIMIT = 7


class Refused(Exception):
    def __init__(self, reason, rule=None):
        super().__init__(reason)
        self.rule = rule


class Nonsense(Exception):
    pass


class Lacks(Exception):
    def __init__(self, reason, capability=None):
        super().__init__(reason)
        self.capability = capability


# == the engine: a table of rules ===========================================================


class Table:
    def __init__(self, seed):
        self.random = random.Random(seed)
        self.order = []
        self.hands = {}
        self.trade_goods = {}
        self.revealed = {}
        self.units = []
        self.draw_pile = []
        self.discard_pile = []
        self.stack = []  # [player, card, targets, cancelled]
        self.pending = {}  # player -> count to keep

    # each rule: (id, predicate(move) -> reason or None); checked in order
    def rules_for(self, move):
        kind = move["kind"]
        table = [("ti4:note-10", self.rule_no_pending)]
        if kind == "play":
            table += [
                ("ti4:2.7", self.rule_in_hand),
                ("ti4:2.7", self.rule_one_at_a_time),
                ("ti4:note-9", self.rule_target_exists),
                ("ti4:note-7", self.rule_not_own),
                ("ti4:2.6.1", self.rule_target_fits),
            ]
        if kind == "draw":
            table += [("ti4:2.7", self.rule_nothing_being_played)]
        return table

    def check(self, move):
        for rule, predicate in self.rules_for(move):
            reason = predicate(move)
            if reason:
                raise Refused(reason, rule)

    def rule_no_pending(self, move):
        if move["player"] in self.pending and move["kind"] != "choose":
            return f"{move['player']} must first choose the cards to keep"

    def rule_in_hand(self, move):
        if move["card"] not in self.hands[move["player"]]:
            return f"{move['player']} has no {move['card']!r} in hand"

    def rule_one_at_a_time(self, move):
        if self.stack and move["card"] != "Sabotage":
            return "a card is being played"
        if move["card"] == "Sabotage" and self.sabotage_target(move) is None:
            return "no other player's card is being played"

    def rule_nothing_being_played(self, move):
        if self.stack:
            return "a card is being played"

    def rule_target_exists(self, move):
        if move["card"] == "Lucky Shot" and self.unit(move["targets"].get("unit")) is None:
            return f"no unit {move['targets'].get('unit')!r} is on the board"

    def rule_not_own(self, move):
        if (
            move["card"] == "Lucky Shot"
            and self.unit(move["targets"]["unit"])["owner"] == move["player"]
        ):
            return "Lucky Shot targets another player's ship"

    def rule_target_fits(self, move):
        if move["card"] == "Lucky Shot" and self.unit(move["targets"]["unit"])["type"] not in {
            "dreadnought",
            "cruiser",
            "destroyer",
        }:
            return "Lucky Shot destroys a dreadnought, cruiser or destroyer"
        if move["card"] == "Bribery":
            n = move["targets"].get("trade_goods", 0)
            if n > self.trade_goods[move["player"]]:
                return f"{move['player']} has {self.trade_goods[move['player']]} trade goods"

    def unit(self, uid):
        return next((u for u in self.units if u["id"] == uid), None)

    def sabotage_target(self, move):
        open_ = [
            i
            for i, (p, c, _, x) in enumerate(self.stack)
            if not x and c != "Sabotage" and p != move["player"]
        ]
        named = move["targets"].get("card")
        if named:
            open_ = [i for i in open_ if self.stack[i][1] == named]
        return open_[-1] if open_ else None

    # moves
    def draw(self, player, count):
        self.check({"kind": "draw", "player": player})
        for _ in range(count):
            if not self.draw_pile:
                if not self.discard_pile:
                    break
                self.reshuffle()
            self.hands[player].append(self.draw_pile.pop(0))
        if not self.draw_pile and self.discard_pile:
            self.reshuffle()
        self.over_limit(player)

    def reshuffle(self):
        self.draw_pile = self.discard_pile
        self.discard_pile = []
        self.random.shuffle(self.draw_pile)

    def over_limit(self, player):
        if len(self.hands[player]) > LIMIT:
            self.pending[player] = LIMIT

    def play(self, player, card, targets):
        move = {"kind": "play", "player": player, "card": card, "targets": targets}
        self.check(move)
        self.hands[player].remove(card)
        index = self.sabotage_target(move) if card == "Sabotage" else None
        self.stack.append([player, card, {**targets, "index": index}, False])

    def resolve(self):
        while self.stack:
            player, card, targets, cancelled = self.stack.pop()
            if not cancelled:
                if card == "Sabotage":
                    self.stack[targets["index"]][3] = True
                elif card == "Lucky Shot":
                    self.units = [u for u in self.units if u["id"] != targets["unit"]]
                elif card == "Bribery":
                    self.trade_goods[player] -= targets.get("trade_goods", 0)
            self.discard_pile.insert(0, card)

    def reveal(self, player, cards):
        self.check({"kind": "reveal", "player": player})
        if Counter(cards) - Counter(self.hands[player]):
            raise Refused(f"{player} does not hold {cards}")
        self.revealed[player] = list(cards)

    def keep(self, player, keep):
        if player not in self.pending:
            raise Refused(f"{player} has no decision to make")
        if len(keep) != self.pending[player]:
            raise Refused(f"keep exactly {self.pending[player]} cards", "ti4:2.4")
        rest = Counter(self.hands[player]) - Counter(keep)
        if Counter(keep) - Counter(self.hands[player]):
            raise Refused(f"{player} does not hold {keep}")
        self.hands[player] = list(keep)
        self.discard_pile = list(rest.elements()) + self.discard_pile
        del self.pending[player]

    def seen(self, owner, viewer):
        hand = self.hands[owner]
        if viewer in ("*", owner):
            return list(hand)
        shown, left = [], Counter(hand)
        for c in self.revealed.get(owner, []):
            if left[c]:
                shown.append(c)
                left[c] -= 1
        return shown


# == the adapter ============================================================================

STATE_KEYS = {"players", "decks", "units", "phase", "window", "active_player", "initiative"}
PLAYER_KEYS = {"name", "hand", "trade_goods", "faction"}
CAPABILITIES = [
    "ti4/draw",
    "ti4/play",
    "ti4/reveal",
    "ti4/units",
    "ti4/trade-goods",
    "ti4/card/Lucky Shot",
    "ti4/card/Sabotage",
    "ti4/card/Bribery",
]
TARGETS = {"Lucky Shot": {"unit"}, "Sabotage": {"card"}, "Bribery": {"trade_goods"}}


class Adapter:
    table: Table | None = None

    def setup(self, state, seed):
        if set(state) - STATE_KEYS:
            raise Lacks(f"this engine has no {sorted(set(state) - STATE_KEYS)}")
        t = Table(seed)
        for p in state["players"]:
            if set(p) - PLAYER_KEYS:
                raise Lacks(f"this engine has no player keys {sorted(set(p) - PLAYER_KEYS)}")
            if p.get("faction") in ("Yssaril", "Hacan"):
                raise Lacks(
                    f"this engine does not model {p['faction']}", f"ti4/faction/{p['faction']}"
                )
            if p["name"] in t.hands:
                raise Nonsense(f"{p['name']} is listed twice")
            t.order.append(p["name"])
            t.hands[p["name"]] = list(p.get("hand", []))
            t.trade_goods[p["name"]] = p.get("trade_goods", 0)
        for c in (c for h in t.hands.values() for c in h):
            if c not in FACTS:
                raise Nonsense(f"no card {c!r} in TI4")
        deck = (state.get("decks") or {}).get("action")
        if deck is None:
            rest = Counter({n: f["count"] for n, f in FACTS.items()})
            rest.subtract(Counter(c for h in t.hands.values() for c in h))
            t.draw_pile = sorted(rest.elements())
            random.Random(seed).shuffle(t.draw_pile)
        else:
            t.draw_pile, t.discard_pile = list(deck["draw"]), list(deck["discard"])
        for u in state.get("units", []):
            if u["type"] not in UNIT_TYPES or u["owner"] not in t.hands:
                raise Nonsense(f"bad unit {u}")
            t.units.append(dict(u))
        for p in t.order:
            t.over_limit(p)
        self.table = t

    def act(self, a):
        t = self.table
        kind = a.get("type")
        if kind not in ("draw", "play", "resolve", "reveal"):
            raise Lacks(
                f"this engine does not know the action type {kind!r}"
                " (it has no phases, turns or windows)"
            )
        if "player" in a and a["player"] not in t.hands:
            raise Nonsense(f"unknown player {a['player']!r}")
        if kind == "draw":
            t.draw(a["player"], a["count"])
        elif kind == "play":
            card, targets = a["card"], a.get("targets") or {}
            if card not in FACTS:
                raise Nonsense(f"no card {card!r} in TI4")
            if card not in MODELLED:
                raise Lacks(f"this engine does not model {card!r}", f"ti4/card/{card}")
            if set(targets) - TARGETS[card]:
                raise Lacks(
                    f"this engine has no targets {sorted(set(targets) - TARGETS[card])} for {card}"
                )
            t.play(a["player"], card, targets)
        elif kind == "resolve":
            t.resolve()
        else:
            t.reveal(a["player"], a["cards"])

    def choose(self, player, choice):
        if player not in self.table.hands:
            raise Nonsense(f"unknown player {player!r}")
        if "keep" not in choice:
            raise Refused("the decision is which cards to keep")
        self.table.keep(player, choice["keep"])

    def observe(self, viewer):
        t = self.table
        if viewer not in (None, "*") and viewer not in t.hands:
            raise Nonsense(f"unknown viewer {viewer!r}")
        draw = {"count": len(t.draw_pile)}
        if viewer == "*":
            draw["cards"] = list(t.draw_pile)
        return {
            "phase": None,
            "window": None,
            "active_player": None,
            "players": {
                p: {
                    "hand": {"count": len(t.hands[p]), "cards": t.seen(p, viewer)},
                    "trade_goods": t.trade_goods[p],
                }
                for p in t.order
            },
            "decks": {"action": {"draw": draw, "discard": list(t.discard_pile)}},
            "being_played": [{"player": p, "card": c} for p, c, _, x in t.stack],
            "pending": [
                {"player": p, "decision": "keep", "count": n} for p, n in t.pending.items()
            ],
            "units": [dict(u) for u in t.units],
        }

    def handle(self, request):
        op = request.get("op")
        try:
            if op == "describe":
                return {
                    "reply": "described",
                    "engine": {
                        "name": "timeless",
                        "version": "0.1",
                        "protocol": 1,
                        "games": [{"game": "ti4"}],
                        "capabilities": CAPABILITIES,
                    },
                }
            if op == "setup":
                if request["game"] != "ti4":
                    raise Lacks(f"this engine plays ti4, not {request['game']}")
                self.setup(request["state"], request["seed"])
                return {"reply": "ready"}
            if op == "act":
                self.act(request["action"])
                return {"reply": "accepted"}
            if op == "choose":
                self.choose(request["player"], request["choice"])
                return {"reply": "accepted"}
            if op == "observe":
                return {"reply": "view", "view": self.observe(request["viewer"])}
            return {"reply": "errored", "message": f"unknown op {op!r}"}
        except Refused as e:
            return {"reply": "rejected", "reason": str(e), **({"rule": e.rule} if e.rule else {})}
        except Lacks as e:
            return {
                "reply": "unsupported",
                "reason": str(e),
                **({"capability": e.capability} if e.capability else {}),
            }
        except Nonsense as e:
            return {"reply": "errored", "message": str(e)}
        except Exception as e:
            return {"reply": "errored", "message": f"{type(e).__name__}: {e}"}


def factory() -> Adapter:
    return Adapter()


def main():
    adapter = Adapter()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            reply = adapter.handle(request)
        except ValueError as e:
            request, reply = {}, {"reply": "errored", "message": str(e)}
        rid = request.get("id") if isinstance(request, dict) else None
        sys.stdout.write(json.dumps({**reply, "id": rid if isinstance(rid, int) else None}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
